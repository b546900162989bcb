// SPDX-License-Identifier: MIT
// The extern "C" functions weft's x86-64 device headers express GPU built-ins
// with (include/hip/weft/cpu_device_abi.h), as the block_loops pass sees them.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <cstdint>

namespace weft::block_loops {

enum class Marker {
  None,
  ThreadIdx,
  BlockIdx,
  BlockDim,
  GridDim,
  Barrier,
  BarrierReduce,
  WarpRead,
  WarpBallot,
  WarpSync,
  DynamicShared,
  IsWholeBlock,
  RunsBlockRanges,
  BlockRange,
  BlockEnter,
};

inline Marker marker_of(const llvm::Function* f) {
  if (!f) return Marker::None;
  llvm::StringRef name = f->getName();
  if (!name.startswith("__weft_cpu_")) return Marker::None;
  name = name.drop_front(11);
  if (name == "thread_idx") return Marker::ThreadIdx;
  if (name == "block_idx") return Marker::BlockIdx;
  if (name == "block_dim") return Marker::BlockDim;
  if (name == "grid_dim") return Marker::GridDim;
  if (name == "barrier") return Marker::Barrier;
  if (name == "barrier_reduce") return Marker::BarrierReduce;
  if (name == "warp_read") return Marker::WarpRead;
  if (name == "warp_ballot") return Marker::WarpBallot;
  if (name == "warp_sync") return Marker::WarpSync;
  if (name == "dynamic_shared") return Marker::DynamicShared;
  if (name == "kernel_is_whole_block") return Marker::IsWholeBlock;
  if (name == "kernel_runs_block_ranges") return Marker::RunsBlockRanges;
  if (name == "block_range") return Marker::BlockRange;
  if (name == "block_enter") return Marker::BlockEnter;
  return Marker::None;
}

inline Marker marker_of(const llvm::Instruction* i) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(i);
  return call ? marker_of(call->getCalledFunction()) : Marker::None;
}

// Points where GPU threads wait for each other: the kernel is split there.
inline bool is_sync(Marker m) {
  return m == Marker::Barrier || m == Marker::BarrierReduce || m == Marker::WarpRead ||
         m == Marker::WarpBallot || m == Marker::WarpSync;
}

// Markers whose meaning depends on the GPU thread: a function reaching one must
// be inlined into the kernel before the kernel becomes a loop over threads.
inline bool is_per_thread(Marker m) { return m == Marker::ThreadIdx || is_sync(m); }

// Sync kinds as block_runtime.c numbers them.
enum SyncKind : uint8_t {
  kSyncBarrier = 0,
  kSyncBarrierReduce = 1,
  kSyncWarpRead = 2,
  kSyncWarpBallot = 3,
  kSyncWarpSync = 4,
};

inline SyncKind sync_kind(Marker m) {
  switch (m) {
    case Marker::BarrierReduce: return kSyncBarrierReduce;
    case Marker::WarpRead: return kSyncWarpRead;
    case Marker::WarpBallot: return kSyncWarpBallot;
    case Marker::WarpSync: return kSyncWarpSync;
    default: return kSyncBarrier;
  }
}

constexpr uint32_t kStateDone = 0x7fffffffu;
constexpr uint32_t kStateReleased = 0x80000000u;
constexpr uint32_t kScheduleMixed = 0xfffffffdu;
constexpr uint32_t kScheduleDeadlock = 0xfffffffeu;
constexpr uint32_t kScheduleFinished = 0xffffffffu;

}  // namespace weft::block_loops
