// SPDX-License-Identifier: MIT
// Module API: hipModuleLoad*, hipModuleGetFunction/GetGlobal, hipModuleLaunchKernel,
// function attributes, hipGetFuncBySymbol and kernel names.
#include "api/launch_module.hpp"
#include "api/api.hpp"
#include "api/held.hpp"
#include "api/launch_code_object.hpp"
#include "codeobj/registry.hpp"

#define WEFT_HIP_EXT_DECLARATIONS_ONLY 1  // the C API, not the kernel language
#include <hip/hip_ext.h>
#include <weft/codeobj/image.hpp>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace weft;
using namespace weft::api;

namespace {

Status load_image(hipModule_t* out, std::vector<std::byte> bytes) {
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
  Ref<CodeImage> image = CodeImage::owned(std::move(bytes));
  WEFT_ASSIGN_OR_RETURN(CodeImage::Loaded loaded, image->module_for(*device, "module"));
  auto handle = make_ref<ModuleHandle>(*device, std::move(loaded.module), image);
  Registry::get().modules().add(handle);
  *out = reinterpret_cast<hipModule_t>(handle.get());
  return Status();
}

Status load_from_memory(hipModule_t* out, const void* image) {
  if (!out) return invalid_value("null module output");
  if (!image) return invalid_value("null image");
  // No size is passed: measure the image from its headers and copy it without
  // ever touching a byte that is not readable (corrupt headers are common).
  WEFT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes,
                        codeobj::copy_image(static_cast<const std::byte*>(image)));
  return load_image(out, std::move(bytes));
}

}  // namespace

namespace weft::api {

// A code object file: a regular file (not a FIFO, device or directory, which
// could block or never end), 1 byte to kMaxImageSize, read with its size known.
// Missing or unreadable: hipErrorFileNotFound; not a regular file or a bad size:
// hipErrorInvalidImage, since a path was found but holds no code object.
Result<std::vector<std::byte>> read_image_file(const char* fname) {
  // O_NONBLOCK: opening a FIFO with no writer must not block; it is refused below.
  int fd = ::open(fname, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return Status(hipErrorFileNotFound,
                  fmt::format("cannot open {}: {}", fname, std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return Status(hipErrorFileNotFound,
                  fmt::format("cannot stat {}: {}", fname, std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    return Status(hipErrorInvalidImage,
                  fmt::format("{} is not a regular file (a {}): no code object to load", fname,
                              S_ISDIR(st.st_mode)    ? "directory"
                              : S_ISFIFO(st.st_mode) ? "FIFO"
                              : S_ISCHR(st.st_mode)  ? "character device"
                              : S_ISBLK(st.st_mode)  ? "block device"
                              : S_ISSOCK(st.st_mode) ? "socket"
                                                     : "special file"));
  if (st.st_size == 0) return Status(hipErrorInvalidImage, fmt::format("{} is empty", fname));
  if (uint64_t(st.st_size) > codeobj::kMaxImageSize)
    return Status(hipErrorInvalidImage,
                  fmt::format("{} is {} bytes; code objects are limited to {} MiB", fname,
                              st.st_size, codeobj::kMaxImageSize >> 20));
  std::vector<std::byte> bytes(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0)
      return Status(hipErrorFileNotFound,
                    fmt::format("reading {}: {}", fname, std::strerror(errno)));
    if (n == 0) break;  // the file shrank while being read
    done += static_cast<size_t>(n);
  }
  if (done != bytes.size())
    return Status(hipErrorInvalidImage, fmt::format("{} shrank while being read ({} of {} bytes)",
                                                    fname, done, bytes.size()));
  return bytes;
}

}  // namespace weft::api

namespace {

Result<Ref<ModuleHandle>> module_of(hipModule_t module) {
  Ref<ModuleHandle> m = Registry::get().modules().find(module);
  if (!m) return Status(hipErrorInvalidResourceHandle, "module handle is unknown or was unloaded");
  return m;
}

}  // namespace

namespace weft::api {

void fill_attributes(hipFuncAttributes& a, const KernelFacts& facts) {
  const KernelInfo& info = facts.info;
  const auto& p = facts.device->props();
  std::memset(&a, 0, sizeof(a));
  a.binaryVersion = p.major * 10 + p.minor;
  a.ptxVersion = a.binaryVersion;
  a.localSizeBytes = info.private_bytes;
  a.sharedSizeBytes = info.static_shared_bytes;
  a.maxThreadsPerBlock =
      static_cast<int>(std::min<uint32_t>(info.max_threads_per_block, p.maxThreadsPerBlock));
  a.numRegs = static_cast<int>(info.num_registers);
  a.maxDynamicSharedSizeBytes =
      facts.max_dynamic_shared >= 0
          ? facts.max_dynamic_shared
          : static_cast<int>(p.sharedMemPerBlock -
                             std::min<size_t>(p.sharedMemPerBlock, info.static_shared_bytes));
  a.preferredShmemCarveout = -1;
}

Status set_attribute(std::atomic<int>& max_dynamic, std::atomic<int>& carveout,
                     const KernelFacts& facts, hipFuncAttribute attr, int value) {
  const auto& p = facts.device->props();
  if (attr == hipFuncAttributeMaxDynamicSharedMemorySize) {
    size_t room =
        p.sharedMemPerBlock - std::min<size_t>(p.sharedMemPerBlock, facts.info.static_shared_bytes);
    if (value < 0 || size_t(value) > room)
      return invalid_value(fmt::format(
          "{} bytes of dynamic shared memory: the device allows at most {}", value, room));
    max_dynamic.store(value);
    return Status();
  }
  if (attr == hipFuncAttributePreferredSharedMemoryCarveout) {
    if (value < -1 || value > 100)
      return invalid_value("shared memory carveout must be -1 or a percentage");
    carveout.store(value);
    return Status();
  }
  return invalid_value(fmt::format("unknown function attribute {}", static_cast<int>(attr)));
}

Result<int> function_attribute(const KernelFacts& facts, hipFunction_attribute attrib) {
  hipFuncAttributes a;
  fill_attributes(a, facts);
  switch (attrib) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return a.maxThreadsPerBlock;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: return static_cast<int>(a.sharedSizeBytes);
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: return static_cast<int>(a.constSizeBytes);
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: return static_cast<int>(a.localSizeBytes);
    case HIP_FUNC_ATTRIBUTE_NUM_REGS: return a.numRegs;
    case HIP_FUNC_ATTRIBUTE_PTX_VERSION: return a.ptxVersion;
    case HIP_FUNC_ATTRIBUTE_BINARY_VERSION: return a.binaryVersion;
    case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA: return a.cacheModeCA;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: return a.maxDynamicSharedSizeBytes;
    case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: return a.preferredShmemCarveout;
    default: return invalid_value(fmt::format("unknown function attribute {}", raw_value(attrib)));
  }
}

}  // namespace weft::api

WEFT_EXPORT hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
  return call(
      "hipModuleLoad",
      [&] {
    if (!module || !fname) return invalid_value("null module output or file name");
    WEFT_ASSIGN_OR_RETURN(std::vector<std::byte> bytes, read_image_file(fname));
    return load_image(module, std::move(bytes));
      },
      module, fname);
}

WEFT_EXPORT hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  return call(
      "hipModuleLoadData", [&] { return load_from_memory(module, image); }, module, image);
}

WEFT_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image,
                                           unsigned int numOptions, hipJitOption* options,
                                           void** optionValues) {
  return call(
      "hipModuleLoadDataEx",
      [&] {
    // JIT options tune PTX compilation; finished code objects ignore them (as AMD does).
    if (numOptions && (!options || !optionValues))
      return invalid_value("JIT options given without their arrays");
    return load_from_memory(module, image);
      },
      module, image, numOptions);
}

WEFT_EXPORT hipError_t hipModuleLoadFatBinary(hipModule_t* module, const void* fatbin) {
  return call(
      "hipModuleLoadFatBinary", [&] { return load_from_memory(module, fatbin); }, module, fatbin);
}

WEFT_EXPORT hipError_t hipModuleUnload(hipModule_t module) {
  return call(
      "hipModuleUnload",
      [&] {
    Ref<ModuleHandle> m = Registry::get().modules().remove(module);
    if (!m)
      return Status(hipErrorInvalidResourceHandle, "module handle is unknown or was unloaded");
    // Kernels still queued keep their code object alive through their Kernel reference.
    for (auto& f : m->functions()) Registry::get().functions().remove(f.get());
    return Status();
      },
      module);
}

WEFT_EXPORT hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module,
                                            const char* kname) {
  return call(
      "hipModuleGetFunction",
      [&] {
    if (!function || !kname) return invalid_value("null function output or kernel name");
    WEFT_ASSIGN_OR_RETURN(Ref<ModuleHandle> m, module_of(module));
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, m->function(kname));
    *function = reinterpret_cast<hipFunction_t>(f.get());
    return Status();
      },
      function, module, kname);
}

WEFT_EXPORT hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod,
                                          const char* name) {
  return call(
      "hipModuleGetGlobal",
      [&] {
    if (!name) return invalid_value("null global name");
    if (!dptr && !bytes) return invalid_value("both outputs are null");
    WEFT_ASSIGN_OR_RETURN(Ref<ModuleHandle> m, module_of(hmod));
    WEFT_ASSIGN_OR_RETURN(std::span<std::byte> g, m->module().global(name));
    if (dptr) *dptr = g.data();
    if (bytes) *bytes = g.size();
    return Status();
      },
      dptr, bytes, hmod, name);
}

WEFT_EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                             unsigned int gridDimY, unsigned int gridDimZ,
                                             unsigned int blockDimX, unsigned int blockDimY,
                                             unsigned int blockDimZ, unsigned int sharedMemBytes,
                                             hipStream_t stream, void** kernelParams,
                                             void** extra) {
  return call(
      "hipModuleLaunchKernel",
      [&] {
    // The function and the stream are held for the launch, without reference
    // counts (api/held.hpp).
    Held<Function> function;
    if (f) function.find(Registry::get().functions(), f, hazard::kHoldFirst);
    if (!function) [[unlikely]] {
      WEFT_ASSIGN_OR_RETURN(Ref<Function> found, function_of(f));
      function.set(std::move(found));
    }
    if (kernelParams && extra) return invalid_value("pass kernelParams or extra, not both");
    Held<Stream> s;
    if (stream != nullptr && stream != hipStreamLegacy && stream != hipStreamPerThread)
      s.find(Runtime::get().streams(), stream, hazard::kHoldSecond);
    if (!s) {
      WEFT_ASSIGN_OR_RETURN(Ref<Stream> resolved, resolve_stream(stream));
      s.set(std::move(resolved));
    }
    return launch_function(*function, *s, dim3(gridDimX, gridDimY, gridDimZ),
                           dim3(blockDimX, blockDimY, blockDimZ), sharedMemBytes,
                           KernelArgs{kernelParams, extra, nullptr},
                           function->max_dynamic_shared.load());
      },
      f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes, stream);
}

WEFT_EXPORT hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func) {
  return call(
      "hipFuncGetAttributes",
      [&] {
    if (!attr) return invalid_value("null attributes output");
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_host_function(func));
    fill_attributes(*attr, facts);
    return Status();
      },
      attr, func);
}

WEFT_EXPORT hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib,
                                           hipFunction_t hfunc) {
  return call(
      "hipFuncGetAttribute",
      [&] {
    if (!value) return invalid_value("null value output");
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_function(hfunc));
    WEFT_ASSIGN_OR_RETURN(*value, function_attribute(facts, attrib));
    return Status();
      },
      value, attrib, hfunc);
}

WEFT_EXPORT hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value) {
  return call(
      "hipFuncSetAttribute",
      [&] {
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_host_function(func));
    if (Ref<RegisteredFunction> r = Registry::get().function(func))
      return set_attribute(r->max_dynamic_shared, r->shared_carveout, facts, attr, value);
    std::atomic<int> ignored_dynamic{-1},
        ignored_carveout{-1};  // single-source kernels keep no attributes
    return set_attribute(ignored_dynamic, ignored_carveout, facts, attr, value);
      },
      func, attr, value);
}

WEFT_EXPORT hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config) {
  return call(
      "hipFuncSetCacheConfig",
      [&] {
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_host_function(func));
    if (static_cast<int>(config) < 0 || static_cast<int>(config) > 3)
      return invalid_value("unknown cache config");
    return Status();  // a hint; no agent weft drives has a configurable L1/shared split
      },
      func, config);
}

WEFT_EXPORT hipError_t hipFuncSetSharedMemConfig(const void* func, hipSharedMemConfig config) {
  return call(
      "hipFuncSetSharedMemConfig",
      [&] {
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_host_function(func));
    if (static_cast<int>(config) < 0 || static_cast<int>(config) > 2)
      return invalid_value("unknown bank config");
    return Status();
      },
      func, config);
}

WEFT_EXPORT hipError_t hipGetFuncBySymbol(hipFunction_t* functionPtr, const void* symbolPtr) {
  return call(
      "hipGetFuncBySymbol",
      [&] {
    if (!functionPtr) return invalid_value("null function output");
    Ref<RegisteredFunction> r = Registry::get().function(symbolPtr);
    if (!r) return Status(hipErrorInvalidDeviceFunction, "not a registered kernel");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_ASSIGN_OR_RETURN(Ref<Function> f, r->function_for(*device));
    *functionPtr = reinterpret_cast<hipFunction_t>(f.get());
    return Status();
      },
      functionPtr, symbolPtr);
}

WEFT_EXPORT const char* hipKernelNameRef(const hipFunction_t f) {
  Ref<Function> function = Registry::get().functions().find(f);
  return function ? function->info().name.c_str() : nullptr;
}

WEFT_EXPORT const char* hipKernelNameRefByPtr(const void* hostFunction, hipStream_t) {
  Ref<RegisteredFunction> r = Registry::get().function(hostFunction);
  return r ? r->name().c_str() : nullptr;
}

namespace weft::api {

// hipExtModuleLaunchKernel: the grid in work-items, events recorded around the kernel.
Status launch_in_work_items(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t lx,
                            uint32_t ly, uint32_t lz, size_t shared, hipStream_t stream,
                            void** params, void** extra, hipEvent_t start, hipEvent_t stop) {
  if (lx == 0 || ly == 0 || lz == 0) return invalid_value("work-group size has a zero dimension");
  if (gx % lx || gy % ly || gz % lz)
    return invalid_value(
        fmt::format("global size {{{},{},{}}} is not a multiple of the work-group size "
                    "{{{},{},{}}}: weft launches whole blocks only",
                    gx, gy, gz, lx, ly, lz));
  WEFT_ASSIGN_OR_RETURN(Ref<Function> function, function_of(f));
  if (params && extra) return invalid_value("pass kernelParams or extra, not both");
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
  // The public entry points validate the events and enqueue the records in order.
  if (start && hipEventRecord(start, stream) != hipSuccess)
    return Status(hipErrorInvalidHandle, "recording the start event failed");
  WEFT_RETURN_IF_ERROR(launch_function(*function, s, dim3(gx / lx, gy / ly, gz / lz),
                                       dim3(lx, ly, lz), shared, KernelArgs{params, extra, nullptr},
                                       function->max_dynamic_shared.load()));
  if (stop && hipEventRecord(stop, stream) != hipSuccess)
    return Status(hipErrorInvalidHandle, "recording the stop event failed");
  return Status();
}

}  // namespace weft::api

WEFT_EXPORT hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
                                                uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                                uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                                uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                                hipStream_t hStream, void** kernelParams,
                                                void** extra, hipEvent_t startEvent,
                                                hipEvent_t stopEvent, uint32_t flags) {
  return call(
      "hipExtModuleLaunchKernel",
      [&] {
    (void)flags;  // hipExtAnyOrderLaunch only relaxes ordering; in-order is always valid
    return launch_in_work_items(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ,
                                localWorkSizeX, localWorkSizeY, localWorkSizeZ, sharedMemBytes,
                                hStream, kernelParams, extra, startEvent, stopEvent);
      },
      f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX, localWorkSizeY,
      localWorkSizeZ, sharedMemBytes, hStream);
}

WEFT_EXPORT hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX,
                                                uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
                                                uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                                uint32_t localWorkSizeZ, size_t sharedMemBytes,
                                                hipStream_t hStream, void** kernelParams,
                                                void** extra, hipEvent_t startEvent,
                                                hipEvent_t stopEvent) {
  return call(
      "hipHccModuleLaunchKernel",
      [&] {
    return launch_in_work_items(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ,
                                localWorkSizeX, localWorkSizeY, localWorkSizeZ, sharedMemBytes,
                                hStream, kernelParams, extra, startEvent, stopEvent);
      },
      f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX, localWorkSizeY,
      localWorkSizeZ, sharedMemBytes, hStream);
}
