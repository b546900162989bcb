// SPDX-License-Identifier: MIT
// Library and kernel objects (hipLibrary*, hipKernel*) and hipModuleGetFunctionCount.
//
// A hipLibrary_t is a code image that is not tied to one device: it is loaded on
// the current device when created (so a bad image fails there), and on any other
// device the first time one of its kernels is used there. A hipKernel_t names one
// kernel of a library; hipKernelGetFunction gives the current device's
// hipFunction_t for it, which the module launch entry points take. Unloading a
// library invalidates its kernels and their functions; launches already queued
// keep their code alive (as hipModuleUnload).
#include "api/api.hpp"
#include "api/launch_module.hpp"
#include "codeobj/registry.hpp"

#include <weft/codeobj/image.hpp>

#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace weft;
using namespace weft::api;

namespace {

class Library;

// Holds its library, so a kernel in use on one thread keeps it alive while another
// unloads it (unload breaks the library's references back to its kernels).
class LibraryKernel final : public RefCounted {
 public:
  LibraryKernel(Ref<Library> library, std::string name)
      : library_(std::move(library)), name_(std::move(name)) {}
  Library& library() const { return *library_; }
  const std::string& name() const { return name_; }

 private:
  Ref<Library> library_;
  const std::string name_;
};

class Library final : public RefCounted {
 public:
  Library(Ref<CodeImage> image, std::vector<std::string> names)
      : image_(std::move(image)), names_(std::move(names)) {}

  // The library's module on `device`, loaded on first use.
  Result<Ref<ModuleHandle>> module_on(DeviceState& device) {
    std::lock_guard lock(mutex_);
    auto it = modules_.find(device.ordinal());
    if (it != modules_.end()) return it->second;
    WEFT_ASSIGN_OR_RETURN(CodeImage::Loaded loaded, image_->module_for(device, "library"));
    auto handle = make_ref<ModuleHandle>(device, std::move(loaded.module), image_);
    modules_.emplace(device.ordinal(), handle);
    return Ref<ModuleHandle>(handle);
  }

  // The kernel object for `name`: one per name, made on first request.
  Ref<LibraryKernel> kernel(const std::string& name) {
    std::lock_guard lock(mutex_);
    auto it = kernels_.find(name);
    if (it != kernels_.end()) return it->second;
    auto k = make_ref<LibraryKernel>(Ref<Library>(this), name);
    kernels_.emplace(name, k);
    return k;
  }

  // Kernel names as the load device's module lists them; empty when the agent
  // cannot list them (then only hipLibraryGetKernel by name works).
  const std::vector<std::string>& names() const { return names_; }

  // Everything to unregister on unload; forgets the kernels (they hold the library).
  std::vector<Ref<LibraryKernel>> take_kernels() {
    std::lock_guard lock(mutex_);
    std::vector<Ref<LibraryKernel>> out;
    for (auto& [name, k] : kernels_) out.push_back(k);
    kernels_.clear();
    return out;
  }
  std::vector<Ref<ModuleHandle>> modules() {
    std::lock_guard lock(mutex_);
    std::vector<Ref<ModuleHandle>> out;
    for (auto& [ordinal, m] : modules_) out.push_back(m);
    return out;
  }

 private:
  Ref<CodeImage> image_;
  const std::vector<std::string> names_;
  std::mutex mutex_;
  std::map<int, Ref<ModuleHandle>> modules_;           // by device ordinal; mutex_
  std::map<std::string, Ref<LibraryKernel>> kernels_;  // by name; mutex_
};

HandleRegistry<Library>& libraries() {
  static HandleRegistry<Library> registry;
  return registry;
}

HandleRegistry<LibraryKernel>& kernels() {
  static HandleRegistry<LibraryKernel> registry;
  return registry;
}

hipLibrary_t handle_of(Library* library) { return reinterpret_cast<hipLibrary_t>(library); }
hipKernel_t handle_of(LibraryKernel* kernel) { return reinterpret_cast<hipKernel_t>(kernel); }

Result<Ref<Library>> library_of(hipLibrary_t handle) {
  if (!handle) return Status(hipErrorInvalidResourceHandle, "null library handle");
  Ref<Library> library = libraries().find(handle);
  if (!library)
    return Status(hipErrorInvalidResourceHandle, "library handle is unknown or was unloaded");
  return library;
}

Result<Ref<LibraryKernel>> kernel_of(hipKernel_t handle) {
  if (!handle) return Status(hipErrorInvalidResourceHandle, "null kernel handle");
  Ref<LibraryKernel> kernel = kernels().find(handle);
  if (!kernel)
    return Status(hipErrorInvalidResourceHandle,
                  "kernel handle is unknown or its library was unloaded");
  return kernel;
}

// The kernel's hipFunction_t on a device (the current one when `ordinal` < 0).
Result<Ref<Function>> function_on(const LibraryKernel& kernel, int ordinal) {
  DeviceState* device = nullptr;
  if (ordinal < 0) {
    WEFT_ASSIGN_OR_RETURN(device, current_device());
  } else {
    WEFT_ASSIGN_OR_RETURN(device, device_at(ordinal));
  }
  WEFT_ASSIGN_OR_RETURN(Ref<ModuleHandle> module, kernel.library().module_on(*device));
  return module->function(kernel.name());
}

Status check_options(unsigned count, const void* keys, void* const* values, const char* what) {
  if (count > 0 && (!keys || !values))
    return invalid_value(fmt::format("{} {} given without their arrays", count, what));
  return Status();
}

Status check_library_options(const hipLibraryOption* options, unsigned count) {
  for (unsigned i = 0; i < count; ++i) {
    int option = raw_value(options[i]);
    // Both options concern how CUDA keeps the image; a copy kept by weft satisfies both.
    if (option != hipLibraryHostUniversalFunctionAndDataTable &&
        option != hipLibraryBinaryIsPreserved)
      return invalid_value(fmt::format("library option {} is unknown", option));
  }
  return Status();
}

Status load(hipLibrary_t* out, std::vector<std::byte> bytes) {
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  Ref<CodeImage> image = CodeImage::owned(std::move(bytes));
  WEFT_ASSIGN_OR_RETURN(CodeImage::Loaded loaded, image->module_for(*device, "library"));
  Result<std::vector<std::string>> names = loaded.module->kernel_names();
  auto library = make_ref<Library>(image, names.ok() ? names.value() : std::vector<std::string>{});
  // The load device's module is the one just loaded: keep it.
  WEFT_RETURN_IF_ERROR(library->module_on(*device).status());
  libraries().add(library);
  *out = handle_of(library.get());
  return Status();
}

Status load_data(hipLibrary_t* out, const void* code, unsigned jit_count, hipJitOption* jit,
                 void** jit_values, hipLibraryOption* options, void** option_values,
                 unsigned option_count) {
  if (!out) return invalid_value("null library output");
  if (!code) return invalid_value("null code image");
  // JIT options tune PTX compilation; finished code objects ignore them (as AMD does).
  WEFT_RETURN_IF_ERROR(check_options(jit_count, jit, jit_values, "JIT options"));
  WEFT_RETURN_IF_ERROR(check_options(option_count, options, option_values, "library options"));
  WEFT_RETURN_IF_ERROR(check_library_options(options, option_count));
  WEFT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes,
                        codeobj::copy_image(static_cast<const std::byte*>(code)));
  return load(out, std::move(bytes));
}

Status load_file(hipLibrary_t* out, const char* path, unsigned jit_count, hipJitOption* jit,
                 void** jit_values, hipLibraryOption* options, void** option_values,
                 unsigned option_count) {
  if (!out) return invalid_value("null library output");
  if (!path) return invalid_value("null file name");
  WEFT_RETURN_IF_ERROR(check_options(jit_count, jit, jit_values, "JIT options"));
  WEFT_RETURN_IF_ERROR(check_options(option_count, options, option_values, "library options"));
  WEFT_RETURN_IF_ERROR(check_library_options(options, option_count));
  WEFT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes, read_image_file(path));
  return load(out, std::move(bytes));
}

Status unload(hipLibrary_t handle) {
  if (!handle) return Status(hipErrorInvalidResourceHandle, "null library handle");
  Ref<Library> library = libraries().remove(handle);
  if (!library)
    return Status(hipErrorInvalidResourceHandle, "library handle is unknown or was unloaded");
  for (const Ref<LibraryKernel>& k : library->take_kernels()) kernels().remove(k.get());
  for (const Ref<ModuleHandle>& m : library->modules())
    for (const Ref<Function>& f : m->functions()) Registry::get().functions().remove(f.get());
  return Status();
}

// hipKernelSetAttribute takes hipFunction_attribute; hipFuncSetAttribute's enum differs.
Result<hipFuncAttribute> settable(hipFunction_attribute attrib) {
  switch (attrib) {
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
      return hipFuncAttributeMaxDynamicSharedMemorySize;
    case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      return hipFuncAttributePreferredSharedMemoryCarveout;
    default:
      return invalid_value(
          fmt::format("function attribute {} is read-only or unknown", raw_value(attrib)));
  }
}

}  // namespace

WEFT_EXPORT hipError_t hipLibraryLoadData(hipLibrary_t* library, const void* code,
                                          hipJitOption* jitOptions, void** jitOptionsValues,
                                          unsigned int numJitOptions,
                                          hipLibraryOption* libraryOptions,
                                          void** libraryOptionValues,
                                          unsigned int numLibraryOptions) {
  return call(
      "hipLibraryLoadData",
      [&] {
    return load_data(library, code, numJitOptions, jitOptions, jitOptionsValues, libraryOptions,
                     libraryOptionValues, numLibraryOptions);
      },
      library, code, numJitOptions, numLibraryOptions);
}

WEFT_EXPORT hipError_t hipLibraryLoadFromFile(hipLibrary_t* library, const char* fileName,
                                              hipJitOption* jitOptions, void** jitOptionsValues,
                                              unsigned int numJitOptions,
                                              hipLibraryOption* libraryOptions,
                                              void** libraryOptionValues,
                                              unsigned int numLibraryOptions) {
  return call(
      "hipLibraryLoadFromFile",
      [&] {
    return load_file(library, fileName, numJitOptions, jitOptions, jitOptionsValues, libraryOptions,
                     libraryOptionValues, numLibraryOptions);
      },
      library, fileName, numJitOptions, numLibraryOptions);
}

WEFT_EXPORT hipError_t hipLibraryUnload(hipLibrary_t library) {
  return call(
      "hipLibraryUnload", [&] { return unload(library); }, library);
}

WEFT_EXPORT hipError_t hipLibraryGetKernel(hipKernel_t* pKernel, hipLibrary_t library,
                                           const char* name) {
  return call(
      "hipLibraryGetKernel",
      [&] {
    if (!pKernel) return invalid_value("null kernel output");
    if (!name) return invalid_value("null kernel name");
    WEFT_ASSIGN_OR_RETURN(Ref<Library> lib, library_of(library));
    // The name must exist: ask the module of the current device (loading it there if needed).
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(Ref<ModuleHandle> module, lib->module_on(*device));
    Status found = module->module().kernel(name).status();
    if (!found.ok()) return Status(hipErrorNotFound, found.message());
    Ref<LibraryKernel> k = lib->kernel(name);
    kernels().add(k);
    *pKernel = handle_of(k.get());
    return Status();
      },
      pKernel, library, name);
}

WEFT_EXPORT hipError_t hipLibraryGetKernelCount(unsigned int* count, hipLibrary_t library) {
  return call(
      "hipLibraryGetKernelCount",
      [&] {
    if (!count) return invalid_value("null count output");
    WEFT_ASSIGN_OR_RETURN(Ref<Library> lib, library_of(library));
    if (lib->names().empty()) {
      WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
      WEFT_ASSIGN_OR_RETURN(Ref<ModuleHandle> module, lib->module_on(*device));
      WEFT_ASSIGN_OR_RETURN(std::vector<std::string> names, module->module().kernel_names());
      *count = static_cast<unsigned>(names.size());
      return Status();
    }
    *count = static_cast<unsigned>(lib->names().size());
    return Status();
      },
      count, library);
}

WEFT_EXPORT hipError_t hipLibraryEnumerateKernels(hipKernel_t* kernels_out, unsigned int numKernels,
                                                  hipLibrary_t library) {
  return call(
      "hipLibraryEnumerateKernels",
      [&] {
    if (!kernels_out) return invalid_value("null kernel array");
    if (numKernels == 0) return invalid_value("numKernels must be positive");
    WEFT_ASSIGN_OR_RETURN(Ref<Library> lib, library_of(library));
    std::vector<std::string> names = lib->names();
    if (names.empty()) {
      WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
      WEFT_ASSIGN_OR_RETURN(Ref<ModuleHandle> module, lib->module_on(*device));
      WEFT_ASSIGN_OR_RETURN(names, module->module().kernel_names());
    }
    // The first numKernels kernels, in the library's order.
    for (size_t i = 0; i < names.size() && i < numKernels; ++i) {
      Ref<LibraryKernel> k = lib->kernel(names[i]);
      kernels().add(k);
      kernels_out[i] = handle_of(k.get());
    }
    return Status();
      },
      kernels_out, numKernels, library);
}

WEFT_EXPORT hipError_t hipKernelGetLibrary(hipLibrary_t* library, hipKernel_t kernel) {
  return call(
      "hipKernelGetLibrary",
      [&] {
    if (!library) return invalid_value("null library output");
    WEFT_ASSIGN_OR_RETURN(Ref<LibraryKernel> k, kernel_of(kernel));
    *library = handle_of(&k->library());
    return Status();
      },
      library, kernel);
}

WEFT_EXPORT hipError_t hipKernelGetName(const char** name, hipKernel_t kernel) {
  return call(
      "hipKernelGetName",
      [&] {
    if (!name) return invalid_value("null name output");
    WEFT_ASSIGN_OR_RETURN(Ref<LibraryKernel> k, kernel_of(kernel));
    *name = k->name().c_str();  // lives as long as the library
    return Status();
      },
      name, kernel);
}

WEFT_EXPORT hipError_t hipKernelGetFunction(hipFunction_t* pFunc, hipKernel_t kernel) {
  return call(
      "hipKernelGetFunction",
      [&] {
    if (!pFunc) return invalid_value("null function output");
    WEFT_ASSIGN_OR_RETURN(Ref<LibraryKernel> k, kernel_of(kernel));
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, function_on(*k, -1));
    *pFunc = reinterpret_cast<hipFunction_t>(f.get());
    return Status();
      },
      pFunc, kernel);
}

WEFT_EXPORT hipError_t hipKernelGetAttribute(int* pi, hipFunction_attribute attrib,
                                             hipKernel_t kernel, hipDevice_t dev) {
  return call(
      "hipKernelGetAttribute",
      [&] {
    if (!pi) return invalid_value("null value output");
    WEFT_ASSIGN_OR_RETURN(Ref<LibraryKernel> k, kernel_of(kernel));
    if (dev < 0) return Status(hipErrorInvalidDevice, fmt::format("device {} does not exist", dev));
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, function_on(*k, dev));
    KernelFacts facts{f->info(), &f->device(), f->max_dynamic_shared.load()};
    WEFT_ASSIGN_OR_RETURN(int value, function_attribute(facts, attrib));
    if (attrib == HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
      value = f->shared_carveout.load();
    *pi = value;
    return Status();
      },
      pi, attrib, kernel, dev);
}

WEFT_EXPORT hipError_t hipKernelSetAttribute(hipFunction_attribute attrib, int value,
                                             hipKernel_t kernel, hipDevice_t dev) {
  return call(
      "hipKernelSetAttribute",
      [&] {
    WEFT_ASSIGN_OR_RETURN(Ref<LibraryKernel> k, kernel_of(kernel));
    WEFT_ASSIGN_OR_RETURN(hipFuncAttribute which, settable(attrib));
    if (dev < 0) return Status(hipErrorInvalidDevice, fmt::format("device {} does not exist", dev));
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, function_on(*k, dev));
    KernelFacts facts{f->info(), &f->device(), f->max_dynamic_shared.load()};
    return set_attribute(f->max_dynamic_shared, f->shared_carveout, facts, which, value);
      },
      attrib, value, kernel, dev);
}

WEFT_EXPORT hipError_t hipKernelGetParamInfo(hipKernel_t kernel, size_t paramIndex,
                                             size_t* paramOffset, size_t* paramSize) {
  return call(
      "hipKernelGetParamInfo",
      [&] {
    if (!paramOffset && !paramSize) return invalid_value("both outputs are null");
    WEFT_ASSIGN_OR_RETURN(Ref<LibraryKernel> k, kernel_of(kernel));
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, function_on(*k, -1));
    const std::vector<KernelArgInfo>& args = f->info().args;
    if (paramIndex >= args.size())
      return invalid_value(
          fmt::format("kernel {} has {} described parameters; index {} is past them", k->name(),
                      args.size(), paramIndex));
    if (paramOffset) *paramOffset = args[paramIndex].offset;
    if (paramSize) *paramSize = args[paramIndex].size;
    return Status();
      },
      kernel, paramIndex, paramOffset, paramSize);
}

WEFT_EXPORT hipError_t hipModuleGetFunctionCount(unsigned int* count, hipModule_t mod) {
  return call(
      "hipModuleGetFunctionCount",
      [&] {
    if (!count) return invalid_value("null count output");
    Ref<ModuleHandle> m = Registry::get().modules().find(mod);
    if (!m)
      return Status(hipErrorInvalidResourceHandle, "module handle is unknown or was unloaded");
    WEFT_ASSIGN_OR_RETURN(std::vector<std::string> names, m->module().kernel_names());
    *count = static_cast<unsigned>(names.size());
    return Status();
      },
      count, mod);
}
