// SPDX-License-Identifier: MIT
// Conformance: hipGetErrorName/hipGetErrorString for every documented code, and the HIP 7.0
// last-error semantics of hipGetLastError, hipPeekAtLastError and hipExtGetLastError (CUDA
// semantics: only failures are recorded, hipGetLastError clears, state is per host thread).
#include "hip_test.hpp"

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

struct NamedError {
  hipError_t code;
  const char* name;
};

// Every primary (non-alias) hipError_t value of HIP 6.x/7.x.
#define WEFT_ERR(e) \
  NamedError { e, #e }
const NamedError kErrors[] = {
    WEFT_ERR(hipSuccess),
    WEFT_ERR(hipErrorInvalidValue),
    WEFT_ERR(hipErrorOutOfMemory),
    WEFT_ERR(hipErrorNotInitialized),
    WEFT_ERR(hipErrorDeinitialized),
    WEFT_ERR(hipErrorProfilerDisabled),
    WEFT_ERR(hipErrorProfilerNotInitialized),
    WEFT_ERR(hipErrorProfilerAlreadyStarted),
    WEFT_ERR(hipErrorProfilerAlreadyStopped),
    WEFT_ERR(hipErrorInvalidConfiguration),
    WEFT_ERR(hipErrorInvalidPitchValue),
    WEFT_ERR(hipErrorInvalidSymbol),
    WEFT_ERR(hipErrorInvalidDevicePointer),
    WEFT_ERR(hipErrorInvalidMemcpyDirection),
    WEFT_ERR(hipErrorInsufficientDriver),
    WEFT_ERR(hipErrorMissingConfiguration),
    WEFT_ERR(hipErrorPriorLaunchFailure),
    WEFT_ERR(hipErrorInvalidDeviceFunction),
    WEFT_ERR(hipErrorNoDevice),
    WEFT_ERR(hipErrorInvalidDevice),
    WEFT_ERR(hipErrorInvalidImage),
    WEFT_ERR(hipErrorInvalidContext),
    WEFT_ERR(hipErrorContextAlreadyCurrent),
    WEFT_ERR(hipErrorMapFailed),
    WEFT_ERR(hipErrorUnmapFailed),
    WEFT_ERR(hipErrorArrayIsMapped),
    WEFT_ERR(hipErrorAlreadyMapped),
    WEFT_ERR(hipErrorNoBinaryForGpu),
    WEFT_ERR(hipErrorAlreadyAcquired),
    WEFT_ERR(hipErrorNotMapped),
    WEFT_ERR(hipErrorNotMappedAsArray),
    WEFT_ERR(hipErrorNotMappedAsPointer),
    WEFT_ERR(hipErrorECCNotCorrectable),
    WEFT_ERR(hipErrorUnsupportedLimit),
    WEFT_ERR(hipErrorContextAlreadyInUse),
    WEFT_ERR(hipErrorPeerAccessUnsupported),
    WEFT_ERR(hipErrorInvalidKernelFile),
    WEFT_ERR(hipErrorInvalidGraphicsContext),
    WEFT_ERR(hipErrorInvalidSource),
    WEFT_ERR(hipErrorFileNotFound),
    WEFT_ERR(hipErrorSharedObjectSymbolNotFound),
    WEFT_ERR(hipErrorSharedObjectInitFailed),
    WEFT_ERR(hipErrorOperatingSystem),
    WEFT_ERR(hipErrorInvalidHandle),
    WEFT_ERR(hipErrorIllegalState),
    WEFT_ERR(hipErrorNotFound),
    WEFT_ERR(hipErrorNotReady),
    WEFT_ERR(hipErrorIllegalAddress),
    WEFT_ERR(hipErrorLaunchOutOfResources),
    WEFT_ERR(hipErrorLaunchTimeOut),
    WEFT_ERR(hipErrorPeerAccessAlreadyEnabled),
    WEFT_ERR(hipErrorPeerAccessNotEnabled),
    WEFT_ERR(hipErrorSetOnActiveProcess),
    WEFT_ERR(hipErrorContextIsDestroyed),
    WEFT_ERR(hipErrorAssert),
    WEFT_ERR(hipErrorHostMemoryAlreadyRegistered),
    WEFT_ERR(hipErrorHostMemoryNotRegistered),
    WEFT_ERR(hipErrorLaunchFailure),
    WEFT_ERR(hipErrorCooperativeLaunchTooLarge),
    WEFT_ERR(hipErrorNotSupported),
    WEFT_ERR(hipErrorStreamCaptureUnsupported),
    WEFT_ERR(hipErrorStreamCaptureInvalidated),
    WEFT_ERR(hipErrorStreamCaptureMerge),
    WEFT_ERR(hipErrorStreamCaptureUnmatched),
    WEFT_ERR(hipErrorStreamCaptureUnjoined),
    WEFT_ERR(hipErrorStreamCaptureIsolation),
    WEFT_ERR(hipErrorStreamCaptureImplicit),
    WEFT_ERR(hipErrorCapturedEvent),
    WEFT_ERR(hipErrorStreamCaptureWrongThread),
    WEFT_ERR(hipErrorGraphExecUpdateFailure),
    WEFT_ERR(hipErrorInvalidChannelDescriptor),
    WEFT_ERR(hipErrorInvalidTexture),
    WEFT_ERR(hipErrorUnknown),
    WEFT_ERR(hipErrorRuntimeMemory),
    WEFT_ERR(hipErrorRuntimeOther),
    WEFT_ERR(hipErrorTbd),
};
#undef WEFT_ERR

// A call that fails with hipErrorInvalidValue and has no other effect.
hipError_t fail_invalid_value() { return hipMalloc(nullptr, 16); }
// A call that fails with hipErrorInvalidDevice.
hipError_t fail_invalid_device() { return hipSetDevice(-1); }
// A call that succeeds.
hipError_t succeed() {
  int count = 0;
  return hipGetDeviceCount(&count);
}

}  // namespace

TEST_CASE("Unit_hipGetErrorName_Positive_EveryCode") {
  std::set<std::string> names;
  for (const auto& [code, name] : kErrors) {
    INFO(name << " (" << static_cast<int>(code) << ")");
    const char* got = hipGetErrorName(code);
    REQUIRE(got != nullptr);
    // AMD's runtime returns the enumerator's spelling.
    CHECK(std::string(got) == name);
    CHECK(names.insert(got).second);  // distinct codes have distinct names
  }
}

TEST_CASE("Unit_hipGetErrorName_Positive_Aliases") {
  // Aliases share a value, so they share the primary name.
  REQUIRE(std::string(hipGetErrorName(hipErrorMemoryAllocation)) == "hipErrorOutOfMemory");
  REQUIRE(std::string(hipGetErrorName(hipErrorInvalidResourceHandle)) == "hipErrorInvalidHandle");
  REQUIRE(std::string(hipGetErrorName(hipErrorInitializationError)) == "hipErrorNotInitialized");
}

TEST_CASE("Unit_hipGetErrorName_Negative_UnknownCode") {
  for (int raw : {-1, 10, 11, 1055, 5000, 0x7FFFFFFF}) {
    INFO("code " << raw);
    const char* got = hipGetErrorName(static_cast<hipError_t>(raw));
    REQUIRE(got != nullptr);
    REQUIRE(std::strlen(got) > 0);
  }
}

TEST_CASE("Unit_hipGetErrorString_Positive_EveryCode") {
  for (const auto& [code, name] : kErrors) {
    INFO(name << " (" << static_cast<int>(code) << ")");
    const char* got = hipGetErrorString(code);
    REQUIRE(got != nullptr);
    CHECK(std::strlen(got) > 0);
  }
  // HIP 6+ uses CUDA's descriptions.
  CHECK(std::string(hipGetErrorString(hipSuccess)) == "no error");
  CHECK(std::string(hipGetErrorString(hipErrorInvalidValue)) == "invalid argument");
}

TEST_CASE("Unit_hipGetErrorString_Negative_UnknownCode") {
  for (int raw : {-1, 10, 1055, 0x7FFFFFFF}) {
    const char* got = hipGetErrorString(static_cast<hipError_t>(raw));
    REQUIRE(got != nullptr);
  }
}

TEST_CASE("Unit_hipGetLastError_Positive_Basic") {
  HIP_CHECK(hipGetLastError());
  HIP_CHECK_ERROR(fail_invalid_value(), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipGetLastError(), hipErrorInvalidValue);
  HIP_CHECK(hipGetLastError());  // cleared
}

TEST_CASE("Unit_hipGetLastError_Positive_SuccessDoesNotOverwrite") {
  HIP_CHECK(hipGetLastError());
  HIP_CHECK_ERROR(fail_invalid_value(), hipErrorInvalidValue);
  HIP_CHECK(succeed());
  HIP_CHECK(succeed());
  HIP_CHECK_ERROR(hipGetLastError(), hipErrorInvalidValue);
  HIP_CHECK(hipGetLastError());
}

TEST_CASE("Unit_hipGetLastError_Positive_LatestFailureWins") {
  HIP_CHECK(hipGetLastError());
  HIP_CHECK_ERROR(fail_invalid_value(), hipErrorInvalidValue);
  HIP_CHECK_ERROR(fail_invalid_device(), hipErrorInvalidDevice);
  HIP_CHECK(succeed());
  HIP_CHECK_ERROR(hipGetLastError(), hipErrorInvalidDevice);
  HIP_CHECK(hipGetLastError());
}

TEST_CASE("Unit_hipPeekAtLastError_Positive_DoesNotClear") {
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipPeekAtLastError());
  HIP_CHECK_ERROR(fail_invalid_device(), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipPeekAtLastError(), hipErrorInvalidDevice);
  HIP_CHECK(succeed());
  HIP_CHECK_ERROR(hipPeekAtLastError(), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipGetLastError(), hipErrorInvalidDevice);
  HIP_CHECK(hipPeekAtLastError());
}

TEST_CASE("Unit_hipGetLastError_Positive_NotReadyIsNotAnError") {
  // HIP 7.0: hipErrorNotReady does not update the last error.
  if (!hip_test::kernels_supported()) return;
  hip_test::Stream s;
  hip_test::Gate gate;
  gate.launch(s.get());
  HIP_CHECK(hipGetLastError());
  HIP_CHECK_ERROR(hipStreamQuery(s.get()), hipErrorNotReady);
  HIP_CHECK(hipPeekAtLastError());
  HIP_CHECK(hipGetLastError());
  gate.open();
  HIP_CHECK(hipStreamSynchronize(s.get()));
}

TEST_CASE("Unit_hipExtGetLastError_Positive_LastCall") {
  // hipExtGetLastError keeps the pre-7.0 meaning: the result of the most recent call.
  HIP_CHECK_ERROR(fail_invalid_value(), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipExtGetLastError(), hipErrorInvalidValue);

  HIP_CHECK_ERROR(fail_invalid_device(), hipErrorInvalidDevice);
  HIP_CHECK(succeed());
  HIP_CHECK(hipExtGetLastError());  // the success overwrote it
  // ... while hipGetLastError still reports the failure.
  HIP_CHECK_ERROR(hipGetLastError(), hipErrorInvalidDevice);
}

TEST_CASE("Unit_hipGetLastError_Positive_PerThread") {
  // The last error belongs to the host thread that made the failing call.
  HIP_CHECK(hipGetLastError());
  hipError_t worker_fail = hipSuccess, worker_last = hipSuccess, worker_last_again = hipSuccess;
  hipError_t other_last = hipErrorUnknown, other_peek = hipErrorUnknown;

  std::thread worker([&] {
    worker_fail = fail_invalid_value();
    worker_last = hipPeekAtLastError();
    // While this thread holds an error, another thread sees none.
    std::thread other([&] {
      other_peek = hipPeekAtLastError();
      other_last = hipGetLastError();
    });
    other.join();
    worker_last_again = hipGetLastError();
  });
  worker.join();

  HIP_CHECK_ERROR(worker_fail, hipErrorInvalidValue);
  HIP_CHECK_ERROR(worker_last, hipErrorInvalidValue);
  HIP_CHECK(other_peek);
  HIP_CHECK(other_last);
  HIP_CHECK_ERROR(worker_last_again, hipErrorInvalidValue);
  // And the main thread saw nothing.
  HIP_CHECK(hipPeekAtLastError());
  HIP_CHECK(hipGetLastError());

  // The reverse: an error on the main thread is invisible to a new thread.
  HIP_CHECK_ERROR(fail_invalid_device(), hipErrorInvalidDevice);
  hipError_t fresh = hipErrorUnknown;
  std::thread fresh_thread([&] { fresh = hipGetLastError(); });
  fresh_thread.join();
  HIP_CHECK(fresh);
  HIP_CHECK_ERROR(hipGetLastError(), hipErrorInvalidDevice);
}
