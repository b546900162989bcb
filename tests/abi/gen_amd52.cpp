// SPDX-License-Identifier: MIT
// Generator for the ABI test: compiled against AMD's HIP 5.2 headers (Debian libamdhip64-dev,
// /usr/include/hip), never against weft's. It writes a header of X-macro rows holding AMD's values:
// enumerators, flag macros, structure sizes and field offsets that did not change between HIP 5.2
// and 7.x (hip-abi-facts.md, sections 6 and 7). abi_static_asserts.cpp compares weft's headers
// against those rows at compile time.
//
// Usage: abi_amd52_gen OUTPUT.h
#include <hip/hip_runtime_api.h>
#include <hip/library_types.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

FILE* g_out = nullptr;

void row(const char* macro, const char* a, long long v) {
  std::fprintf(g_out, "  %s(%s, %lldLL) \\\n", macro, a, v);
}
void row2(const char* macro, const char* a, const char* b, long long v) {
  std::fprintf(g_out, "  %s(%s, %s, %lldLL) \\\n", macro, a, b, v);
}

// Enumerators whose value is the same in HIP 5.2 and 7.x. Excluded because they changed later:
// hipMemoryType, hipGraphNodeType, hipLimit_t, the renamed device attributes (Name, Uuid, Arch,
// GcnArch, GcnArchName) and hipJitOptionNumOptions.
#define WEFT_AMD52_ENUMERATORS(E) \
  /* anon */ \
  E(HIP_SUCCESS) \
  E(HIP_ERROR_INVALID_VALUE) \
  E(HIP_ERROR_NOT_INITIALIZED) \
  E(HIP_ERROR_LAUNCH_OUT_OF_RESOURCES) \
  /* hipKernelNodeAttrID */ \
  E(hipKernelNodeAttributeAccessPolicyWindow) \
  E(hipKernelNodeAttributeCooperative) \
  /* hipAccessProperty */ \
  E(hipAccessPropertyNormal) \
  E(hipAccessPropertyStreaming) \
  E(hipAccessPropertyPersisting) \
  /* hipError_t */ \
  E(hipSuccess) \
  E(hipErrorInvalidValue) \
  E(hipErrorOutOfMemory) \
  E(hipErrorMemoryAllocation) \
  E(hipErrorNotInitialized) \
  E(hipErrorInitializationError) \
  E(hipErrorDeinitialized) \
  E(hipErrorProfilerDisabled) \
  E(hipErrorProfilerNotInitialized) \
  E(hipErrorProfilerAlreadyStarted) \
  E(hipErrorProfilerAlreadyStopped) \
  E(hipErrorInvalidConfiguration) \
  E(hipErrorInvalidPitchValue) \
  E(hipErrorInvalidSymbol) \
  E(hipErrorInvalidDevicePointer) \
  E(hipErrorInvalidMemcpyDirection) \
  E(hipErrorInsufficientDriver) \
  E(hipErrorMissingConfiguration) \
  E(hipErrorPriorLaunchFailure) \
  E(hipErrorInvalidDeviceFunction) \
  E(hipErrorNoDevice) \
  E(hipErrorInvalidDevice) \
  E(hipErrorInvalidImage) \
  E(hipErrorInvalidContext) \
  E(hipErrorContextAlreadyCurrent) \
  E(hipErrorMapFailed) \
  E(hipErrorMapBufferObjectFailed) \
  E(hipErrorUnmapFailed) \
  E(hipErrorArrayIsMapped) \
  E(hipErrorAlreadyMapped) \
  E(hipErrorNoBinaryForGpu) \
  E(hipErrorAlreadyAcquired) \
  E(hipErrorNotMapped) \
  E(hipErrorNotMappedAsArray) \
  E(hipErrorNotMappedAsPointer) \
  E(hipErrorECCNotCorrectable) \
  E(hipErrorUnsupportedLimit) \
  E(hipErrorContextAlreadyInUse) \
  E(hipErrorPeerAccessUnsupported) \
  E(hipErrorInvalidKernelFile) \
  E(hipErrorInvalidGraphicsContext) \
  E(hipErrorInvalidSource) \
  E(hipErrorFileNotFound) \
  E(hipErrorSharedObjectSymbolNotFound) \
  E(hipErrorSharedObjectInitFailed) \
  E(hipErrorOperatingSystem) \
  E(hipErrorInvalidHandle) \
  E(hipErrorInvalidResourceHandle) \
  E(hipErrorIllegalState) \
  E(hipErrorNotFound) \
  E(hipErrorNotReady) \
  E(hipErrorIllegalAddress) \
  E(hipErrorLaunchOutOfResources) \
  E(hipErrorLaunchTimeOut) \
  E(hipErrorPeerAccessAlreadyEnabled) \
  E(hipErrorPeerAccessNotEnabled) \
  E(hipErrorSetOnActiveProcess) \
  E(hipErrorContextIsDestroyed) \
  E(hipErrorAssert) \
  E(hipErrorHostMemoryAlreadyRegistered) \
  E(hipErrorHostMemoryNotRegistered) \
  E(hipErrorLaunchFailure) \
  E(hipErrorCooperativeLaunchTooLarge) \
  E(hipErrorNotSupported) \
  E(hipErrorStreamCaptureUnsupported) \
  E(hipErrorStreamCaptureInvalidated) \
  E(hipErrorStreamCaptureMerge) \
  E(hipErrorStreamCaptureUnmatched) \
  E(hipErrorStreamCaptureUnjoined) \
  E(hipErrorStreamCaptureIsolation) \
  E(hipErrorStreamCaptureImplicit) \
  E(hipErrorCapturedEvent) \
  E(hipErrorStreamCaptureWrongThread) \
  E(hipErrorGraphExecUpdateFailure) \
  E(hipErrorUnknown) \
  E(hipErrorRuntimeMemory) \
  E(hipErrorRuntimeOther) \
  E(hipErrorTbd) \
  /* hipDeviceAttribute_t */ \
  E(hipDeviceAttributeCudaCompatibleBegin) \
  E(hipDeviceAttributeEccEnabled) \
  E(hipDeviceAttributeAccessPolicyMaxWindowSize) \
  E(hipDeviceAttributeAsyncEngineCount) \
  E(hipDeviceAttributeCanMapHostMemory) \
  E(hipDeviceAttributeCanUseHostPointerForRegisteredMem) \
  E(hipDeviceAttributeClockRate) \
  E(hipDeviceAttributeComputeMode) \
  E(hipDeviceAttributeComputePreemptionSupported) \
  E(hipDeviceAttributeConcurrentKernels) \
  E(hipDeviceAttributeConcurrentManagedAccess) \
  E(hipDeviceAttributeCooperativeLaunch) \
  E(hipDeviceAttributeCooperativeMultiDeviceLaunch) \
  E(hipDeviceAttributeDeviceOverlap) \
  E(hipDeviceAttributeDirectManagedMemAccessFromHost) \
  E(hipDeviceAttributeGlobalL1CacheSupported) \
  E(hipDeviceAttributeHostNativeAtomicSupported) \
  E(hipDeviceAttributeIntegrated) \
  E(hipDeviceAttributeIsMultiGpuBoard) \
  E(hipDeviceAttributeKernelExecTimeout) \
  E(hipDeviceAttributeL2CacheSize) \
  E(hipDeviceAttributeLocalL1CacheSupported) \
  E(hipDeviceAttributeLuid) \
  E(hipDeviceAttributeLuidDeviceNodeMask) \
  E(hipDeviceAttributeComputeCapabilityMajor) \
  E(hipDeviceAttributeManagedMemory) \
  E(hipDeviceAttributeMaxBlocksPerMultiProcessor) \
  E(hipDeviceAttributeMaxBlockDimX) \
  E(hipDeviceAttributeMaxBlockDimY) \
  E(hipDeviceAttributeMaxBlockDimZ) \
  E(hipDeviceAttributeMaxGridDimX) \
  E(hipDeviceAttributeMaxGridDimY) \
  E(hipDeviceAttributeMaxGridDimZ) \
  E(hipDeviceAttributeMaxSurface1D) \
  E(hipDeviceAttributeMaxSurface1DLayered) \
  E(hipDeviceAttributeMaxSurface2D) \
  E(hipDeviceAttributeMaxSurface2DLayered) \
  E(hipDeviceAttributeMaxSurface3D) \
  E(hipDeviceAttributeMaxSurfaceCubemap) \
  E(hipDeviceAttributeMaxSurfaceCubemapLayered) \
  E(hipDeviceAttributeMaxTexture1DWidth) \
  E(hipDeviceAttributeMaxTexture1DLayered) \
  E(hipDeviceAttributeMaxTexture1DLinear) \
  E(hipDeviceAttributeMaxTexture1DMipmap) \
  E(hipDeviceAttributeMaxTexture2DWidth) \
  E(hipDeviceAttributeMaxTexture2DHeight) \
  E(hipDeviceAttributeMaxTexture2DGather) \
  E(hipDeviceAttributeMaxTexture2DLayered) \
  E(hipDeviceAttributeMaxTexture2DLinear) \
  E(hipDeviceAttributeMaxTexture2DMipmap) \
  E(hipDeviceAttributeMaxTexture3DWidth) \
  E(hipDeviceAttributeMaxTexture3DHeight) \
  E(hipDeviceAttributeMaxTexture3DDepth) \
  E(hipDeviceAttributeMaxTexture3DAlt) \
  E(hipDeviceAttributeMaxTextureCubemap) \
  E(hipDeviceAttributeMaxTextureCubemapLayered) \
  E(hipDeviceAttributeMaxThreadsDim) \
  E(hipDeviceAttributeMaxThreadsPerBlock) \
  E(hipDeviceAttributeMaxThreadsPerMultiProcessor) \
  E(hipDeviceAttributeMaxPitch) \
  E(hipDeviceAttributeMemoryBusWidth) \
  E(hipDeviceAttributeMemoryClockRate) \
  E(hipDeviceAttributeComputeCapabilityMinor) \
  E(hipDeviceAttributeMultiGpuBoardGroupID) \
  E(hipDeviceAttributeMultiprocessorCount) \
  E(hipDeviceAttributePageableMemoryAccess) \
  E(hipDeviceAttributePageableMemoryAccessUsesHostPageTables) \
  E(hipDeviceAttributePciBusId) \
  E(hipDeviceAttributePciDeviceId) \
  E(hipDeviceAttributePciDomainID) \
  E(hipDeviceAttributePersistingL2CacheMaxSize) \
  E(hipDeviceAttributeMaxRegistersPerBlock) \
  E(hipDeviceAttributeMaxRegistersPerMultiprocessor) \
  E(hipDeviceAttributeReservedSharedMemPerBlock) \
  E(hipDeviceAttributeMaxSharedMemoryPerBlock) \
  E(hipDeviceAttributeSharedMemPerBlockOptin) \
  E(hipDeviceAttributeSharedMemPerMultiprocessor) \
  E(hipDeviceAttributeSingleToDoublePrecisionPerfRatio) \
  E(hipDeviceAttributeStreamPrioritiesSupported) \
  E(hipDeviceAttributeSurfaceAlignment) \
  E(hipDeviceAttributeTccDriver) \
  E(hipDeviceAttributeTextureAlignment) \
  E(hipDeviceAttributeTexturePitchAlignment) \
  E(hipDeviceAttributeTotalConstantMemory) \
  E(hipDeviceAttributeTotalGlobalMem) \
  E(hipDeviceAttributeUnifiedAddressing) \
  E(hipDeviceAttributeWarpSize) \
  E(hipDeviceAttributeMemoryPoolsSupported) \
  E(hipDeviceAttributeCudaCompatibleEnd) \
  E(hipDeviceAttributeAmdSpecificBegin) \
  E(hipDeviceAttributeClockInstructionRate) \
  E(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor) \
  E(hipDeviceAttributeHdpMemFlushCntl) \
  E(hipDeviceAttributeHdpRegFlushCntl) \
  E(hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc) \
  E(hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim) \
  E(hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim) \
  E(hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem) \
  E(hipDeviceAttributeIsLargeBar) \
  E(hipDeviceAttributeAsicRevision) \
  E(hipDeviceAttributeCanUseStreamWaitValue) \
  E(hipDeviceAttributeImageSupport) \
  E(hipDeviceAttributePhysicalMultiProcessorCount) \
  E(hipDeviceAttributeFineGrainSupport) \
  E(hipDeviceAttributeAmdSpecificEnd) \
  E(hipDeviceAttributeVendorSpecificBegin) \
  /* hipComputeMode */ \
  E(hipComputeModeDefault) \
  E(hipComputeModeExclusive) \
  E(hipComputeModeProhibited) \
  E(hipComputeModeExclusiveProcess) \
  /* hipDeviceP2PAttr */ \
  E(hipDevP2PAttrPerformanceRank) \
  E(hipDevP2PAttrAccessSupported) \
  E(hipDevP2PAttrNativeAtomicSupported) \
  E(hipDevP2PAttrHipArrayAccessSupported) \
  /* hipMemoryAdvise */ \
  E(hipMemAdviseSetReadMostly) \
  E(hipMemAdviseUnsetReadMostly) \
  E(hipMemAdviseSetPreferredLocation) \
  E(hipMemAdviseUnsetPreferredLocation) \
  E(hipMemAdviseSetAccessedBy) \
  E(hipMemAdviseUnsetAccessedBy) \
  E(hipMemAdviseSetCoarseGrain) \
  E(hipMemAdviseUnsetCoarseGrain) \
  /* hipMemRangeCoherencyMode */ \
  E(hipMemRangeCoherencyModeFineGrain) \
  E(hipMemRangeCoherencyModeCoarseGrain) \
  E(hipMemRangeCoherencyModeIndeterminate) \
  /* hipMemRangeAttribute */ \
  E(hipMemRangeAttributeReadMostly) \
  E(hipMemRangeAttributePreferredLocation) \
  E(hipMemRangeAttributeAccessedBy) \
  E(hipMemRangeAttributeLastPrefetchLocation) \
  E(hipMemRangeAttributeCoherencyMode) \
  /* hipMemPoolAttr */ \
  E(hipMemPoolReuseFollowEventDependencies) \
  E(hipMemPoolReuseAllowOpportunistic) \
  E(hipMemPoolReuseAllowInternalDependencies) \
  E(hipMemPoolAttrReleaseThreshold) \
  E(hipMemPoolAttrReservedMemCurrent) \
  E(hipMemPoolAttrReservedMemHigh) \
  E(hipMemPoolAttrUsedMemCurrent) \
  E(hipMemPoolAttrUsedMemHigh) \
  /* hipMemLocationType */ \
  E(hipMemLocationTypeInvalid) \
  E(hipMemLocationTypeDevice) \
  /* hipMemAccessFlags */ \
  E(hipMemAccessFlagsProtNone) \
  E(hipMemAccessFlagsProtRead) \
  E(hipMemAccessFlagsProtReadWrite) \
  /* hipMemAllocationType */ \
  E(hipMemAllocationTypeInvalid) \
  E(hipMemAllocationTypePinned) \
  E(hipMemAllocationTypeMax) \
  /* hipMemAllocationHandleType */ \
  E(hipMemHandleTypeNone) \
  E(hipMemHandleTypePosixFileDescriptor) \
  E(hipMemHandleTypeWin32) \
  E(hipMemHandleTypeWin32Kmt) \
  /* hipJitOption */ \
  E(hipJitOptionMaxRegisters) \
  E(hipJitOptionThreadsPerBlock) \
  E(hipJitOptionWallTime) \
  E(hipJitOptionInfoLogBuffer) \
  E(hipJitOptionInfoLogBufferSizeBytes) \
  E(hipJitOptionErrorLogBuffer) \
  E(hipJitOptionErrorLogBufferSizeBytes) \
  E(hipJitOptionOptimizationLevel) \
  E(hipJitOptionTargetFromContext) \
  E(hipJitOptionTarget) \
  E(hipJitOptionFallbackStrategy) \
  E(hipJitOptionGenerateDebugInfo) \
  E(hipJitOptionLogVerbose) \
  E(hipJitOptionGenerateLineInfo) \
  E(hipJitOptionCacheMode) \
  E(hipJitOptionSm3xOpt) \
  E(hipJitOptionFastCompile) \
  /* hipFuncAttribute */ \
  E(hipFuncAttributeMaxDynamicSharedMemorySize) \
  E(hipFuncAttributePreferredSharedMemoryCarveout) \
  E(hipFuncAttributeMax) \
  /* hipFuncCache_t */ \
  E(hipFuncCachePreferNone) \
  E(hipFuncCachePreferShared) \
  E(hipFuncCachePreferL1) \
  E(hipFuncCachePreferEqual) \
  /* hipSharedMemConfig */ \
  E(hipSharedMemBankSizeDefault) \
  E(hipSharedMemBankSizeFourByte) \
  E(hipSharedMemBankSizeEightByte) \
  /* hipExternalMemoryHandleType */ \
  E(hipExternalMemoryHandleTypeOpaqueFd) \
  E(hipExternalMemoryHandleTypeOpaqueWin32) \
  E(hipExternalMemoryHandleTypeOpaqueWin32Kmt) \
  E(hipExternalMemoryHandleTypeD3D12Heap) \
  E(hipExternalMemoryHandleTypeD3D12Resource) \
  E(hipExternalMemoryHandleTypeD3D11Resource) \
  E(hipExternalMemoryHandleTypeD3D11ResourceKmt) \
  /* hipExternalSemaphoreHandleType */ \
  E(hipExternalSemaphoreHandleTypeOpaqueFd) \
  E(hipExternalSemaphoreHandleTypeOpaqueWin32) \
  E(hipExternalSemaphoreHandleTypeOpaqueWin32Kmt) \
  E(hipExternalSemaphoreHandleTypeD3D12Fence) \
  /* hipGraphicsRegisterFlags */ \
  E(hipGraphicsRegisterFlagsNone) \
  E(hipGraphicsRegisterFlagsReadOnly) \
  E(hipGraphicsRegisterFlagsWriteDiscard) \
  E(hipGraphicsRegisterFlagsSurfaceLoadStore) \
  E(hipGraphicsRegisterFlagsTextureGather) \
  /* hipGraphExecUpdateResult */ \
  E(hipGraphExecUpdateSuccess) \
  E(hipGraphExecUpdateError) \
  E(hipGraphExecUpdateErrorTopologyChanged) \
  E(hipGraphExecUpdateErrorNodeTypeChanged) \
  E(hipGraphExecUpdateErrorFunctionChanged) \
  E(hipGraphExecUpdateErrorParametersChanged) \
  E(hipGraphExecUpdateErrorNotSupported) \
  E(hipGraphExecUpdateErrorUnsupportedFunctionChange) \
  /* hipStreamCaptureMode */ \
  E(hipStreamCaptureModeGlobal) \
  E(hipStreamCaptureModeThreadLocal) \
  E(hipStreamCaptureModeRelaxed) \
  /* hipStreamCaptureStatus */ \
  E(hipStreamCaptureStatusNone) \
  E(hipStreamCaptureStatusActive) \
  E(hipStreamCaptureStatusInvalidated) \
  /* hipStreamUpdateCaptureDependenciesFlags */ \
  E(hipStreamAddCaptureDependencies) \
  E(hipStreamSetCaptureDependencies) \
  /* hipGraphInstantiateFlags */ \
  E(hipGraphInstantiateFlagAutoFreeOnLaunch) \
  /* hipMemAllocationGranularity_flags */ \
  E(hipMemAllocationGranularityMinimum) \
  E(hipMemAllocationGranularityRecommended) \
  /* hipMemHandleType */ \
  E(hipMemHandleTypeGeneric) \
  /* hipMemOperationType */ \
  E(hipMemOperationTypeMap) \
  E(hipMemOperationTypeUnmap) \
  /* hipArraySparseSubresourceType */ \
  E(hipArraySparseSubresourceTypeSparseLevel) \
  E(hipArraySparseSubresourceTypeMiptail) \
  /* hipChannelFormatKind */ \
  E(hipChannelFormatKindSigned) \
  E(hipChannelFormatKindUnsigned) \
  E(hipChannelFormatKindFloat) \
  E(hipChannelFormatKindNone) \
  /* hipArray_Format */ \
  E(HIP_AD_FORMAT_UNSIGNED_INT8) \
  E(HIP_AD_FORMAT_UNSIGNED_INT16) \
  E(HIP_AD_FORMAT_UNSIGNED_INT32) \
  E(HIP_AD_FORMAT_SIGNED_INT8) \
  E(HIP_AD_FORMAT_SIGNED_INT16) \
  E(HIP_AD_FORMAT_SIGNED_INT32) \
  E(HIP_AD_FORMAT_HALF) \
  E(HIP_AD_FORMAT_FLOAT) \
  /* hipResourceType */ \
  E(hipResourceTypeArray) \
  E(hipResourceTypeMipmappedArray) \
  E(hipResourceTypeLinear) \
  E(hipResourceTypePitch2D) \
  /* HIPresourcetype */ \
  E(HIP_RESOURCE_TYPE_ARRAY) \
  E(HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY) \
  E(HIP_RESOURCE_TYPE_LINEAR) \
  E(HIP_RESOURCE_TYPE_PITCH2D) \
  /* HIPaddress_mode */ \
  E(HIP_TR_ADDRESS_MODE_WRAP) \
  E(HIP_TR_ADDRESS_MODE_CLAMP) \
  E(HIP_TR_ADDRESS_MODE_MIRROR) \
  E(HIP_TR_ADDRESS_MODE_BORDER) \
  /* HIPfilter_mode */ \
  E(HIP_TR_FILTER_MODE_POINT) \
  E(HIP_TR_FILTER_MODE_LINEAR) \
  /* hipResourceViewFormat */ \
  E(hipResViewFormatNone) \
  E(hipResViewFormatUnsignedChar1) \
  E(hipResViewFormatUnsignedChar2) \
  E(hipResViewFormatUnsignedChar4) \
  E(hipResViewFormatSignedChar1) \
  E(hipResViewFormatSignedChar2) \
  E(hipResViewFormatSignedChar4) \
  E(hipResViewFormatUnsignedShort1) \
  E(hipResViewFormatUnsignedShort2) \
  E(hipResViewFormatUnsignedShort4) \
  E(hipResViewFormatSignedShort1) \
  E(hipResViewFormatSignedShort2) \
  E(hipResViewFormatSignedShort4) \
  E(hipResViewFormatUnsignedInt1) \
  E(hipResViewFormatUnsignedInt2) \
  E(hipResViewFormatUnsignedInt4) \
  E(hipResViewFormatSignedInt1) \
  E(hipResViewFormatSignedInt2) \
  E(hipResViewFormatSignedInt4) \
  E(hipResViewFormatHalf1) \
  E(hipResViewFormatHalf2) \
  E(hipResViewFormatHalf4) \
  E(hipResViewFormatFloat1) \
  E(hipResViewFormatFloat2) \
  E(hipResViewFormatFloat4) \
  E(hipResViewFormatUnsignedBlockCompressed1) \
  E(hipResViewFormatUnsignedBlockCompressed2) \
  E(hipResViewFormatUnsignedBlockCompressed3) \
  E(hipResViewFormatUnsignedBlockCompressed4) \
  E(hipResViewFormatSignedBlockCompressed4) \
  E(hipResViewFormatUnsignedBlockCompressed5) \
  E(hipResViewFormatSignedBlockCompressed5) \
  E(hipResViewFormatUnsignedBlockCompressed6H) \
  E(hipResViewFormatSignedBlockCompressed6H) \
  E(hipResViewFormatUnsignedBlockCompressed7) \
  /* HIPresourceViewFormat */ \
  E(HIP_RES_VIEW_FORMAT_NONE) \
  E(HIP_RES_VIEW_FORMAT_UINT_1X8) \
  E(HIP_RES_VIEW_FORMAT_UINT_2X8) \
  E(HIP_RES_VIEW_FORMAT_UINT_4X8) \
  E(HIP_RES_VIEW_FORMAT_SINT_1X8) \
  E(HIP_RES_VIEW_FORMAT_SINT_2X8) \
  E(HIP_RES_VIEW_FORMAT_SINT_4X8) \
  E(HIP_RES_VIEW_FORMAT_UINT_1X16) \
  E(HIP_RES_VIEW_FORMAT_UINT_2X16) \
  E(HIP_RES_VIEW_FORMAT_UINT_4X16) \
  E(HIP_RES_VIEW_FORMAT_SINT_1X16) \
  E(HIP_RES_VIEW_FORMAT_SINT_2X16) \
  E(HIP_RES_VIEW_FORMAT_SINT_4X16) \
  E(HIP_RES_VIEW_FORMAT_UINT_1X32) \
  E(HIP_RES_VIEW_FORMAT_UINT_2X32) \
  E(HIP_RES_VIEW_FORMAT_UINT_4X32) \
  E(HIP_RES_VIEW_FORMAT_SINT_1X32) \
  E(HIP_RES_VIEW_FORMAT_SINT_2X32) \
  E(HIP_RES_VIEW_FORMAT_SINT_4X32) \
  E(HIP_RES_VIEW_FORMAT_FLOAT_1X16) \
  E(HIP_RES_VIEW_FORMAT_FLOAT_2X16) \
  E(HIP_RES_VIEW_FORMAT_FLOAT_4X16) \
  E(HIP_RES_VIEW_FORMAT_FLOAT_1X32) \
  E(HIP_RES_VIEW_FORMAT_FLOAT_2X32) \
  E(HIP_RES_VIEW_FORMAT_FLOAT_4X32) \
  E(HIP_RES_VIEW_FORMAT_UNSIGNED_BC1) \
  E(HIP_RES_VIEW_FORMAT_UNSIGNED_BC2) \
  E(HIP_RES_VIEW_FORMAT_UNSIGNED_BC3) \
  E(HIP_RES_VIEW_FORMAT_UNSIGNED_BC4) \
  E(HIP_RES_VIEW_FORMAT_SIGNED_BC4) \
  E(HIP_RES_VIEW_FORMAT_UNSIGNED_BC5) \
  E(HIP_RES_VIEW_FORMAT_SIGNED_BC5) \
  E(HIP_RES_VIEW_FORMAT_UNSIGNED_BC6H) \
  E(HIP_RES_VIEW_FORMAT_SIGNED_BC6H) \
  E(HIP_RES_VIEW_FORMAT_UNSIGNED_BC7) \
  /* hipMemcpyKind */ \
  E(hipMemcpyHostToHost) \
  E(hipMemcpyHostToDevice) \
  E(hipMemcpyDeviceToHost) \
  E(hipMemcpyDeviceToDevice) \
  E(hipMemcpyDefault) \
  /* hipFunction_attribute */ \
  E(HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) \
  E(HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) \
  E(HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES) \
  E(HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) \
  E(HIP_FUNC_ATTRIBUTE_NUM_REGS) \
  E(HIP_FUNC_ATTRIBUTE_PTX_VERSION) \
  E(HIP_FUNC_ATTRIBUTE_BINARY_VERSION) \
  E(HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA) \
  E(HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) \
  E(HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) \
  E(HIP_FUNC_ATTRIBUTE_MAX) \
  /* hipPointer_attribute */ \
  E(HIP_POINTER_ATTRIBUTE_CONTEXT) \
  E(HIP_POINTER_ATTRIBUTE_MEMORY_TYPE) \
  E(HIP_POINTER_ATTRIBUTE_DEVICE_POINTER) \
  E(HIP_POINTER_ATTRIBUTE_HOST_POINTER) \
  E(HIP_POINTER_ATTRIBUTE_P2P_TOKENS) \
  E(HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS) \
  E(HIP_POINTER_ATTRIBUTE_BUFFER_ID) \
  E(HIP_POINTER_ATTRIBUTE_IS_MANAGED) \
  E(HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL) \
  E(HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE) \
  E(HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR) \
  E(HIP_POINTER_ATTRIBUTE_RANGE_SIZE) \
  E(HIP_POINTER_ATTRIBUTE_MAPPED) \
  E(HIP_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES) \
  E(HIP_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE) \
  E(HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS) \
  E(HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE) \
  /* hipTextureAddressMode */ \
  E(hipAddressModeWrap) \
  E(hipAddressModeClamp) \
  E(hipAddressModeMirror) \
  E(hipAddressModeBorder) \
  /* hipTextureFilterMode */ \
  E(hipFilterModePoint) \
  E(hipFilterModeLinear) \
  /* hipTextureReadMode */ \
  E(hipReadModeElementType) \
  E(hipReadModeNormalizedFloat) \
  /* hipSurfaceBoundaryMode */ \
  E(hipBoundaryModeZero) \
  E(hipBoundaryModeTrap) \
  E(hipBoundaryModeClamp) \
  /* hipDataType */ \
  E(HIP_R_16F) \
  E(HIP_R_32F) \
  E(HIP_R_64F) \
  E(HIP_C_16F) \
  E(HIP_C_32F) \
  E(HIP_C_64F) \
  /* hipLibraryPropertyType */ \
  E(HIP_LIBRARY_MAJOR_VERSION) \
  E(HIP_LIBRARY_MINOR_VERSION) \
  E(HIP_LIBRARY_PATCH_LEVEL) \
  /* end */

// Flag macros that kept their 5.2 value. Absent ones are skipped (#ifdef in emit_macros).
void emit_macros() {
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
#define M(name) row("WEFT_ABI_MACRO", #name, (long long)(name));
#define OPT(name) M(name)
#ifdef hipStreamDefault
  M(hipStreamDefault) M(hipStreamNonBlocking)
#endif
  M(hipEventDefault) M(hipEventBlockingSync) M(hipEventDisableTiming) M(hipEventInterprocess)
#ifdef hipEventReleaseToDevice
  M(hipEventReleaseToDevice) M(hipEventReleaseToSystem)
#endif
  M(hipHostMallocDefault) M(hipHostMallocPortable) M(hipHostMallocMapped)
  M(hipHostMallocWriteCombined) M(hipHostMallocNumaUser) M(hipHostMallocCoherent)
  M(hipHostMallocNonCoherent)
  M(hipMemAttachGlobal) M(hipMemAttachHost) M(hipMemAttachSingle)
  M(hipDeviceMallocDefault) M(hipDeviceMallocFinegrained) M(hipMallocSignalMemory)
  M(hipHostRegisterDefault) M(hipHostRegisterPortable) M(hipHostRegisterMapped)
  M(hipHostRegisterIoMemory) M(hipExtHostRegisterCoarseGrained)
  M(hipDeviceScheduleAuto) M(hipDeviceScheduleSpin) M(hipDeviceScheduleYield)
  M(hipDeviceScheduleBlockingSync) M(hipDeviceScheduleMask) M(hipDeviceMapHost)
  M(hipArrayDefault) M(hipArrayLayered) M(hipArraySurfaceLoadStore) M(hipArrayCubemap)
  M(hipArrayTextureGather)
  M(hipOccupancyDefault)
#ifdef hipOccupancyDisableCachingOverride
  M(hipOccupancyDisableCachingOverride)
#endif
  M(hipCooperativeLaunchMultiDeviceNoPreSync) M(hipCooperativeLaunchMultiDeviceNoPostSync)
  M(hipCpuDeviceId) M(hipInvalidDeviceId) M(hipExtAnyOrderLaunch)
  M(hipStreamWaitValueGte) M(hipStreamWaitValueEq) M(hipStreamWaitValueAnd)
  M(hipStreamWaitValueNor)
  M(HIP_IPC_HANDLE_SIZE)
#ifdef hipExternalMemoryDedicated
  M(hipExternalMemoryDedicated)
#endif
  M(HIP_TRSA_OVERRIDE_FORMAT) M(HIP_TRSF_READ_AS_INTEGER) M(HIP_TRSF_NORMALIZED_COORDINATES)
  M(HIP_TRSF_SRGB)
  M(hipTextureType1D) M(hipTextureType2D) M(hipTextureType3D) M(hipTextureTypeCubemap)
  M(hipTextureType1DLayered) M(hipTextureType2DLayered) M(hipTextureTypeCubemapLayered)
  M(HIP_IMAGE_OBJECT_SIZE_DWORD) M(HIP_SAMPLER_OBJECT_SIZE_DWORD)
  M(HIP_SAMPLER_OBJECT_OFFSET_DWORD) M(HIP_TEXTURE_OBJECT_SIZE_DWORD)
#undef M
#undef OPT
  // clang-format on
}

// Pointer-valued macros: not constant expressions in C++, so the check runs them at run time.
void emit_pointer_macros() {
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
#define P(name) row("WEFT_ABI_POINTER_MACRO", #name, (long long)(std::uintptr_t)(name));
  P(HIP_LAUNCH_PARAM_BUFFER_POINTER) P(HIP_LAUNCH_PARAM_BUFFER_SIZE) P(HIP_LAUNCH_PARAM_END)
  P(hipStreamPerThread)
#undef P
  // clang-format on
}

// Structure sizes and alignments; field offsets (weft field name, AMD 5.2 field name).
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
#define S(type) \
  row("WEFT_ABI_SIZEOF", #type, (long long)sizeof(type)); \
  row("WEFT_ABI_ALIGNOF", #type, (long long)alignof(type));
#define S2(ours, theirs) \
  row("WEFT_ABI_SIZEOF", #ours, (long long)sizeof(theirs)); \
  row("WEFT_ABI_ALIGNOF", #ours, (long long)alignof(theirs));
#define O(type, f) row2("WEFT_ABI_OFFSETOF", #type, #f, (long long)offsetof(type, f));
#define O2(ours, theirs, f_ours, f_theirs) \
  row2("WEFT_ABI_OFFSETOF", #ours, #f_ours, (long long)offsetof(theirs, f_theirs));

void emit_layouts() {
  S(dim3) O(dim3, x) O(dim3, y) O(dim3, z)
  S(hipUUID) O(hipUUID, bytes)
  S(hipDeviceArch_t)
  S(hipIpcMemHandle_t) O(hipIpcMemHandle_t, reserved)
  S(hipIpcEventHandle_t) O(hipIpcEventHandle_t, reserved)
  S(hipChannelFormatDesc) O(hipChannelFormatDesc, x) O(hipChannelFormatDesc, y)
  O(hipChannelFormatDesc, z) O(hipChannelFormatDesc, w) O(hipChannelFormatDesc, f)

  S(hipPointerAttribute_t)
  O2(hipPointerAttribute_t, hipPointerAttribute_t, type, memoryType)
  O(hipPointerAttribute_t, device) O(hipPointerAttribute_t, devicePointer)
  O(hipPointerAttribute_t, hostPointer) O(hipPointerAttribute_t, isManaged)
  O(hipPointerAttribute_t, allocationFlags)

  S(hipKernelNodeParams) O(hipKernelNodeParams, blockDim) O(hipKernelNodeParams, extra)
  O(hipKernelNodeParams, func) O(hipKernelNodeParams, gridDim)
  O(hipKernelNodeParams, kernelParams) O(hipKernelNodeParams, sharedMemBytes)

  S(hipMemsetParams) O(hipMemsetParams, dst) O(hipMemsetParams, elementSize)
  O(hipMemsetParams, height) O(hipMemsetParams, pitch) O(hipMemsetParams, value)
  O(hipMemsetParams, width)

  S(hipHostNodeParams) O(hipHostNodeParams, fn) O(hipHostNodeParams, userData)

  S(hipPos) O(hipPos, x) O(hipPos, y) O(hipPos, z)
  S(hipExtent) O(hipExtent, width) O(hipExtent, height) O(hipExtent, depth)
  S(hipPitchedPtr) O(hipPitchedPtr, ptr) O(hipPitchedPtr, pitch) O(hipPitchedPtr, xsize)
  O(hipPitchedPtr, ysize)
  S(hipMemcpy3DParms) O(hipMemcpy3DParms, srcArray) O(hipMemcpy3DParms, srcPos)
  O(hipMemcpy3DParms, srcPtr) O(hipMemcpy3DParms, dstArray) O(hipMemcpy3DParms, dstPos)
  O(hipMemcpy3DParms, dstPtr) O(hipMemcpy3DParms, extent) O(hipMemcpy3DParms, kind)

  S(hipFuncAttributes) O(hipFuncAttributes, binaryVersion) O(hipFuncAttributes, cacheModeCA)
  O(hipFuncAttributes, constSizeBytes) O(hipFuncAttributes, localSizeBytes)
  O(hipFuncAttributes, maxDynamicSharedSizeBytes) O(hipFuncAttributes, maxThreadsPerBlock)
  O(hipFuncAttributes, numRegs) O(hipFuncAttributes, preferredShmemCarveout)
  O(hipFuncAttributes, ptxVersion) O(hipFuncAttributes, sharedSizeBytes)

  S(hipLaunchParams) O(hipLaunchParams, func) O(hipLaunchParams, gridDim)
  O(hipLaunchParams, blockDim) O(hipLaunchParams, args) O(hipLaunchParams, sharedMem)
  O(hipLaunchParams, stream)

  // Other records whose layout did not change after 5.2. Left out because they did change:
  // hipMipmappedArray, hipMemAllocationProp, HIP_MEMCPY3D (unsigned -> size_t fields), the
  // external memory/semaphore descriptors (reserved words added) and hipMemPoolProps.reserved
  // (maxSize inserted before it; the total size stayed 88).
  S(HIP_ARRAY_DESCRIPTOR) O(HIP_ARRAY_DESCRIPTOR, Width) O(HIP_ARRAY_DESCRIPTOR, Height)
  O(HIP_ARRAY_DESCRIPTOR, Format) O(HIP_ARRAY_DESCRIPTOR, NumChannels)
  S(HIP_ARRAY3D_DESCRIPTOR) O(HIP_ARRAY3D_DESCRIPTOR, Depth) O(HIP_ARRAY3D_DESCRIPTOR, Format)
  O(HIP_ARRAY3D_DESCRIPTOR, NumChannels) O(HIP_ARRAY3D_DESCRIPTOR, Flags)
  S(hip_Memcpy2D) O(hip_Memcpy2D, srcMemoryType) O(hip_Memcpy2D, srcHost)
  O(hip_Memcpy2D, srcDevice) O(hip_Memcpy2D, srcArray) O(hip_Memcpy2D, srcPitch)
  O(hip_Memcpy2D, dstXInBytes) O(hip_Memcpy2D, dstMemoryType) O(hip_Memcpy2D, dstHost)
  O(hip_Memcpy2D, dstPitch) O(hip_Memcpy2D, WidthInBytes) O(hip_Memcpy2D, Height)
  S(hipResourceDesc) O(hipResourceDesc, resType) O(hipResourceDesc, res)
  S(HIP_RESOURCE_DESC) O(HIP_RESOURCE_DESC, resType) O(HIP_RESOURCE_DESC, res)
  O(HIP_RESOURCE_DESC, flags)
  S(hipResourceViewDesc) O(hipResourceViewDesc, format) O(hipResourceViewDesc, width)
  O(hipResourceViewDesc, depth) O(hipResourceViewDesc, firstMipmapLevel)
  O(hipResourceViewDesc, lastLayer)
  S(HIP_RESOURCE_VIEW_DESC) O(HIP_RESOURCE_VIEW_DESC, lastLayer) O(HIP_RESOURCE_VIEW_DESC, reserved)
  S(HIP_TEXTURE_DESC) O(HIP_TEXTURE_DESC, filterMode) O(HIP_TEXTURE_DESC, flags)
  O(HIP_TEXTURE_DESC, mipmapFilterMode) O(HIP_TEXTURE_DESC, borderColor)
  O(HIP_TEXTURE_DESC, reserved)
  S(hipTextureDesc) O(hipTextureDesc, addressMode) O(hipTextureDesc, filterMode)
  O(hipTextureDesc, readMode) O(hipTextureDesc, sRGB) O(hipTextureDesc, borderColor)
  O(hipTextureDesc, normalizedCoords) O(hipTextureDesc, maxAnisotropy)
  O(hipTextureDesc, mipmapFilterMode) O(hipTextureDesc, mipmapLevelBias)
  O(hipTextureDesc, minMipmapLevelClamp) O(hipTextureDesc, maxMipmapLevelClamp)
  S(textureReference) O(textureReference, normalized) O(textureReference, readMode)
  O(textureReference, filterMode) O(textureReference, addressMode)
  O(textureReference, channelDesc) O(textureReference, sRGB) O(textureReference, maxAnisotropy)
  O(textureReference, mipmapFilterMode) O(textureReference, mipmapLevelBias)
  O(textureReference, minMipmapLevelClamp) O(textureReference, maxMipmapLevelClamp)
  O(textureReference, textureObject) O(textureReference, numChannels) O(textureReference, format)
  S(surfaceReference) O(surfaceReference, surfaceObject)
  S(hipMemLocation) O(hipMemLocation, type) O(hipMemLocation, id)
  S(hipMemAccessDesc) O(hipMemAccessDesc, location) O(hipMemAccessDesc, flags)
  S(hipMemPoolProps) O(hipMemPoolProps, allocType) O(hipMemPoolProps, handleTypes)
  O(hipMemPoolProps, location) O(hipMemPoolProps, win32SecurityAttributes)
  S(hipMemPoolPtrExportData)
  S(hipAccessPolicyWindow) O(hipAccessPolicyWindow, base_ptr) O(hipAccessPolicyWindow, hitProp)
  O(hipAccessPolicyWindow, hitRatio) O(hipAccessPolicyWindow, missProp)
  O(hipAccessPolicyWindow, num_bytes)
  S(hipArrayMapInfo) O(hipArrayMapInfo, resource) O(hipArrayMapInfo, subresourceType)
  O(hipArrayMapInfo, subresource) O(hipArrayMapInfo, memOperationType)
  O(hipArrayMapInfo, memHandleType) O(hipArrayMapInfo, memHandle) O(hipArrayMapInfo, offset)
  O(hipArrayMapInfo, deviceBitMask) O(hipArrayMapInfo, flags) O(hipArrayMapInfo, reserved)

  // The whole pre-6.0 device-properties record (weft: hipDeviceProp_tR0000).
#define R(f) O2(hipDeviceProp_tR0000, hipDeviceProp_t, f, f)
  S2(hipDeviceProp_tR0000, hipDeviceProp_t)
  R(name) R(totalGlobalMem) R(sharedMemPerBlock) R(regsPerBlock) R(warpSize)
  R(maxThreadsPerBlock) R(maxThreadsDim) R(maxGridSize) R(clockRate) R(memoryClockRate)
  R(memoryBusWidth) R(totalConstMem) R(major) R(minor) R(multiProcessorCount) R(l2CacheSize)
  R(maxThreadsPerMultiProcessor) R(computeMode) R(clockInstructionRate) R(arch)
  R(concurrentKernels) R(pciDomainID) R(pciBusID) R(pciDeviceID)
  R(maxSharedMemoryPerMultiProcessor) R(isMultiGpuBoard) R(canMapHostMemory) R(gcnArch)
  R(gcnArchName) R(integrated) R(cooperativeLaunch) R(cooperativeMultiDeviceLaunch)
  R(maxTexture1DLinear) R(maxTexture1D) R(maxTexture2D) R(maxTexture3D) R(hdpMemFlushCntl)
  R(hdpRegFlushCntl) R(memPitch) R(textureAlignment) R(texturePitchAlignment)
  R(kernelExecTimeoutEnabled) R(ECCEnabled) R(tccDriver) R(cooperativeMultiDeviceUnmatchedFunc)
  R(cooperativeMultiDeviceUnmatchedGridDim) R(cooperativeMultiDeviceUnmatchedBlockDim)
  R(cooperativeMultiDeviceUnmatchedSharedMem) R(isLargeBar) R(asicRevision) R(managedMemory)
  R(directManagedMemAccessFromHost) R(concurrentManagedAccess) R(pageableMemoryAccess)
  R(pageableMemoryAccessUsesHostPageTables)
#undef R
  // clang-format on
}

// Bit position of each hipDeviceArch_t flag (bit-fields have no offsetof).
void emit_arch_bits() {
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
#define B(f)                                              \
  {                                                       \
    hipDeviceArch_t a;                                    \
    std::memset(&a, 0, sizeof a);                         \
    a.f = 1;                                              \
    std::uint32_t w = 0;                                  \
    std::memcpy(&w, &a, sizeof w);                        \
    int bit = 0;                                          \
    while (bit < 32 && !(w & (1u << bit))) ++bit;         \
    row("WEFT_ABI_ARCH_BIT", #f, bit);                    \
  }
  B(hasGlobalInt32Atomics) B(hasGlobalFloatAtomicExch) B(hasSharedInt32Atomics)
  B(hasSharedFloatAtomicExch) B(hasFloatAtomicAdd) B(hasGlobalInt64Atomics)
  B(hasSharedInt64Atomics) B(hasDoubles) B(hasWarpVote) B(hasWarpBallot) B(hasWarpShuffle)
  B(hasFunnelShift) B(hasThreadFenceSystem) B(hasSyncThreadsExt) B(hasSurfaceFuncs) B(has3dGrid)
  B(hasDynamicParallelism)
#undef B
  // clang-format on
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.h\n", argv[0]);
    return 2;
  }
  g_out = std::fopen(argv[1], "w");
  if (g_out == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  std::fprintf(g_out,
               "// Generated by tests/abi/gen_amd52.cpp from AMD's HIP %d.%d headers.\n"
               "// Do not edit.\n"
               "#pragma once\n\n"
               "#define WEFT_ABI_AMD52_ROWS(WEFT_ABI_ENUM, WEFT_ABI_MACRO, WEFT_ABI_SIZEOF, "
               "WEFT_ABI_ALIGNOF, WEFT_ABI_OFFSETOF) \\\n",
               HIP_VERSION_MAJOR, HIP_VERSION_MINOR);
  int count = 0;
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
#define E(name) row("WEFT_ABI_ENUM", #name, (long long)(name)); ++count;
  WEFT_AMD52_ENUMERATORS(E)
#undef E
  // clang-format on
  emit_macros();
  emit_layouts();
  std::fprintf(g_out, "  /* end */\n\n");
  std::fprintf(g_out,
               "#define WEFT_ABI_AMD52_RUNTIME_ROWS(WEFT_ABI_POINTER_MACRO, "
               "WEFT_ABI_ARCH_BIT) \\\n");
  emit_pointer_macros();
  emit_arch_bits();
  std::fprintf(g_out, "  /* end */\n");
  if (std::fclose(g_out) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
