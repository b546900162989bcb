// SPDX-License-Identifier: MIT
// Device API: init, versions, device selection, properties (R0000 and R0600
// layouts), attributes, limits, flags, synchronize and reset.
#include "api/api.hpp"
#include "api/device_attributes.hpp"
#include "api/ipc_openings.hpp"
#include "graph/capture.hpp"
#include "runtime/mempool.hpp"

#include <hip/hip_version.h>

#include <strings.h>
#include <cstdio>
#include <cstring>

// The header renames these to their R0600 forms; weft exports every spelling.
#undef hipGetDeviceProperties
#undef hipChooseDevice

using namespace weft;
using namespace weft::api;

namespace {

void to_r0000(const hipDeviceProp_tR0600& n, hipDeviceProp_tR0000& o) {
  std::memset(&o, 0, sizeof(o));
  std::memcpy(o.name, n.name, sizeof(o.name));
  o.totalGlobalMem = n.totalGlobalMem;
  o.sharedMemPerBlock = n.sharedMemPerBlock;
  o.regsPerBlock = n.regsPerBlock;
  o.warpSize = n.warpSize;
  o.maxThreadsPerBlock = n.maxThreadsPerBlock;
  for (int i = 0; i < 3; ++i) {
    o.maxThreadsDim[i] = n.maxThreadsDim[i];
    o.maxGridSize[i] = n.maxGridSize[i];
    o.maxTexture3D[i] = n.maxTexture3D[i];
  }
  o.clockRate = n.clockRate;
  o.memoryClockRate = n.memoryClockRate;
  o.memoryBusWidth = n.memoryBusWidth;
  o.totalConstMem = n.totalConstMem;
  o.major = n.major;
  o.minor = n.minor;
  o.multiProcessorCount = n.multiProcessorCount;
  o.l2CacheSize = n.l2CacheSize;
  o.maxThreadsPerMultiProcessor = n.maxThreadsPerMultiProcessor;
  o.computeMode = n.computeMode;
  o.clockInstructionRate = n.clockInstructionRate;
  o.arch = n.arch;
  o.concurrentKernels = n.concurrentKernels;
  o.pciDomainID = n.pciDomainID;
  o.pciBusID = n.pciBusID;
  o.pciDeviceID = n.pciDeviceID;
  o.maxSharedMemoryPerMultiProcessor = n.maxSharedMemoryPerMultiProcessor;
  o.isMultiGpuBoard = n.isMultiGpuBoard;
  o.canMapHostMemory = n.canMapHostMemory;
  o.gcnArch = 0;
  std::memcpy(o.gcnArchName, n.gcnArchName, sizeof(o.gcnArchName));
  o.integrated = n.integrated;
  o.cooperativeLaunch = n.cooperativeLaunch;
  o.cooperativeMultiDeviceLaunch = n.cooperativeMultiDeviceLaunch;
  o.maxTexture1DLinear = n.maxTexture1DLinear;
  o.maxTexture1D = n.maxTexture1D;
  o.maxTexture2D[0] = n.maxTexture2D[0];
  o.maxTexture2D[1] = n.maxTexture2D[1];
  o.hdpMemFlushCntl = n.hdpMemFlushCntl;
  o.hdpRegFlushCntl = n.hdpRegFlushCntl;
  o.memPitch = n.memPitch;
  o.textureAlignment = n.textureAlignment;
  o.texturePitchAlignment = n.texturePitchAlignment;
  o.kernelExecTimeoutEnabled = n.kernelExecTimeoutEnabled;
  o.ECCEnabled = n.ECCEnabled;
  o.tccDriver = n.tccDriver;
  o.cooperativeMultiDeviceUnmatchedFunc = n.cooperativeMultiDeviceUnmatchedFunc;
  o.cooperativeMultiDeviceUnmatchedGridDim = n.cooperativeMultiDeviceUnmatchedGridDim;
  o.cooperativeMultiDeviceUnmatchedBlockDim = n.cooperativeMultiDeviceUnmatchedBlockDim;
  o.cooperativeMultiDeviceUnmatchedSharedMem = n.cooperativeMultiDeviceUnmatchedSharedMem;
  o.isLargeBar = n.isLargeBar;
  o.asicRevision = n.asicRevision;
  o.managedMemory = n.managedMemory;
  o.directManagedMemAccessFromHost = n.directManagedMemAccessFromHost;
  o.concurrentManagedAccess = n.concurrentManagedAccess;
  o.pageableMemoryAccess = n.pageableMemoryAccess;
  o.pageableMemoryAccessUsesHostPageTables = n.pageableMemoryAccessUsesHostPageTables;
}

Status get_props(hipDeviceProp_tR0600* props, int ordinal) {
  if (!props) return invalid_value("null output pointer");
  WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
  *props = device->props();
  return Status();
}

// Scores how well a device matches the fields the caller set (non-zero ones).
Status choose(int* out, const hipDeviceProp_tR0600* want) {
  if (!out || !want) return invalid_value("null pointer");
  Runtime& rt = Runtime::get();
  if (rt.device_count() == 0) return Status(hipErrorNoDevice, "no HIP agent is available");
  int best = 0, best_score = -1;
  for (int i = 0; i < rt.device_count(); ++i) {
    const auto& p = rt.device(i)->props();
    int score = 0;
    if (want->major && p.major >= want->major) ++score;
    if (want->minor && p.minor >= want->minor) ++score;
    if (want->totalGlobalMem && p.totalGlobalMem >= want->totalGlobalMem) ++score;
    if (want->multiProcessorCount && p.multiProcessorCount >= want->multiProcessorCount) ++score;
    if (want->name[0] && std::strcmp(want->name, p.name) == 0) ++score;
    if (score > best_score) {
      best = i;
      best_score = score;
    }
  }
  *out = best;
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipInit(unsigned int flags) {
  return call(
      "hipInit",
      [&] {
    if (flags != 0) return invalid_value("flags must be 0");
    if (Runtime::get().device_count() == 0)
      return Status(hipErrorNoDevice, "no HIP agent is available");
    return Status();
      },
      flags);
}

WEFT_EXPORT hipError_t hipDriverGetVersion(int* version) {
  return call(
      "hipDriverGetVersion",
      [&] {
    if (!version) return invalid_value("null output pointer");
    *version = HIP_VERSION;
    return Status();
      },
      version);
}

WEFT_EXPORT hipError_t hipRuntimeGetVersion(int* version) {
  return call(
      "hipRuntimeGetVersion",
      [&] {
    if (!version) return invalid_value("null output pointer");
    *version = HIP_VERSION;
    return Status();
      },
      version);
}

WEFT_EXPORT hipError_t hipGetDeviceCount(int* count) {
  return call(
      "hipGetDeviceCount",
      [&] {
    if (!count) return invalid_value("null output pointer");
    *count = Runtime::get().device_count();
    if (*count == 0) return Status(hipErrorNoDevice, "no HIP agent is available");
    return Status();
      },
      count);
}

WEFT_EXPORT hipError_t hipSetDevice(int ordinal) {
  return call(
      "hipSetDevice",
      [&] {
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
    thread_state().device = device->ordinal();
    thread_state().device_chosen = true;
    return Status();
      },
      ordinal);
}

WEFT_EXPORT hipError_t hipGetDevice(int* ordinal) {
  return call(
      "hipGetDevice",
      [&] {
    if (!ordinal) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    *ordinal = device->ordinal();
    return Status();
      },
      ordinal);
}

WEFT_EXPORT hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
  return call(
      "hipDeviceGet",
      [&] {
    if (!device) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * d, device_at(ordinal));
    *device = d->ordinal();
    return Status();
      },
      device, ordinal);
}

WEFT_EXPORT hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600* props, int ordinal) {
  return call(
      "hipGetDevicePropertiesR0600", [&] { return get_props(props, ordinal); }, props, ordinal);
}

WEFT_EXPORT hipError_t hipGetDevicePropertiesR0000(hipDeviceProp_tR0000* props, int ordinal) {
  return call(
      "hipGetDevicePropertiesR0000",
      [&] {
    if (!props) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
    to_r0000(device->props(), *props);
    return Status();
      },
      props, ordinal);
}

// The unversioned name keeps the R0000 layout: what HIP 5 binaries and dlsym get.
WEFT_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_tR0000* props, int ordinal) {
  return hipGetDevicePropertiesR0000(props, ordinal);
}

WEFT_EXPORT hipError_t hipChooseDeviceR0600(int* device, const hipDeviceProp_tR0600* props) {
  return call(
      "hipChooseDeviceR0600", [&] { return choose(device, props); }, device, props);
}

WEFT_EXPORT hipError_t hipChooseDeviceR0000(int* device, const hipDeviceProp_tR0000* props) {
  return call(
      "hipChooseDeviceR0000",
      [&] {
    if (!props) return invalid_value("null pointer");
    hipDeviceProp_tR0600 want{};
    std::memcpy(want.name, props->name, sizeof(want.name));
    want.major = props->major;
    want.minor = props->minor;
    want.totalGlobalMem = props->totalGlobalMem;
    want.multiProcessorCount = props->multiProcessorCount;
    return choose(device, &want);
      },
      device, props);
}

WEFT_EXPORT hipError_t hipChooseDevice(int* device, const hipDeviceProp_tR0000* props) {
  return hipChooseDeviceR0000(device, props);
}

WEFT_EXPORT hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int ordinal) {
  return call(
      "hipDeviceGetAttribute",
      [&] {
    if (!value) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
    int raw = raw_value(attr);
    if (raw < hipDeviceAttributeCudaCompatibleBegin || raw > hipDeviceAttributeVendorSpecificBegin)
      return invalid_value(fmt::format("{} is not a hipDeviceAttribute_t", raw));
    auto known = static_cast<hipDeviceAttribute_t>(raw);
    auto from_driver = device->driver_device().attribute(known);
    if (from_driver.ok()) {
      *value = from_driver.value();
      return Status();
    }
    WEFT_ASSIGN_OR_RETURN(*value, attribute_from_props(device->props(), known));
    return Status();
      },
      value, attr, ordinal);
}

WEFT_EXPORT hipError_t hipDeviceGetName(char* name, int length, hipDevice_t ordinal) {
  return call(
      "hipDeviceGetName",
      [&] {
    if (!name || length <= 0) return invalid_value("null buffer or non-positive length");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
    std::snprintf(name, static_cast<size_t>(length), "%s", device->props().name);
    return Status();
      },
      name, length, ordinal);
}

WEFT_EXPORT hipError_t hipDeviceGetUuid(hipUUID* uuid, hipDevice_t ordinal) {
  return call(
      "hipDeviceGetUuid",
      [&] {
    if (!uuid) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
    *uuid = device->props().uuid;
    return Status();
      },
      uuid, ordinal);
}

WEFT_EXPORT hipError_t hipDeviceGetPCIBusId(char* bus_id, int length, int ordinal) {
  return call(
      "hipDeviceGetPCIBusId",
      [&] {
    if (!bus_id || length <= 0) return invalid_value("null buffer or non-positive length");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
    const auto& p = device->props();
    // Agents without a PCI address (the CPU) report zeros, as their properties do.
    int written = std::snprintf(bus_id, static_cast<size_t>(length), "%04x:%02x:%02x.0",
                                p.pciDomainID, p.pciBusID, p.pciDeviceID);
    if (written >= length) return invalid_value("buffer too short for the bus id");
    return Status();
      },
      bus_id, length, ordinal);
}

WEFT_EXPORT hipError_t hipDeviceGetByPCIBusId(int* ordinal, const char* bus_id) {
  return call(
      "hipDeviceGetByPCIBusId",
      [&] {
    if (!ordinal || !bus_id) return invalid_value("null pointer");
    Runtime& rt = Runtime::get();
    for (int i = 0; i < rt.device_count(); ++i) {
      char mine[32];
      if (hipDeviceGetPCIBusId(mine, sizeof(mine), i) != hipSuccess) continue;
      if (strcasecmp(mine, bus_id) == 0) {
        *ordinal = i;
        return Status();
      }
    }
    return invalid_value(fmt::format("no device has PCI bus id \"{}\"", bus_id));
      },
      ordinal, bus_id);
}

WEFT_EXPORT hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t ordinal) {
  return call(
      "hipDeviceTotalMem",
      [&] {
    if (!bytes) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
    *bytes = device->props().totalGlobalMem;
    return Status();
      },
      bytes, ordinal);
}

WEFT_EXPORT hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t ordinal) {
  return call(
      "hipDeviceComputeCapability",
      [&] {
    if (!major || !minor) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, device_at(ordinal));
    *major = device->props().major;
    *minor = device->props().minor;
    return Status();
      },
      major, minor, ordinal);
}

WEFT_EXPORT hipError_t hipDeviceGetLimit(size_t* value, hipLimit_t limit) {
  return call(
      "hipDeviceGetLimit",
      [&] {
    if (!value) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    switch (raw_value(limit)) {
      case hipLimitStackSize: {
        const size_t in_effect = device->driver_device().thread_stack_bytes();
        *value = in_effect != 0 ? in_effect : device->limit_stack.load();
        return Status();
      }
      case hipLimitPrintfFifoSize: *value = device->limit_printf_fifo; return Status();
      case hipLimitMallocHeapSize: *value = device->limit_malloc_heap; return Status();
      default: return Status(hipErrorUnsupportedLimit, "unknown limit");
    }
      },
      value, limit);
}

WEFT_EXPORT hipError_t hipDeviceSetLimit(hipLimit_t limit, size_t value) {
  return call(
      "hipDeviceSetLimit",
      [&] {
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    switch (raw_value(limit)) {
      case hipLimitStackSize:
        WEFT_RETURN_IF_ERROR(device->driver_device().set_thread_stack_bytes(value));
        device->limit_stack = value;
        return Status();
      case hipLimitPrintfFifoSize: device->limit_printf_fifo = value; return Status();
      case hipLimitMallocHeapSize: device->limit_malloc_heap = value; return Status();
      default: return Status(hipErrorUnsupportedLimit, "unknown limit");
    }
      },
      limit, value);
}

WEFT_EXPORT hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* config) {
  return call(
      "hipDeviceGetCacheConfig",
      [&] {
    if (!config) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    *config = static_cast<hipFuncCache_t>(device->cache_config.load());
    return Status();
      },
      config);
}

WEFT_EXPORT hipError_t hipDeviceSetCacheConfig(hipFuncCache_t config) {
  return call(
      "hipDeviceSetCacheConfig",
      [&] {
    int raw = raw_value(config);
    if (raw < hipFuncCachePreferNone || raw > hipFuncCachePreferEqual)
      return invalid_value(fmt::format("{} is not a hipFuncCache_t", raw));
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    device->cache_config = raw;
    return Status();
      },
      config);
}

WEFT_EXPORT hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* config) {
  return call(
      "hipDeviceGetSharedMemConfig",
      [&] {
    if (!config) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    *config = static_cast<hipSharedMemConfig>(device->shared_mem_config.load());
    return Status();
      },
      config);
}

WEFT_EXPORT hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config) {
  return call(
      "hipDeviceSetSharedMemConfig",
      [&] {
    if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte)
      return invalid_value("unknown shared memory configuration");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    device->shared_mem_config = config;
    return Status();
      },
      config);
}

WEFT_EXPORT hipError_t hipSetDeviceFlags(unsigned flags) {
  return call(
      "hipSetDeviceFlags",
      [&] {
    constexpr unsigned kAllowed =
        hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax;
    if (flags & ~kAllowed) return invalid_value("unknown device flags");
    unsigned schedule = flags & hipDeviceScheduleMask;
    if (schedule != hipDeviceScheduleAuto && schedule != hipDeviceScheduleSpin &&
        schedule != hipDeviceScheduleYield && schedule != hipDeviceScheduleBlockingSync)
      return invalid_value("more than one scheduling flag");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    device->flags = flags;
    return Status();
      },
      flags);
}

WEFT_EXPORT hipError_t hipGetDeviceFlags(unsigned int* flags) {
  return call(
      "hipGetDeviceFlags",
      [&] {
    if (!flags) return invalid_value("null output pointer");
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    *flags = device->flags;
    return Status();
      },
      flags);
}

WEFT_EXPORT hipError_t hipDeviceSynchronize(void) {
  return call("hipDeviceSynchronize", [&] {
    WEFT_ASSIGN_OR_RETURN(DeviceState * device, current_device());
    WEFT_RETURN_IF_ERROR(graph::check_device_sync(*device));
    WEFT_RETURN_IF_ERROR(device->synchronize());
    mempool::after_synchronize();  // pools release memory above their thresholds
    return Status();
  });
}

WEFT_EXPORT hipError_t hipDeviceReset(void) {
  // Reset is how a program recovers from a sticky error, so it bypasses that check.
  Status status;
  auto device = current_device();
  if (!device.ok()) return finish("hipDeviceReset", device.status(), "");
  DeviceState* d = device.value();
  (void)d->synchronize();  // a fault not seen yet becomes the sticky error here
  // Where a fault lost the context for good (CUDA), a reset would only pretend.
  if (d->sticky_error() != hipSuccess && d->driver_device().caps().faults_lose_context)
    return finish("hipDeviceReset", sticky_status(d->sticky_error()), "");
  Runtime& rt = Runtime::get();
  for (auto& stream : rt.streams().remove_if([d](Stream& s) { return &s.device() == d; }))
    d->remove_stream(stream.get());
  rt.events().remove_if([d](CoreEvent& e) { return &e.device() == d; });
  mempool::device_reset(*d);  // pool blocks go back through their pools
  for (auto& record : rt.pointers().erase_device(d->ordinal())) {
    if (record.external_mapping) continue;  // unmapped with the record's last reference
    if (is_ipc_opening(record.base)) {      // another process's memory: only unmapped here
      if (forget_ipc_opening(record.base)) (void)d->driver_device().ipc_close_memory(record.base);
      continue;
    }
    MemoryKind kind = record.kind == AllocationKind::kHostPinned ? MemoryKind::kHostPinned
                    : record.kind == AllocationKind::kManaged    ? MemoryKind::kManaged
                                                                 : MemoryKind::kDevice;
    (void)d->driver_device().deallocate(record.base, record.size, kind);
  }
  d->drop_streams();
  ThreadState& ts = thread_state();
  if (size_t(d->ordinal()) < ts.per_thread_streams.size())
    ts.per_thread_streams[d->ordinal()] = nullptr;
  d->flags = 0;
  d->clear_sticky_error();
  thread_state().last_error = hipSuccess;
  thread_state().last_call = hipSuccess;
  return hipSuccess;
}

// Not an error-returning call: it only packs its arguments (no validation, as in HIP).
WEFT_EXPORT hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w,
                                                      hipChannelFormatKind f) {
  hipChannelFormatDesc desc;
  desc.x = x;
  desc.y = y;
  desc.z = z;
  desc.w = w;
  desc.f = f;
  return desc;
}
