// SPDX-License-Identifier: MIT
// Occupancy queries. The answers come from the agent's properties and the
// kernel's resource needs (api/launch_code_object.cpp); for the CPU agent a valid block
// size gives maxBlocksPerMultiProcessor resident blocks per core, the most a
// cooperative launch may have at once (docs/cpu-engine.md, "Cooperative launches").
#include "api/api.hpp"
#include "api/launch_code_object.hpp"

using namespace weft;
using namespace weft::api;

namespace {

Status check_flags(unsigned flags) {
  if (flags != hipOccupancyDefault && flags != hipOccupancyDisableCachingOverride)
    return invalid_value(fmt::format("unknown occupancy flags {:#x}", flags));
  return Status();
}

Status max_active(int* num_blocks, const KernelFacts& facts, int block_size,
                  size_t dynamic_shared) {
  if (!num_blocks) return invalid_value("null output");
  if (block_size <= 0) return invalid_value("block size must be positive");
  *num_blocks =
      active_blocks_per_unit(facts.device->props(), facts.info, block_size, dynamic_shared);
  return Status();
}

Status potential(int* grid_size, int* block_size, const KernelFacts& facts, size_t dynamic_shared,
                 int limit) {
  if (!grid_size || !block_size) return invalid_value("null output");
  if (limit < 0) return invalid_value("negative block size limit");
  best_block_size(facts.device->props(), facts.info, dynamic_shared, limit, grid_size, block_size);
  return Status();
}

}  // namespace

WEFT_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* f,
                                                                    int blockSize,
                                                                    size_t dynSharedMemPerBlk) {
  return call(
      "hipOccupancyMaxActiveBlocksPerMultiprocessor",
      [&] {
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_host_function(f));
    return max_active(numBlocks, facts, blockSize, dynSharedMemPerBlk);
      },
      numBlocks, f, blockSize, dynSharedMemPerBlk);
}

WEFT_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags) {
  return call(
      "hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
      [&] {
    WEFT_RETURN_IF_ERROR(check_flags(flags));
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_host_function(f));
    return max_active(numBlocks, facts, blockSize, dynSharedMemPerBlk);
      },
      numBlocks, f, blockSize, dynSharedMemPerBlk, flags);
}

WEFT_EXPORT hipError_t hipOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize,
                                                         const void* f, size_t dynSharedMemPerBlk,
                                                         int blockSizeLimit) {
  return call(
      "hipOccupancyMaxPotentialBlockSize",
      [&] {
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_host_function(f));
    return potential(gridSize, blockSize, facts, dynSharedMemPerBlk, blockSizeLimit);
      },
      gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit);
}

WEFT_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize,
                                                               hipFunction_t f,
                                                               size_t dynSharedMemPerBlk,
                                                               int blockSizeLimit) {
  return call(
      "hipModuleOccupancyMaxPotentialBlockSize",
      [&] {
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_function(f));
    return potential(gridSize, blockSize, facts, dynSharedMemPerBlk, blockSizeLimit);
      },
      gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit);
}

WEFT_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(
    int* gridSize, int* blockSize, hipFunction_t f, size_t dynSharedMemPerBlk, int blockSizeLimit,
    unsigned int flags) {
  return call(
      "hipModuleOccupancyMaxPotentialBlockSizeWithFlags",
      [&] {
    WEFT_RETURN_IF_ERROR(check_flags(flags));
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_function(f));
    return potential(gridSize, blockSize, facts, dynSharedMemPerBlk, blockSizeLimit);
      },
      gridSize, blockSize, f, dynSharedMemPerBlk, blockSizeLimit, flags);
}

WEFT_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
    int* numBlocks, hipFunction_t f, int blockSize, size_t dynSharedMemPerBlk) {
  return call(
      "hipModuleOccupancyMaxActiveBlocksPerMultiprocessor",
      [&] {
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_function(f));
    return max_active(numBlocks, facts, blockSize, dynSharedMemPerBlk);
      },
      numBlocks, f, blockSize, dynSharedMemPerBlk);
}

WEFT_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, hipFunction_t f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags) {
  return call(
      "hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
      [&] {
    WEFT_RETURN_IF_ERROR(check_flags(flags));
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_function(f));
    return max_active(numBlocks, facts, blockSize, dynSharedMemPerBlk);
      },
      numBlocks, f, blockSize, dynSharedMemPerBlk, flags);
}

WEFT_EXPORT hipError_t hipOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize,
                                                                const void* f, int numBlocks,
                                                                int blockSize) {
  return call(
      "hipOccupancyAvailableDynamicSMemPerBlock",
      [&] {
    if (!dynamicSmemSize) return invalid_value("null output");
    if (numBlocks <= 0 || blockSize <= 0)
      return invalid_value("block count and size must be positive");
    WEFT_ASSIGN_OR_RETURN(KernelFacts facts, facts_of_host_function(f));
    const auto& p = facts.device->props();
    *dynamicSmemSize = 0;
    if (active_blocks_per_unit(p, facts.info, blockSize, 0) < numBlocks) return Status();
    size_t per_unit = p.maxSharedMemoryPerMultiProcessor ? p.maxSharedMemoryPerMultiProcessor
                                                         : p.sharedMemPerMultiprocessor;
    size_t per_block = std::min<size_t>(p.sharedMemPerBlock, per_unit / size_t(numBlocks));
    *dynamicSmemSize = per_block - std::min<size_t>(per_block, facts.info.static_shared_bytes);
    return Status();
      },
      dynamicSmemSize, f, numBlocks, blockSize);
}
