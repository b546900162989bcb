// SPDX-License-Identifier: MIT
// The AMD GPU driver against the HSA test double (fake_hsa.hpp): start-up and
// its failure notes, agent properties, memory-pool choice, the exact bytes of
// the AQL packets it writes (dispatch and barrier-AND, header bits, hidden
// kernel arguments in the code-object v5 layout), the ring protocol (write
// index, header last, doorbell with the packet's index, wrap-around), queue
// mapping, cross-queue waits, copies, fills, host functions, events and timing,
// and GPU faults. Runs everywhere; no AMD GPU is involved. The layouts of real
// hipcc-built code objects are checked in kernarg_layout_test.cpp.
#include <hsa/amd_hsa_queue.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <set>
#include <thread>
#include <weft/driver/device.hpp>

#include "aql.hpp"
#include "device.hpp"
#include "driver_test.hpp"
#include "fake_hsa.hpp"
#include "hip_test.hpp"
#include "module.hpp"
#include "queue.hpp"

namespace weft::hsa {
std::unique_ptr<Driver> make_driver();
}

using fake_hsa::FakeHsa;
using fake_hsa::state;
using weft::Ref;

namespace {

using hip_test::value_of;

std::vector<Ref<weft::Device>> discover() {
  auto driver = weft::hsa::make_driver();
  return driver->devices();
}

weft::hsa::HsaDevice& hsa(const Ref<weft::Device>& d) {
  return static_cast<weft::hsa::HsaDevice&>(*d);
}

template <typename T>
T read_at(const std::byte* p, size_t offset) {
  T v;
  std::memcpy(&v, p + offset, sizeof(T));
  return v;
}

// A kernel as the code-object v5 metadata of `k(float*, const float*, float, int)`
// describes it: 24 explicit bytes, then the hidden block (hip-abi-facts.md §4).
constexpr uint32_t kExplicit = 24;
Ref<weft::Kernel> v5_kernel(weft::hsa::HsaDevice& device, const std::string& name) {
  using weft::hsa::aql::HiddenArg;
  using K = weft::hsa::aql::HiddenKind;
  weft::KernelInfo info;
  info.name = name;
  info.args = {{0, 8}, {8, 8}, {16, 4}, {20, 4}};
  info.kernarg_size = kExplicit + 256;
  info.static_shared_bytes = 512;
  info.private_bytes = 16;
  std::vector<HiddenArg> hidden = {
      {K::kBlockCountX, kExplicit + 0, 4},      {K::kBlockCountY, kExplicit + 4, 4},
      {K::kBlockCountZ, kExplicit + 8, 4},      {K::kGroupSizeX, kExplicit + 12, 2},
      {K::kGroupSizeY, kExplicit + 14, 2},      {K::kGroupSizeZ, kExplicit + 16, 2},
      {K::kRemainderX, kExplicit + 18, 2},      {K::kRemainderY, kExplicit + 20, 2},
      {K::kRemainderZ, kExplicit + 22, 2},      {K::kGlobalOffsetX, kExplicit + 40, 8},
      {K::kGlobalOffsetY, kExplicit + 48, 8},   {K::kGlobalOffsetZ, kExplicit + 56, 8},
      {K::kGridDims, kExplicit + 64, 2},        {K::kHostcallBuffer, kExplicit + 80, 8},
      {K::kDynamicLdsSize, kExplicit + 120, 4}, {K::kPrivateBase, kExplicit + 192, 4},
      {K::kSharedBase, kExplicit + 196, 4},     {K::kQueuePtr, kExplicit + 200, 8},
  };
  return Ref<weft::Kernel>(
      weft::make_ref<weft::hsa::HsaKernel>(nullptr, device, info, 0xC0DE00ull, hidden, true));
}

weft::DispatchOp dispatch(Ref<weft::Kernel> k, dim3 grid, dim3 block, uint32_t lds,
                          std::byte fill = std::byte{0xAA}) {
  weft::DispatchOp op;
  op.kernel = k;
  op.dims.grid = grid;
  op.dims.block = block;
  op.dims.dynamic_shared_bytes = lds;
  op.kernarg.assign(k->info().kernarg_size, fill);  // hidden bytes must be overwritten
  for (uint32_t i = 0; i < kExplicit; ++i) op.kernarg[i] = std::byte(i + 1);
  return op;
}

std::vector<fake_hsa::Packet> packets_of_type(unsigned type) {
  std::vector<fake_hsa::Packet> out;
  for (const auto& p : state().packets)
    if ((read_at<uint16_t>(p.bytes.data(), 0) & 0xFF) == type) out.push_back(p);
  return out;
}

using hip_test::ManualEvent;

}  // namespace

// ------------------------------------------------------------ start-up

TEST_CASE("Hsa_Fake_NoLibrary_ZeroAgentsWithReason") {
  weft::hsa::set_api_for_testing(nullptr);
  auto driver = weft::hsa::make_driver();
  CHECK(driver->devices().empty());
  CHECK(driver->status_note().find("libhsa-runtime64 absent") != std::string::npos);
  weft::hsa::reset_api_for_testing();
}

TEST_CASE("Hsa_Fake_InitFails_ZeroAgentsWithReason") {
  FakeHsa fake;
  state().init_result = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  auto driver = weft::hsa::make_driver();
  CHECK(driver->devices().empty());
  CHECK(driver->status_note().find("hsa_init failed: HSA_STATUS_ERROR_OUT_OF_RESOURCES") !=
        std::string::npos);
  CHECK(driver->status_note().find("/dev/kfd") != std::string::npos);
}

TEST_CASE("Hsa_Fake_NoGpuAgents_ZeroAgentsWithReason") {
  FakeHsa fake;
  state().gpus.clear();
  auto driver = weft::hsa::make_driver();
  CHECK(driver->devices().empty());
  CHECK(driver->status_note().find("no GPU agent") != std::string::npos);
}

TEST_CASE("Hsa_Fake_StartUp_CreatesNothingOnTheGpu") {
  FakeHsa fake;
  auto devices = discover();
  REQUIRE(devices.size() == 1);
  // Discovery reads facts only: no queue, no signal, no memory until first use.
  CHECK(state().queues.empty());
  CHECK(state().signals_created == 0);
  CHECK(state().allocations.empty());
}

// ------------------------------------------------------------ agents

TEST_CASE("Hsa_Fake_Properties_FromRocr") {
  FakeHsa fake;
  fake_hsa::GpuConfig navi;
  navi.isa = "amdgcn-amd-amdhsa--gfx1100";
  navi.product = "Radeon RX 7900 XTX";
  navi.cus = 96;
  navi.wave = 32;
  navi.coarse_bytes = 24ull << 30;
  fake_hsa::GpuConfig mi;
  mi.isa = "amdgcn-amd-amdhsa--gfx90a:xnack-:sramecc+";  // canonical order is sramecc first
  state().gpus = {mi, navi};
  auto devices = discover();
  REQUIRE(devices.size() == 2);

  CHECK(devices[0]->target_id() == "gfx90a:sramecc+:xnack-");
  CHECK(devices[1]->target_id() == "gfx1100");
  hipDeviceProp_tR0600 p{};
  devices[0]->properties(p);
  CHECK(std::string(p.name) == "AMD Instinct MI210");
  CHECK(std::string(p.gcnArchName) == "gfx90a:sramecc+:xnack-");
  CHECK(p.major == 9);
  CHECK(p.minor == 0);
  CHECK(p.multiProcessorCount == 104);
  CHECK(p.warpSize == 64);
  CHECK(p.maxThreadsPerBlock == 1024);
  CHECK(p.maxThreadsDim[2] == 1024);
  CHECK(p.maxGridSize[0] == 0x7FFFFFFF);
  CHECK(p.clockRate == 1700000);
  CHECK(p.memoryClockRate == 1600000);
  CHECK(p.memoryBusWidth == 4096);
  CHECK(p.l2CacheSize == (8 << 20));
  CHECK(p.maxThreadsPerMultiProcessor == 32 * 64);
  CHECK(p.sharedMemPerBlock == 65536);
  CHECK(p.totalGlobalMem == (64ull << 30));
  CHECK(p.pciBusID == 0x23);
  CHECK(p.pciDeviceID == 2);
  CHECK(p.pciDomainID == 1);
  CHECK(std::memcmp(p.uuid.bytes, "0123456789abcdef", 16) == 0);

  hipDeviceProp_tR0600 q{};
  devices[1]->properties(q);
  CHECK(q.major == 11);
  CHECK(q.minor == 0);
  CHECK(q.warpSize == 32);
  CHECK(q.totalGlobalMem == (24ull << 30));
  CHECK(value_of(devices[1]->attribute(hipDeviceAttributePhysicalMultiProcessorCount)) == 96);
  CHECK(devices[1]->memory_info().total_bytes == (24ull << 30));
}

TEST_CASE("Hsa_Fake_TargetFromIsaName") {
  using weft::hsa::target_from_isa_name;
  CHECK(target_from_isa_name("amdgcn-amd-amdhsa--gfx1030") == "gfx1030");
  CHECK(target_from_isa_name("amdgcn-amd-amdhsa--gfx90a:xnack+") == "gfx90a:xnack+");
  CHECK(target_from_isa_name("amdgcn-amd-amdhsa--gfx942:xnack-:sramecc-") ==
        "gfx942:sramecc-:xnack-");
  CHECK(target_from_isa_name("x86_64-unknown-linux") == "");
}

// ------------------------------------------------------------ memory

TEST_CASE("Hsa_Fake_Memory_PoolChoice") {
  FakeHsa fake;
  fake_hsa::GpuConfig second;
  state().gpus = {fake_hsa::GpuConfig{}, second};
  auto devices = discover();
  REQUIRE(devices.size() == 2);
  auto& d = *devices[0];

  void* coarse = value_of(d.allocate(weft::MemoryKind::kDevice, 1000, 0));
  CHECK(state().allocations.at(coarse).pool == fake_hsa::coarse_pool(0));
  CHECK(d.memory_info().free_bytes == (64ull << 30) - 1000);
  void* fine =
      value_of(d.allocate(weft::MemoryKind::kDevice, 64, 1 /* hipDeviceMallocFinegrained */));
  CHECK(state().allocations.at(fine).pool == fake_hsa::fine_pool(0));
  void* host = value_of(d.allocate(weft::MemoryKind::kHostPinned, 4096, 0));
  CHECK(state().allocations.at(host).pool == fake_hsa::kHostFinePool);
  // Pinned host memory is portable: every GPU agent may reach it.
  CHECK(state().allocations.at(host).allowed ==
        std::vector<uint64_t>{fake_hsa::gpu_agent(0), fake_hsa::gpu_agent(1)});
  void* managed = value_of(d.allocate(weft::MemoryKind::kManaged, 256, 0));
  CHECK(state().allocations.at(managed).pool == fake_hsa::kHostFinePool);

  alignas(64) static char user[8192];
  void* agent_view = value_of(d.register_host(user, sizeof(user), 0));
  CHECK(agent_view == user);
  CHECK(state().locked.count(user) == 1);
  CHECK(d.unregister_host(user).ok());
  CHECK(state().locked.empty());

  CHECK(d.deallocate(coarse, 1000, weft::MemoryKind::kDevice).ok());
  CHECK(d.memory_info().free_bytes ==
        (64ull << 30) - 64);  // fine-grained device memory is VRAM too
  CHECK(d.deallocate(fine, 64, weft::MemoryKind::kDevice).ok());
  CHECK(d.deallocate(host, 4096, weft::MemoryKind::kHostPinned).ok());
  CHECK(d.deallocate(managed, 256, weft::MemoryKind::kManaged).ok());
  CHECK(state().allocations.empty());
}

TEST_CASE("Hsa_Fake_Peer_GrantsExistingAndLaterAllocations") {
  FakeHsa fake;
  state().gpus = {fake_hsa::GpuConfig{}, fake_hsa::GpuConfig{}};
  auto devices = discover();
  REQUIRE(devices.size() == 2);
  void* before = value_of(devices[1]->allocate(weft::MemoryKind::kDevice, 128, 0));
  CHECK(value_of(devices[0]->can_access_peer(*devices[1])));
  CHECK_FALSE(value_of(devices[0]->can_access_peer(*devices[0])));
  REQUIRE(devices[0]->enable_peer_access(*devices[1]).ok());
  CHECK(devices[0]->enable_peer_access(*devices[1]).code() == hipErrorPeerAccessAlreadyEnabled);
  void* after = value_of(devices[1]->allocate(weft::MemoryKind::kDevice, 128, 0));
  CHECK(state().allocations.at(before).allowed == std::vector<uint64_t>{fake_hsa::gpu_agent(0)});
  CHECK(state().allocations.at(after).allowed == std::vector<uint64_t>{fake_hsa::gpu_agent(0)});
  CHECK(devices[0]->disable_peer_access(*devices[1]).ok());
  CHECK(devices[0]->disable_peer_access(*devices[1]).code() == hipErrorPeerAccessNotEnabled);
}

TEST_CASE("Hsa_Fake_Ipc_RoundTrip") {
  FakeHsa fake;
  auto devices = discover();
  void* p = value_of(devices[0]->allocate(weft::MemoryKind::kDevice, 4096, 0));
  auto handle = value_of(devices[0]->ipc_export_memory(p));
  auto mapping = value_of(devices[0]->ipc_open_memory(handle, 0));
  CHECK(mapping.ptr == p);
  CHECK(mapping.bytes == 4096);
  CHECK(devices[0]->ipc_close_memory(mapping.ptr).ok());
  CHECK(devices[0]->ipc_export_memory(static_cast<char*>(p) + 16).status().code() ==
        hipErrorInvalidValue);
}

// ------------------------------------------------------------ packet encoding

TEST_CASE("Hsa_Aql_HeaderBits") {
  using namespace weft::hsa::aql;
  // type | barrier << 8 | acquire scope << 9 | release scope << 11 (HSA 1.2, hip-abi-facts.md §5)
  CHECK(kDispatchHeader == 0x1502);
  CHECK(kBarrierAndHeader == 0x1503);
  CHECK(header(HSA_PACKET_TYPE_KERNEL_DISPATCH, false, HSA_FENCE_SCOPE_SYSTEM,
               HSA_FENCE_SCOPE_SYSTEM) == 0x1402);
  CHECK(header(HSA_PACKET_TYPE_BARRIER_OR, false, HSA_FENCE_SCOPE_AGENT, HSA_FENCE_SCOPE_NONE) ==
        0x0205);
  CHECK(header_word(0x1502, 3) == 0x00031502u);
}

TEST_CASE("Hsa_Aql_DispatchPacket_ExactBytes") {
  using namespace weft::hsa::aql;
  alignas(16) static std::byte kernarg[64];
  DispatchInput in;
  in.dims.grid = dim3(7, 3, 2);
  in.dims.block = dim3(256, 2, 1);
  in.dims.dynamic_shared_bytes = 1000;
  in.static_group_bytes = 24;
  in.private_bytes = 80;
  in.kernel_object = 0x1122334455667788ull;
  in.kernarg = kernarg;
  in.completion.handle = 0xAABBCCDDEEFF0011ull;
  auto p = value_of(dispatch_packet(in));
  static_assert(sizeof(p) == 64);
  std::byte b[64];
  std::memcpy(b, &p, 64);
  CHECK(read_at<uint16_t>(b, 0) == HSA_PACKET_TYPE_INVALID);  // header is published last
  CHECK(read_at<uint16_t>(b, 2) == 3);                        // setup: dimensions
  CHECK(read_at<uint16_t>(b, 4) == 256);
  CHECK(read_at<uint16_t>(b, 6) == 2);
  CHECK(read_at<uint16_t>(b, 8) == 1);
  CHECK(read_at<uint16_t>(b, 10) == 0);
  CHECK(read_at<uint32_t>(b, 12) == 7 * 256);  // grid in work-items
  CHECK(read_at<uint32_t>(b, 16) == 3 * 2);
  CHECK(read_at<uint32_t>(b, 20) == 2);
  CHECK(read_at<uint32_t>(b, 24) == 80);
  CHECK(read_at<uint32_t>(b, 28) == 24 + 1000);
  CHECK(read_at<uint64_t>(b, 32) == 0x1122334455667788ull);
  CHECK(read_at<uint64_t>(b, 40) == reinterpret_cast<uint64_t>(kernarg));
  CHECK(read_at<uint64_t>(b, 48) == 0);
  CHECK(read_at<uint64_t>(b, 56) == 0xAABBCCDDEEFF0011ull);

  in.dims.grid = dim3(0x10000, 1, 1);
  in.dims.block = dim3(0x10000 / 2, 1, 1);  // 2^31 work-items: fits
  CHECK(dispatch_packet(in).ok());
  in.dims.grid = dim3(0x20000, 1, 1);
  in.dims.block = dim3(0x8000, 1, 1);  // 2^32 work-items: does not
  CHECK(dispatch_packet(in).status().code() == hipErrorInvalidConfiguration);
}

TEST_CASE("Hsa_Aql_BarrierAndPacket_ExactBytes") {
  using namespace weft::hsa::aql;
  hsa_signal_t deps[3] = {{0x10}, {0x20}, {0x30}};
  auto p = barrier_and_packet(deps, hsa_signal_t{0x99});
  std::byte b[64];
  std::memcpy(b, &p, 64);
  CHECK(read_at<uint16_t>(b, 0) == HSA_PACKET_TYPE_INVALID);
  CHECK(read_at<uint16_t>(b, 2) == 0);
  CHECK(read_at<uint32_t>(b, 4) == 0);
  CHECK(read_at<uint64_t>(b, 8) == 0x10);
  CHECK(read_at<uint64_t>(b, 16) == 0x20);
  CHECK(read_at<uint64_t>(b, 24) == 0x30);
  CHECK(read_at<uint64_t>(b, 32) == 0);
  CHECK(read_at<uint64_t>(b, 40) == 0);
  CHECK(read_at<uint64_t>(b, 48) == 0);
  CHECK(read_at<uint64_t>(b, 56) == 0x99);
}

TEST_CASE("Hsa_Fake_Dispatch_PacketAndHiddenArgumentsV5") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto kernel = v5_kernel(d, "scale");
  REQUIRE(queue->submit(dispatch(kernel, dim3(5, 3, 2), dim3(64, 2, 1), 768)).ok());
  REQUIRE(queue->synchronize().ok());

  auto dispatches = packets_of_type(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  REQUIRE(dispatches.size() == 1);
  const std::byte* b = dispatches[0].bytes.data();
  // The header as the packet processor saw it: dispatch, barrier, system scopes.
  CHECK(read_at<uint16_t>(b, 0) == 0x1502);
  CHECK(read_at<uint16_t>(b, 2) == 3);
  CHECK(read_at<uint16_t>(b, 4) == 64);
  CHECK(read_at<uint16_t>(b, 6) == 2);
  CHECK(read_at<uint32_t>(b, 12) == 5 * 64);
  CHECK(read_at<uint32_t>(b, 16) == 3 * 2);
  CHECK(read_at<uint32_t>(b, 20) == 2);
  CHECK(read_at<uint32_t>(b, 24) == 16);
  CHECK(read_at<uint32_t>(b, 28) == 512 + 768);
  CHECK(read_at<uint64_t>(b, 32) == 0xC0DE00ull);
  uint64_t kernarg_address = read_at<uint64_t>(b, 40);
  CHECK(kernarg_address % 16 == 0);
  CHECK(read_at<uint64_t>(b, 56) != 0);  // completion signal
  // Kernarg memory comes from the kernarg pool and the GPU may read it.
  bool in_kernarg_pool = false;
  for (auto& [p, a] : state().allocations) {
    auto base = reinterpret_cast<uint64_t>(p);
    if (kernarg_address >= base && kernarg_address < base + a.size) {
      in_kernarg_pool = a.pool == fake_hsa::kKernargPool;
      CHECK(a.allowed == std::vector<uint64_t>{fake_hsa::gpu_agent(0)});
    }
  }
  CHECK(in_kernarg_pool);

  const std::vector<std::byte>& k = dispatches[0].kernarg;
  REQUIRE(k.size() >= kExplicit + 256);
  for (uint32_t i = 0; i < kExplicit; ++i)
    CHECK(k[i] == std::byte(i + 1));  // explicit args untouched
  const std::byte* h = k.data() + kExplicit;
  CHECK(read_at<uint32_t>(h, 0) == 5);  // block counts
  CHECK(read_at<uint32_t>(h, 4) == 3);
  CHECK(read_at<uint32_t>(h, 8) == 2);
  CHECK(read_at<uint16_t>(h, 12) == 64);  // group sizes
  CHECK(read_at<uint16_t>(h, 14) == 2);
  CHECK(read_at<uint16_t>(h, 16) == 1);
  CHECK(read_at<uint16_t>(h, 18) == 0);  // remainders
  CHECK(read_at<uint16_t>(h, 20) == 0);
  CHECK(read_at<uint16_t>(h, 22) == 0);
  CHECK(read_at<uint64_t>(h, 40) == 0);  // global offsets
  CHECK(read_at<uint64_t>(h, 48) == 0);
  CHECK(read_at<uint64_t>(h, 56) == 0);
  CHECK(read_at<uint16_t>(h, 64) == 3);     // grid_dims
  CHECK(read_at<uint64_t>(h, 80) == 0);     // hostcall buffer: none
  CHECK(read_at<uint32_t>(h, 120) == 768);  // dynamic LDS
  CHECK(read_at<uint32_t>(h, 192) == fake_hsa::kPrivateApertureHi);
  CHECK(read_at<uint32_t>(h, 196) == fake_hsa::kGroupApertureHi);
  CHECK(read_at<uint64_t>(h, 200) == reinterpret_cast<uint64_t>(state().queues[0].queue));
  // Bytes no metadata entry names keep what the caller packed (reserved fields).
  CHECK(h[24] == std::byte{0xAA});
}

TEST_CASE("Hsa_Fake_Dispatch_RefusesForeignKernels") {
  FakeHsa fake;
  state().gpus = {fake_hsa::GpuConfig{}, fake_hsa::GpuConfig{}};
  auto devices = discover();
  auto queue = value_of(devices[0]->create_queue({}));
  auto other = v5_kernel(hsa(devices[1]), "elsewhere");
  CHECK(queue->submit(dispatch(other, dim3(1, 1, 1), dim3(1, 1, 1), 0)).code() ==
        hipErrorInvalidDeviceFunction);
  weft::DispatchOp none;
  CHECK(queue->submit(none).code() == hipErrorInvalidDeviceFunction);
}

// ------------------------------------------------------------ ring protocol

TEST_CASE("Hsa_Fake_Ring_ReserveWriteHeaderLastDoorbellOwnIndex") {
  FakeHsa fake;
  state().manual = true;  // nothing is consumed while we look
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto kernel = v5_kernel(d, "k");
  for (int i = 0; i < 3; ++i)
    REQUIRE(queue->submit(dispatch(kernel, dim3(1, 1, 1), dim3(32, 1, 1), 0)).ok());
  const auto& ev = state().ring_events;
  REQUIRE(ev.size() == 6);
  for (uint64_t i = 0; i < 3; ++i) {
    CHECK(ev[2 * i].kind == fake_hsa::RingEvent::kReserve);
    CHECK(ev[2 * i].index == i);
    CHECK(ev[2 * i + 1].kind == fake_hsa::RingEvent::kDoorbell);
    CHECK(ev[2 * i + 1].index == i);             // the doorbell carries the packet's own index
    CHECK(ev[2 * i + 1].slot_header == 0x1502);  // and rings only after the header is published
  }
  CHECK(fake_hsa::run_gpu() == 3);
  state().manual = false;
  CHECK(queue->synchronize().ok());
}

TEST_CASE("Hsa_Fake_Ring_WrapAround") {
  FakeHsa fake;
  state().gpus[0].queue_max_packets = 8;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto kernel = v5_kernel(d, "k");
  for (uint32_t i = 0; i < 21; ++i)
    REQUIRE(queue->submit(dispatch(kernel, dim3(i + 1, 1, 1), dim3(32, 1, 1), 0)).ok());
  REQUIRE(queue->synchronize().ok());
  REQUIRE(state().queues.size() == 1);
  CHECK(state().queues[0].queue->size == 8);
  auto dispatches = packets_of_type(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  REQUIRE(dispatches.size() == 21);
  for (uint32_t i = 0; i < 21; ++i) {
    CHECK(dispatches[i].index == i);
    CHECK(read_at<uint16_t>(dispatches[i].bytes.data(), 0) == 0x1502);
    CHECK(read_at<uint32_t>(dispatches[i].bytes.data(), 12) == (i + 1) * 32);
    CHECK(read_at<uint32_t>(dispatches[i].kernarg.data(), kExplicit) == i + 1);  // its own kernargs
  }
}

// ------------------------------------------------------------ queues

TEST_CASE("Hsa_Fake_Queues_IndependentStreamsGetTheirOwnRings") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  std::vector<Ref<weft::Queue>> queues;
  for (int i = 0; i < 3; ++i) queues.push_back(value_of(d.create_queue({})));
  CHECK(state().queues.size() == 3);
  for (auto& q : state().queues) CHECK(q.profiling);
  auto high = value_of(d.create_queue(weft::QueueOptions{-1}));
  REQUIRE(state().queues.size() == 4);
  CHECK(state().queues[3].priority_calls == 1);
  // Beyond the limit, queues share the least used ring of their priority.
  for (unsigned i = 4; i < weft::hsa::HsaDevice::max_hw_queues() + 2; ++i)
    queues.push_back(value_of(d.create_queue({})));
  CHECK(state().queues.size() == weft::hsa::HsaDevice::max_hw_queues());
  // A released ring is reused before a new one is made.
  queues.clear();
  size_t rings = state().queues.size();
  auto again = value_of(d.create_queue({}));
  CHECK(state().queues.size() == rings);
}

TEST_CASE("Hsa_Fake_CrossQueueWait_BarrierAndOnTheEventSignal") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto q1 = value_of(d.create_queue({}));
  auto q2 = value_of(d.create_queue({}));
  auto event = value_of(d.create_event({}));
  auto kernel = v5_kernel(d, "k");
  auto foreign = weft::make_ref<ManualEvent>();

  // q1 is held up by another driver's event; q2 waits for q1's record.
  REQUIRE(q1->submit(weft::EventWaitOp{Ref<weft::Event>(foreign)}).ok());
  REQUIRE(q1->submit(weft::EventRecordOp{event}).ok());
  REQUIRE(q2->submit(weft::EventWaitOp{event}).ok());
  REQUIRE(q2->submit(dispatch(kernel, dim3(1, 1, 1), dim3(64, 1, 1), 0)).ok());

  auto& ev = static_cast<weft::hsa::HsaEvent&>(*event);
  hsa_signal_t recorded = ev.current()->handle();
  fake_hsa::run_gpu();
  CHECK(packets_of_type(HSA_PACKET_TYPE_KERNEL_DISPATCH).empty());
  CHECK_FALSE(q2->is_idle());
  CHECK_FALSE(event->is_complete());

  // q2's barrier-AND names the event's signal.
  bool found = false;
  for (uint64_t i = 0; i < 2; ++i) {
    auto* slot = static_cast<std::byte*>(state().queues[1].queue->base_address) + i * 64;
    if (read_at<uint16_t>(slot, 0) == 0x1503 && read_at<uint64_t>(slot, 8) == recorded.handle)
      found = true;
  }
  CHECK(found);

  foreign->complete();
  REQUIRE(q2->synchronize().ok());
  CHECK(event->is_complete());
  auto dispatches = packets_of_type(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  REQUIRE(dispatches.size() == 1);
  CHECK(dispatches[0].queue == 1);
  REQUIRE(q1->synchronize().ok());
}

TEST_CASE("Hsa_Fake_HostFunction_RunsInOrderAndGatesLaterWork") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto kernel = v5_kernel(d, "k");
  std::vector<int> order;
  REQUIRE(queue->submit(dispatch(kernel, dim3(1, 1, 1), dim3(64, 1, 1), 0)).ok());
  REQUIRE(queue
              ->submit(weft::HostFuncOp{[&] {
                order.push_back(int(packets_of_type(HSA_PACKET_TYPE_KERNEL_DISPATCH).size()));
              }})
              .ok());
  REQUIRE(queue->submit(dispatch(kernel, dim3(2, 1, 1), dim3(64, 1, 1), 0)).ok());
  REQUIRE(queue->synchronize().ok());
  // The function saw the first dispatch done and the second not yet run.
  CHECK(order == std::vector<int>{1});
  CHECK(packets_of_type(HSA_PACKET_TYPE_KERNEL_DISPATCH).size() == 2);
}

// ------------------------------------------------------------ copies and fills

TEST_CASE("Hsa_Fake_Copy_DmaChainedBySignals") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto kernel = v5_kernel(d, "k");
  auto* a = static_cast<char*>(value_of(d.allocate(weft::MemoryKind::kDevice, 256, 0)));
  auto* b = static_cast<char*>(value_of(d.allocate(weft::MemoryKind::kDevice, 256, 0)));
  auto* host = static_cast<char*>(value_of(d.allocate(weft::MemoryKind::kHostPinned, 256, 0)));
  std::memset(a, 7, 256);
  REQUIRE(queue->submit(dispatch(kernel, dim3(1, 1, 1), dim3(64, 1, 1), 0)).ok());
  weft::CopyOp d2d;
  d2d.dst = b;
  d2d.src = a;
  d2d.width = 256;
  REQUIRE(queue->submit(d2d).ok());
  weft::CopyOp d2h = d2d;
  d2h.dst = host;
  d2h.src = b;
  d2h.direction = weft::CopyDirection::kDeviceToHost;
  REQUIRE(queue->submit(d2h).ok());
  REQUIRE(queue->submit(dispatch(kernel, dim3(1, 1, 1), dim3(64, 1, 1), 0)).ok());
  REQUIRE(queue->synchronize().ok());
  CHECK(host[255] == 7);
  REQUIRE(state().copies.size() == 2);
  // Each copy waits for the op before it; the copy after a dispatch names its signal.
  auto dispatches = packets_of_type(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  REQUIRE(dispatches.size() == 2);
  REQUIRE(state().copies[0].deps.size() == 1);
  CHECK(state().copies[0].deps[0].handle == read_at<uint64_t>(dispatches[0].bytes.data(), 56));
  REQUIRE(state().copies[1].deps.size() == 1);
  CHECK(state().copies[1].deps[0].handle == state().copies[0].completion.handle);
  CHECK(state().copies[1].dst_agent.handle == fake_hsa::kCpuAgent);
  CHECK(state().copies[1].src_agent.handle == fake_hsa::gpu_agent(0));
  // The dispatch after the DMA copy waits for it through a barrier-AND packet.
  auto barriers = packets_of_type(HSA_PACKET_TYPE_BARRIER_AND);
  REQUIRE_FALSE(barriers.empty());
  CHECK(read_at<uint64_t>(barriers.back().bytes.data(), 8) == state().copies[1].completion.handle);
}

TEST_CASE("Hsa_Fake_Copy_PageableHostGoesThroughTheHostPath") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto* dev = static_cast<char*>(value_of(d.allocate(weft::MemoryKind::kDevice, 64, 0)));
  std::vector<char> pageable(64, 3);
  weft::CopyOp h2d;
  h2d.dst = dev;
  h2d.src = pageable.data();
  h2d.width = 64;
  h2d.direction = weft::CopyDirection::kHostToDevice;
  REQUIRE(queue->submit(h2d).ok());
  REQUIRE(queue->synchronize().ok());
  CHECK(state().copies.empty());
  CHECK(dev[63] == 3);
}

TEST_CASE("Hsa_Fake_Fill_PatternsAndEdges") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto* p = static_cast<uint8_t*>(value_of(d.allocate(weft::MemoryKind::kDevice, 256, 0)));
  weft::FillOp f;
  f.dst = p;
  f.value = 0x5A;
  f.element_size = 1;
  f.width_elements = 64;
  REQUIRE(queue->submit(f).ok());
  weft::FillOp odd;
  odd.dst = p + 101;
  odd.value = 0xBEEF;
  odd.element_size = 2;
  odd.width_elements = 3;
  REQUIRE(queue->submit(odd).ok());
  REQUIRE(queue->synchronize().ok());
  for (int i = 0; i < 64; ++i) CHECK(p[i] == 0x5A);
  CHECK(p[64] == 0);
  CHECK(p[101] == 0xEF);
  CHECK(p[102] == 0xBE);
  CHECK(p[106] == 0xBE);
  CHECK(p[107] == 0);
  REQUIRE_FALSE(state().fills.empty());
  CHECK(state().fills[0] == std::make_pair(static_cast<void*>(p), uint32_t(16)));
}

// ------------------------------------------------------------ events and faults

TEST_CASE("Hsa_Fake_Events_TimingFromSignalTimestamps") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto kernel = v5_kernel(d, "k");
  auto start = value_of(d.create_event({}));
  auto stop = value_of(d.create_event({}));
  CHECK(start->is_complete());
  CHECK_FALSE(start->ever_recorded());
  REQUIRE(queue->submit(weft::EventRecordOp{start}).ok());
  REQUIRE(queue->submit(dispatch(kernel, dim3(1, 1, 1), dim3(64, 1, 1), 0)).ok());
  REQUIRE(queue->submit(weft::EventRecordOp{stop}).ok());
  REQUIRE(stop->synchronize().ok());
  // The double stamps 2 ticks (1 GHz) per completed packet.
  auto ms = value_of(stop->elapsed_ms_since(*start));
  CHECK(ms == Approx(4e-6).epsilon(1e-3));
  auto untimed = value_of(d.create_event(weft::EventOptions{false, false, false}));
  REQUIRE(queue->submit(weft::EventRecordOp{untimed}).ok());
  REQUIRE(queue->synchronize().ok());
  CHECK(untimed->elapsed_ms_since(*start).status().code() == hipErrorInvalidHandle);
}

TEST_CASE("Hsa_Fake_Fault_StickyIllegalAddressNamingTheKernel") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto good = v5_kernel(d, "good_kernel");
  weft::KernelInfo info;
  info.name = "_Z9bad_writePi";
  info.kernarg_size = 8;
  auto bad = Ref<weft::Kernel>(weft::make_ref<weft::hsa::HsaKernel>(
      nullptr, d, info, 0xBAD00ull, std::vector<weft::hsa::aql::HiddenArg>{}, false));
  state().fault_object = 0xBAD00ull;
  REQUIRE(queue->submit(dispatch(good, dim3(1, 1, 1), dim3(64, 1, 1), 0)).ok());
  weft::DispatchOp op;
  op.kernel = bad;
  op.dims.grid = dim3(1, 1, 1);
  op.dims.block = dim3(1, 1, 1);
  op.kernarg.resize(8);
  REQUIRE(queue->submit(op).ok());
  weft::Status s = queue->synchronize();
  CHECK(s.code() == hipErrorIllegalAddress);
  CHECK(s.message().find("_Z9bad_writePi") != std::string::npos);
  // Sticky: later work and later waits report the same error; nothing hangs.
  CHECK(queue->submit(dispatch(good, dim3(1, 1, 1), dim3(64, 1, 1), 0)).code() ==
        hipErrorIllegalAddress);
  CHECK(queue->synchronize().code() == hipErrorIllegalAddress);
  CHECK(queue->is_idle());
}

TEST_CASE("Hsa_Fake_Fault_OtherErrorsAreLaunchFailures") {
  FakeHsa fake;
  auto devices = discover();
  auto& d = hsa(devices[0]);
  auto queue = value_of(d.create_queue({}));
  auto k = v5_kernel(d, "trap_kernel");
  state().fault_object = 0xC0DE00ull;
  state().fault_status = HSA_STATUS_ERROR_EXCEPTION;
  REQUIRE(queue->submit(dispatch(k, dim3(1, 1, 1), dim3(64, 1, 1), 0)).ok());
  weft::Status s = queue->synchronize();
  CHECK(s.code() == hipErrorLaunchFailure);
  CHECK(s.message().find("trap_kernel") != std::string::npos);
}

// ------------------------------------------------------------ the real library

TEST_CASE("Hsa_RealLibrary_SymbolTableResolvesAndStartUpIsClean") {
  weft::hsa::reset_api_for_testing();
  bool kfd = access("/dev/kfd", F_OK) == 0;
  auto driver = weft::hsa::make_driver();
  auto devices = driver->devices();  // never fails the process, whatever the machine
  INFO(driver->status_note());
  if (!kfd) {
    CHECK(devices.empty());
    CHECK(driver->status_note().find("/dev/kfd not present") != std::string::npos);
  }
  // Every symbol of the table resolves in the installed ROCr (Debian: ROCm 5.2).
  const weft::hsa::Api* api = weft::hsa::api();
  if (!api) {
    hip_test::skip("libhsa-runtime64.so.1 not installed: " + weft::hsa::load_error());
    return;
  }
  CHECK(api->hsa_amd_queue_set_priority != nullptr);
  if (!kfd) {
    hsa_status_t s = api->hsa_init();
    CHECK(s != HSA_STATUS_SUCCESS);
    CHECK(weft::hsa::status_text(*api, s).find("HSA_STATUS") != std::string::npos);
  }
}
