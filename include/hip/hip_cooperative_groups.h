// SPDX-License-Identifier: MIT
// Cooperative groups for single-source kernels on weft's CPU agent
// (`namespace cg = cooperative_groups;`): the thread block, tiles of a warp
// (static thread_block_tile<N> and dynamic tiled_partition), the lanes active
// at a point (coalesced_threads), and the whole grid of a cooperative launch.
//
// Everything is built on the kernel language of hip/weft/single_source.h: block
// operations are __syncthreads, tile and coalesced-group operations are the
// warp shuffles and votes of the caller's warp (WEFT_CPU_WARP_SIZE lanes) with a
// width, and grid.sync() is a block barrier, one arrival per block at the
// engine's grid barrier (weftGridSync), and a block barrier. grid.sync() needs
// a launch through hipLaunchCooperativeKernel; elsewhere is_valid() is false and
// sync() fails the launch with hipErrorLaunchFailure.
//
// A tile's sync() is the warp's: every lane of the warp that is still running
// takes part, as on AMD hardware, where a tile never spans more than a wavefront.
#ifndef WEFT_HIP_COOPERATIVE_GROUPS_H
#define WEFT_HIP_COOPERATIVE_GROUPS_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/hip_runtime.h>
#include <hip/weft/device/hd_begin.h>

#include <cstdint>
#include <type_traits>

namespace cooperative_groups {

namespace detail {

inline uint32_t block_size() { return blockDim.x * blockDim.y * blockDim.z; }
inline uint32_t block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
inline uint64_t grid_blocks() { return uint64_t(gridDim.x) * gridDim.y * gridDim.z; }
inline uint64_t block_linear() {
  return blockIdx.x + uint64_t(gridDim.x) * (blockIdx.y + uint64_t(gridDim.y) * blockIdx.z);
}

// grid.sync() calls made by the block running on this OS thread (a block of a
// cooperative launch owns its OS thread, and its GPU threads share it). Every
// thread reads it before the first block barrier, so all see the same value; the
// first thread past that barrier moves it on and arrives for the whole block.
#if defined(__HIP__)
// clang's HIP mode: each target's primitive (hip/weft/device/README.md).
inline void grid_sync() { __weft_grid_sync(); }
#else
inline thread_local unsigned t_grid_syncs = 0;

inline void grid_sync() {
  const unsigned seen = t_grid_syncs;
  __syncthreads();
  if (t_grid_syncs == seen) {
    t_grid_syncs = seen + 1;
    weftGridSync();
  }
  __syncthreads();
}
#endif

constexpr bool valid_tile_size(unsigned n) {
  return n != 0 && (n & (n - 1)) == 0 && n <= unsigned(WEFT_CPU_WARP_SIZE);
}

// The lane of the warp holding the `rank`-th set bit of `mask` (rank < popcount).
inline int lane_of_rank(uint64_t mask, unsigned rank) {
  for (; rank > 0; --rank) mask &= mask - 1;
  return __builtin_ctzll(mask);
}
inline unsigned rank_in_mask(uint64_t mask, unsigned lane) {
  return static_cast<unsigned>(__builtin_popcountll(mask & ((uint64_t(1) << lane) - 1)));
}
// Bit r of the result: bit of the r-th member of `members` in `lanes`.
inline uint64_t compress(uint64_t lanes, uint64_t members) {
  uint64_t out = 0;
  for (unsigned r = 0; members != 0; ++r, members &= members - 1)
    if (lanes >> __builtin_ctzll(members) & 1) out |= uint64_t(1) << r;
  return out;
}

enum class group_kind : uint8_t { invalid, block, grid, multi_grid, tile, coalesced };

}  // namespace detail

// Group types by value (AMD's internal::group_type order).
namespace internal {
enum group_type { cg_multi_grid, cg_grid, cg_workgroup, cg_tiled_group, cg_coalesced_group };
}

// Any group, by value. Derived groups slice into it and keep working: the kind
// and the little state a rank needs travel with it.
class thread_group {
 public:
  uint32_t size() const { return size_; }
  uint32_t num_threads() const { return size_; }
  uint32_t thread_rank() const;
  bool is_valid() const;
  void sync() const;
  unsigned int cg_type() const;

 protected:
  thread_group(detail::group_kind kind, uint32_t size, uint64_t mask = 0, uint32_t meta_rank = 0,
               uint32_t meta_size = 0)
      : kind_(kind), size_(size), meta_rank_(meta_rank), meta_size_(meta_size), mask_(mask) {}

  detail::group_kind kind_;
  uint32_t size_;       // threads (a tile: its static or dynamic size)
  uint32_t meta_rank_;  // tiles: this tile's rank among the parent's tiles
  uint32_t meta_size_;  // tiles: the parent's number of tiles
  uint64_t mask_;       // coalesced groups: the member lanes of the warp

  friend thread_group tiled_partition(const thread_group& parent, unsigned int tile_size);
};

// ---- the whole grid (cooperative launches) ----

class grid_group : public thread_group {
 public:
  uint32_t thread_rank() const {
    return static_cast<uint32_t>(detail::block_linear() * detail::block_size() +
                                 detail::block_rank());
  }
  bool is_valid() const { return weftGridIsCooperative() != 0; }
  void sync() const { detail::grid_sync(); }
  uint32_t num_blocks() const { return static_cast<uint32_t>(detail::grid_blocks()); }
  uint32_t block_rank() const { return static_cast<uint32_t>(detail::block_linear()); }
  dim3 group_dim() const { return dim3(gridDim); }
  dim3 dim_blocks() const { return dim3(gridDim); }
  dim3 block_index() const { return dim3(blockIdx); }

 private:
  explicit grid_group(uint32_t size) : thread_group(detail::group_kind::grid, size) {}
  friend grid_group this_grid();
};

inline grid_group this_grid() {
  return grid_group(static_cast<uint32_t>(detail::grid_blocks() * detail::block_size()));
}

// One device runs a cooperative launch, so the multi-grid is the grid.
class multi_grid_group : public thread_group {
 public:
  uint32_t num_grids() const { return 1; }
  uint32_t grid_rank() const { return 0; }
  uint32_t thread_rank() const { return this_grid().thread_rank(); }
  bool is_valid() const { return weftGridIsCooperative() != 0; }
  void sync() const { detail::grid_sync(); }

 private:
  explicit multi_grid_group(uint32_t size) : thread_group(detail::group_kind::multi_grid, size) {}
  friend multi_grid_group this_multi_grid();
};

inline multi_grid_group this_multi_grid() { return multi_grid_group(this_grid().size()); }

// ---- the thread block ----

class thread_block : public thread_group {
 public:
  uint32_t thread_rank() const { return detail::block_rank(); }
  bool is_valid() const { return true; }
  void sync() const { __syncthreads(); }
  dim3 group_index() const { return dim3(blockIdx); }
  dim3 thread_index() const { return dim3(threadIdx); }
  dim3 group_dim() const { return dim3(blockDim); }
  dim3 dim_threads() const { return dim3(blockDim); }

 private:
  explicit thread_block(uint32_t size) : thread_group(detail::group_kind::block, size) {}
  friend thread_block this_thread_block();
};

inline thread_block this_thread_block() { return thread_block(detail::block_size()); }

// ---- the lanes active at a point ----

class coalesced_group : public thread_group {
 public:
  uint32_t thread_rank() const { return detail::rank_in_mask(mask_, __lane_id()); }
  bool is_valid() const { return true; }
  void sync() const { __syncwarp(mask_); }
  uint32_t meta_group_rank() const { return meta_rank_; }
  uint32_t meta_group_size() const { return meta_size_; }

  template <class T>
  T shfl(T var, int src_rank) const {
    const unsigned rank = static_cast<unsigned>(src_rank) % size_;
    return __shfl(var, detail::lane_of_rank(mask_, rank));
  }
  template <class T>
  T shfl_down(T var, unsigned int delta) const {
    const unsigned src = thread_rank() + delta;
    return __shfl(var, src < size_ ? detail::lane_of_rank(mask_, src) : int(__lane_id()));
  }
  template <class T>
  T shfl_up(T var, unsigned int delta) const {
    const unsigned rank = thread_rank();
    return __shfl(var,
                  delta <= rank ? detail::lane_of_rank(mask_, rank - delta) : int(__lane_id()));
  }
  template <class T>
  T shfl_xor(T var, unsigned int lane_mask) const {
    const unsigned src = thread_rank() ^ lane_mask;
    return __shfl(var, src < size_ ? detail::lane_of_rank(mask_, src) : int(__lane_id()));
  }
  // Bit r: the predicate of the member of rank r.
  unsigned long long ballot(int predicate) const {
    return detail::compress(__ballot(predicate), mask_);
  }
  int any(int predicate) const { return ballot(predicate) != 0; }
  int all(int predicate) const { return ballot(!predicate) == 0; }

 private:
  coalesced_group(uint64_t mask, uint32_t meta_rank = 0, uint32_t meta_size = 1)
      : thread_group(detail::group_kind::coalesced,
                     static_cast<uint32_t>(__builtin_popcountll(mask)), mask, meta_rank,
                     meta_size) {}
  friend coalesced_group coalesced_threads();
  friend coalesced_group tiled_partition(const coalesced_group& parent, unsigned int tile_size);
  friend thread_group tiled_partition(const thread_group& parent, unsigned int tile_size);
};

// The lanes of the caller's warp that reach this call together.
inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

// ---- tiles of a warp ----

// A tile of `size_` consecutive threads of the block (a power of two up to the
// warp), aligned within its warp: warp operations with that width.
class tiled_group : public thread_group {
 public:
  uint32_t thread_rank() const { return detail::block_rank() & (size_ - 1); }
  bool is_valid() const { return true; }
  void sync() const { __syncwarp(); }
  uint32_t meta_group_rank() const { return meta_rank_; }
  uint32_t meta_group_size() const { return meta_size_; }

 protected:
  tiled_group(uint32_t size, uint32_t meta_rank, uint32_t meta_size)
      : thread_group(detail::group_kind::tile, size, 0, meta_rank, meta_size) {}
  friend thread_group tiled_partition(const thread_group& parent, unsigned int tile_size);
  friend tiled_group tiled_partition(const tiled_group& parent, unsigned int tile_size);
};

template <unsigned int Size, class Parent = void>
class thread_block_tile;

template <unsigned int Size>
class thread_block_tile<Size, void> : public tiled_group {
  static_assert(detail::valid_tile_size(Size),
                "thread_block_tile<N>: N must be a power of two no larger than the warp (32 lanes "
                "on weft's CPU agent)");
  static constexpr uint32_t kSize = Size;

 public:
  static constexpr uint32_t size() { return kSize; }
  static constexpr uint32_t num_threads() { return kSize; }
  uint32_t thread_rank() const { return detail::block_rank() & (kSize - 1); }

  template <class T>
  T shfl(T var, int src_rank) const {
    return __shfl(var, src_rank, int(kSize));
  }
  template <class T>
  T shfl_down(T var, unsigned int delta) const {
    return __shfl_down(var, delta, int(kSize));
  }
  template <class T>
  T shfl_up(T var, unsigned int delta) const {
    return __shfl_up(var, delta, int(kSize));
  }
  template <class T>
  T shfl_xor(T var, unsigned int lane_mask) const {
    return __shfl_xor(var, static_cast<int>(lane_mask), int(kSize));
  }
  // Bit r: the predicate of the tile's thread of rank r (lanes that returned: 0).
  unsigned long long ballot(int predicate) const { return own_bits(__ballot(predicate)); }
  int any(int predicate) const { return ballot(predicate) != 0; }
  int all(int predicate) const { return ballot(!predicate) == 0; }
  // The tile's threads whose `value` equals the caller's, as a mask by rank.
  template <class T>
  unsigned long long match_any(T value) const {
    unsigned long long same = 0;
    for (unsigned r = 0; r < kSize; ++r)
      if (shfl(value, int(r)) == value) same |= 1ull << r;
    return same;
  }
  // Every thread's mask when all values are equal (and *pred = true), else 0.
  template <class T>
  unsigned long long match_all(T value, int& pred) const {
    const unsigned long long same = match_any(value);
    pred = all(same == full_mask());
    return pred ? same : 0;
  }

 protected:
  thread_block_tile(uint32_t meta_rank, uint32_t meta_size)
      : tiled_group(kSize, meta_rank, meta_size) {}

 private:
  static constexpr unsigned long long full_mask() {
    return kSize == 64 ? ~0ull : (1ull << kSize) - 1;
  }
  unsigned long long own_bits(unsigned long long warp) const {
    return (warp >> (__lane_id() & ~(kSize - 1))) & full_mask();
  }
};

// tiled_partition<N>(parent): remembers its parent's type, converts to the plain tile.
template <unsigned int Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {
 public:
  explicit thread_block_tile(const Parent& parent)
      : thread_block_tile<Size, void>(parent.thread_rank() / Size,
                                      (parent.size() + Size - 1) / Size) {}
};

template <unsigned int Size, class Parent>
inline thread_block_tile<Size, Parent> tiled_partition(const Parent& parent) {
  static_assert(std::is_base_of_v<thread_block, Parent> || std::is_base_of_v<tiled_group, Parent>,
                "tiled_partition<N>: the parent must be a thread_block or a tile");
  return thread_block_tile<Size, Parent>(parent);
}

// Dynamic partitions: tiles of a block or a tile (tile_size a power of two up to the
// warp, and no larger than a tile parent), parts of a coalesced group. Any other
// size gives a group whose is_valid() is false.
inline tiled_group tiled_partition(const tiled_group& parent, unsigned int tile_size) {
  if (!detail::valid_tile_size(tile_size) || tile_size > parent.size()) return tiled_group(0, 0, 0);
  return tiled_group(tile_size, parent.thread_rank() / tile_size, parent.size() / tile_size);
}

inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned int tile_size) {
  if (!detail::valid_tile_size(tile_size)) return coalesced_group(0, 0, 0);
  const unsigned first = parent.thread_rank() / tile_size * tile_size;
  uint64_t members = 0;
  for (unsigned r = first; r < first + tile_size && r < parent.size(); ++r)
    members |= uint64_t(1) << detail::lane_of_rank(parent.mask_, r);
  return coalesced_group(members, first / tile_size, (parent.size() + tile_size - 1) / tile_size);
}

inline thread_group tiled_partition(const thread_group& parent, unsigned int tile_size) {
  switch (parent.kind_) {
    case detail::group_kind::coalesced:
      return tiled_partition(static_cast<const coalesced_group&>(parent), tile_size);
    case detail::group_kind::tile:
      return tiled_partition(static_cast<const tiled_group&>(parent), tile_size);
    case detail::group_kind::block:
      if (!detail::valid_tile_size(tile_size)) break;
      return tiled_group(tile_size, detail::block_rank() / tile_size,
                         (parent.size() + tile_size - 1) / tile_size);
    default: break;
  }
  return thread_group(detail::group_kind::invalid, 0);
}

// ---- thread_group's members, by kind ----

inline uint32_t thread_group::thread_rank() const {
  switch (kind_) {
    case detail::group_kind::block: return detail::block_rank();
    case detail::group_kind::grid:
    case detail::group_kind::multi_grid: return this_grid().thread_rank();
    case detail::group_kind::tile: return detail::block_rank() & (size_ - 1);
    case detail::group_kind::coalesced: return detail::rank_in_mask(mask_, __lane_id());
    default: return 0;
  }
}

inline bool thread_group::is_valid() const {
  switch (kind_) {
    case detail::group_kind::grid:
    case detail::group_kind::multi_grid: return weftGridIsCooperative() != 0;
    case detail::group_kind::invalid: return false;
    default: return true;
  }
}

inline void thread_group::sync() const {
  switch (kind_) {
    case detail::group_kind::block: __syncthreads(); break;
    case detail::group_kind::grid:
    case detail::group_kind::multi_grid: detail::grid_sync(); break;
    case detail::group_kind::tile: __syncwarp(); break;
    case detail::group_kind::coalesced: __syncwarp(mask_); break;
    default: break;
  }
}

inline unsigned int thread_group::cg_type() const {
  switch (kind_) {
    case detail::group_kind::multi_grid: return internal::cg_multi_grid;
    case detail::group_kind::grid: return internal::cg_grid;
    case detail::group_kind::block: return internal::cg_workgroup;
    case detail::group_kind::coalesced: return internal::cg_coalesced_group;
    default: return internal::cg_tiled_group;
  }
}

// ---- free functions ----

template <class Group>
inline uint32_t group_size(const Group& g) {
  return g.size();
}
template <class Group>
inline uint32_t thread_rank(const Group& g) {
  return g.thread_rank();
}
template <class Group>
inline bool is_valid(const Group& g) {
  return g.is_valid();
}
template <class Group>
inline void sync(const Group& g) {
  g.sync();
}

}  // namespace cooperative_groups

#include <hip/weft/device/hd_end.h>

#endif  // WEFT_HIP_COOPERATIVE_GROUPS_H
