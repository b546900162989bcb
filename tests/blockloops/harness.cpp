// SPDX-License-Identifier: MIT
// Runs the block_loops test kernels (kernels.cpp, built with clang++-15 and the
// pass) without weft's engine: the markers get their meaning from a per-launch
// context here, one block at a time. A kernel the pass rewrote reads none of the
// per-thread markers (threadIdx, barriers, warp operations): the harness counts
// every such call it sees, and the tests require zero. Results are checked
// against values computed on the host. Kernels built with BL_RANGES run ranges of
// g_range_blocks blocks per call (the last one shorter): each must enter every block
// of its range once, in order, with the right blockIdx, and stop when told to.
#include "kernels.h"
#include "markers.h"

#include <dlfcn.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

namespace {

struct Context {
  bl_dim3 grid, block, block_idx, thread_idx;
  void* dynamic_shared = nullptr;
  bool whole_block = false;
  int per_thread_calls = 0;  // markers a whole-block kernel must no longer call
  int barriers_without_fibers = 0;
  std::string failure;
  // The range form: the range being run, the block it must enter next, the blocks it
  // entered, what it did wrong (entered a block out of order or outside its range, ran
  // past a stop, or left blocks of its range out), and when the harness says stop.
  bool in_range = false;
  uint64_t range_begin = 0, range_end = 0, next_block = 0, entered = 0;
  int range_errors = 0;
  int64_t stop_after = -1;  // blocks entered before __weft_cpu_block_enter says stop
  bool stopped = false;
};
Context g_ctx;
uint64_t g_range_blocks = 4;  // blocks per range in the range form

uint32_t pick(const bl_dim3& d, uint32_t dim) {
  return dim == 0 ? d.x : dim == 1 ? d.y : dim == 2 ? d.z : 0;
}

void reset() { g_ctx = Context{}; }

}  // namespace

extern "C" {
uint32_t __weft_cpu_thread_idx(uint32_t dim) {
  if (g_ctx.whole_block) ++g_ctx.per_thread_calls;
  return pick(g_ctx.thread_idx, dim);
}
uint32_t __weft_cpu_block_idx(uint32_t dim) { return pick(g_ctx.block_idx, dim); }
uint32_t __weft_cpu_block_dim(uint32_t dim) { return dim < 3 ? pick(g_ctx.block, dim) : 1; }
uint32_t __weft_cpu_grid_dim(uint32_t dim) { return dim < 3 ? pick(g_ctx.grid, dim) : 1; }
// Without fibers a barrier cannot wait for the other threads: count it, the test fails.
void __weft_cpu_barrier(void) {
  ++g_ctx.per_thread_calls;
  ++g_ctx.barriers_without_fibers;
}
int __weft_cpu_barrier_reduce(int predicate, int) {
  __weft_cpu_barrier();
  return predicate;
}
uint64_t __weft_cpu_warp_read(uint64_t value, uint32_t) {
  __weft_cpu_barrier();
  return value;
}
uint64_t __weft_cpu_warp_ballot(int predicate) {
  __weft_cpu_barrier();
  return predicate != 0;
}
void __weft_cpu_warp_sync(void) { __weft_cpu_barrier(); }
void* __weft_cpu_dynamic_shared(void) { return g_ctx.dynamic_shared; }
// As the engine: a failed block stops the launch (weftKernelFail does not return there).
void weftKernelFail(const char* why) { g_ctx.failure = why; }
uint64_t __weft_cpu_block_range(uint32_t which) {
  if (!g_ctx.in_range) ++g_ctx.range_errors;
  return which == 0 ? g_ctx.range_begin : g_ctx.range_end;
}
int __weft_cpu_block_enter(uint32_t x, uint32_t y, uint32_t z) {
  const uint64_t linear = x + uint64_t(g_ctx.grid.x) * (y + uint64_t(g_ctx.grid.y) * z);
  if (!g_ctx.in_range || g_ctx.stopped || x >= g_ctx.grid.x || y >= g_ctx.grid.y ||
      z >= g_ctx.grid.z || linear != g_ctx.next_block || linear >= g_ctx.range_end)
    ++g_ctx.range_errors;
  if (!g_ctx.failure.empty() ||
      (g_ctx.stop_after >= 0 && g_ctx.entered >= uint64_t(g_ctx.stop_after))) {
    g_ctx.stopped = true;
    return 1;
  }
  g_ctx.block_idx = {x, y, z};
  g_ctx.next_block = linear + 1;
  ++g_ctx.entered;
  return 0;
}
}

void bl::launch(int form, bl_dim3 grid, bl_dim3 block, size_t dynamic_shared, void (*body)(void*),
                void* closure) {
  g_ctx.grid = grid;
  g_ctx.block = block;
  g_ctx.whole_block = form != 0;
  std::vector<unsigned char> shared(dynamic_shared + 1);
  g_ctx.dynamic_shared = shared.data();
  if (form == 2) {
    const uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
    for (uint64_t first = 0; first < blocks && !g_ctx.stopped; first += g_range_blocks) {
      g_ctx.in_range = true;
      g_ctx.range_begin = g_ctx.next_block = first;
      g_ctx.range_end = std::min(blocks, first + g_range_blocks);
      g_ctx.block_idx = {~0u, ~0u, ~0u};  // the kernel publishes each block it enters
      body(closure);
      g_ctx.in_range = false;
      if (!g_ctx.stopped && g_ctx.next_block != g_ctx.range_end) ++g_ctx.range_errors;
    }
    return;
  }
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx) {
        g_ctx.block_idx = {bx, by, bz};
        if (form == 1) {
          body(closure);
          continue;
        }
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx) {
              g_ctx.thread_idx = {tx, ty, tz};
              body(closure);
            }
      }
}

namespace {

bool close(float a, float b, float tol = 1e-5f) {
  return std::fabs(a - b) <= tol * std::max(1.0f, std::fabs(b));
}

#define REQUIRE_WHOLE_BLOCK(run)        \
  do {                                  \
    reset();                            \
    REQUIRE((run) == 1);                \
    CHECK(g_ctx.per_thread_calls == 0); \
    CHECK(g_ctx.failure.empty());       \
    CHECK(g_ctx.range_errors == 0);     \
  } while (0)

}  // namespace

TEST_CASE("blockloops: vectorAdd and saxpy run as loops over the block", "[blockloops]") {
  for (unsigned threads : {256u, 64u, 100u}) {
    const int n = 10000;  // not a multiple of any block size: the last block has idle threads
    std::vector<float> a(n), b(n), c(n + 1, -1.0f);
    for (int i = 0; i < n; ++i) {
      a[i] = float(i % 101) * 0.5f;
      b[i] = float(i % 37) - 3.0f;
    }
    REQUIRE_WHOLE_BLOCK(bl_run_vector_add(a.data(), b.data(), c.data(), n, threads));
    for (int i = 0; i < n; ++i) REQUIRE(c[i] == a[i] + b[i]);
    CHECK(c[n] == -1.0f);
    std::vector<float> y = b;
    REQUIRE_WHOLE_BLOCK(bl_run_saxpy(1.5f, a.data(), y.data(), n, threads));
    for (int i = 0; i < n; ++i) REQUIRE(close(y[i], 1.5f * a[i] + b[i]));
  }
}

TEST_CASE("blockloops: shared-memory block reduce with barriers in a loop", "[blockloops]") {
  for (unsigned threads : {256u, 32u, 1024u}) {
    const unsigned blocks = 37;
    std::vector<float> in(blocks * threads), out(blocks, 0.0f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 17) * 0.25f;
    REQUIRE_WHOLE_BLOCK(bl_run_block_sum(in.data(), out.data(), blocks, threads));
    for (unsigned b = 0; b < blocks; ++b) {
      double s = 0;
      for (unsigned t = 0; t < threads; ++t) s += in[b * threads + t];
      REQUIRE(close(out[b], float(s)));
    }
  }
}

TEST_CASE("blockloops: warp-shuffle reduce becomes loops over the warp's lanes", "[blockloops]") {
  for (unsigned threads : {256u, 32u, 96u, 1024u}) {
    const unsigned blocks = 19;
    std::vector<float> in(blocks * threads), out(blocks * threads / 32, 0.0f);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 23) - 7.0f;
    REQUIRE_WHOLE_BLOCK(bl_run_warp_sum(in.data(), out.data(), blocks, threads));
    for (size_t w = 0; w < out.size(); ++w) {
      float s = 0;
      for (unsigned l = 0; l < 32; ++l) s += in[w * 32 + l];
      REQUIRE(close(out[w], s));
    }
  }
}

// One round of __shfl_down(v, k) / __shfl_xor(v, m) over every warp of `v`, as a GPU does it.
void down_round(std::vector<float>& v, unsigned k) {
  std::vector<float> r = v;
  for (size_t i = 0; i < v.size(); ++i)
    if (i % 32 + k < 32) r[i] = v[i] + v[i + k];
    else r[i] = v[i] + v[i];
  v = r;
}

TEST_CASE("blockloops: rounds before a store by some lanes compute what those lanes read",
          "[blockloops]") {
  struct Shape {
    unsigned tx, ty;
  };
  for (Shape s : {Shape{256, 1}, Shape{32, 1}, Shape{64, 3}, Shape{1024, 1}}) {
    const unsigned blocks = 7, n = blocks * s.tx * s.ty;
    std::vector<float> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = float((i * 7) % 29) - 9.0f;
    // Lanes 0-3 store the sum of lanes 0-3 (xor 2, then xor 1); the others leave the sentinel.
    std::vector<float> out(n, -1000.0f);
    REQUIRE_WHOLE_BLOCK(bl_run_warp_low_lanes(in.data(), out.data(), blocks, s.tx, s.ty));
    for (size_t i = 0; i < n; ++i) {
      size_t w = i / 32 * 32;
      float want = i % 32 < 4 ? in[w] + in[w + 1] + in[w + 2] + in[w + 3] : -1000.0f;
      REQUIRE(close(out[i], want));
    }
    // Every lane's value after two rounds is seen (trace); lane 0's after five, plus half of
    // its value after three.
    std::vector<float> sums(n / 32, 0.0f), trace(n, 0.0f);
    REQUIRE_WHOLE_BLOCK(
        bl_run_warp_traced_sum(in.data(), sums.data(), trace.data(), blocks, s.tx, s.ty));
    std::vector<float> v = in;
    down_round(v, 16);
    down_round(v, 8);
    for (size_t i = 0; i < n; ++i) REQUIRE(close(trace[i], v[i]));
    down_round(v, 4);
    std::vector<float> mid = v;
    down_round(v, 2);
    down_round(v, 1);
    for (size_t w = 0; w < n / 32; ++w) REQUIRE(close(sums[w], v[w * 32] + mid[w * 32] * 0.5f));
  }
}

TEST_CASE("blockloops: thread coordinates in 3-D blocks, across barriers", "[blockloops]") {
  struct Shape {
    unsigned tx, ty, tz;
  };
  for (Shape s : {Shape{4, 3, 5}, Shape{32, 2, 3}, Shape{1, 1, 7}, Shape{7, 1, 1}, Shape{2, 8, 1},
                  Shape{64, 1, 2}}) {
    const unsigned blocks = 3, n = s.tx * s.ty * s.tz;
    std::vector<unsigned> out(blocks * n * 4, 0xdeadu);
    REQUIRE_WHOLE_BLOCK(bl_run_thread_coords(out.data(), blocks, s.tx, s.ty, s.tz));
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned z = 0; z < s.tz; ++z)
        for (unsigned y = 0; y < s.ty; ++y)
          for (unsigned x = 0; x < s.tx; ++x) {
            unsigned t = x + s.tx * (y + s.ty * z);
            const unsigned* o = &out[(b * n + t) * 4];
            REQUIRE(o[0] == x);
            REQUIRE(o[1] == y + 1000 * z);
            REQUIRE(o[2] == z);
            REQUIRE(o[3] == t);
          }
  }
}

TEST_CASE("blockloops: tiled SGEMM (16x16 tiles, 2-D blocks)", "[blockloops]") {
  const int n = 64;
  std::vector<float> A(n * n), B(n * n), C(n * n, 0.0f);
  for (int i = 0; i < n * n; ++i) {
    A[i] = float((i * 7) % 13) * 0.1f;
    B[i] = float((i * 5) % 11) * 0.1f;
  }
  REQUIRE_WHOLE_BLOCK(bl_run_sgemm(A.data(), B.data(), C.data(), n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float r = 0;
      for (int k = 0; k < n; ++k) r += A[i * n + k] * B[k * n + j];
      REQUIRE(close(C[i * n + j], r, 1e-4f));
    }
}

TEST_CASE("blockloops: threads that return early no longer take part", "[blockloops]") {
  const unsigned blocks = 5, threads = 64;
  std::vector<int> in(blocks * threads);
  std::iota(in.begin(), in.end(), 1);
  for (unsigned active : {40u, 1u, 64u}) {
    std::vector<int> out(blocks, -1);
    REQUIRE_WHOLE_BLOCK(bl_run_early_return_sum(in.data(), out.data(), blocks, threads, active));
    for (unsigned b = 0; b < blocks; ++b) {
      int s = 0;
      for (unsigned t = 0; t < active; ++t) s += in[b * threads + t];
      REQUIRE(out[b] == s);
    }
  }
}

TEST_CASE("blockloops: divergent control flow between barriers", "[blockloops]") {
  const unsigned blocks = 4, threads = 96;
  std::vector<int> in(blocks * threads), out(blocks * threads, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int((i * 31) % 50) - 10;
  REQUIRE_WHOLE_BLOCK(bl_run_divergent(in.data(), out.data(), blocks, threads));
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<int> local(threads), mine(threads);
    for (unsigned t = 0; t < threads; ++t) {
      int v = in[b * threads + t];
      if (t % 3 == 0) local[t] = v * 2;
      else if (t % 3 == 1) {
        local[t] = 0;
        for (int k = 0; k < v % 7; ++k) local[t] += k;
      } else local[t] = -v;
    }
    for (unsigned t = 0; t < threads; ++t) {
      mine[t] = local[t] + local[(t + threads - 1) % threads];
      if (mine[t] & 1) mine[t] *= 3;
    }
    for (unsigned t = 0; t < threads; ++t)
      REQUIRE(out[b * threads + t] == mine[(t + 1) % threads] + local[t]);
  }
}

TEST_CASE("blockloops: dynamic shared memory", "[blockloops]") {
  const unsigned blocks = 3, threads = 128;
  std::vector<float> in(blocks * threads), out(blocks * threads, 0.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i);
  REQUIRE_WHOLE_BLOCK(bl_run_reverse_dynamic(in.data(), out.data(), blocks, threads));
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t)
      REQUIRE(out[b * threads + t] == in[b * threads + threads - 1 - t]);
}

TEST_CASE("blockloops: atomics on shared and global memory", "[blockloops]") {
  const unsigned blocks = 6, threads = 128;
  std::vector<unsigned> in(blocks * threads), bins(16, 0), expect(16, 0);
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = unsigned((i * 2654435761u) >> 7);
    ++expect[in[i] % 16];
  }
  unsigned total = 0;
  REQUIRE_WHOLE_BLOCK(bl_run_histogram(in.data(), bins.data(), &total, blocks, threads));
  CHECK(bins == expect);
  CHECK(total == blocks);
}

TEST_CASE("blockloops: __syncthreads_count/_and/_or", "[blockloops]") {
  const unsigned blocks = 4, threads = 128;
  std::vector<int> in(blocks * threads);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int((i * 37) % 200) - 100 + int(i / threads);
  for (unsigned active : {128u, 77u}) {
    std::vector<int> out(blocks * 3, -1);
    REQUIRE_WHOLE_BLOCK(bl_run_sync_reduce(in.data(), out.data(), blocks, threads, active));
    for (unsigned b = 0; b < blocks; ++b) {
      int count = 0, all = 1, any = 0;
      for (unsigned t = 0; t < active; ++t) {
        int v = in[b * threads + t];
        count += v > 0;
        all &= v > -100;
        any |= v > 90;
      }
      CHECK(out[b * 3 + 0] == count);
      CHECK(out[b * 3 + 1] == all);
      CHECK(out[b * 3 + 2] == any);
    }
  }
}

TEST_CASE("blockloops: barriers inside nested loops", "[blockloops]") {
  const unsigned blocks = 3, threads = 64;
  const int rounds = 3, steps = 4;
  std::vector<float> in(blocks * threads), out(blocks * threads, 0.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float((i * 13) % 29);
  REQUIRE_WHOLE_BLOCK(bl_run_smooth(in.data(), out.data(), blocks, threads, rounds, steps));
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<float> cur(in.begin() + b * threads, in.begin() + (b + 1) * threads),
        sum(threads, 0.0f);
    for (int r = 0; r < rounds; ++r) {
      for (int s = 0; s < steps; ++s) {
        std::vector<float> next(threads);
        for (unsigned t = 0; t < threads; ++t)
          next[t] = (cur[t == 0 ? 0 : t - 1] + cur[t] + cur[t + 1 < threads ? t + 1 : t]) / 3.0f;
        cur = next;
        for (unsigned t = 0; t < threads; ++t) sum[t] += cur[t];
      }
      cur[0] += 1.0f;
    }
    for (unsigned t = 0; t < threads; ++t)
      REQUIRE(close(out[b * threads + t], cur[t] + sum[t], 1e-4f));
  }
}

TEST_CASE("blockloops: warp operations in divergent code (first warp only), ballot, syncwarp",
          "[blockloops]") {
  const unsigned blocks = 7, threads = 256;
  std::vector<float> in(blocks * threads), out(blocks, 0.0f);
  std::vector<unsigned> ballots(blocks, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 9) - (i % 64 < 8 ? 40.0f : 0.0f);
  REQUIRE_WHOLE_BLOCK(bl_run_two_level_sum(in.data(), out.data(), ballots.data(), blocks, threads));
  for (unsigned b = 0; b < blocks; ++b) {
    std::vector<float> partial(threads / 32, 0.0f);
    for (unsigned t = 0; t < threads; ++t) partial[t / 32] += in[b * threads + t];
    float total = 0;
    unsigned mask = 0;
    for (unsigned w = 0; w < threads / 32; ++w) total += partial[w];
    for (unsigned l = 0; l < 32; ++l)
      if (partial[l % (threads / 32)] > 0.0f && (l & 1)) mask |= 1u << l;
    CHECK(close(out[b], total, 1e-4f));
    CHECK(ballots[b] == mask);
  }
}

namespace {
// What a GPU returns to thread t of an n-thread block for a warp_read from lane `from`
// (the value the kernel passes): that lane's value when it is in the warp and the block.
uint64_t gpu_read(const std::vector<uint64_t>& vals, unsigned t, unsigned n, uint32_t from) {
  unsigned base = t & ~31u;
  return from < 32 && base + from < n ? vals[base + from] : vals[t];
}
uint32_t segment_source(int src, unsigned lane, int width) {
  int segment = int(lane & ~unsigned(width - 1));
  return (src < segment || src >= segment + width) ? lane : uint32_t(src);
}

// The 12 results of shuffle_forms (kernels.cpp) for one block, computed on the host.
std::vector<unsigned> shuffle_forms_expected(const unsigned* in, unsigned n, int d) {
  std::vector<uint64_t> v(in, in + n);
  std::vector<unsigned> out(size_t(n) * 12);
  auto each = [&](int k, auto from) {
    for (unsigned t = 0; t < n; ++t) out[t * 12 + k] = unsigned(gpu_read(v, t, n, from(t % 32)));
  };
  each(0, [](unsigned l) { return segment_source(int(l + 3), l, 8); });
  each(1, [](unsigned l) { return segment_source(int(l) - 5, l, 32); });
  each(2, [](unsigned l) { return segment_source(int(l ^ 6u), l, 32); });
  each(3, [](unsigned l) { return segment_source(int(l ^ 16u), l, 32); });
  each(4, [](unsigned l) { return segment_source(int(l & ~15u) + 7, l, 16); });
  each(5, [](unsigned) { return 31u; });
  each(6, [](unsigned l) { return l + 40; });
  each(7, [&](unsigned l) { return segment_source(int(l) + d, l, 32); });
  each(8, [](unsigned l) { return segment_source(int((l * 7) % 32), l, 32); });
  std::vector<uint64_t> scan = v;
  for (int o = 1; o < 32; o *= 2) {
    std::vector<uint64_t> next = scan;
    for (unsigned t = 0; t < n; ++t) {
      unsigned l = t % 32;
      uint64_t up = gpu_read(scan, t, n, segment_source(int(l) - o, l, 32));
      if (int(l) >= o) next[t] = uint32_t(scan[t] + up);
    }
    scan = next;
  }
  std::vector<uint64_t> sum = v;
  for (unsigned m = 4; m > 0; m /= 2) {
    std::vector<uint64_t> next = sum;
    for (unsigned t = 0; t < n; ++t)
      next[t] = uint32_t(sum[t] + gpu_read(sum, t, n, segment_source(int(t % 32 ^ m), t % 32, 8)));
    sum = next;
  }
  std::vector<uint64_t> seven(n, 7);
  for (unsigned t = 0; t < n; ++t) {
    out[t * 12 + 9] = unsigned(scan[t]);
    out[t * 12 + 10] = unsigned(sum[t]);
    out[t * 12 + 11] = unsigned(gpu_read(seven, t, n, t % 32 + 1)) + in[t];
  }
  return out;
}
}  // namespace

TEST_CASE("blockloops: shuffles at every width, source and block shape", "[blockloops]") {
  struct Shape {
    unsigned tx, ty;
    int d;
  };
  // Full warps, a partial last warp (100 = 3 x 32 + 4; 60 = 12 x 5 in 2-D), one short
  // warp, and block-uniform deltas in and out of range.
  const Shape shapes[] = {{64, 1, 1}, {100, 1, 2}, {12, 5, 0}, {20, 1, 33}, {256, 1, -3}};
  for (const Shape& s : shapes) {
    const unsigned blocks = 3, n = s.tx * s.ty;
    std::vector<unsigned> in(blocks * n), out(blocks * n * 12, 0);
    std::vector<uint64_t> in64(blocks * n), out64(blocks * n, 0);
    for (unsigned i = 0; i < blocks * n; ++i) {
      in[i] = i * 2654435761u ^ 0x5bd1e995u;
      in64[i] = (uint64_t(i) << 40) | (i * 40503u);
    }
    INFO("block " << s.tx << "x" << s.ty << ", d " << s.d);
    REQUIRE_WHOLE_BLOCK(bl_run_shuffle_forms(in.data(), out.data(), in64.data(), out64.data(), s.d,
                                             blocks, s.tx, s.ty));
    for (unsigned b = 0; b < blocks; ++b) {
      std::vector<unsigned> want = shuffle_forms_expected(in.data() + b * n, n, s.d);
      for (unsigned t = 0; t < n; ++t) {
        for (int k = 0; k < 12; ++k) {
          INFO("block " << b << ", thread " << t << ", form " << k);
          REQUIRE(out[(b * n + t) * 12 + k] == want[t * 12 + k]);
        }
        unsigned base = t & ~31u, src = t % 32 + 1 < 32 ? t % 32 + 1 : t % 32;
        uint64_t w = base + src < n ? in64[b * n + base + src] : in64[b * n + t];
        INFO("block " << b << ", thread " << t << ", 64-bit");
        REQUIRE(out64[b * n + t] == w);
      }
    }
  }
}

namespace {
// The 8 results of shuffle_shifts (kernels.cpp) for one tx x ty block, computed on the host.
std::vector<unsigned> shuffle_shifts_expected(const unsigned* in, unsigned tx, unsigned n, int d,
                                              unsigned m) {
  std::vector<uint64_t> v(in, in + n);
  std::vector<unsigned> out(size_t(n) * 8);
  for (unsigned t = 0; t < n; ++t) {
    unsigned xl = t % tx % 32, l = t % 32;
    uint32_t from[6] = {segment_source(int(xl) + d, xl, 32), segment_source(int(xl) - d, xl, 16),
                        segment_source(int(xl ^ m), xl, 32), segment_source(int(l ^ m), l, 16),
                        segment_source(int(l) + d, l, 8),    segment_source(int(l) - d, l, 32)};
    for (int k = 0; k < 6; ++k) out[t * 8 + k] = unsigned(gpu_read(v, t, n, from[k]));
  }
  auto rounds = [&](int k, auto next_amount, long first, auto source) {
    std::vector<uint64_t> acc = v;
    for (long a = first; a > 0; a = next_amount(a)) {
      std::vector<uint64_t> next = acc;
      for (unsigned t = 0; t < n; ++t)
        next[t] = uint32_t(acc[t] + gpu_read(acc, t, n, source(t % 32, a)));
      acc = next;
    }
    for (unsigned t = 0; t < n; ++t) out[t * 8 + k] = unsigned(acc[t]);
  };
  auto half = [](long a) { return a / 2; };
  rounds(6, half, long(m), [](unsigned l, long a) { return segment_source(int(l ^ a), l, 32); });
  rounds(7, half, long(d), [](unsigned l, long a) { return segment_source(int(l + a), l, 32); });
  return out;
}
}  // namespace

TEST_CASE("blockloops: shuffles by run-time amounts, on threadIdx.x's lane and the warp's",
          "[blockloops]") {
  struct Shape {
    unsigned tx, ty;
    int d;
    unsigned m;
  };
  // Rows of whole warps and not (2-D), partial last warps, amounts in and out of the warp,
  // xor masks that are powers of two and not.
  const Shape shapes[] = {{32, 3, 1, 8},  {20, 3, 3, 6},    {64, 1, 16, 16}, {100, 1, 5, 3},
                          {48, 2, -3, 1}, {256, 1, 40, 32}, {16, 4, 2, 4},   {7, 5, 31, 31}};
  for (const Shape& s : shapes) {
    const unsigned blocks = 2, n = s.tx * s.ty;
    std::vector<unsigned> in(blocks * n), out(blocks * n * 8, 0);
    for (unsigned i = 0; i < blocks * n; ++i) in[i] = i * 2246822519u ^ 0x27d4eb2fu;
    INFO("block " << s.tx << "x" << s.ty << ", d " << s.d << ", m " << s.m);
    REQUIRE_WHOLE_BLOCK(bl_run_shuffle_shifts(in.data(), out.data(), s.d, s.m, blocks, s.tx, s.ty));
    for (unsigned b = 0; b < blocks; ++b) {
      std::vector<unsigned> want = shuffle_shifts_expected(in.data() + b * n, s.tx, n, s.d, s.m);
      for (unsigned t = 0; t < n; ++t)
        for (int k = 0; k < 8; ++k) {
          INFO("block " << b << ", thread " << t << ", form " << k);
          REQUIRE(out[(b * n + t) * 8 + k] == want[t * 8 + k]);
        }
    }
  }
}

TEST_CASE("blockloops: a barrier the pass cannot reach stays on fibers, with a reason",
          "[blockloops]") {
  reset();
  std::vector<int> out(4, 0);
  // Left to the engine: the harness has no fibers, so only check the marker said 0.
  CHECK(bl_run_recursive(out.data(), 4) == 0);
  CHECK(g_ctx.barriers_without_fibers > 0);
  const void* reason =
      dlsym(RTLD_DEFAULT, "__weft_cpu_fiber_reason._ZN12_GLOBAL__N_116recursive_kernelEPi");
  REQUIRE(reason != nullptr);
  CHECK(std::string(static_cast<const char*>(reason)).find("recursive") != std::string::npos);
  REQUIRE_WHOLE_BLOCK(bl_run_empty(3, 64));
}

TEST_CASE(
    "blockloops: lanes at a warp operation while others wait at __syncthreads: a deadlock, "
    "reported",
    "[blockloops]") {
  reset();
  std::vector<int> out(3 * 64, 0);
  REQUIRE(bl_run_warp_barrier_deadlock(out.data(), 3, 64) == 1);
  CHECK(g_ctx.per_thread_calls == 0);
  CHECK(g_ctx.failure.find("deadlock") != std::string::npos);
  if (bl_kernels_form() == 2) {  // the failed block stops its range and the launch
    CHECK(g_ctx.entered == 1);
    CHECK(g_ctx.stopped);
    CHECK(g_ctx.range_errors == 0);
  }
}

TEST_CASE("blockloops: regions guarded by threadIdx.x below a uniform bound", "[blockloops]") {
  struct Shape {
    unsigned tx, ty;
  };
  const Shape shapes[] = {{64, 1}, {100, 1}, {16, 4}, {33, 3}, {1, 5}, {256, 1}};
  for (const Shape& s : shapes)
    for (int lim : {-5, 0, 1, 7, 50, 2000}) {
      const unsigned blocks = 3, n = s.tx * s.ty;
      std::vector<int> in(blocks * n), out(blocks * n, -1);
      for (unsigned i = 0; i < blocks * n; ++i) in[i] = int((i * 37u) % 101u) - 50;
      INFO("block " << s.tx << "x" << s.ty << ", lim " << lim);
      REQUIRE_WHOLE_BLOCK(bl_run_bounded(in.data(), out.data(), lim, blocks, s.tx, s.ty));
      for (unsigned b = 0; b < blocks; ++b) {
        std::vector<int> st(in.begin() + b * n, in.begin() + (b + 1) * n), kept(n);
        for (unsigned t = 0; t < n; ++t)
          if (int(t % s.tx) < lim) st[t] += 1000;
        for (unsigned t = 0; t < n; ++t)
          if (t % s.tx < unsigned(lim) / 2) st[t] *= 3;
        for (unsigned t = 0; t < n; ++t)
          if (t % s.tx < unsigned(in[b * n + t]) % 40u) st[t] ^= 1;
        for (unsigned h = s.tx / 2; h > 0; h /= 2)
          for (unsigned t = 0; t < n; ++t)
            if (t % s.tx < h) st[t] += st[t + h];
        for (unsigned t = 0; t < n; ++t) kept[t] = t % s.tx < 3 ? st[t - t % s.tx] : st[t] % 7;
        for (unsigned t = 0; t < n; ++t) {
          INFO("block " << b << ", thread " << t);
          REQUIRE(out[b * n + t] == st[t] + kept[t]);
        }
      }
    }
}

TEST_CASE("blockloops: blockIdx of a 3-D grid, whatever the ranges", "[blockloops]") {
  struct Shape {
    unsigned gx, gy, gz, tx, ty;
  };
  // Ranges of 1, 4, 7 and 1000 blocks (every range is one call in the range form): starts
  // in the middle of rows and planes, a last range shorter than the others, one range.
  const Shape shapes[] = {{5, 3, 2, 8, 2}, {1, 4, 3, 32, 1}, {7, 1, 1, 3, 3}, {2, 2, 5, 64, 1}};
  const uint64_t saved = g_range_blocks;
  for (uint64_t per : {1u, 4u, 7u, 1000u}) {
    g_range_blocks = per;
    for (const Shape& s : shapes)
      for (unsigned dim : {0u, 1u, 2u, 3u}) {
        const unsigned n = s.tx * s.ty, blocks = s.gx * s.gy * s.gz;
        std::vector<unsigned> out(size_t(blocks) * n * 4, ~0u);
        INFO("grid " << s.gx << "x" << s.gy << "x" << s.gz << ", block " << s.tx << "x" << s.ty
                     << ", dim " << dim << ", " << per << " blocks per range");
        REQUIRE_WHOLE_BLOCK(bl_run_block_coords(out.data(), dim, s.gx, s.gy, s.gz, s.tx, s.ty));
        for (unsigned b = 0; b < blocks; ++b) {
          const unsigned bx = b % s.gx, by = b / s.gx % s.gy, bz = b / (s.gx * s.gy);
          const unsigned coord = dim == 0 ? bx : dim == 1 ? by : dim == 2 ? bz : 0;
          for (unsigned t = 0; t < n; ++t) {
            const unsigned* o = &out[(size_t(b) * n + t) * 4];
            INFO("block " << b << ", thread " << t);
            REQUIRE(o[0] == bx);
            REQUIRE(o[1] == by);
            REQUIRE(o[2] == bz);
            REQUIRE(o[3] == coord * 1000 + (n - 1 - t));
          }
        }
      }
  }
  g_range_blocks = saved;
}

TEST_CASE("blockloops: a range stops at the block the engine says (another block failed)",
          "[blockloops]") {
  if (bl_kernels_form() != 2) {
    WARN("one-block form: the entry, not the kernel, stops between blocks");
    return;
  }
  const int n = 64 * 10;
  std::vector<float> a(n, 1.0f), b(n, 2.0f);
  for (int64_t stop : {0, 1, 5, 9}) {
    std::vector<float> c(n, -1.0f);
    reset();
    g_ctx.stop_after = stop;
    REQUIRE(bl_run_vector_add(a.data(), b.data(), c.data(), n, 64) == 1);
    CHECK(g_ctx.range_errors == 0);
    CHECK(g_ctx.entered == uint64_t(stop));
    CHECK(g_ctx.stopped);
    for (int i = 0; i < n; ++i) REQUIRE(c[i] == (i / 64 < stop ? 3.0f : -1.0f));
  }
}
