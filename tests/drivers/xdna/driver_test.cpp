// SPDX-License-Identifier: MIT
// The NPU driver (drivers/xdna) against the amdxdna double (fake_xdna.*):
// enumeration, properties, SHMEM memory, module loading (heap, hardware
// context, CONFIG_CU, instruction BOs), the ERT START_CU packet word by word,
// ordering, and every injected error with the HIP error it becomes. Each check
// also requires that the double saw no violation of the published formats.
#include <weft/codeobj/npu_object.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "device.hpp"
#include "driver.hpp"
#include "fake_xdna.hpp"
#include "hip_test.hpp"
#include "module.hpp"
#include "npu_objects.hpp"
#include "os.hpp"
#include "queue.hpp"
#include "uapi.hpp"

namespace u = weft::xdna::uapi;
using fake_xdna::FakeXdna;
using weft::Ref;

namespace {

template <typename T>
T value_of(weft::Result<T> r) {
  INFO(r.status().message());
  for (const auto& v : FakeXdna::get().violations()) UNSCOPED_INFO("violation: " << v);
  REQUIRE(r.ok());
  return std::move(r).value();
}

#define XDNA_OK(expr)              \
  do {                             \
    weft::Status xdna_s_ = (expr); \
    INFO(xdna_s_.message());       \
    REQUIRE(xdna_s_.ok());         \
  } while (0)

void require_no_violations() {
  auto v = FakeXdna::get().violations();
  for (const auto& line : v) UNSCOPED_INFO("violation: " << line);
  REQUIRE(v.empty());
}

std::vector<Ref<weft::Device>> open_npus(std::vector<fake_xdna::NodeConfig> nodes,
                                         std::string* note = nullptr) {
  FakeXdna::get().configure(std::move(nodes));
  weft::xdna::set_os_for_testing(&FakeXdna::get().table());
  auto driver = weft::xdna::make_driver();
  auto devices = driver->devices();
  if (note) *note = driver->status_note();
  return devices;
}

// One NPU shared by the checks below that need no special node (devices live
// as long as the process, as the runtime keeps them).
weft::xdna::XdnaDevice& npu() {
  static Ref<weft::Device> device = [] {
    auto d = open_npus({fake_xdna::NodeConfig{}});
    REQUIRE(d.size() == 1);
    return d.front();
  }();
  FakeXdna::get().configure({fake_xdna::NodeConfig{}});  // fresh log and injections per check
  return static_cast<weft::xdna::XdnaDevice&>(*device);
}

size_t count(const std::vector<std::string>& names, const std::string& name) {
  return size_t(std::count(names.begin(), names.end(), name));
}

weft::DispatchOp launch_of(const Ref<weft::Kernel>& kernel, std::vector<void*> buffers) {
  weft::DispatchOp op;
  op.kernel = kernel;
  op.dims.grid = dim3(1, 1, 1);
  op.dims.block = dim3(1, 1, 1);
  op.kernarg.resize(kernel->info().kernarg_size);
  // Only as many as the kernel takes: "fault" takes fewer than the buffers some
  // checks pass (reading past info().args crashed the check at random).
  REQUIRE(buffers.size() >= kernel->info().args.size());
  for (size_t i = 0; i < kernel->info().args.size(); ++i)
    std::memcpy(op.kernarg.data() + kernel->info().args[i].offset, &buffers[i], sizeof(void*));
  return op;
}

struct Loaded {
  Ref<weft::Module> module;
  Ref<weft::Kernel> add, add3, fault;
};

Loaded load(weft::Device& d, uint32_t n, uint32_t k) {
  auto image = xdna_test::test_object(n, k);
  Loaded l;
  l.module = value_of(d.load_module(image));
  l.add = value_of(l.module->kernel("add_k"));
  l.add3 = value_of(l.module->kernel("add_k3"));
  l.fault = value_of(l.module->kernel("fault"));
  return l;
}

}  // namespace

TEST_CASE("Xdna_Enumeration_NoAccelClassMeansNoNpuAndSaysWhy") {
  std::string note;
  CHECK(open_npus({}, &note).empty());
  INFO(note);
  CHECK(note.find("/sys/class/accel") != std::string::npos);
  CHECK(note.find("amdxdna") != std::string::npos);
}

TEST_CASE("Xdna_Enumeration_UnboundOrUnreadableNodesAreExplained") {
  std::string note;
  fake_xdna::NodeConfig unbound;
  unbound.bound = false;
  CHECK(open_npus({unbound}, &note).empty());
  CHECK(note.find("bound to amdxdna") != std::string::npos);
  fake_xdna::NodeConfig locked;
  locked.readable = false;
  CHECK(open_npus({locked}, &note).empty());
  INFO(note);
  CHECK(note.find("/dev/accel/accel0") != std::string::npos);
  CHECK(note.find("Permission denied") != std::string::npos);
  require_no_violations();
}

TEST_CASE("Xdna_Device_PropertiesComeFromSysfsAndGetInfo") {
  fake_xdna::NodeConfig strix;
  strix.device_id = 0x17f0;
  strix.revision = 0x10;
  strix.bdf = "0000:c6:00.1";
  strix.vbnv = "RyzenAI-npu4";
  strix.columns = 8;
  auto devices = open_npus({fake_xdna::NodeConfig{}, strix});
  REQUIRE(devices.size() == 2);
  hipDeviceProp_tR0600 p;
  devices[0]->properties(p);
  CHECK(devices[0]->kind() == weft::AgentKind::kNpu);
  CHECK(devices[0]->target_id() == "aie2");
  CHECK(std::string(p.gcnArchName) == "aie2");
  CHECK(std::string(p.name) == "AMD Ryzen AI NPU1");
  CHECK(p.multiProcessorCount == 4);  // AIE columns
  CHECK(p.clockRate == 1028 * 1000);
  CHECK(p.pciBusID == 0xc5);
  CHECK(p.maxThreadsPerBlock == 1);
  devices[1]->properties(p);
  CHECK(devices[1]->target_id() == "aie2p");
  CHECK(p.multiProcessorCount == 8);
  CHECK(std::string(p.name).find("NPU4") != std::string::npos);
  // Every node: opened read-write, then AIE metadata asked for.
  auto names = FakeXdna::get().call_names();
  CHECK(count(names, "open /dev/accel/accel0") == 1);
  CHECK(count(names, "open /dev/accel/accel1") == 1);
  CHECK(count(names, "GET_INFO") >= 2);
  require_no_violations();
}

TEST_CASE("Xdna_Memory_AllocationsAreMappedShmemBos") {
  auto& d = npu();
  size_t before = FakeXdna::get().live_bos();
  void* p = value_of(d.allocate(weft::MemoryKind::kDevice, 10000, 0));
  auto calls = FakeXdna::get().calls();
  REQUIRE(calls.size() == 3);
  CHECK(calls[0].name == "CREATE_BO");
  u::CreateBo create;
  std::memcpy(&create, calls[0].arg.data(), sizeof(create));
  CHECK(create.type == u::kBoShmem);
  CHECK(create.size == 10000);
  CHECK(create.flags == 0);
  CHECK(calls[1].name == "GET_BO_INFO");
  CHECK(calls[2].name == "mmap");
  auto found = d.find_allocation(static_cast<char*>(p) + 123);
  REQUIRE(found);
  CHECK(found->second == 123);
  CHECK(FakeXdna::get().bo_type(found->first.handle) == u::kBoShmem);
  CHECK_FALSE(d.find_allocation(static_cast<char*>(p) + 10000));
  static_cast<char*>(p)[9999] = 7;  // host-visible
  XDNA_OK(d.deallocate(p, 10000, weft::MemoryKind::kDevice));
  CHECK(FakeXdna::get().live_bos() == before);
  auto names = FakeXdna::get().call_names();
  CHECK(names[names.size() - 2] == "munmap");
  CHECK(names.back() == "GEM_CLOSE");
  // Too large: refused before any ioctl.
  auto huge = d.allocate(weft::MemoryKind::kDevice, SIZE_MAX, 0);
  CHECK(huge.status().code() == hipErrorOutOfMemory);
  require_no_violations();
}

TEST_CASE("Xdna_Module_LoadCreatesHeapContextCusAndInstructionBos") {
  auto& d = npu();
  size_t contexts = FakeXdna::get().live_contexts(), bos = FakeXdna::get().live_bos();
  {
    Loaded l = load(d, 16, 5);
    auto calls = FakeXdna::get().calls();
    std::vector<std::string> names;
    for (auto& c : calls) names.push_back(c.name);
    // The heap exists before the context (first module of the device only).
    auto hwctx = std::find(names.begin(), names.end(), "CREATE_HWCTX");
    REQUIRE(hwctx != names.end());
    const auto& create_call = calls[size_t(hwctx - names.begin())];
    u::CreateHwctx create;
    std::memcpy(&create, create_call.arg.data(), sizeof(create));
    CHECK(create.num_tiles == 1 * 4);  // column width x core rows
    CHECK(create.max_opc == 2048);
    CHECK(create.qos_p != 0);
    CHECK(create.umq_bo == 0);
    auto config = std::find(hwctx, names.end(), "CONFIG_HWCTX");
    REQUIRE(config != names.end());
    // One CU per kernel, all on the one PDI, function 1.
    auto cus = FakeXdna::get().last_cus();
    REQUIRE(cus.size() == 3);
    for (auto& cu : cus) {
      CHECK(cu.first == cus[0].first);
      CHECK(cu.second == 1);
      CHECK(FakeXdna::get().bo_type(cu.first) == u::kBoDev);
    }
    CHECK(count(names, "SYNC_BO") == 4);  // the PDI and three instruction streams
    auto kernel_names = value_of(l.module->kernel_names());
    CHECK(kernel_names == std::vector<std::string>{"add_k", "add_k3", "fault"});
    CHECK(l.add->info().args.size() == 2);
    CHECK(l.add->info().args[1].offset == 8);
    CHECK(l.module->kernel("nope").status().code() == hipErrorNotFound);
    CHECK(l.module->global("g").status().code() == hipErrorNotFound);
    CHECK(FakeXdna::get().live_contexts() == contexts + 1);
  }
  // Unloaded: syncobj, context, then the BOs (the heap stays for the device).
  CHECK(FakeXdna::get().live_contexts() == contexts);
  auto names = FakeXdna::get().call_names();
  auto syncobj = std::find(names.begin(), names.end(), "SYNCOBJ_DESTROY");
  auto destroy = std::find(names.begin(), names.end(), "DESTROY_HWCTX");
  REQUIRE(syncobj != names.end());
  REQUIRE(destroy != names.end());
  CHECK(syncobj < destroy);
  CHECK(FakeXdna::get().live_bos() <= bos + 1);  // + the heap, when this check made it
  require_no_violations();
}

TEST_CASE("Xdna_Launch_StartCuPacketWordByWord") {
  auto& d = npu();
  Loaded l = load(d, 64, 1000);
  constexpr size_t kBytes = 64 * 4;
  auto* in = static_cast<uint32_t*>(value_of(d.allocate(weft::MemoryKind::kDevice, kBytes, 0)));
  auto* out =
      static_cast<uint32_t*>(value_of(d.allocate(weft::MemoryKind::kDevice, 2 * kBytes, 0)));
  for (uint32_t i = 0; i < 64; ++i) in[i] = i * 3;
  std::memset(out, 0, 2 * kBytes);
  auto q = value_of(d.create_queue({}));
  FakeXdna::get().configure({fake_xdna::NodeConfig{}});
  // Buffer 1 is an interior pointer; buffer 2 repeats buffer 0's BO.
  XDNA_OK(q->submit(launch_of(l.add3, {in, out + 64, in + 4})));
  XDNA_OK(q->synchronize());
  for (uint32_t i = 0; i < 64; ++i) REQUIRE(out[64 + i] == i * 3 + 1000);
  CHECK(out[0] == 0);

  auto packet = FakeXdna::get().last_packet();
  const auto* kernel = static_cast<weft::xdna::XdnaKernel*>(l.add3.get());
  REQUIRE(packet.size() == 1 + 1 + (0x14 + 3 * 8) / 4);
  // Header: state NEW, no extra masks, count = mask + register map, START_CU, type ERT_CU.
  CHECK(packet[0] == (1u | (uint32_t(packet.size() - 1) << 12) | (0u << 23) | (3u << 28)));
  CHECK(u::ert_count(packet[0]) == 1 + 11);  // the mask and 44 register-map bytes
  CHECK(packet[1] == 1u << 1);               // add_k3 is the module's second CU
  auto u64 = [&](size_t word) {
    return uint64_t(packet[word]) | (uint64_t(packet[word + 1]) << 32);
  };
  CHECK(u64(2) == 3);                               // opcode (regmap 0x00)
  CHECK(u64(4) == kernel->instructions.xdna_addr);  // instr (0x08)
  CHECK(packet[6] == 3);                            // ninstr: 3 words (0x10)
  auto in_bo = d.find_allocation(in)->first, out_bo = d.find_allocation(out)->first;
  CHECK(u64(7) == in_bo.xdna_addr);            // bo0 (0x14)
  CHECK(u64(9) == out_bo.xdna_addr + kBytes);  // bo1 (0x1c): interior
  CHECK(u64(11) == in_bo.xdna_addr + 16);      // bo2 (0x24)
  // Argument handles: the instruction BO, then each buffer's BO once, in order.
  auto args = FakeXdna::get().last_exec_args();
  CHECK(args == std::vector<uint32_t>{kernel->instructions.handle, in_bo.handle, out_bo.handle});
  // Order: buffers synced to the device, EXEC_CMD, the timeline wait, synced back.
  auto names = FakeXdna::get().call_names();
  std::vector<std::string> expected{"SYNC_BO", "SYNC_BO", "EXEC_CMD", "SYNCOBJ_TIMELINE_WAIT",
                                    "SYNC_BO", "SYNC_BO"};
  CHECK(names == expected);
  auto calls = FakeXdna::get().calls();
  u::SyncBo first, last;
  std::memcpy(&first, calls[0].arg.data(), sizeof(first));
  std::memcpy(&last, calls[5].arg.data(), sizeof(last));
  CHECK(first.direction == u::kSyncToDevice);
  CHECK(last.direction == u::kSyncFromDevice);
  u::SyncobjTimelineWait wait;
  std::memcpy(&wait, calls[3].arg.data(), sizeof(wait));
  CHECK(wait.count_handles == 1);
  CHECK(wait.flags == (u::kSyncobjWaitAll | u::kSyncobjWaitForSubmit));
  require_no_violations();
  XDNA_OK(d.deallocate(in, kBytes, weft::MemoryKind::kDevice));
  XDNA_OK(d.deallocate(out, 2 * kBytes, weft::MemoryKind::kDevice));
}

TEST_CASE("Xdna_Launch_OpsRunInOrderWithEventsAcrossQueues") {
  auto& d = npu();
  Loaded l = load(d, 32, 7);
  constexpr size_t kBytes = 32 * 4;
  auto* a = static_cast<uint32_t*>(value_of(d.allocate(weft::MemoryKind::kDevice, kBytes, 0)));
  auto* b = static_cast<uint32_t*>(value_of(d.allocate(weft::MemoryKind::kDevice, kBytes, 0)));
  std::vector<uint32_t> host(32), result(32);
  for (uint32_t i = 0; i < 32; ++i) host[i] = 100 + i;
  auto q1 = value_of(d.create_queue({}));
  auto q2 = value_of(d.create_queue({}));
  auto done = value_of(d.create_event({}));
  weft::CopyOp up{a, host.data(), kBytes, 1, kBytes, kBytes, weft::CopyDirection::kHostToDevice};
  XDNA_OK(q1->submit(up));
  XDNA_OK(q1->submit(launch_of(l.add, {a, b})));  // b = a + 7
  XDNA_OK(q1->submit(weft::EventRecordOp{done}));
  XDNA_OK(q2->submit(weft::EventWaitOp{done}));
  XDNA_OK(q2->submit(launch_of(l.add, {b, a})));  // a = b + 7
  weft::CopyOp down{
      result.data(), a, kBytes, 1, kBytes, kBytes, weft::CopyDirection::kDeviceToHost};
  XDNA_OK(q2->submit(down));
  XDNA_OK(q2->synchronize());
  XDNA_OK(done->synchronize());
  CHECK(done->is_complete());
  for (uint32_t i = 0; i < 32; ++i) REQUIRE(result[i] == 100 + i + 14);
  require_no_violations();
  XDNA_OK(d.deallocate(a, kBytes, weft::MemoryKind::kDevice));
  XDNA_OK(d.deallocate(b, kBytes, weft::MemoryKind::kDevice));
}

TEST_CASE("Xdna_Launch_BadArgumentsFailAtSubmit") {
  auto& d = npu();
  Loaded l = load(d, 4, 1);
  auto q = value_of(d.create_queue({}));
  std::vector<uint32_t> not_npu(16);
  auto* ok = value_of(d.allocate(weft::MemoryKind::kDevice, 64, 0));
  size_t calls = FakeXdna::get().calls().size();
  weft::Status s = q->submit(launch_of(l.add, {not_npu.data(), ok}));
  CHECK(s.code() == hipErrorInvalidValue);
  CHECK(s.message().find("argument 0") != std::string::npos);
  auto short_args = launch_of(l.add, {ok, ok});
  short_args.kernarg.resize(8);
  CHECK(q->submit(short_args).code() == hipErrorInvalidValue);
  weft::DispatchOp no_kernel;
  CHECK(q->submit(no_kernel).code() == hipErrorInvalidDeviceFunction);
  weftHostKernel host{};
  host.abiVersion = WEFT_KERNEL_ABI_VERSION;
  host.name = "cpu_only";
  weft::DispatchOp cpu;
  cpu.host_kernel = weft::make_ref<weft::HostKernel>(host);
  CHECK(q->submit(cpu).code() == hipErrorNoBinaryForGpu);
  XDNA_OK(q->synchronize());
  CHECK(FakeXdna::get().calls().size() == calls);  // nothing reached the kernel
  XDNA_OK(d.deallocate(ok, 64, weft::MemoryKind::kDevice));
  require_no_violations();
}

TEST_CASE("Xdna_Module_MalformedOrForeignImagesAreRefused") {
  auto& d = npu();
  auto image = xdna_test::test_object(4, 1);
  auto truncated = std::vector<std::byte>(image.begin(), image.begin() + 100);
  CHECK(d.load_module(truncated).status().code() == hipErrorInvalidImage);
  auto bad = image;
  bad[8] = std::byte{9};  // version
  CHECK(d.load_module(bad).status().code() == hipErrorInvalidImage);
  CHECK(d.load_module({}).status().code() == hipErrorInvalidImage);
  auto other = xdna_test::test_object(4, 1, "aie2p");
  CHECK(d.load_module(other).status().code() == hipErrorNoBinaryForGpu);
  auto wide = xdna_test::test_object(4, 1, "aie2", 8);
  auto refused = d.load_module(wide);
  CHECK(refused.status().code() == hipErrorNoBinaryForGpu);
  CHECK(refused.status().message().find("8 columns") != std::string::npos);
  CHECK(FakeXdna::get().live_contexts() == 0);
  require_no_violations();
}

// ---------------------------------------------------------------- injected errors

TEST_CASE("Xdna_Errors_ColumnsTakenIsOutOfResources") {
  auto& d = npu();
  FakeXdna::get().inject().busy = true;
  auto image = xdna_test::test_object(4, 1);
  auto r = d.load_module(image);
  INFO(r.status().message());
  CHECK(r.status().code() == hipErrorLaunchOutOfResources);
  CHECK(r.status().message().find("CREATE_HWCTX") != std::string::npos);
  CHECK(r.status().message().find("columns") != std::string::npos);
  // Columns really run out too: four one-column contexts fill this NPU.
  FakeXdna::get().inject().busy = false;
  std::vector<Ref<weft::Module>> held;
  for (int i = 0; i < 4; ++i) held.push_back(value_of(d.load_module(image)));
  CHECK(d.load_module(image).status().code() == hipErrorLaunchOutOfResources);
  held.clear();
  CHECK(d.load_module(image).ok());
  require_no_violations();
}

namespace {

// Launches `kernel` on a fresh queue; returns the first synchronize() result,
// after checking that it sticks and that nothing hangs.
weft::Status failing_launch(weft::xdna::XdnaDevice& d, const Ref<weft::Kernel>& kernel) {
  auto* a = value_of(d.allocate(weft::MemoryKind::kDevice, 64, 0));
  auto* b = value_of(d.allocate(weft::MemoryKind::kDevice, 64, 0));
  auto q = value_of(d.create_queue({}));
  auto event = value_of(d.create_event({}));
  XDNA_OK(q->submit(launch_of(kernel, {a, b})));
  XDNA_OK(q->submit(weft::EventRecordOp{event}));
  bool ran = false;
  XDNA_OK(q->submit(weft::HostFuncOp{[&ran] { ran = true; }}));
  weft::Status first = q->synchronize();
  CHECK(q->synchronize().code() == first.code());
  CHECK(event->is_complete());  // waiters are released, not left hanging
  CHECK(event->synchronize().code() == first.code());
  CHECK(ran);
  CHECK(q->is_idle());
  (void)d.deallocate(a, 64, weft::MemoryKind::kDevice);
  (void)d.deallocate(b, 64, weft::MemoryKind::kDevice);
  return first;
}

}  // namespace

TEST_CASE("Xdna_Errors_WaitTimeoutIsLaunchTimeOut") {
  auto& d = npu();
  Loaded l = load(d, 4, 1);
  FakeXdna::get().inject().wait_times_out = true;
  weft::Status s = failing_launch(d, l.add);
  INFO(s.message());
  CHECK(s.code() == hipErrorLaunchTimeOut);
  CHECK(s.message().find("add_k") != std::string::npos);
  CHECK(s.message().find("did not finish") != std::string::npos);
  require_no_violations();
}

TEST_CASE("Xdna_Errors_CommandStateOtherThanCompletedIsLaunchFailure") {
  auto& d = npu();
  Loaded l = load(d, 4, 1);
  weft::Status s = failing_launch(d, l.fault);  // the "firmware" ends it in ERROR
  INFO(s.message());
  CHECK(s.code() == hipErrorLaunchFailure);
  CHECK(s.message().find("state ERROR (5)") != std::string::npos);
  FakeXdna::get().inject().final_state = u::kErtAbort;
  s = failing_launch(d, l.add);
  CHECK(s.code() == hipErrorLaunchFailure);
  CHECK(s.message().find("ABORT") != std::string::npos);
  FakeXdna::get().inject().final_state = u::kErtTimeout;
  s = failing_launch(d, l.add);
  CHECK(s.code() == hipErrorLaunchTimeOut);
  require_no_violations();
}

TEST_CASE("Xdna_Errors_DeviceLostFailsEveryLaterCall") {
  auto devices = open_npus({fake_xdna::NodeConfig{}});
  REQUIRE(devices.size() == 1);
  auto& d = static_cast<weft::xdna::XdnaDevice&>(*devices[0]);
  Loaded l = load(d, 4, 1);
  auto* a = value_of(d.allocate(weft::MemoryKind::kDevice, 64, 0));
  auto q = value_of(d.create_queue({}));
  FakeXdna::get().inject().device_lost = true;
  XDNA_OK(q->submit(launch_of(l.add, {a, a})));
  weft::Status s = q->synchronize();
  INFO(s.message());
  CHECK(s.code() == hipErrorLaunchFailure);
  CHECK(s.message().find("lost") != std::string::npos);
  auto more = d.allocate(weft::MemoryKind::kDevice, 64, 0);
  CHECK(more.status().code() == hipErrorNoDevice);
  auto image = xdna_test::test_object(4, 1);
  CHECK(d.load_module(image).status().code() == hipErrorNoDevice);
  FakeXdna::get().inject().device_lost = false;
  (void)d.deallocate(a, 64, weft::MemoryKind::kDevice);
}
