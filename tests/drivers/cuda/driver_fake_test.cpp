// SPDX-License-Identifier: MIT
// The NVIDIA driver's logic against a fake libcuda (fake_cuda.hpp): discovery and
// its failure notes, property mapping, the CUresult table, what each op turns into,
// and the host lane. Runs everywhere; needs no GPU.
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <weft/driver/device.hpp>

#include "device.hpp"
#include "driver_test.hpp"
#include "fake_cuda.hpp"
#include "hip_test.hpp"
#include "status.hpp"

namespace weft::cuda {
std::unique_ptr<Driver> make_driver();
}

using fake_cuda::FakeCuda;
using fake_cuda::state;

namespace {

weft::Ref<weft::Device> only_device() {
  auto driver = weft::cuda::make_driver();
  auto devices = driver->devices();
  REQUIRE(devices.size() == 1);
  return devices[0];
}

using hip_test::value_of;

// Polls (with a bound) until `done` holds; the lane works on its own thread.
template <typename F>
bool eventually(F done) {
  for (int i = 0; i < 2000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done();
}

uint32_t word_at(CUdeviceptr address) {
  return __atomic_load_n(reinterpret_cast<uint32_t*>(address), __ATOMIC_ACQUIRE);
}

using hip_test::ManualEvent;

}  // namespace

TEST_CASE("Cuda_Fake_NoLibrary_ZeroAgentsWithReason") {
  weft::cuda::set_api_for_testing(nullptr);
  auto driver = weft::cuda::make_driver();
  CHECK(driver->devices().empty());
  CHECK(driver->status_note().find("libcuda absent") != std::string::npos);
  weft::cuda::reset_api_for_testing();
}

TEST_CASE("Cuda_Fake_NoDevice_ZeroAgentsWithCudaName") {
  FakeCuda fake;
  state().init_result = CUDA_ERROR_NO_DEVICE;
  auto driver = weft::cuda::make_driver();
  CHECK(driver->devices().empty());
  CHECK(driver->status_note().find("CUDA_ERROR_NO_DEVICE") != std::string::npos);
}

TEST_CASE("Cuda_Fake_Properties_Mapped") {
  FakeCuda fake;
  auto device = only_device();
  CHECK(device->kind() == weft::AgentKind::kGpu);
  CHECK(device->target_id() == "sm_90");
  CHECK_FALSE(device->caps().runs_host_kernels);
  hipDeviceProp_tR0600 p{};
  device->properties(p);
  CHECK(std::string(p.name) == "Fake H200");
  CHECK(std::string(p.gcnArchName) == "sm_90");
  CHECK(p.warpSize == 32);
  CHECK(p.major == 9);
  CHECK(p.minor == 0);
  CHECK(p.multiProcessorCount == 132);
  CHECK(p.pciBusID == 0x19);
  CHECK(p.pciDeviceID == 3);
  CHECK(p.pciDomainID == 1);
  CHECK(p.clockRate == 1980000);
  CHECK(p.totalGlobalMem == size_t(141) << 30);
  CHECK(static_cast<unsigned char>(p.uuid.bytes[0]) == 0xab);
  auto info = device->memory_info();
  CHECK(info.free_bytes == size_t(140) << 30);
}

TEST_CASE("Cuda_Fake_ErrorTable") {
  using weft::cuda::hip_error_from_cuda;
  CHECK(hip_error_from_cuda(CUDA_SUCCESS) == hipSuccess);
  CHECK(hip_error_from_cuda(CUDA_ERROR_OUT_OF_MEMORY) == hipErrorOutOfMemory);
  CHECK(hip_error_from_cuda(CUDA_ERROR_ILLEGAL_ADDRESS) == hipErrorIllegalAddress);
  CHECK(hip_error_from_cuda(CUDA_ERROR_MISALIGNED_ADDRESS) == hipErrorLaunchFailure);
  CHECK(hip_error_from_cuda(CUDA_ERROR_LAUNCH_FAILED) == hipErrorLaunchFailure);
  CHECK(hip_error_from_cuda(CUDA_ERROR_INVALID_PTX) == hipErrorInvalidKernelFile);
  CHECK(hip_error_from_cuda(CUDA_ERROR_NO_BINARY_FOR_GPU) == hipErrorNoBinaryForGpu);
  CHECK(hip_error_from_cuda(CUDA_ERROR_NOT_READY) == hipErrorNotReady);
  CHECK(hip_error_from_cuda(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) ==
        hipErrorPeerAccessAlreadyEnabled);
  // 911/912 mean other things in HIP: never passed through by number.
  CHECK(hip_error_from_cuda(CUDA_ERROR_INVALID_CLUSTER_SIZE) == hipErrorInvalidConfiguration);
  CHECK(hip_error_from_cuda(CUDA_ERROR_EXTERNAL_DEVICE) == hipErrorUnknown);
  CHECK(hip_error_from_cuda(static_cast<CUresult>(12345)) == hipErrorUnknown);

  FakeCuda fake;
  weft::Status s =
      weft::cuda::status_from_cuda(CUDA_ERROR_OUT_OF_MEMORY, "api.cuMemAlloc_v2(&p, n)");
  CHECK(s.code() == hipErrorOutOfMemory);
  CHECK(s.message() == "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY (fake description)");
  // A device fault loses the context for good: the message says so, plainly.
  for (CUresult lost : {CUDA_ERROR_ASSERT, CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_LAUNCH_FAILED}) {
    weft::Status f = weft::cuda::status_from_cuda(lost, "api.cuCtxSynchronize()");
    INFO(f.message());
    CHECK(f.message().find("cuCtxSynchronize: ") == 0);
    CHECK(f.message().find("restart the process") != std::string::npos);
  }
  CHECK(s.message().find("restart") == std::string::npos);
}

TEST_CASE("Cuda_Fake_Queue_PriorityAndNonBlocking") {
  FakeCuda fake;
  auto device = only_device();
  weft::QueueOptions high;
  high.priority = -1;
  auto q1 = value_of(device->create_queue(weft::QueueOptions{}));
  auto q2 = value_of(device->create_queue(high));
  REQUIRE(state().stream_priorities.size() == 2);
  CHECK(state().stream_priorities[0] == 0);
  CHECK(state().stream_priorities[1] == -5);
  CHECK(state().stream_flags[0] == CU_STREAM_NON_BLOCKING);
}

TEST_CASE("Cuda_Fake_Dispatch_PacksArgumentsIntoOneBuffer") {
  FakeCuda fake;
  auto device = only_device();
  std::byte image[16] = {std::byte{0x7f}, std::byte{'E'}, std::byte{'L'}, std::byte{'F'}};
  auto module = value_of(device->load_module(image));
  CHECK(module->kernel("missing").status().code() == hipErrorNotFound);
  auto kernel = value_of(module->kernel("k"));
  // Parameters of 8, 4 and 4 bytes: offsets 0, 8, 12; 16 bytes in all.
  const auto& info = kernel->info();
  REQUIRE(info.args.size() == 3);
  CHECK(info.args[1].offset == 8);
  CHECK(info.args[2].offset == 12);
  CHECK(info.kernarg_size == 16);
  CHECK(info.num_registers == 24);

  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  weft::DispatchOp op;
  op.kernel = kernel;
  op.dims.grid = dim3(4, 2, 1);
  op.dims.block = dim3(128, 1, 1);
  op.dims.dynamic_shared_bytes = 96 * 1024;
  op.kernarg.resize(16);
  for (size_t i = 0; i < 16; ++i) op.kernarg[i] = std::byte(i + 1);
  REQUIRE(queue->submit(op).ok());
  REQUIRE(state().launches.size() == 1);
  const auto& launch = state().launches[0];
  CHECK(launch.had_params);  // layout known: kernelParams into the packed blob
  CHECK(launch.args == op.kernarg);
  CHECK(launch.grid[0] == 4);
  CHECK(launch.grid[1] == 2);
  CHECK(launch.block[0] == 128);
  CHECK(launch.shared == 96 * 1024);
  // More than 48 KiB of dynamic shared memory: opted in first, as HIP needs no opt-in.
  REQUIRE(state().function_sets.size() == 1);
  CHECK(state().function_sets[0].second == 96 * 1024);

  op.kernarg.resize(8);
  CHECK(queue->submit(op).code() == hipErrorInvalidValue);

  // Without a layout (an old driver lacks cuFuncGetParamInfo): the blob through `extra`.
  state().param_sizes.clear();
  auto opaque = value_of(module->kernel("k"));
  CHECK(opaque->info().args.empty());
  op.kernel = opaque;
  op.kernarg.assign(24, std::byte{7});
  op.dims.dynamic_shared_bytes = 0;
  REQUIRE(queue->submit(op).ok());
  REQUIRE(state().launches.size() == 2);
  CHECK(state().launches[1].had_extra);
  CHECK(state().launches[1].args == op.kernarg);
}

TEST_CASE("Cuda_Fake_Dispatch_CooperativeThroughCuLaunchCooperativeKernel") {
  FakeCuda fake;
  auto device = only_device();
  CHECK(device->caps().cooperative_launches);
  CHECK(device->caps().faults_lose_context);
  std::byte image[16] = {std::byte{0x7f}, std::byte{'E'}, std::byte{'L'}, std::byte{'F'}};
  auto module = value_of(device->load_module(image));
  auto kernel = value_of(module->kernel("k"));
  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  weft::DispatchOp op;
  op.kernel = kernel;
  op.dims.grid = dim3(6, 1, 1);
  op.dims.block = dim3(64, 1, 1);
  op.kernarg.resize(16);
  for (size_t i = 0; i < 16; ++i) op.kernarg[i] = std::byte(i + 3);
  op.cooperative = true;
  REQUIRE(queue->submit(op).ok());
  op.cooperative = false;
  REQUIRE(queue->submit(op).ok());
  REQUIRE(state().launches.size() == 2);
  CHECK(state().launches[0].cooperative);
  CHECK(state().launches[0].had_params);
  CHECK(state().launches[0].args == op.kernarg);
  CHECK(state().launches[0].grid[0] == 6);
  CHECK_FALSE(state().launches[1].cooperative);

  // No layout (an old driver): cuLaunchCooperativeKernel takes no `extra`, so the blob
  // goes through cuLaunchKernel (the core has checked the grid against the occupancy).
  state().param_sizes.clear();
  op.kernel = value_of(module->kernel("k"));
  op.cooperative = true;
  REQUIRE(queue->submit(op).ok());
  REQUIRE(state().launches.size() == 3);
  CHECK_FALSE(state().launches[2].cooperative);
  CHECK(state().launches[2].had_extra);
}

TEST_CASE("Cuda_Fake_StackLimit_IsCudasStackSize") {
  FakeCuda fake;
  auto device = only_device();
  CHECK(device->thread_stack_bytes() == 0);  // never set: the core's default applies
  REQUIRE(device->set_thread_stack_bytes(4096).ok());
  CHECK(state().stack_limit == 4096);
  CHECK(device->thread_stack_bytes() == 4096);
  // CUDA refuses: the error comes back, the limit in effect stays.
  CHECK(device->set_thread_stack_bytes(size_t(1) << 40).code() == hipErrorInvalidValue);
  CHECK(device->thread_stack_bytes() == 4096);
}

TEST_CASE("Cuda_Fake_Dispatch_BorrowedArgumentsGoStraightToCuda") {
  FakeCuda fake;
  auto device = only_device();
  CHECK(device->caps().ops_read_at_submit);
  std::byte image[16] = {std::byte{0x7f}, std::byte{'E'}, std::byte{'L'}, std::byte{'F'}};
  auto module = value_of(device->load_module(image));
  auto kernel = value_of(module->kernel("k"));  // parameters of 8, 4 and 4 bytes
  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  uint64_t a = 0x1122334455667788ull;
  uint32_t b = 0xaabbccdd, c = 0x01020304;
  void* params[] = {&a, &b, &c};
  weft::DispatchOp op;
  op.kernel = kernel;
  op.dims.grid = dim3(1);
  op.dims.block = dim3(32);
  op.borrowed_args = params;  // no packed blob
  REQUIRE(queue->submit(op).ok());
  REQUIRE(state().launches.size() == 1);
  const auto& launch = state().launches[0];
  CHECK(launch.had_params);
  CHECK_FALSE(launch.had_extra);
  std::vector<std::byte> expected(16);
  std::memcpy(expected.data(), &a, 8);
  std::memcpy(expected.data() + 8, &b, 4);
  std::memcpy(expected.data() + 12, &c, 4);
  CHECK(launch.args == expected);
}

TEST_CASE("Cuda_Fake_LentKernelAndEvent_GoStraightToCuda") {
  // A launch may lend its kernel and a record its event (ops_read_at_submit): the
  // queue uses them during submit and keeps no reference.
  FakeCuda fake;
  auto device = only_device();
  std::byte image[16] = {std::byte{0x7f}, std::byte{'E'}, std::byte{'L'}, std::byte{'F'}};
  auto module = value_of(device->load_module(image));
  auto kernel = value_of(module->kernel("k"));
  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  auto event = value_of(device->create_event(weft::EventOptions{}));
  uint64_t a = 5;
  uint32_t b = 6, c = 7;
  void* params[] = {&a, &b, &c};
  weft::DispatchOp op;
  op.borrowed_kernel = kernel.get();
  op.dims.grid = dim3(2);
  op.dims.block = dim3(64);
  op.borrowed_args = params;
  CHECK(op.target() == kernel.get());
  REQUIRE(queue->submit(op).ok());
  REQUIRE(state().launches.size() == 1);
  CHECK(state().launches[0].had_params);
  CHECK_FALSE(event->ever_recorded());
  weft::EventRecordOp record;
  record.borrowed_event = event.get();
  CHECK(record.target() == event.get());
  REQUIRE(queue->submit(record).ok());
  CHECK(state().event_records == 1);
  CHECK(event->ever_recorded());
  // A record with no event at all is refused.
  weft::EventRecordOp none;
  CHECK(queue->submit(none).code() == hipErrorInvalidHandle);
}

TEST_CASE("Cuda_Fake_LaunchAndRecord_MakeTheContextCurrentOnlyWhereCudaRefuses") {
  FakeCuda fake;
  auto device = only_device();
  std::byte image[16] = {std::byte{0x7f}, std::byte{'E'}, std::byte{'L'}, std::byte{'F'}};
  auto module = value_of(device->load_module(image));
  auto kernel = value_of(module->kernel("k"));
  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  auto event = value_of(device->create_event(weft::EventOptions{}));
  state().calls_need_current_context = true;
  uint64_t a = 1;
  uint32_t b = 2, c = 3;
  void* params[] = {&a, &b, &c};
  auto dispatch = [&] {
    weft::DispatchOp op;
    op.kernel = kernel;
    op.dims.grid = dim3(1);
    op.dims.block = dim3(32);
    op.borrowed_args = params;
    return queue->submit(op);
  };
  // This thread made the context current while creating the queue: no refusal.
  REQUIRE(dispatch().ok());
  REQUIRE(queue->submit(weft::EventRecordOp{event}).ok());
  CHECK(state().context_refusals == 0);
  // A new thread has no current context: CUDA refuses each call once, the driver
  // makes the context current and repeats it; the next calls go straight through.
  std::thread([&] {
    CHECK(dispatch().ok());
    CHECK(queue->submit(weft::EventRecordOp{event}).ok());
    CHECK(dispatch().ok());
  }).join();
  CHECK(state().context_refusals == 1);
  CHECK(state().launches.size() == 3);
  CHECK(state().event_records == 2);
  CHECK(event->ever_recorded());
}

TEST_CASE("Cuda_Fake_HostKernel_NoBinaryForGpu") {
  FakeCuda fake;
  auto device = only_device();
  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  weft::DispatchOp op;
  weftHostKernel k{};
  k.abiVersion = WEFT_KERNEL_ABI_VERSION;
  k.name = "host_only";
  op.host_kernel = weft::make_ref<weft::HostKernel>(k);
  op.dims.grid = op.dims.block = dim3(1, 1, 1);
  CHECK(queue->submit(op).code() == hipErrorNoBinaryForGpu);
}

TEST_CASE("Cuda_Fake_CopiesAndFills") {
  FakeCuda fake;
  auto device = only_device();
  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  char src[64] = "hello", dst[64] = {};
  weft::CopyOp copy;
  copy.dst = dst;
  copy.src = src;
  copy.width = 6;
  REQUIRE(queue->submit(copy).ok());
  CHECK(std::string(dst) == "hello");

  copy.width = 4;
  copy.height = 3;
  copy.src_pitch = 16;
  copy.dst_pitch = 8;
  REQUIRE(queue->submit(copy).ok());
  REQUIRE(state().copies_2d.size() == 1);
  const CUDA_MEMCPY2D& c = state().copies_2d[0];
  CHECK(c.srcMemoryType == CU_MEMORYTYPE_UNIFIED);
  CHECK(c.dstMemoryType == CU_MEMORYTYPE_UNIFIED);
  CHECK(c.srcPitch == 16);
  CHECK(c.dstPitch == 8);
  CHECK(c.WidthInBytes == 4);
  CHECK(c.Height == 3);

  weft::FillOp fill;
  fill.dst = dst;
  fill.value = 0xbeef;
  fill.element_size = 2;
  fill.width_elements = 4;
  fill.height = 2;
  fill.pitch = 32;
  REQUIRE(queue->submit(fill).ok());
  fill.height = 1;
  fill.element_size = 4;
  REQUIRE(queue->submit(fill).ok());
  REQUIRE(state().memsets.size() == 2);
  CHECK(state().memsets[0].element_size == 2);
  CHECK(state().memsets[0].pitch == 32);
  CHECK(state().memsets[0].height == 2);
  CHECK(state().memsets[0].value == 0xbeef);
  CHECK(state().memsets[1].element_size == 4);
  CHECK(state().memsets[1].height == 1);
}

TEST_CASE("Cuda_Fake_HostFunc_RunsOnLaneAndReleasesStream") {
  FakeCuda fake;
  auto device = only_device();
  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  std::atomic<int> ran{0};
  std::thread::id ran_on;
  REQUIRE(queue
              ->submit(weft::HostFuncOp{[&] {
                ran_on = std::this_thread::get_id();
                ran.fetch_add(1);
              }})
              .ok());
  REQUIRE(queue->submit(weft::HostFuncOp{[&] { ran.fetch_add(10); }}).ok());
  // Each host function: a trampoline plus a stream wait for the next ticket.
  REQUIRE(state().waits.size() == 2);
  uint32_t first = state().waits[0].value, second = state().waits[1].value;
  CHECK(second == first + 1);
  CHECK(state().waits[0].address == state().waits[1].address);
  // Nothing runs before the stream reaches it (the trampolines have not fired).
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(ran.load() == 0);
  fake.run_host_funcs();
  CHECK(eventually([&] { return ran.load() == 11; }));
  CHECK(ran_on != std::this_thread::get_id());
  CHECK(eventually([&] { return word_at(state().waits[1].address) == second; }));
}

TEST_CASE("Cuda_Fake_ForeignEventWait_BlocksUntilComplete") {
  FakeCuda fake;
  auto device = only_device();
  auto queue = value_of(device->create_queue(weft::QueueOptions{}));
  auto foreign = weft::make_ref<ManualEvent>();
  REQUIRE(queue->submit(weft::EventWaitOp{foreign}).ok());
  REQUIRE(state().waits.size() == 1);
  CHECK(state().host_funcs.empty());  // the lane waits at once; no trampoline
  const auto wait = state().waits[0];
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(word_at(wait.address) != wait.value);
  foreign->complete();
  CHECK(eventually([&] { return word_at(wait.address) == wait.value; }));

  // A CUDA event is waited for by the GPU itself.
  auto own = value_of(device->create_event(weft::EventOptions{}));
  REQUIRE(queue->submit(weft::EventRecordOp{own}).ok());
  REQUIRE(queue->submit(weft::EventWaitOp{own}).ok());
  CHECK(state().event_waits.size() == 1);
  CHECK(state().waits.size() == 1);
}
