// SPDX-License-Identifier: MIT
// HIP's math functions beyond <cmath> (sincospi, rsqrt, rcbrt, rhypot, norm*, erfinv,
// erfcinv, erfcx, normcdf, normcdfinv, cyl_bessel_i0/i1, powi, fdivide), run in kernels
// and compared with long double references computed here, or with a defining identity.
// No `using namespace std;` in this file (std_in_kernels.cpp has it).
#include "math_test.hpp"

namespace {

using math_test::DeviceArray;
using math_test::edge_and_random;
using math_test::grid_for;
using math_test::kBlock;
using math_test::ulp_distance;

enum Unary {
  kSinpi,
  kCospi,
  kSincospiSin,
  kSincospiCos,
  kRsqrt,
  kRcbrt,
  kErfinv,
  kErfcinv,
  kErfcx,
  kNormcdf,
  kNormcdfinv,
  kI0,
  kI1
};

__host__ __device__ float unary(int op, float x) {
  float s, c;
  switch (op) {
    case kSinpi: return sinpif(x);
    case kCospi: return cospif(x);
    case kSincospiSin: sincospif(x, &s, &c); return s;
    case kSincospiCos: sincospif(x, &s, &c); return c;
    case kRsqrt: return rsqrtf(x);
    case kRcbrt: return rcbrtf(x);
    case kErfinv: return erfinvf(x);
    case kErfcinv: return erfcinvf(x);
    case kErfcx: return erfcxf(x);
    case kNormcdf: return normcdff(x);
    case kNormcdfinv: return normcdfinvf(x);
    case kI0: return cyl_bessel_i0f(x);
    default: return cyl_bessel_i1f(x);
  }
}
__host__ __device__ double unary(int op, double x) {
  double s, c;
  switch (op) {
    case kSinpi: return sinpi(x);
    case kCospi: return cospi(x);
    case kSincospiSin: sincospi(x, &s, &c); return s;
    case kSincospiCos: sincospi(x, &s, &c); return c;
    case kRsqrt: return rsqrt(x);
    case kRcbrt: return rcbrt(x);
    case kErfinv: return erfinv(x);
    case kErfcinv: return erfcinv(x);
    case kErfcx: return erfcx(x);
    case kNormcdf: return normcdf(x);
    case kNormcdfinv: return normcdfinv(x);
    case kI0: return cyl_bessel_i0(x);
    default: return cyl_bessel_i1(x);
  }
}

__global__ void unary_float(int op, const float* in, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = unary(op, in[i]);
}
__global__ void unary_double(int op, const double* in, double* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) out[i] = unary(op, in[i]);
}

template <typename F>
std::vector<F> run_unary(Unary op, const std::vector<F>& x) {
  DeviceArray<F> in(x), out(x.size());
  const int n = static_cast<int>(x.size());
  if constexpr (sizeof(F) == 4)
    HIP_LAUNCH_CHECK(unary_float, grid_for(x.size()), dim3(kBlock), 0, 0, int(op), in.get(),
                     out.get(), n);
  else
    HIP_LAUNCH_CHECK(unary_double, grid_for(x.size()), dim3(kBlock), 0, 0, int(op), in.get(),
                     out.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  return out.read();
}

constexpr long double kPi = 3.141592653589793238462643383279502884L;

template <typename F>
void expect_close(const std::vector<F>& x, const std::vector<F>& got,
                  const std::vector<long double>& ref, int64_t max_ulp) {
  for (size_t i = 0; i < x.size(); ++i) {
    const F expected = static_cast<F>(ref[i]);
    INFO("x = " << static_cast<double>(x[i]) << ": got " << static_cast<double>(got[i]) << ", want "
                << static_cast<double>(expected));
    CHECK(ulp_distance(got[i], expected) <= max_ulp);
  }
}

// sin(πx), cos(πx) from x's distance d to the nearest integer n (exact), each as a sine of
// a small argument so long double's product with π stays accurate.
long double ref_sinpi(long double x) {
  if (std::isinf(x) || std::isnan(x)) return NAN;
  const long double n = std::round(x), d = x - n;
  const long double s = std::sin(kPi * d) * (std::fmod(n, 2.0L) != 0 ? -1 : 1);
  return s == 0 ? std::copysign(0.0L, x) : s;
}
long double ref_cospi(long double x) {
  if (std::isinf(x) || std::isnan(x)) return NAN;
  const long double n = std::round(x), d = x - n;
  return std::sin(kPi * (0.5L - std::fabs(d))) * (std::fmod(n, 2.0L) != 0 ? -1 : 1);
}

template <typename F>
void check_sincospi() {
  // Includes exact integers and half-integers, where the results are exact 0 and ±1.
  std::vector<F> x = edge_and_random<F>(300, -12, 6);
  for (int k = -9; k <= 9; ++k) x.push_back(F(k) / 2);
  x.push_back(F(1e30));
  std::vector<long double> s, c;
  for (F v : x) {
    s.push_back(ref_sinpi(v));
    c.push_back(ref_cospi(v));
  }
  // 1 ulp: computed from the exact reduction in a wider type.
  expect_close(x, run_unary(kSinpi, x), s, 1);
  expect_close(x, run_unary(kCospi, x), c, 1);
  expect_close(x, run_unary(kSincospiSin, x), s, 1);
  expect_close(x, run_unary(kSincospiCos, x), c, 1);
  const std::vector<F> signs = run_unary(kSinpi, std::vector<F>{F(-0.0), F(-1), F(2), F(-3)});
  CHECK(std::signbit(signs[0]));
  CHECK(std::signbit(signs[1]));  // sinpi(-n) is -0, sinpi(n) +0 (C23)
  CHECK(!std::signbit(signs[2]));
  CHECK(std::signbit(signs[3]));
  CHECK(!std::signbit(run_unary(kCospi, std::vector<F>{F(-0.5)})[0]));
}

TEST_CASE("sinpi, cospi, sincospi (float and double)", "[math]") {
  if (!hip_test::kernels_supported()) return;
  check_sincospi<float>();
  check_sincospi<double>();
}

template <typename F>
void check_roots() {
  std::vector<F> x = edge_and_random<F>(300, -140, 120);
  std::vector<long double> rs, rc;
  for (F v : x) {
    const long double lv = v;
    rs.push_back(1 / std::sqrt(lv));
    // x^(-1/3) by pow: an independent route (exponent -1/3 is inexact by 2^-65, which moves the
    // result by far less than an ulp of F).
    rc.push_back(lv == 0 ? std::copysign(INFINITY, lv)
                         : std::copysign(std::pow(std::fabs(lv), -1.0L / 3), lv));
  }
  expect_close(x, run_unary(kRsqrt, x), rs, 1);  // 1 ulp
  expect_close(x, run_unary(kRcbrt, x), rc, 1);  // 1 ulp
}

TEST_CASE("rsqrt, rcbrt (float and double)", "[math]") {
  if (!hip_test::kernels_supported()) return;
  check_roots<float>();
  check_roots<double>();
}

// y = f^-1(x) is within `ulps` of the true inverse iff x lies between f(y - ulps) and
// f(y + ulps) for a monotonic f (evaluated in long double).
template <typename F, typename Forward>
void expect_inverse(const std::vector<F>& x, const std::vector<F>& y, Forward forward, int ulps) {
  for (size_t i = 0; i < x.size(); ++i) {
    INFO("x = " << static_cast<double>(x[i]) << ", inverse " << static_cast<double>(y[i]));
    REQUIRE(std::isfinite(y[i]));
    F below = y[i], above = y[i];
    for (int k = 0; k < ulps; ++k) {
      below = std::nextafter(below, -std::numeric_limits<F>::infinity());
      above = std::nextafter(above, std::numeric_limits<F>::infinity());
    }
    const long double a = forward(static_cast<long double>(below)),
                      b = forward(static_cast<long double>(above));
    CHECK(std::fmin(a, b) <= static_cast<long double>(x[i]));
    CHECK(static_cast<long double>(x[i]) <= std::fmax(a, b));
  }
}

template <typename F>
void check_inverses() {
  using L = std::numeric_limits<F>;
  std::mt19937 gen(7);
  std::vector<F> in_open;  // (-1, 1), dense near ±1 and 0
  for (int i = 0; i < 200; ++i) {
    const F t =
        static_cast<F>(std::exp2(-std::uniform_real_distribution<double>(0, L::digits + 2)(gen)));
    for (F v : {i % 2 ? F(1) - t : -t, i % 3 ? -(F(1) - t) : t})
      if (std::fabs(v) < 1) in_open.push_back(v);  // 1 - t may round to 1
  }
  in_open.push_back(L::denorm_min());
  in_open.push_back(-L::min());
  in_open.push_back(F(0.5));
  // 2 ulp for erfinv: erf is flat near ±1, so its long double values decide within 2 steps.
  // On a GPU CUDA's bounds: erfinvf 2, erfinv 5; erfcinvf 4, erfcinv 6; normcdfinvf 5,
  // normcdfinv 8 ulp.
  const bool single = sizeof(F) == 4;
  expect_inverse(
      in_open, run_unary(kErfinv, in_open), [](long double y) { return std::erf(y); },
      math_test::agent_ulps(2, single ? 2 : 5));
  // erfcinv over (0, 2), down to the smallest subnormal; normcdfinv over (0, 1).
  std::vector<F> q = {L::denorm_min(), L::min(),           F(1e-30), F(0.25), F(1),
                      F(1.5),          F(2) - L::epsilon()};
  std::vector<F> p = {L::denorm_min(), L::min(), F(1e-20),
                      F(0.5),          F(0.75),  F(1) - L::epsilon() / 2};
  for (int i = 0; i < 200; ++i) {
    const F t = static_cast<F>(
        std::exp2(-std::uniform_real_distribution<double>(0, -L::min_exponent + 10)(gen)));
    const F qv = i % 2 ? t : F(2) - std::fmin(t, F(1)),
            pv = i % 2 ? t : F(1) - std::fmin(t, F(0.5));
    if (qv > 0 && qv < 2) q.push_back(qv);  // 2 - t may round to 2
    if (pv > 0 && pv < 1) p.push_back(pv);
  }
  expect_inverse(
      q, run_unary(kErfcinv, q), [](long double y) { return std::erfc(y); },
      math_test::agent_ulps(2, single ? 4 : 6));
  const auto phi = [](long double y) { return std::erfc(-y / std::sqrt(2.0L)) / 2; };
  expect_inverse(p, run_unary(kNormcdfinv, p), phi, math_test::agent_ulps(2, single ? 5 : 8));
  // The round trips named by HIP's documentation (subnormal results hold fewer digits).
  const std::vector<F> e = run_unary(kErfinv, in_open);
  for (size_t i = 0; i < e.size(); ++i)
    CHECK(std::erf(static_cast<long double>(e[i])) ==
          Approx(in_open[i]).epsilon(L::epsilon() * 4).margin(L::min()));

  // Edges: ±1 and 0/2 give infinities, outside the domain NaN, signed zeros stay.
  const std::vector<F> ev =
      run_unary(kErfinv, std::vector<F>{F(1), F(-1), F(1.5), L::quiet_NaN(), -F(0)});
  CHECK(ev[0] == L::infinity());
  CHECK(ev[1] == -L::infinity());
  CHECK(std::isnan(ev[2]));
  CHECK(std::isnan(ev[3]));
  CHECK((ev[4] == 0 && std::signbit(ev[4])));
  const std::vector<F> cv = run_unary(kErfcinv, std::vector<F>{F(0), F(2), F(-1), F(3)});
  CHECK(cv[0] == L::infinity());
  CHECK(cv[1] == -L::infinity());
  CHECK(std::isnan(cv[2]));
  CHECK(std::isnan(cv[3]));
  const std::vector<F> nv = run_unary(kNormcdfinv, std::vector<F>{F(0), F(1), F(2)});
  CHECK(nv[0] == -L::infinity());
  CHECK(nv[1] == L::infinity());
  CHECK(std::isnan(nv[2]));
}

TEST_CASE("erfinv, erfcinv, normcdfinv invert erf, erfc, normcdf (float and double)", "[math]") {
  if (!hip_test::kernels_supported()) return;
  check_inverses<float>();
  check_inverses<double>();
}

// exp(x²)·erfc(x) with x² split into three exactly representable parts.
long double ref_erfcx(double x) {
  const double high = static_cast<double>(static_cast<float>(x));  // 24 bits
  const long double low = static_cast<long double>(x) - high;      // exact
  const long double h = high;
  return std::exp(h * h) * std::exp(2 * h * low) * std::exp(low * low) *
         std::erfc(static_cast<long double>(x));
}

template <typename F>
void check_erfcx_normcdf() {
  std::vector<F> x = {F(0), -F(0), F(1), F(-1), F(26), F(-26), F(50), F(50.5), F(99)};
  std::mt19937 gen(3);
  for (int i = 0; i < 300; ++i)
    x.push_back(static_cast<F>(std::uniform_real_distribution<double>(-26, 100)(gen)));
  std::vector<long double> ref;
  for (F v : x) ref.push_back(ref_erfcx(v));
  // float 1 ulp, double 2 ulp; on a GPU CUDA's 4 (erfcxf, erfcx)
  expect_close(x, run_unary(kErfcx, x), ref, math_test::agent_ulps(sizeof(F) == 4 ? 1 : 2, 4));
  const std::vector<F> big =
      run_unary(kErfcx, std::vector<F>{std::numeric_limits<F>::infinity(), F(1e30), F(-30),
                                       -std::numeric_limits<F>::infinity(), F(NAN)});
  CHECK(big[0] == 0);
  CHECK(big[1] == Approx(0.5641895835477563 / 1e30).epsilon(1e-6));  // 1/(x√π)
  CHECK(std::isinf(big[2]));                                         // 2·exp(900) overflows
  CHECK(std::isinf(big[3]));
  CHECK(std::isnan(big[4]));

  std::vector<F> y = edge_and_random<F>(300, -10, 5);
  std::vector<long double> phi;
  // Φ(x) = (1 + erf(x/√2))/2 where that does not cancel, erfc(-x/√2)/2 below.
  for (F v : y) {
    const long double t = static_cast<long double>(v) / std::sqrt(2.0L);
    phi.push_back(v > 0 ? (1 + std::erf(t)) / 2 : std::erfc(-t) / 2);
  }
  expect_close(y, run_unary(kNormcdf, y), phi, math_test::agent_ulps(1, 5));  // GPU: CUDA's 5
}

TEST_CASE("erfcx, normcdf (float and double)", "[math]") {
  if (!hip_test::kernels_supported()) return;
  check_erfcx_normcdf<float>();
  check_erfcx_normcdf<double>();
}

template <typename F>
void check_bessel_i() {
  std::vector<F> x = {F(0), -F(0), F(1e-30), F(0.5), F(-2), F(10), F(-30), F(100), F(700)};
  std::mt19937 gen(5);
  for (int i = 0; i < 100; ++i)
    x.push_back(static_cast<F>(std::uniform_real_distribution<double>(-80, 80)(gen)));
  std::vector<long double> i0, i1;
  for (F v : x) {  // libstdc++'s own implementation, for |x| (I0 is even, I1 odd)
    i0.push_back(std::cyl_bessel_i(0.0L, std::fabs(static_cast<long double>(v))));
    i1.push_back(std::copysign(std::cyl_bessel_i(1.0L, std::fabs(static_cast<long double>(v))),
                               static_cast<long double>(v)));
  }
  // On a GPU CUDA's 6 ulp (cyl_bessel_i0/i1, float and double).
  if (sizeof(F) == 4) {  // 1 ulp (700 overflows float: inf on both sides)
    expect_close(x, run_unary(kI0, x), i0, math_test::agent_ulps(1, 6));
    expect_close(x, run_unary(kI1, x), i1, math_test::agent_ulps(1, 6));
  } else {  // 4 ulp: the reference's own error at large x
    expect_close(x, run_unary(kI0, x), i0, math_test::agent_ulps(4, 6));
    expect_close(x, run_unary(kI1, x), i1, math_test::agent_ulps(4, 6));
  }
  const std::vector<F> e =
      run_unary(kI0, std::vector<F>{std::numeric_limits<F>::infinity(), F(NAN), F(1000)});
  CHECK(std::isinf(e[0]));
  CHECK(std::isnan(e[1]));
  CHECK(std::isinf(e[2]));
}

TEST_CASE("cyl_bessel_i0, cyl_bessel_i1 (float and double)", "[math]") {
  if (!hip_test::kernels_supported()) return;
  check_bessel_i<float>();
  check_bessel_i<double>();
}

// ---- functions of several arguments ----

__global__ void lengths_float(const float* a, float* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const float* v = a + 4 * i;
  float* o = out + 8 * i;
  o[0] = norm3df(v[0], v[1], v[2]);
  o[1] = norm4df(v[0], v[1], v[2], v[3]);
  o[2] = rnorm3df(v[0], v[1], v[2]);
  o[3] = rnorm4df(v[0], v[1], v[2], v[3]);
  o[4] = normf(4, v);
  o[5] = rnormf(4, v);
  o[6] = rhypotf(v[0], v[1]);
  o[7] = fdividef(v[0], v[1]);
}
__global__ void lengths_double(const double* a, double* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const double* v = a + 4 * i;
  double* o = out + 8 * i;
  o[0] = norm3d(v[0], v[1], v[2]);
  o[1] = norm4d(v[0], v[1], v[2], v[3]);
  o[2] = rnorm3d(v[0], v[1], v[2]);
  o[3] = rnorm4d(v[0], v[1], v[2], v[3]);
  o[4] = norm(4, v);
  o[5] = rnorm(4, v);
  o[6] = rhypot(v[0], v[1]);
  o[7] = fdivide(v[0], v[1]);
}

template <typename F>
void check_lengths() {
  using L = std::numeric_limits<F>;
  // Rows of 4: extremes that overflow or underflow a naive sum of squares, and infinities
  // next to NaN (an infinite component makes the length +inf).
  std::vector<F> rows = {F(3),
                         F(4),
                         F(12),
                         F(84),
                         L::max(),
                         L::max(),
                         F(1),
                         F(0),
                         L::denorm_min(),
                         L::denorm_min(),
                         F(0),
                         L::denorm_min(),
                         F(0),
                         -F(0),
                         F(0),
                         F(0),
                         L::infinity(),
                         L::quiet_NaN(),
                         F(1),
                         F(1),
                         F(-1),
                         F(-2),
                         F(-3),
                         F(-4)};
  std::mt19937 gen(9);
  std::uniform_real_distribution<double> e(-60, 60);
  for (int i = 0; i < 4 * 100; ++i)
    rows.push_back(static_cast<F>((gen() & 1 ? 1 : -1) * std::exp2(e(gen))));
  const int n = static_cast<int>(rows.size() / 4);
  DeviceArray<F> in(rows), out(8 * rows.size() / 4);
  if constexpr (sizeof(F) == 4)
    HIP_LAUNCH_CHECK(lengths_float, grid_for(n), dim3(kBlock), 0, 0, in.get(), out.get(), n);
  else HIP_LAUNCH_CHECK(lengths_double, grid_for(n), dim3(kBlock), 0, 0, in.get(), out.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  const std::vector<F> got = out.read();
  for (int i = 0; i < n; ++i) {
    const F* v = &rows[4 * i];
    const long double a = v[0], b = v[1], c = v[2], d = v[3];
    const bool inf3 = std::isinf(a) || std::isinf(b) || std::isinf(c), inf4 = inf3 || std::isinf(d);
    const long double n3 = inf3 ? INFINITY : std::sqrt(a * a + b * b + c * c);
    const long double n4 = inf4 ? INFINITY : std::sqrt(a * a + b * b + c * c + d * d);
    const long double h = std::isinf(a) || std::isinf(b) ? INFINITY : std::sqrt(a * a + b * b);
    const long double want[8] = {n3, n4, 1 / n3, 1 / n4, n4, 1 / n4, 1 / h, a / b};
    for (int k = 0; k < 8; ++k) {
      INFO("row " << i << " (" << double(v[0]) << ", " << double(v[1]) << ", " << double(v[2])
                  << ", " << double(v[3]) << ") result " << k << ": got "
                  << double(got[8 * i + k]));
      // 1 ulp; division exact; on a GPU rnorm3d and rhypot are the vendor's (CUDA: 2 ulp).
      CHECK(ulp_distance(got[8 * i + k], static_cast<F>(want[k])) <=
            (k == 7 ? 0 : math_test::agent_ulps(1, k == 2 || k == 6 ? 2 : 1)));
    }
  }
}

TEST_CASE("norm3d, norm4d, rnorm3d, rnorm4d, norm, rnorm, rhypot, fdivide (float and double)",
          "[math]") {
  if (!hip_test::kernels_supported()) return;
  check_lengths<float>();
  check_lengths<double>();
}

// Unqualified standard calls without `using namespace std;` (std_in_kernels.cpp has it):
// the float overloads, found in the global namespace.
static_assert(std::is_same_v<decltype(sqrt(1.0f)), float>);
static_assert(std::is_same_v<decltype(abs(-1.0f)), float>);

__global__ void classify_unqualified(const float* x, int* flags, float* values, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const float v = x[i];
  flags[i] = (isnan(v) ? 1 : 0) | (isinf(v) ? 2 : 0) | (isfinite(v) ? 4 : 0) | (signbit(v) ? 8 : 0);
  values[2 * i] = abs(v);
  values[2 * i + 1] = sqrt(fabs(v));
}

TEST_CASE(
    "isnan, isinf, isfinite, signbit, abs, sqrt unqualified in a kernel, no using namespace std",
    "[math]") {
  if (!hip_test::kernels_supported()) return;
  const std::vector<float> x = edge_and_random<float>(50, -130, 120);
  const int n = static_cast<int>(x.size());
  DeviceArray<float> in(x), values(2 * x.size());
  DeviceArray<int> flags(x.size());
  HIP_LAUNCH_CHECK(classify_unqualified, grid_for(x.size()), dim3(kBlock), 0, 0, in.get(),
                   flags.get(), values.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  const std::vector<int> f = flags.read();
  const std::vector<float> v = values.read();
  for (int i = 0; i < n; ++i) {
    const float e = x[i];
    INFO("x = " << e);
    const bool nan = e != e, inf = !nan && (e > std::numeric_limits<float>::max() ||
                                            e < -std::numeric_limits<float>::max());
    CHECK(f[i] == ((nan ? 1 : 0) | (inf ? 2 : 0) | (!nan && !inf ? 4 : 0) |
                   (std::copysign(1.0f, e) < 0 ? 8 : 0)));
    CHECK(ulp_distance(v[2 * i], std::fabs(e)) == 0);
    CHECK(ulp_distance(v[2 * i + 1],
                       static_cast<float>(std::sqrt(static_cast<double>(std::fabs(e))))) == 0);
  }
}

}  // namespace
