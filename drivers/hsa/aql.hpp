// SPDX-License-Identifier: MIT
// AQL packet encoding and ring publication: pure functions over the formats in
// shared/docs/hip-abi-facts.md §4-5 (the HSA 1.2 system architecture and the
// AMDGPU code-object hidden arguments). Nothing here calls ROCr except publish(),
// which goes through the symbol table. Thread-safe (no state).
#pragma once

#include <hsa/hsa.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>
#include <weft/driver/op.hpp>
#include <weft/driver/status.hpp>

namespace weft::hsa {
struct Api;
}

namespace weft::hsa::aql {

inline constexpr size_t kPacketBytes = 64;

// The 16-bit packet header: type, barrier bit, acquire and release fence scopes.
constexpr uint16_t header(hsa_packet_type_t type, bool barrier, hsa_fence_scope_t acquire,
                          hsa_fence_scope_t release) {
  return uint16_t(uint32_t(type) << HSA_PACKET_HEADER_TYPE |
                  uint32_t(barrier ? 1 : 0) << HSA_PACKET_HEADER_BARRIER |
                  uint32_t(acquire) << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                  uint32_t(release) << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

// Every packet weft writes keeps its queue in order (barrier bit) and fences at
// system scope, so host-visible memory is coherent at each completion.
inline constexpr uint16_t kDispatchHeader =
    header(HSA_PACKET_TYPE_KERNEL_DISPATCH, true, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM);
inline constexpr uint16_t kBarrierAndHeader =
    header(HSA_PACKET_TYPE_BARRIER_AND, true, HSA_FENCE_SCOPE_SYSTEM, HSA_FENCE_SCOPE_SYSTEM);

// HIP dispatches are always three-dimensional (setup = 3; the v5 hidden
// grid_dims argument says the same).
inline constexpr uint16_t kDispatchDimensions = 3;

struct DispatchInput {
  LaunchDims dims;                  // grid in blocks, block in threads, dynamic LDS bytes
  uint32_t static_group_bytes = 0;  // the kernel's group_segment_fixed_size
  uint32_t private_bytes = 0;       // per work-item scratch
  uint64_t kernel_object = 0;       // loaded address of <kernel>.kd
  const void* kernarg = nullptr;    // 16-byte aligned, in kernarg memory
  hsa_signal_t completion{0};
};

// A kernel dispatch packet with its header still HSA_PACKET_TYPE_INVALID (the
// header is published last). Fails with hipErrorInvalidConfiguration when a
// grid dimension in work-items does not fit in 32 bits.
Result<hsa_kernel_dispatch_packet_t> dispatch_packet(const DispatchInput& in);

// A barrier-AND packet waiting for up to five signals (null handles are ignored
// by the packet processor), header still INVALID.
hsa_barrier_and_packet_t barrier_and_packet(std::span<const hsa_signal_t> deps,
                                            hsa_signal_t completion);
inline constexpr size_t kBarrierDeps = 5;

// The first 32 bits of a packet: header | setup << 16, stored atomically.
constexpr uint32_t header_word(uint16_t header, uint16_t setup) {
  return uint32_t(header) | uint32_t(setup) << 16;
}

// ---- Hidden kernel arguments (code object v4 and v5), located by metadata.
enum class HiddenKind : uint8_t {
  kZero,  // known but filled with zeros (reserved, none, default_queue, ...)
  kGlobalOffsetX,
  kGlobalOffsetY,
  kGlobalOffsetZ,
  kBlockCountX,
  kBlockCountY,
  kBlockCountZ,
  kGroupSizeX,
  kGroupSizeY,
  kGroupSizeZ,
  kRemainderX,
  kRemainderY,
  kRemainderZ,
  kGridDims,
  kDynamicLdsSize,
  kQueuePtr,
  kPrivateBase,
  kSharedBase,
  kHostcallBuffer,
  kPrintfBuffer,
  kMultigridSyncArg,
  kHeapV1,
};

struct HiddenArg {
  HiddenKind kind = HiddenKind::kZero;
  uint32_t offset = 0;
  uint32_t size = 0;
};

// Maps a metadata `.value_kind` to the hidden argument it names; false for an
// explicit (non-hidden) kind. Unknown hidden_* kinds become kZero.
bool hidden_kind(std::string_view value_kind, HiddenKind& out);

struct HiddenValues {
  uint32_t grid_blocks[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t dynamic_lds_bytes = 0;
  uint64_t queue_ptr = 0;        // the hsa_queue_t* (== amd_queue_t*) of the dispatch
  uint32_t private_base_hi = 0;  // amd_queue_t apertures, for targets without aperture registers
  uint32_t shared_base_hi = 0;
  uint64_t hostcall_buffer = 0;  // 0: weft runs no hostcall service (docs/hsa.md)
  uint64_t heap = 0;             // 0: no device-side malloc heap
};

// Writes every hidden argument into `kernarg` (little-endian, truncated to its
// size). Arguments that would fall outside `kernarg` are skipped (the caller
// sized it from kernarg_segment_size).
void fill_hidden(std::span<std::byte> kernarg, std::span<const HiddenArg> hidden,
                 const HiddenValues& v);

// ---- Publication into an AQL ring (hsa_queue_t), the HSA protocol:
// reserve an index, wait for room, write bytes 4..63, store the header word
// with release semantics, ring the doorbell with the packet's own index.
// Returns the index. Blocks (yielding) while the ring is full.
uint64_t reserve(const Api& api, hsa_queue_t* queue);
void publish(const Api& api, hsa_queue_t* queue, uint64_t index, const void* packet,
             uint32_t header_word);

}  // namespace weft::hsa::aql
