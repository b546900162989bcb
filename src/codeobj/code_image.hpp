// SPDX-License-Identifier: MIT
// A code-object container (registered fat binary or hipModuleLoad* image) and
// the modules loaded from it, one per device, each on first use.
//
// Registration only records the pointer: the container is opened (bundle
// parsed, CCOB decompressed) on the first module request, and a device's code
// object is picked by target ID and loaded only when that device needs it.
// Thread-safe (one mutex per image; loading happens under it).
#pragma once

#include <weft/codeobj/image.hpp>
#include <weft/driver/device.hpp>

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace weft {

class DeviceState;

class CodeImage final : public RefCounted {
 public:
  // A fat binary in the program's memory (the .hip_fatbin data); its extent is
  // found when first opened.
  static Ref<CodeImage> registered(const void* data);
  // An image weft keeps a copy of (hipModuleLoadData).
  static Ref<CodeImage> owned(std::vector<std::byte> bytes);

  struct Loaded {
    Ref<Module> module;
    bool first_load = false;  // true for the call that loaded it
  };
  // The module for `device`. hipErrorNoBinaryForGpu (message: the device's target
  // and the targets carried) when no code object fits; hipErrorInvalidImage when
  // the container is malformed. `what` names the kernel or symbol for the message.
  Result<Loaded> module_for(DeviceState& device, std::string_view what);

  // Opens the container if needed; the targets it carries ("gfx90a, x86_64").
  Result<std::string> targets();
  // Drops every loaded module; returns whether any had been loaded.
  bool unload_all();
  bool any_loaded();

 private:
  CodeImage() = default;
  Status open_locked();

  std::mutex mutex_;
  const std::byte* data_ = nullptr;
  size_t size_ = 0;  // 0 until known, for registered images
  bool registered_ = false;
  std::vector<std::byte> owned_;
  std::optional<codeobj::OpenedImage> opened_;
  Status open_error_;
  bool open_tried_ = false;
  struct Slot {
    Ref<Module> module;
    Status error;
    bool tried = false;
  };
  std::vector<Slot> slots_;  // by device ordinal
};

}  // namespace weft
