// SPDX-License-Identifier: MIT
// hipDeviceProp_t from cuDeviceGetAttribute: every field CUDA can answer, the
// AMD-only fields from what the hardware really has. Needs no context.
#include <cstdio>
#include <cstring>
#include <string>

#include "device.hpp"
#include "status.hpp"

namespace weft::cuda {
namespace {

class AttributeReader {
 public:
  AttributeReader(const Api& api, CUdevice device) : api_(api), device_(device) {}
  // 0 when the driver does not know the attribute (older drivers).
  int operator()(CUdevice_attribute attr) const {
    int value = 0;
    return api_.cuDeviceGetAttribute(&value, attr, device_) == CUDA_SUCCESS ? value : 0;
  }

 private:
  const Api& api_;
  CUdevice device_;
};

void fill_limits(const AttributeReader& a, hipDeviceProp_tR0600& p) {
  p.sharedMemPerBlock = static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  p.regsPerBlock = a(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
  p.warpSize = a(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  p.memPitch = static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_MAX_PITCH));
  p.maxThreadsPerBlock = a(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  p.maxThreadsDim[0] = a(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
  p.maxThreadsDim[1] = a(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
  p.maxThreadsDim[2] = a(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
  p.maxGridSize[0] = a(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  p.maxGridSize[1] = a(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
  p.maxGridSize[2] = a(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
  p.clockRate = a(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  p.totalConstMem = static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
  p.major = a(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  p.minor = a(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  p.textureAlignment = static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT));
  p.texturePitchAlignment = static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT));
  p.deviceOverlap = a(CU_DEVICE_ATTRIBUTE_GPU_OVERLAP);
  p.multiProcessorCount = a(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  p.kernelExecTimeoutEnabled = a(CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT);
  p.integrated = a(CU_DEVICE_ATTRIBUTE_INTEGRATED);
  p.canMapHostMemory = a(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
  p.computeMode = a(CU_DEVICE_ATTRIBUTE_COMPUTE_MODE);
  p.memoryClockRate = a(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  p.memoryBusWidth = a(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  p.l2CacheSize = a(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  p.persistingL2CacheMaxSize = a(CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE);
  p.maxThreadsPerMultiProcessor = a(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  p.sharedMemPerMultiprocessor =
      static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
  p.regsPerMultiprocessor = a(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  p.sharedMemPerBlockOptin =
      static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  p.maxBlocksPerMultiProcessor = a(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
  p.accessPolicyMaxWindowSize = a(CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
  p.reservedSharedMemPerBlock =
      static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK));
  p.singleToDoublePrecisionPerfRatio = a(CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO);
}

void fill_textures(const AttributeReader& a, hipDeviceProp_tR0600& p) {
  p.maxTexture1D = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH);
  p.maxTexture1DMipmap = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH);
  p.maxTexture1DLinear = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH);
  p.maxTexture2D[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH);
  p.maxTexture2D[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT);
  p.maxTexture2DMipmap[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH);
  p.maxTexture2DMipmap[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT);
  p.maxTexture2DLinear[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH);
  p.maxTexture2DLinear[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT);
  p.maxTexture2DLinear[2] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH);
  p.maxTexture2DGather[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH);
  p.maxTexture2DGather[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT);
  p.maxTexture3D[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH);
  p.maxTexture3D[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT);
  p.maxTexture3D[2] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH);
  p.maxTexture3DAlt[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE);
  p.maxTexture3DAlt[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE);
  p.maxTexture3DAlt[2] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE);
  p.maxTextureCubemap = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH);
  p.maxTexture1DLayered[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH);
  p.maxTexture1DLayered[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS);
  p.maxTexture2DLayered[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH);
  p.maxTexture2DLayered[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT);
  p.maxTexture2DLayered[2] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS);
  p.maxTextureCubemapLayered[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH);
  p.maxTextureCubemapLayered[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS);
  p.maxSurface1D = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH);
  p.maxSurface2D[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH);
  p.maxSurface2D[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT);
  p.maxSurface3D[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH);
  p.maxSurface3D[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT);
  p.maxSurface3D[2] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH);
  p.maxSurface1DLayered[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH);
  p.maxSurface1DLayered[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS);
  p.maxSurface2DLayered[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH);
  p.maxSurface2DLayered[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT);
  p.maxSurface2DLayered[2] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS);
  p.maxSurfaceCubemap = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH);
  p.maxSurfaceCubemapLayered[0] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH);
  p.maxSurfaceCubemapLayered[1] = a(CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS);
  p.surfaceAlignment = static_cast<size_t>(a(CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT));
}

void fill_features(const AttributeReader& a, hipDeviceProp_tR0600& p) {
  p.concurrentKernels = a(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS);
  p.ECCEnabled = a(CU_DEVICE_ATTRIBUTE_ECC_ENABLED);
  p.pciBusID = a(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
  p.pciDeviceID = a(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID);
  p.pciDomainID = a(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID);
  p.tccDriver = a(CU_DEVICE_ATTRIBUTE_TCC_DRIVER);
  p.asyncEngineCount = a(CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
  p.unifiedAddressing = a(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
  p.streamPrioritiesSupported = a(CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED);
  p.globalL1CacheSupported = a(CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED);
  p.localL1CacheSupported = a(CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED);
  p.managedMemory = a(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
  p.isMultiGpuBoard = a(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD);
  p.multiGpuBoardGroupID = a(CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID);
  p.hostNativeAtomicSupported = a(CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED);
  p.pageableMemoryAccess = a(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS);
  p.concurrentManagedAccess = a(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS);
  p.computePreemptionSupported = a(CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED);
  p.canUseHostPointerForRegisteredMem =
      a(CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM);
  p.cooperativeLaunch = a(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH);
  p.cooperativeMultiDeviceLaunch = a(CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH);
  p.pageableMemoryAccessUsesHostPageTables =
      a(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES);
  p.directManagedMemAccessFromHost = a(CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST);
  p.hostRegisterSupported = a(CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED);
  p.sparseHipArraySupported = a(CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED);
  p.hostRegisterReadOnlySupported = a(CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED);
  p.timelineSemaphoreInteropSupported = a(CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED);
  // weft's stream-ordered allocator sits in the core and works on every agent.
  p.memoryPoolsSupported = 1;
  p.gpuDirectRDMASupported = a(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED);
  p.gpuDirectRDMAFlushWritesOptions =
      static_cast<unsigned>(a(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS));
  p.gpuDirectRDMAWritesOrdering = a(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING);
  p.memoryPoolSupportedHandleTypes =
      0;  // weft shares pools only on the CPU agent (docs/mempool.md)
  p.deferredMappingHipArraySupported = a(CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED);
  p.ipcEventSupported = a(CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED);
  p.clusterLaunch = a(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH);
  p.unifiedFunctionPointers = a(CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS);
}

// The AMD-only tail, answered for what an NVIDIA GPU of this generation has.
void fill_amd_fields(hipDeviceProp_tR0600& p, const std::string& target) {
  std::snprintf(p.gcnArchName, sizeof(p.gcnArchName), "%s", target.c_str());
  p.maxSharedMemoryPerMultiProcessor = p.sharedMemPerMultiprocessor;
  p.clockInstructionRate = p.clockRate;  // clock64() counts SM cycles
  hipDeviceArch_t& arch = p.arch;
  arch.hasGlobalInt32Atomics = arch.hasGlobalFloatAtomicExch = 1;
  arch.hasSharedInt32Atomics = arch.hasSharedFloatAtomicExch = 1;
  arch.hasFloatAtomicAdd = arch.hasGlobalInt64Atomics = arch.hasSharedInt64Atomics = 1;
  arch.hasDoubles = arch.hasWarpVote = arch.hasWarpBallot = arch.hasWarpShuffle = 1;
  arch.hasFunnelShift = arch.hasThreadFenceSystem = arch.hasSyncThreadsExt = 1;
  arch.hasSurfaceFuncs = arch.has3dGrid = arch.hasDynamicParallelism = 1;
}

}  // namespace

Result<DeviceFacts> read_device_facts(const Api& api, CUdevice device) {
  DeviceFacts facts;
  hipDeviceProp_tR0600& p = facts.props;
  std::memset(&p, 0, sizeof(p));
  WEFT_CU_RETURN_IF_ERROR(api.cuDeviceGetName(p.name, static_cast<int>(sizeof(p.name)), device));
  CUuuid uuid{};
  if (api.cuDeviceGetUuid(&uuid, device) == CUDA_SUCCESS)
    std::memcpy(p.uuid.bytes, uuid.bytes, sizeof(p.uuid.bytes));
  size_t total = 0;
  WEFT_CU_RETURN_IF_ERROR(api.cuDeviceTotalMem(&total, device));
  p.totalGlobalMem = total;
  AttributeReader a(api, device);
  fill_limits(a, p);
  fill_textures(a, p);
  fill_features(a, p);
  facts.target = "sm_" + std::to_string(p.major) + std::to_string(p.minor);
  fill_amd_fields(p, facts.target);
  facts.stream_wait_value = api.cuStreamWaitValue32 != nullptr;
  return facts;
}

}  // namespace weft::cuda
