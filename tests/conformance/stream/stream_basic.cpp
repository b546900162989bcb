// SPDX-License-Identifier: MIT
// Conformance: stream creation, flags, priorities, destruction (and use after destruction),
// hipStreamSynchronize and hipStreamQuery.
#include "hip_test.hpp"

#include <vector>

namespace {

void priority_range(int* least, int* greatest) {
  HIP_CHECK(hipDeviceGetStreamPriorityRange(least, greatest));
}

// weft validates stream handles; a destroyed stream is reported as hipErrorInvalidHandle or,
// as AMD's runtime does, hipErrorContextIsDestroyed. (HIP 7 stopped validating handles in
// many APIs, so HIP's documentation names neither; both are accepted here.)
#define REQUIRE_DESTROYED_STREAM(expr) \
  HIP_CHECK_ERROR_EITHER(expr, hipErrorInvalidHandle, hipErrorContextIsDestroyed)

__global__ void add_one(int* p) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *p = *p + 1;
}

}  // namespace

TEST_CASE("Unit_hipStreamCreate_Positive_Basic") {
  hipStream_t s = nullptr;
  HIP_CHECK(hipStreamCreate(&s));
  REQUIRE(s != nullptr);
  unsigned flags = 0xFFu;
  HIP_CHECK(hipStreamGetFlags(s, &flags));
  REQUIRE(flags == hipStreamDefault);
  int priority = 12345;
  HIP_CHECK(hipStreamGetPriority(s, &priority));
  REQUIRE(priority == 0);
  HIP_CHECK(hipStreamQuery(s));  // a new stream is idle
  HIP_CHECK(hipStreamSynchronize(s));
  HIP_CHECK(hipStreamDestroy(s));
}

TEST_CASE("Unit_hipStreamCreate_Positive_Many") {
  std::vector<hipStream_t> streams(64, nullptr);
  for (auto& s : streams) HIP_CHECK(hipStreamCreate(&s));
  for (size_t i = 0; i < streams.size(); ++i) {
    for (size_t j = i + 1; j < streams.size(); ++j) REQUIRE(streams[i] != streams[j]);
  }
  for (auto s : streams) HIP_CHECK(hipStreamDestroy(s));
}

TEST_CASE("Unit_hipStreamCreate_Negative_Null") {
  HIP_CHECK_ERROR(hipStreamCreate(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipStreamCreateWithFlags_Positive_Flags") {
  for (unsigned wanted : {hipStreamDefault, hipStreamNonBlocking}) {
    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreateWithFlags(&s, wanted));
    unsigned flags = 0xFFu;
    HIP_CHECK(hipStreamGetFlags(s, &flags));
    REQUIRE(flags == wanted);
    HIP_CHECK(hipStreamDestroy(s));
  }
}

TEST_CASE("Unit_hipStreamCreateWithFlags_Negative_Parameters") {
  hipStream_t s = nullptr;
  HIP_CHECK_ERROR(hipStreamCreateWithFlags(nullptr, hipStreamDefault), hipErrorInvalidValue);
  // Only hipStreamDefault (0) and hipStreamNonBlocking (1) exist.
  HIP_CHECK_ERROR(hipStreamCreateWithFlags(&s, 2), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamCreateWithFlags(&s, 0xFFFFFFFFu), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipStreamCreateWithPriority_Positive_Range") {
  int least = 0, greatest = 0;
  priority_range(&least, &greatest);
  for (int p = greatest; p <= least; ++p) {
    INFO("priority " << p);
    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreateWithPriority(&s, hipStreamDefault, p));
    int got = 12345;
    HIP_CHECK(hipStreamGetPriority(s, &got));
    REQUIRE(got == p);
    HIP_CHECK(hipStreamDestroy(s));
  }
}

TEST_CASE("Unit_hipStreamCreateWithPriority_Positive_Clamped") {
  // CUDA/HIP clamp out-of-range priorities to the nearest end of the range.
  int least = 0, greatest = 0;
  priority_range(&least, &greatest);
  hipStream_t s = nullptr;
  int got = 12345;
  HIP_CHECK(hipStreamCreateWithPriority(&s, hipStreamNonBlocking, greatest - 100));
  HIP_CHECK(hipStreamGetPriority(s, &got));
  REQUIRE(got == greatest);
  unsigned flags = 0;
  HIP_CHECK(hipStreamGetFlags(s, &flags));
  REQUIRE(flags == hipStreamNonBlocking);
  HIP_CHECK(hipStreamDestroy(s));

  HIP_CHECK(hipStreamCreateWithPriority(&s, hipStreamDefault, least + 100));
  HIP_CHECK(hipStreamGetPriority(s, &got));
  REQUIRE(got == least);
  HIP_CHECK(hipStreamDestroy(s));
}

TEST_CASE("Unit_hipStreamCreateWithPriority_Positive_RunsWork") {
  if (!hip_test::kernels_supported()) return;
  int least = 0, greatest = 0;
  priority_range(&least, &greatest);
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  for (int p : {greatest, least}) {
    hipStream_t s = nullptr;
    HIP_CHECK(hipStreamCreateWithPriority(&s, hipStreamDefault, p));
    HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, s, value.get());
    HIP_CHECK(hipStreamSynchronize(s));
    HIP_CHECK(hipStreamDestroy(s));
  }
  REQUIRE(value[0] == 2);
}

TEST_CASE("Unit_hipStreamCreateWithPriority_Negative_Parameters") {
  hipStream_t s = nullptr;
  HIP_CHECK_ERROR(hipStreamCreateWithPriority(nullptr, hipStreamDefault, 0), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipStreamCreateWithPriority(&s, 2, 0), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipStreamGetFlags_Negative_Parameters") {
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipStreamGetFlags(s.get(), nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipStreamGetPriority_Positive_NullStream") {
  // The null stream has the default priority 0.
  int priority = 12345;
  HIP_CHECK(hipStreamGetPriority(nullptr, &priority));
  REQUIRE(priority == 0);
}

TEST_CASE("Unit_hipStreamGetPriority_Negative_Parameters") {
  hip_test::Stream s;
  HIP_CHECK_ERROR(hipStreamGetPriority(s.get(), nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipStreamDestroy_Negative_UseAfterDestroy") {
  hipStream_t s = nullptr;
  HIP_CHECK(hipStreamCreate(&s));
  HIP_CHECK(hipStreamDestroy(s));
  unsigned flags = 0;
  int priority = 0;
  REQUIRE_DESTROYED_STREAM(hipStreamQuery(s));
  REQUIRE_DESTROYED_STREAM(hipStreamSynchronize(s));
  REQUIRE_DESTROYED_STREAM(hipStreamGetFlags(s, &flags));
  REQUIRE_DESTROYED_STREAM(hipStreamGetPriority(s, &priority));
  REQUIRE_DESTROYED_STREAM(hipStreamDestroy(s));
  char host[16] = {};
  hip_test::DeviceBuffer<char> dev(16);
  REQUIRE_DESTROYED_STREAM(hipMemcpyAsync(dev.get(), host, 16, hipMemcpyHostToDevice, s));
  REQUIRE_DESTROYED_STREAM(hipMemsetAsync(dev.get(), 0, 16, s));
  hip_test::Event e;
  REQUIRE_DESTROYED_STREAM(hipEventRecord(e.get(), s));
  REQUIRE_DESTROYED_STREAM(hipStreamWaitEvent(s, e.get(), 0));
}

TEST_CASE("Unit_hipStreamDestroy_Negative_SpecialHandles") {
  // The null stream and the per-thread stream are not the caller's to destroy.
  HIP_CHECK_ERROR(hipStreamDestroy(nullptr), hipErrorInvalidHandle);
  HIP_CHECK_ERROR(hipStreamDestroy(hipStreamPerThread), hipErrorInvalidHandle);
}

TEST_CASE("Unit_hipStreamDestroy_Positive_WithPendingWork") {
  // Destroying a stream with queued work is allowed: the work still completes.
  if (!hip_test::kernels_supported()) return;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  hipStream_t s = nullptr;
  HIP_CHECK(hipStreamCreate(&s));
  hip_test::Gate gate;
  gate.launch(s);
  HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, s, value.get());
  HIP_CHECK(hipStreamDestroy(s));
  gate.open();
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(value[0] == 1);
  REQUIRE(gate.state() == hip_test::Gate::kReleased);
}

TEST_CASE("Unit_hipStreamSynchronize_Positive_SpecialHandles") {
  HIP_CHECK(hipStreamSynchronize(nullptr));
  HIP_CHECK(hipStreamSynchronize(hipStreamPerThread));
  HIP_CHECK(hipStreamQuery(nullptr));
  HIP_CHECK(hipStreamQuery(hipStreamPerThread));
}

TEST_CASE("Unit_hipStreamQuery_Positive_NotReadyWhileBusy") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::Gate gate;
  gate.launch(s.get());
  HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
  // NotReady is not an error: it does not become the last error (HIP 7 / CUDA).
  HIP_CHECK(hipGetLastError());
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(gate.state() == hip_test::Gate::kReleased);
  HIP_CHECK(hipStreamQuery(s.get()));
}

TEST_CASE("Unit_hipStreamSynchronize_Positive_WaitsForWork") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::PinnedBuffer<int> value(1);
  value[0] = 0;
  hip_test::Gate gate;
  gate.launch(s.get());
  for (int i = 0; i < 10; ++i) HIP_LAUNCH_CHECK(add_one, dim3(1), dim3(1), 0, s.get(), value.get());
  hip_test::sleep_ms(20);
  REQUIRE(value[0] == 0);  // still behind the gate
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(value[0] == 10);
}
