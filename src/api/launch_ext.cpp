// SPDX-License-Identifier: MIT
// Extended launches: hipExtLaunchKernel (events around a launch), hipLaunchKernelExC
// and hipDrvLaunchKernelEx (launch attributes), hipExtLaunchMultiKernelMultiDevice and
// hipModuleLaunchCooperativeKernelMultiDevice. All of them end in the ordinary launch
// paths: launch_function for code-object kernels, submit_host_kernel for single-source
// ones.
#include "api/api.hpp"
#include "api/launch_code_object.hpp"
#include "api/launch_host_kernel.hpp"

#include "graph/host_kernels.hpp"

#include <vector>

using namespace weft;
using namespace weft::api;

namespace {

// What a launch's attribute list asks for. Priority, access policy window and memory
// sync domains are hints no agent weft drives acts on per launch: they are checked
// and accepted.
struct LaunchRequest {
  bool cooperative = false;
};

Result<LaunchRequest> parse_attributes(const hipLaunchAttribute* attrs, unsigned count) {
  LaunchRequest request;
  if (count > 0 && !attrs)
    return invalid_value(fmt::format("{} attributes but a null attribute array", count));
  for (unsigned i = 0; i < count; ++i) {
    const hipLaunchAttribute& a = attrs[i];
    switch (raw_value(a.id)) {
      case hipLaunchAttributeCooperative: request.cooperative = a.val.cooperative != 0; break;
      case hipLaunchAttributePriority: break;
      case hipLaunchAttributeAccessPolicyWindow: {
        const float ratio = a.val.accessPolicyWindow.hitRatio;
        if (!(ratio >= 0.0f && ratio <= 1.0f))
          return invalid_value(
              fmt::format("attribute {}: hitRatio {} is not within [0, 1]", i, ratio));
        break;
      }
      case hipLaunchAttributeMemSyncDomainMap: break;
      case hipLaunchAttributeMemSyncDomain: {
        int domain = raw_value(a.val.memSyncDomain);
        if (domain != hipLaunchMemSyncDomainDefault && domain != hipLaunchMemSyncDomainRemote)
          return invalid_value(
              fmt::format("attribute {}: unknown memory sync domain {}", i, domain));
        break;
      }
      default:
        return invalid_value(
            fmt::format("attribute {}: {} is not a launch attribute", i, raw_value(a.id)));
    }
  }
  return request;
}

// A launch by host function address: a registered code-object kernel, or a single-source
// kernel the runtime knows (launched by name before).
Status launch_address(const void* f, dim3 grid, dim3 block, void** args, size_t shared,
                      const Ref<Stream>& s, bool cooperative) {
  if (!f) return Status(hipErrorInvalidDeviceFunction, "null kernel");
  if (Ref<RegisteredFunction> registered = Registry::get().function(f)) {
    WEFT_ASSIGN_OR_RETURN(Ref<Function> function, registered->function_for(s->device()));
    WEFT_RETURN_IF_ERROR(refresh_texture_references(*registered, *s));
    return launch_function(*function, s, grid, block, shared, KernelArgs{args, nullptr, nullptr},
                           registered->max_dynamic_shared.load(std::memory_order_relaxed),
                           cooperative);
  }
  WEFT_ASSIGN_OR_RETURN(Ref<HostKernel> kernel, host_kernel_for(f, args));
  return submit_host_kernel(std::move(kernel), grid, block, shared, s, cooperative);
}

Status check_event(hipEvent_t event, const char* which) {
  if (event && !Runtime::get().events().find(event))
    return Status(hipErrorInvalidHandle,
                  fmt::format("{} event is unknown or was destroyed", which));
  return Status();
}

// Records through the public entry point, which knows capture and cross-device rules.
Status record(hipEvent_t event, hipStream_t stream, const char* which) {
  if (!event) return Status();
  hipError_t rc = hipEventRecord(event, stream);
  if (rc != hipSuccess) return Status(rc, fmt::format("recording the {} event failed", which));
  return Status();
}

Status ext_launch(const void* f, dim3 grid, dim3 block, void** args, size_t shared,
                  hipStream_t stream, hipEvent_t start, hipEvent_t stop, int flags) {
  // hipExtAnyOrderLaunch only allows reordering; in-order execution honours it.
  if (flags & ~hipExtAnyOrderLaunch)
    return invalid_value(fmt::format("unknown flags {:#x}", flags));
  WEFT_RETURN_IF_ERROR(check_event(start, "start"));
  WEFT_RETURN_IF_ERROR(check_event(stop, "stop"));
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
  WEFT_RETURN_IF_ERROR(record(start, stream, "start"));
  WEFT_RETURN_IF_ERROR(launch_address(f, grid, block, args, shared, s, false));
  return record(stop, stream, "stop");
}

// Event-based barriers across the streams of a multi-device launch: every stream
// waits for the others' work up to this point.
Status cross_wait(const std::vector<hipStream_t>& streams) {
  if (streams.size() < 2) return Status();
  std::vector<hipEvent_t> marks(streams.size(), nullptr);
  Status status;
  for (size_t i = 0; i < streams.size() && status.ok(); ++i) {
    hipError_t rc = hipEventCreateWithFlags(&marks[i], hipEventDisableTiming);
    if (rc == hipSuccess) rc = hipEventRecord(marks[i], streams[i]);
    if (rc != hipSuccess) status = Status(rc, "recording a synchronization event failed");
  }
  for (size_t i = 0; i < streams.size() && status.ok(); ++i)
    for (size_t j = 0; j < streams.size() && status.ok(); ++j)
      if (i != j && hipStreamWaitEvent(streams[i], marks[j], 0) != hipSuccess)
        status = Status(hipErrorUnknown, "waiting for another stream of the launch failed");
  for (hipEvent_t e : marks)
    if (e) (void)hipEventDestroy(e);  // pending waits keep what they need
  return status;
}

constexpr unsigned kMultiDeviceFlags =
    hipCooperativeLaunchMultiDeviceNoPreSync | hipCooperativeLaunchMultiDeviceNoPostSync;

// Each launch of a multi-device list goes to a different device (AMD's rule).
template <typename Params, typename StreamOf>
Result<std::vector<Ref<Stream>>> streams_of(const Params* list, int count, StreamOf stream_of) {
  std::vector<Ref<Stream>> streams;
  for (int i = 0; i < count; ++i) {
    Result<Ref<Stream>> s = resolve_stream(stream_of(list[i]));
    if (!s.ok())
      return Status(s.status().code(), fmt::format("launch {}: {}", i, s.status().message()));
    for (const Ref<Stream>& other : streams)
      if (&other->device() == &s.value()->device())
        return invalid_value(
            fmt::format("launch {} uses device {} again: each launch needs its own device", i,
                        other->device().ordinal()));
    streams.push_back(s.value());
  }
  return streams;
}

Status multi_kernel_multi_device(hipLaunchParams* list, int count, unsigned flags) {
  if (!list) return invalid_value("null launch parameter list");
  if (count <= 0) return invalid_value(fmt::format("numDevices {} must be positive", count));
  if (flags & ~kMultiDeviceFlags) return invalid_value(fmt::format("unknown flags {:#x}", flags));
  WEFT_ASSIGN_OR_RETURN(std::vector<Ref<Stream>> streams,
                        streams_of(list, count, [](const hipLaunchParams& p) { return p.stream; }));
  std::vector<hipStream_t> handles;
  for (int i = 0; i < count; ++i) handles.push_back(list[i].stream);
  if (!(flags & hipCooperativeLaunchMultiDeviceNoPreSync))
    WEFT_RETURN_IF_ERROR(cross_wait(handles));
  for (int i = 0; i < count; ++i) {
    const hipLaunchParams& p = list[i];
    Status launched =
        launch_address(p.func, p.gridDim, p.blockDim, p.args, p.sharedMem, streams[i], false);
    if (!launched.ok())
      return Status(launched.code(), fmt::format("launch {}: {}", i, launched.message()));
  }
  if (!(flags & hipCooperativeLaunchMultiDeviceNoPostSync))
    WEFT_RETURN_IF_ERROR(cross_wait(handles));
  return Status();
}

Status module_cooperative_multi_device(hipFunctionLaunchParams* list, unsigned count,
                                       unsigned flags) {
  if (!list) return invalid_value("null launch parameter list");
  if (count == 0) return invalid_value("numDevices must be positive");
  if (flags & ~kMultiDeviceFlags) return invalid_value(fmt::format("unknown flags {:#x}", flags));
  WEFT_ASSIGN_OR_RETURN(std::vector<Ref<Stream>> streams,
                        streams_of(list, static_cast<int>(count),
                                   [](const hipFunctionLaunchParams& p) { return p.hStream; }));
  // One grid spans the launches only when there is one: with several devices every grid
  // would have to be resident at once across agents, and only the CPU agent runs
  // cooperative launches at all.
  if (count > 1)
    return Status(
        hipErrorNotSupported,
        fmt::format("a multi-device cooperative launch over {} devices; only one device can run "
                    "cooperative launches",
                    count));
  const hipFunctionLaunchParams& p = list[0];
  WEFT_ASSIGN_OR_RETURN(Ref<Function> function, function_of(p.function));
  return launch_function(*function, streams[0], dim3(p.gridDimX, p.gridDimY, p.gridDimZ),
                         dim3(p.blockDimX, p.blockDimY, p.blockDimZ), p.sharedMemBytes,
                         KernelArgs{p.kernelParams, nullptr, nullptr},
                         function->max_dynamic_shared.load(std::memory_order_relaxed), true);
}

}  // namespace

WEFT_EXPORT hipError_t hipExtLaunchKernel(const void* function_address, dim3 numBlocks,
                                          dim3 dimBlocks, void** args, size_t sharedMemBytes,
                                          hipStream_t stream, hipEvent_t startEvent,
                                          hipEvent_t stopEvent, int flags) {
  return call(
      "hipExtLaunchKernel",
      [&] {
    return ext_launch(function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream,
                      startEvent, stopEvent, flags);
      },
      function_address, numBlocks, dimBlocks, args, sharedMemBytes, stream, startEvent, stopEvent,
      flags);
}

WEFT_EXPORT hipError_t hipLaunchKernelExC(const hipLaunchConfig_t* config, const void* fPtr,
                                          void** args) {
  return call(
      "hipLaunchKernelExC",
      [&] {
    if (!config) return invalid_value("null launch configuration");
    WEFT_ASSIGN_OR_RETURN(LaunchRequest request, parse_attributes(config->attrs, config->numAttrs));
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(config->stream));
    return launch_address(fPtr, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                          s, request.cooperative);
      },
      config, fPtr, args);
}

WEFT_EXPORT hipError_t hipDrvLaunchKernelEx(const HIP_LAUNCH_CONFIG* config, hipFunction_t f,
                                            void** params, void** extra) {
  return call(
      "hipDrvLaunchKernelEx",
      [&] {
    if (!config) return invalid_value("null launch configuration");
    WEFT_ASSIGN_OR_RETURN(LaunchRequest request, parse_attributes(config->attrs, config->numAttrs));
    WEFT_ASSIGN_OR_RETURN(Ref<Function> function, function_of(f));
    if (params && extra) return invalid_value("pass params or extra, not both");
    if (request.cooperative && extra)
      return invalid_value("a cooperative launch takes its arguments as params, not extra");
    WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(config->hStream));
    return launch_function(*function, s, dim3(config->gridDimX, config->gridDimY, config->gridDimZ),
                           dim3(config->blockDimX, config->blockDimY, config->blockDimZ),
                           config->sharedMemBytes, KernelArgs{params, extra, nullptr},
                           function->max_dynamic_shared.load(), request.cooperative);
      },
      config, f);
}

WEFT_EXPORT hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams* launchParamsList,
                                                          int numDevices, unsigned int flags) {
  return call(
      "hipExtLaunchMultiKernelMultiDevice",
      [&] { return multi_kernel_multi_device(launchParamsList, numDevices, flags); },
      launchParamsList, numDevices, flags);
}

WEFT_EXPORT hipError_t hipModuleLaunchCooperativeKernelMultiDevice(
    hipFunctionLaunchParams* launchParamsList, unsigned int numDevices, unsigned int flags) {
  return call(
      "hipModuleLaunchCooperativeKernelMultiDevice",
      [&] { return module_cooperative_multi_device(launchParamsList, numDevices, flags); },
      launchParamsList, numDevices, flags);
}

// The C++-mangled spellings of ROCm 5.x (hip_ext.h declared them without extern "C"):
// binaries built then link against these names. Same signatures, same behaviour.
__attribute__((visibility("default"))) hipError_t hipExtModuleLaunchKernel(
    hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
    uint32_t localWorkSizeX, uint32_t localWorkSizeY, uint32_t localWorkSizeZ,
    size_t sharedMemBytes, hipStream_t hStream, void** kernelParams, void** extra,
    hipEvent_t startEvent, hipEvent_t stopEvent, uint32_t flags) {
  return call(
      "hipExtModuleLaunchKernel",
      [&] {
    (void)flags;  // hipExtAnyOrderLaunch only relaxes ordering
    return launch_in_work_items(f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ,
                                localWorkSizeX, localWorkSizeY, localWorkSizeZ, sharedMemBytes,
                                hStream, kernelParams, extra, startEvent, stopEvent);
      },
      f, globalWorkSizeX, globalWorkSizeY, globalWorkSizeZ, localWorkSizeX, localWorkSizeY,
      localWorkSizeZ, sharedMemBytes, hStream);
}

__attribute__((visibility("default"))) hipError_t hipHccModuleLaunchKernel(
    hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
    uint32_t localWorkSizeX, uint32_t localWorkSizeY, uint32_t localWorkSizeZ,
    size_t sharedMemBytes, hipStream_t hStream, void** kernelParams, void** extra,
    hipEvent_t startEvent, hipEvent_t stopEvent) {
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
