// SPDX-License-Identifier: MIT
// hipDeviceGetAttribute answered from the device's hipDeviceProp_t, so both
// views always agree. Attributes outside the properties go to the driver.
#include "api/device_attributes.hpp"

#include <algorithm>
#include <cstdint>

namespace weft::api {

Result<int> attribute_from_props(const hipDeviceProp_tR0600& p, hipDeviceAttribute_t attr) {
  switch (attr) {
    case hipDeviceAttributeEccEnabled: return p.ECCEnabled;
    case hipDeviceAttributeAccessPolicyMaxWindowSize: return p.accessPolicyMaxWindowSize;
    case hipDeviceAttributeAsyncEngineCount: return p.asyncEngineCount;
    case hipDeviceAttributeCanMapHostMemory: return p.canMapHostMemory;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem:
      return p.canUseHostPointerForRegisteredMem;
    case hipDeviceAttributeClockRate: return p.clockRate;
    case hipDeviceAttributeComputeMode: return p.computeMode;
    case hipDeviceAttributeComputePreemptionSupported: return p.computePreemptionSupported;
    case hipDeviceAttributeConcurrentKernels: return p.concurrentKernels;
    case hipDeviceAttributeConcurrentManagedAccess: return p.concurrentManagedAccess;
    case hipDeviceAttributeCooperativeLaunch: return p.cooperativeLaunch;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: return p.cooperativeMultiDeviceLaunch;
    case hipDeviceAttributeDeviceOverlap: return p.deviceOverlap;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: return p.directManagedMemAccessFromHost;
    case hipDeviceAttributeGlobalL1CacheSupported: return p.globalL1CacheSupported;
    case hipDeviceAttributeHostNativeAtomicSupported: return p.hostNativeAtomicSupported;
    case hipDeviceAttributeIntegrated: return p.integrated;
    case hipDeviceAttributeIsMultiGpuBoard: return p.isMultiGpuBoard;
    case hipDeviceAttributeKernelExecTimeout: return p.kernelExecTimeoutEnabled;
    case hipDeviceAttributeL2CacheSize: return p.l2CacheSize;
    case hipDeviceAttributeLocalL1CacheSupported: return p.localL1CacheSupported;
    case hipDeviceAttributeLuidDeviceNodeMask: return static_cast<int>(p.luidDeviceNodeMask);
    case hipDeviceAttributeComputeCapabilityMajor: return p.major;
    case hipDeviceAttributeManagedMemory: return p.managedMemory;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor: return p.maxBlocksPerMultiProcessor;
    case hipDeviceAttributeMaxBlockDimX: return p.maxThreadsDim[0];
    case hipDeviceAttributeMaxBlockDimY: return p.maxThreadsDim[1];
    case hipDeviceAttributeMaxBlockDimZ: return p.maxThreadsDim[2];
    case hipDeviceAttributeMaxGridDimX: return p.maxGridSize[0];
    case hipDeviceAttributeMaxGridDimY: return p.maxGridSize[1];
    case hipDeviceAttributeMaxGridDimZ: return p.maxGridSize[2];
    case hipDeviceAttributeMaxSurface1D: return p.maxSurface1D;
    case hipDeviceAttributeMaxSurface1DLayered: return p.maxSurface1DLayered[0];
    case hipDeviceAttributeMaxSurface2D: return p.maxSurface2D[0];
    case hipDeviceAttributeMaxSurface2DLayered: return p.maxSurface2DLayered[0];
    case hipDeviceAttributeMaxSurface3D: return p.maxSurface3D[0];
    case hipDeviceAttributeMaxSurfaceCubemap: return p.maxSurfaceCubemap;
    case hipDeviceAttributeMaxSurfaceCubemapLayered: return p.maxSurfaceCubemapLayered[0];
    case hipDeviceAttributeMaxTexture1DWidth: return p.maxTexture1D;
    case hipDeviceAttributeMaxTexture1DLayered: return p.maxTexture1DLayered[0];
    case hipDeviceAttributeMaxTexture1DLinear: return p.maxTexture1DLinear;
    case hipDeviceAttributeMaxTexture1DMipmap: return p.maxTexture1DMipmap;
    case hipDeviceAttributeMaxTexture2DWidth: return p.maxTexture2D[0];
    case hipDeviceAttributeMaxTexture2DHeight: return p.maxTexture2D[1];
    case hipDeviceAttributeMaxTexture2DGather: return p.maxTexture2DGather[0];
    case hipDeviceAttributeMaxTexture2DLayered: return p.maxTexture2DLayered[0];
    case hipDeviceAttributeMaxTexture2DLinear: return p.maxTexture2DLinear[0];
    case hipDeviceAttributeMaxTexture2DMipmap: return p.maxTexture2DMipmap[0];
    case hipDeviceAttributeMaxTexture3DWidth: return p.maxTexture3D[0];
    case hipDeviceAttributeMaxTexture3DHeight: return p.maxTexture3D[1];
    case hipDeviceAttributeMaxTexture3DDepth: return p.maxTexture3D[2];
    case hipDeviceAttributeMaxTexture3DAlt: return p.maxTexture3DAlt[0];
    case hipDeviceAttributeMaxTextureCubemap: return p.maxTextureCubemap;
    case hipDeviceAttributeMaxTextureCubemapLayered: return p.maxTextureCubemapLayered[0];
    case hipDeviceAttributeMaxThreadsDim: return p.maxThreadsDim[0];
    case hipDeviceAttributeMaxThreadsPerBlock: return p.maxThreadsPerBlock;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: return p.maxThreadsPerMultiProcessor;
    case hipDeviceAttributeMaxPitch:
      return static_cast<int>(std::min<size_t>(p.memPitch, INT32_MAX));
    case hipDeviceAttributeMemoryBusWidth: return p.memoryBusWidth;
    case hipDeviceAttributeMemoryClockRate: return p.memoryClockRate;
    case hipDeviceAttributeComputeCapabilityMinor: return p.minor;
    case hipDeviceAttributeMultiGpuBoardGroupID: return p.multiGpuBoardGroupID;
    case hipDeviceAttributeMultiprocessorCount: return p.multiProcessorCount;
    case hipDeviceAttributePageableMemoryAccess: return p.pageableMemoryAccess;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables:
      return p.pageableMemoryAccessUsesHostPageTables;
    case hipDeviceAttributePciBusId: return p.pciBusID;
    case hipDeviceAttributePciDeviceId: return p.pciDeviceID;
    case hipDeviceAttributePciDomainID: return p.pciDomainID;
    case hipDeviceAttributePersistingL2CacheMaxSize: return p.persistingL2CacheMaxSize;
    case hipDeviceAttributeMaxRegistersPerBlock: return p.regsPerBlock;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor: return p.regsPerMultiprocessor;
    case hipDeviceAttributeReservedSharedMemPerBlock:
      return static_cast<int>(p.reservedSharedMemPerBlock);
    case hipDeviceAttributeMaxSharedMemoryPerBlock: return static_cast<int>(p.sharedMemPerBlock);
    case hipDeviceAttributeSharedMemPerBlockOptin:
      return static_cast<int>(p.sharedMemPerBlockOptin);
    case hipDeviceAttributeSharedMemPerMultiprocessor:
      return static_cast<int>(p.sharedMemPerMultiprocessor);
    case hipDeviceAttributeSingleToDoublePrecisionPerfRatio:
      return p.singleToDoublePrecisionPerfRatio;
    case hipDeviceAttributeStreamPrioritiesSupported: return p.streamPrioritiesSupported;
    case hipDeviceAttributeSurfaceAlignment: return static_cast<int>(p.surfaceAlignment);
    case hipDeviceAttributeTccDriver: return p.tccDriver;
    case hipDeviceAttributeTextureAlignment: return static_cast<int>(p.textureAlignment);
    case hipDeviceAttributeTexturePitchAlignment: return static_cast<int>(p.texturePitchAlignment);
    case hipDeviceAttributeTotalConstantMemory:
      return static_cast<int>(std::min<size_t>(p.totalConstMem, INT32_MAX));
    case hipDeviceAttributeTotalGlobalMem:
      // An int cannot hold it; AMD clamps the same way.
      return static_cast<int>(std::min<size_t>(p.totalGlobalMem, INT32_MAX));
    case hipDeviceAttributeUnifiedAddressing: return p.unifiedAddressing;
    case hipDeviceAttributeWarpSize: return p.warpSize;
    case hipDeviceAttributeMemoryPoolsSupported: return p.memoryPoolsSupported;
    case hipDeviceAttributeVirtualMemoryManagementSupported: return 0;
    case hipDeviceAttributeHostRegisterSupported: return p.hostRegisterSupported;
    case hipDeviceAttributeMemoryPoolSupportedHandleTypes:
      return static_cast<int>(p.memoryPoolSupportedHandleTypes);
    case hipDeviceAttributeClockInstructionRate: return p.clockInstructionRate;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
      return static_cast<int>(p.maxSharedMemoryPerMultiProcessor);
    case hipDeviceAttributeHdpMemFlushCntl:
    case hipDeviceAttributeHdpRegFlushCntl: return 0;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc:
      return p.cooperativeMultiDeviceUnmatchedFunc;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim:
      return p.cooperativeMultiDeviceUnmatchedGridDim;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim:
      return p.cooperativeMultiDeviceUnmatchedBlockDim;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem:
      return p.cooperativeMultiDeviceUnmatchedSharedMem;
    case hipDeviceAttributeIsLargeBar: return p.isLargeBar;
    case hipDeviceAttributeAsicRevision: return p.asicRevision;
    // Stream memory operations run as host steps (api/stream_memory.hpp): every agent
    // has them for host-reachable words.
    case hipDeviceAttributeCanUseStreamWaitValue: return 1;
    case hipDeviceAttributeImageSupport: return 0;
    case hipDeviceAttributePhysicalMultiProcessorCount: return p.multiProcessorCount;
    case hipDeviceAttributeFineGrainSupport: return p.managedMemory;
    case hipDeviceAttributeWallClockRate: return p.clockRate;
    case hipDeviceAttributeHostNumaId: return 0;
    case hipDeviceAttributeNumberOfXccs: return 1;
    case hipDeviceAttributePciChipId: return p.pciDeviceID;
    default:
      return Status(hipErrorInvalidValue, fmt::format("attribute {} is not known to this device",
                                                      static_cast<int>(attr)));
  }
}

}  // namespace weft::api
