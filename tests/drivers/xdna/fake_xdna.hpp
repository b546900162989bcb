// SPDX-License-Identifier: MIT
// A double of the amdxdna kernel interface: the accel nodes, their sysfs
// attributes, the DRM ioctls (amdxdna's and the DRM core's GEM_CLOSE and
// syncobj calls) and mmap of BOs, installed as the NPU driver's OS table
// (drivers/xdna/os.hpp). It replaces the kernel, not weft's code.
//
// It records every call, and checks what the kernel checks or what the
// published formats say: the request's encoded size against the struct, MBZ
// fields, BO types (DEV needs the heap, CREATE_HWCTX needs the heap, EXEC_CMD
// needs a CMD BO), the ERT header (state NEW, opcode START_CU, count, CU mask
// naming a configured CU), the register map of the mlir-aie layout (opcode 3,
// the instruction BO's address and word count, buffer addresses inside BOs
// listed in the command's argument handles), absolute syncobj timeouts.
// Anything else is a violation (listed, and the ioctl fails with EINVAL).
//
// Commands complete at EXEC_CMD, signalling the context's timeline at `seq`.
// The double's "firmware" runs a test instruction set (not AIE code):
//   kTestAdd, n, k     bo1[i] = bo0[i] + k for i < n (u32 elements)
//   kTestFault         the command ends in state ERROR
// Errors to inject: EBUSY at CREATE_HWCTX (columns taken), a wait that times
// out, a final command state other than COMPLETED, and a device lost (every
// later ioctl fails with ENODEV). Nothing ever blocks.
#pragma once

#include "os.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace fake_xdna {

constexpr uint32_t kTestAdd = 0x7E570001u;
constexpr uint32_t kTestFault = 0x7E570002u;

struct NodeConfig {
  unsigned device_id = 0x1502, revision = 0x00;
  std::string bdf = "0000:c5:00.1";
  std::string vbnv = "RyzenAI-npu1";
  uint16_t columns = 4, core_rows = 4;
  uint32_t clock_mhz = 1028;
  bool readable = true;  // open() fails with EACCES when false
  bool bound = true;     // the device's driver link says amdxdna
};

struct Call {
  std::string name;  // "CREATE_BO", "EXEC_CMD", "mmap", ...
  unsigned long request = 0;
  std::vector<std::byte> arg;  // the struct as passed in (before the double wrote outputs)
  int error = 0;               // errno returned, 0 on success
};

struct FakeBo {
  uint32_t type = 0;
  uint64_t size = 0;
  uint64_t xdna_addr = 0;
  uint64_t map_offset = 0;
  std::byte* memory = nullptr;  // SHMEM/CMD/HEAP: owned; DEV: inside the heap
  int fd = -1;
  bool mapped = false;
  int syncs_to_device = 0, syncs_from_device = 0;
};

struct FakeContext {
  std::string bdf;
  uint32_t syncobj = 0;
  uint32_t columns = 0;
  uint32_t max_opc = 0;
  std::vector<std::pair<uint32_t, uint8_t>> cus;  // {pdi BO, function}
  uint64_t seq = 0;
  int fd = -1;
};

struct Injection {
  bool busy = false;            // CREATE_HWCTX: EBUSY
  bool wait_times_out = false;  // SYNCOBJ_TIMELINE_WAIT: ETIME
  uint32_t final_state = 4;     // the state written to a command's header (4 COMPLETED)
  bool device_lost = false;     // every ioctl: ENODEV
};

class FakeXdna {
 public:
  // The one double of the process (the OS table holds plain functions).
  static FakeXdna& get();

  // Installs `nodes` (empty: no /sys/class/accel at all) and clears the call
  // log, violations and injections. Open fds, BOs and contexts of earlier
  // configurations stay valid (a device or queue thread may release them
  // later); handles and fds are never reused.
  void configure(std::vector<NodeConfig> nodes);
  const weft::xdna::OsTable& table() const;

  // ---- Inspection and injection (thread-safe).
  std::vector<Call> calls();
  std::vector<std::string> violations();
  Injection& inject() { return injection_; }  // set before the call it affects
  size_t live_bos();
  size_t live_contexts();
  std::vector<std::string> call_names();
  // The CMD BO words of the last EXEC_CMD as the double saw them.
  std::vector<uint32_t> last_packet();
  std::vector<uint32_t> last_exec_args();
  std::vector<std::pair<uint32_t, uint8_t>> last_cus();
  uint64_t bo_address(uint32_t handle);
  uint64_t bo_size(uint32_t handle);
  uint32_t bo_type(uint32_t handle);
  uint32_t bo_at_address(uint64_t xdna_addr);

  // OS table entry points.
  int open(const char* path, int flags);
  int close(int fd);
  int ioctl(int fd, unsigned long request, void* arg);
  void* mmap(void* addr, size_t length, int prot, int flags, int fd, long offset);
  int munmap(void* addr, size_t length);
  int list_dir(const char* path, void (*each)(const char*, void*), void* context);
  long readlink(const char* path, char* buffer, size_t size);
  long read_file(const char* path, char* buffer, size_t size);

 private:
  int fail(const std::string& why, int err = EINVAL);
  void record(const std::string& name, unsigned long request, const void* arg, size_t size);
  int create_hwctx(int fd, void* arg);
  int config_hwctx(void* arg);
  int create_bo(int fd, void* arg);
  int exec_cmd(void* arg);
  int timeline_wait(void* arg);
  int get_info(int fd, void* arg);
  void run_firmware(FakeContext& ctx, std::vector<uint32_t>& packet,
                    const std::vector<uint32_t>& handles, uint32_t& state);
  FakeBo* bo_containing(uint64_t xdna_addr, uint64_t bytes, uint64_t* offset);

  std::mutex mutex_;
  std::vector<NodeConfig> nodes_;
  std::map<int, NodeConfig> fds_;  // open clients
  int next_fd_ = 1000;
  std::map<uint32_t, FakeBo> bos_;
  uint32_t next_handle_ = 1;
  uint64_t next_address_ = 0x100000000ull;
  uint64_t next_map_offset_ = 0x100000;
  std::map<uint32_t, FakeContext> contexts_;
  uint32_t next_context_ = 1;
  std::map<int, uint32_t> heaps_;                 // per client (fd): the DEV_HEAP's handle
  std::map<int, uint64_t> heap_used_;             // per client: bytes carved out of it
  std::map<std::string, uint32_t> columns_used_;  // per device (BDF)
  std::vector<Call> calls_;
  std::vector<std::string> violations_;
  std::vector<uint32_t> last_packet_, last_args_;
  std::vector<std::pair<uint32_t, uint8_t>> last_cus_;
  Injection injection_;
};

}  // namespace fake_xdna
