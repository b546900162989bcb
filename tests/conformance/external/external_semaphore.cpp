// SPDX-License-Identifier: MIT
// External semaphores on the CPU agent's opaque descriptors (docs/external-interop.md):
// an eventfd (binary), a memory file's first word (binary or timeline). Signals and
// waits are stream-ordered: a wait holds back later work of its stream until the
// semaphore is signalled from outside. Graph nodes and capture carry them too.
#include "hip_test.hpp"

#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace {

// The descriptors here (memfds, eventfds) are what the CPU agent imports; a GPU's
// driver imports only what a graphics API exported (Vulkan), which no test here makes.
bool cpu_agent_or_skip() {
  if (hip_test::props().integrated &&
      std::string(hip_test::props().gcnArchName).find("gfx") == std::string::npos)
    return true;
  hip_test::skip(
      "external semaphores from memfds and eventfds are the CPU agent's (a GPU imports Vulkan "
      "exports)");
  return false;
}

// A memory file whose first 8 bytes are the semaphore word, and a view of it.
struct WordFile {
  int fd = -1;
  std::atomic<uint64_t>* word = nullptr;
  WordFile() {
    fd = memfd_create("conformance-semaphore", MFD_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(ftruncate(fd, 4096) == 0);
    void* p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    REQUIRE(p != MAP_FAILED);
    word = static_cast<std::atomic<uint64_t>*>(p);
  }
  ~WordFile() {
    munmap(word, 4096);
    if (fd >= 0) close(fd);
  }
};

hipExternalSemaphore_t import_fd(int fd, hipExternalSemaphoreHandleType type) {
  hipExternalSemaphoreHandleDesc desc{};
  desc.type = type;
  desc.handle.fd = fd;
  hipExternalSemaphore_t sem = nullptr;
  HIP_CHECK(hipImportExternalSemaphore(&sem, &desc));
  return sem;
}

hipError_t signal(hipExternalSemaphore_t sem, uint64_t value, hipStream_t stream) {
  hipExternalSemaphoreSignalParams params{};
  params.params.fence.value = value;
  return hipSignalExternalSemaphoresAsync(&sem, &params, 1, stream);
}

hipError_t wait(hipExternalSemaphore_t sem, uint64_t value, hipStream_t stream) {
  hipExternalSemaphoreWaitParams params{};
  params.params.fence.value = value;
  return hipWaitExternalSemaphoresAsync(&sem, &params, 1, stream);
}

}  // namespace

TEST_CASE("Unit_hipExternalSemaphore_Positive_EventfdSignalAndWait") {
  if (!cpu_agent_or_skip()) return;
  const int efd = eventfd(0, EFD_CLOEXEC);
  REQUIRE(efd >= 0);
  hipExternalSemaphore_t sem = import_fd(efd, hipExternalSemaphoreHandleTypeOpaqueFd);
  hip_test::Stream stream;

  // A signal writes the eventfd.
  HIP_CHECK(signal(sem, 0, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  uint64_t count = 0;
  REQUIRE(read(efd, &count, sizeof count) == sizeof count);
  REQUIRE(count == 1);

  // A wait holds back the stream's later work until someone signals.
  hip_test::PinnedBuffer<int> flag(1);
  flag[0] = 0;
  HIP_CHECK(wait(sem, 0, stream.get()));
  HIP_CHECK(hipMemsetAsync(flag.get(), 0x01, sizeof(int), stream.get()));
  REQUIRE(hipStreamQuery(stream.get()) == hipErrorNotReady);
  REQUIRE(flag[0] == 0);
  const uint64_t one = 1;
  REQUIRE(write(efd, &one, sizeof one) == sizeof one);
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  REQUIRE(flag[0] == 0x01010101);
  HIP_CHECK(hipDestroyExternalSemaphore(sem));
  REQUIRE(fcntl(efd, F_GETFD) == -1);  // the runtime owned and closed it
}

TEST_CASE("Unit_hipExternalSemaphore_Positive_TimelineWord") {
  if (!cpu_agent_or_skip()) return;
  WordFile file;
  hipExternalSemaphore_t sem =
      import_fd(file.fd, hipExternalSemaphoreHandleTypeTimelineSemaphoreFd);
  file.fd = -1;
  hip_test::Stream stream;
  HIP_CHECK(signal(sem, 5, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  REQUIRE(file.word->load() == 5);
  HIP_CHECK(signal(sem, 3, stream.get()));  // a timeline never goes back
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  REQUIRE(file.word->load() == 5);

  HIP_CHECK(wait(sem, 5, stream.get()));  // reached already
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  hip_test::PinnedBuffer<int> flag(1);
  flag[0] = 0;
  HIP_CHECK(wait(sem, 7, stream.get()));
  HIP_CHECK(hipMemsetAsync(flag.get(), 0x02, sizeof(int), stream.get()));
  REQUIRE(hipStreamQuery(stream.get()) == hipErrorNotReady);
  file.word->store(6);
  REQUIRE(hipStreamQuery(stream.get()) == hipErrorNotReady);  // still below 7
  REQUIRE(flag[0] == 0);
  file.word->store(7);
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  REQUIRE(flag[0] == 0x02020202);
  HIP_CHECK(hipDestroyExternalSemaphore(sem));
}

TEST_CASE("Unit_hipExternalSemaphore_Positive_BinaryWordIsTakenByAWait") {
  if (!cpu_agent_or_skip()) return;
  WordFile file;
  hipExternalSemaphore_t sem = import_fd(file.fd, hipExternalSemaphoreHandleTypeOpaqueFd);
  file.fd = -1;
  HIP_CHECK(signal(sem, 0, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(file.word->load() == 1);
  HIP_CHECK(wait(sem, 0, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(file.word->load() == 0);
  HIP_CHECK(hipDestroyExternalSemaphore(sem));
}

TEST_CASE("Unit_hipExternalSemaphore_Positive_GraphNodes") {
  if (!cpu_agent_or_skip()) return;
  WordFile file;
  hipExternalSemaphore_t sem =
      import_fd(file.fd, hipExternalSemaphoreHandleTypeTimelineSemaphoreFd);
  file.fd = -1;
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  hipExternalSemaphoreSignalParams signal_params{};
  signal_params.params.fence.value = 4;
  hipExternalSemaphoreSignalNodeParams node_params{&sem, &signal_params, 1};
  hipGraphNode_t signal_node = nullptr;
  HIP_CHECK(hipGraphAddExternalSemaphoresSignalNode(&signal_node, graph, nullptr, 0, &node_params));
  hipGraphNodeType type{};
  HIP_CHECK(hipGraphNodeGetType(signal_node, &type));
  REQUIRE(type == hipGraphNodeTypeExtSemaphoreSignal);
  hipExternalSemaphoreSignalNodeParams reported{};
  HIP_CHECK(hipGraphExternalSemaphoresSignalNodeGetParams(signal_node, &reported));
  REQUIRE(reported.numExtSems == 1);
  REQUIRE(reported.extSemArray[0] == sem);
  REQUIRE(reported.paramsArray[0].params.fence.value == 4);

  // A wait node after it, made through hipGraphAddNode.
  hipExternalSemaphoreWaitParams wait_params{};
  wait_params.params.fence.value = 4;
  hipGraphNodeParams generic{};
  generic.type = hipGraphNodeTypeExtSemaphoreWait;
  generic.extSemWait.extSemArray = &sem;
  generic.extSemWait.paramsArray = &wait_params;
  generic.extSemWait.numExtSems = 1;
  hipGraphNode_t wait_node = nullptr;
  HIP_CHECK(hipGraphAddNode(&wait_node, graph, &signal_node, 1, &generic));
  hipExternalSemaphoreWaitNodeParams wait_reported{};
  HIP_CHECK(hipGraphExternalSemaphoresWaitNodeGetParams(wait_node, &wait_reported));
  REQUIRE(wait_reported.paramsArray[0].params.fence.value == 4);
  HIP_CHECK_ERROR(hipGraphExternalSemaphoresWaitNodeGetParams(signal_node, &wait_reported),
                  hipErrorInvalidValue);

  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(exec, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(file.word->load() == 4);

  signal_params.params.fence.value = 9;
  wait_params.params.fence.value = 9;
  HIP_CHECK(hipGraphExecExternalSemaphoresSignalNodeSetParams(exec, signal_node, &node_params));
  hipExternalSemaphoreWaitNodeParams wait_node_params{&sem, &wait_params, 1};
  HIP_CHECK(hipGraphExecExternalSemaphoresWaitNodeSetParams(exec, wait_node, &wait_node_params));
  HIP_CHECK(hipGraphLaunch(exec, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  REQUIRE(file.word->load() == 9);
  // The graph's own node still says 4.
  HIP_CHECK(hipGraphExternalSemaphoresSignalNodeGetParams(signal_node, &reported));
  REQUIRE(reported.paramsArray[0].params.fence.value == 4);
  signal_params.params.fence.value = 12;
  HIP_CHECK(hipGraphExternalSemaphoresSignalNodeSetParams(signal_node, &node_params));
  HIP_CHECK(hipGraphExternalSemaphoresSignalNodeGetParams(signal_node, &reported));
  REQUIRE(reported.paramsArray[0].params.fence.value == 12);
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
  HIP_CHECK(hipDestroyExternalSemaphore(sem));
}

TEST_CASE("Unit_hipExternalSemaphore_Positive_Captured") {
  if (!cpu_agent_or_skip()) return;
  WordFile file;
  hipExternalSemaphore_t sem =
      import_fd(file.fd, hipExternalSemaphoreHandleTypeTimelineSemaphoreFd);
  file.fd = -1;
  hip_test::Stream stream;
  HIP_CHECK(hipStreamBeginCapture(stream.get(), hipStreamCaptureModeGlobal));
  HIP_CHECK(signal(sem, 21, stream.get()));
  hipGraph_t graph = nullptr;
  HIP_CHECK(hipStreamEndCapture(stream.get(), &graph));
  REQUIRE(file.word->load() == 0);  // captured, not run
  hipGraphExec_t exec = nullptr;
  HIP_CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  HIP_CHECK(hipGraphLaunch(exec, stream.get()));
  HIP_CHECK(hipStreamSynchronize(stream.get()));
  REQUIRE(file.word->load() == 21);
  HIP_CHECK(hipGraphExecDestroy(exec));
  HIP_CHECK(hipGraphDestroy(graph));
  HIP_CHECK(hipDestroyExternalSemaphore(sem));
}

TEST_CASE("Unit_hipExternalSemaphore_Negative_Parameters") {
  if (!cpu_agent_or_skip()) return;
  hipExternalSemaphore_t sem = nullptr;
  hipExternalSemaphoreHandleDesc desc{};
  desc.type = hipExternalSemaphoreHandleTypeOpaqueFd;
  desc.handle.fd = -1;
  HIP_CHECK_ERROR(hipImportExternalSemaphore(nullptr, &desc), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipImportExternalSemaphore(&sem, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipImportExternalSemaphore(&sem, &desc), hipErrorInvalidValue);
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  desc.handle.fd = pipe_fds[0];
  HIP_CHECK_ERROR(hipImportExternalSemaphore(&sem, &desc), hipErrorInvalidValue);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  // A memory file too short for the word, and an eventfd as a timeline.
  WordFile file;
  REQUIRE(ftruncate(file.fd, 4) == 0);
  desc.handle.fd = file.fd;
  HIP_CHECK_ERROR(hipImportExternalSemaphore(&sem, &desc), hipErrorInvalidValue);
  const int efd = eventfd(0, EFD_CLOEXEC);
  desc.handle.fd = efd;
  desc.type = hipExternalSemaphoreHandleTypeTimelineSemaphoreFd;
  HIP_CHECK_ERROR(hipImportExternalSemaphore(&sem, &desc), hipErrorInvalidValue);
  desc.type = hipExternalSemaphoreHandleTypeD3D12Fence;
  HIP_CHECK_ERROR(hipImportExternalSemaphore(&sem, &desc), hipErrorNotSupported);
  desc.type = static_cast<hipExternalSemaphoreHandleType>(77);
  HIP_CHECK_ERROR(hipImportExternalSemaphore(&sem, &desc), hipErrorInvalidValue);
  desc.type = hipExternalSemaphoreHandleTypeOpaqueFd;
  desc.flags = 1;
  HIP_CHECK_ERROR(hipImportExternalSemaphore(&sem, &desc), hipErrorInvalidValue);
  desc.flags = 0;
  HIP_CHECK(hipImportExternalSemaphore(&sem, &desc));  // the eventfd, as a binary semaphore

  hipExternalSemaphoreSignalParams signal_params{};
  hipExternalSemaphoreWaitParams wait_params{};
  HIP_CHECK_ERROR(hipSignalExternalSemaphoresAsync(nullptr, &signal_params, 1, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipSignalExternalSemaphoresAsync(&sem, nullptr, 1, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipSignalExternalSemaphoresAsync(&sem, &signal_params, 0, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipWaitExternalSemaphoresAsync(&sem, nullptr, 1, nullptr), hipErrorInvalidValue);
  int not_a_semaphore = 0;
  hipExternalSemaphore_t bogus = &not_a_semaphore;
  HIP_CHECK_ERROR(hipSignalExternalSemaphoresAsync(&bogus, &signal_params, 1, nullptr),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipWaitExternalSemaphoresAsync(&bogus, &wait_params, 1, nullptr),
                  hipErrorInvalidValue);
  signal_params.flags = 4;
  HIP_CHECK_ERROR(hipSignalExternalSemaphoresAsync(&sem, &signal_params, 1, nullptr),
                  hipErrorInvalidValue);
  signal_params.flags = 0;
  hipStream_t bad_stream = reinterpret_cast<hipStream_t>(&not_a_semaphore);
  HIP_CHECK_ERROR(hipSignalExternalSemaphoresAsync(&sem, &signal_params, 1, bad_stream),
                  hipErrorInvalidValue);

  hipGraph_t graph = nullptr;
  HIP_CHECK(hipGraphCreate(&graph, 0));
  hipGraphNode_t node = nullptr;
  HIP_CHECK_ERROR(hipGraphAddExternalSemaphoresSignalNode(&node, graph, nullptr, 0, nullptr),
                  hipErrorInvalidValue);
  hipExternalSemaphoreSignalNodeParams empty{&sem, &signal_params, 0};
  HIP_CHECK_ERROR(hipGraphAddExternalSemaphoresSignalNode(&node, graph, nullptr, 0, &empty),
                  hipErrorInvalidValue);
  hipExternalSemaphoreWaitNodeParams bogus_wait{&bogus, &wait_params, 1};
  HIP_CHECK_ERROR(hipGraphAddExternalSemaphoresWaitNode(&node, graph, nullptr, 0, &bogus_wait),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGraphAddExternalSemaphoresWaitNode(nullptr, graph, nullptr, 0, &bogus_wait),
                  hipErrorInvalidValue);
  HIP_CHECK(hipGraphDestroy(graph));

  HIP_CHECK(hipDestroyExternalSemaphore(sem));
  HIP_CHECK_ERROR(hipDestroyExternalSemaphore(sem), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipSignalExternalSemaphoresAsync(&sem, &signal_params, 1, nullptr),
                  hipErrorInvalidValue);
}
