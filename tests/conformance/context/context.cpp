// SPDX-License-Identifier: MIT
// Conformance: the deprecated context API. hipCtxCreate followed by a module launch (the
// flow of HIP-CPU's hip_host_module test), the per-thread context stack, the settings a
// context shares with its device, primary contexts, and every bad argument.
#include "hip_test.hpp"
#include "test_files.hpp"

#include <numeric>
#include <thread>

// Found next to the executable when the tests run outside the build tree.
static const std::string kContextObject = hip_test::helper_file(WEFT_TEST_CONTEXT_OBJECT);

namespace {

// Runs `body` on a new thread (with an empty context stack) and returns its result.
template <typename Body>
auto on_new_thread(Body body) {
  decltype(body()) result{};
  std::thread([&] { result = body(); }).join();
  return result;
}

}  // namespace

TEST_CASE("Unit_hipCtxCreate_ModuleLaunch") {
  constexpr int kLen = 64;
  std::vector<float> a(kLen), b(kLen, 0.f);
  std::iota(a.begin(), a.end(), 0.f);
  HIP_CHECK(hipInit(0));
  hipDevice_t device{};
  HIP_CHECK(hipDeviceGet(&device, hip_test::device()));
  hipCtx_t context = nullptr;
  HIP_CHECK(hipCtxCreate(&context, 0, device));
  REQUIRE(context != nullptr);
  hipCtx_t current = nullptr;
  HIP_CHECK(hipCtxGetCurrent(&current));
  CHECK(current == context);

  hipModule_t module = nullptr;
  const hipError_t rc = hipModuleLoad(&module, kContextObject.c_str());
  if (rc == hipErrorNoBinaryForGpu) {
    HIP_CHECK(hipCtxDestroy(context));
    hip_test::skip("the device under test does not run x86_64 code objects");
    return;
  }
  REQUIRE(rc == hipSuccess);
  hipFunction_t function = nullptr;
  HIP_CHECK(hipModuleGetFunction(&function, module, "copy_floats"));
  hipDeviceptr_t ad{}, bd{};
  HIP_CHECK(hipMalloc(&ad, kLen * sizeof(float)));
  HIP_CHECK(hipMalloc(&bd, kLen * sizeof(float)));
  HIP_CHECK(hipMemcpyHtoD(ad, a.data(), kLen * sizeof(float)));
  HIP_CHECK(hipMemcpyHtoD(bd, b.data(), kLen * sizeof(float)));
  hipStream_t stream = nullptr;
  HIP_CHECK(hipStreamCreate(&stream));
  struct {
    void* a;
    void* b;
  } args{ad, bd};
  size_t size = sizeof args;
  void* config[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                    HIP_LAUNCH_PARAM_END};
  HIP_CHECK(hipModuleLaunchKernel(function, 1, 1, 1, kLen, 1, 1, 0, stream, nullptr, config));
  HIP_CHECK(hipStreamSynchronize(stream));
  HIP_CHECK(hipStreamDestroy(stream));
  HIP_CHECK(hipMemcpyDtoH(b.data(), bd, kLen * sizeof(float)));
  CHECK(a == b);
  HIP_CHECK(hipFree(ad));
  HIP_CHECK(hipFree(bd));
  HIP_CHECK(hipModuleUnload(module));
  HIP_CHECK(hipCtxDestroy(context));
}

TEST_CASE("Unit_hipCtx_StackPushPopSet") {
  const int dev = hip_test::device();
  hipCtx_t ctx = nullptr;
  HIP_CHECK(hipDevicePrimaryCtxRetain(&ctx, dev));
  // A new thread starts with an empty stack: pop fails, push/pop round-trips.
  struct Outcome {
    hipError_t empty_pop = hipSuccess, push = hipErrorUnknown, pop = hipErrorUnknown,
               second_pop = hipSuccess, set = hipErrorUnknown, get = hipErrorUnknown,
               set_null = hipErrorUnknown, device = hipErrorUnknown;
    hipCtx_t popped = nullptr, got = nullptr;
    int device_of = -1;
  };
  Outcome o = on_new_thread([&] {
    Outcome r;
    r.empty_pop = hipCtxPopCurrent(nullptr);
    r.push = hipCtxPushCurrent(ctx);
    r.pop = hipCtxPopCurrent(&r.popped);
    r.second_pop = hipCtxPopCurrent(nullptr);
    r.set = hipCtxSetCurrent(ctx);
    r.get = hipCtxGetCurrent(&r.got);
    r.device = hipCtxGetDevice(&r.device_of);
    r.set_null = hipCtxSetCurrent(nullptr);
    return r;
  });
  CHECK(o.empty_pop == hipErrorInvalidContext);
  CHECK(o.push == hipSuccess);
  CHECK(o.pop == hipSuccess);
  CHECK(o.popped == ctx);
  CHECK(o.second_pop == hipErrorInvalidContext);
  CHECK(o.set == hipSuccess);
  CHECK(o.get == hipSuccess);
  CHECK(o.got == ctx);
  CHECK(o.device == hipSuccess);
  CHECK(o.device_of == dev);
  CHECK(o.set_null == hipSuccess);
  HIP_CHECK(hipDevicePrimaryCtxRelease(dev));

  // Bad contexts and outputs.
  int not_a_context = 0;
  auto* bogus = reinterpret_cast<hipCtx_t>(&not_a_context);
  HIP_CHECK_ERROR(hipCtxPushCurrent(bogus), hipErrorInvalidContext);
  HIP_CHECK_ERROR(hipCtxPushCurrent(nullptr), hipErrorInvalidContext);
  HIP_CHECK_ERROR(hipCtxSetCurrent(bogus), hipErrorInvalidContext);
  HIP_CHECK_ERROR(hipCtxDestroy(nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCtxDestroy(bogus), hipErrorInvalidContext);
  HIP_CHECK_ERROR(hipCtxGetCurrent(nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCtxGetDevice(nullptr), hipErrorInvalidValue);
  hipCtx_t out = nullptr;
  HIP_CHECK_ERROR(hipCtxCreate(nullptr, 0, dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCtxCreate(&out, 0, 9999), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipCtxCreate(&out, 0x8000, dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCtxCreate(&out, hipDeviceScheduleSpin | hipDeviceScheduleYield, dev),
                  hipErrorInvalidValue);
}

TEST_CASE("Unit_hipCtx_SettingsAreTheDevices") {
  hipCtx_t ctx = nullptr;
  HIP_CHECK(hipCtxCreate(&ctx, hipDeviceScheduleYield, hip_test::device()));
  unsigned flags = 0;
  HIP_CHECK(hipCtxGetFlags(&flags));
  CHECK(flags == hipDeviceScheduleYield);
  unsigned device_flags = 0;
  HIP_CHECK(hipGetDeviceFlags(&device_flags));
  CHECK(device_flags == hipDeviceScheduleYield);
  HIP_CHECK_ERROR(hipCtxGetFlags(nullptr), hipErrorInvalidValue);

  unsigned version = 0;
  HIP_CHECK(hipCtxGetApiVersion(ctx, &version));
  int driver = 0;
  HIP_CHECK(hipDriverGetVersion(&driver));
  CHECK(version == static_cast<unsigned>(driver));
  HIP_CHECK_ERROR(hipCtxGetApiVersion(ctx, nullptr), hipErrorInvalidValue);
  int not_a_context = 0;
  HIP_CHECK_ERROR(hipCtxGetApiVersion(reinterpret_cast<hipCtx_t>(&not_a_context), &version),
                  hipErrorInvalidContext);

  HIP_CHECK(hipCtxSetCacheConfig(hipFuncCachePreferL1));
  hipFuncCache_t cache = hipFuncCachePreferNone;
  HIP_CHECK(hipCtxGetCacheConfig(&cache));
  CHECK(cache == hipFuncCachePreferL1);
  HIP_CHECK(hipDeviceGetCacheConfig(&cache));
  CHECK(cache == hipFuncCachePreferL1);
  HIP_CHECK(hipCtxSetCacheConfig(hipFuncCachePreferNone));
  HIP_CHECK_ERROR(hipCtxSetCacheConfig(static_cast<hipFuncCache_t>(17)), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCtxGetCacheConfig(nullptr), hipErrorInvalidValue);

  HIP_CHECK(hipCtxSetSharedMemConfig(hipSharedMemBankSizeEightByte));
  hipSharedMemConfig shared = hipSharedMemBankSizeDefault;
  HIP_CHECK(hipCtxGetSharedMemConfig(&shared));
  CHECK(shared == hipSharedMemBankSizeEightByte);
  HIP_CHECK(hipCtxSetSharedMemConfig(hipSharedMemBankSizeDefault));
  HIP_CHECK_ERROR(hipCtxSetSharedMemConfig(static_cast<hipSharedMemConfig>(3)),
                  hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipCtxGetSharedMemConfig(nullptr), hipErrorInvalidValue);

  HIP_CHECK(hipCtxSynchronize());
  // Peer access to one's own device is refused, as hipDeviceEnablePeerAccess refuses it.
  hipError_t own = hipCtxEnablePeerAccess(ctx, 0);
  hipError_t device_own = hipDeviceEnablePeerAccess(hip_test::device(), 0);
  CHECK(own == device_own);
  CHECK(own != hipSuccess);
  HIP_CHECK_ERROR(hipCtxEnablePeerAccess(nullptr, 0), hipErrorInvalidContext);
  HIP_CHECK_ERROR(hipCtxDisablePeerAccess(reinterpret_cast<hipCtx_t>(&not_a_context)),
                  hipErrorInvalidContext);
  HIP_CHECK(hipCtxDestroy(ctx));
  HIP_CHECK(hipSetDeviceFlags(0));
}

TEST_CASE("Unit_hipDevicePrimaryCtx_RetainStateFlagsReset") {
  const int dev = hip_test::device();
  unsigned flags = 99;
  int active = -1;
  HIP_CHECK(hipDevicePrimaryCtxGetState(dev, &flags, &active));
  CHECK(active == 0);
  HIP_CHECK(hipDevicePrimaryCtxSetFlags(dev, hipDeviceScheduleBlockingSync));
  HIP_CHECK(hipDevicePrimaryCtxGetState(dev, &flags, &active));
  CHECK(flags == hipDeviceScheduleBlockingSync);

  hipCtx_t primary = nullptr, again = nullptr;
  HIP_CHECK(hipDevicePrimaryCtxRetain(&primary, dev));
  HIP_CHECK(hipDevicePrimaryCtxRetain(&again, dev));
  CHECK(primary == again);
  HIP_CHECK(hipDevicePrimaryCtxGetState(dev, &flags, &active));
  CHECK(active == 1);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxSetFlags(dev, 0), hipErrorContextAlreadyInUse);
  HIP_CHECK(hipDevicePrimaryCtxRelease(dev));
  HIP_CHECK(hipDevicePrimaryCtxGetState(dev, &flags, &active));
  CHECK(active == 1);
  HIP_CHECK(hipDevicePrimaryCtxRelease(dev));
  HIP_CHECK(hipDevicePrimaryCtxGetState(dev, &flags, &active));
  CHECK(active == 0);
  HIP_CHECK(hipDevicePrimaryCtxSetFlags(dev, 0));

  // Reset frees the device's memory, as hipDeviceReset does.
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, 64));
  HIP_CHECK(hipDevicePrimaryCtxReset(dev));
  HIP_CHECK_ERROR(hipFree(p), hipErrorInvalidValue);

  HIP_CHECK_ERROR(hipDevicePrimaryCtxGetState(9999, &flags, &active), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxGetState(dev, nullptr, &active), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxGetState(dev, &flags, nullptr), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxRetain(nullptr, dev), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxRetain(&primary, -1), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxRelease(9999), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxSetFlags(9999, 0), hipErrorInvalidDevice);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxSetFlags(dev, 0x8000), hipErrorInvalidValue);
  HIP_CHECK_ERROR(hipDevicePrimaryCtxReset(9999), hipErrorInvalidDevice);
}
