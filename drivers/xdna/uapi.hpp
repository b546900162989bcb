// SPDX-License-Identifier: MIT
// The amdxdna kernel interface as weft uses it, written from the public uAPI
// header include/uapi/drm/amdxdna_accel.h (Linux 6.14+, driver 0.0), the DRM
// core's drm.h (GEM_CLOSE, the syncobj ioctls) and the driver's ERT command
// format (drivers/accel/amdxdna/amdxdna_ctx.h). weft does not include those
// headers: a build machine needs none, and the static_asserts below pin every
// size the kernel checks (it compares _IOC_SIZE of the request with its struct).
// docs/xdna.md lists where the project's fact sheet and these headers differ.
#pragma once

#include <cstddef>
#include <cstdint>

namespace weft::xdna::uapi {

// ---- ioctl request numbers: _IOC(dir, 'd', nr, size) as <asm-generic/ioctl.h>
// builds them (dir bits 31:30 with write = 1 and read = 2, size bits 29:16).
constexpr uint32_t ioc(uint32_t dir, uint32_t nr, uint32_t size) {
  return (dir << 30) | (size << 16) | (uint32_t('d') << 8) | nr;
}
constexpr uint32_t kIocWrite = 1, kIocRead = 2;
constexpr uint32_t iowr(uint32_t nr, uint32_t size) { return ioc(kIocWrite | kIocRead, nr, size); }
constexpr uint32_t iow(uint32_t nr, uint32_t size) { return ioc(kIocWrite, nr, size); }

constexpr uint32_t kDrmCommandBase = 0x40;  // driver-private ioctls start here

// ---- amdxdna structures (every field as the uAPI header orders it).
struct QosInfo {
  uint32_t gops, fps, dma_bandwidth, latency, frame_exec_time, priority;
};

struct CreateHwctx {
  uint64_t ext = 0, ext_flags = 0;  // MBZ
  uint64_t qos_p = 0;               // address of a QosInfo
  uint32_t umq_bo = 0, log_buf_bo = 0;
  uint32_t max_opc = 0, num_tiles = 0, mem_size = 0;
  uint32_t umq_doorbell = 0;    // out
  uint32_t handle = 0;          // out
  uint32_t syncobj_handle = 0;  // out: a DRM timeline syncobj; job `seq` signals point `seq`
};

struct DestroyHwctx {
  uint32_t handle = 0, pad = 0;
};

struct CuConfig {
  uint32_t cu_bo = 0;  // a DEV BO holding the CU's PDI
  uint8_t cu_func = 0;
  uint8_t pad[3] = {};
};

// CONFIG_CU's payload: this header, then num_cus CuConfig (at most a page in all).
struct ConfigCuHeader {
  uint16_t num_cus = 0;
  uint16_t pad[3] = {};
};

enum ConfigParam : uint32_t { kConfigCu = 0, kAssignDebugBuffer = 1, kRemoveDebugBuffer = 2 };

struct ConfigHwctx {
  uint32_t handle = 0, param_type = 0;
  uint64_t param_val = 0;  // a pointer to the payload, or a BO handle
  uint32_t param_val_size = 0, pad = 0;
};
constexpr size_t kConfigPayloadMax = 4096;

enum BoType : uint32_t { kBoInvalid = 0, kBoShmem = 1, kBoDevHeap = 2, kBoDev = 3, kBoCmd = 4 };

struct CreateBo {
  uint64_t flags = 0;  // MBZ
  uint64_t vaddr = 0;  // MBZ (6.14)
  uint64_t size = 0;
  uint32_t type = 0;
  uint32_t handle = 0;  // out
};

struct GetBoInfo {
  uint64_t ext = 0, ext_flags = 0;  // MBZ
  uint32_t handle = 0, pad = 0;
  uint64_t map_offset = 0;  // out: offset for mmap() on the accel fd
  uint64_t vaddr = 0;  // out: set when the driver mapped the BO itself (DEV BOs inside the heap)
  uint64_t xdna_addr = 0;  // out: the device address to put in commands
};

enum SyncDirection : uint32_t { kSyncToDevice = 0, kSyncFromDevice = 1 };

struct SyncBo {
  uint32_t handle = 0, direction = 0;
  uint64_t offset = 0, size = 0;
};

enum CmdType : uint32_t { kSubmitExecBuf = 0, kSubmitDependency = 1, kSubmitSignal = 2 };

struct ExecCmd {
  uint64_t ext = 0, ext_flags = 0;  // MBZ
  uint32_t hwctx = 0, type = 0;
  uint64_t cmd_handles = 0;  // the CMD BO handle itself when cmd_count is 1
  uint64_t args = 0;         // address of u32 BO handles the command uses (kept alive for the job)
  uint32_t cmd_count = 0, arg_count = 0;
  uint64_t seq = 0;  // out
};

enum InfoParam : uint32_t {
  kQueryAieStatus = 0,
  kQueryAieMetadata = 1,
  kQueryAieVersion = 2,
  kQueryClockMetadata = 3,
  kQuerySensors = 4,
  kQueryHwContexts = 5,
  kQueryFirmwareVersion = 8,
  kGetPowerMode = 9,
};

struct GetInfo {
  uint32_t param = 0;
  uint32_t buffer_size = 0;  // in: the buffer's size; out: what the kernel wrote
  uint64_t buffer = 0;
};

struct AieVersion {
  uint32_t major = 0, minor = 0;
};
struct AieTileMetadata {
  uint16_t row_count = 0, row_start = 0, dma_channel_count = 0, lock_count = 0, event_reg_count = 0;
  uint16_t pad[3] = {};
};
struct AieMetadata {
  uint32_t col_size = 0;
  uint16_t cols = 0, rows = 0;
  AieVersion version;
  AieTileMetadata core, mem, shim;
};
struct ClockInfo {
  uint8_t name[16] = {};
  uint32_t freq_mhz = 0, pad = 0;
};
struct ClockMetadata {
  ClockInfo mp_npu_clock, h_clock;
};
struct FirmwareVersion {
  uint32_t major = 0, minor = 0, patch = 0, build = 0;
};

static_assert(sizeof(CreateHwctx) == 56);
static_assert(sizeof(DestroyHwctx) == 8);
static_assert(sizeof(CuConfig) == 8);
static_assert(sizeof(ConfigCuHeader) == 8);
static_assert(sizeof(ConfigHwctx) == 24);
static_assert(sizeof(CreateBo) == 32);
static_assert(sizeof(GetBoInfo) == 48);
static_assert(sizeof(SyncBo) == 24);
static_assert(sizeof(ExecCmd) == 56);
static_assert(sizeof(GetInfo) == 16);
static_assert(sizeof(AieMetadata) == 64);
static_assert(sizeof(ClockMetadata) == 48);
static_assert(sizeof(FirmwareVersion) == 16);

constexpr uint32_t kCreateHwctx = iowr(kDrmCommandBase + 0, sizeof(CreateHwctx));
constexpr uint32_t kDestroyHwctx = iowr(kDrmCommandBase + 1, sizeof(DestroyHwctx));
constexpr uint32_t kConfigHwctx = iowr(kDrmCommandBase + 2, sizeof(ConfigHwctx));
constexpr uint32_t kCreateBo = iowr(kDrmCommandBase + 3, sizeof(CreateBo));
constexpr uint32_t kGetBoInfo = iowr(kDrmCommandBase + 4, sizeof(GetBoInfo));
constexpr uint32_t kSyncBo = iowr(kDrmCommandBase + 5, sizeof(SyncBo));
constexpr uint32_t kExecCmd = iowr(kDrmCommandBase + 6, sizeof(ExecCmd));
constexpr uint32_t kGetInfo = iowr(kDrmCommandBase + 7, sizeof(GetInfo));
// The fact sheet's numbers (computed for x86-64), checked here once more.
static_assert(kCreateHwctx == 0xc0386440u && kDestroyHwctx == 0xc0086441u &&
              kConfigHwctx == 0xc0186442u);
static_assert(kCreateBo == 0xc0206443u && kGetBoInfo == 0xc0306444u && kSyncBo == 0xc0186445u);
static_assert(kExecCmd == 0xc0386446u && kGetInfo == 0xc0106447u);

// ---- DRM core (drm.h): closing GEM handles, syncobjs.
struct GemClose {
  uint32_t handle = 0, pad = 0;
};
struct SyncobjDestroy {
  uint32_t handle = 0, pad = 0;
};
struct SyncobjTimelineWait {
  uint64_t handles = 0;      // address of u32 syncobj handles
  uint64_t points = 0;       // address of u64 timeline points
  int64_t timeout_nsec = 0;  // absolute CLOCK_MONOTONIC time
  uint32_t count_handles = 0;
  uint32_t flags = 0;
  uint32_t first_signaled = 0;
  uint32_t pad = 0;
};
static_assert(sizeof(GemClose) == 8 && sizeof(SyncobjDestroy) == 8 &&
              sizeof(SyncobjTimelineWait) == 40);
constexpr uint32_t kSyncobjWaitAll = 1u << 0;
constexpr uint32_t kSyncobjWaitForSubmit = 1u << 1;

constexpr uint32_t kGemClose = iow(0x09, sizeof(GemClose));
constexpr uint32_t kSyncobjDestroy = iowr(0xC0, sizeof(SyncobjDestroy));
constexpr uint32_t kSyncobjTimelineWait = iowr(0xCA, sizeof(SyncobjTimelineWait));
static_assert(kGemClose == 0x40086409u && kSyncobjDestroy == 0xc00864c0u &&
              kSyncobjTimelineWait == 0xc02864cau);

// ---- The ERT command packet in a CMD BO (amdxdna_ctx.h, XRT's ert.h).
// Header word: state 3:0, extra CU masks 11:10, count 22:12 (words after the
// header: the CU masks and the payload), opcode 27:23, type 31:28.
enum ErtOpcode : uint32_t { kErtStartCu = 0, kErtCmdChain = 19, kErtStartNpu = 20 };
enum ErtState : uint32_t {
  kErtInvalid = 0,
  kErtNew = 1,
  kErtQueued = 2,
  kErtRunning = 3,
  kErtCompleted = 4,
  kErtError = 5,
  kErtAbort = 6,
  kErtSubmitted = 7,
  kErtTimeout = 8,
  kErtNoResponse = 9,
};
constexpr uint32_t kErtTypeCu = 3;  // ERT_CU (XRT sets it; the amdxdna driver does not read it)
constexpr uint32_t kErtMaxCount = 0x7ff;

constexpr uint32_t ert_header(uint32_t state, uint32_t extra_cu_masks, uint32_t count,
                              uint32_t opcode, uint32_t type) {
  return (state & 0xf) | ((extra_cu_masks & 0x3) << 10) | ((count & 0x7ff) << 12) |
         ((opcode & 0x1f) << 23) | ((type & 0xf) << 28);
}
constexpr uint32_t ert_state(uint32_t header) { return header & 0xf; }
constexpr uint32_t ert_count(uint32_t header) { return (header >> 12) & 0x7ff; }
constexpr uint32_t ert_opcode(uint32_t header) { return (header >> 23) & 0x1f; }
constexpr uint32_t ert_extra_cu_masks(uint32_t header) { return (header >> 10) & 0x3; }

// Sizes of the client heap on AIE2 (the fact sheet, §2.3): the heap must exist
// before CREATE_HWCTX, and DEV BOs are carved out of it.
constexpr uint64_t kDevHeapBytes = 64ull << 20;

}  // namespace weft::xdna::uapi
