// SPDX-License-Identifier: MIT
// Conformance: stream memory operations. hipStreamWriteValue32/64 store in stream order;
// hipStreamWaitValue32/64 hold a stream until a word, written by the host or by another
// stream, satisfies the comparison (Gte, Eq, And, Nor, with a mask); hipStreamBatchMemOp
// runs a list of them in order. Every wait here is released on every path (WordRelease), so
// a failing test never leaves a stream waiting forever.
#include "hip_test.hpp"

#include <cstdint>

namespace {

__global__ void store(int* p, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *p = value;
}

// Stores `value` into a word when it goes out of scope, so that a wait on the word ends
// even when a REQUIRE fails first. Declare it after the streams that wait.
template <typename T>
struct WordRelease {
  T* word;
  T value;
  ~WordRelease() {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
    (void)hipDeviceSynchronize();
  }
};

template <typename T>
void host_store(T* word, T value) {
  __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

template <typename T>
T host_load(const T* word) {
  return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

struct WaitCase {
  const char* name;
  unsigned flags;
  uint64_t value;
  uint64_t mask;
  uint64_t blocked;    // a word that does not satisfy the wait
  uint64_t satisfied;  // one that does
};

}  // namespace

TEST_CASE("Unit_hipStreamWriteValue_Positive_Basic") {
  hip_test::Stream s;
  hip_test::PinnedBuffer<uint32_t> w32(2);
  hip_test::PinnedBuffer<uint64_t> w64(2);
  w32[0] = w32[1] = 0;
  w64[0] = w64[1] = 0;
  HIP_CHECK(hipStreamWriteValue32(s.get(), &w32[1], 0xDEADBEEFu, 0));
  HIP_CHECK(hipStreamWriteValue64(s.get(), &w64[1], 0x123456789ABCDEF0ull, 0));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(w32[0] == 0u);
  REQUIRE(w32[1] == 0xDEADBEEFu);
  REQUIRE(w64[0] == 0u);
  REQUIRE(w64[1] == 0x123456789ABCDEF0ull);
  // The null stream too.
  HIP_CHECK(hipStreamWriteValue32(nullptr, &w32[0], 7u, 0));
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(w32[0] == 7u);
}

TEST_CASE("Unit_hipStreamWriteValue_Positive_DeviceMemory") {
  // Device memory works where the host reaches it (the CPU agent); a GPU refuses it.
  hip_test::Stream s;
  hip_test::DeviceBuffer<uint32_t> word(1);
  const hipError_t rc = hipStreamWriteValue32(s.get(), word.get(), 99u, 0);
  if (rc == hipErrorNotSupported) {
    hip_test::skip(
        "the device's memory is not host-visible; stream memory operations need pinned memory "
        "there");
    return;
  }
  HIP_CHECK(rc);
  uint32_t host = 0;
  HIP_CHECK(hipMemcpyAsync(&host, word.get(), sizeof host, hipMemcpyDeviceToHost, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(host == 99u);
}

TEST_CASE("Unit_hipStreamWaitValue32_Positive_HostReleases") {
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::PinnedBuffer<uint32_t> flag(1);
  hip_test::PinnedBuffer<int> out(1);
  flag[0] = 0;
  out[0] = -1;
  WordRelease<uint32_t> release{flag.get(), 1u};
  HIP_CHECK(hipStreamWaitValue32(s.get(), flag.get(), 1u, hipStreamWaitValueGte, 0xFFFFFFFFu));
  HIP_LAUNCH_CHECK(store, dim3(1), dim3(1), 0, s.get(), out.get(), 42);
  // Nothing but this test writes the flag, so the stream cannot have passed the wait.
  HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
  REQUIRE(out[0] == -1);
  host_store(flag.get(), 1u);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(out[0] == 42);
}

TEST_CASE("Unit_hipStreamWaitValue_Positive_OtherStreamReleases") {
  hip_test::Stream waiter, writer;
  hip_test::PinnedBuffer<uint64_t> flag(1);
  hip_test::PinnedBuffer<uint32_t> out(1);
  flag[0] = 0;
  out[0] = 0;
  WordRelease<uint64_t> release{flag.get(), 7};
  HIP_CHECK(hipStreamWaitValue64(waiter.get(), flag.get(), 7, hipStreamWaitValueEq, ~0ull));
  HIP_CHECK(hipStreamWriteValue32(waiter.get(), out.get(), 5u, 0));
  HIP_CHECK_ERROR(hipStreamQuery(waiter.get()), hipErrorNotReady);
  HIP_CHECK(hipStreamWriteValue64(writer.get(), flag.get(), 7, 0));
  HIP_CHECK(hipStreamSynchronize(waiter.get()));
  REQUIRE(out[0] == 5u);
  REQUIRE(flag[0] == 7u);
}

TEST_CASE("Unit_hipStreamWaitValue_Positive_Comparisons") {
  // Each case: the stream stays blocked on `blocked` and passes once the word is `satisfied`.
  const WaitCase cases32[] = {
      {"Gte masked", hipStreamWaitValueGte, 10, 0xFF, 0x109, 0x10A},
      {"Eq masked", hipStreamWaitValueEq, 5, 0x0F, 0x36, 0x35},
      {"And", hipStreamWaitValueAnd, 0x4, 0xFF, 0x1B, 0x1F},
      {"Nor", hipStreamWaitValueNor, 0xFFFF0000u, 0xFFFFFFFFu, 0x0000FFFF, 0x0000FFFE},
  };
  hip_test::Stream s;
  hip_test::PinnedBuffer<uint32_t> word(1);
  hip_test::PinnedBuffer<uint32_t> done(1);
  for (const WaitCase& c : cases32) {
    INFO("32-bit " << c.name);
    word[0] = static_cast<uint32_t>(c.blocked);
    done[0] = 0;
    {
      WordRelease<uint32_t> release{word.get(), static_cast<uint32_t>(c.satisfied)};
      HIP_CHECK(hipStreamWaitValue32(s.get(), word.get(), static_cast<uint32_t>(c.value), c.flags,
                                     static_cast<uint32_t>(c.mask)));
      HIP_CHECK(hipStreamWriteValue32(s.get(), done.get(), 1u, 0));
      HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
      REQUIRE(host_load(done.get()) == 0u);
      host_store(word.get(), static_cast<uint32_t>(c.satisfied));
      HIP_CHECK(hipStreamSynchronize(s.get()));
      REQUIRE(done[0] == 1u);
    }
  }
  // Already satisfied: the stream does not wait at all.
  word[0] = 3;
  HIP_CHECK(hipStreamWaitValue32(s.get(), word.get(), 3u, hipStreamWaitValueEq, 0xFFFFFFFFu));
  HIP_CHECK(hipStreamSynchronize(s.get()));

  const WaitCase cases64[] = {
      {"Gte above 32 bits", hipStreamWaitValueGte, 0x100000000ull, ~0ull, 0xFFFFFFFFull,
       0x100000000ull},
      {"Eq high word masked", hipStreamWaitValueEq, 0xAB00000000ull, 0xFF00000000ull,
       0xAA00000001ull, 0xAB00000001ull},
      {"Nor 64", hipStreamWaitValueNor, 0xFFFFFFFF00000000ull, ~0ull, 0x00000000FFFFFFFFull,
       0x00000000FFFFFFFEull},
  };
  hip_test::PinnedBuffer<uint64_t> word64(1);
  for (const WaitCase& c : cases64) {
    INFO("64-bit " << c.name);
    word64[0] = c.blocked;
    done[0] = 0;
    WordRelease<uint64_t> release{word64.get(), c.satisfied};
    HIP_CHECK(hipStreamWaitValue64(s.get(), word64.get(), c.value, c.flags, c.mask));
    HIP_CHECK(hipStreamWriteValue32(s.get(), done.get(), 1u, 0));
    HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
    REQUIRE(host_load(done.get()) == 0u);
    host_store(word64.get(), c.satisfied);
    HIP_CHECK(hipStreamSynchronize(s.get()));
    REQUIRE(done[0] == 1u);
  }
}

TEST_CASE("Unit_hipStreamWaitValue32_Positive_MaskHidesBits") {
  // (word & 0xFF) & 0x100 is 0 whatever the word: setting bit 8 must not release the wait.
  // hipStreamWaitValueAnd with value 0x101 then passes on bit 0.
  hip_test::Stream s;
  hip_test::PinnedBuffer<uint32_t> word(1);
  hip_test::PinnedBuffer<uint32_t> done(1);
  word[0] = 0;
  done[0] = 0;
  WordRelease<uint32_t> release{word.get(), 0x1};
  HIP_CHECK(hipStreamWaitValue32(s.get(), word.get(), 0x101u, hipStreamWaitValueAnd, 0xFFu));
  HIP_CHECK(hipStreamWriteValue32(s.get(), done.get(), 1u, 0));
  host_store(word.get(), 0x100u);
  // The wait may have read the new word by now or not; either way it cannot pass on bit 8.
  // A later release of bit 0 proves the wait was still there.
  HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
  REQUIRE(host_load(done.get()) == 0u);
  host_store(word.get(), 0x101u);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(done[0] == 1u);
}

TEST_CASE("Unit_hipStreamBatchMemOp_Positive_InOrder") {
  hip_test::Stream s;
  hip_test::PinnedBuffer<uint32_t> flag(1);
  hip_test::PinnedBuffer<uint32_t> out32(1);
  hip_test::PinnedBuffer<uint64_t> out64(1);
  flag[0] = 0;
  out32[0] = 0;
  out64[0] = 0;
  WordRelease<uint32_t> release{flag.get(), 2u};
  hipStreamBatchMemOpParams ops[4];
  std::memset(ops, 0, sizeof ops);
  ops[0].writeValue.operation = hipStreamMemOpWriteValue32;
  ops[0].writeValue.address = out32.get();
  ops[0].writeValue.value = 1;
  ops[1].waitValue.operation = hipStreamMemOpWaitValue32;
  ops[1].waitValue.address = flag.get();
  ops[1].waitValue.value = 2;
  ops[1].waitValue.flags = hipStreamWaitValueGte;
  ops[2].memoryBarrier.operation = hipStreamMemOpBarrier;
  ops[3].writeValue.operation = hipStreamMemOpWriteValue64;
  ops[3].writeValue.address = out64.get();
  ops[3].writeValue.value64 = 0xFEEDFACECAFEBEEFull;
  HIP_CHECK(hipStreamBatchMemOp(s.get(), 4, ops, 0));
  HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
  REQUIRE(host_load(out64.get()) == 0u);  // behind the wait
  host_store(flag.get(), 2u);
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(out32[0] == 1u);
  REQUIRE(out64[0] == 0xFEEDFACECAFEBEEFull);
}

TEST_CASE("Unit_hipStreamMemOps_Positive_Captured") {
  // Captured into a graph, the operations run when the graph is launched.
  hip_test::Stream s;
  hip_test::PinnedBuffer<uint32_t> word(1);
  word[0] = 0;
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipStreamBeginCapture(s.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(hipStreamWriteValue32(s.get(), word.get(), 11u, 0));
  HIP_CHECK(hipStreamWaitValue32(s.get(), word.get(), 11u, hipStreamWaitValueEq, 0xFFFFFFFFu));
  HIP_CHECK(hipStreamEndCapture(s.get(), &graph));
  REQUIRE(word[0] == 0u);  // nothing ran while capturing
  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(exec, s.get()));
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(word[0] == 11u);
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
}

TEST_CASE("Unit_hipStreamMemOps_Negative") {
  hip_test::Stream s;
  hip_test::PinnedBuffer<uint64_t> words(2);
  words[0] = words[1] = 0;
  uint32_t unknown = 0;  // not allocated through HIP
  auto* base = reinterpret_cast<unsigned char*>(words.get());
  SECTION("wait") {
    HIP_CHECK_ERROR(hipStreamWaitValue32(s.get(), nullptr, 1, hipStreamWaitValueGte, ~0u),
                    hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamWaitValue32(s.get(), words.get(), 1, 4, ~0u), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamWaitValue64(s.get(), words.get(), 1, 0x10, ~0ull),
                    hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamWaitValue32(s.get(), base + 2, 1, hipStreamWaitValueGte, ~0u),
                    hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamWaitValue64(s.get(), base + 4, 1, hipStreamWaitValueGte, ~0ull),
                    hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamWaitValue32(s.get(), &unknown, 1, hipStreamWaitValueGte, ~0u),
                    hipErrorInvalidValue);
  }
  SECTION("write") {
    HIP_CHECK_ERROR(hipStreamWriteValue32(s.get(), nullptr, 1, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamWriteValue64(s.get(), nullptr, 1, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamWriteValue32(s.get(), &unknown, 1, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamWriteValue64(s.get(), base + 4, 1, 0), hipErrorInvalidValue);
    // The last 4 bytes of the allocation hold no 8-byte word.
    HIP_CHECK_ERROR(hipStreamWriteValue64(s.get(), base + 12, 1, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(
        hipStreamWriteValue32(reinterpret_cast<hipStream_t>(&unknown), words.get(), 1, 0),
        hipErrorInvalidHandle);
  }
  SECTION("batch") {
    hipStreamBatchMemOpParams op;
    std::memset(&op, 0, sizeof op);
    op.writeValue.operation = hipStreamMemOpWriteValue32;
    op.writeValue.address = words.get();
    op.writeValue.value = 1;
    HIP_CHECK_ERROR(hipStreamBatchMemOp(s.get(), 0, &op, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamBatchMemOp(s.get(), 1, nullptr, 0), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamBatchMemOp(s.get(), 1, &op, 1), hipErrorInvalidValue);
    HIP_CHECK_ERROR(hipStreamBatchMemOp(s.get(), 257, &op, 0), hipErrorInvalidValue);
    hipStreamBatchMemOpParams bad[2];
    std::memcpy(&bad[0], &op, sizeof op);
    std::memset(&bad[1], 0, sizeof bad[1]);
    bad[1].operation =
        static_cast<hipStreamBatchMemOpType>(7);  // within the enum's range, but no operation
    HIP_CHECK_ERROR(hipStreamBatchMemOp(s.get(), 2, bad, 0), hipErrorInvalidValue);
    bad[1].waitValue.operation = hipStreamMemOpWaitValue32;
    bad[1].waitValue.address = words.get();
    bad[1].waitValue.flags = 9;
    HIP_CHECK_ERROR(hipStreamBatchMemOp(s.get(), 2, bad, 0), hipErrorInvalidValue);
    // A refused batch runs none of its operations.
    HIP_CHECK(hipStreamSynchronize(s.get()));
    REQUIRE(words[0] == 0u);
  }
}

TEST_CASE("Unit_hipGraphBatchMemOpNode_Positive") {
  hip_test::Stream s;
  hip_test::PinnedBuffer<uint32_t> flag(1);
  hip_test::PinnedBuffer<uint64_t> out(2);
  flag[0] = 0;
  out[0] = out[1] = 0;
  hipStreamBatchMemOpParams ops[2];
  std::memset(ops, 0, sizeof ops);
  ops[0].waitValue.operation = hipStreamMemOpWaitValue32;
  ops[0].waitValue.address = flag.get();
  ops[0].waitValue.value = 1;
  ops[0].waitValue.flags = hipStreamWaitValueEq;
  ops[1].writeValue.operation = hipStreamMemOpWriteValue64;
  ops[1].writeValue.address = &out[0];
  ops[1].writeValue.value64 = 0xABCDull;
  hipBatchMemOpNodeParams params{};
  params.count = 2;
  params.paramArray = ops;
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  hipGraphNode_t node = nullptr;
  HIP_CHECK(hipGraphAddBatchMemOpNode(&node, graph, nullptr, 0, &params));
  hipGraphNodeType type{};
  HIP_CHECK(hipGraphNodeGetType(node, &type));
  REQUIRE(type == hipGraphNodeTypeBatchMemOp);
  ops[1].writeValue.value64 = 0;  // the node keeps its own copy
  hipBatchMemOpNodeParams got{};
  HIP_CHECK(hipGraphBatchMemOpNodeGetParams(node, &got));
  REQUIRE(got.count == 2u);
  REQUIRE(got.paramArray != nullptr);
  REQUIRE(got.paramArray[1].writeValue.value64 == 0xABCDull);

  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  {
    WordRelease<uint32_t> release{flag.get(), 1u};
    HIP_CHECK(hipGraphLaunch(exec, s.get()));
    HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
    REQUIRE(host_load(&out[0]) == 0u);
    host_store(flag.get(), 1u);
    HIP_CHECK(hipStreamSynchronize(s.get()));
    REQUIRE(out[0] == 0xABCDull);
  }

  // The executable graph's node takes new parameters: write the second word instead.
  ops[1].writeValue.address = &out[1];
  ops[1].writeValue.value64 = 0x1234ull;
  HIP_CHECK(hipGraphExecBatchMemOpNodeSetParams(exec, node, &params));
  HIP_CHECK(hipGraphLaunch(exec, s.get()));  // flag is still 1: no wait
  HIP_CHECK(hipStreamSynchronize(s.get()));
  REQUIRE(out[1] == 0x1234ull);

  // And the graph's node too.
  ops[1].writeValue.value64 = 0x5678ull;
  HIP_CHECK(hipGraphBatchMemOpNodeSetParams(node, &params));
  HIP_CHECK(hipGraphBatchMemOpNodeGetParams(node, &got));
  REQUIRE(got.paramArray[1].writeValue.value64 == 0x5678ull);

  // Bad parameters.
  params.count = 0;
  HIP_CHECK_ERROR(hipGraphBatchMemOpNodeSetParams(node, &params), hipErrorInvalidValue);
  params.count = 2;
  params.flags = 3;
  HIP_CHECK_ERROR(hipGraphAddBatchMemOpNode(&node, graph, nullptr, 0, &params),
                  hipErrorInvalidValue);
  params.flags = 0;
  ops[0].waitValue.address = nullptr;
  HIP_CHECK_ERROR(hipGraphExecBatchMemOpNodeSetParams(exec, node, &params), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddBatchMemOpNode(&node, graph, nullptr, 0, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphBatchMemOpNodeGetParams(node, nullptr), hipErrorInvalidValue);
  hipGraphNode_t empty = nullptr;
  HIP_CHECK(hipGraphAddEmptyNode(&empty, graph, nullptr, 0));
  HIP_CHECK_ERROR(hipGraphBatchMemOpNodeGetParams(empty, &got), hipErrorInvalidValue);
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
}
