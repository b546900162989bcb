// SPDX-License-Identifier: MIT
// The per-call loops of bench/cuda_overhead, run against the fake libcuda
// (fake_libcuda.cpp) to count weft's instructions per call under callgrind
// (percall_count.sh) or to time them on a machine without a GPU. Each row's
// loop body is one noinline function `measured_<row>`, so
//   valgrind --tool=callgrind --toggle-collect='*measured_*' percall_loop ROW
// counts exactly the calls (fake driver included), and the direct_* rows make
// the same CUDA calls straight through libcuda's symbols.
//
// Usage: percall_loop ROW [ITERATIONS]   (kernels.cubin next to the binary)
//        percall_loop --time [ITERATIONS]   every row, min ns per call of 15 batches
// Rows: launch, registered, event, setparams, direct_launch, direct_event,
//       direct_setparams.
#include <cuda.h>
#include <dlfcn.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" {
void** __hipRegisterFatBinary(const void* data);
void __hipRegisterFunction(void** modules, const void* hostFunction, char* deviceFunction,
                           const char* deviceName, unsigned int threadLimit, uint3* tid, uint3* bid,
                           dim3* blockDim, dim3* gridDim, int* wSize);
}

#define PERCALL_STR_(x) #x
#define PERCALL_STR(x) PERCALL_STR_(x)

namespace {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "percall_loop: %s\n", what.c_str());
  std::exit(1);
}
void check(hipError_t r, const char* what) {
  if (r != hipSuccess) die(std::string(what) + ": " + hipGetErrorName(r));
}
void check_cu(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) die(std::string(what) + ": CUresult " + std::to_string(r));
}

void registered_stub() {}

// The fake's kernel has three parameters (8, 4 and 4 bytes: fake_cuda.hpp).
float* g_pointer = nullptr;
int g_n = 0, g_m = 0;
void* g_params[] = {&g_pointer, &g_n, &g_m};

struct Setup {
  hipStream_t stream = nullptr;
  hipFunction_t function = nullptr;
  hipEvent_t event = nullptr;
  hipGraphExec_t exec = nullptr;
  hipGraphNode_t node = nullptr;
  hipKernelNodeParams node_params{};
  // The same objects' CUDA handles are fakes: the direct rows call libcuda's
  // exported symbols with handles of their own.
  decltype(&cuLaunchKernel) cu_launch = nullptr;
  decltype(&cuEventRecord) cu_record = nullptr;
  decltype(&cuEventSynchronize) cu_sync = nullptr;
  decltype(&cuGraphExecKernelNodeSetParams) cu_set = nullptr;
  CUDA_KERNEL_NODE_PARAMS cu_params{};
};
Setup g;

std::vector<char> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path.string());
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void setup() {
  static std::vector<char> image =
      read_file(std::filesystem::read_symlink("/proc/self/exe").parent_path() / "kernels.cubin");
  check(hipSetDevice(0), "hipSetDevice");
  hipDeviceProp_t p{};
  check(hipGetDeviceProperties(&p, 0), "hipGetDeviceProperties");
  if (std::strncmp(p.gcnArchName, "sm_", 3) != 0)
    die("device 0 is not the fake NVIDIA device (is the fake libcuda.so.1 on LD_LIBRARY_PATH?)");
  check(hipStreamCreateWithFlags(&g.stream, hipStreamNonBlocking), "hipStreamCreateWithFlags");
  hipModule_t module = nullptr;
  check(hipModuleLoadData(&module, image.data()), "hipModuleLoadData");
  check(hipModuleGetFunction(&g.function, module, "bench_kernel"), "hipModuleGetFunction");
  struct Wrapper {
    uint32_t magic, version;
    const void* binary;
    const void* unused;
  };
  static Wrapper wrapper{0x48495046, 1, image.data(), nullptr};  // "HIPF"
  void** handle = __hipRegisterFatBinary(&wrapper);
  static char name[] = "bench_kernel";
  if (!handle) die("__hipRegisterFatBinary refused kernels.cubin");
  __hipRegisterFunction(handle, reinterpret_cast<const void*>(&registered_stub), name, name, ~0u,
                        nullptr, nullptr, nullptr, nullptr, nullptr);
  check(hipEventCreateWithFlags(&g.event, hipEventDisableTiming), "hipEventCreateWithFlags");
  // A captured one-kernel graph, instantiated and launched once.
  hipGraph_t graph = nullptr;
  check(hipStreamBeginCapture(g.stream, hipStreamCaptureModeGlobal), "hipStreamBeginCapture");
  check(hipModuleLaunchKernel(g.function, 1, 1, 1, 32, 1, 1, 0, g.stream, g_params, nullptr),
        "captured launch");
  check(hipStreamEndCapture(g.stream, &graph), "hipStreamEndCapture");
  check(hipGraphInstantiate(&g.exec, graph, nullptr, nullptr, 0), "hipGraphInstantiate");
  check(hipGraphLaunch(g.exec, g.stream), "hipGraphLaunch");
  check(hipStreamSynchronize(g.stream), "hipStreamSynchronize");
  size_t n = 1;
  check(hipGraphGetNodes(graph, &g.node, &n), "hipGraphGetNodes");
  check(hipGraphKernelNodeGetParams(g.node, &g.node_params), "hipGraphKernelNodeGetParams");
  g.node_params.kernelParams = g_params;
  g.node_params.extra = nullptr;
  // libcuda's own symbols (the ABI names cuda.h maps the calls to): the library weft loaded.
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (!cuda) die("libcuda.so.1 is not loaded");
  g.cu_launch = reinterpret_cast<decltype(g.cu_launch)>(dlsym(cuda, PERCALL_STR(cuLaunchKernel)));
  g.cu_record = reinterpret_cast<decltype(g.cu_record)>(dlsym(cuda, PERCALL_STR(cuEventRecord)));
  g.cu_sync = reinterpret_cast<decltype(g.cu_sync)>(dlsym(cuda, PERCALL_STR(cuEventSynchronize)));
  g.cu_set = reinterpret_cast<decltype(g.cu_set)>(
      dlsym(cuda, PERCALL_STR(cuGraphExecKernelNodeSetParams)));
  if (!g.cu_launch || !g.cu_record || !g.cu_sync || !g.cu_set) die("libcuda lacks a symbol");
  g.cu_params.gridDimX = g.cu_params.gridDimY = g.cu_params.gridDimZ = 1;
  g.cu_params.blockDimX = 32;
  g.cu_params.blockDimY = g.cu_params.blockDimZ = 1;
  g.cu_params.kernelParams = g_params;
}

// The loop bodies, each run through two noinline wrappers: warm_<row> (the
// warm-up, not counted) and measured_<row> (what callgrind counts).
#define PERCALL_ROW(row)                                              \
  __attribute__((noinline)) void warm_##row(int n) { loop_##row(n); } \
  __attribute__((noinline)) void measured_##row(int n) { loop_##row(n); }

[[gnu::always_inline]] inline void loop_launch(int n) {
  for (int i = 0; i < n; ++i)
    check(hipModuleLaunchKernel(g.function, 1, 1, 1, 32, 1, 1, 0, g.stream, g_params, nullptr),
          "hipModuleLaunchKernel");
}
[[gnu::always_inline]] inline void loop_registered(int n) {
  for (int i = 0; i < n; ++i)
    check(hipLaunchKernel(reinterpret_cast<const void*>(&registered_stub), dim3(1), dim3(32),
                          g_params, 0, g.stream),
          "hipLaunchKernel");
}
[[gnu::always_inline]] inline void loop_event(int n) {
  for (int i = 0; i < n; ++i) {
    check(hipEventRecord(g.event, g.stream), "hipEventRecord");
    check(hipEventSynchronize(g.event), "hipEventSynchronize");
  }
}
[[gnu::always_inline]] inline void loop_setparams(int n) {
  for (int i = 0; i < n; ++i)
    check(hipGraphExecKernelNodeSetParams(g.exec, g.node, &g.node_params),
          "hipGraphExecKernelNodeSetParams");
}
[[gnu::always_inline]] inline void loop_direct_launch(int n) {
  auto* f = reinterpret_cast<CUfunction>(0x500);
  auto* s = reinterpret_cast<CUstream>(0x200);
  for (int i = 0; i < n; ++i)
    check_cu(g.cu_launch(f, 1, 1, 1, 32, 1, 1, 0, s, g_params, nullptr), "cuLaunchKernel");
}
[[gnu::always_inline]] inline void loop_direct_event(int n) {
  auto* e = reinterpret_cast<CUevent>(0x300);
  auto* s = reinterpret_cast<CUstream>(0x200);
  for (int i = 0; i < n; ++i) {
    check_cu(g.cu_record(e, s), "cuEventRecord");
    check_cu(g.cu_sync(e), "cuEventSynchronize");
  }
}
[[gnu::always_inline]] inline void loop_direct_setparams(int n) {
  auto* e = reinterpret_cast<CUgraphExec>(0x600);
  auto* node = reinterpret_cast<CUgraphNode>(0x610);
  for (int i = 0; i < n; ++i)
    check_cu(g.cu_set(e, node, &g.cu_params), "cuGraphExecKernelNodeSetParams");
}

PERCALL_ROW(launch)
PERCALL_ROW(registered)
PERCALL_ROW(event)
PERCALL_ROW(setparams)
PERCALL_ROW(direct_launch)
PERCALL_ROW(direct_event)
PERCALL_ROW(direct_setparams)
#undef PERCALL_ROW

struct RowFn {
  const char* name;
  void (*warm)(int);
  void (*fn)(int);
};
constexpr RowFn kRows[] = {
    {"launch", warm_launch, measured_launch},
    {"registered", warm_registered, measured_registered},
    {"event", warm_event, measured_event},
    {"setparams", warm_setparams, measured_setparams},
    {"direct_launch", warm_direct_launch, measured_direct_launch},
    {"direct_event", warm_direct_event, measured_direct_event},
    {"direct_setparams", warm_direct_setparams, measured_direct_setparams},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: percall_loop ROW|--time [ITERATIONS]");
  const std::string row = argv[1];
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 2000;
  setup();
  if (row == "--time") {
    for (const RowFn& r : kRows) {
      r.warm(iterations / 10);
      double best = 1e30;
      for (int b = 0; b < 15; ++b) {
        auto t0 = std::chrono::steady_clock::now();
        r.fn(iterations);
        double ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
        best = std::min(best, ns / iterations);
      }
      std::printf("%-18s %8.1f ns per call (min of 15 batches of %d)\n", r.name, best, iterations);
    }
    return 0;
  }
  for (const RowFn& r : kRows) {
    if (row != r.name) continue;
    r.warm(200);
    r.fn(iterations);
    return 0;
  }
  die("unknown row " + row);
}
