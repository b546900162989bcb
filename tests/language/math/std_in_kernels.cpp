// SPDX-License-Identifier: MIT
// What HIP device code calls unqualified: isnan/isinf/isfinite/signbit, abs, fabs, sqrt, ...
// with float overloads (so a float stays float), the C library's extras (j0, exp10, sincos),
// min/max, and the fast intrinsics (__expf, __sinf, __fdividef, __saturatef, ...). This file
// says `using namespace std;`, as many HIP programs do; functions.cpp does not, and both
// must compile without ambiguity.
#include "math_test.hpp"

using namespace std;

namespace {

using math_test::DeviceArray;
using math_test::edge_and_random;
using math_test::grid_for;
using math_test::kBlock;
using math_test::ulp_distance;

// Unqualified calls on a float give float, as on the GPU (no silent promotion to double).
static_assert(is_same_v<decltype(sqrt(1.0f)), float>);
static_assert(is_same_v<decltype(::sin(1.0f)), float>);
static_assert(is_same_v<decltype(::abs(-1.0f)), float>);
static_assert(is_same_v<decltype(::fma(1.0f, 1.0f, 1.0f)), float>);
static_assert(is_same_v<decltype(min(1.0f, 2.0f)), float>);
static_assert(is_same_v<decltype(max(1u, 2u)), unsigned>);

constexpr int kClassified = 8;
constexpr int kValues = 16;

__global__ void classify(const float* x, const double* d, int* flags, float* fv, double* dv,
                         int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const float v = x[i];
  const double w = d[i];
  int* f = flags + kClassified * i;
  f[0] = isnan(v);
  f[1] = isinf(v);
  f[2] = isfinite(v);
  f[3] = signbit(v);
  f[4] = isnan(w);
  f[5] = isinf(w);
  f[6] = isfinite(w);
  f[7] = signbit(w);
  float* o = fv + kValues * i;
  o[0] = abs(v);
  o[1] = fabs(v);
  o[2] = sqrt(fabs(v));
  o[3] = __expf(v);
  o[4] = __logf(fabs(v));
  o[5] = __sinf(v);
  o[6] = __cosf(v);
  o[7] = __powf(fabs(v), 0.75f);
  o[8] = __fdividef(v, 3.0f);
  o[9] = __saturatef(v);
  o[10] = min(v, 0.25f);
  o[11] = max(v, 0.25f);
  o[12] = __exp10f(v);
  o[13] = __log2f(fabs(v));
  float s, c;
  __sincosf(v, &s, &c);
  o[14] = s;
  o[15] = c;
  double* p = dv + kValues * i;
  p[0] = abs(w);
  p[1] = j0(w);
  p[2] = j1(w);
  p[3] = jn(3, w);
  p[4] = exp10(w);
  p[5] = fdivide(w, 7.0);
  p[6] = min(w, 0.25);
  p[7] = max(w, 0.25);
  p[8] = powi(w, 3);
  p[9] = ldexp(w, 3);
  int e = 0;
  p[10] = frexp(w, &e) + e;
  int quo = 0;
  p[11] = remquo(w, 1.5, &quo);
  p[12] = nextafter(w, 0.0);
  p[13] = fmod(w, 1.5);
  double whole;
  p[14] = modf(w, &whole);
  p[15] = tgamma(fmin(fabs(w), 20.0));
}

// On a GPU the fast intrinsics are the hardware's approximations (the documented bounds):
// __sinf/__cosf (PTX's sin/cos.approx) on [-pi, pi] only, where CUDA documents 2^-21.41
// absolute: 2^-20.5 here (the H200 exceeded 2^-21.41 at 1.76; beyond pi its error grows with
// |x|: 3e-6 at 53, 9e-6 at 111), __expf 2 + floor(1.173|x|) ulp, __exp10f 2 + floor(2.97|x|) ulp,
// __logf 2^-21.41 absolute on [0.5, 2] and 3 ulp elsewhere, __log2f 2^-22 absolute on
// [0.5, 2] and 2 ulp elsewhere (CUDA's guide); __powf(x, 0.75) is powf here. The .ftz forms
// may flush subnormal arguments and results.
bool gpu_fast_intrinsic_ok(int k, float v, float got, float want) {
  if (std::isnan(want)) return std::isnan(got);
  if (got == want) return true;  // infinities too
  if (!std::isfinite(v) || !std::isfinite(want)) return false;
  const float a = std::fabs(v);
  if (std::fabs(want) < std::numeric_limits<float>::min() &&
      std::fabs(got) < std::numeric_limits<float>::min())
    return true;  // a subnormal result, flushed
  const float error = std::fabs(got - want);
  const int64_t ulps = ulp_distance(got, want);
  switch (k) {
    case 3: return ulps <= 2 + static_cast<int64_t>(std::floor(1.173 * a));
    case 12: return ulps <= 2 + static_cast<int64_t>(std::floor(2.97 * a));
    case 4:
    case 13:
      if (a < std::numeric_limits<float>::min() && std::isinf(got)) return true;  // flushed
      if (a >= 0.5f && a <= 2.0f) return error <= (k == 4 ? 0x1.82p-22f : 0x1p-22f);
      return ulps <= (k == 4 ? 3 : 2);
    case 7: return ulps <= 9;                                 // powf: CUDA's 9 ulp
    default: return a > 3.14159265f || error <= 0x1.6ap-21f;  // sin, cos
  }
}

TEST_CASE("isnan & co. unqualified in kernels; float overloads, fast intrinsics, C library extras",
          "[math]") {
  if (!hip_test::kernels_supported()) return;
  const std::vector<float> x = edge_and_random<float>(200, -20, 8);
  std::vector<double> d(x.begin(), x.end());
  const int n = static_cast<int>(x.size());
  DeviceArray<float> dx(x), fv(kValues * x.size());
  DeviceArray<double> dd(d), dv(kValues * x.size());
  DeviceArray<int> flags(kClassified * x.size());
  HIP_LAUNCH_CHECK(classify, grid_for(x.size()), dim3(kBlock), 0, 0, dx.get(), dd.get(),
                   flags.get(), fv.get(), dv.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  const std::vector<int> f = flags.read();
  const std::vector<float> fo = fv.read();
  const std::vector<double> dout = dv.read();
  for (int i = 0; i < n; ++i) {
    const float v = x[i];
    const double w = d[i];
    INFO("x = " << v);
    CHECK(f[kClassified * i + 0] == (v != v));
    CHECK(f[kClassified * i + 1] == (v == HUGE_VALF || v == -HUGE_VALF));
    CHECK(f[kClassified * i + 2] == (v == v && v != HUGE_VALF && v != -HUGE_VALF));
    CHECK(f[kClassified * i + 3] == (std::copysign(1.0f, v) < 0));
    for (int k = 0; k < 4; ++k) CHECK(f[kClassified * i + 4 + k] == f[kClassified * i + k]);
    const float* o = &fo[kValues * i];
    const long double lv = v;
    // Fast intrinsics are the full functions here: 1 ulp against long double (sin/cos on
    // |x| < 2^8, where the reference's own reduction is exact enough); exact for the rest.
    const float expected[kValues] = {std::fabs(v),
                                     std::fabs(v),
                                     static_cast<float>(std::sqrt(std::fabs(lv))),
                                     static_cast<float>(std::exp(lv)),
                                     static_cast<float>(std::log(std::fabs(lv))),
                                     static_cast<float>(std::sin(lv)),
                                     static_cast<float>(std::cos(lv)),
                                     static_cast<float>(std::pow(std::fabs(lv), 0.75L)),
                                     v / 3.0f,
                                     v >= 0 ? (v <= 1 ? v : 1.0f) : 0.0f,  // NaN saturates to 0
                                     std::fmin(v, 0.25f),
                                     std::fmax(v, 0.25f),
                                     static_cast<float>(std::pow(10.0L, lv)),
                                     static_cast<float>(std::log2(std::fabs(lv))),
                                     static_cast<float>(std::sin(lv)),
                                     static_cast<float>(std::cos(lv))};
    const int tolerance[kValues] = {0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1};
    const bool cpu = math_test::cpu_agent();
    for (int k = 0; k < kValues; ++k) {
      INFO("float result " << k << ": got " << o[k] << ", want " << expected[k]);
      const bool fast = tolerance[k] != 0;  // the fast intrinsics
      if (cpu || !fast) CHECK(ulp_distance(o[k], expected[k]) <= tolerance[k]);
      else CHECK(gpu_fast_intrinsic_ok(k, v, o[k], expected[k]));
    }
    const double* p = &dout[kValues * i];
    int e = 0;
    const double fr = std::frexp(w, &e);
    int quo = 0;
    double whole;
    const double dexpected[kValues] = {
        std::fabs(w),
        ::j0(w),
        ::j1(w),
        ::jn(3, w),
        std::pow(10.0, w),
        w / 7.0,
        std::fmin(w, 0.25),
        std::fmax(w, 0.25),
        static_cast<double>(std::pow(static_cast<long double>(w), 3)),
        std::ldexp(w, 3),
        fr + e,
        std::remquo(w, 1.5, &quo),
        std::nextafter(w, 0.0),
        std::fmod(w, 1.5),
        std::modf(w, &whole),
        std::tgamma(std::fmin(std::fabs(w), 20.0))};
    // exp10 and powi: 1 ulp (pow); the rest are the same C library functions or exact.
    const int dtolerance[kValues] = {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    // A GPU's j0, j1 (CUDA: 7 ulp below 8, 5e-12 absolute beyond), jn (5e-12 absolute) and
    // tgamma (10 ulp) are its own, not glibc's.
    const int gpu_dtolerance[kValues] = {0, 7, 7, 7, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 10};
    for (int k = 0; k < kValues; ++k) {
      INFO("double result " << k << ": got " << p[k] << ", want " << dexpected[k]);
      if (cpu) {
        CHECK(ulp_distance(p[k], dexpected[k]) <= dtolerance[k]);
      } else {
        const bool bessel_far = k >= 1 && k <= 3 && (k == 3 || std::fabs(w) >= 8);
        CHECK((ulp_distance(p[k], dexpected[k]) <= gpu_dtolerance[k] ||
               (bessel_far && std::fabs(p[k] - dexpected[k]) <= 5e-12)));
      }
    }
  }
}

}  // namespace
