// SPDX-License-Identifier: MIT
#include "aql.hpp"

#include <cstring>
#include <string>
#include <thread>

#include "api.hpp"

namespace weft::hsa::aql {

Result<hsa_kernel_dispatch_packet_t> dispatch_packet(const DispatchInput& in) {
  hsa_kernel_dispatch_packet_t p;
  std::memset(&p, 0, sizeof(p));
  p.header = uint16_t(HSA_PACKET_TYPE_INVALID) << HSA_PACKET_HEADER_TYPE;
  p.setup = kDispatchDimensions << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  const uint32_t grid[3] = {in.dims.grid.x, in.dims.grid.y, in.dims.grid.z};
  const uint32_t block[3] = {in.dims.block.x, in.dims.block.y, in.dims.block.z};
  uint32_t items[3];
  for (int i = 0; i < 3; ++i) {
    if (block[i] == 0 || block[i] > 0xFFFF || grid[i] == 0)
      return Status(hipErrorInvalidConfiguration,
                    "grid and block dimensions must be 1..65535 threads per block");
    uint64_t n = uint64_t(grid[i]) * block[i];
    if (n > 0xFFFFFFFFull)
      return Status(hipErrorInvalidConfiguration,
                    "grid dimension " + std::to_string(i) + " is " + std::to_string(n) +
                        " work-items; an AQL dispatch holds at most 2^32-1");
    items[i] = uint32_t(n);
  }
  p.workgroup_size_x = uint16_t(block[0]);
  p.workgroup_size_y = uint16_t(block[1]);
  p.workgroup_size_z = uint16_t(block[2]);
  p.grid_size_x = items[0];
  p.grid_size_y = items[1];
  p.grid_size_z = items[2];
  p.private_segment_size = in.private_bytes;
  p.group_segment_size = in.static_group_bytes + in.dims.dynamic_shared_bytes;
  p.kernel_object = in.kernel_object;
  p.kernarg_address = const_cast<void*>(in.kernarg);
  p.completion_signal = in.completion;
  return p;
}

hsa_barrier_and_packet_t barrier_and_packet(std::span<const hsa_signal_t> deps,
                                            hsa_signal_t completion) {
  hsa_barrier_and_packet_t p;
  std::memset(&p, 0, sizeof(p));
  p.header = uint16_t(HSA_PACKET_TYPE_INVALID) << HSA_PACKET_HEADER_TYPE;
  for (size_t i = 0; i < deps.size() && i < kBarrierDeps; ++i) p.dep_signal[i] = deps[i];
  p.completion_signal = completion;
  return p;
}

bool hidden_kind(std::string_view k, HiddenKind& out) {
  if (k.substr(0, 7) != "hidden_") return false;
  struct Entry {
    std::string_view name;
    HiddenKind kind;
  };
  static constexpr Entry kTable[] = {
      {"hidden_global_offset_x", HiddenKind::kGlobalOffsetX},
      {"hidden_global_offset_y", HiddenKind::kGlobalOffsetY},
      {"hidden_global_offset_z", HiddenKind::kGlobalOffsetZ},
      {"hidden_block_count_x", HiddenKind::kBlockCountX},
      {"hidden_block_count_y", HiddenKind::kBlockCountY},
      {"hidden_block_count_z", HiddenKind::kBlockCountZ},
      {"hidden_group_size_x", HiddenKind::kGroupSizeX},
      {"hidden_group_size_y", HiddenKind::kGroupSizeY},
      {"hidden_group_size_z", HiddenKind::kGroupSizeZ},
      {"hidden_remainder_x", HiddenKind::kRemainderX},
      {"hidden_remainder_y", HiddenKind::kRemainderY},
      {"hidden_remainder_z", HiddenKind::kRemainderZ},
      {"hidden_grid_dims", HiddenKind::kGridDims},
      {"hidden_dynamic_lds_size", HiddenKind::kDynamicLdsSize},
      {"hidden_queue_ptr", HiddenKind::kQueuePtr},
      {"hidden_private_base", HiddenKind::kPrivateBase},
      {"hidden_shared_base", HiddenKind::kSharedBase},
      {"hidden_hostcall_buffer", HiddenKind::kHostcallBuffer},
      {"hidden_printf_buffer", HiddenKind::kPrintfBuffer},
      {"hidden_multigrid_sync_arg", HiddenKind::kMultigridSyncArg},
      {"hidden_heap_v1", HiddenKind::kHeapV1},
  };
  out = HiddenKind::kZero;
  for (const auto& e : kTable)
    if (e.name == k) out = e.kind;
  return true;
}

namespace {

void put(std::span<std::byte> dst, uint32_t offset, uint32_t size, uint64_t value) {
  if (size == 0 || uint64_t(offset) + size > dst.size()) return;
  for (uint32_t i = 0; i < size; ++i)
    dst[offset + i] = std::byte(i < 8 ? (value >> (8 * i)) & 0xFF : 0);
}

}  // namespace

void fill_hidden(std::span<std::byte> kernarg, std::span<const HiddenArg> hidden,
                 const HiddenValues& v) {
  for (const HiddenArg& a : hidden) {
    uint64_t value = 0;
    switch (a.kind) {
      case HiddenKind::kBlockCountX: value = v.grid_blocks[0]; break;
      case HiddenKind::kBlockCountY: value = v.grid_blocks[1]; break;
      case HiddenKind::kBlockCountZ: value = v.grid_blocks[2]; break;
      case HiddenKind::kGroupSizeX: value = v.block[0]; break;
      case HiddenKind::kGroupSizeY: value = v.block[1]; break;
      case HiddenKind::kGroupSizeZ: value = v.block[2]; break;
      // HIP grids are whole blocks: the partial last group is always empty.
      case HiddenKind::kRemainderX:
      case HiddenKind::kRemainderY:
      case HiddenKind::kRemainderZ: value = 0; break;
      case HiddenKind::kGridDims: value = kDispatchDimensions; break;
      case HiddenKind::kDynamicLdsSize: value = v.dynamic_lds_bytes; break;
      case HiddenKind::kQueuePtr: value = v.queue_ptr; break;
      case HiddenKind::kPrivateBase: value = v.private_base_hi; break;
      case HiddenKind::kSharedBase: value = v.shared_base_hi; break;
      case HiddenKind::kHostcallBuffer:
      case HiddenKind::kPrintfBuffer: value = v.hostcall_buffer; break;
      case HiddenKind::kHeapV1: value = v.heap; break;
      default: value = 0; break;  // global offsets, multigrid sync (not cooperative), reserved
    }
    put(kernarg, a.offset, a.size, value);
  }
}

uint64_t reserve(const Api& api, hsa_queue_t* queue) {
  uint64_t index = api.hsa_queue_add_write_index_scacq_screl(queue, 1);
  // The slot is free once the packet processor has read the packet `size`
  // places back.
  while (index - api.hsa_queue_load_read_index_scacquire(queue) >= queue->size)
    std::this_thread::yield();
  return index;
}

void publish(const Api& api, hsa_queue_t* queue, uint64_t index, const void* packet,
             uint32_t header_word) {
  auto* slot =
      static_cast<std::byte*>(queue->base_address) + (index & (queue->size - 1)) * kPacketBytes;
  // Bytes 4..63 first; the packet processor ignores the slot while its type is INVALID.
  std::memcpy(slot + 4, static_cast<const std::byte*>(packet) + 4, kPacketBytes - 4);
  __atomic_store_n(reinterpret_cast<uint32_t*>(slot), header_word, __ATOMIC_RELEASE);
  api.hsa_signal_store_screlease(queue->doorbell_signal, hsa_signal_value_t(index));
}

}  // namespace weft::hsa::aql
