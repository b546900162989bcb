// SPDX-License-Identifier: MIT
// Small entry points without a family of their own: tracer names (hipApiName,
// hipGetCmdName), link topology (hipExtGetLinkTypeAndHopCount), the device list
// new threads start from (hipSetValidDevices), and run-time logging control
// (hipExtEnableLogging, hipExtDisableLogging, hipExtSetLoggingParams, thin layers
// over util/log.hpp).
#include "api/api.hpp"

#include <iterator>
#include <vector>

using namespace weft;
using namespace weft::api;

namespace {

// Index N is the name of HIP API id N (index 0 is HIP_API_ID_NONE).
constexpr const char* kApiNames[] = {
    "none",
#include "api/api_ids.inc"
};

// Tracer command kinds (AMD's HipVdiCommandKind, which uses OpenCL's command type
// values) and the two stream memory operations AMD adds to them.
struct CommandName {
  uint32_t id;
  const char* name;
};
constexpr CommandName kCommandNames[] = {
    {0x0000, "InternalMarker"},
    {0x11F0, "KernelExecution"},
    {0x11F1, "Task"},
    {0x11F2, "NativeKernel"},
    {0x11F3, "CopyDeviceToHost"},
    {0x11F4, "CopyHostToDevice"},
    {0x11F5, "CopyDeviceToDevice"},
    {0x11F6, "ReadImage"},
    {0x11F7, "WriteImage"},
    {0x11F8, "CopyImage"},
    {0x11F9, "CopyImageToBuffer"},
    {0x11FA, "CopyBufferToImage"},
    {0x11FB, "MapBuffer"},
    {0x11FC, "MapImage"},
    {0x11FD, "UnmapMemObject"},
    {0x11FE, "Marker"},
    {0x11FF, "AcquireGLObjects"},
    {0x1200, "ReleaseGLObjects"},
    {0x1201, "CopyDeviceToHost2D"},
    {0x1202, "CopyHostToDevice2D"},
    {0x1203, "CopyDeviceToDevice2D"},
    {0x1204, "User"},
    {0x1205, "Barrier"},
    {0x1206, "MigrateMemObjects"},
    {0x1207, "FillBuffer"},
    {0x1208, "FillImage"},
    {0x1209, "SvmFree"},
    {0x120A, "SvmMemcpy"},
    {0x120B, "SvmMemFill"},
    {0x120C, "SvmMap"},
    {0x120D, "SvmUnmap"},
    {0x4501, "StreamWait"},
    {0x4502, "StreamWrite"},
};

// HSA_AMD_LINK_INFO_TYPE_* values, which hipExtGetLinkTypeAndHopCount reports.
constexpr uint32_t kLinkPcie = 2;

}  // namespace

WEFT_EXPORT const char* hipApiName(uint32_t id) {
  if (id < std::size(kApiNames) && id != 0) return kApiNames[id];
  return "unknown";
}

WEFT_EXPORT const char* hipGetCmdName(uint32_t id) {
  for (const CommandName& c : kCommandNames)
    if (c.id == id) return c.name;
  return "Unknown command kind";
}

WEFT_EXPORT hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t* linktype,
                                                    uint32_t* hopcount) {
  return call(
      "hipExtGetLinkTypeAndHopCount",
      [&] {
    if (!linktype || !hopcount) return invalid_value("null output");
    if (device1 == device2) return invalid_value("the two devices are the same");
    if (device1 < 0 || device2 < 0) return invalid_value("negative device ordinal");
    WEFT_ASSIGN_OR_RETURN(DeviceState * a, device_at(device1));
    WEFT_ASSIGN_OR_RETURN(DeviceState * b, device_at(device2));
    // Agents of different drivers, or of one driver without peer access, meet only
    // through host memory over PCIe: one hop to the root complex and one back. Peers
    // of one driver are reported as PCIe peers one hop apart (no driver here reports
    // XGMI or NVLink topology yet).
    Result<bool> peer = a->driver_device().can_access_peer(b->driver_device());
    *linktype = kLinkPcie;
    *hopcount = peer.ok() && peer.value() ? 1 : 2;
    return Status();
      },
      device1, device2, linktype, hopcount);
}

WEFT_EXPORT hipError_t hipSetValidDevices(int* device_arr, int len) {
  return call(
      "hipSetValidDevices",
      [&] {
    if (len < 0) return invalid_value(fmt::format("len {} is negative", len));
    if (len > 0 && !device_arr) return invalid_value("null device list");
    const int count = Runtime::get().device_count();
    if (count == 0) return Status(hipErrorNoDevice, "no HIP agent is available");
    std::vector<bool> seen(static_cast<size_t>(count), false);
    for (int i = 0; i < len; ++i) {
      const int d = device_arr[i];
      if (d < 0 || d >= count)
        return Status(hipErrorInvalidDevice,
                      fmt::format("device_arr[{}] = {} is not a device (0..{})", i, d, count - 1));
      if (seen[d]) return invalid_value(fmt::format("device {} is listed twice", d));
      seen[d] = true;
    }
    // Every agent here can always be used, so the first listed device is the one a
    // thread that never called hipSetDevice runs on; an empty list restores device 0.
    const int first = len > 0 ? device_arr[0] : 0;
    set_initial_device(first);
    if (!thread_state().device_chosen) thread_state().device = first;
    return Status();
      },
      device_arr, len);
}

WEFT_EXPORT hipError_t hipExtEnableLogging() {
  return call("hipExtEnableLogging", [&] {
    log::set_enabled(true);
    return Status();
  });
}

WEFT_EXPORT hipError_t hipExtDisableLogging() {
  return call("hipExtDisableLogging", [&] {
    log::set_enabled(false);
    return Status();
  });
}

WEFT_EXPORT hipError_t hipExtSetLoggingParams(size_t log_level, size_t log_size, size_t log_mask) {
  return call(
      "hipExtSetLoggingParams",
      [&] {
    // log_size bounds AMD's log file; weft writes lines to stderr and keeps no file.
    (void)log_size;
    if (log_mask > 0xFFFFFFFFu)
      return invalid_value(fmt::format("log mask {:#x} has bits past 32", log_mask));
    log::set_level(static_cast<int>(std::min<size_t>(log_level, 4)));
    log::set_mask(static_cast<uint32_t>(log_mask));
    return Status();
      },
      log_level, log_size, log_mask);
}
