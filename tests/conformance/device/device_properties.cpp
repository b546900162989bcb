// SPDX-License-Identifier: MIT
// Conformance: hipGetDeviceProperties (R0600 and R0000 layouts), hipDeviceGetAttribute,
// hipDeviceTotalMem, hipDeviceComputeCapability and hipMemGetInfo.
#include "hip_test.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

int device_count() {
  int count = 0;
  HIP_CHECK(hipGetDeviceCount(&count));
  return count;
}

int attribute(hipDeviceAttribute_t attr) {
  int value = INT_MIN;
  HIP_CHECK(hipDeviceGetAttribute(&value, attr, hip_test::device()));
  return value;
}

int clamp_to_int(size_t v) { return static_cast<int>(std::min<size_t>(v, INT_MAX)); }

}  // namespace

TEST_CASE("Unit_hipGetDeviceProperties_Positive_Basic") {
  const int count = device_count();
  for (int d = 0; d < count; ++d) {
    hipDeviceProp_t p{};
    HIP_CHECK(hipGetDeviceProperties(&p, d));
    INFO("device " << d << " '" << p.name << "'");
    REQUIRE(std::strlen(p.name) > 0);
    REQUIRE(std::strlen(p.name) < sizeof(p.name));
    REQUIRE(p.warpSize > 0);
    REQUIRE(p.maxThreadsPerBlock > 0);
    REQUIRE(p.totalGlobalMem > 0);
    REQUIRE(p.multiProcessorCount > 0);
    REQUIRE(p.sharedMemPerBlock > 0);
    for (int i = 0; i < 3; ++i) {
      REQUIRE(p.maxThreadsDim[i] > 0);
      REQUIRE(p.maxGridSize[i] > 0);
    }
    REQUIRE(p.maxThreadsDim[0] <= p.maxThreadsPerBlock);
    REQUIRE(p.maxThreadsPerMultiProcessor >= p.maxThreadsPerBlock);
  }
}

TEST_CASE("Unit_hipGetDeviceProperties_Negative_Parameters") {
  hipDeviceProp_t p{};
  HIP_CHECK_ERROR(hipGetDeviceProperties(nullptr, hip_test::device()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetDeviceProperties(&p, -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipGetDeviceProperties(&p, device_count()), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipGetDevicePropertiesR0000_Positive_AgreesWithR0600") {
  static_assert(sizeof(hipDeviceProp_tR0000) == 792, "R0000 layout is 792 bytes");
  static_assert(sizeof(hipDeviceProp_t) == 1472, "R0600 layout is 1472 bytes");
  hipDeviceProp_tR0000 old{};
  hipDeviceProp_t cur{};
  HIP_CHECK(hipGetDevicePropertiesR0000(&old, hip_test::device()));
  HIP_CHECK(hipGetDeviceProperties(&cur, hip_test::device()));

  REQUIRE(std::string(old.name) == std::string(cur.name));
  REQUIRE(std::strlen(old.name) > 0);
  REQUIRE(old.totalGlobalMem == cur.totalGlobalMem);
  REQUIRE(old.sharedMemPerBlock == cur.sharedMemPerBlock);
  REQUIRE(old.regsPerBlock == cur.regsPerBlock);
  REQUIRE(old.warpSize == cur.warpSize);
  REQUIRE(old.maxThreadsPerBlock == cur.maxThreadsPerBlock);
  for (int i = 0; i < 3; ++i) {
    REQUIRE(old.maxThreadsDim[i] == cur.maxThreadsDim[i]);
    REQUIRE(old.maxGridSize[i] == cur.maxGridSize[i]);
  }
  REQUIRE(old.clockRate == cur.clockRate);
  REQUIRE(old.memoryClockRate == cur.memoryClockRate);
  REQUIRE(old.memoryBusWidth == cur.memoryBusWidth);
  REQUIRE(old.totalConstMem == cur.totalConstMem);
  REQUIRE(old.major == cur.major);
  REQUIRE(old.minor == cur.minor);
  REQUIRE(old.multiProcessorCount == cur.multiProcessorCount);
  REQUIRE(old.l2CacheSize == cur.l2CacheSize);
  REQUIRE(old.maxThreadsPerMultiProcessor == cur.maxThreadsPerMultiProcessor);
  REQUIRE(old.computeMode == cur.computeMode);
  REQUIRE(old.concurrentKernels == cur.concurrentKernels);
  REQUIRE(old.pciDomainID == cur.pciDomainID);
  REQUIRE(old.pciBusID == cur.pciBusID);
  REQUIRE(old.pciDeviceID == cur.pciDeviceID);
  REQUIRE(old.isMultiGpuBoard == cur.isMultiGpuBoard);
  REQUIRE(old.canMapHostMemory == cur.canMapHostMemory);
  REQUIRE(std::string(old.gcnArchName) == std::string(cur.gcnArchName));
  REQUIRE(old.integrated == cur.integrated);
  REQUIRE(old.cooperativeLaunch == cur.cooperativeLaunch);
  REQUIRE(old.memPitch == cur.memPitch);
  REQUIRE(old.textureAlignment == cur.textureAlignment);
  REQUIRE(old.ECCEnabled == cur.ECCEnabled);
  REQUIRE(old.managedMemory == cur.managedMemory);
  REQUIRE(old.concurrentManagedAccess == cur.concurrentManagedAccess);
  REQUIRE(old.pageableMemoryAccess == cur.pageableMemoryAccess);
  REQUIRE(old.maxSharedMemoryPerMultiProcessor == cur.maxSharedMemoryPerMultiProcessor);
}

TEST_CASE("Unit_hipGetDevicePropertiesR0000_Negative_Parameters") {
  hipDeviceProp_tR0000 p{};
  HIP_CHECK_ERROR(hipGetDevicePropertiesR0000(nullptr, hip_test::device()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetDevicePropertiesR0000(&p, -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipGetDevicePropertiesR0000(&p, device_count()), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipDeviceGetAttribute_Positive_AgreesWithProperties") {
  const hipDeviceProp_t& p = hip_test::props();
  CHECK(attribute(hipDeviceAttributeWarpSize) == p.warpSize);
  CHECK(attribute(hipDeviceAttributeMaxThreadsPerBlock) == p.maxThreadsPerBlock);
  CHECK(attribute(hipDeviceAttributeMultiprocessorCount) == p.multiProcessorCount);
  CHECK(attribute(hipDeviceAttributeComputeCapabilityMajor) == p.major);
  CHECK(attribute(hipDeviceAttributeComputeCapabilityMinor) == p.minor);
  CHECK(attribute(hipDeviceAttributeMaxBlockDimX) == p.maxThreadsDim[0]);
  CHECK(attribute(hipDeviceAttributeMaxBlockDimY) == p.maxThreadsDim[1]);
  CHECK(attribute(hipDeviceAttributeMaxBlockDimZ) == p.maxThreadsDim[2]);
  CHECK(attribute(hipDeviceAttributeMaxGridDimX) == p.maxGridSize[0]);
  CHECK(attribute(hipDeviceAttributeMaxGridDimY) == p.maxGridSize[1]);
  CHECK(attribute(hipDeviceAttributeMaxGridDimZ) == p.maxGridSize[2]);
  CHECK(attribute(hipDeviceAttributeMaxSharedMemoryPerBlock) == clamp_to_int(p.sharedMemPerBlock));
  CHECK(attribute(hipDeviceAttributeMaxRegistersPerBlock) == p.regsPerBlock);
  CHECK(attribute(hipDeviceAttributeClockRate) == p.clockRate);
  CHECK(attribute(hipDeviceAttributeMemoryClockRate) == p.memoryClockRate);
  CHECK(attribute(hipDeviceAttributeMemoryBusWidth) == p.memoryBusWidth);
  CHECK(attribute(hipDeviceAttributeL2CacheSize) == p.l2CacheSize);
  CHECK(attribute(hipDeviceAttributeMaxThreadsPerMultiProcessor) == p.maxThreadsPerMultiProcessor);
  CHECK(attribute(hipDeviceAttributeComputeMode) == p.computeMode);
  CHECK(attribute(hipDeviceAttributeConcurrentKernels) == p.concurrentKernels);
  CHECK(attribute(hipDeviceAttributePciBusId) == p.pciBusID);
  CHECK(attribute(hipDeviceAttributePciDeviceId) == p.pciDeviceID);
  CHECK(attribute(hipDeviceAttributePciDomainID) == p.pciDomainID);
  CHECK(attribute(hipDeviceAttributeIntegrated) == p.integrated);
  CHECK(attribute(hipDeviceAttributeIsMultiGpuBoard) == p.isMultiGpuBoard);
  CHECK(attribute(hipDeviceAttributeCanMapHostMemory) == p.canMapHostMemory);
  CHECK(attribute(hipDeviceAttributeManagedMemory) == p.managedMemory);
  CHECK(attribute(hipDeviceAttributeConcurrentManagedAccess) == p.concurrentManagedAccess);
  CHECK(attribute(hipDeviceAttributePageableMemoryAccess) == p.pageableMemoryAccess);
  CHECK(attribute(hipDeviceAttributeEccEnabled) == p.ECCEnabled);
  CHECK(attribute(hipDeviceAttributeCooperativeLaunch) == p.cooperativeLaunch);
  CHECK(attribute(hipDeviceAttributeCooperativeMultiDeviceLaunch) ==
        p.cooperativeMultiDeviceLaunch);
  CHECK(attribute(hipDeviceAttributeAsyncEngineCount) == p.asyncEngineCount);
  CHECK(attribute(hipDeviceAttributeUnifiedAddressing) == p.unifiedAddressing);
  CHECK(attribute(hipDeviceAttributeHostNativeAtomicSupported) == p.hostNativeAtomicSupported);
  CHECK(attribute(hipDeviceAttributeDirectManagedMemAccessFromHost) ==
        p.directManagedMemAccessFromHost);
  CHECK(attribute(hipDeviceAttributeStreamPrioritiesSupported) == p.streamPrioritiesSupported);
  CHECK(attribute(hipDeviceAttributeSharedMemPerMultiprocessor) ==
        clamp_to_int(p.sharedMemPerMultiprocessor));
  CHECK(attribute(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor) ==
        clamp_to_int(p.maxSharedMemoryPerMultiProcessor));
  CHECK(attribute(hipDeviceAttributeTextureAlignment) == clamp_to_int(p.textureAlignment));
  CHECK(attribute(hipDeviceAttributeMaxPitch) == clamp_to_int(p.memPitch));
  CHECK(attribute(hipDeviceAttributeTotalConstantMemory) == clamp_to_int(p.totalConstMem));
  CHECK(attribute(hipDeviceAttributeIsLargeBar) == p.isLargeBar);
  CHECK(attribute(hipDeviceAttributeAsicRevision) == p.asicRevision);
  // totalGlobalMem does not fit an int on most devices: AMD's runtime saturates the
  // attribute at INT_MAX (clr: std::min(prop.totalGlobalMem, INT32_MAX)).
  CHECK(attribute(hipDeviceAttributeTotalGlobalMem) == clamp_to_int(p.totalGlobalMem));
}

namespace {

struct NamedAttribute {
  hipDeviceAttribute_t attr;
  const char* name;
};
#define WEFT_ATTR(a) \
  NamedAttribute { a, #a }

// Attributes AMD's runtime answers: every HIP implementation must.
const NamedAttribute kCoreAttributes[] = {
    WEFT_ATTR(hipDeviceAttributeEccEnabled),
    WEFT_ATTR(hipDeviceAttributeAccessPolicyMaxWindowSize),
    WEFT_ATTR(hipDeviceAttributeAsyncEngineCount),
    WEFT_ATTR(hipDeviceAttributeCanMapHostMemory),
    WEFT_ATTR(hipDeviceAttributeCanUseHostPointerForRegisteredMem),
    WEFT_ATTR(hipDeviceAttributeClockRate),
    WEFT_ATTR(hipDeviceAttributeComputeMode),
    WEFT_ATTR(hipDeviceAttributeComputePreemptionSupported),
    WEFT_ATTR(hipDeviceAttributeConcurrentKernels),
    WEFT_ATTR(hipDeviceAttributeConcurrentManagedAccess),
    WEFT_ATTR(hipDeviceAttributeCooperativeLaunch),
    WEFT_ATTR(hipDeviceAttributeCooperativeMultiDeviceLaunch),
    WEFT_ATTR(hipDeviceAttributeDeviceOverlap),
    WEFT_ATTR(hipDeviceAttributeDirectManagedMemAccessFromHost),
    WEFT_ATTR(hipDeviceAttributeGlobalL1CacheSupported),
    WEFT_ATTR(hipDeviceAttributeHostNativeAtomicSupported),
    WEFT_ATTR(hipDeviceAttributeIntegrated),
    WEFT_ATTR(hipDeviceAttributeIsMultiGpuBoard),
    WEFT_ATTR(hipDeviceAttributeKernelExecTimeout),
    WEFT_ATTR(hipDeviceAttributeL2CacheSize),
    WEFT_ATTR(hipDeviceAttributeLocalL1CacheSupported),
    WEFT_ATTR(hipDeviceAttributeLuidDeviceNodeMask),
    WEFT_ATTR(hipDeviceAttributeComputeCapabilityMajor),
    WEFT_ATTR(hipDeviceAttributeManagedMemory),
    WEFT_ATTR(hipDeviceAttributeMaxBlocksPerMultiProcessor),
    WEFT_ATTR(hipDeviceAttributeMaxBlockDimX),
    WEFT_ATTR(hipDeviceAttributeMaxBlockDimY),
    WEFT_ATTR(hipDeviceAttributeMaxBlockDimZ),
    WEFT_ATTR(hipDeviceAttributeMaxGridDimX),
    WEFT_ATTR(hipDeviceAttributeMaxGridDimY),
    WEFT_ATTR(hipDeviceAttributeMaxGridDimZ),
    WEFT_ATTR(hipDeviceAttributeMaxSurface1D),
    WEFT_ATTR(hipDeviceAttributeMaxTexture1DWidth),
    WEFT_ATTR(hipDeviceAttributeMaxTexture1DLinear),
    WEFT_ATTR(hipDeviceAttributeMaxTexture1DMipmap),
    WEFT_ATTR(hipDeviceAttributeMaxTexture2DWidth),
    WEFT_ATTR(hipDeviceAttributeMaxTexture2DHeight),
    WEFT_ATTR(hipDeviceAttributeMaxTexture3DWidth),
    WEFT_ATTR(hipDeviceAttributeMaxTexture3DHeight),
    WEFT_ATTR(hipDeviceAttributeMaxTexture3DDepth),
    WEFT_ATTR(hipDeviceAttributeMaxTextureCubemap),
    WEFT_ATTR(hipDeviceAttributeMaxThreadsPerBlock),
    WEFT_ATTR(hipDeviceAttributeMaxThreadsPerMultiProcessor),
    WEFT_ATTR(hipDeviceAttributeMaxPitch),
    WEFT_ATTR(hipDeviceAttributeMemoryBusWidth),
    WEFT_ATTR(hipDeviceAttributeMemoryClockRate),
    WEFT_ATTR(hipDeviceAttributeComputeCapabilityMinor),
    WEFT_ATTR(hipDeviceAttributeMultiGpuBoardGroupID),
    WEFT_ATTR(hipDeviceAttributeMultiprocessorCount),
    WEFT_ATTR(hipDeviceAttributePageableMemoryAccess),
    WEFT_ATTR(hipDeviceAttributePageableMemoryAccessUsesHostPageTables),
    WEFT_ATTR(hipDeviceAttributePciBusId),
    WEFT_ATTR(hipDeviceAttributePciDeviceId),
    WEFT_ATTR(hipDeviceAttributePciDomainID),
    WEFT_ATTR(hipDeviceAttributePersistingL2CacheMaxSize),
    WEFT_ATTR(hipDeviceAttributeMaxRegistersPerBlock),
    WEFT_ATTR(hipDeviceAttributeMaxRegistersPerMultiprocessor),
    WEFT_ATTR(hipDeviceAttributeReservedSharedMemPerBlock),
    WEFT_ATTR(hipDeviceAttributeMaxSharedMemoryPerBlock),
    WEFT_ATTR(hipDeviceAttributeSharedMemPerBlockOptin),
    WEFT_ATTR(hipDeviceAttributeSharedMemPerMultiprocessor),
    WEFT_ATTR(hipDeviceAttributeStreamPrioritiesSupported),
    WEFT_ATTR(hipDeviceAttributeSurfaceAlignment),
    WEFT_ATTR(hipDeviceAttributeTextureAlignment),
    WEFT_ATTR(hipDeviceAttributeTexturePitchAlignment),
    WEFT_ATTR(hipDeviceAttributeTotalConstantMemory),
    WEFT_ATTR(hipDeviceAttributeTotalGlobalMem),
    WEFT_ATTR(hipDeviceAttributeUnifiedAddressing),
    WEFT_ATTR(hipDeviceAttributeWarpSize),
    WEFT_ATTR(hipDeviceAttributeMemoryPoolsSupported),
    WEFT_ATTR(hipDeviceAttributeVirtualMemoryManagementSupported),
    WEFT_ATTR(hipDeviceAttributeHostRegisterSupported),
    WEFT_ATTR(hipDeviceAttributeMemoryPoolSupportedHandleTypes),
    WEFT_ATTR(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor),
    // These two write a pointer (8 bytes) through the int* (AMD quirk).
    WEFT_ATTR(hipDeviceAttributeHdpMemFlushCntl),
    WEFT_ATTR(hipDeviceAttributeHdpRegFlushCntl),
    WEFT_ATTR(hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc),
    WEFT_ATTR(hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim),
    WEFT_ATTR(hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim),
    WEFT_ATTR(hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem),
    WEFT_ATTR(hipDeviceAttributeIsLargeBar),
    WEFT_ATTR(hipDeviceAttributeAsicRevision),
    WEFT_ATTR(hipDeviceAttributeCanUseStreamWaitValue),
    WEFT_ATTR(hipDeviceAttributeImageSupport),
    WEFT_ATTR(hipDeviceAttributePhysicalMultiProcessorCount),
    WEFT_ATTR(hipDeviceAttributeFineGrainSupport),
    WEFT_ATTR(hipDeviceAttributeWallClockRate),
};

// Named attributes that AMD's runtime itself does not (always) answer: hipSuccess or
// hipErrorInvalidValue are both conformant, but a success must write a value.
const NamedAttribute kOptionalAttributes[] = {
    WEFT_ATTR(hipDeviceAttributeClockInstructionRate),
    WEFT_ATTR(hipDeviceAttributeMaxSurface1DLayered),
    WEFT_ATTR(hipDeviceAttributeMaxSurface2D),
    WEFT_ATTR(hipDeviceAttributeMaxSurface2DLayered),
    WEFT_ATTR(hipDeviceAttributeMaxSurface3D),
    WEFT_ATTR(hipDeviceAttributeMaxSurfaceCubemap),
    WEFT_ATTR(hipDeviceAttributeMaxSurfaceCubemapLayered),
    WEFT_ATTR(hipDeviceAttributeMaxTexture1DLayered),
    WEFT_ATTR(hipDeviceAttributeMaxTexture2DGather),
    WEFT_ATTR(hipDeviceAttributeMaxTexture2DLayered),
    WEFT_ATTR(hipDeviceAttributeMaxTexture2DLinear),
    WEFT_ATTR(hipDeviceAttributeMaxTexture2DMipmap),
    WEFT_ATTR(hipDeviceAttributeMaxTexture3DAlt),
    WEFT_ATTR(hipDeviceAttributeMaxTextureCubemapLayered),
    WEFT_ATTR(hipDeviceAttributeMaxThreadsDim),
    WEFT_ATTR(hipDeviceAttributeSingleToDoublePrecisionPerfRatio),
    WEFT_ATTR(hipDeviceAttributeTccDriver),
    WEFT_ATTR(hipDeviceAttributeHostNumaId),
    WEFT_ATTR(hipDeviceAttributeNumberOfXccs),
    WEFT_ATTR(hipDeviceAttributeMaxAvailableVgprsPerThread),
    WEFT_ATTR(hipDeviceAttributePciChipId),
};
#undef WEFT_ATTR

constexpr long long kUnwritten = 0x5A5A5A5A5A5A5A5ALL;

}  // namespace

TEST_CASE("Unit_hipDeviceGetAttribute_Positive_EveryAttribute") {
  for (const auto& [attr, name] : kCoreAttributes) {
    long long storage = kUnwritten;  // 8 bytes: room for the two pointer-valued attributes
    const hipError_t rc =
        hipDeviceGetAttribute(reinterpret_cast<int*>(&storage), attr, hip_test::device());
    INFO(name << " (" << static_cast<int>(attr) << ")");
    CHECK(rc == hipSuccess);
    if (rc == hipSuccess) CHECK(storage != kUnwritten);
  }
}

TEST_CASE("Unit_hipDeviceGetAttribute_Positive_OptionalAttributes") {
  std::string unsupported;
  for (const auto& [attr, name] : kOptionalAttributes) {
    long long storage = kUnwritten;
    const hipError_t rc =
        hipDeviceGetAttribute(reinterpret_cast<int*>(&storage), attr, hip_test::device());
    INFO(name << " (" << static_cast<int>(attr) << ")");
    CHECK((rc == hipSuccess || rc == hipErrorInvalidValue));
    if (rc == hipSuccess) CHECK(storage != kUnwritten);
    if (rc == hipErrorInvalidValue) unsupported += std::string(" ") + name;
  }
  int rate = 0;
  if (hipDeviceGetAttribute(&rate, hipDeviceAttributeClockInstructionRate, hip_test::device()) ==
      hipSuccess) {
    CHECK(rate == hip_test::props().clockInstructionRate);
  }
  if (!unsupported.empty()) WARN("attributes answered with hipErrorInvalidValue:" << unsupported);
}

TEST_CASE("Unit_hipDeviceGetAttribute_Negative_Parameters") {
  int value = 0;
  HIP_CHECK_ERROR(hipDeviceGetAttribute(nullptr, hipDeviceAttributeWarpSize, hip_test::device()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, -1),
                  hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, device_count()),
                  hipErrorInvalidDevice);
  // Values outside every attribute range.
  HIP_CHECK_ERROR(
      hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(-1), hip_test::device()),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(9000), hip_test::device()),
      hipErrorInvalidValue);
  HIP_CHECK_ERROR(
      hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(19999), hip_test::device()),
      hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDeviceTotalMem_Positive_MatchesProperties") {
  size_t total = 0;
  HIP_CHECK(hipDeviceTotalMem(&total, hip_test::device()));
  REQUIRE(total > 0);
  REQUIRE(total == hip_test::props().totalGlobalMem);
}

TEST_CASE("Unit_hipDeviceTotalMem_Negative_Parameters") {
  size_t total = 0;
  HIP_CHECK_ERROR(hipDeviceTotalMem(nullptr, hip_test::device()), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceTotalMem(&total, -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceTotalMem(&total, device_count()), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipDeviceComputeCapability_Positive_MatchesProperties") {
  int major = -1, minor = -1;
  HIP_CHECK(hipDeviceComputeCapability(&major, &minor, hip_test::device()));
  REQUIRE(major == hip_test::props().major);
  REQUIRE(minor == hip_test::props().minor);
}

TEST_CASE("Unit_hipDeviceComputeCapability_Negative_Parameters") {
  int major = 0, minor = 0;
  HIP_CHECK_ERROR(hipDeviceComputeCapability(nullptr, &minor, hip_test::device()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceComputeCapability(&major, nullptr, hip_test::device()),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceComputeCapability(&major, &minor, -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDeviceComputeCapability(&major, &minor, device_count()),
                  hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipMemGetInfo_Positive_Basic") {
  size_t free_bytes = 0, total = 0;
  HIP_CHECK(hipMemGetInfo(&free_bytes, &total));
  REQUIRE(total > 0);
  REQUIRE(free_bytes <= total);
  REQUIRE(total == hip_test::props().totalGlobalMem);
}
