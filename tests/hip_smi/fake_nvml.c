// SPDX-License-Identifier: MIT
// A stand-in for libnvidia-ml.so.1 in hip-smi's tests (HIP_SMI_NVML_LIB): two
// H200s matching tests/data/hip_smi/nvidia-h200, with fixed values. Written from
// NVML's documented ABI; only the entry points hip-smi uses exist.
//
// FAKE_NVML_HANG=init     nvmlInit_v2 never returns (an unresponsive driver)
// FAKE_NVML_HANG=device1  every live query of GPU 1 never returns (a hung GPU)
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int nvmlReturn_t;
typedef struct FakeDevice {
  unsigned index;
} * nvmlDevice_t;

enum {
  kSuccess = 0,
  kInvalidArgument = 2,
  kNotSupported = 3,
  kInsufficientSize = 7,
};

static struct FakeDevice g_devices[2] = {{0}, {1}};
static const char* const g_bus_ids[2] = {"00000000:18:00.0", "00000000:9A:00.0"};

static void maybe_hang(const char* what) {
  const char* mode = getenv("FAKE_NVML_HANG");
  if (mode && strcmp(mode, what) == 0)
    for (;;) sleep(3600);
}

static int valid(nvmlDevice_t d) { return d == &g_devices[0] || d == &g_devices[1]; }

static void live_query(nvmlDevice_t d) {
  if (d == &g_devices[1]) maybe_hang("device1");
}

nvmlReturn_t nvmlInit_v2(void) {
  maybe_hang("init");
  return kSuccess;
}
nvmlReturn_t nvmlShutdown(void) { return kSuccess; }
const char* nvmlErrorString(nvmlReturn_t rc) {
  return rc == kNotSupported ? "Not Supported" : "Unknown Error";
}

nvmlReturn_t nvmlSystemGetDriverVersion(char* out, unsigned n) {
  snprintf(out, n, "%s", "580.159.04");
  return kSuccess;
}
nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int* v) {
  *v = 13000;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* n) {
  *n = 2;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* d) {
  if (i >= 2) return kInvalidArgument;
  *d = &g_devices[i];
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* out, unsigned n) {
  if (!valid(d)) return kInvalidArgument;
  snprintf(out, n, "%s", "NVIDIA H200");
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* out, unsigned n) {
  if (!valid(d)) return kInvalidArgument;
  snprintf(out, n, "GPU-6b1f0c2e-4d3a-5e8b-9c7d-a1b2c3d4e5f%u", d->index);
  return kSuccess;
}

typedef struct {
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
} PciInfo;

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, PciInfo* p) {
  if (!valid(d)) return kInvalidArgument;
  memset(p, 0, sizeof(*p));
  snprintf(p->bus_id, sizeof(p->bus_id), "%s", g_bus_ids[d->index]);
  snprintf(p->bus_id_legacy, sizeof(p->bus_id_legacy), "%s", g_bus_ids[d->index] + 4);
  p->bus = d->index ? 0x9a : 0x18;
  p->pci_device_id = 0x233510de;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t d, unsigned* m) {
  if (!valid(d)) return kInvalidArgument;
  *m = d->index;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int* major, int* minor) {
  if (!valid(d)) return kInvalidArgument;
  *major = 9;
  *minor = 0;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetMaxClockInfo(nvmlDevice_t d, int type, unsigned* mhz) {
  if (!valid(d)) return kInvalidArgument;
  *mhz = type == 2 ? 3201 : 1980;
  return kSuccess;
}

typedef struct {
  unsigned version;
  unsigned long long total, reserved, free, used;
} MemoryV2;

nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t d, MemoryV2* m) {
  if (!valid(d)) return kInvalidArgument;
  live_query(d);
  if (m->version != (sizeof(MemoryV2) | 2u << 24)) return 25;  // ARGUMENT_VERSION_MISMATCH
  m->total = 150754820096ull;
  m->reserved = 552468480ull;
  m->used = d->index ? 536870912ull : 77309411328ull;
  m->free = m->total - m->reserved - m->used;
  return kSuccess;
}

typedef struct {
  unsigned gpu, memory;
} Utilization;

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, Utilization* u) {
  if (!valid(d)) return kInvalidArgument;
  live_query(d);
  u->gpu = d->index ? 0 : 87;
  u->memory = d->index ? 0 : 41;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned* c) {
  if (!valid(d) || sensor != 0) return kInvalidArgument;
  live_query(d);
  *c = d->index ? 31 : 58;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned* mw) {
  if (!valid(d)) return kInvalidArgument;
  live_query(d);
  *mw = d->index ? 74512 : 596310;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetEnforcedPowerLimit(nvmlDevice_t d, unsigned* mw) {
  if (!valid(d)) return kInvalidArgument;
  *mw = 700000;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned* mhz) {
  if (!valid(d)) return kInvalidArgument;
  live_query(d);
  *mhz = type == 2 ? 3201 : (d->index ? 345 : 1980);
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetPerformanceState(nvmlDevice_t d, int* p) {
  if (!valid(d)) return kInvalidArgument;
  *p = 0;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetFanSpeed(nvmlDevice_t d, unsigned* pct) {
  (void)d;
  (void)pct;
  return kNotSupported;  // passively cooled
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkGeneration(nvmlDevice_t d, unsigned* g) {
  if (!valid(d)) return kInvalidArgument;
  *g = 5;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetCurrPcieLinkWidth(nvmlDevice_t d, unsigned* w) {
  if (!valid(d)) return kInvalidArgument;
  *w = 16;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetMaxPcieLinkGeneration(nvmlDevice_t d, unsigned* g) {
  return nvmlDeviceGetCurrPcieLinkGeneration(d, g);
}
nvmlReturn_t nvmlDeviceGetMaxPcieLinkWidth(nvmlDevice_t d, unsigned* w) {
  return nvmlDeviceGetCurrPcieLinkWidth(d, w);
}

typedef struct {
  unsigned pid;
  unsigned long long used;
  unsigned gpu_instance, compute_instance;
} ProcessInfo;

static nvmlReturn_t fill(unsigned* n, ProcessInfo* out, const ProcessInfo* list, unsigned count) {
  if (*n < count || (count > 0 && !out)) {
    *n = count;
    return count ? kInsufficientSize : kSuccess;
  }
  memcpy(out, list, count * sizeof(ProcessInfo));
  *n = count;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned* n,
                                                     ProcessInfo* out) {
  static const ProcessInfo gpu0[] = {{9001, 75161927680ull, 0xffffffffu, 0xffffffffu}};
  if (!valid(d)) return kInvalidArgument;
  live_query(d);
  return d->index ? fill(n, out, NULL, 0) : fill(n, out, gpu0, 1);
}
nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t d, unsigned* n,
                                                      ProcessInfo* out) {
  // Memory "not available", as NVML reports it in some configurations: all ones.
  static const ProcessInfo gpu1[] = {{9003, ~0ull, 0xffffffffu, 0xffffffffu}};
  if (!valid(d)) return kInvalidArgument;
  live_query(d);
  return d->index ? fill(n, out, gpu1, 1) : fill(n, out, NULL, 0);
}

nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t a, nvmlDevice_t b, int* level) {
  if (!valid(a) || !valid(b)) return kInvalidArgument;
  *level = a == b ? 0 : 50;  // SYSTEM: the two GPUs hang off different sockets
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetP2PStatus(nvmlDevice_t a, nvmlDevice_t b, int caps, int* status) {
  if (!valid(a) || !valid(b)) return kInvalidArgument;
  *status = caps == 2 ? 0 : 5;  // NVLink P2P OK (through NVSwitch)
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t d, unsigned link, int* active) {
  if (!valid(d) || link >= 18) return kInvalidArgument;
  *active = 1;
  return kSuccess;
}
nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t d, unsigned link, PciInfo* p) {
  if (!valid(d) || link >= 18) return kInvalidArgument;
  memset(p, 0, sizeof(*p));
  snprintf(p->bus_id, sizeof(p->bus_id), "00000000:%02X:00.0", 0x05 + link % 4);  // NVSwitches
  return kSuccess;
}
