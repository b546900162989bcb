// SPDX-License-Identifier: MIT
// Conformance: per-device configuration: limits, cache config, device flags and the stream
// priority range.
#include "hip_test.hpp"

TEST_CASE("Unit_hipDeviceGetLimit_Positive_Basic") {
  size_t stack = 0, heap = 0;
  HIP_CHECK(hipDeviceGetLimit(&stack, hipLimitStackSize));
  HIP_CHECK(hipDeviceGetLimit(&heap, hipLimitMallocHeapSize));
  REQUIRE(stack > 0);
  REQUIRE(heap > 0);
}

TEST_CASE("Unit_hipDeviceSetLimit_Positive_StackSize") {
  size_t old_value = 0;
  HIP_CHECK(hipDeviceGetLimit(&old_value, hipLimitStackSize));
  // CUDA semantics: the runtime may round the value up, never down.
  const size_t wanted = old_value + 1024;
  HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, wanted));
  size_t new_value = 0;
  HIP_CHECK(hipDeviceGetLimit(&new_value, hipLimitStackSize));
  REQUIRE(new_value >= wanted);
  HIP_CHECK(hipDeviceSetLimit(hipLimitStackSize, old_value));
}

TEST_CASE("Unit_hipDeviceSetLimit_Positive_MallocHeapSize") {
  size_t old_value = 0;
  HIP_CHECK(hipDeviceGetLimit(&old_value, hipLimitMallocHeapSize));
  const size_t wanted = old_value + (1u << 20);
  HIP_CHECK(hipDeviceSetLimit(hipLimitMallocHeapSize, wanted));
  size_t new_value = 0;
  HIP_CHECK(hipDeviceGetLimit(&new_value, hipLimitMallocHeapSize));
  REQUIRE(new_value >= wanted);
}

TEST_CASE("Unit_hipDeviceSetLimit_Positive_PrintfFifoSize") {
  // AMD's runtime answers hipErrorUnsupportedLimit for the printf FIFO (its printf does not
  // use one); CUDA supports it. Accept either, but if Get works, Set/Get must round-trip.
  size_t old_value = 0;
  const hipError_t rc = hipDeviceGetLimit(&old_value, hipLimitPrintfFifoSize);
  if (rc == hipErrorUnsupportedLimit) {
    HIP_CHECK_ERROR(hipDeviceSetLimit(hipLimitPrintfFifoSize, 1 << 20), hipErrorUnsupportedLimit);
    hip_test::skip("hipLimitPrintfFifoSize is unsupported on this device (allowed by HIP)");
    return;
  }
  HIP_CHECK(rc);
  const size_t wanted = old_value + (1u << 20);
  HIP_CHECK(hipDeviceSetLimit(hipLimitPrintfFifoSize, wanted));
  size_t new_value = 0;
  HIP_CHECK(hipDeviceGetLimit(&new_value, hipLimitPrintfFifoSize));
  REQUIRE(new_value >= wanted);
}

TEST_CASE("Unit_hipDeviceGetLimit_Negative_Parameters") {
  size_t value = 0;
  HIP_CHECK_ERROR(hipDeviceGetLimit(nullptr, hipLimitStackSize), hipErrorInvalidValue);
  // hip-tests and CUDA: a limit the runtime does not know is hipErrorUnsupportedLimit.
  HIP_CHECK_ERROR(hipDeviceGetLimit(&value, static_cast<hipLimit_t>(-1)), hipErrorUnsupportedLimit);
}

TEST_CASE("Unit_hipDeviceSetLimit_Negative_Parameters") {
  HIP_CHECK_ERROR(hipDeviceSetLimit(static_cast<hipLimit_t>(-1), 1024), hipErrorUnsupportedLimit);
}

TEST_CASE("Unit_hipDeviceGetCacheConfig_Positive_Basic") {
  hipFuncCache_t config = static_cast<hipFuncCache_t>(-1);
  HIP_CHECK(hipDeviceGetCacheConfig(&config));
  REQUIRE((config == hipFuncCachePreferNone || config == hipFuncCachePreferShared ||
           config == hipFuncCachePreferL1 || config == hipFuncCachePreferEqual));
}

TEST_CASE("Unit_hipDeviceSetCacheConfig_Positive_EveryValue") {
  // The cache configuration is a hint; every documented value is accepted.
  for (hipFuncCache_t c : {hipFuncCachePreferNone, hipFuncCachePreferShared, hipFuncCachePreferL1,
                           hipFuncCachePreferEqual}) {
    HIP_CHECK(hipDeviceSetCacheConfig(c));
    hipFuncCache_t got = static_cast<hipFuncCache_t>(-1);
    HIP_CHECK(hipDeviceGetCacheConfig(&got));
  }
  HIP_CHECK(hipDeviceSetCacheConfig(hipFuncCachePreferNone));
}

TEST_CASE("Unit_hipDeviceGetCacheConfig_Negative_Null") {
  HIP_CHECK_ERROR(hipDeviceGetCacheConfig(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDeviceSetCacheConfig_Negative_BadValue") {
  HIP_CHECK_ERROR(hipDeviceSetCacheConfig(static_cast<hipFuncCache_t>(-1)), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDeviceSetCacheConfig(static_cast<hipFuncCache_t>(17)), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipSetDeviceFlags_Positive_ScheduleFlags") {
  for (unsigned flags : {hipDeviceScheduleSpin, hipDeviceScheduleYield,
                         hipDeviceScheduleBlockingSync, hipDeviceScheduleAuto}) {
    INFO("flags " << flags);
    HIP_CHECK(hipSetDeviceFlags(flags));
    unsigned got = 0xFFFFFFFFu;
    HIP_CHECK(hipGetDeviceFlags(&got));
    REQUIRE((got & hipDeviceScheduleMask) == flags);
  }
}

TEST_CASE("Unit_hipSetDeviceFlags_Positive_MapHostAndLmem") {
  HIP_CHECK(hipSetDeviceFlags(hipDeviceMapHost));
  HIP_CHECK(hipSetDeviceFlags(hipDeviceScheduleBlockingSync | hipDeviceMapHost));
  HIP_CHECK(hipSetDeviceFlags(hipDeviceLmemResizeToMax));
  unsigned got = 0;
  HIP_CHECK(hipGetDeviceFlags(&got));
  HIP_CHECK(hipSetDeviceFlags(hipDeviceScheduleAuto));
}

TEST_CASE("Unit_hipSetDeviceFlags_Negative_BadFlags") {
  // Unknown bits.
  HIP_CHECK_ERROR(hipSetDeviceFlags(0xFFFFFFFFu), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipSetDeviceFlags(0x100u), hipErrorInvalidValue);
  // At most one scheduling policy.
  HIP_CHECK_ERROR(hipSetDeviceFlags(hipDeviceScheduleSpin | hipDeviceScheduleYield),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipSetDeviceFlags(hipDeviceScheduleSpin | hipDeviceScheduleBlockingSync),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipGetDeviceFlags_Negative_Null") {
  HIP_CHECK_ERROR(hipGetDeviceFlags(nullptr), hipErrorInvalidValue);
}

TEST_CASE("Unit_hipDeviceGetStreamPriorityRange_Positive_Basic") {
  int least = 12345, greatest = 12345;
  HIP_CHECK(hipDeviceGetStreamPriorityRange(&least, &greatest));
  // Lower numbers are higher priorities: greatest <= least (CUDA: 0 and -N).
  REQUIRE(greatest <= least);
  REQUIRE(least != 12345);
  REQUIRE(greatest != 12345);
  // The default priority 0 lies in the range.
  REQUIRE(greatest <= 0);
  REQUIRE(0 <= least);
}

TEST_CASE("Unit_hipDeviceGetStreamPriorityRange_Positive_NullArguments") {
  // Either pointer may be NULL (CUDA and HIP document both as optional outputs).
  int least = 12345, greatest = 12345;
  HIP_CHECK(hipDeviceGetStreamPriorityRange(nullptr, nullptr));
  HIP_CHECK(hipDeviceGetStreamPriorityRange(&least, nullptr));
  HIP_CHECK(hipDeviceGetStreamPriorityRange(nullptr, &greatest));
  REQUIRE(greatest <= least);
}
