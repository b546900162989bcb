// SPDX-License-Identifier: MIT
// Cooperative groups inside one block: thread_block, static and dynamic tiles,
// tile votes, and coalesced_threads() in a divergent branch. Every value is
// checked against one computed on the host.
#include "hip_test.hpp"

#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

namespace {

constexpr unsigned kWarp = WEFT_CPU_WARP_SIZE;

// A reproducible input (no two neighbours alike, some multiples of 3).
int input_value(unsigned i) { return static_cast<int>((i * 2654435761u) >> 20) % 1000; }

std::vector<int> make_input(size_t n) {
  std::vector<int> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = input_value(static_cast<unsigned>(i));
  return v;
}

template <typename T>
std::vector<T> to_host(const hip_test::DeviceBuffer<T>& d) {
  std::vector<T> h(d.count());
  HIP_CHECK(hipMemcpy(h.data(), d.get(), d.bytes(), hipMemcpyDeviceToHost));
  return h;
}

template <typename T>
void to_device(hip_test::DeviceBuffer<T>& d, const std::vector<T>& h) {
  HIP_CHECK(hipMemcpy(d.get(), h.data(), d.bytes(), hipMemcpyHostToDevice));
}

// ---- thread_block ----

constexpr unsigned kBlockX = 16, kBlockY = 4, kBlockZ = 2,
                   kBlockThreads = kBlockX * kBlockY * kBlockZ;

__global__ void block_sum(const int* in, int* sums, unsigned* shape) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[kBlockThreads];
  const unsigned r = block.thread_rank();
  const unsigned base = blockIdx.x * block.size();
  partial[r] = in[base + r];
  block.sync();
  for (unsigned s = block.size() / 2; s > 0; s >>= 1) {
    if (r < s) partial[r] += partial[r + s];
    cg::sync(block);
  }
  if (r == 0) sums[blockIdx.x] = partial[0];
  // What the group says about the caller, packed per thread.
  const dim3 t = block.thread_index(), g = block.group_index(), d = block.group_dim(),
             d2 = block.dim_threads();
  unsigned* s = shape + 8 * (base + r);
  s[0] = r;
  s[1] = t.x + 100 * t.y + 10000 * t.z;
  s[2] = g.x + 100 * g.y + 10000 * g.z;
  s[3] = d.x + 100 * d.y + 10000 * d.z;
  s[4] = d2.x + 100 * d2.y + 10000 * d2.z;
  s[5] = block.size() * 10 + (block.num_threads() == block.size());
  s[6] = cg::group_size(block) * 10 + (cg::thread_rank(block) == r);
  s[7] = block.is_valid();
}

TEST_CASE("Unit_cg_ThreadBlock_Positive_ReductionAndIndices") {
  if (!hip_test::kernels_supported()) return;
  constexpr unsigned blocks = 3, n = blocks * kBlockThreads;
  const std::vector<int> in = make_input(n);
  hip_test::DeviceBuffer<int> d_in(n), d_sums(blocks);
  hip_test::DeviceBuffer<unsigned> d_shape(8 * n);
  to_device(d_in, in);
  HIP_LAUNCH_CHECK(block_sum, dim3(blocks), dim3(kBlockX, kBlockY, kBlockZ), 0, nullptr, d_in.get(),
                   d_sums.get(), d_shape.get());
  HIP_CHECK(hipDeviceSynchronize());
  const std::vector<int> sums = to_host(d_sums);
  const std::vector<unsigned> shape = to_host(d_shape);
  for (unsigned b = 0; b < blocks; ++b) {
    int expected = 0;
    for (unsigned r = 0; r < kBlockThreads; ++r) expected += in[b * kBlockThreads + r];
    CHECK(sums[b] == expected);
    for (unsigned r = 0; r < kBlockThreads; ++r) {
      const unsigned* s = &shape[8 * (b * kBlockThreads + r)];
      const unsigned x = r % kBlockX, y = r / kBlockX % kBlockY, z = r / (kBlockX * kBlockY);
      INFO("block " << b << " rank " << r);
      CHECK(s[0] == r);
      CHECK(s[1] == x + 100 * y + 10000 * z);
      CHECK(s[2] == b);
      CHECK(s[3] == kBlockX + 100 * kBlockY + 10000 * kBlockZ);
      CHECK(s[4] == s[3]);
      CHECK(s[5] == kBlockThreads * 10 + 1);
      CHECK(s[6] == kBlockThreads * 10 + 1);
      CHECK(s[7] == 1);
    }
  }
}

// ---- static tiles: reductions with shfl_down, scans, butterflies, broadcasts ----

constexpr unsigned kTileBlock = 128;

template <unsigned N>
__global__ void tile_ops(const int* in, int* sums, int* scan, int* xor_sum, int* bcast,
                         unsigned* meta) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  const unsigned i = blockIdx.x * block.size() + block.thread_rank();
  const int v = in[i];
  int sum = v;
  for (unsigned offset = N / 2; offset > 0; offset /= 2) sum += tile.shfl_down(sum, offset);
  if (tile.thread_rank() == 0) sums[i / N] = sum;
  int prefix = v;  // inclusive scan
  for (unsigned d = 1; d < N; d *= 2) {
    const int up = tile.shfl_up(prefix, d);
    if (tile.thread_rank() >= d) prefix += up;
  }
  scan[i] = prefix;
  int all = v;
  for (unsigned m = 1; m < N; m *= 2) all += tile.shfl_xor(all, m);
  xor_sum[i] = all;
  bcast[i] = tile.shfl(v, int(N - 1));
  tile.sync();
  meta[3 * i] = tile.thread_rank() + 1000 * tile.size();
  meta[3 * i + 1] = tile.meta_group_rank() + 1000 * tile.meta_group_size();
  // Sliced into a thread_group, the tile still knows its rank and size.
  const cg::thread_group as_group = tile;
  meta[3 * i + 2] = as_group.thread_rank() + 1000 * as_group.size();
}

template <unsigned N>
void check_tiles() {
  INFO("tile size " << N);
  constexpr unsigned blocks = 2, n = blocks * kTileBlock;
  const std::vector<int> in = make_input(n);
  hip_test::DeviceBuffer<int> d_in(n), d_sums(n / N), d_scan(n), d_xor(n), d_bcast(n);
  hip_test::DeviceBuffer<unsigned> d_meta(3 * n);
  to_device(d_in, in);
  HIP_LAUNCH_CHECK(tile_ops<N>, dim3(blocks), dim3(kTileBlock), 0, nullptr, d_in.get(),
                   d_sums.get(), d_scan.get(), d_xor.get(), d_bcast.get(), d_meta.get());
  HIP_CHECK(hipDeviceSynchronize());
  const auto sums = to_host(d_sums), scan = to_host(d_scan), xr = to_host(d_xor),
             bc = to_host(d_bcast);
  const auto meta = to_host(d_meta);
  for (unsigned t = 0; t < n / N; ++t) {
    int total = 0;
    for (unsigned k = 0; k < N; ++k) total += in[t * N + k];
    CHECK(sums[t] == total);
    int prefix = 0;
    for (unsigned k = 0; k < N; ++k) {
      const unsigned i = t * N + k;
      prefix += in[i];
      INFO("thread " << i);
      CHECK(scan[i] == prefix);
      CHECK(xr[i] == total);
      CHECK(bc[i] == in[t * N + N - 1]);
      CHECK(meta[3 * i] == k + 1000 * N);
      CHECK(meta[3 * i + 1] == (i % kTileBlock) / N + 1000 * (kTileBlock / N));
      CHECK(meta[3 * i + 2] == k + 1000 * N);
    }
  }
}

TEST_CASE("Unit_cg_ThreadBlockTile_Positive_ShuffleReductions") {
  if (!hip_test::kernels_supported()) return;
  check_tiles<2>();
  check_tiles<4>();
  check_tiles<8>();
  check_tiles<16>();
  check_tiles<32>();
}

// A tile of a tile: ranks and meta ranks relative to the parent tile.
__global__ void nested_tiles(unsigned* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> outer = cg::tiled_partition<16>(block);
  cg::thread_block_tile<4> inner = cg::tiled_partition<4>(outer);
  const unsigned i = blockIdx.x * block.size() + block.thread_rank();
  out[2 * i] =
      inner.thread_rank() + 100 * inner.meta_group_rank() + 10000 * inner.meta_group_size();
  out[2 * i + 1] = inner.shfl_down(block.thread_rank(), 1);
}

TEST_CASE("Unit_cg_ThreadBlockTile_Positive_TileOfTile") {
  if (!hip_test::kernels_supported()) return;
  constexpr unsigned n = 64;
  hip_test::DeviceBuffer<unsigned> d_out(2 * n);
  HIP_LAUNCH_CHECK(nested_tiles, dim3(1), dim3(n), 0, nullptr, d_out.get());
  HIP_CHECK(hipDeviceSynchronize());
  const auto out = to_host(d_out);
  for (unsigned i = 0; i < n; ++i) {
    INFO("thread " << i);
    CHECK(out[2 * i] == i % 4 + 100 * (i % 16 / 4) + 10000 * 4);
    CHECK(out[2 * i + 1] == (i % 4 == 3 ? i : i + 1));  // past the tile's end: own value
  }
}

// ---- dynamic tiles ----

__global__ void dynamic_tile_sum(const int* in, int* sums, unsigned* info, unsigned tile_size) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group tile = cg::tiled_partition(block, tile_size);
  __shared__ int buf[kTileBlock];
  const unsigned r = block.thread_rank();
  const unsigned i = blockIdx.x * block.size() + r;
  const unsigned me = tile.thread_rank();
  const unsigned base = r - me;
  buf[r] = in[i];
  tile.sync();
  for (unsigned s = tile.size() / 2; s > 0; s /= 2) {
    if (me < s) buf[base + me] += buf[base + me + s];
    cg::sync(tile);
  }
  if (me == 0) sums[i / tile.size()] = buf[r];
  info[2 * i] = me + 1000 * cg::group_size(tile) + 100000 * tile.is_valid();
  info[2 * i + 1] =
      cg::tiled_partition(block, 3).is_valid() + 2 * cg::tiled_partition(block, 64).is_valid();
}

TEST_CASE("Unit_cg_TiledPartition_Positive_DynamicTileReduction") {
  if (!hip_test::kernels_supported()) return;
  constexpr unsigned blocks = 2, n = blocks * kTileBlock;
  const std::vector<int> in = make_input(n);
  for (unsigned size : {2u, 8u, 32u}) {
    INFO("dynamic tile size " << size);
    hip_test::DeviceBuffer<int> d_in(n), d_sums(n / size);
    hip_test::DeviceBuffer<unsigned> d_info(2 * n);
    to_device(d_in, in);
    HIP_LAUNCH_CHECK(dynamic_tile_sum, dim3(blocks), dim3(kTileBlock), 0, nullptr, d_in.get(),
                     d_sums.get(), d_info.get(), size);
    HIP_CHECK(hipDeviceSynchronize());
    const auto sums = to_host(d_sums);
    const auto info = to_host(d_info);
    for (unsigned t = 0; t < n / size; ++t) {
      int total = 0;
      for (unsigned k = 0; k < size; ++k) total += in[t * size + k];
      CHECK(sums[t] == total);
    }
    for (unsigned i = 0; i < n; ++i) {
      CHECK(info[2 * i] == i % size + 1000 * size + 100000);
      CHECK(info[2 * i + 1] == 0);  // 3 is no power of two, 64 is wider than the warp
    }
  }
}

// ---- votes on tiles ----

constexpr unsigned kVoteBlock = 96;

// Tile t's predicate: all true (t % 4 == 0), all false (t % 4 == 1), else per lane.
bool vote_predicate(const std::vector<int>& in, unsigned i, unsigned n_tile) {
  const unsigned t = i / n_tile;
  if (t % 4 == 0) return true;
  if (t % 4 == 1) return false;
  return in[i] % 3 == 0;
}

template <unsigned N>
__global__ void tile_votes(const int* pred, unsigned long long* ballots, int* any_all,
                           unsigned long long* matches) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<N>(block);
  const unsigned i = blockIdx.x * block.size() + block.thread_rank();
  const int p = pred[i];
  ballots[i] = tile.ballot(p);
  any_all[i] = tile.any(p) + 2 * tile.all(p);
  int same = 0;
  matches[2 * i] = tile.match_any(p);
  matches[2 * i + 1] =
      tile.match_all(i / N, same) + (same ? 0 : 1);  // one value per tile: all match
}

template <unsigned N>
void check_votes() {
  INFO("tile size " << N);
  constexpr unsigned blocks = 2, n = blocks * kVoteBlock;
  const std::vector<int> in = make_input(n);
  std::vector<int> pred(n);
  for (unsigned i = 0; i < n; ++i) pred[i] = vote_predicate(in, i, N);
  hip_test::DeviceBuffer<int> d_pred(n), d_any_all(n);
  hip_test::DeviceBuffer<unsigned long long> d_ballots(n), d_matches(2 * n);
  to_device(d_pred, pred);
  HIP_LAUNCH_CHECK(tile_votes<N>, dim3(blocks), dim3(kVoteBlock), 0, nullptr, d_pred.get(),
                   d_ballots.get(), d_any_all.get(), d_matches.get());
  HIP_CHECK(hipDeviceSynchronize());
  const auto ballots = to_host(d_ballots), matches = to_host(d_matches);
  const auto any_all = to_host(d_any_all);
  const unsigned long long full = N == 64 ? ~0ull : (1ull << N) - 1;
  for (unsigned t = 0; t < n / N; ++t) {
    unsigned long long mask = 0;
    for (unsigned k = 0; k < N; ++k)
      if (pred[t * N + k]) mask |= 1ull << k;
    const int expected_any_all = (mask != 0) + 2 * (mask == full);
    for (unsigned k = 0; k < N; ++k) {
      const unsigned i = t * N + k;
      INFO("thread " << i);
      CHECK(ballots[i] == mask);
      CHECK(any_all[i] == expected_any_all);
      CHECK(matches[2 * i] == (pred[i] ? mask : ~mask & full));
      CHECK(matches[2 * i + 1] == full);
    }
  }
}

TEST_CASE("Unit_cg_ThreadBlockTile_Positive_BallotAnyAllMatch") {
  if (!hip_test::kernels_supported()) return;
  check_votes<4>();
  check_votes<8>();
  check_votes<16>();
  check_votes<32>();
}

// ---- coalesced groups ----

// Only the threads whose predicate holds reach coalesced_threads(); the others return.
__global__ void coalesced_branch(const int* pred, int* size_rank, int* first,
                                 unsigned long long* ballots, int* shifted) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  size_rank[2 * i] = -1;
  size_rank[2 * i + 1] = -1;
  if (!pred[i]) return;
  cg::coalesced_group active = cg::coalesced_threads();
  size_rank[2 * i] = static_cast<int>(active.size());
  size_rank[2 * i + 1] = static_cast<int>(active.thread_rank());
  first[i] = active.shfl(static_cast<int>(i), 0);
  ballots[i] = active.ballot(i % 2 == 0);
  shifted[i] = active.shfl_down(static_cast<int>(i), 1);
  active.sync();
}

TEST_CASE("Unit_cg_CoalescedThreads_Positive_DivergentBranch") {
  if (!hip_test::kernels_supported()) return;
  constexpr unsigned block = 80, blocks = 2,
                     n = block * blocks;  // the last warp of a block is partial
  const std::vector<int> in = make_input(n);
  std::vector<int> pred(n);
  for (unsigned i = 0; i < n; ++i) pred[i] = in[i] % 3 != 1;
  hip_test::DeviceBuffer<int> d_pred(n), d_size_rank(2 * n), d_first(n), d_shifted(n);
  hip_test::DeviceBuffer<unsigned long long> d_ballots(n);
  to_device(d_pred, pred);
  HIP_LAUNCH_CHECK(coalesced_branch, dim3(blocks), dim3(block), 0, nullptr, d_pred.get(),
                   d_size_rank.get(), d_first.get(), d_ballots.get(), d_shifted.get());
  HIP_CHECK(hipDeviceSynchronize());
  const auto size_rank = to_host(d_size_rank), first = to_host(d_first),
             shifted = to_host(d_shifted);
  const auto ballots = to_host(d_ballots);
  for (unsigned i = 0; i < n; ++i) {
    INFO("thread " << i);
    if (!pred[i]) {
      CHECK(size_rank[2 * i] == -1);
      continue;
    }
    // The members: the threads of i's warp (32 consecutive threads of its block) with the predicate.
    const unsigned b = i / block, r = i % block;
    const unsigned lo = b * block + r / kWarp * kWarp, hi = std::min(lo + kWarp, (b + 1) * block);
    std::vector<unsigned> members;
    for (unsigned j = lo; j < hi; ++j)
      if (pred[j]) members.push_back(j);
    const auto me = std::find(members.begin(), members.end(), i) - members.begin();
    unsigned long long even = 0;
    for (size_t k = 0; k < members.size(); ++k)
      if (members[k] % 2 == 0) even |= 1ull << k;
    CHECK(size_rank[2 * i] == static_cast<int>(members.size()));
    CHECK(size_rank[2 * i + 1] == static_cast<int>(me));
    CHECK(first[i] == static_cast<int>(members[0]));
    CHECK(ballots[i] == even);
    CHECK(shifted[i] == static_cast<int>(size_t(me) + 1 < members.size() ? members[me + 1] : i));
  }
}

}  // namespace
