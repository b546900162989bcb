// SPDX-License-Identifier: MIT
// What the compiler's module constructors register (__hipRegisterFatBinary and
// friends) and the kernel and module handles of the module API.
//
// Registration stores pointers and names only: no parsing, no device work, no
// runtime initialization, so it is safe in static constructors and takes
// microseconds. Code objects load per device on first use (code_image.hpp).
// Every class here is thread-safe. The Registry is never destroyed (module
// destructors may run during exit).
#pragma once

#include "codeobj/code_image.hpp"
#include "runtime/handle_registry.hpp"
#include "runtime/hazard.hpp"

#include <weft/driver/device.hpp>

#include <array>
#include <atomic>
#include <functional>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace weft {

class DeviceState;

// hipFunction_t: one kernel loaded on one device.
class Function final : public RefCounted {
 public:
  Function(DeviceState& device, Ref<Kernel> kernel) : device_(device), kernel_(std::move(kernel)) {}
  DeviceState& device() const { return device_; }
  const Ref<Kernel>& kernel() const { return kernel_; }
  const KernelInfo& info() const { return kernel_->info(); }

  // hipFuncSetAttribute values; -1 = not set.
  std::atomic<int> max_dynamic_shared{-1};
  std::atomic<int> shared_carveout{-1};

 private:
  DeviceState& device_;
  Ref<Kernel> kernel_;
};

// hipModule_t: a module loaded on one device by hipModuleLoad*.
class ModuleHandle final : public RefCounted {
 public:
  ModuleHandle(DeviceState& device, Ref<Module> module, Ref<CodeImage> image)
      : device_(device), module_(std::move(module)), image_(std::move(image)) {}
  DeviceState& device() const { return device_; }
  Module& module() const { return *module_; }
  // The kernel's handle; the same one for every call with the same name.
  Result<Ref<Function>> function(std::string_view name);
  std::vector<Ref<Function>> functions();

 private:
  DeviceState& device_;
  Ref<Module> module_;
  Ref<CodeImage> image_;
  std::mutex mutex_;
  std::unordered_map<std::string, Ref<Function>> functions_;
};

// One registered fat binary.
class FatBinary final : public RefCounted {
 public:
  explicit FatBinary(Ref<CodeImage> image) : image_(std::move(image)) {}
  CodeImage& image() const { return *image_; }
  // The module for the device (loaded on first use; managed variables are then
  // bound to it).
  Result<Ref<Module>> module_for(DeviceState& device, std::string_view what);

  struct Managed {
    std::string name;
    void** slot;
    size_t size;
  };
  void add_managed(Managed m);

  // Texture references (__hipRegisterTexture): each image has its own copy of a
  // `texture<>` global, which must hold the texture object the host's reference is
  // bound to (api/texture_reference.cpp copies it before launches).
  struct TextureRef {
    std::string name;  // the image's variable
    const void* host;  // the host's textureReference
  };
  void add_texture(TextureRef t);
  bool has_textures() const { return has_textures_.load(std::memory_order_acquire); }
  // The value last copied into a texture reference's copy on a device.
  static constexpr uint64_t kUnwritten = ~uint64_t{0};
  // Calls `refresh(ref, written)` for every texture reference, with `written` (by
  // reference) the handle last copied into `device`'s copy (kUnwritten after a
  // module load), under a lock of its own: calls on one binary run one at a time.
  Status for_each_texture(DeviceState& device,
                          const std::function<Status(const TextureRef&, uint64_t&)>& refresh);
  // The host reference was bound or unbound: every device's copy is stale (a new
  // object may have the address of a destroyed one, so the value alone cannot tell).
  void forget_texture(const void* host);

 private:
  Ref<CodeImage> image_;
  std::mutex mutex_;
  std::vector<Managed> managed_;
  std::atomic<bool> has_textures_{false};
  std::mutex textures_mutex_;  // leaf for the list; held across the refresh's submits
  struct TextureState {
    TextureRef ref;
    std::vector<uint64_t> written;  // by device ordinal
  };
  std::vector<TextureState> textures_;
};

class RegisteredFunction final : public RefCounted {
 public:
  RegisteredFunction(Ref<FatBinary> fatbin, std::string name, const void* host_function)
      : fatbin_(std::move(fatbin)), name_(std::move(name)), host_function_(host_function) {}
  const std::string& name() const { return name_; }
  FatBinary& fatbin() const { return *fatbin_; }
  // The host stub it was registered for (the key hipLaunchKernel gets).
  const void* host_function() const { return host_function_; }
  // The kernel on `device`; hipErrorNoBinaryForGpu when the binary has none for it.
  Result<Ref<Function>> function_for(DeviceState& device);
  // function_for's common case without a reference: the Function already loaded
  // for device `ordinal` (it lives as long as this object), or null.
  Function* loaded_for(int ordinal) const {
    return size_t(ordinal) < kFastDevices ? fast_[size_t(ordinal)].load(std::memory_order_acquire)
                                          : nullptr;
  }
  std::vector<Ref<Function>> loaded_functions();

  std::atomic<int> max_dynamic_shared{-1};
  std::atomic<int> shared_carveout{-1};

 private:
  Result<Ref<Function>> load_locked(DeviceState& device);

  Ref<FatBinary> fatbin_;
  std::string name_;
  const void* const host_function_;
  std::mutex mutex_;
  std::vector<Ref<Function>> by_device_;  // entries, once set, stay until destruction
  std::vector<bool> reported_;            // by device: the no-binary failure was logged
  // by_device_[i] readable without the lock (every <<<>>> launch asks), set under it.
  static constexpr size_t kFastDevices = 16;
  std::array<std::atomic<Function*>, kFastDevices> fast_{};
};

class RegisteredVariable final : public RefCounted {
 public:
  RegisteredVariable(Ref<FatBinary> fatbin, std::string name, size_t size, bool managed,
                     void** slot)
      : fatbin_(std::move(fatbin)), name_(std::move(name)), size_(size), managed_(managed),
        slot_(slot) {}
  const std::string& name() const { return name_; }
  size_t size() const { return size_; }
  bool managed() const { return managed_; }
  // Managed variables: where the storage is now (host code reaches it through the slot).
  const void* managed_storage() const { return managed_ ? *slot_ : nullptr; }
  // The variable's storage as `device` sees it.
  Result<std::span<std::byte>> address_on(DeviceState& device);

 private:
  Ref<FatBinary> fatbin_;
  std::string name_;
  size_t size_;
  bool managed_;
  void** slot_;  // managed variables: the host's pointer slot
};

class Registry {
 public:
  static Registry& get();

  // The registration ABI; malformed wrappers return null and are logged.
  void** add_fat_binary(const void* wrapper);
  void add_function(void** handle, const void* host_function, const char* name);
  void add_variable(void** handle, const void* host_shadow, const char* name, size_t size);
  void add_managed(void** handle, void** slot, const void* init, const char* name, size_t size,
                   unsigned align);
  // A texture<> global: a variable (hipMemcpyToSymbol & co. reach it) and a
  // texture reference of its fat binary.
  void add_texture(void** handle, const void* host_reference, const char* name);
  // hipBindTexture* / hipUnbindTexture changed this host reference.
  void texture_rebound(const void* host_reference);
  void remove_fat_binary(void** handle);

  Ref<RegisteredFunction> function(const void* host_function) const;
  // The same from the lookup cache without a reference: the object stays alive
  // while `hold` names it (HandleRegistry::find_held's contract); null when it is
  // not cached (the caller then asks function()).
  RegisteredFunction* function_held(const void* host_function,
                                    std::atomic<const void*>& hold) const;
  // By host shadow address; managed variables also by their storage address
  // (what `&m` evaluates to in hipcc-compiled host code).
  Ref<RegisteredVariable> variable(const void* host_shadow) const;
  // The registered kernel whose Function handle this is, if any.
  std::string name_of(const void* host_function) const;

  HandleRegistry<Function>& functions() { return functions_; }
  HandleRegistry<ModuleHandle>& modules() { return modules_; }

 private:
  Registry() = default;
  struct Handle;

  // Requires mutex_ (unique): the cache entry of `f`, if it has one, goes; the
  // caller then waits for lookups that may be taking a reference
  // (hazard::wait_unguarded) before it lets the last reference go.
  void uncache_locked(const RegisteredFunction* f);
  static size_t function_slot(const void* host_function) {
    return hazard::cache_slot<kFunctionCacheBits>(host_function);
  }

  mutable std::shared_mutex mutex_;
  std::unordered_map<const void*, Ref<RegisteredFunction>> by_host_function_;
  // A lock-free lookup cache in front of by_host_function_ (a subset of it,
  // written under mutex_, found by the object's host_function(); references
  // taken under a hazard pointer, runtime/hazard.hpp).
  static constexpr unsigned kFunctionCacheBits = 8;
  std::array<std::atomic<RegisteredFunction*>, size_t(1) << kFunctionCacheBits> function_cache_{};
  std::unordered_map<const void*, Ref<RegisteredVariable>> by_host_variable_;
  HandleRegistry<Function> functions_;
  HandleRegistry<ModuleHandle> modules_;
};

}  // namespace weft
