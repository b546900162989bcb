// SPDX-License-Identifier: MIT
#include "codeobj/registry.hpp"

#include "runtime/runtime.hpp"

#include <weft/common/log.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace weft {
namespace {

// __hip_fatbin_wrapper (hip-abi-facts.md section 2).
struct FatBinaryWrapper {
  uint32_t magic;
  uint32_t version;
  const void* binary;
  const void* reserved;
};
constexpr uint32_t kWrapperMagic = 0x48495046;  // "HIPF"
constexpr uint32_t kWrapperVersion = 1;

}  // namespace

struct Registry::Handle {
  Ref<FatBinary> fatbin;
  std::vector<const void*> functions;  // host keys registered through this handle
  std::vector<const void*> variables;
};

namespace {
std::mutex g_handles_mutex;
std::unordered_set<const void*>& live_handles() {
  static auto* set = new std::unordered_set<const void*>();
  return *set;
}
// The fat binary of each live handle (under g_handles_mutex).
std::unordered_map<const void*, Ref<FatBinary>>& live_fatbins() {
  static auto* map = new std::unordered_map<const void*, Ref<FatBinary>>();
  return *map;
}
}  // namespace

// ---- Function and module handles ----

Result<Ref<Function>> ModuleHandle::function(std::string_view name) {
  std::lock_guard lock(mutex_);
  auto it = functions_.find(std::string(name));
  if (it != functions_.end()) return it->second;
  WEFT_ASSIGN_OR_RETURN(Ref<Kernel> kernel, module_->kernel(name));
  auto f = make_ref<Function>(device_, std::move(kernel));
  functions_.emplace(std::string(name), f);
  Registry::get().functions().add(f);
  return Ref<Function>(f);
}

std::vector<Ref<Function>> ModuleHandle::functions() {
  std::lock_guard lock(mutex_);
  std::vector<Ref<Function>> out;
  for (auto& [name, f] : functions_) out.push_back(f);
  return out;
}

// ---- Fat binaries ----

void FatBinary::add_managed(Managed m) {
  std::lock_guard lock(mutex_);
  managed_.push_back(std::move(m));
}

void FatBinary::add_texture(TextureRef t) {
  std::lock_guard lock(textures_mutex_);
  textures_.push_back({std::move(t), {}});
  has_textures_.store(true, std::memory_order_release);
}

Status FatBinary::for_each_texture(
    DeviceState& device, const std::function<Status(const TextureRef&, uint64_t&)>& refresh) {
  const size_t ordinal = size_t(device.ordinal());
  std::lock_guard lock(textures_mutex_);
  for (TextureState& t : textures_) {
    if (t.written.size() <= ordinal) t.written.resize(ordinal + 1, kUnwritten);
    WEFT_RETURN_IF_ERROR(refresh(t.ref, t.written[ordinal]));
  }
  return Status();
}

void FatBinary::forget_texture(const void* host) {
  std::lock_guard lock(textures_mutex_);
  for (TextureState& t : textures_)
    if (t.ref.host == host) std::fill(t.written.begin(), t.written.end(), kUnwritten);
}

namespace {

// Ordinals of the devices on which every registered fat binary has been loaded.
std::mutex g_preloaded_mutex;
std::vector<bool> g_preloaded;

// The first load of a registered fat binary on a device loads all the others there too:
// CUDA's cuModuleLoadData waits until the device is idle, so a module loaded at its first
// launch while a kernel runs would wait for that kernel, and one that spins until the host
// opens a gate would never let the launch return (the launch waited 12 s on the H200).
// HIP promises no such wait: a program's kernels are all loaded before the first runs.
// Binaries registered later (a library opened after that) still load on first use. A
// binary without a code object for the device, or one that fails to load, reports that
// at its first launch, as before.
void preload_registered(DeviceState& device, const FatBinary* first) {
  {
    std::lock_guard lock(g_preloaded_mutex);
    const size_t ordinal = size_t(device.ordinal());
    if (g_preloaded.size() <= ordinal) g_preloaded.resize(ordinal + 1);
    if (g_preloaded[ordinal]) return;
    g_preloaded[ordinal] = true;
  }
  std::vector<Ref<FatBinary>> others;
  {
    std::lock_guard lock(g_handles_mutex);
    for (const auto& [handle, fatbin] : live_fatbins())
      if (fatbin.get() != first) others.push_back(fatbin);
  }
  for (auto& fatbin : others) (void)fatbin->module_for(device, "fat binary");
}

}  // namespace

Result<Ref<Module>> FatBinary::module_for(DeviceState& device, std::string_view what) {
  WEFT_ASSIGN_OR_RETURN(CodeImage::Loaded loaded, image_->module_for(device, what));
  if (!loaded.first_load) return loaded.module;
  preload_registered(device, this);
  if (has_textures()) {
    // A new module's texture references hold nothing yet: the next launch copies them.
    std::lock_guard lock(textures_mutex_);
    for (TextureState& t : textures_)
      if (t.written.size() > size_t(device.ordinal())) t.written[device.ordinal()] = kUnwritten;
  }
  std::lock_guard lock(mutex_);
  for (const Managed& m : managed_) {
    auto storage = loaded.module->global(m.name);
    if (!storage.ok()) continue;
    if (!device.driver_device().caps().host_can_access_device_memory) {
      // TODO(issue 3, HSA/CUDA drivers): write the managed pointer into the device's `m` with a copy.
      log::warning("managed variable {} is not bound on device {}", m.name, device.ordinal());
      continue;
    }
    std::span<std::byte> g = storage.value();
    if (loaded.module->global(m.name + ".managed").ok() && g.size() == sizeof(void*)) {
      // clang's device form: `m` is a pointer the runtime points at the storage.
      std::memcpy(g.data(), m.slot, sizeof(void*));
    } else if (g.size() >= m.size) {
      // A CPU code object holds the storage itself: the host's slot moves to it, so
      // host and kernels share one copy from now on.
      std::memcpy(g.data(), *m.slot, m.size);
      *m.slot = g.data();
    }
  }
  return loaded.module;
}

Result<Ref<Function>> RegisteredFunction::function_for(DeviceState& device) {
  const size_t ordinal = size_t(device.ordinal());
  if (ordinal < kFastDevices)
    if (Function* f = fast_[ordinal].load(std::memory_order_acquire)) return Ref<Function>(f);
  std::lock_guard lock(mutex_);
  if (by_device_.size() > ordinal && by_device_[ordinal]) return by_device_[ordinal];
  Result<Ref<Function>> found = load_locked(device);
  if (found.ok()) {
    if (by_device_.size() <= ordinal) by_device_.resize(ordinal + 1);
    by_device_[ordinal] = found.value();
    if (ordinal < kFastDevices)
      fast_[ordinal].store(found.value().get(), std::memory_order_release);
    Registry::get().functions().add(found.value());
  } else if (found.status().code() == hipErrorNoBinaryForGpu) {
    // Said once per kernel and device whatever the log level, as clr does: a
    // program built for other GPUs should say so plainly.
    if (reported_.size() <= ordinal) reported_.resize(ordinal + 1);
    if (!reported_[ordinal]) {
      reported_[ordinal] = true;
      log::write(log::Level::kError, "hipErrorNoBinaryForGpu: " + found.status().message());
    }
  }
  return found;
}

Result<Ref<Function>> RegisteredFunction::load_locked(DeviceState& device) {
  WEFT_ASSIGN_OR_RETURN(Ref<Module> module, fatbin_->module_for(device, "kernel " + name_));
  auto kernel = module->kernel(name_);
  if (!kernel.ok()) {
    auto targets = fatbin_->image().targets();
    return Status(
        hipErrorNoBinaryForGpu,
        fmt::format("kernel {}: the code object for device {} (target {}) does not contain it; the "
                    "binary carries: {}",
                    name_, device.ordinal(), device.driver_device().target_id(),
                    targets.ok() ? targets.value() : "?"));
  }
  return make_ref<Function>(device, std::move(kernel).value());
}

std::vector<Ref<Function>> RegisteredFunction::loaded_functions() {
  std::lock_guard lock(mutex_);
  std::vector<Ref<Function>> out;
  for (auto& f : by_device_)
    if (f) out.push_back(f);
  return out;
}

Result<std::span<std::byte>> RegisteredVariable::address_on(DeviceState& device) {
  if (managed_) return std::span<std::byte>(static_cast<std::byte*>(*slot_), size_);
  WEFT_ASSIGN_OR_RETURN(Ref<Module> module, fatbin_->module_for(device, "variable " + name_));
  auto storage = module->global(name_);
  if (!storage.ok())
    return Status(
        hipErrorInvalidSymbol,
        fmt::format("variable {} is not in the code object of device {}", name_, device.ordinal()));
  std::span<std::byte> s = storage.value();
  // The registered size is the compiler's; trust the module's when it is smaller.
  if (s.size() == 0 || s.size() > size_) s = std::span<std::byte>(s.data(), size_);
  return s;
}

// ---- Registry ----

Registry& Registry::get() {
  static Registry* registry = new Registry();  // never destroyed: see the header
  return *registry;
}

void** Registry::add_fat_binary(const void* wrapper_ptr) {
  const auto* wrapper = static_cast<const FatBinaryWrapper*>(wrapper_ptr);
  if (!wrapper || wrapper->magic != kWrapperMagic || wrapper->version != kWrapperVersion ||
      !wrapper->binary) {
    log::error(
        "__hipRegisterFatBinary: bad fat binary wrapper {} (magic {:#x}, version {}); its kernels "
        "will "
        "not launch",
        wrapper_ptr, wrapper ? wrapper->magic : 0, wrapper ? wrapper->version : 0);
    return nullptr;
  }
  auto* handle = new Handle{make_ref<FatBinary>(CodeImage::registered(wrapper->binary)), {}, {}};
  std::lock_guard lock(g_handles_mutex);
  live_handles().insert(handle);
  live_fatbins().emplace(handle, handle->fatbin);
  return reinterpret_cast<void**>(handle);
}

void Registry::add_function(void** h, const void* host_function, const char* name) {
  if (!h || !host_function || !name) return;
  auto* handle = reinterpret_cast<Handle*>(h);
  {
    std::lock_guard lock(g_handles_mutex);
    if (!live_handles().count(handle)) return;
    handle->functions.push_back(host_function);
  }
  auto f = make_ref<RegisteredFunction>(handle->fatbin, name, host_function);
  Ref<RegisteredFunction> replaced;
  {
    std::unique_lock lock(mutex_);
    Ref<RegisteredFunction>& entry = by_host_function_[host_function];
    if (entry) uncache_locked(entry.get());
    replaced = std::move(entry);
    entry = f;
    function_cache_[function_slot(host_function)].store(f.get(), std::memory_order_seq_cst);
  }
  if (replaced) hazard::wait_unguarded(replaced.get());
}

void Registry::uncache_locked(const RegisteredFunction* f) {
  auto& entry = function_cache_[function_slot(f->host_function())];
  if (entry.load(std::memory_order_relaxed) == f) entry.store(nullptr, std::memory_order_seq_cst);
}

void Registry::add_variable(void** h, const void* host_shadow, const char* name, size_t size) {
  if (!h || !host_shadow || !name) return;
  auto* handle = reinterpret_cast<Handle*>(h);
  {
    std::lock_guard lock(g_handles_mutex);
    if (!live_handles().count(handle)) return;
    handle->variables.push_back(host_shadow);
  }
  auto v = make_ref<RegisteredVariable>(handle->fatbin, name, size, false, nullptr);
  std::unique_lock lock(mutex_);
  by_host_variable_[host_shadow] = std::move(v);
}

void Registry::add_managed(void** h, void** slot, const void* init, const char* name, size_t size,
                           unsigned align) {
  if (!h || !slot || !name) return;
  auto* handle = reinterpret_cast<Handle*>(h);
  {
    std::lock_guard lock(g_handles_mutex);
    if (!live_handles().count(handle)) return;
    handle->variables.push_back(slot);
  }
  // Managed memory on the host: every agent weft drives today reaches it. It is
  // never freed, as host code may use the variable until the process ends.
  size_t alignment = (align >= sizeof(void*) && (align & (align - 1)) == 0) ? align : 64;
  void* storage = nullptr;
  if (posix_memalign(&storage, alignment, size ? size : 1) != 0) {
    log::error("__hipRegisterManagedVar: cannot allocate {} bytes for {}", size, name);
    return;
  }
  if (init) std::memcpy(storage, init, size);
  else std::memset(storage, 0, size);
  *slot = storage;
  handle->fatbin->add_managed({name, slot, size});
  auto v = make_ref<RegisteredVariable>(handle->fatbin, name, size, true, slot);
  std::unique_lock lock(mutex_);
  by_host_variable_[slot] = std::move(v);
}

void Registry::add_texture(void** h, const void* host_reference, const char* name) {
  if (!h || !host_reference || !name) return;
  auto* handle = reinterpret_cast<Handle*>(h);
  {
    std::lock_guard lock(g_handles_mutex);
    if (!live_handles().count(handle)) return;
  }
  add_variable(h, host_reference, name, sizeof(textureReference));
  handle->fatbin->add_texture({name, host_reference});
}

void Registry::texture_rebound(const void* host_reference) {
  std::vector<Ref<FatBinary>> fatbins;
  {
    std::lock_guard lock(g_handles_mutex);
    for (const auto& [handle, fatbin] : live_fatbins())
      if (fatbin->has_textures()) fatbins.push_back(fatbin);
  }
  for (auto& fatbin : fatbins) fatbin->forget_texture(host_reference);
}

void Registry::remove_fat_binary(void** h) {
  auto* handle = reinterpret_cast<Handle*>(h);
  {
    std::lock_guard lock(g_handles_mutex);
    if (!handle || !live_handles().erase(handle)) return;
    live_fatbins().erase(handle);
  }
  std::vector<Ref<RegisteredFunction>> removed;
  {
    std::unique_lock lock(mutex_);
    for (const void* key : handle->functions) {
      auto it = by_host_function_.find(key);
      if (it == by_host_function_.end() || &it->second->fatbin() != handle->fatbin.get()) continue;
      uncache_locked(it->second.get());
      removed.push_back(std::move(it->second));
      by_host_function_.erase(it);
    }
    for (const void* key : handle->variables) {
      auto it = by_host_variable_.find(key);
      if (it != by_host_variable_.end()) by_host_variable_.erase(it);
    }
  }
  if (!removed.empty()) {
    std::vector<const void*> objects;
    for (auto& f : removed) objects.push_back(f.get());
    hazard::wait_unguarded(objects.data(), objects.size());
  }
  for (auto& f : removed)
    for (auto& loaded : f->loaded_functions()) functions_.remove(loaded.get());
  if (handle->fatbin->image().any_loaded()) {
    // Kernels of this binary may still be queued: let them finish before their
    // code goes away (clr also synchronizes here).
    Runtime& rt = Runtime::get();
    for (int i = 0; i < rt.device_count(); ++i) (void)rt.device(i)->synchronize();
    handle->fatbin->image().unload_all();
  }
  delete handle;
}

Ref<RegisteredFunction> Registry::function(const void* host_function) const {
  // The cache first: publish a guard on the candidate, check it is still the
  // entry (whoever removes it clears the entry before it scans the guards), and
  // only then read its key and take a reference.
  const auto& entry = function_cache_[function_slot(host_function)];
  if (RegisteredFunction* candidate = entry.load(std::memory_order_acquire)) {
    if (hazard::Record* guard = hazard::record()) {
      hazard::guard(guard, candidate);
      Ref<RegisteredFunction> hit;
      if (entry.load(std::memory_order_seq_cst) == candidate &&
          candidate->host_function() == host_function)
        hit = Ref<RegisteredFunction>(candidate);
      hazard::unguard(guard);
      if (hit) return hit;
    }
  }
  std::shared_lock lock(mutex_);
  auto it = by_host_function_.find(host_function);
  return it == by_host_function_.end() ? Ref<RegisteredFunction>() : it->second;
}

RegisteredFunction* Registry::function_held(const void* host_function,
                                            std::atomic<const void*>& hold) const {
  const auto& entry = function_cache_[function_slot(host_function)];
  RegisteredFunction* candidate = entry.load(std::memory_order_acquire);
  if (!candidate) return nullptr;
  if (hazard::g_asymmetric_fences) [[likely]] {
    hold.store(candidate, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    hold.store(candidate, std::memory_order_seq_cst);
  }
  if (entry.load(std::memory_order_seq_cst) == candidate &&
      candidate->host_function() == host_function)
    return candidate;
  hold.store(nullptr, std::memory_order_release);
  return nullptr;
}

Ref<RegisteredVariable> Registry::variable(const void* host_shadow) const {
  std::shared_lock lock(mutex_);
  auto it = by_host_variable_.find(host_shadow);
  if (it != by_host_variable_.end()) return it->second;
  for (const auto& [key, v] : by_host_variable_)
    if (v->managed() && v->managed_storage() == host_shadow) return v;
  return Ref<RegisteredVariable>();
}

std::string Registry::name_of(const void* host_function) const {
  auto f = function(host_function);
  return f ? f->name() : std::string();
}

}  // namespace weft
