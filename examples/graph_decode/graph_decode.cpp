// SPDX-License-Identifier: MIT
// A toy decode step, as an inference server runs it per token: an embedding
// lookup, 16 layers of (norm, matrix-vector product, activation, residual)
// and an output copy -- 66 small kernels. The step is captured once into a
// graph and replayed per token; each token's input row and output slot are
// patched into the plan with hipGraphExecKernelNodeSetParams. The program
// decodes the same tokens eagerly and through the graph, checks that both give
// the same tokens, and prints tokens/s for each.
//
// Build: part of the weft build (examples/meson.build); runs on any agent
// that runs single-source kernels. Usage: graph_decode [tokens]
#include <hip/hip_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr int kHidden = 256;
constexpr int kLayers = 16;
constexpr int kVocab = 64;  // embedding rows
constexpr int kBlock = 64;

__global__ void embed(const float* row, float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = row[i];
}

// h = x / rms(x); every thread computes the norm itself (no barrier needed).
__global__ void rms_norm(const float* x, float* h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.f;
  for (int j = 0; j < n; ++j) sum += x[j] * x[j];
  h[i] = x[i] / std::sqrt(sum / n + 1e-6f);
}

__global__ void mat_vec(const float* w, const float* h, float* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.f;
  for (int j = 0; j < n; ++j) acc += w[i * n + j] * h[j];
  u[i] = acc;
}

__global__ void silu(float* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i] = u[i] / (1.f + std::exp(-u[i]));
}

__global__ void residual(float* x, const float* u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += u[i];
}

__global__ void emit(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i];
}

void check(hipError_t rc, const char* what) {
  if (rc != hipSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, hipGetErrorName(rc));
    std::exit(1);
  }
}
#define CHECK(expr) check((expr), #expr)

struct Model {
  float* embeddings = nullptr;  // kVocab x kHidden
  float* weights = nullptr;     // kLayers x kHidden x kHidden
  float* x = nullptr;
  float* h = nullptr;
  float* u = nullptr;
  float* outputs = nullptr;  // one row per token
};

// One decode step on `s`: reads embedding row `row`, writes `out`.
void step(const Model& m, const float* row, float* out, hipStream_t s) {
  const dim3 grid(kHidden / kBlock), block(kBlock);
  hipLaunchKernelGGL(embed, grid, block, 0, s, row, m.x, kHidden);
  for (int l = 0; l < kLayers; ++l) {
    const float* w = m.weights + size_t(l) * kHidden * kHidden;
    hipLaunchKernelGGL(rms_norm, grid, block, 0, s, m.x, m.h, kHidden);
    hipLaunchKernelGGL(mat_vec, grid, block, 0, s, w, m.h, m.u, kHidden);
    hipLaunchKernelGGL(silu, grid, block, 0, s, m.u, kHidden);
    hipLaunchKernelGGL(residual, grid, block, 0, s, m.x, m.u, kHidden);
  }
  hipLaunchKernelGGL(emit, grid, block, 0, s, m.x, out, kHidden);
  CHECK(hipGetLastError());
}

// The next token: the largest of the first kVocab outputs.
int next_token(const float* out) {
  int best = 0;
  for (int i = 1; i < kVocab; ++i)
    if (out[i] > out[best]) best = i;
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int tokens = argc > 1 ? std::atoi(argv[1]) : 200;
  hipStream_t s = nullptr;
  CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));

  Model m;
  std::vector<float> host(size_t(kLayers) * kHidden * kHidden);
  unsigned seed = 12345;
  auto random = [&] {
    seed = seed * 1664525u + 1013904223u;
    return (float(seed >> 8) / float(1 << 24) - 0.5f) * 0.1f;
  };
  for (float& v : host) v = random();
  CHECK(hipMalloc(&m.weights, host.size() * sizeof(float)));
  CHECK(hipMemcpy(m.weights, host.data(), host.size() * sizeof(float), hipMemcpyHostToDevice));
  host.resize(size_t(kVocab) * kHidden);
  for (float& v : host) v = random() * 20.f;
  CHECK(hipMalloc(&m.embeddings, host.size() * sizeof(float)));
  CHECK(hipMemcpy(m.embeddings, host.data(), host.size() * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMalloc(&m.x, kHidden * sizeof(float)));
  CHECK(hipMalloc(&m.h, kHidden * sizeof(float)));
  CHECK(hipMalloc(&m.u, kHidden * sizeof(float)));
  float* out_host = nullptr;  // pinned: the host reads every token's output
  CHECK(hipHostMalloc(reinterpret_cast<void**>(&out_host), size_t(tokens) * kHidden * sizeof(float),
                      0));
  m.outputs = out_host;

  using Clock = std::chrono::steady_clock;
  // ---- eager: every kernel launched per token ----
  std::vector<int> eager_tokens;
  int token = 1;
  auto t0 = Clock::now();
  for (int t = 0; t < tokens; ++t) {
    float* out = m.outputs + size_t(t) * kHidden;
    step(m, m.embeddings + size_t(token) * kHidden, out, s);
    CHECK(hipStreamSynchronize(s));
    token = next_token(out);
    eager_tokens.push_back(token);
  }
  double eager_s = std::chrono::duration<double>(Clock::now() - t0).count();

  // ---- graph: captured once, patched and replayed per token ----
  hipGraph_t graph = nullptr;
  CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  step(m, m.embeddings, m.outputs, s);
  CHECK(hipStreamEndCapture(s, &graph));
  size_t count = 0;
  CHECK(hipGraphGetNodes(graph, nullptr, &count));
  std::vector<hipGraphNode_t> nodes(count);
  CHECK(hipGraphGetNodes(graph, nodes.data(), &count));
  hipGraphNode_t embed_node = nodes.front(), emit_node = nodes.back();
  hipGraphExec_t exec = nullptr;
  CHECK(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  hipKernelNodeParams embed_params{}, emit_params{};
  CHECK(hipGraphKernelNodeGetParams(embed_node, &embed_params));
  CHECK(hipGraphKernelNodeGetParams(emit_node, &emit_params));
  const float* row = nullptr;
  float* out = nullptr;
  int n = kHidden;
  void* embed_args[] = {&row, &m.x, &n};
  void* emit_args[] = {&m.x, &out, &n};
  embed_params.kernelParams = embed_args;
  emit_params.kernelParams = emit_args;

  std::vector<int> graph_tokens;
  token = 1;
  t0 = Clock::now();
  for (int t = 0; t < tokens; ++t) {
    row = m.embeddings + size_t(token) * kHidden;
    out = m.outputs + size_t(t) * kHidden;
    CHECK(hipGraphExecKernelNodeSetParams(exec, embed_node, &embed_params));
    CHECK(hipGraphExecKernelNodeSetParams(exec, emit_node, &emit_params));
    CHECK(hipGraphLaunch(exec, s));
    CHECK(hipStreamSynchronize(s));
    token = next_token(out);
    graph_tokens.push_back(token);
  }
  double graph_s = std::chrono::duration<double>(Clock::now() - t0).count();

  bool same = eager_tokens == graph_tokens;
  std::printf("graph_decode: %zu kernels per token, %d tokens\n", count, tokens);
  std::printf("  eager : %8.1f tokens/s\n", tokens / eager_s);
  std::printf("  graph : %8.1f tokens/s  (%.2fx)\n", tokens / graph_s, eager_s / graph_s);
  std::printf("  tokens %s (first five: %d %d %d %d %d)\n", same ? "match" : "DIFFER",
              graph_tokens[0], graph_tokens[1 % tokens], graph_tokens[2 % tokens],
              graph_tokens[3 % tokens], graph_tokens[4 % tokens]);

  CHECK(hipGraphExecDestroy(exec));
  CHECK(hipGraphDestroy(graph));
  CHECK(hipHostFree(out_host));
  for (float* p : {m.embeddings, m.weights, m.x, m.h, m.u}) CHECK(hipFree(p));
  CHECK(hipStreamDestroy(s));
  return same && count == 2 + 4 * kLayers ? 0 : 1;
}
