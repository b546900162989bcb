/* SPDX-License-Identifier: MIT */
/* weft: the HIP host API (C), version 7.x.
 *
 * Declares every type, constant and entry point of AMD's HIP 7.x runtime API that weft's
 * libamdhip64 provides. Enumerator values, flag values and structure layouts are ABI and match
 * AMD's headers exactly (tests/abi checks them); the text and organisation are weft's own.
 *
 * Compiles as C99 and as C++; every function has C linkage. Deprecated entry points carry
 * HIP_DEPRECATED(), which only warns when WEFT_WARN_DEPRECATED is defined (see hip_common.h).
 *
 * Layout of this file:
 *   1. core types: errors, device properties and attributes, handles, flags
 *   2. memory, pool, VMM, launch and graph types
 *   3. entry points, grouped by area (device, error, stream, event, memory, ...)
 *   4. C++-only conveniences (templated overloads) */
#ifndef HIP_INCLUDE_HIP_HIP_RUNTIME_API_H
#define HIP_INCLUDE_HIP_HIP_RUNTIME_API_H

#ifdef __cplusplus
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#else
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#endif

#include <hip/driver_types.h>
#include <hip/hip_common.h>
#include <hip/hip_version.h>
#include <hip/surface_types.h>
#include <hip/texture_types.h>

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreserved-identifier"
#pragma clang diagnostic ignored "-Wreserved-macro-identifier"
#endif

/* Anonymous unions are standard in C++ and C11; __extension__ keeps C99 -pedantic quiet. */
#if defined(__GNUC__) || defined(__clang__)
#define WEFT_EXTENSION_ __extension__
#else
#define WEFT_EXTENSION_
#endif

/* Legacy status codes of the very first HIP releases. */
enum {
  HIP_SUCCESS = 0,
  HIP_ERROR_INVALID_VALUE,
  HIP_ERROR_NOT_INITIALIZED,
  HIP_ERROR_LAUNCH_OUT_OF_RESOURCES
};

/* =============================================================================================
 * 1. Core types
 * ============================================================================================= */

/* ---- Errors ------------------------------------------------------------------------------- */

/* In C++17 and later, ignoring a returned hipError_t draws a warning, as with AMD's headers.
 * Define WEFT_NO_NODISCARD to turn that off. */
#if defined(__cplusplus) && __cplusplus >= 201703L && !defined(WEFT_NO_NODISCARD)
#define WEFT_NODISCARD_ [[nodiscard]]
#else
#define WEFT_NODISCARD_
#endif

/* Status of every HIP call. Values follow CUDA's cudaError_t where the meaning is shared;
 * AMD-only codes live at 1052 and up. Aliases (same value, older name) are marked "alias". */
typedef enum WEFT_NODISCARD_ hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1, /* an argument is NULL or out of range */
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2, /* alias */
  hipErrorNotInitialized = 3,
  hipErrorInitializationError = 3, /* alias */
  hipErrorDeinitialized = 4,
  hipErrorProfilerDisabled = 5,
  hipErrorProfilerNotInitialized = 6,
  hipErrorProfilerAlreadyStarted = 7,
  hipErrorProfilerAlreadyStopped = 8,
  hipErrorInvalidConfiguration = 9, /* bad launch configuration */
  hipErrorInvalidPitchValue = 12,
  hipErrorInvalidSymbol = 13,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorInsufficientDriver = 35,
  hipErrorMissingConfiguration = 52,
  hipErrorPriorLaunchFailure = 53,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorInvalidContext = 201,
  hipErrorContextAlreadyCurrent = 202,
  hipErrorMapFailed = 205,
  hipErrorMapBufferObjectFailed = 205, /* alias */
  hipErrorUnmapFailed = 206,
  hipErrorArrayIsMapped = 207,
  hipErrorAlreadyMapped = 208,
  hipErrorNoBinaryForGpu = 209,
  hipErrorAlreadyAcquired = 210,
  hipErrorNotMapped = 211,
  hipErrorNotMappedAsArray = 212,
  hipErrorNotMappedAsPointer = 213,
  hipErrorECCNotCorrectable = 214,
  hipErrorUnsupportedLimit = 215,
  hipErrorContextAlreadyInUse = 216,
  hipErrorPeerAccessUnsupported = 217,
  hipErrorInvalidKernelFile = 218,
  hipErrorInvalidGraphicsContext = 219,
  hipErrorInvalidSource = 300,
  hipErrorFileNotFound = 301,
  hipErrorSharedObjectSymbolNotFound = 302,
  hipErrorSharedObjectInitFailed = 303,
  hipErrorOperatingSystem = 304,
  hipErrorInvalidHandle = 400,
  hipErrorInvalidResourceHandle = 400, /* alias */
  hipErrorIllegalState = 401,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600, /* not an error: work is still pending */
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchTimeOut = 702,
  hipErrorPeerAccessAlreadyEnabled = 704,
  hipErrorPeerAccessNotEnabled = 705,
  hipErrorSetOnActiveProcess = 708,
  hipErrorContextIsDestroyed = 709,
  hipErrorAssert = 710, /* a kernel's assert() fired */
  hipErrorHostMemoryAlreadyRegistered = 712,
  hipErrorHostMemoryNotRegistered = 713,
  hipErrorLaunchFailure = 719, /* the device faulted while running a kernel */
  hipErrorCooperativeLaunchTooLarge = 720,
  hipErrorNotSupported = 801,
  hipErrorStreamCaptureUnsupported = 900,
  hipErrorStreamCaptureInvalidated = 901,
  hipErrorStreamCaptureMerge = 902,
  hipErrorStreamCaptureUnmatched = 903,
  hipErrorStreamCaptureUnjoined = 904,
  hipErrorStreamCaptureIsolation = 905,
  hipErrorStreamCaptureImplicit = 906,
  hipErrorCapturedEvent = 907,
  hipErrorStreamCaptureWrongThread = 908,
  hipErrorGraphExecUpdateFailure = 910,
  hipErrorInvalidChannelDescriptor = 911,
  hipErrorInvalidTexture = 912,
  hipErrorUnknown = 999,
  hipErrorRuntimeMemory = 1052, /* the HSA runtime failed a memory call */
  hipErrorRuntimeOther = 1053,  /* the HSA runtime failed another call */
  hipErrorTbd = 1054            /* end marker */
} hipError_t;

#undef WEFT_NODISCARD_

/* ---- Devices ------------------------------------------------------------------------------ */

/* Architectural feature bits of a device (one bit each, from bit 0). */
typedef struct {
  unsigned hasGlobalInt32Atomics : 1;
  unsigned hasGlobalFloatAtomicExch : 1;
  unsigned hasSharedInt32Atomics : 1;
  unsigned hasSharedFloatAtomicExch : 1;
  unsigned hasFloatAtomicAdd : 1;
  unsigned hasGlobalInt64Atomics : 1;
  unsigned hasSharedInt64Atomics : 1;
  unsigned hasDoubles : 1;
  unsigned hasWarpVote : 1;
  unsigned hasWarpBallot : 1;
  unsigned hasWarpShuffle : 1;
  unsigned hasFunnelShift : 1;
  unsigned hasThreadFenceSystem : 1;
  unsigned hasSyncThreadsExt : 1;
  unsigned hasSurfaceFuncs : 1;
  unsigned has3dGrid : 1;
  unsigned hasDynamicParallelism : 1;
} hipDeviceArch_t;

typedef struct hipUUID_t {
  char bytes[16];
} hipUUID;

/* Since HIP 6.0 the device-properties structure and the calls that take it are versioned.
 * The plain names are macros for the 6.0 ("R0600") forms; the exported plain symbols
 * hipGetDeviceProperties and hipChooseDevice keep the pre-6.0 layout (hip_deprecated.h). */
#define hipGetDeviceProperties hipGetDevicePropertiesR0600
#define hipDeviceProp_t hipDeviceProp_tR0600
#define hipChooseDevice hipChooseDeviceR0600

/* Device properties, HIP 6.0+ layout: 1472 bytes. Fields up to reserved[] mirror CUDA's
 * cudaDeviceProp; the AMD-only fields follow hipReserved[]. */
typedef struct hipDeviceProp_t {
  char name[256];
  hipUUID uuid;
  char luid[8]; /* Windows only */
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate; /* kHz */
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate; /* kHz */
  int memoryBusWidth;  /* bits */
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseHipArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions; /* hipFlushGPUDirectRDMAWritesOptions bits */
  int gpuDirectRDMAWritesOrdering;              /* hipGPUDirectRDMAWritesOrdering */
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingHipArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[63];
  int hipReserved[32];
  /* AMD-only fields. */
  char gcnArchName[256]; /* e.g. "gfx90a:sramecc+:xnack-" */
  size_t maxSharedMemoryPerMultiProcessor;
  int clockInstructionRate; /* kHz of the clock() counter */
  hipDeviceArch_t arch;
  unsigned int* hdpMemFlushCntl;
  unsigned int* hdpRegFlushCntl;
  int cooperativeMultiDeviceUnmatchedFunc;
  int cooperativeMultiDeviceUnmatchedGridDim;
  int cooperativeMultiDeviceUnmatchedBlockDim;
  int cooperativeMultiDeviceUnmatchedSharedMem;
  int isLargeBar;
  int asicRevision;
} hipDeviceProp_t;

/* What hipPointerGetAttributes reports. 32 bytes; the 5.x name of "type" was memoryType. */
typedef struct hipPointerAttribute_t {
  enum hipMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  int isManaged;
  unsigned allocationFlags; /* flags the memory was allocated or registered with */
} hipPointerAttribute_t;

/* hipDeviceGetAttribute selectors. 0..9999 mirror CUDA's attributes (in HIP's own order);
 * 10000..19999 are AMD-specific. Retired entries keep their slot as UnusedN. */
typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeCudaCompatibleBegin = 0,
  hipDeviceAttributeEccEnabled = hipDeviceAttributeCudaCompatibleBegin, /* 0 */
  hipDeviceAttributeAccessPolicyMaxWindowSize,
  hipDeviceAttributeAsyncEngineCount,
  hipDeviceAttributeCanMapHostMemory,
  hipDeviceAttributeCanUseHostPointerForRegisteredMem,
  hipDeviceAttributeClockRate, /* 5 */
  hipDeviceAttributeComputeMode,
  hipDeviceAttributeComputePreemptionSupported,
  hipDeviceAttributeConcurrentKernels,
  hipDeviceAttributeConcurrentManagedAccess,
  hipDeviceAttributeCooperativeLaunch, /* 10 */
  hipDeviceAttributeCooperativeMultiDeviceLaunch,
  hipDeviceAttributeDeviceOverlap,
  hipDeviceAttributeDirectManagedMemAccessFromHost,
  hipDeviceAttributeGlobalL1CacheSupported,
  hipDeviceAttributeHostNativeAtomicSupported, /* 15 */
  hipDeviceAttributeIntegrated,
  hipDeviceAttributeIsMultiGpuBoard,
  hipDeviceAttributeKernelExecTimeout,
  hipDeviceAttributeL2CacheSize,
  hipDeviceAttributeLocalL1CacheSupported, /* 20 */
  hipDeviceAttributeLuid,
  hipDeviceAttributeLuidDeviceNodeMask,
  hipDeviceAttributeComputeCapabilityMajor,
  hipDeviceAttributeManagedMemory,
  hipDeviceAttributeMaxBlocksPerMultiProcessor, /* 25 */
  hipDeviceAttributeMaxBlockDimX,
  hipDeviceAttributeMaxBlockDimY,
  hipDeviceAttributeMaxBlockDimZ,
  hipDeviceAttributeMaxGridDimX,
  hipDeviceAttributeMaxGridDimY, /* 30 */
  hipDeviceAttributeMaxGridDimZ,
  hipDeviceAttributeMaxSurface1D,
  hipDeviceAttributeMaxSurface1DLayered,
  hipDeviceAttributeMaxSurface2D,
  hipDeviceAttributeMaxSurface2DLayered, /* 35 */
  hipDeviceAttributeMaxSurface3D,
  hipDeviceAttributeMaxSurfaceCubemap,
  hipDeviceAttributeMaxSurfaceCubemapLayered,
  hipDeviceAttributeMaxTexture1DWidth,
  hipDeviceAttributeMaxTexture1DLayered, /* 40 */
  hipDeviceAttributeMaxTexture1DLinear,
  hipDeviceAttributeMaxTexture1DMipmap,
  hipDeviceAttributeMaxTexture2DWidth,
  hipDeviceAttributeMaxTexture2DHeight,
  hipDeviceAttributeMaxTexture2DGather, /* 45 */
  hipDeviceAttributeMaxTexture2DLayered,
  hipDeviceAttributeMaxTexture2DLinear,
  hipDeviceAttributeMaxTexture2DMipmap,
  hipDeviceAttributeMaxTexture3DWidth,
  hipDeviceAttributeMaxTexture3DHeight, /* 50 */
  hipDeviceAttributeMaxTexture3DDepth,
  hipDeviceAttributeMaxTexture3DAlt,
  hipDeviceAttributeMaxTextureCubemap,
  hipDeviceAttributeMaxTextureCubemapLayered,
  hipDeviceAttributeMaxThreadsDim, /* 55 */
  hipDeviceAttributeMaxThreadsPerBlock,
  hipDeviceAttributeMaxThreadsPerMultiProcessor,
  hipDeviceAttributeMaxPitch,
  hipDeviceAttributeMemoryBusWidth,
  hipDeviceAttributeMemoryClockRate, /* 60 */
  hipDeviceAttributeComputeCapabilityMinor,
  hipDeviceAttributeMultiGpuBoardGroupID,
  hipDeviceAttributeMultiprocessorCount,
  hipDeviceAttributeUnused1,              /* 64: was Name */
  hipDeviceAttributePageableMemoryAccess, /* 65 */
  hipDeviceAttributePageableMemoryAccessUsesHostPageTables,
  hipDeviceAttributePciBusId,
  hipDeviceAttributePciDeviceId,
  hipDeviceAttributePciDomainId,
  hipDeviceAttributePciDomainID = hipDeviceAttributePciDomainId, /* 69, older spelling */
  hipDeviceAttributePersistingL2CacheMaxSize,                    /* 70 */
  hipDeviceAttributeMaxRegistersPerBlock,
  hipDeviceAttributeMaxRegistersPerMultiprocessor,
  hipDeviceAttributeReservedSharedMemPerBlock,
  hipDeviceAttributeMaxSharedMemoryPerBlock,
  hipDeviceAttributeSharedMemPerBlockOptin, /* 75 */
  hipDeviceAttributeSharedMemPerMultiprocessor,
  hipDeviceAttributeSingleToDoublePrecisionPerfRatio,
  hipDeviceAttributeStreamPrioritiesSupported,
  hipDeviceAttributeSurfaceAlignment,
  hipDeviceAttributeTccDriver, /* 80 */
  hipDeviceAttributeTextureAlignment,
  hipDeviceAttributeTexturePitchAlignment,
  hipDeviceAttributeTotalConstantMemory,
  hipDeviceAttributeTotalGlobalMem,
  hipDeviceAttributeUnifiedAddressing, /* 85 */
  hipDeviceAttributeUnused2,           /* 86: was Uuid */
  hipDeviceAttributeWarpSize,
  hipDeviceAttributeMemoryPoolsSupported,
  hipDeviceAttributeVirtualMemoryManagementSupported,
  hipDeviceAttributeHostRegisterSupported, /* 90 */
  hipDeviceAttributeMemoryPoolSupportedHandleTypes,
  hipDeviceAttributeHostNumaId, /* 92: NUMA node closest to the device, -1 if none (7.2) */

  hipDeviceAttributeCudaCompatibleEnd = 9999,
  hipDeviceAttributeAmdSpecificBegin = 10000,

  hipDeviceAttributeClockInstructionRate = hipDeviceAttributeAmdSpecificBegin, /* 10000 */
  hipDeviceAttributeUnused3,                                                   /* was Arch */
  hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,
  hipDeviceAttributeUnused4,         /* was GcnArch */
  hipDeviceAttributeUnused5,         /* was GcnArchName */
  hipDeviceAttributeHdpMemFlushCntl, /* 10005 */
  hipDeviceAttributeHdpRegFlushCntl,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim,
  hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem, /* 10010 */
  hipDeviceAttributeIsLargeBar,
  hipDeviceAttributeAsicRevision,
  hipDeviceAttributeCanUseStreamWaitValue,
  hipDeviceAttributeImageSupport,
  hipDeviceAttributePhysicalMultiProcessorCount, /* 10015 */
  hipDeviceAttributeFineGrainSupport,
  hipDeviceAttributeWallClockRate, /* kHz of wall_clock64() */
  hipDeviceAttributeNumberOfXccs,  /* XCCs in the current compute partition */
  hipDeviceAttributeMaxAvailableVgprsPerThread,
  hipDeviceAttributePciChipId, /* 10020 */

  hipDeviceAttributeAmdSpecificEnd = 19999,
  hipDeviceAttributeVendorSpecificBegin = 20000
} hipDeviceAttribute_t;

/* hipGetProcAddress flags and results. */
#define HIP_GET_PROC_ADDRESS_DEFAULT 0x0
#define HIP_GET_PROC_ADDRESS_LEGACY_STREAM 0x1
#define HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM 0x2

typedef enum hipDriverProcAddressQueryResult {
  HIP_GET_PROC_ADDRESS_SUCCESS = 0,
  HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2
} hipDriverProcAddressQueryResult;

enum hipComputeMode {
  hipComputeModeDefault = 0,
  hipComputeModeExclusive = 1,
  hipComputeModeProhibited = 2,
  hipComputeModeExclusiveProcess = 3
};

enum hipFlushGPUDirectRDMAWritesOptions {
  hipFlushGPUDirectRDMAWritesOptionHost = 1 << 0,
  hipFlushGPUDirectRDMAWritesOptionMemOps = 1 << 1
};

enum hipGPUDirectRDMAWritesOrdering {
  hipGPUDirectRDMAWritesOrderingNone = 0,
  hipGPUDirectRDMAWritesOrderingOwner = 100,
  hipGPUDirectRDMAWritesOrderingAllDevices = 200
};

/* Parameter blocks of hipModuleLaunchKernel's "extra" argument. */
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void*)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void*)0x02)
#define HIP_LAUNCH_PARAM_END ((void*)0x03)

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Handles ------------------------------------------------------------------------------ */
/* Opaque handles; the pointed-to structures are the runtime's business. */

typedef struct ihipCtx_t* hipCtx_t;
typedef int hipDevice_t; /* a device ordinal */
typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef struct ihipModule_t* hipModule_t;
typedef struct ihipModuleSymbol_t* hipFunction_t;
typedef struct ihipLinkState_t* hipLinkState_t;
typedef struct ihipLibrary_t* hipLibrary_t;
typedef struct ihipKernel_t* hipKernel_t;
typedef struct ihipMemPoolHandle_t* hipMemPool_t;
typedef struct ihipGraph* hipGraph_t;
typedef struct hipGraphNode* hipGraphNode_t;
typedef struct hipGraphExec* hipGraphExec_t;
typedef struct hipUserObject* hipUserObject_t;
typedef struct ihipMemGenericAllocationHandle* hipMemGenericAllocationHandle_t;
typedef void* hipExternalMemory_t;
typedef void* hipExternalSemaphore_t;
typedef struct _hipGraphicsResource hipGraphicsResource;
typedef hipGraphicsResource* hipGraphicsResource_t;

/* Special stream handles. NULL (0) is the legacy default stream of the current device. */
#define hipStreamLegacy ((hipStream_t)1)    /* explicit legacy default stream */
#define hipStreamPerThread ((hipStream_t)2) /* the calling thread's default stream */

typedef enum hipDeviceP2PAttr {
  hipDevP2PAttrPerformanceRank = 0,
  hipDevP2PAttrAccessSupported,
  hipDevP2PAttrNativeAtomicSupported,
  hipDevP2PAttrHipArrayAccessSupported
} hipDeviceP2PAttr;

/* hipGetDriverEntryPoint results and flags. */
typedef enum hipDriverEntryPointQueryResult {
  hipDriverEntryPointSuccess = 0,
  hipDriverEntryPointSymbolNotFound = 1,
  hipDriverEntryPointVersionNotSufficent = 2
} hipDriverEntryPointQueryResult;

#define hipEnableDefault 0x0
#define hipEnableLegacyStream 0x1
#define hipEnablePerThreadDefaultStream 0x2

/* ---- Inter-process handles ---------------------------------------------------------------- */

#define hipIpcMemLazyEnablePeerAccess 0x01
#define HIP_IPC_HANDLE_SIZE 64

typedef struct hipIpcMemHandle_st {
  char reserved[HIP_IPC_HANDLE_SIZE];
} hipIpcMemHandle_t;

typedef struct hipIpcEventHandle_st {
  char reserved[HIP_IPC_HANDLE_SIZE];
} hipIpcEventHandle_t;

/* ---- Functions ---------------------------------------------------------------------------- */

/* hipFuncGetAttributes result. 56 bytes. */
typedef struct hipFuncAttributes {
  int binaryVersion;
  int cacheModeCA;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxDynamicSharedSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int preferredShmemCarveout;
  int ptxVersion;
  size_t sharedSizeBytes;
} hipFuncAttributes;

/* hipDeviceGetLimit / hipDeviceSetLimit. Other values give hipErrorUnsupportedLimit. */
enum hipLimit_t {
  hipLimitStackSize = 0x0, /* per-thread stack bytes */
  hipLimitPrintfFifoSize = 0x01,
  hipLimitMallocHeapSize = 0x02,      /* device malloc() heap bytes */
  hipExtLimitScratchMin = 0x1000,     /* read-only scratch floor (AMD, 7.0) */
  hipExtLimitScratchMax = 0x1001,     /* read-only scratch ceiling (AMD, 7.0) */
  hipExtLimitScratchCurrent = 0x1002, /* current scratch limit (AMD, 7.0) */
  hipLimitRange
};

/* hipFuncSetAttribute. AMD devices accept and ignore these hints. */
typedef enum hipFuncAttribute {
  hipFuncAttributeMaxDynamicSharedMemorySize = 8,
  hipFuncAttributePreferredSharedMemoryCarveout = 9,
  hipFuncAttributeMax
} hipFuncAttribute;

/* Cache and shared-memory bank hints (ignored on AMD devices). */
typedef enum hipFuncCache_t {
  hipFuncCachePreferNone,
  hipFuncCachePreferShared,
  hipFuncCachePreferL1,
  hipFuncCachePreferEqual
} hipFuncCache_t;

typedef enum hipSharedMemConfig {
  hipSharedMemBankSizeDefault,
  hipSharedMemBankSizeFourByte,
  hipSharedMemBankSizeEightByte
} hipSharedMemConfig;

/* ---- Flags -------------------------------------------------------------------------------- */

/* hipStreamCreateWithFlags */
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01 /* no implicit synchronisation with the null stream */

/* hipEventCreateWithFlags */
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4 /* requires hipEventDisableTiming */
#define hipEventDisableSystemFence 0x20000000
#define hipEventReleaseToDevice 0x40000000
#define hipEventReleaseToSystem 0x80000000

/* hipEventRecordWithFlags / hipStreamWaitEvent */
#define hipEventRecordDefault 0x00
#define hipEventRecordExternal 0x01
#define hipEventWaitDefault 0x00
#define hipEventWaitExternal 0x01

/* hipHostMalloc / hipHostAlloc / hipExtHostAlloc */
#define hipHostAllocDefault 0x0
#define hipHostMallocDefault 0x0
#define hipHostAllocPortable 0x1
#define hipHostMallocPortable 0x1
#define hipHostAllocMapped 0x2
#define hipHostMallocMapped 0x2
#define hipHostAllocWriteCombined 0x4
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocUncached 0x10000000
#define hipHostAllocUncached hipHostMallocUncached
#define hipHostMallocNumaUser 0x20000000
#define hipExtHostAllocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipExtHostAllocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipExtHostAllocNonCoherent 0x80000000

/* hipMallocManaged / hipStreamAttachMemAsync */
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipMemAttachSingle 0x04

/* hipExtMallocWithFlags */
#define hipDeviceMallocDefault 0x0
#define hipDeviceMallocFinegrained 0x1
#define hipMallocSignalMemory 0x2
#define hipDeviceMallocUncached 0x3
#define hipDeviceMallocContiguous 0x4

/* hipHostRegister */
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipHostRegisterIoMemory 0x4
#define hipHostRegisterReadOnly 0x08
#define hipExtHostRegisterCoarseGrained 0x8
#define hipExtHostRegisterUncached 0x80000000

/* hipSetDeviceFlags */
#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceScheduleMask 0x7
#define hipDeviceMapHost 0x8
#define hipDeviceLmemResizeToMax 0x10

/* hipMallocArray / hipArray3DCreate */
#define hipArrayDefault 0x00
#define hipArrayLayered 0x01
#define hipArraySurfaceLoadStore 0x02
#define hipArrayCubemap 0x04
#define hipArrayTextureGather 0x08

/* Occupancy calculator */
#define hipOccupancyDefault 0x00
#define hipOccupancyDisableCachingOverride 0x01

/* hipLaunchCooperativeKernelMultiDevice */
#define hipCooperativeLaunchMultiDeviceNoPreSync 0x01
#define hipCooperativeLaunchMultiDeviceNoPostSync 0x02

/* Device ordinals with a special meaning (hipMemAdvise, hipMemPrefetchAsync) */
#define hipCpuDeviceId ((int)-1)
#define hipInvalidDeviceId ((int)-2)

/* hipExtLaunchKernel and friends */
#define hipExtAnyOrderLaunch 0x01

/* hipStreamWaitValue32/64 comparisons */
#define hipStreamWaitValueGte 0x0
#define hipStreamWaitValueEq 0x1
#define hipStreamWaitValueAnd 0x2
#define hipStreamWaitValueNor 0x3

/* hipStreamWriteValue32/64 */
#define hipStreamWriteValueDefault 0x0

/* hipImportExternalMemory */
#define hipExternalMemoryDedicated 0x1

/* =============================================================================================
 * 2. Memory, pool, virtual-memory, launch and graph types
 * ============================================================================================= */

/* ---- Stream memory operations ------------------------------------------------------------- */

typedef enum hipStreamBatchMemOpType {
  hipStreamMemOpWaitValue32 = 0x1,
  hipStreamMemOpWriteValue32 = 0x2,
  hipStreamMemOpWaitValue64 = 0x4,
  hipStreamMemOpWriteValue64 = 0x5,
  hipStreamMemOpBarrier = 0x6,          /* not supported on AMD */
  hipStreamMemOpFlushRemoteWrites = 0x3 /* not supported on AMD */
} hipStreamBatchMemOpType;

/* One operation of hipStreamBatchMemOp; "operation" selects the member. 48 bytes. */
typedef union hipStreamBatchMemOpParams_union {
  hipStreamBatchMemOpType operation;
  struct hipStreamMemOpWaitValueParams_t {
    hipStreamBatchMemOpType operation;
    hipDeviceptr_t address;
    WEFT_EXTENSION_ union {
      uint32_t value;
      uint64_t value64;
    };
    unsigned int flags;   /* hipStreamWaitValue* */
    hipDeviceptr_t alias; /* unused on AMD */
  } waitValue;
  struct hipStreamMemOpWriteValueParams_t {
    hipStreamBatchMemOpType operation;
    hipDeviceptr_t address;
    WEFT_EXTENSION_ union {
      uint32_t value;
      uint64_t value64;
    };
    unsigned int flags;
    hipDeviceptr_t alias; /* unused on AMD */
  } writeValue;
  struct hipStreamMemOpFlushRemoteWritesParams_t {
    hipStreamBatchMemOpType operation;
    unsigned int flags;
  } flushRemoteWrites;
  struct hipStreamMemOpMemoryBarrierParams_t {
    hipStreamBatchMemOpType operation;
    unsigned int flags;
  } memoryBarrier;
  uint64_t pad[6];
} hipStreamBatchMemOpParams;

typedef struct hipBatchMemOpNodeParams {
  hipCtx_t ctx;
  unsigned int count;
  hipStreamBatchMemOpParams* paramArray;
  unsigned int flags;
} hipBatchMemOpNodeParams;

/* ---- Managed memory ----------------------------------------------------------------------- */

typedef enum hipMemoryAdvise {
  hipMemAdviseSetReadMostly = 1,
  hipMemAdviseUnsetReadMostly = 2,
  hipMemAdviseSetPreferredLocation = 3,
  hipMemAdviseUnsetPreferredLocation = 4,
  hipMemAdviseSetAccessedBy = 5,
  hipMemAdviseUnsetAccessedBy = 6,
  hipMemAdviseSetCoarseGrain = 100,  /* AMD: coherent only at dispatch boundaries */
  hipMemAdviseUnsetCoarseGrain = 101 /* AMD: back to fine grain */
} hipMemoryAdvise;

typedef enum hipMemRangeCoherencyMode {
  hipMemRangeCoherencyModeFineGrain = 0,
  hipMemRangeCoherencyModeCoarseGrain = 1,
  hipMemRangeCoherencyModeIndeterminate = 2
} hipMemRangeCoherencyMode;

typedef enum hipMemRangeAttribute {
  hipMemRangeAttributeReadMostly = 1,
  hipMemRangeAttributePreferredLocation = 2,
  hipMemRangeAttributeAccessedBy = 3,
  hipMemRangeAttributeLastPrefetchLocation = 4,
  hipMemRangeAttributeCoherencyMode = 100 /* AMD: a hipMemRangeCoherencyMode */
} hipMemRangeAttribute;

/* ---- Memory pools -------------------------------------------------------------------------- */

typedef enum hipMemPoolAttr {
  hipMemPoolReuseFollowEventDependencies = 0x1,   /* int */
  hipMemPoolReuseAllowOpportunistic = 0x2,        /* int */
  hipMemPoolReuseAllowInternalDependencies = 0x3, /* int */
  hipMemPoolAttrReleaseThreshold = 0x4,           /* uint64_t */
  hipMemPoolAttrReservedMemCurrent = 0x5,         /* uint64_t, read-only */
  hipMemPoolAttrReservedMemHigh = 0x6,            /* uint64_t, reset to 0 only */
  hipMemPoolAttrUsedMemCurrent = 0x7,             /* uint64_t, read-only */
  hipMemPoolAttrUsedMemHigh = 0x8                 /* uint64_t, reset to 0 only */
} hipMemPoolAttr;

typedef enum hipMemAccessFlags {
  hipMemAccessFlagsProtNone = 0,
  hipMemAccessFlagsProtRead = 1,
  hipMemAccessFlagsProtReadWrite = 3
} hipMemAccessFlags;

typedef struct hipMemAccessDesc {
  hipMemLocation location;
  hipMemAccessFlags flags;
} hipMemAccessDesc;

typedef enum hipMemAllocationType {
  hipMemAllocationTypeInvalid = 0x0,
  hipMemAllocationTypePinned = 0x1, /* cannot migrate while in use */
  hipMemAllocationTypeMax = 0x7FFFFFFF
} hipMemAllocationType;

typedef enum hipMemAllocationHandleType {
  hipMemHandleTypeNone = 0x0,
  hipMemHandleTypePosixFileDescriptor = 0x1,
  hipMemHandleTypeWin32 = 0x2,
  hipMemHandleTypeWin32Kmt = 0x4
} hipMemAllocationHandleType;

typedef struct hipMemPoolProps {
  hipMemAllocationType allocType;
  hipMemAllocationHandleType handleTypes;
  hipMemLocation location;
  void* win32SecurityAttributes;
  size_t maxSize; /* 0: system default */
  unsigned char reserved[56];
} hipMemPoolProps;

typedef struct hipMemPoolPtrExportData {
  unsigned char reserved[64];
} hipMemPoolPtrExportData;

/* ---- Virtual memory management ------------------------------------------------------------ */

typedef struct hipMemAllocationProp {
  hipMemAllocationType type;
  hipMemAllocationHandleType requestedHandleType;
  hipMemLocation location;
  void* win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
  } allocFlags;
} hipMemAllocationProp;

typedef enum hipMemAllocationGranularity_flags {
  hipMemAllocationGranularityMinimum = 0x0,
  hipMemAllocationGranularityRecommended = 0x1
} hipMemAllocationGranularity_flags;

typedef enum hipMemHandleType { hipMemHandleTypeGeneric = 0x0 } hipMemHandleType;

typedef enum hipMemOperationType {
  hipMemOperationTypeMap = 0x1,
  hipMemOperationTypeUnmap = 0x2
} hipMemOperationType;

typedef enum hipArraySparseSubresourceType {
  hipArraySparseSubresourceTypeSparseLevel = 0x0,
  hipArraySparseSubresourceTypeMiptail = 0x1
} hipArraySparseSubresourceType;

/* One mapping request of hipMemMapArrayAsync. */
typedef struct hipArrayMapInfo {
  hipResourceType resourceType;
  union {
    hipMipmappedArray mipmap;
    hipArray_t array;
  } resource;
  hipArraySparseSubresourceType subresourceType;
  union {
    struct {
      unsigned int level;
      unsigned int layer;
      unsigned int offsetX;
      unsigned int offsetY;
      unsigned int offsetZ;
      unsigned int extentWidth;
      unsigned int extentHeight;
      unsigned int extentDepth;
    } sparseLevel;
    struct {
      unsigned int layer;
      unsigned long long offset;
      unsigned long long size;
    } miptail;
  } subresource;
  hipMemOperationType memOperationType;
  hipMemHandleType memHandleType;
  union {
    hipMemGenericAllocationHandle_t memHandle;
  } memHandle;
  unsigned long long offset;
  unsigned int deviceBitMask;
  unsigned int flags;
  unsigned int reserved[2];
} hipArrayMapInfo;

typedef struct hipArrayMemoryRequirements {
  size_t alignment;
  size_t size;
} hipArrayMemoryRequirements;

/* hipMemGetHandleForAddressRange */
typedef enum hipMemRangeHandleType {
  hipMemRangeHandleTypeDmaBufFd = 0x1,
  hipMemRangeHandleTypeMax = 0x7fffffff
} hipMemRangeHandleType;

typedef enum hipMemRangeFlags {
  hipMemRangeFlagDmaBufMappingTypePcie = 0x1,
  hipMemRangeFlagsMax = 0x7fffffff
} hipMemRangeFlags;

/* ---- JIT / linker ------------------------------------------------------------------------- */

typedef enum hipJitOption {
  hipJitOptionMaxRegisters = 0,
  hipJitOptionThreadsPerBlock,
  hipJitOptionWallTime,
  hipJitOptionInfoLogBuffer,
  hipJitOptionInfoLogBufferSizeBytes,
  hipJitOptionErrorLogBuffer,
  hipJitOptionErrorLogBufferSizeBytes,
  hipJitOptionOptimizationLevel,
  hipJitOptionTargetFromContext,
  hipJitOptionTarget,
  hipJitOptionFallbackStrategy,
  hipJitOptionGenerateDebugInfo,
  hipJitOptionLogVerbose,
  hipJitOptionGenerateLineInfo,
  hipJitOptionCacheMode,
  hipJitOptionSm3xOpt,
  hipJitOptionFastCompile,
  hipJitOptionGlobalSymbolNames,
  hipJitOptionGlobalSymbolAddresses,
  hipJitOptionGlobalSymbolCount,
  hipJitOptionLto,
  hipJitOptionFtz,
  hipJitOptionPrecDiv,
  hipJitOptionPrecSqrt,
  hipJitOptionFma,
  hipJitOptionPositionIndependentCode,
  hipJitOptionMinCTAPerSM,
  hipJitOptionMaxThreadsPerBlock,
  hipJitOptionOverrideDirectiveValues,
  hipJitOptionNumOptions,
  hipJitOptionIRtoISAOptExt = 10000,
  hipJitOptionIRtoISAOptCountExt
} hipJitOption;

typedef enum hipJitInputType {
  hipJitInputCubin = 0,
  hipJitInputPtx,
  hipJitInputFatBinary,
  hipJitInputObject,
  hipJitInputLibrary,
  hipJitInputNvvm,
  hipJitNumLegacyInputTypes,
  hipJitInputLLVMBitcode = 100,
  hipJitInputLLVMBundledBitcode = 101,
  hipJitInputLLVMArchivesOfBundledBitcode = 102,
  hipJitInputSpirv = 103,
  hipJitNumInputTypes = 10
} hipJitInputType;

typedef enum hipJitCacheMode {
  hipJitCacheOptionNone = 0,
  hipJitCacheOptionCG,
  hipJitCacheOptionCA
} hipJitCacheMode;

typedef enum hipJitFallback { hipJitPreferPTX = 0, hipJitPreferBinary } hipJitFallback;

/* hipLibraryLoadData / hipLibraryLoadFromFile options. */
typedef enum hipLibraryOption_e {
  hipLibraryHostUniversalFunctionAndDataTable = 0,
  hipLibraryBinaryIsPreserved = 1
} hipLibraryOption;

/* ---- Kernel launch ------------------------------------------------------------------------ */

/* Grid and block extents. Unset dimensions default to 1 in C++. 12 bytes. */
typedef struct dim3 {
  uint32_t x;
  uint32_t y;
  uint32_t z;
#ifdef __cplusplus
  constexpr __host__ __device__ dim3(uint32_t _x = 1, uint32_t _y = 1, uint32_t _z = 1)
      : x(_x), y(_y), z(_z) {}
#endif
} dim3;

/* One launch of hipLaunchCooperativeKernelMultiDevice / hipExtLaunchMultiKernelMultiDevice. */
typedef struct hipLaunchParams_t {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  void** args;
  size_t sharedMem;
  hipStream_t stream;
} hipLaunchParams;

/* One launch of hipModuleLaunchCooperativeKernelMultiDevice. */
typedef struct hipFunctionLaunchParams_t {
  hipFunction_t function;
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  hipStream_t hStream;
  void** kernelParams;
} hipFunctionLaunchParams;

typedef enum hipAccessProperty {
  hipAccessPropertyNormal = 0,
  hipAccessPropertyStreaming = 1,
  hipAccessPropertyPersisting = 2
} hipAccessProperty;

/* L2 persistence hint for [base_ptr, base_ptr + num_bytes). */
typedef struct hipAccessPolicyWindow {
  void* base_ptr;
  hipAccessProperty hitProp;
  float hitRatio;
  hipAccessProperty missProp;
  size_t num_bytes;
} hipAccessPolicyWindow;

typedef struct hipLaunchMemSyncDomainMap {
  unsigned char default_;
  unsigned char remote;
} hipLaunchMemSyncDomainMap;

typedef enum hipLaunchMemSyncDomain {
  hipLaunchMemSyncDomainDefault = 0,
  hipLaunchMemSyncDomainRemote = 1
} hipLaunchMemSyncDomain;

/* How a host thread waits for a stream (hipStreamSetAttribute). */
typedef enum hipSynchronizationPolicy {
  hipSyncPolicyAuto = 1,
  hipSyncPolicySpin = 2,
  hipSyncPolicyYield = 3,
  hipSyncPolicyBlockingSync = 4
} hipSynchronizationPolicy;

/* Attributes of launches, streams and kernel nodes. */
typedef enum hipLaunchAttributeID {
  hipLaunchAttributeAccessPolicyWindow = 1,    /* streams, graph nodes, launches */
  hipLaunchAttributeCooperative = 2,           /* graph nodes, launches */
  hipLaunchAttributeSynchronizationPolicy = 3, /* streams */
  hipLaunchAttributePriority = 8,              /* graph nodes, streams, launches */
  hipLaunchAttributeMemSyncDomainMap = 9,      /* streams, graph nodes, launches */
  hipLaunchAttributeMemSyncDomain = 10,        /* streams, graph nodes, launches */
  hipLaunchAttributeMax
} hipLaunchAttributeID;

/* Value of a launch attribute; the ID says which member is meaningful. 64 bytes. */
typedef union hipLaunchAttributeValue {
  char pad[64];
  hipAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  int priority;
  hipSynchronizationPolicy syncPolicy;
  hipLaunchMemSyncDomainMap memSyncDomainMap;
  hipLaunchMemSyncDomain memSyncDomain;
} hipLaunchAttributeValue;

/* Older spellings of the launch-attribute names for streams, kernel nodes and driver launches. */
#define hipStreamAttrID hipLaunchAttributeID
#define hipStreamAttributeAccessPolicyWindow hipLaunchAttributeAccessPolicyWindow
#define hipStreamAttributeSynchronizationPolicy hipLaunchAttributeSynchronizationPolicy
#define hipStreamAttributeMemSyncDomainMap hipLaunchAttributeMemSyncDomainMap
#define hipStreamAttributeMemSyncDomain hipLaunchAttributeMemSyncDomain
#define hipStreamAttributePriority hipLaunchAttributePriority
#define hipStreamAttrValue hipLaunchAttributeValue
#define hipKernelNodeAttrID hipLaunchAttributeID
#define hipKernelNodeAttributeAccessPolicyWindow hipLaunchAttributeAccessPolicyWindow
#define hipKernelNodeAttributeCooperative hipLaunchAttributeCooperative
#define hipKernelNodeAttributePriority hipLaunchAttributePriority
#define hipKernelNodeAttrValue hipLaunchAttributeValue
#define hipDrvLaunchAttributeCooperative hipLaunchAttributeCooperative
#define hipDrvLaunchAttributeID hipLaunchAttributeID
#define hipDrvLaunchAttributeValue hipLaunchAttributeValue
#define hipDrvLaunchAttribute hipLaunchAttribute

/* One attribute of an extensible launch. */
typedef struct hipLaunchAttribute_st {
  hipLaunchAttributeID id;
  char pad[8 - sizeof(hipLaunchAttributeID)];
  WEFT_EXTENSION_ union {
    hipLaunchAttributeValue val;
    hipLaunchAttributeValue value;
  };
} hipLaunchAttribute;

/* hipLaunchKernelExC configuration. */
typedef struct hipLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  hipStream_t stream;
  hipLaunchAttribute* attrs;
  unsigned int numAttrs;
} hipLaunchConfig_t;

/* hipDrvLaunchKernelEx configuration. */
typedef struct HIP_LAUNCH_CONFIG_st {
  unsigned int gridDimX;
  unsigned int gridDimY;
  unsigned int gridDimZ;
  unsigned int blockDimX;
  unsigned int blockDimY;
  unsigned int blockDimZ;
  unsigned int sharedMemBytes;
  hipStream_t hStream;
  hipLaunchAttribute* attrs;
  unsigned int numAttrs;
} HIP_LAUNCH_CONFIG;

/* ---- External memory and semaphores (Vulkan/DirectX interop) ------------------------------ */

typedef enum hipExternalMemoryHandleType_enum {
  hipExternalMemoryHandleTypeOpaqueFd = 1,
  hipExternalMemoryHandleTypeOpaqueWin32 = 2,
  hipExternalMemoryHandleTypeOpaqueWin32Kmt = 3,
  hipExternalMemoryHandleTypeD3D12Heap = 4,
  hipExternalMemoryHandleTypeD3D12Resource = 5,
  hipExternalMemoryHandleTypeD3D11Resource = 6,
  hipExternalMemoryHandleTypeD3D11ResourceKmt = 7,
  hipExternalMemoryHandleTypeNvSciBuf = 8
} hipExternalMemoryHandleType;

typedef struct hipExternalMemoryHandleDesc_st {
  hipExternalMemoryHandleType type;
  union {
    int fd;
    struct {
      void* handle;
      const void* name;
    } win32;
    const void* nvSciBufObject;
  } handle;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalMemoryHandleDesc;

typedef struct hipExternalMemoryBufferDesc_st {
  unsigned long long offset;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalMemoryBufferDesc;

typedef struct hipExternalMemoryMipmappedArrayDesc_st {
  unsigned long long offset;
  hipChannelFormatDesc formatDesc;
  hipExtent extent;
  unsigned int flags;
  unsigned int numLevels;
} hipExternalMemoryMipmappedArrayDesc;

typedef enum hipExternalSemaphoreHandleType_enum {
  hipExternalSemaphoreHandleTypeOpaqueFd = 1,
  hipExternalSemaphoreHandleTypeOpaqueWin32 = 2,
  hipExternalSemaphoreHandleTypeOpaqueWin32Kmt = 3,
  hipExternalSemaphoreHandleTypeD3D12Fence = 4,
  hipExternalSemaphoreHandleTypeD3D11Fence = 5,
  hipExternalSemaphoreHandleTypeNvSciSync = 6,
  hipExternalSemaphoreHandleTypeKeyedMutex = 7,
  hipExternalSemaphoreHandleTypeKeyedMutexKmt = 8,
  hipExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9,
  hipExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10
} hipExternalSemaphoreHandleType;

typedef struct hipExternalSemaphoreHandleDesc_st {
  hipExternalSemaphoreHandleType type;
  union {
    int fd;
    struct {
      void* handle;
      const void* name;
    } win32;
    const void* NvSciSyncObj;
  } handle;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreHandleDesc;

typedef struct hipExternalSemaphoreSignalParams_st {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void* fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
    } keyedMutex;
    unsigned int reserved[12];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreSignalParams;

typedef struct hipExternalSemaphoreWaitParams_st {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void* fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
      unsigned int timeoutMs;
    } keyedMutex;
    unsigned int reserved[10];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreWaitParams;

/* Graphics interop registration flags. */
typedef enum hipGraphicsRegisterFlags {
  hipGraphicsRegisterFlagsNone = 0,
  hipGraphicsRegisterFlagsReadOnly = 1,
  hipGraphicsRegisterFlagsWriteDiscard = 2,
  hipGraphicsRegisterFlagsSurfaceLoadStore = 4,
  hipGraphicsRegisterFlagsTextureGather = 8
} hipGraphicsRegisterFlags;

/* ---- Graphs ------------------------------------------------------------------------------- */

/* Node kinds (HIP 5.6+ numbering, CUDA's order). */
typedef enum hipGraphNodeType {
  hipGraphNodeTypeKernel = 0,
  hipGraphNodeTypeMemcpy = 1,
  hipGraphNodeTypeMemset = 2,
  hipGraphNodeTypeHost = 3,
  hipGraphNodeTypeGraph = 4, /* child graph */
  hipGraphNodeTypeEmpty = 5,
  hipGraphNodeTypeWaitEvent = 6,
  hipGraphNodeTypeEventRecord = 7,
  hipGraphNodeTypeExtSemaphoreSignal = 8,
  hipGraphNodeTypeExtSemaphoreWait = 9,
  hipGraphNodeTypeMemAlloc = 10,
  hipGraphNodeTypeMemFree = 11,
  hipGraphNodeTypeMemcpyFromSymbol = 12,
  hipGraphNodeTypeMemcpyToSymbol = 13,
  hipGraphNodeTypeBatchMemOp = 14,
  hipGraphNodeTypeCount
} hipGraphNodeType;

typedef void (*hipHostFn_t)(void* userData);

/* Host node: fn(userData). 16 bytes. */
typedef struct hipHostNodeParams {
  hipHostFn_t fn;
  void* userData;
} hipHostNodeParams;

/* Kernel node. 64 bytes. */
typedef struct hipKernelNodeParams {
  dim3 blockDim;
  void** extra;
  void* func;
  dim3 gridDim;
  void** kernelParams;
  unsigned int sharedMemBytes;
} hipKernelNodeParams;

/* Memset node, in the 48-byte field order every released 6.x/7.x header uses. */
typedef struct hipMemsetParams {
  void* dst;
  unsigned int elementSize; /* 1, 2 or 4 */
  size_t height;
  size_t pitch;
  unsigned int value;
  size_t width;
} hipMemsetParams;

typedef struct hipMemAllocNodeParams {
  hipMemPoolProps poolProps;
  const hipMemAccessDesc* accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void* dptr; /* out: the allocation */
} hipMemAllocNodeParams;

typedef enum hipGraphExecUpdateResult {
  hipGraphExecUpdateSuccess = 0x0,
  hipGraphExecUpdateError = 0x1,
  hipGraphExecUpdateErrorTopologyChanged = 0x2,
  hipGraphExecUpdateErrorNodeTypeChanged = 0x3,
  hipGraphExecUpdateErrorFunctionChanged = 0x4,
  hipGraphExecUpdateErrorParametersChanged = 0x5,
  hipGraphExecUpdateErrorNotSupported = 0x6,
  hipGraphExecUpdateErrorUnsupportedFunctionChange = 0x7
} hipGraphExecUpdateResult;

typedef enum hipStreamCaptureMode {
  hipStreamCaptureModeGlobal = 0,
  hipStreamCaptureModeThreadLocal,
  hipStreamCaptureModeRelaxed
} hipStreamCaptureMode;

typedef enum hipStreamCaptureStatus {
  hipStreamCaptureStatusNone = 0,
  hipStreamCaptureStatusActive,
  hipStreamCaptureStatusInvalidated
} hipStreamCaptureStatus;

typedef enum hipStreamUpdateCaptureDependenciesFlags {
  hipStreamAddCaptureDependencies = 0,
  hipStreamSetCaptureDependencies
} hipStreamUpdateCaptureDependenciesFlags;

typedef enum hipGraphMemAttributeType {
  hipGraphMemAttrUsedMemCurrent = 0,
  hipGraphMemAttrUsedMemHigh,
  hipGraphMemAttrReservedMemCurrent,
  hipGraphMemAttrReservedMemHigh
} hipGraphMemAttributeType;

typedef enum hipUserObjectFlags { hipUserObjectNoDestructorSync = 0x1 } hipUserObjectFlags;

typedef enum hipUserObjectRetainFlags { hipGraphUserObjectMove = 0x1 } hipUserObjectRetainFlags;

typedef enum hipGraphInstantiateFlags {
  hipGraphInstantiateFlagAutoFreeOnLaunch = 1,
  hipGraphInstantiateFlagUpload = 2,
  hipGraphInstantiateFlagDeviceLaunch = 4,
  hipGraphInstantiateFlagUseNodePriority = 8
} hipGraphInstantiateFlags;

enum hipGraphDebugDotFlags {
  hipGraphDebugDotFlagsVerbose = 1 << 0,
  hipGraphDebugDotFlagsKernelNodeParams = 1 << 2,
  hipGraphDebugDotFlagsMemcpyNodeParams = 1 << 3,
  hipGraphDebugDotFlagsMemsetNodeParams = 1 << 4,
  hipGraphDebugDotFlagsHostNodeParams = 1 << 5,
  hipGraphDebugDotFlagsEventNodeParams = 1 << 6,
  hipGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7,
  hipGraphDebugDotFlagsExtSemasWaitNodeParams = 1 << 8,
  hipGraphDebugDotFlagsKernelNodeAttributes = 1 << 9,
  hipGraphDebugDotFlagsHandles = 1 << 10
};

typedef enum hipGraphInstantiateResult {
  hipGraphInstantiateSuccess = 0,
  hipGraphInstantiateError = 1,
  hipGraphInstantiateInvalidStructure = 2,
  hipGraphInstantiateNodeOperationNotSupported = 3,
  hipGraphInstantiateMultipleDevicesNotSupported = 4
} hipGraphInstantiateResult;

typedef struct hipGraphInstantiateParams {
  hipGraphNode_t errNode_out;
  unsigned long long flags;
  hipGraphInstantiateResult result_out;
  hipStream_t uploadStream;
} hipGraphInstantiateParams;

typedef struct hipExternalSemaphoreSignalNodeParams {
  hipExternalSemaphore_t* extSemArray;
  const hipExternalSemaphoreSignalParams* paramsArray;
  unsigned int numExtSems;
} hipExternalSemaphoreSignalNodeParams;

typedef struct hipExternalSemaphoreWaitNodeParams {
  hipExternalSemaphore_t* extSemArray;
  const hipExternalSemaphoreWaitParams* paramsArray;
  unsigned int numExtSems;
} hipExternalSemaphoreWaitNodeParams;

typedef struct hipMemcpyNodeParams {
  int flags;       /* must be 0 */
  int reserved[3]; /* must be 0 */
  hipMemcpy3DParms copyParams;
} hipMemcpyNodeParams;

typedef struct hipChildGraphNodeParams {
  hipGraph_t graph;
} hipChildGraphNodeParams;

typedef struct hipEventWaitNodeParams {
  hipEvent_t event;
} hipEventWaitNodeParams;

typedef struct hipEventRecordNodeParams {
  hipEvent_t event;
} hipEventRecordNodeParams;

typedef struct hipMemFreeNodeParams {
  void* dptr;
} hipMemFreeNodeParams;

/* Parameters of any node kind (hipGraphAddNode, hipGraphNodeSetParams). */
typedef struct hipGraphNodeParams {
  hipGraphNodeType type;
  int reserved0[3];
  WEFT_EXTENSION_ union {
    long long reserved1[29];
    hipKernelNodeParams kernel;
    hipMemcpyNodeParams memcpy;
    hipMemsetParams memset;
    hipHostNodeParams host;
    hipChildGraphNodeParams graph;
    hipEventWaitNodeParams eventWait;
    hipEventRecordNodeParams eventRecord;
    hipExternalSemaphoreSignalNodeParams extSemSignal;
    hipExternalSemaphoreWaitNodeParams extSemWait;
    hipMemAllocNodeParams alloc;
    hipMemFreeNodeParams free;
  };
  long long reserved2;
} hipGraphNodeParams;

/* Ports and edge types of graph edges (hipGraphEdgeData). */
#define hipGraphKernelNodePortDefault 0
#define hipGraphKernelNodePortLaunchCompletion 2
#define hipGraphKernelNodePortProgrammatic 1

typedef enum hipGraphDependencyType {
  hipGraphDependencyTypeDefault = 0,
  hipGraphDependencyTypeProgrammatic = 1
} hipGraphDependencyType;

typedef struct hipGraphEdgeData {
  unsigned char from_port; /* hipGraphKernelNodePort* of the upstream node */
  unsigned char reserved[5];
  unsigned char to_port; /* must be 0 */
  unsigned char type;    /* hipGraphDependencyType */
} hipGraphEdgeData;

/* Driver-style graph memset node. */
typedef struct HIP_MEMSET_NODE_PARAMS {
  hipDeviceptr_t dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
} HIP_MEMSET_NODE_PARAMS;

/* Stream callbacks. */
typedef void (*hipStreamCallback_t)(hipStream_t stream, hipError_t status, void* userData);

/* =============================================================================================
 * 3. Entry points (C linkage; the extern "C" block opened above the handle types)
 * ============================================================================================= */

/* ---- Initialisation, versions and devices ---------------------------------------------------- */

hipError_t hipInit(unsigned int flags);
hipError_t hipDriverGetVersion(int* driverVersion);
hipError_t hipRuntimeGetVersion(int* runtimeVersion);
hipError_t hipDeviceGet(hipDevice_t* device, int ordinal);
hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device);
hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device);
hipError_t hipDeviceGetUuid(hipUUID* uuid, hipDevice_t device);
hipError_t hipDeviceGetP2PAttribute(int* value, hipDeviceP2PAttr attr, int srcDevice,
                                    int dstDevice);
hipError_t hipDeviceGetPCIBusId(char* pciBusId, int len, int device);
hipError_t hipDeviceGetByPCIBusId(int* device, const char* pciBusId);
hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);
hipError_t hipSetDevice(int deviceId);
hipError_t hipSetValidDevices(int* device_arr, int len);
hipError_t hipGetDevice(int* deviceId);
hipError_t hipGetDeviceCount(int* count);
hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId);
hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t* mem_pool, int device);
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool);
hipError_t hipDeviceGetMemPool(hipMemPool_t* mem_pool, int device);
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int deviceId);
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t cacheConfig);
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* cacheConfig);
hipError_t hipDeviceGetLimit(size_t* pValue, enum hipLimit_t limit);
hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value);
hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* pConfig);
hipError_t hipGetDeviceFlags(unsigned int* flags);
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config);
hipError_t hipSetDeviceFlags(unsigned flags);
hipError_t hipChooseDevice(int* device, const hipDeviceProp_t* prop);
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t* linktype,
                                        uint32_t* hopcount);
hipError_t hipDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority);
hipError_t hipDeviceGetTexture1DLinearMaxWidth(size_t* max_width, const hipChannelFormatDesc* desc,
                                               int device);

/* ---- Errors ---------------------------------------------------------------------------------- */

hipError_t hipGetLastError(void);
hipError_t hipExtGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char* hipGetErrorName(hipError_t hip_error);
const char* hipGetErrorString(hipError_t hipError);
hipError_t hipDrvGetErrorName(hipError_t hipError, const char** errorString);
hipError_t hipDrvGetErrorString(hipError_t hipError, const char** errorString);

/* ---- Streams --------------------------------------------------------------------------------- */

hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned int flags);
hipError_t hipStreamCreateWithPriority(hipStream_t* stream, unsigned int flags, int priority);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags __dparm(0));
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int* flags);
hipError_t hipStreamGetPriority(hipStream_t stream, int* priority);
hipError_t hipStreamGetDevice(hipStream_t stream, hipDevice_t* device);
hipError_t hipExtStreamCreateWithCUMask(hipStream_t* stream, uint32_t cuMaskSize,
                                        const uint32_t* cuMask);
hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t cuMaskSize, uint32_t* cuMask);
hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void* userData,
                                unsigned int flags);
hipError_t hipStreamAttachMemAsync(hipStream_t stream, void* dev_ptr, size_t length __dparm(0),
                                   unsigned int flags __dparm(hipMemAttachSingle));
hipError_t hipStreamGetId(hipStream_t stream, unsigned long long* streamId);
hipError_t hipStreamSetAttribute(hipStream_t stream, hipStreamAttrID attr,
                                 const hipStreamAttrValue* value);
hipError_t hipStreamGetAttribute(hipStream_t stream, hipStreamAttrID attr,
                                 hipStreamAttrValue* value_out);
hipError_t hipStreamCopyAttributes(hipStream_t dst, hipStream_t src);

/* ---- Stream memory operations ---------------------------------------------------------------- */

hipError_t hipStreamWaitValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags,
                                uint32_t mask __dparm(0xFFFFFFFF));
hipError_t hipStreamWaitValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags,
                                uint64_t mask __dparm(0xFFFFFFFFFFFFFFFF));
hipError_t hipStreamWriteValue32(hipStream_t stream, void* ptr, uint32_t value, unsigned int flags);
hipError_t hipStreamWriteValue64(hipStream_t stream, void* ptr, uint64_t value, unsigned int flags);
hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count,
                               hipStreamBatchMemOpParams* paramArray, unsigned int flags);

/* ---- Events ---------------------------------------------------------------------------------- */

hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags);
hipError_t hipEventCreate(hipEvent_t* event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream __dparm(NULL));
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventRecordWithFlags(hipEvent_t event, hipStream_t stream __dparm(0),
                                   unsigned int flags __dparm(0));

/* ---- Pointer attributes ---------------------------------------------------------------------- */

hipError_t hipPointerSetAttribute(const void* value, hipPointer_attribute attribute,
                                  hipDeviceptr_t ptr);
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr);
hipError_t hipPointerGetAttribute(void* data, hipPointer_attribute attribute, hipDeviceptr_t ptr);
hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes, hipPointer_attribute* attributes,
                                      void** data, hipDeviceptr_t ptr);

/* ---- Memory: allocation and host memory ------------------------------------------------------ */

hipError_t hipMalloc(void** ptr, size_t size);
hipError_t hipExtMallocWithFlags(void** ptr, size_t sizeBytes, unsigned int flags);
HIP_DEPRECATED("use hipHostMalloc instead")
hipError_t hipMallocHost(void** ptr, size_t size);
HIP_DEPRECATED("use hipHostMalloc instead")
hipError_t hipMemAllocHost(void** ptr, size_t size);
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags);
hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags);
hipError_t hipHostGetDevicePointer(void** devPtr, void* hstPtr, unsigned int flags);
hipError_t hipHostGetFlags(unsigned int* flagsPtr, void* hostPtr);
hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes, unsigned int flags);
hipError_t hipHostUnregister(void* hostPtr);
hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
hipError_t hipMemAllocPitch(hipDeviceptr_t* dptr, size_t* pitch, size_t widthInBytes, size_t height,
                            unsigned int elementSizeBytes);
hipError_t hipFree(void* ptr);
hipError_t hipFreeHost(void* ptr);
hipError_t hipHostFree(void* ptr);
hipError_t hipMemGetInfo(size_t* free, size_t* total);
hipError_t hipMemPtrGetInfo(void* ptr, size_t* size);
hipError_t hipMalloc3D(hipPitchedPtr* pitchedDevPtr, hipExtent extent);
hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase, size_t* psize, hipDeviceptr_t dptr);

/* ---- Memory: copies -------------------------------------------------------------------------- */

hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind);
hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind,
                               hipStream_t stream);
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const void* src, size_t sizeBytes);
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, const void* src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                              hipStream_t stream);
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind,
                          hipStream_t stream __dparm(0));
hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, hipMemcpyKind kind);
hipError_t hipMemcpyParam2D(const hip_Memcpy2D* pCopy);
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D* pCopy, hipStream_t stream __dparm(0));
hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, hipMemcpyKind kind, hipStream_t stream __dparm(0));
hipError_t hipMemcpy3D(const struct hipMemcpy3DParms* p);
hipError_t hipMemcpy3DAsync(const struct hipMemcpy3DParms* p, hipStream_t stream __dparm(0));
hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D* pCopy);
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D* pCopy, hipStream_t stream);
hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D* pCopy);
hipError_t hipMemcpyBatchAsync(void** dsts, void** srcs, size_t* sizes, size_t count,
                               hipMemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs,
                               size_t* failIdx, hipStream_t stream __dparm(0));
hipError_t hipMemcpy3DBatchAsync(size_t numOps, struct hipMemcpy3DBatchOp* opList, size_t* failIdx,
                                 unsigned long long flags, hipStream_t stream __dparm(0));

/* ---- Memory: fills --------------------------------------------------------------------------- */

hipError_t hipMemset(void* dst, int value, size_t sizeBytes);
hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count);
hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count,
                            hipStream_t stream __dparm(0));
hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count);
hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count,
                             hipStream_t stream __dparm(0));
hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count);
hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream __dparm(0));
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                             hipStream_t stream __dparm(0));
hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height);
hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                            hipStream_t stream __dparm(0));
hipError_t hipMemset3D(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent);
hipError_t hipMemset3DAsync(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent,
                            hipStream_t stream __dparm(0));
hipError_t hipMemsetD2D8(hipDeviceptr_t dst, size_t dstPitch, unsigned char value, size_t width,
                         size_t height);
hipError_t hipMemsetD2D8Async(hipDeviceptr_t dst, size_t dstPitch, unsigned char value,
                              size_t width, size_t height, hipStream_t stream __dparm(0));
hipError_t hipMemsetD2D16(hipDeviceptr_t dst, size_t dstPitch, unsigned short value, size_t width,
                          size_t height);
hipError_t hipMemsetD2D16Async(hipDeviceptr_t dst, size_t dstPitch, unsigned short value,
                               size_t width, size_t height, hipStream_t stream __dparm(0));
hipError_t hipMemsetD2D32(hipDeviceptr_t dst, size_t dstPitch, unsigned int value, size_t width,
                          size_t height);
hipError_t hipMemsetD2D32Async(hipDeviceptr_t dst, size_t dstPitch, unsigned int value,
                               size_t width, size_t height, hipStream_t stream __dparm(0));

/* ---- Memory: arrays -------------------------------------------------------------------------- */

hipError_t hipMemcpyAtoD(hipDeviceptr_t dstDevice, hipArray_t srcArray, size_t srcOffset,
                         size_t ByteCount);
hipError_t hipMemcpyDtoA(hipArray_t dstArray, size_t dstOffset, hipDeviceptr_t srcDevice,
                         size_t ByteCount);
hipError_t hipMemcpyAtoA(hipArray_t dstArray, size_t dstOffset, hipArray_t srcArray,
                         size_t srcOffset, size_t ByteCount);
hipError_t hipMemcpyAtoHAsync(void* dstHost, hipArray_t srcArray, size_t srcOffset,
                              size_t ByteCount, hipStream_t stream);
hipError_t hipMemcpyHtoAAsync(hipArray_t dstArray, size_t dstOffset, const void* srcHost,
                              size_t ByteCount, hipStream_t stream);
hipError_t hipMallocArray(hipArray_t* array, const hipChannelFormatDesc* desc, size_t width,
                          size_t height __dparm(0), unsigned int flags __dparm(hipArrayDefault));
hipError_t hipArrayCreate(hipArray_t* pHandle, const HIP_ARRAY_DESCRIPTOR* pAllocateArray);
hipError_t hipArrayDestroy(hipArray_t array);
hipError_t hipArray3DCreate(hipArray_t* array, const HIP_ARRAY3D_DESCRIPTOR* pAllocateArray);
hipError_t hipFreeArray(hipArray_t array);
hipError_t hipMalloc3DArray(hipArray_t* array, const struct hipChannelFormatDesc* desc,
                            struct hipExtent extent, unsigned int flags);
hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent, unsigned int* flags,
                           hipArray_t array);
hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR* pArrayDescriptor, hipArray_t array);
hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR* pArrayDescriptor, hipArray_t array);
hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                              size_t spitch, size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                   size_t spitch, size_t width, size_t height, hipMemcpyKind kind,
                                   hipStream_t stream __dparm(0));
hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   hipArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                   size_t width, size_t height, hipMemcpyKind kind);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipMemcpyToArray(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                            size_t count, hipMemcpyKind kind);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t srcArray, size_t wOffset, size_t hOffset,
                              size_t count, hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArrayAsync(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t width, size_t height,
                                     hipMemcpyKind kind, hipStream_t stream __dparm(0));
hipError_t hipMemcpyAtoH(void* dst, hipArray_t srcArray, size_t srcOffset, size_t count);
hipError_t hipMemcpyHtoA(hipArray_t dstArray, size_t dstOffset, const void* srcHost, size_t count);

/* ---- Memory: device symbols ------------------------------------------------------------------ */

hipError_t hipGetSymbolAddress(void** devPtr, const void* symbol);
hipError_t hipGetSymbolSize(size_t* size, const void* symbol);
hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t sizeBytes,
                             size_t offset __dparm(0),
                             hipMemcpyKind kind __dparm(hipMemcpyHostToDevice));
hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t sizeBytes,
                                  size_t offset, hipMemcpyKind kind, hipStream_t stream __dparm(0));
hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t sizeBytes,
                               size_t offset __dparm(0),
                               hipMemcpyKind kind __dparm(hipMemcpyDeviceToHost));
hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                                    hipMemcpyKind kind, hipStream_t stream __dparm(0));

/* ---- Managed memory -------------------------------------------------------------------------- */

hipError_t hipMallocManaged(void** dev_ptr, size_t size,
                            unsigned int flags __dparm(hipMemAttachGlobal));
hipError_t hipMemPrefetchAsync(const void* dev_ptr, size_t count, int device,
                               hipStream_t stream __dparm(0));
hipError_t hipMemAdvise(const void* dev_ptr, size_t count, hipMemoryAdvise advice, int device);
hipError_t hipMemRangeGetAttribute(void* data, size_t data_size, hipMemRangeAttribute attribute,
                                   const void* dev_ptr, size_t count);
hipError_t hipMemRangeGetAttributes(void** data, size_t* data_sizes,
                                    hipMemRangeAttribute* attributes, size_t num_attributes,
                                    const void* dev_ptr, size_t count);
hipError_t hipMemPrefetchAsync_v2(const void* dev_ptr, size_t count, hipMemLocation location,
                                  unsigned int flags, hipStream_t stream __dparm(0));
hipError_t hipMemPrefetchBatchAsync(void** dev_ptrs, size_t* sizes, size_t count,
                                    hipMemLocation* prefetch_locs, size_t* prefetch_loc_idxs,
                                    size_t num_prefetch_locs, unsigned long long flags,
                                    hipStream_t stream);
hipError_t hipMemAdvise_v2(const void* dev_ptr, size_t count, hipMemoryAdvise advice,
                           hipMemLocation location);

/* ---- Stream-ordered allocator and memory pools ----------------------------------------------- */

hipError_t hipMallocAsync(void** dev_ptr, size_t size, hipStream_t stream);
hipError_t hipFreeAsync(void* dev_ptr, hipStream_t stream);
hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold);
hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value);
hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value);
hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc* desc_list,
                               size_t count);
hipError_t hipMemPoolGetAccess(hipMemAccessFlags* flags, hipMemPool_t mem_pool,
                               hipMemLocation* location);
hipError_t hipMemPoolCreate(hipMemPool_t* mem_pool, const hipMemPoolProps* pool_props);
hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool);
hipError_t hipMallocFromPoolAsync(void** dev_ptr, size_t size, hipMemPool_t mem_pool,
                                  hipStream_t stream);
hipError_t hipMemPoolExportToShareableHandle(void* shared_handle, hipMemPool_t mem_pool,
                                             hipMemAllocationHandleType handle_type,
                                             unsigned int flags);
hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t* mem_pool, void* shared_handle,
                                               hipMemAllocationHandleType handle_type,
                                               unsigned int flags);
hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData* export_data, void* dev_ptr);
hipError_t hipMemPoolImportPointer(void** dev_ptr, hipMemPool_t mem_pool,
                                   hipMemPoolPtrExportData* export_data);
hipError_t hipMemGetDefaultMemPool(hipMemPool_t* mem_pool, hipMemLocation* location,
                                   hipMemAllocationType type);
hipError_t hipMemSetMemPool(hipMemLocation* location, hipMemAllocationType type, hipMemPool_t pool);
hipError_t hipMemGetMemPool(hipMemPool_t* pool, hipMemLocation* location,
                            hipMemAllocationType type);

/* ---- Virtual memory management --------------------------------------------------------------- */

hipError_t hipMemAddressFree(void* devPtr, size_t size);
hipError_t hipMemAddressReserve(void** ptr, size_t size, size_t alignment, void* addr,
                                unsigned long long flags);
hipError_t hipMemCreate(hipMemGenericAllocationHandle_t* handle, size_t size,
                        const hipMemAllocationProp* prop, unsigned long long flags);
hipError_t hipMemExportToShareableHandle(void* shareableHandle,
                                         hipMemGenericAllocationHandle_t handle,
                                         hipMemAllocationHandleType handleType,
                                         unsigned long long flags);
hipError_t hipMemGetAccess(unsigned long long* flags, const hipMemLocation* location, void* ptr);
hipError_t hipMemGetAllocationGranularity(size_t* granularity, const hipMemAllocationProp* prop,
                                          hipMemAllocationGranularity_flags option);
hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp* prop,
                                                   hipMemGenericAllocationHandle_t handle);
hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t* handle, void* osHandle,
                                           hipMemAllocationHandleType shHandleType);
hipError_t hipMemMap(void* ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
                     unsigned long long flags);
hipError_t hipMemMapArrayAsync(hipArrayMapInfo* mapInfoList, unsigned int count,
                               hipStream_t stream);
hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle);
hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t* handle, void* addr);
hipError_t hipMemSetAccess(void* ptr, size_t size, const hipMemAccessDesc* desc, size_t count);
hipError_t hipMemUnmap(void* ptr, size_t size);
hipError_t hipMemGetHandleForAddressRange(void* handle, hipDeviceptr_t dptr, size_t size,
                                          hipMemRangeHandleType handleType,
                                          unsigned long long flags);

/* ---- Peer access ----------------------------------------------------------------------------- */

hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId);
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags);
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId);
hipError_t hipMemcpyPeer(void* dst, int dstDeviceId, const void* src, int srcDeviceId,
                         size_t sizeBytes);
hipError_t hipMemcpyPeerAsync(void* dst, int dstDeviceId, const void* src, int srcDevice,
                              size_t sizeBytes, hipStream_t stream __dparm(0));
hipError_t hipMemcpy3DPeer(hipMemcpy3DPeerParms* p);
hipError_t hipMemcpy3DPeerAsync(hipMemcpy3DPeerParms* p, hipStream_t stream __dparm(0));

/* ---- Inter-process sharing ------------------------------------------------------------------- */

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t* handle, void* devPtr);
hipError_t hipIpcOpenMemHandle(void** devPtr, hipIpcMemHandle_t handle, unsigned int flags);
hipError_t hipIpcCloseMemHandle(void* devPtr);
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t* handle, hipEvent_t event);
hipError_t hipIpcOpenEventHandle(hipEvent_t* event, hipIpcEventHandle_t handle);

/* ---- External memory and semaphores ---------------------------------------------------------- */

hipError_t hipImportExternalSemaphore(hipExternalSemaphore_t* extSem_out,
                                      const hipExternalSemaphoreHandleDesc* semHandleDesc);
hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t* extSemArray,
                                            const hipExternalSemaphoreSignalParams* paramsArray,
                                            unsigned int numExtSems, hipStream_t stream);
hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t* extSemArray,
                                          const hipExternalSemaphoreWaitParams* paramsArray,
                                          unsigned int numExtSems, hipStream_t stream);
hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t extSem);
hipError_t hipImportExternalMemory(hipExternalMemory_t* extMem_out,
                                   const hipExternalMemoryHandleDesc* memHandleDesc);
hipError_t hipExternalMemoryGetMappedBuffer(void** devPtr, hipExternalMemory_t extMem,
                                            const hipExternalMemoryBufferDesc* bufferDesc);
hipError_t hipDestroyExternalMemory(hipExternalMemory_t extMem);
hipError_t hipExternalMemoryGetMappedMipmappedArray(
    hipMipmappedArray_t* mipmap, hipExternalMemory_t extMem,
    const hipExternalMemoryMipmappedArrayDesc* mipmapDesc);

/* ---- Contexts (deprecated on AMD) ------------------------------------------------------------ */

HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxDestroy(hipCtx_t ctx);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxPopCurrent(hipCtx_t* ctx);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxPushCurrent(hipCtx_t ctx);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxSetCurrent(hipCtx_t ctx);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxGetCurrent(hipCtx_t* ctx);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxGetDevice(hipDevice_t* device);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxGetApiVersion(hipCtx_t ctx, unsigned int* apiVersion);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxGetCacheConfig(hipFuncCache_t* cacheConfig);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxSetCacheConfig(hipFuncCache_t cacheConfig);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxSetSharedMemConfig(hipSharedMemConfig config);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxGetSharedMemConfig(hipSharedMemConfig* pConfig);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxSynchronize(void);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxGetFlags(unsigned int* flags);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxEnablePeerAccess(hipCtx_t peerCtx, unsigned int flags);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipCtxDisablePeerAccess(hipCtx_t peerCtx);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipDevicePrimaryCtxGetState(hipDevice_t dev, unsigned int* flags, int* active);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipDevicePrimaryCtxRelease(hipDevice_t dev);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* pctx, hipDevice_t dev);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipDevicePrimaryCtxReset(hipDevice_t dev);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t dev, unsigned int flags);

/* ---- Modules, libraries, kernels, functions and the linker ----------------------------------- */

hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value);
hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config);
hipError_t hipFuncSetSharedMemConfig(const void* func, hipSharedMemConfig config);
hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod,
                              const char* name);
hipError_t hipGetProcAddress(const char* symbol, void** pfn, int hipVersion, uint64_t flags,
                             hipDriverProcAddressQueryResult* symbolStatus);
hipError_t hipModuleLoad(hipModule_t* module, const char* fname);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* kname);
hipError_t hipFuncGetAttributes(struct hipFuncAttributes* attr, const void* func);
hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t hfunc);
hipError_t hipGetFuncBySymbol(hipFunction_t* functionPtr, const void* symbolPtr);
hipError_t hipModuleLoadData(hipModule_t* module, const void* image);
hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int numOptions,
                               hipJitOption* options, void** optionValues);
hipError_t hipKernelSetAttribute(hipFunction_attribute attrib, int value, hipKernel_t kernel,
                                 hipDevice_t dev);
hipError_t hipKernelGetFunction(hipFunction_t* pFunc, hipKernel_t kernel);
hipError_t hipModuleLoadFatBinary(hipModule_t* module, const void* fatbin);
hipError_t hipModuleGetFunctionCount(unsigned int* count, hipModule_t mod);
hipError_t hipKernelGetAttribute(int* pi, hipFunction_attribute attrib, hipKernel_t kernel,
                                 hipDevice_t dev);
hipError_t hipLibraryLoadData(hipLibrary_t* library, const void* code, hipJitOption* jitOptions,
                              void** jitOptionsValues, unsigned int numJitOptions,
                              hipLibraryOption* libraryOptions, void** libraryOptionValues,
                              unsigned int numLibraryOptions);
hipError_t hipLibraryLoadFromFile(hipLibrary_t* library, const char* fileName,
                                  hipJitOption* jitOptions, void** jitOptionsValues,
                                  unsigned int numJitOptions, hipLibraryOption* libraryOptions,
                                  void** libraryOptionValues, unsigned int numLibraryOptions);
hipError_t hipLibraryUnload(hipLibrary_t library);
hipError_t hipLibraryGetKernel(hipKernel_t* pKernel, hipLibrary_t library, const char* name);
hipError_t hipLibraryGetKernelCount(unsigned int* count, hipLibrary_t library);
hipError_t hipLibraryEnumerateKernels(hipKernel_t* kernels, unsigned int numKernels,
                                      hipLibrary_t library);
hipError_t hipKernelGetLibrary(hipLibrary_t* library, hipKernel_t kernel);
hipError_t hipKernelGetName(const char** name, hipKernel_t kernel);
hipError_t hipKernelGetParamInfo(hipKernel_t kernel, size_t paramIndex, size_t* paramOffset,
                                 size_t* paramSize);
hipError_t hipGetDriverEntryPoint(const char* symbol, void** funcPtr, unsigned long long flags,
                                  hipDriverEntryPointQueryResult* driverStatus);
hipError_t hipLinkAddData(hipLinkState_t state, hipJitInputType type, void* data, size_t size,
                          const char* name, unsigned int numOptions, hipJitOption* options,
                          void** optionValues);
hipError_t hipLinkAddFile(hipLinkState_t state, hipJitInputType type, const char* path,
                          unsigned int numOptions, hipJitOption* options, void** optionValues);
hipError_t hipLinkComplete(hipLinkState_t state, void** hipBinOut, size_t* sizeOut);
hipError_t hipLinkCreate(unsigned int numOptions, hipJitOption* options, void** optionValues,
                         hipLinkState_t* stateOut);
hipError_t hipLinkDestroy(hipLinkState_t state);

/* ---- Kernel launch --------------------------------------------------------------------------- */

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX,
                                 unsigned int blockDimY, unsigned int blockDimZ,
                                 unsigned int sharedMemBytes, hipStream_t stream,
                                 void** kernelParams, void** extra);
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX,
                                            unsigned int gridDimY, unsigned int gridDimZ,
                                            unsigned int blockDimX, unsigned int blockDimY,
                                            unsigned int blockDimZ, unsigned int sharedMemBytes,
                                            hipStream_t stream, void** kernelParams);
hipError_t hipModuleLaunchCooperativeKernelMultiDevice(hipFunctionLaunchParams* launchParamsList,
                                                       unsigned int numDevices, unsigned int flags);
hipError_t hipLaunchCooperativeKernel(const void* f, dim3 gridDim, dim3 blockDimX,
                                      void** kernelParams, unsigned int sharedMemBytes,
                                      hipStream_t stream);
hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams* launchParamsList, int numDevices,
                                                 unsigned int flags);
hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams* launchParamsList, int numDevices,
                                              unsigned int flags);
hipError_t hipConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __dparm(0),
                            hipStream_t stream __dparm(0));
hipError_t hipSetupArgument(const void* arg, size_t size, size_t offset);
hipError_t hipLaunchByPtr(const void* func);
hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __dparm(0),
                                      hipStream_t stream __dparm(0));
hipError_t __hipPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                     hipStream_t* stream);
hipError_t hipLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks,
                           void** args, size_t sharedMemBytes __dparm(0),
                           hipStream_t stream __dparm(0));
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void* userData);
hipError_t hipExtLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks,
                              void** args, size_t sharedMemBytes, hipStream_t stream,
                              hipEvent_t startEvent, hipEvent_t stopEvent, int flags);
hipError_t hipLaunchKernelExC(const hipLaunchConfig_t* config, const void* fPtr, void** args);
hipError_t hipDrvLaunchKernelEx(const HIP_LAUNCH_CONFIG* config, hipFunction_t f, void** params,
                                void** extra);

/* ---- Occupancy ------------------------------------------------------------------------------- */

hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, hipFunction_t f,
                                                   size_t dynSharedMemPerBlk, int blockSizeLimit);
hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int* gridSize, int* blockSize,
                                                            hipFunction_t f,
                                                            size_t dynSharedMemPerBlk,
                                                            int blockSizeLimit, unsigned int flags);
hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, hipFunction_t f,
                                                              int blockSize,
                                                              size_t dynSharedMemPerBlk);
hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, hipFunction_t f, int blockSize, size_t dynSharedMemPerBlk, unsigned int flags);
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* f,
                                                        int blockSize, size_t dynSharedMemPerBlk);
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* numBlocks, const void* f, int blockSize, size_t dynSharedMemPerBlk,
    unsigned int flags __dparm(hipOccupancyDefault));
hipError_t hipOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, const void* f,
                                             size_t dynSharedMemPerBlk, int blockSizeLimit);
hipError_t hipOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* f,
                                                    int numBlocks, int blockSize);

/* ---- Stream capture -------------------------------------------------------------------------- */

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph,
                                        const hipGraphNode_t* dependencies,
                                        const hipGraphEdgeData* dependencyData,
                                        size_t numDependencies, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* pGraph);
hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus,
                                   unsigned long long* pId);
hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus* captureStatus_out,
                                      unsigned long long* id_out __dparm(0),
                                      hipGraph_t* graph_out __dparm(0),
                                      const hipGraphNode_t** dependencies_out __dparm(0),
                                      size_t* numDependencies_out __dparm(0));
hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus);
hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t* dependencies,
                                              size_t numDependencies,
                                              unsigned int flags __dparm(0));
hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode);

/* ---- Graphs ---------------------------------------------------------------------------------- */

hipError_t hipGraphAddBatchMemOpNode(hipGraphNode_t* phGraphNode, hipGraph_t hGraph,
                                     const hipGraphNode_t* dependencies, size_t numDependencies,
                                     const hipBatchMemOpNodeParams* nodeParams);
hipError_t hipGraphBatchMemOpNodeGetParams(hipGraphNode_t hNode,
                                           hipBatchMemOpNodeParams* nodeParams_out);
hipError_t hipGraphBatchMemOpNodeSetParams(hipGraphNode_t hNode,
                                           hipBatchMemOpNodeParams* nodeParams);
hipError_t hipGraphExecBatchMemOpNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                               const hipBatchMemOpNodeParams* nodeParams);
hipError_t hipGraphCreate(hipGraph_t* pGraph, unsigned int flags);
hipError_t hipGraphDestroy(hipGraph_t graph);
hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from,
                                   const hipGraphNode_t* to, size_t numDependencies);
hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t* from,
                                      const hipGraphNode_t* to, size_t numDependencies);
hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to,
                            size_t* numEdges);
hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* numNodes);
hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t* pRootNodes,
                                size_t* pNumRootNodes);
hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t* pDependencies,
                                       size_t* pNumDependencies);
hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t* pDependentNodes,
                                         size_t* pNumDependentNodes);
hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType* pType);
hipError_t hipGraphDestroyNode(hipGraphNode_t node);
hipError_t hipGraphClone(hipGraph_t* pGraphClone, hipGraph_t originalGraph);
hipError_t hipGraphNodeFindInClone(hipGraphNode_t* pNode, hipGraphNode_t originalNode,
                                   hipGraph_t clonedGraph);
hipError_t hipGraphInstantiate(hipGraphExec_t* pGraphExec, hipGraph_t graph,
                               hipGraphNode_t* pErrorNode, char* pLogBuffer, size_t bufferSize);
hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* pGraphExec, hipGraph_t graph,
                                        unsigned long long flags);
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t* pGraphExec, hipGraph_t graph,
                                         hipGraphInstantiateParams* instantiateParams);
hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphAddNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                           const hipGraphNode_t* pDependencies, size_t numDependencies,
                           hipGraphNodeParams* nodeParams);
hipError_t hipGraphExecGetFlags(hipGraphExec_t graphExec, unsigned long long* flags);
hipError_t hipGraphNodeSetParams(hipGraphNode_t node, hipGraphNodeParams* nodeParams);
hipError_t hipGraphExecNodeSetParams(hipGraphExec_t graphExec, hipGraphNode_t node,
                                     hipGraphNodeParams* nodeParams);
hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec);
hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph,
                              hipGraphNode_t* hErrorNode_out,
                              hipGraphExecUpdateResult* updateResult_out);
hipError_t hipGraphAddKernelNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t* pDependencies, size_t numDependencies,
                                 const hipKernelNodeParams* pNodeParams);
hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams* pNodeParams);
hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams* pNodeParams);
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipKernelNodeParams* pNodeParams);
hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t* phGraphNode, hipGraph_t hGraph,
                                    const hipGraphNode_t* dependencies, size_t numDependencies,
                                    const HIP_MEMCPY3D* copyParams, hipCtx_t ctx);
hipError_t hipGraphAddMemcpyNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t* pDependencies, size_t numDependencies,
                                 const hipMemcpy3DParms* pCopyParams);
hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms* pNodeParams);
hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms* pNodeParams);
hipError_t hipGraphKernelNodeSetAttribute(hipGraphNode_t hNode, hipKernelNodeAttrID attr,
                                          const hipKernelNodeAttrValue* value);
hipError_t hipGraphKernelNodeGetAttribute(hipGraphNode_t hNode, hipKernelNodeAttrID attr,
                                          hipKernelNodeAttrValue* value);
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           hipMemcpy3DParms* pNodeParams);
hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t* pDependencies, size_t numDependencies,
                                   void* dst, const void* src, size_t count, hipMemcpyKind kind);
hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void* dst, const void* src,
                                         size_t count, hipMemcpyKind kind);
hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                             void* dst, const void* src, size_t count,
                                             hipMemcpyKind kind);
hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t* pDependencies,
                                           size_t numDependencies, void* dst, const void* symbol,
                                           size_t count, size_t offset, hipMemcpyKind kind);
hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void* dst, const void* symbol,
                                                 size_t count, size_t offset, hipMemcpyKind kind);
hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                     void* dst, const void* symbol, size_t count,
                                                     size_t offset, hipMemcpyKind kind);
hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t* pDependencies,
                                         size_t numDependencies, const void* symbol,
                                         const void* src, size_t count, size_t offset,
                                         hipMemcpyKind kind);
hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void* symbol,
                                               const void* src, size_t count, size_t offset,
                                               hipMemcpyKind kind);
hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                   const void* symbol, const void* src,
                                                   size_t count, size_t offset, hipMemcpyKind kind);
hipError_t hipGraphAddMemsetNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t* pDependencies, size_t numDependencies,
                                 const hipMemsetParams* pMemsetParams);
hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams* pNodeParams);
hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams* pNodeParams);
hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipMemsetParams* pNodeParams);
hipError_t hipGraphAddHostNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                               const hipGraphNode_t* pDependencies, size_t numDependencies,
                               const hipHostNodeParams* pNodeParams);
hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams* pNodeParams);
hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams* pNodeParams);
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                         const hipHostNodeParams* pNodeParams);
hipError_t hipGraphAddChildGraphNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                     const hipGraphNode_t* pDependencies, size_t numDependencies,
                                     hipGraph_t childGraph);
hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t* pGraph);
hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                               hipGraph_t childGraph);
hipError_t hipGraphAddEmptyNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                const hipGraphNode_t* pDependencies, size_t numDependencies);
hipError_t hipGraphAddEventRecordNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                      const hipGraphNode_t* pDependencies, size_t numDependencies,
                                      hipEvent_t event);
hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t* event_out);
hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event);
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                               hipEvent_t event);
hipError_t hipGraphAddEventWaitNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                    const hipGraphNode_t* pDependencies, size_t numDependencies,
                                    hipEvent_t event);
hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t* event_out);
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event);
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                             hipEvent_t event);
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t* pDependencies, size_t numDependencies,
                                   hipMemAllocNodeParams* pNodeParams);
hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node, hipMemAllocNodeParams* pNodeParams);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                  const hipGraphNode_t* pDependencies, size_t numDependencies,
                                  void* dev_ptr);
hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void* dev_ptr);
hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void* value);
hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void* value);
hipError_t hipDeviceGraphMemTrim(int device);
hipError_t hipUserObjectCreate(hipUserObject_t* object_out, void* ptr, hipHostFn_t destroy,
                               unsigned int initialRefcount, unsigned int flags);
hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count __dparm(1));
hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count __dparm(1));
hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object,
                                    unsigned int count __dparm(1), unsigned int flags __dparm(0));
hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object,
                                     unsigned int count __dparm(1));
hipError_t hipGraphDebugDotPrint(hipGraph_t graph, const char* path, unsigned int flags);
hipError_t hipGraphKernelNodeCopyAttributes(hipGraphNode_t hSrc, hipGraphNode_t hDst);
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                  unsigned int isEnabled);
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                  unsigned int* isEnabled);
hipError_t hipGraphAddExternalSemaphoresWaitNode(
    hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
    size_t numDependencies, const hipExternalSemaphoreWaitNodeParams* nodeParams);
hipError_t hipGraphAddExternalSemaphoresSignalNode(
    hipGraphNode_t* pGraphNode, hipGraph_t graph, const hipGraphNode_t* pDependencies,
    size_t numDependencies, const hipExternalSemaphoreSignalNodeParams* nodeParams);
hipError_t hipGraphExternalSemaphoresSignalNodeSetParams(
    hipGraphNode_t hNode, const hipExternalSemaphoreSignalNodeParams* nodeParams);
hipError_t hipGraphExternalSemaphoresWaitNodeSetParams(
    hipGraphNode_t hNode, const hipExternalSemaphoreWaitNodeParams* nodeParams);
hipError_t hipGraphExternalSemaphoresSignalNodeGetParams(
    hipGraphNode_t hNode, hipExternalSemaphoreSignalNodeParams* params_out);
hipError_t hipGraphExternalSemaphoresWaitNodeGetParams(
    hipGraphNode_t hNode, hipExternalSemaphoreWaitNodeParams* params_out);
hipError_t hipGraphExecExternalSemaphoresSignalNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
    const hipExternalSemaphoreSignalNodeParams* nodeParams);
hipError_t hipGraphExecExternalSemaphoresWaitNodeSetParams(
    hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
    const hipExternalSemaphoreWaitNodeParams* nodeParams);
hipError_t hipDrvGraphMemcpyNodeGetParams(hipGraphNode_t hNode, HIP_MEMCPY3D* nodeParams);
hipError_t hipDrvGraphMemcpyNodeSetParams(hipGraphNode_t hNode, const HIP_MEMCPY3D* nodeParams);
hipError_t hipDrvGraphAddMemsetNode(hipGraphNode_t* phGraphNode, hipGraph_t hGraph,
                                    const hipGraphNode_t* dependencies, size_t numDependencies,
                                    const hipMemsetParams* memsetParams, hipCtx_t ctx);
hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t* phGraphNode, hipGraph_t hGraph,
                                     const hipGraphNode_t* dependencies, size_t numDependencies,
                                     hipDeviceptr_t dptr);
hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const HIP_MEMCPY3D* copyParams, hipCtx_t ctx);
hipError_t hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const hipMemsetParams* memsetParams, hipCtx_t ctx);

/* ---- Texture objects and mipmapped arrays ---------------------------------------------------- */

hipError_t hipCreateTextureObject(hipTextureObject_t* pTexObject, const hipResourceDesc* pResDesc,
                                  const hipTextureDesc* pTexDesc,
                                  const struct hipResourceViewDesc* pResViewDesc);
hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject);
hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array);
hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* pResDesc,
                                           hipTextureObject_t textureObject);
hipError_t hipGetTextureObjectResourceViewDesc(struct hipResourceViewDesc* pResViewDesc,
                                               hipTextureObject_t textureObject);
hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* pTexDesc,
                                          hipTextureObject_t textureObject);
hipError_t hipTexObjectCreate(hipTextureObject_t* pTexObject, const HIP_RESOURCE_DESC* pResDesc,
                              const HIP_TEXTURE_DESC* pTexDesc,
                              const HIP_RESOURCE_VIEW_DESC* pResViewDesc);
hipError_t hipTexObjectDestroy(hipTextureObject_t texObject);
hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC* pResDesc, hipTextureObject_t texObject);
hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC* pResViewDesc,
                                           hipTextureObject_t texObject);
hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC* pTexDesc, hipTextureObject_t texObject);
hipError_t hipMallocMipmappedArray(hipMipmappedArray_t* mipmappedArray,
                                   const struct hipChannelFormatDesc* desc, struct hipExtent extent,
                                   unsigned int numLevels, unsigned int flags __dparm(0));
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmappedArray);
hipError_t hipGetMipmappedArrayLevel(hipArray_t* levelArray,
                                     hipMipmappedArray_const_t mipmappedArray, unsigned int level);
hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t* pHandle,
                                   HIP_ARRAY3D_DESCRIPTOR* pMipmappedArrayDesc,
                                   unsigned int numMipmapLevels);
hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t hMipmappedArray);
hipError_t hipMipmappedArrayGetLevel(hipArray_t* pLevelArray, hipMipmappedArray_t hMipMappedArray,
                                     unsigned int level);
hipError_t hipMipmappedArrayGetMemoryRequirements(hipArrayMemoryRequirements* memoryRequirements,
                                                  hipMipmappedArray_t mipmap, hipDevice_t device);

/* ---- Texture references (deprecated) --------------------------------------------------------- */

hipError_t hipModuleGetTexRef(textureReference** texRef, hipModule_t hmod, const char* name);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipBindTextureToMipmappedArray(const textureReference* tex,
                                          hipMipmappedArray_const_t mipmappedArray,
                                          const hipChannelFormatDesc* desc);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipGetTextureReference(const textureReference** texref, const void* symbol);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetBorderColor(float* pBorderColor, const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetArray(hipArray_t* pArray, const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetAddressMode(textureReference* texRef, int dim,
                                   enum hipTextureAddressMode am);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetArray(textureReference* tex, hipArray_const_t array, unsigned int flags);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetFilterMode(textureReference* texRef, enum hipTextureFilterMode fm);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetFlags(textureReference* texRef, unsigned int Flags);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetFormat(textureReference* texRef, hipArray_Format fmt,
                              int NumPackedComponents);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipBindTexture(size_t* offset, const textureReference* tex, const void* devPtr,
                          const hipChannelFormatDesc* desc, size_t size __dparm(UINT_MAX));
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipBindTexture2D(size_t* offset, const textureReference* tex, const void* devPtr,
                            const hipChannelFormatDesc* desc, size_t width, size_t height,
                            size_t pitch);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipBindTextureToArray(const textureReference* tex, hipArray_const_t array,
                                 const hipChannelFormatDesc* desc);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipGetTextureAlignmentOffset(size_t* offset, const textureReference* texref);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipUnbindTexture(const textureReference* tex);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetAddress(hipDeviceptr_t* dev_ptr, const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetAddressMode(enum hipTextureAddressMode* pam, const textureReference* texRef,
                                   int dim);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetFilterMode(enum hipTextureFilterMode* pfm, const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetFlags(unsigned int* pFlags, const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetFormat(hipArray_Format* pFormat, int* pNumChannels,
                              const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetMaxAnisotropy(int* pmaxAnsio, const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetMipmapFilterMode(enum hipTextureFilterMode* pfm,
                                        const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetMipmapLevelBias(float* pbias, const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetMipmapLevelClamp(float* pminMipmapLevelClamp, float* pmaxMipmapLevelClamp,
                                        const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefGetMipMappedArray(hipMipmappedArray_t* pArray, const textureReference* texRef);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetAddress(size_t* ByteOffset, textureReference* texRef, hipDeviceptr_t dptr,
                               size_t bytes);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetAddress2D(textureReference* texRef, const HIP_ARRAY_DESCRIPTOR* desc,
                                 hipDeviceptr_t dptr, size_t Pitch);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetMaxAnisotropy(textureReference* texRef, unsigned int maxAniso);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetBorderColor(textureReference* texRef, float* pBorderColor);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetMipmapFilterMode(textureReference* texRef, enum hipTextureFilterMode fm);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetMipmapLevelBias(textureReference* texRef, float bias);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetMipmapLevelClamp(textureReference* texRef, float minMipMapLevelClamp,
                                        float maxMipMapLevelClamp);
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
hipError_t hipTexRefSetMipmappedArray(textureReference* texRef,
                                      struct hipMipmappedArray* mipmappedArray, unsigned int Flags);

/* ---- Surface objects ------------------------------------------------------------------------- */

hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* pSurfObject, const hipResourceDesc* pResDesc);
hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surfaceObject);

/* ---- Graphics interoperability --------------------------------------------------------------- */

hipError_t hipGraphicsMapResources(int count, hipGraphicsResource_t* resources,
                                   hipStream_t stream __dparm(0));
hipError_t hipGraphicsSubResourceGetMappedArray(hipArray_t* array, hipGraphicsResource_t resource,
                                                unsigned int arrayIndex, unsigned int mipLevel);
hipError_t hipGraphicsResourceGetMappedPointer(void** devPtr, size_t* size,
                                               hipGraphicsResource_t resource);
hipError_t hipGraphicsUnmapResources(int count, hipGraphicsResource_t* resources,
                                     hipStream_t stream __dparm(0));
hipError_t hipGraphicsUnregisterResource(hipGraphicsResource_t resource);

/* ---- Profiler control (deprecated) ----------------------------------------------------------- */

HIP_DEPRECATED("use roctracer/rocTX instead")
hipError_t hipProfilerStart(void);
HIP_DEPRECATED("use roctracer/rocTX instead")
hipError_t hipProfilerStop(void);

/* ---- Tracing and logging helpers ------------------------------------------------------------- */

const char* hipApiName(uint32_t id);
const char* hipKernelNameRef(const hipFunction_t f);
const char* hipKernelNameRefByPtr(const void* hostFunction, hipStream_t stream);
int hipGetStreamDeviceId(hipStream_t stream);
hipError_t hipExtEnableLogging(void);
hipError_t hipExtDisableLogging(void);
hipError_t hipExtSetLoggingParams(size_t log_level, size_t log_size, size_t log_mask);

/* ---- Per-thread default stream variants ------------------------------------------------------ */
/* Same behaviour as the plain calls, except that a NULL or hipStreamLegacy stream means the calling
 * thread's default stream (hipStreamPerThread). Compilers target these directly for
 * -fgpu-default-stream=per-thread; HIP_API_PER_THREAD_DEFAULT_STREAM redirects the plain names
 * (see the end of this file). */

hipError_t hipMemcpy_spt(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind);
hipError_t hipMemcpyToSymbol_spt(const void* symbol, const void* src, size_t sizeBytes,
                                 size_t offset __dparm(0),
                                 hipMemcpyKind kind __dparm(hipMemcpyHostToDevice));
hipError_t hipMemcpyFromSymbol_spt(void* dst, const void* symbol, size_t sizeBytes,
                                   size_t offset __dparm(0),
                                   hipMemcpyKind kind __dparm(hipMemcpyDeviceToHost));
hipError_t hipMemcpy2D_spt(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                           size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArray_spt(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
                                    size_t hOffset, size_t width, size_t height,
                                    hipMemcpyKind kind);
hipError_t hipMemcpy3D_spt(const struct hipMemcpy3DParms* p);
hipError_t hipMemset_spt(void* dst, int value, size_t sizeBytes);
hipError_t hipMemsetAsync_spt(void* dst, int value, size_t sizeBytes,
                              hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemset2D_spt(void* dst, size_t pitch, int value, size_t width, size_t height);
hipError_t hipMemset2DAsync_spt(void* dst, size_t pitch, int value, size_t width, size_t height,
                                hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemset3DAsync_spt(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent,
                                hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemset3D_spt(hipPitchedPtr pitchedDevPtr, int value, hipExtent extent);
hipError_t hipMemcpyAsync_spt(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind,
                              hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemcpy3DAsync_spt(const hipMemcpy3DParms* p,
                                hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemcpy2DAsync_spt(void* dst, size_t dpitch, const void* src, size_t spitch,
                                size_t width, size_t height, hipMemcpyKind kind,
                                hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemcpyFromSymbolAsync_spt(void* dst, const void* symbol, size_t sizeBytes,
                                        size_t offset, hipMemcpyKind kind,
                                        hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemcpyToSymbolAsync_spt(const void* symbol, const void* src, size_t sizeBytes,
                                      size_t offset, hipMemcpyKind kind,
                                      hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemcpyFromArray_spt(void* dst, hipArray_const_t src, size_t wOffsetSrc,
                                  size_t hOffset, size_t count, hipMemcpyKind kind);
hipError_t hipMemcpy2DToArray_spt(hipArray_t dst, size_t wOffset, size_t hOffset, const void* src,
                                  size_t spitch, size_t width, size_t height, hipMemcpyKind kind);
hipError_t hipMemcpy2DFromArrayAsync_spt(void* dst, size_t dpitch, hipArray_const_t src,
                                         size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
                                         size_t height, hipMemcpyKind kind,
                                         hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipMemcpy2DToArrayAsync_spt(hipArray_t dst, size_t wOffset, size_t hOffset,
                                       const void* src, size_t spitch, size_t width, size_t height,
                                       hipMemcpyKind kind,
                                       hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipStreamQuery_spt(hipStream_t stream);
hipError_t hipStreamSynchronize_spt(hipStream_t stream);
hipError_t hipStreamGetPriority_spt(hipStream_t stream, int* priority);
hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event,
                                  unsigned int flags __dparm(0));
hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int* flags);
hipError_t hipStreamAddCallback_spt(hipStream_t stream, hipStreamCallback_t callback,
                                    void* userData, unsigned int flags);
hipError_t hipEventRecord_spt(hipEvent_t event, hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipLaunchCooperativeKernel_spt(const void* f, dim3 gridDim, dim3 blockDim,
                                          void** kernelParams, uint32_t sharedMemBytes,
                                          hipStream_t hStream __dparm(hipStreamPerThread));
hipError_t hipLaunchKernel_spt(const void* function_address, dim3 numBlocks, dim3 dimBlocks,
                               void** args, size_t sharedMemBytes,
                               hipStream_t stream __dparm(hipStreamPerThread));
hipError_t hipGraphLaunch_spt(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipStreamBeginCapture_spt(hipStream_t stream, hipStreamCaptureMode mode);
hipError_t hipStreamEndCapture_spt(hipStream_t stream, hipGraph_t* pGraph);
hipError_t hipStreamIsCapturing_spt(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus);
hipError_t hipStreamGetCaptureInfo_spt(hipStream_t stream, hipStreamCaptureStatus* pCaptureStatus,
                                       unsigned long long* pId);
hipError_t hipStreamGetCaptureInfo_v2_spt(hipStream_t stream,
                                          hipStreamCaptureStatus* captureStatus_out,
                                          unsigned long long* id_out, hipGraph_t* graph_out,
                                          const hipGraphNode_t** dependencies_out,
                                          size_t* numDependencies_out);
hipError_t hipLaunchHostFunc_spt(hipStream_t stream, hipHostFn_t fn, void* userData);
hipError_t hipGetDriverEntryPoint_spt(const char* symbol, void** funcPtr, unsigned long long flags,
                                      hipDriverEntryPointQueryResult* status);
hipError_t hipGetProcAddress_spt(const char* symbol, void** pfn, int hipVersion, uint64_t flags,
                                 hipDriverProcAddressQueryResult* symbolStatus);

/* ---- weft extensions ------------------------------------------------------------------------- */
/* None here: weft-specific declarations live in <hip/weft/...>. */

#ifdef __cplusplus
} /* extern "C" */
#endif

/* =============================================================================================
 * 4. C++ conveniences: typed and templated overloads of the C entry points
 * ============================================================================================= */
#ifdef __cplusplus

#include <utility>

namespace weft_detail {
/* Kernels and device symbols are passed to the C API by address. */
template <typename T>
inline const void* entry_address(T f) {
  return reinterpret_cast<const void*>(f);
}
}  // namespace weft_detail

/* Device symbols: pass the variable itself instead of its address. */
template <typename T>
hipError_t hipGetSymbolAddress(void** devPtr, const T& symbol) {
  return ::hipGetSymbolAddress(devPtr, static_cast<const void*>(&symbol));
}
/* Under a HIP compiler (weftcc, hipcc: __HIP__) every device variable is registered, and the
 * runtime answers with the size of the variable in the current device's image, which need not
 * be the host type's: a texture reference is the whole textureReference in a CPU image but the
 * 64-bit texture object in an NVIDIA one. A single-source (g++) variable is not registered, so
 * there the variable's type gives the size; the runtime still validates the symbol and the
 * output pointer. */
template <typename T>
hipError_t hipGetSymbolSize(size_t* size, const T& symbol) {
#if defined(__HIP__)
  return ::hipGetSymbolSize(size, static_cast<const void*>(&symbol));
#else
  void* address = nullptr;
  hipError_t err = size ? ::hipGetSymbolAddress(&address, static_cast<const void*>(&symbol))
                        : ::hipGetSymbolSize(size, static_cast<const void*>(&symbol));
  if (err == hipSuccess) *size = sizeof(T);
  return err;
#endif
}
template <typename T>
hipError_t hipMemcpyToSymbol(const T& symbol, const void* src, size_t sizeBytes, size_t offset = 0,
                             hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return ::hipMemcpyToSymbol(static_cast<const void*>(&symbol), src, sizeBytes, offset, kind);
}
template <typename T>
hipError_t hipMemcpyToSymbolAsync(const T& symbol, const void* src, size_t sizeBytes, size_t offset,
                                  hipMemcpyKind kind, hipStream_t stream = 0) {
  return ::hipMemcpyToSymbolAsync(static_cast<const void*>(&symbol), src, sizeBytes, offset, kind,
                                  stream);
}
template <typename T>
hipError_t hipMemcpyFromSymbol(void* dst, const T& symbol, size_t sizeBytes, size_t offset = 0,
                               hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return ::hipMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), sizeBytes, offset, kind);
}
template <typename T>
hipError_t hipMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t sizeBytes, size_t offset,
                                    hipMemcpyKind kind, hipStream_t stream = 0) {
  return ::hipMemcpyFromSymbolAsync(dst, static_cast<const void*>(&symbol), sizeBytes, offset, kind,
                                    stream);
}

/* Occupancy with a kernel (function pointer) instead of an untyped address. */
template <class F>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, F f, int blockSize,
                                                               size_t dynSharedMemPerBlk) {
  return ::hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, weft_detail::entry_address(f),
                                                        blockSize, dynSharedMemPerBlk);
}
template <class F>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, F f,
                                                                        int blockSize,
                                                                        size_t dynSharedMemPerBlk,
                                                                        unsigned int flags) {
  return ::hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, weft_detail::entry_address(f), blockSize, dynSharedMemPerBlk, flags);
}
template <typename F>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int* gridSize, int* blockSize, F kernel,
                                                    size_t dynSharedMemPerBlk = 0,
                                                    int blockSizeLimit = 0) {
  return ::hipOccupancyMaxPotentialBlockSize(
      gridSize, blockSize, weft_detail::entry_address(kernel), dynSharedMemPerBlk, blockSizeLimit);
}
template <typename F>
inline hipError_t hipOccupancyMaxPotentialBlockSizeWithFlags(int* gridSize, int* blockSize,
                                                             F kernel,
                                                             size_t dynSharedMemPerBlk = 0,
                                                             int blockSizeLimit = 0,
                                                             unsigned int flags = 0) {
  (void)flags; /* only the default behaviour exists */
  return ::hipOccupancyMaxPotentialBlockSize(
      gridSize, blockSize, weft_detail::entry_address(kernel), dynSharedMemPerBlk, blockSizeLimit);
}
template <typename F>
inline hipError_t hipOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, F f,
                                                           int numBlocks, int blockSize) {
  return ::hipOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, weft_detail::entry_address(f),
                                                    numBlocks, blockSize);
}

/* Block size with the best occupancy when dynamic shared memory depends on the block size.
 * smem_for_block(block) returns the dynamic shared bytes a block of that size needs. Walks the
 * candidate sizes from the largest warp multiple down and keeps the one with the most resident
 * threads per compute unit. */
template <typename UnaryFunction, class F>
static inline hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int* min_grid_size, int* block_size, F func, UnaryFunction smem_for_block,
    int block_size_limit = 0, unsigned int flags = 0) {
  if (min_grid_size == nullptr || block_size == nullptr ||
      weft_detail::entry_address(func) == nullptr) {
    return hipErrorInvalidValue;
  }
  int device = 0;
  hipError_t err = hipGetDevice(&device);
  if (err != hipSuccess) return err;
  int threads_per_cu = 0, warp = 0, cu_count = 0;
  if ((err = hipDeviceGetAttribute(&threads_per_cu, hipDeviceAttributeMaxThreadsPerMultiProcessor,
                                   device)) != hipSuccess ||
      (err = hipDeviceGetAttribute(&warp, hipDeviceAttributeWarpSize, device)) != hipSuccess ||
      (err = hipDeviceGetAttribute(&cu_count, hipDeviceAttributeMultiprocessorCount, device)) !=
          hipSuccess) {
    return err;
  }
  hipFuncAttributes attr;
  if ((err = hipFuncGetAttributes(&attr, weft_detail::entry_address(func))) != hipSuccess) {
    return err;
  }
  int limit = block_size_limit;
  if (limit == 0 || limit > attr.maxThreadsPerBlock) limit = attr.maxThreadsPerBlock;
  if (warp <= 0) warp = 1;
  const int top = ((limit + warp - 1) / warp) * warp;
  int best_threads = 0, best_block = 0, best_blocks_per_cu = 0;
  for (int candidate = top; candidate > 0; candidate -= warp) {
    const int block = candidate < limit ? candidate : limit;
    int blocks_per_cu = 0;
    err = hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks_per_cu, weft_detail::entry_address(func), block,
        static_cast<size_t>(smem_for_block(block)), flags);
    if (err != hipSuccess) return err;
    if (block * blocks_per_cu > best_threads) {
      best_threads = block * blocks_per_cu;
      best_block = block;
      best_blocks_per_cu = blocks_per_cu;
    }
    if (best_threads == threads_per_cu) break; /* cannot do better */
  }
  *min_grid_size = best_blocks_per_cu * cu_count;
  *block_size = best_block;
  return hipSuccess;
}
template <typename UnaryFunction, class F>
static inline hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size,
                                                                       int* block_size, F func,
                                                                       UnaryFunction smem_for_block,
                                                                       int block_size_limit = 0) {
  return hipOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid_size, block_size, func,
                                                                smem_for_block, block_size_limit);
}

/* Launches taking the kernel itself. */
template <class F>
inline hipError_t hipLaunchCooperativeKernel(F f, dim3 gridDim, dim3 blockDim, void** kernelParams,
                                             unsigned int sharedMemBytes, hipStream_t stream) {
  return ::hipLaunchCooperativeKernel(weft_detail::entry_address(f), gridDim, blockDim,
                                      kernelParams, sharedMemBytes, stream);
}
template <class T>
inline hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams* launchParamsList,
                                                        unsigned int numDevices,
                                                        unsigned int flags = 0) {
  return ::hipLaunchCooperativeKernelMultiDevice(launchParamsList, static_cast<int>(numDevices),
                                                 flags);
}
template <class T>
inline hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams* launchParamsList,
                                                     unsigned int numDevices,
                                                     unsigned int flags = 0) {
  return ::hipExtLaunchMultiKernelMultiDevice(launchParamsList, static_cast<int>(numDevices),
                                              flags);
}

/* hipLaunchKernelEx(config, kernel, args...): converts each argument to the kernel's parameter
 * type, then launches through hipLaunchKernelExC with an array of argument addresses. */
template <typename... KernelArgs, typename... Params>
static inline hipError_t hipLaunchKernelEx(const hipLaunchConfig_t* config,
                                           void (*kernel)(KernelArgs...), Params&&... args) {
  return [&](KernelArgs... converted) {
    void* argv[] = {static_cast<void*>(&converted)..., nullptr};
    return ::hipLaunchKernelExC(config, reinterpret_cast<const void*>(kernel), argv);
  }(std::forward<Params>(args)...);
}

/* Stream-ordered allocation from an explicit pool, and typed variants. */
static inline hipError_t hipMallocAsync(void** dev_ptr, size_t size, hipMemPool_t mem_pool,
                                        hipStream_t stream) {
  return hipMallocFromPoolAsync(dev_ptr, size, mem_pool, stream);
}
template <class T>
static inline hipError_t hipMallocAsync(T** dev_ptr, size_t size, hipMemPool_t mem_pool,
                                        hipStream_t stream) {
  return hipMallocFromPoolAsync(reinterpret_cast<void**>(dev_ptr), size, mem_pool, stream);
}
template <class T>
static inline hipError_t hipMallocAsync(T** dev_ptr, size_t size, hipStream_t stream) {
  return hipMallocAsync(reinterpret_cast<void**>(dev_ptr), size, stream);
}
template <class T>
static inline hipError_t hipMallocFromPoolAsync(T** dev_ptr, size_t size, hipMemPool_t mem_pool,
                                                hipStream_t stream) {
  return hipMallocFromPoolAsync(reinterpret_cast<void**>(dev_ptr), size, mem_pool, stream);
}

/* Legacy texture references bound through texture<> objects (deprecated). */
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t hipBindTexture(size_t* offset, const struct texture<T, dim, readMode>& tex,
                                        const void* devPtr, size_t size = UINT_MAX) {
  return hipBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t
    hipBindTexture(size_t* offset, const struct texture<T, dim, readMode>& tex, const void* devPtr,
                   const struct hipChannelFormatDesc& desc, size_t size = UINT_MAX) {
  return hipBindTexture(offset, &tex, devPtr, &desc, size);
}
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t
    hipBindTexture2D(size_t* offset, const struct texture<T, dim, readMode>& tex,
                     const void* devPtr, size_t width, size_t height, size_t pitch) {
  return hipBindTexture2D(offset, &tex, devPtr, &tex.channelDesc, width, height, pitch);
}
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t
    hipBindTexture2D(size_t* offset, const struct texture<T, dim, readMode>& tex,
                     const void* devPtr, const struct hipChannelFormatDesc& desc, size_t width,
                     size_t height, size_t pitch) {
  return hipBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t
    hipBindTextureToArray(const struct texture<T, dim, readMode>& tex, hipArray_const_t array) {
  struct hipChannelFormatDesc desc;
  hipError_t err = hipGetChannelDesc(&desc, array);
  return err == hipSuccess ? hipBindTextureToArray(&tex, array, &desc) : err;
}
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t
    hipBindTextureToArray(const struct texture<T, dim, readMode>& tex, hipArray_const_t array,
                          const struct hipChannelFormatDesc& desc) {
  return hipBindTextureToArray(&tex, array, &desc);
}
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t hipBindTextureToMipmappedArray(const struct texture<T, dim, readMode>& tex,
                                                        hipMipmappedArray_const_t mipmappedArray) {
  hipArray_t level0 = nullptr;
  hipError_t err = hipGetMipmappedArrayLevel(&level0, mipmappedArray, 0);
  if (err != hipSuccess) return err;
  struct hipChannelFormatDesc desc;
  err = hipGetChannelDesc(&desc, level0);
  return err == hipSuccess ? hipBindTextureToMipmappedArray(&tex, mipmappedArray, &desc) : err;
}
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t hipBindTextureToMipmappedArray(const struct texture<T, dim, readMode>& tex,
                                                        hipMipmappedArray_const_t mipmappedArray,
                                                        const struct hipChannelFormatDesc& desc) {
  return hipBindTextureToMipmappedArray(&tex, mipmappedArray, &desc);
}
template <class T, int dim, enum hipTextureReadMode readMode>
HIP_DEPRECATED(HIP_DEPRECATED_MSG)
static inline hipError_t hipUnbindTexture(const struct texture<T, dim, readMode>& tex) {
  return hipUnbindTexture(&tex);
}

/* Typed allocation helpers: no (void**) casts at call sites. Define __HIP_DISABLE_CPP_FUNCTIONS__
 * to leave them out (for code that takes decltype() of the C entry points). */
#if !defined(__HIP_DISABLE_CPP_FUNCTIONS__)
template <class T>
static inline hipError_t hipMalloc(T** devPtr, size_t size) {
  return hipMalloc(reinterpret_cast<void**>(devPtr), size);
}
template <class T>
static inline hipError_t hipMallocPitch(T** devPtr, size_t* pitch, size_t width, size_t height) {
  return hipMallocPitch(reinterpret_cast<void**>(devPtr), pitch, width, height);
}
template <class T>
static inline hipError_t hipHostMalloc(T** ptr, size_t size,
                                       unsigned int flags = hipHostMallocDefault) {
  return hipHostMalloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
static inline hipError_t hipHostAlloc(T** ptr, size_t size,
                                      unsigned int flags = hipHostAllocDefault) {
  return hipHostAlloc(reinterpret_cast<void**>(ptr), size, flags);
}
template <class T>
static inline hipError_t hipMallocManaged(T** devPtr, size_t size,
                                          unsigned int flags = hipMemAttachGlobal) {
  return hipMallocManaged(reinterpret_cast<void**>(devPtr), size, flags);
}
#endif /* !__HIP_DISABLE_CPP_FUNCTIONS__ */

#endif /* __cplusplus */

/* Per-thread default stream for the whole translation unit: the plain names become the _spt
 * entry points. Applied last so the declarations above keep their real names. */
#if defined(HIP_API_PER_THREAD_DEFAULT_STREAM)
#define __HIP_STREAM_PER_THREAD
#define hipMemcpy hipMemcpy_spt
#define hipMemcpyToSymbol hipMemcpyToSymbol_spt
#define hipMemcpyFromSymbol hipMemcpyFromSymbol_spt
#define hipMemcpy2D hipMemcpy2D_spt
#define hipMemcpy2DFromArray hipMemcpy2DFromArray_spt
#define hipMemcpy3D hipMemcpy3D_spt
#define hipMemset hipMemset_spt
#define hipMemset2D hipMemset2D_spt
#define hipMemset3D hipMemset3D_spt
#define hipMemcpyAsync hipMemcpyAsync_spt
#define hipMemset3DAsync hipMemset3DAsync_spt
#define hipMemset2DAsync hipMemset2DAsync_spt
#define hipMemsetAsync hipMemsetAsync_spt
#define hipMemcpy3DAsync hipMemcpy3DAsync_spt
#define hipMemcpy2DAsync hipMemcpy2DAsync_spt
#define hipMemcpyFromSymbolAsync hipMemcpyFromSymbolAsync_spt
#define hipMemcpyToSymbolAsync hipMemcpyToSymbolAsync_spt
#define hipMemcpyFromArray hipMemcpyFromArray_spt
#define hipMemcpy2DToArray hipMemcpy2DToArray_spt
#define hipMemcpy2DFromArrayAsync hipMemcpy2DFromArrayAsync_spt
#define hipMemcpy2DToArrayAsync hipMemcpy2DToArrayAsync_spt
#define hipStreamSynchronize hipStreamSynchronize_spt
#define hipStreamQuery hipStreamQuery_spt
#define hipStreamGetFlags hipStreamGetFlags_spt
#define hipStreamGetPriority hipStreamGetPriority_spt
#define hipStreamWaitEvent hipStreamWaitEvent_spt
#define hipStreamAddCallback hipStreamAddCallback_spt
#define hipLaunchHostFunc hipLaunchHostFunc_spt
#define hipEventRecord hipEventRecord_spt
#define hipLaunchKernel hipLaunchKernel_spt
#define hipLaunchCooperativeKernel hipLaunchCooperativeKernel_spt
#define hipGraphLaunch hipGraphLaunch_spt
#define hipStreamBeginCapture hipStreamBeginCapture_spt
#define hipStreamEndCapture hipStreamEndCapture_spt
#define hipStreamIsCapturing hipStreamIsCapturing_spt
#define hipStreamGetCaptureInfo hipStreamGetCaptureInfo_spt
#define hipStreamGetCaptureInfo_v2 hipStreamGetCaptureInfo_v2_spt
#define hipGetDriverEntryPoint hipGetDriverEntryPoint_spt
#define hipGetProcAddress hipGetProcAddress_spt
#endif /* HIP_API_PER_THREAD_DEFAULT_STREAM */

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

/* The pre-6.0 device-properties layout and its entry points. */
#include <hip/hip_deprecated.h>

#endif /* HIP_INCLUDE_HIP_HIP_RUNTIME_API_H */
