// SPDX-License-Identifier: MIT
// NVML (libnvidia-ml.so.1) as a table of function pointers filled with dlopen and
// dlsym: hip-smi builds and runs without any NVIDIA software. Types are declared
// here from NVML's documented ABI (no nvml.h needed); each listed symbol is looked
// up by its exact exported name, and a call site picks the newest one present,
// each with the struct that version uses.
//
// HIP_SMI_NVML_LIB names another library to load (tests load a fake one).
// The table is immutable once loaded; NVML itself is thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

namespace weft::smi::nvml {

using Return = int;
using Device = struct nvmlDevice_st*;

inline constexpr Return kSuccess = 0;
inline constexpr Return kNotSupported = 3;
inline constexpr Return kInsufficientSize = 7;
inline constexpr Return kGpuIsLost = 15;
inline constexpr unsigned long long kValueNotAvailable = ~0ull;

inline constexpr int kClockGraphics = 0;
inline constexpr int kClockSm = 1;
inline constexpr int kClockMem = 2;
inline constexpr int kTemperatureGpu = 0;
inline constexpr int kP2pCapsNvlink = 2;
inline constexpr int kP2pStatusOk = 0;
inline constexpr unsigned kNvlinkMaxLinks = 18;

struct Memory {  // nvmlMemory_t
  unsigned long long total, free, used;
};
struct MemoryV2 {  // nvmlMemory_v2_t; version = sizeof | 2 << 24
  unsigned int version;
  unsigned long long total, reserved, free, used;
};
struct Utilization {  // nvmlUtilization_t
  unsigned int gpu, memory;
};
struct PciInfo {  // nvmlPciInfo_t (v3)
  char bus_id_legacy[16];
  unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};
struct ProcessInfo {  // nvmlProcessInfo_t of the _v2/_v3 process queries (24 bytes)
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id, compute_instance_id;
};
struct ProcessInfoV1 {  // the unsuffixed query's entry (16 bytes)
  unsigned int pid;
  unsigned long long used_gpu_memory;
};
struct TemperatureV1 {  // nvmlTemperature_v1_t; version = sizeof | 1 << 24
  unsigned int version;
  int sensor_type;
  int temperature;
};
static_assert(sizeof(PciInfo) == 68 && sizeof(ProcessInfo) == 24 && sizeof(ProcessInfoV1) == 16);
static_assert(sizeof(MemoryV2) == 40 && sizeof(TemperatureV1) == 12);

using ProcessQuery = Return (*)(Device, unsigned int*, void*);

// X(name, signature)
#define HIP_SMI_NVML_SYMBOLS(X)                                             \
  X(nvmlInit_v2, Return (*)())                                              \
  X(nvmlShutdown, Return (*)())                                             \
  X(nvmlErrorString, const char* (*)(Return))                               \
  X(nvmlSystemGetDriverVersion, Return (*)(char*, unsigned int))            \
  X(nvmlSystemGetCudaDriverVersion_v2, Return (*)(int*))                    \
  X(nvmlSystemGetCudaDriverVersion, Return (*)(int*))                       \
  X(nvmlDeviceGetCount_v2, Return (*)(unsigned int*))                       \
  X(nvmlDeviceGetHandleByIndex_v2, Return (*)(unsigned int, Device*))       \
  X(nvmlDeviceGetName, Return (*)(Device, char*, unsigned int))             \
  X(nvmlDeviceGetUUID, Return (*)(Device, char*, unsigned int))             \
  X(nvmlDeviceGetPciInfo_v3, Return (*)(Device, PciInfo*))                  \
  X(nvmlDeviceGetMinorNumber, Return (*)(Device, unsigned int*))            \
  X(nvmlDeviceGetCudaComputeCapability, Return (*)(Device, int*, int*))     \
  X(nvmlDeviceGetMaxClockInfo, Return (*)(Device, int, unsigned int*))      \
  X(nvmlDeviceGetMemoryInfo_v2, Return (*)(Device, MemoryV2*))              \
  X(nvmlDeviceGetMemoryInfo, Return (*)(Device, Memory*))                   \
  X(nvmlDeviceGetUtilizationRates, Return (*)(Device, Utilization*))        \
  X(nvmlDeviceGetTemperature, Return (*)(Device, int, unsigned int*))       \
  X(nvmlDeviceGetTemperatureV, Return (*)(Device, TemperatureV1*))          \
  X(nvmlDeviceGetPowerUsage, Return (*)(Device, unsigned int*))             \
  X(nvmlDeviceGetEnforcedPowerLimit, Return (*)(Device, unsigned int*))     \
  X(nvmlDeviceGetPowerManagementLimit, Return (*)(Device, unsigned int*))   \
  X(nvmlDeviceGetClockInfo, Return (*)(Device, int, unsigned int*))         \
  X(nvmlDeviceGetPerformanceState, Return (*)(Device, int*))                \
  X(nvmlDeviceGetFanSpeed, Return (*)(Device, unsigned int*))               \
  X(nvmlDeviceGetCurrPcieLinkGeneration, Return (*)(Device, unsigned int*)) \
  X(nvmlDeviceGetCurrPcieLinkWidth, Return (*)(Device, unsigned int*))      \
  X(nvmlDeviceGetMaxPcieLinkGeneration, Return (*)(Device, unsigned int*))  \
  X(nvmlDeviceGetMaxPcieLinkWidth, Return (*)(Device, unsigned int*))       \
  X(nvmlDeviceGetComputeRunningProcesses_v3, ProcessQuery)                  \
  X(nvmlDeviceGetComputeRunningProcesses_v2, ProcessQuery)                  \
  X(nvmlDeviceGetComputeRunningProcesses, ProcessQuery)                     \
  X(nvmlDeviceGetGraphicsRunningProcesses_v3, ProcessQuery)                 \
  X(nvmlDeviceGetGraphicsRunningProcesses_v2, ProcessQuery)                 \
  X(nvmlDeviceGetGraphicsRunningProcesses, ProcessQuery)                    \
  X(nvmlDeviceGetTopologyCommonAncestor, Return (*)(Device, Device, int*))  \
  X(nvmlDeviceGetP2PStatus, Return (*)(Device, Device, int, int*))          \
  X(nvmlDeviceGetNvLinkState, Return (*)(Device, unsigned int, int*))       \
  X(nvmlDeviceGetNvLinkRemotePciInfo_v2, Return (*)(Device, unsigned int, PciInfo*))

struct Api {
#define HIP_SMI_NVML_MEMBER(name, type) std::type_identity_t<type> name = nullptr;
  HIP_SMI_NVML_SYMBOLS(HIP_SMI_NVML_MEMBER)
#undef HIP_SMI_NVML_MEMBER
  std::string library;  // the file that was loaded
};

// Loads the library and resolves every symbol (missing ones stay null). Returns
// false with `error` set when the library or one of the three essential
// functions (init, count, handle) is missing. Call once; the Api lives forever.
bool load(Api& api, std::string& error);

// "NVML_ERROR_…" text of a return code, through nvmlErrorString when present.
std::string error_text(const Api& api, Return rc);

}  // namespace weft::smi::nvml
