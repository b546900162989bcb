// SPDX-License-Identifier: MIT
#include "codeobj/code_image.hpp"

#include "runtime/runtime.hpp"

#include <weft/common/log.hpp>

#include <link.h>

namespace weft {
namespace {

// Bytes from `p` to the end of the loaded segment that holds it: a safe bound
// for a fat binary whose size the registration ABI does not pass.
size_t extent_of_loaded(const void* p) {
  struct Query {
    uintptr_t address;
    size_t extent;
  } query{reinterpret_cast<uintptr_t>(p), 0};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
    auto* q = static_cast<Query*>(data);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
      const auto& ph = info->dlpi_phdr[i];
      if (ph.p_type != PT_LOAD) continue;
      uintptr_t start = info->dlpi_addr + ph.p_vaddr;
      uintptr_t end = start + ph.p_memsz;
      if (q->address >= start && q->address < end) {
        q->extent = end - q->address;
        return 1;
      }
    }
    return 0;
      },
      &query);
  return query.extent;
}

}  // namespace

Ref<CodeImage> CodeImage::registered(const void* data) {
  Ref<CodeImage> image(new CodeImage());
  image->data_ = static_cast<const std::byte*>(data);
  image->registered_ = true;
  return image;
}

Ref<CodeImage> CodeImage::owned(std::vector<std::byte> bytes) {
  Ref<CodeImage> image(new CodeImage());
  image->owned_ = std::move(bytes);
  image->data_ = image->owned_.data();
  image->size_ = image->owned_.size();
  return image;
}

Status CodeImage::open_locked() {
  if (open_tried_) return open_error_;
  open_tried_ = true;
  if (registered_) {
    // Bound by the segment that holds it; a fat binary built at run time (not in
    // any loaded segment) is measured from its own headers instead.
    size_ = extent_of_loaded(data_);
    if (size_ == 0) {
      // Copied through safe_copy: headers that claim more than is mapped fail here.
      auto copy = codeobj::copy_image(data_);
      if (!copy.ok()) {
        open_error_ = copy.status();
        return open_error_;
      }
      owned_ = std::move(copy).value();
      data_ = owned_.data();
      size_ = owned_.size();
    }
  }
  auto opened = codeobj::OpenedImage::open(std::span<const std::byte>(data_, size_));
  if (!opened.ok()) {
    open_error_ = opened.status();
    return open_error_;
  }
  opened_ = std::move(opened).value();
  return Status();
}

Result<std::string> CodeImage::targets() {
  std::lock_guard lock(mutex_);
  WEFT_RETURN_IF_ERROR(open_locked());
  return opened_->targets_text();
}

Result<CodeImage::Loaded> CodeImage::module_for(DeviceState& device, std::string_view what) {
  std::lock_guard lock(mutex_);
  WEFT_RETURN_IF_ERROR(open_locked());
  if (slots_.size() <= size_t(device.ordinal())) slots_.resize(device.ordinal() + 1);
  Slot& slot = slots_[device.ordinal()];
  Device& agent = device.driver_device();
  if (!slot.tried) {
    slot.tried = true;
    const codeobj::CodeObjectCandidate* chosen = opened_->select(agent.target_id());
    if (!chosen) {
      slot.error = Status(hipErrorNoBinaryForGpu, "");
    } else {
      log::info(log::kCode, "loading code object {} ({} bytes) on device {} ({})",
                chosen->entry_id.empty() ? chosen->target : chosen->entry_id, chosen->data.size(),
                device.ordinal(), agent.target_id());
      auto module = agent.load_module(chosen->data);
      if (module.ok()) {
        slot.module = std::move(module).value();
        return Loaded{slot.module, true};
      }
      slot.error = module.status();
    }
  }
  if (slot.module) return Loaded{slot.module, false};
  if (slot.error.code() == hipErrorNoBinaryForGpu && slot.error.message().empty())
    return Status(
        hipErrorNoBinaryForGpu,
        fmt::format("{}: no code object for device {} (target {}); the binary carries: {}", what,
                    device.ordinal(), agent.target_id(), opened_->targets_text()));
  return Status(slot.error.code(),
                fmt::format("{}: loading the code object for device {} ({}) failed: {}", what,
                            device.ordinal(), agent.target_id(), slot.error.message()));
}

bool CodeImage::unload_all() {
  std::vector<Slot> slots;
  {
    std::lock_guard lock(mutex_);
    slots.swap(slots_);
  }
  bool any = false;
  for (auto& s : slots) any = any || bool(s.module);
  return any;
}

bool CodeImage::any_loaded() {
  std::lock_guard lock(mutex_);
  for (auto& s : slots_)
    if (s.module) return true;
  return false;
}

}  // namespace weft
