// SPDX-License-Identifier: MIT
// Helpers shared by the graph conformance tests: a few kernels, RAII guards for
// graphs and executable graphs, and memory readouts. Public HIP API only.
#ifndef WEFT_TESTS_GRAPH_GRAPH_TEST_HPP
#define WEFT_TESTS_GRAPH_GRAPH_TEST_HPP

#include "hip_test.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace graph_test {

// Host-node callbacks: add 1 / 10 to the int at `p`.
inline void bump(void* p) { ++*static_cast<int*>(p); }
inline void bump_ten(void* p) { *static_cast<int*>(p) += 10; }

inline __global__ void add_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

inline __global__ void scale(int* p, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}

inline __global__ void increment(int* counter) { atomicAdd(counter, 1); }

inline __global__ void store(int* p, int value) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *p = value;
}

// y[i] = x[i] + k
inline __global__ void add_into(const int* x, int* y, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + k;
}

// In single-source code threadIdx/blockIdx/blockDim/gridDim are macros, which
// also hit hipKernelNodeParams' fields of those names: reach them through
// these helpers.
#pragma push_macro("gridDim")
#pragma push_macro("blockDim")
#undef gridDim
#undef blockDim
inline hipKernelNodeParams kernel_node(void* func, dim3 grid, dim3 block, void** args,
                                       unsigned shared_bytes = 0) {
  hipKernelNodeParams p{};
  p.func = func;
  p.gridDim = grid;
  p.blockDim = block;
  p.kernelParams = args;
  p.sharedMemBytes = shared_bytes;
  return p;
}
inline dim3& grid_of(hipKernelNodeParams& p) { return p.gridDim; }
inline dim3& block_of(hipKernelNodeParams& p) { return p.blockDim; }
#pragma pop_macro("blockDim")
#pragma pop_macro("gridDim")

class Graph {
 public:
  Graph() { HIP_CHECK(hipGraphCreate(&g_, 0)); }
  explicit Graph(hipGraph_t adopted) : g_(adopted) {}
  ~Graph() {
    if (g_) (void)hipGraphDestroy(g_);
  }
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  hipGraph_t get() const { return g_; }
  hipGraph_t* out() { return &g_; }

 private:
  hipGraph_t g_ = nullptr;
};

class Exec {
 public:
  Exec() = default;
  explicit Exec(hipGraph_t graph) {
    HIP_CHECK(hipGraphInstantiate(&e_, graph, nullptr, nullptr, 0));
  }
  ~Exec() {
    if (e_) (void)hipGraphExecDestroy(e_);
  }
  Exec(const Exec&) = delete;
  Exec& operator=(const Exec&) = delete;
  hipGraphExec_t get() const { return e_; }
  hipGraphExec_t* out() { return &e_; }

 private:
  hipGraphExec_t e_ = nullptr;
};

inline size_t node_count(hipGraph_t g) {
  size_t n = 0;
  HIP_CHECK(hipGraphGetNodes(g, nullptr, &n));
  return n;
}

inline size_t edge_count(hipGraph_t g) {
  size_t n = 0;
  HIP_CHECK(hipGraphGetEdges(g, nullptr, nullptr, &n));
  return n;
}

inline std::vector<hipGraphNode_t> nodes_of(hipGraph_t g) {
  size_t n = node_count(g);
  std::vector<hipGraphNode_t> nodes(n);
  HIP_CHECK(hipGraphGetNodes(g, nodes.data(), &n));
  return nodes;
}

// Resident set size of the process in KiB (from /proc/self/status).
inline long rss_kib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
  std::fclose(f);
  return kib;
}

}  // namespace graph_test

#endif  // WEFT_TESTS_GRAPH_GRAPH_TEST_HPP
