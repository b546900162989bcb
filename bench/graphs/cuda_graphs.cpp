// SPDX-License-Identifier: MIT
// bench/graphs, NVIDIA part (issue 5): on the first NVIDIA agent, a 100-kernel
// chain through weft (direct launches and graph replay) against the same
// chain through the CUDA driver API (direct cuLaunchKernel and a native CUDA
// graph), plus instantiate and one-node SetParams costs on both sides. The
// measurements alternate between weft and CUDA, repetition by repetition, and
// each figure is the median. Usage: bench_graphs_cuda [--quick | --setparams]
// (graph_kernels.cubin next to the binary); --setparams: only the one-node
// SetParams row (what the H200 runs alternate between two libamdhip64 builds).
#include <cuda.h>
#include <hip/hip_runtime.h>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

namespace {

void check(hipError_t rc, const char* what) {
  if (rc != hipSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, hipGetErrorName(rc));
    std::exit(1);
  }
}
void check(CUresult rc, const char* what) {
  if (rc != CUDA_SUCCESS) {
    const char* name = nullptr;
    cuGetErrorName(rc, &name);
    std::fprintf(stderr, "%s failed: %s\n", what, name ? name : "?");
    std::exit(1);
  }
}
#define CHECK(expr) check((expr), #expr)

using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string binary_dir() {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  path[n] = 0;
  std::string s(path);
  return s.substr(0, s.rfind('/'));
}

constexpr int kChain = 100;
constexpr int kBig = 8192;

struct Weft {
  hipModule_t module = nullptr;
  hipFunction_t fn = nullptr;
  hipStream_t s = nullptr;
  int* counter = nullptr;
  void* args[1] = {&counter};
  void launch() { CHECK(hipModuleLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, s, args, nullptr)); }
  hipGraph_t capture(int n) {
    CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
    for (int i = 0; i < n; ++i) launch();
    hipGraph_t g = nullptr;
    CHECK(hipStreamEndCapture(s, &g));
    return g;
  }
};

struct Cuda {
  CUmodule module = nullptr;
  CUfunction fn = nullptr;
  CUstream s = nullptr;
  CUdeviceptr counter = 0;
  void* args[1] = {&counter};
  void launch() { CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, s, args, nullptr)); }
  CUgraph capture(int n) {
    CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
    for (int i = 0; i < n; ++i) launch();
    CUgraph g = nullptr;
    CHECK(cuStreamEndCapture(s, &g));
    return g;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const bool setparams_only = argc > 1 && std::strcmp(argv[1], "--setparams") == 0;
  const int reps = quick ? 5 : 21;
  const int chains = quick ? 50 : 200;
  const std::string cubin = binary_dir() + "/graph_kernels.cubin";

  // The first NVIDIA agent of weft, and the same device through CUDA.
  int count = 0, dev = -1;
  CHECK(hipGetDeviceCount(&count));
  hipDeviceProp_t props{};
  for (int i = 0; i < count && dev < 0; ++i) {
    CHECK(hipGetDeviceProperties(&props, i));
    if (std::strncmp(props.gcnArchName, "sm_", 3) == 0) dev = i;
  }
  if (dev < 0) {
    std::printf("SKIPPED: no NVIDIA agent\n");
    return 77;
  }
  CHECK(hipSetDevice(dev));
  CHECK(cuInit(0));
  int cuda_count = 0;
  CHECK(cuDeviceGetCount(&cuda_count));
  CUdevice cdev = -1;
  for (int i = 0; i < cuda_count; ++i) {
    CUdevice d;
    int bus = -1, device = -1, domain = -1;
    CHECK(cuDeviceGet(&d, i));
    CHECK(cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d));
    CHECK(cuDeviceGetAttribute(&device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d));
    CHECK(cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d));
    if (bus == props.pciBusID && device == props.pciDeviceID && domain == props.pciDomainID)
      cdev = d;
  }
  if (cdev < 0) {
    std::fprintf(stderr, "weft device %d not found among CUDA devices\n", dev);
    return 1;
  }

  Weft w;
  CHECK(hipModuleLoad(&w.module, cubin.c_str()));
  CHECK(hipModuleGetFunction(&w.fn, w.module, "tick"));
  CHECK(hipStreamCreateWithFlags(&w.s, hipStreamNonBlocking));
  CHECK(hipMalloc(&w.counter, sizeof(int)));
  CHECK(hipMemset(w.counter, 0, sizeof(int)));

  Cuda c;
  CUcontext ctx = nullptr;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, cdev));  // the context weft uses too
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuModuleLoad(&c.module, cubin.c_str()));
  CHECK(cuModuleGetFunction(&c.fn, c.module, "tick"));
  CHECK(cuStreamCreate(&c.s, CU_STREAM_NON_BLOCKING));
  CHECK(cuMemAlloc(&c.counter, sizeof(int)));
  CHECK(cuMemsetD32(c.counter, 0, 1));

  // ---- the 100-kernel chain ----
  hipGraph_t wg = w.capture(kChain);
  hipGraphExec_t we = nullptr;
  CHECK(hipGraphInstantiate(&we, wg, nullptr, nullptr, 0));
  CUgraph cg = c.capture(kChain);
  CUgraphExec ce = nullptr;
  CHECK(cuGraphInstantiate(&ce, cg, 0));

  // Correctness first: one replay adds 100.
  CHECK(hipMemset(w.counter, 0, sizeof(int)));
  CHECK(hipGraphLaunch(we, w.s));
  CHECK(hipStreamSynchronize(w.s));
  int value = 0;
  CHECK(hipMemcpy(&value, w.counter, sizeof value, hipMemcpyDeviceToHost));
  if (value != kChain) {
    std::fprintf(stderr, "weft replay counted %d, expected %d\n", value, kChain);
    return 1;
  }

  std::vector<double> w_direct, c_direct, w_replay, c_replay, w_host, c_host;
  std::vector<double> wi100, ci100, wi8k, ci8k, wi_new, wcap_new, ccap_new;
  hipGraph_t wbig = nullptr;
  CUgraph cbig = nullptr;
  for (int i = 0; i < 20; ++i) {  // warm up every path (the SetParams row too: on an exec
    for (int k = 0; k < kChain; ++k) w.launch(), c.launch();  // never launched CUDA is slower)
    CHECK(hipGraphLaunch(we, w.s));
    CHECK(cuGraphLaunch(ce, c.s));
  }
  CHECK(hipStreamSynchronize(w.s));
  CHECK(cuStreamSynchronize(c.s));
  if (!setparams_only) {  // every row but SetParams

    for (int r = 0; r < reps; ++r) {
      auto t0 = Clock::now();
      for (int i = 0; i < chains; ++i) {
        for (int k = 0; k < kChain; ++k) w.launch();
        CHECK(hipStreamSynchronize(w.s));
      }
      w_direct.push_back(us_since(t0) / (chains * kChain));
      t0 = Clock::now();
      for (int i = 0; i < chains; ++i) {
        for (int k = 0; k < kChain; ++k) c.launch();
        CHECK(cuStreamSynchronize(c.s));
      }
      c_direct.push_back(us_since(t0) / (chains * kChain));
      t0 = Clock::now();
      for (int i = 0; i < chains; ++i) {
        CHECK(hipGraphLaunch(we, w.s));
        CHECK(hipStreamSynchronize(w.s));
      }
      w_replay.push_back(us_since(t0) / (chains * kChain));
      t0 = Clock::now();
      for (int i = 0; i < chains; ++i) {
        CHECK(cuGraphLaunch(ce, c.s));
        CHECK(cuStreamSynchronize(c.s));
      }
      c_replay.push_back(us_since(t0) / (chains * kChain));
      // Host time of one launch call (not waited; the queue is drained after).
      t0 = Clock::now();
      for (int i = 0; i < 20; ++i) CHECK(hipGraphLaunch(we, w.s));
      w_host.push_back(us_since(t0) / 20);
      CHECK(hipStreamSynchronize(w.s));
      t0 = Clock::now();
      for (int i = 0; i < 20; ++i) CHECK(cuGraphLaunch(ce, c.s));
      c_host.push_back(us_since(t0) / 20);
      CHECK(cuStreamSynchronize(c.s));
    }

    // ---- instantiate (the executable graph is destroyed outside the timing) ----
    wbig = w.capture(kBig);
    cbig = c.capture(kBig);
    auto inst_w = [&](hipGraph_t g) {
      hipGraphExec_t e = nullptr;
      auto t0 = Clock::now();
      CHECK(hipGraphInstantiate(&e, g, nullptr, nullptr, 0));
      double t = us_since(t0);
      CHECK(hipGraphExecDestroy(e));
      return t;
    };
    auto inst_c = [&](CUgraph g) {
      CUgraphExec e = nullptr;
      auto t0 = Clock::now();
      CHECK(cuGraphInstantiate(&e, g, 0));
      double t = us_since(t0);
      CHECK(cuGraphExecDestroy(e));
      return t;
    };
    for (int r = 0; r < reps; ++r) {
      wi100.push_back(inst_w(wg));
      ci100.push_back(inst_c(cg));
    }
    for (int r = 0; r < std::max(3, reps / 3); ++r) {
      wi8k.push_back(inst_w(wbig));
      ci8k.push_back(inst_c(cbig));
    }
    // A graph never instantiated before (other kernel arguments, so weft's
    // CUgraph cache cannot help), and capture + instantiate end to end.
    int* spare_w = nullptr;
    CUdeviceptr spare_c = 0;
    CHECK(hipMalloc(&spare_w, 64 * sizeof(int)));
    CHECK(cuMemAlloc(&spare_c, 64 * sizeof(int)));
    int* const own_w = w.counter;
    const CUdeviceptr own_c = c.counter;
    for (int r = 0; r < std::min(reps, 60); ++r) {
      w.counter = spare_w + r + 1;
      auto t0 = Clock::now();
      hipGraph_t g = w.capture(kChain);
      double captured = us_since(t0);
      double inst = inst_w(g);
      wi_new.push_back(inst);
      wcap_new.push_back(captured + inst);
      CHECK(hipGraphDestroy(g));
      c.counter = spare_c + (r + 1) * sizeof(int);
      t0 = Clock::now();
      CUgraph cgr = c.capture(kChain);
      captured = us_since(t0);
      ccap_new.push_back(captured + inst_c(cgr));
      CHECK(cuGraphDestroy(cgr));
    }
    w.counter = own_w;
    c.counter = own_c;
  }  // every row but SetParams

  // ---- one-node SetParams ----
  size_t n = 0;
  CHECK(hipGraphGetNodes(wg, nullptr, &n));
  std::vector<hipGraphNode_t> wnodes(n);
  CHECK(hipGraphGetNodes(wg, wnodes.data(), &n));
  hipKernelNodeParams wp{};
  CHECK(hipGraphKernelNodeGetParams(wnodes[0], &wp));
  int* target = w.counter;
  void* wargs[] = {&target};
  wp.kernelParams = wargs;
  CHECK(cuGraphGetNodes(cg, nullptr, &n));
  std::vector<CUgraphNode> cnodes(n);
  CHECK(cuGraphGetNodes(cg, cnodes.data(), &n));
  CUDA_KERNEL_NODE_PARAMS cp{};
  CHECK(cuGraphKernelNodeGetParams(cnodes[0], &cp));
  CUdeviceptr ctarget = c.counter;
  void* cargs[] = {&ctarget};
  cp.kernelParams = cargs;
  cp.extra = nullptr;
  const int calls = quick ? 1000 : 10000;
  std::vector<double> wset, cset;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    for (int i = 0; i < calls; ++i) CHECK(hipGraphExecKernelNodeSetParams(we, wnodes[0], &wp));
    wset.push_back(us_since(t0) / calls);
    t0 = Clock::now();
    for (int i = 0; i < calls; ++i) CHECK(cuGraphExecKernelNodeSetParams(ce, cnodes[0], &cp));
    cset.push_back(us_since(t0) / calls);
  }
  if (setparams_only) {
    std::printf("| exec kernel-node SetParams, one node | %.3f | %.3f | %.2fx | weft <= 1.5x |\n",
                median(wset), median(cset), median(wset) / median(cset));
    CHECK(hipGraphExecDestroy(we));
    CHECK(hipGraphDestroy(wg));
    CHECK(cuGraphExecDestroy(ce));
    CHECK(cuGraphDestroy(cg));
    return 0;
  }
  // ---- hipGraphExecUpdate on 8192 nodes (weft only) ----
  hipGraphExec_t webig = nullptr;
  CHECK(hipGraphInstantiate(&webig, wbig, nullptr, nullptr, 0));
  hipGraphNode_t err = nullptr;
  hipGraphExecUpdateResult res;
  std::vector<double> upd;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    CHECK(hipGraphExecUpdate(webig, wbig, &err, &res));
    upd.push_back(us_since(t0));
  }
  CHECK(hipStreamSynchronize(w.s));
  CHECK(hipMemset(w.counter, 0, sizeof(int)));
  CHECK(hipGraphLaunch(webig, w.s));
  CHECK(hipStreamSynchronize(w.s));
  CHECK(hipMemcpy(&value, w.counter, sizeof value, hipMemcpyDeviceToHost));
  if (value != kBig) {
    std::fprintf(stderr, "weft 8192-node replay counted %d\n", value);
    return 1;
  }

  auto row = [](const char* what, double weft, double cuda, const char* target) {
    std::printf("| %s | %.3f | %.3f | %.2fx | %s |\n", what, weft, cuda, weft / cuda, target);
  };
  std::printf("bench_graphs_cuda on weft device %d: %s (%s)\n\n", dev, props.name,
              props.gcnArchName);
  std::printf(
      "| measurement (µs) | weft | CUDA driver | weft/CUDA | target |\n|---|---|---|---|---|\n");
  row("100-kernel chain, direct launches, per kernel", median(w_direct), median(c_direct), "");
  row("100-kernel chain, graph replay, per node", median(w_replay), median(c_replay), "≤ 1.05x");
  row("graph launch call, host time (100 nodes)", median(w_host), median(c_host), "");
  row("instantiate, 100 nodes", median(wi100), median(ci100), "≤ 1.5x");
  row("instantiate, 8192 nodes", median(wi8k), median(ci8k), "");
  row("instantiate, 100 nodes, a graph never instantiated", median(wi_new), median(ci100), "");
  row("capture + instantiate, 100 nodes, new graph", median(wcap_new), median(ccap_new), "");
  row("exec kernel-node SetParams, one node", median(wset), median(cset), "");
  std::printf("\nweft replay per node vs weft direct launch: %.3fx\n",
              median(w_replay) / median(w_direct));
  std::printf("weft hipGraphExecUpdate, 8192 nodes, nothing changed: %.3f ms\n",
              median(upd) / 1000.0);

  CHECK(hipGraphExecDestroy(webig));
  CHECK(hipGraphExecDestroy(we));
  CHECK(hipGraphDestroy(wbig));
  CHECK(hipGraphDestroy(wg));
  CHECK(cuGraphExecDestroy(ce));
  CHECK(cuGraphDestroy(cbig));
  CHECK(cuGraphDestroy(cg));
  return 0;
}
