// SPDX-License-Identifier: MIT
// hip_complex.h against std::complex on the host, in a kernel, and std::complex itself used
// inside kernels.
#include <hip/hip_complex.h>

#include "hip_test.hpp"

#include <cmath>
#include <complex>

namespace {

template <class C>
auto to_std(C z) {
  return std::complex<decltype(z.x)>(z.x, z.y);
}

template <class R, class C>
void require_close(C got, std::complex<R> expected) {
  const R tol = std::is_same<R, float>::value ? R(1e-5) : R(1e-13);
  const R scale = std::max(R(1), std::abs(expected));
  INFO("got (" << got.x << ", " << got.y << "), expected " << expected);
  REQUIRE(std::abs(got.x - expected.real()) <= tol * scale);
  REQUIRE(std::abs(got.y - expected.imag()) <= tol * scale);
}

const float samples[][2] = {
    {1.5f, -2.0f}, {-0.25f, 3.0f}, {4.0f, 0.5f}, {-3.0f, -1.0f}, {0.0f, 2.0f}};

}  // namespace

TEST_CASE("language_types_hip_complex_float_matches_std_complex") {
  for (const auto& p : samples)
    for (const auto& q : samples)
      for (const auto& r : samples) {
        const hipFloatComplex a = make_hipFloatComplex(p[0], p[1]);
        const hipFloatComplex b = make_hipFloatComplex(q[0], q[1]);
        const hipComplex c = make_hipComplex(r[0], r[1]);
        const std::complex<float> sa = to_std(a), sb = to_std(b), sc = to_std(c);
        REQUIRE(hipCrealf(a) == sa.real());
        REQUIRE(hipCimagf(a) == sa.imag());
        require_close(hipConjf(a), std::conj(sa));
        require_close(hipCaddf(a, b), sa + sb);
        require_close(hipCsubf(a, b), sa - sb);
        require_close(hipCmulf(a, b), sa * sb);
        require_close(hipCdivf(a, b), sa / sb);
        require_close(hipCfmaf(a, b, c), sa * sb + sc);
        REQUIRE(std::abs(hipCabsf(a) - std::abs(sa)) <= 1e-5f * std::abs(sa));
        REQUIRE(std::abs(hipCsqabsf(a) - std::norm(sa)) <= 1e-5f * std::norm(sa));
        // C++ operators: * and / are complex, + and - component-wise (both agree with complex).
        require_close(a * b, sa * sb);
        require_close(a / b, sa / sb);
        require_close(a + b, sa + sb);
        require_close(a - b, sa - sb);
        hipFloatComplex m = a;
        m *= b;
        require_close(m, sa * sb);
        m /= b;
        require_close(m, sa);
        require_close(a * 2.0f, sa * 2.0f);
      }
}

TEST_CASE("language_types_hip_complex_double_and_conversions") {
  for (const auto& p : samples)
    for (const auto& q : samples)
      for (const auto& r : samples) {
        const hipDoubleComplex a = make_hipDoubleComplex(p[0], p[1]);
        const hipDoubleComplex b = make_hipDoubleComplex(q[0], q[1]);
        const hipDoubleComplex c = make_hipDoubleComplex(r[0], r[1]);
        const std::complex<double> sa = to_std(a), sb = to_std(b), sc = to_std(c);
        REQUIRE(hipCreal(a) == sa.real());
        REQUIRE(hipCimag(a) == sa.imag());
        require_close(hipConj(a), std::conj(sa));
        require_close(hipCadd(a, b), sa + sb);
        require_close(hipCsub(a, b), sa - sb);
        require_close(hipCmul(a, b), sa * sb);
        require_close(hipCdiv(a, b), sa / sb);
        require_close(hipCfma(a, b, c), sa * sb + sc);
        REQUIRE(std::abs(hipCabs(a) - std::abs(sa)) <= 1e-13 * std::abs(sa));
        REQUIRE(std::abs(hipCsqabs(a) - std::norm(sa)) <= 1e-13 * std::norm(sa));
        require_close(a * b, sa * sb);
        require_close(a / b, sa / sb);
      }
  const hipDoubleComplex d = make_hipDoubleComplex(0.1, -7.25);
  const hipFloatComplex f = hipComplexDoubleToFloat(d);
  REQUIRE((f.x == 0.1f && f.y == -7.25f));
  const hipDoubleComplex back = hipComplexFloatToDouble(f);
  REQUIRE((back.x == static_cast<double>(0.1f) && back.y == -7.25));
}

namespace {
__global__ void complex_kernel(const hipFloatComplex* a, const hipFloatComplex* b,
                               hipFloatComplex* out) {
  unsigned i = threadIdx.x;
  out[i] = hipCfmaf(a[i], b[i], hipCdivf(a[i], b[i]));
}
__global__ void std_complex_kernel(const std::complex<double>* a, std::complex<double>* out) {
  unsigned i = threadIdx.x;
  out[i] = std::exp(a[i]) * std::conj(a[i]) + std::sqrt(a[i]) / std::abs(a[i]);
}
}  // namespace

TEST_CASE("language_types_complex_in_kernels") {
  if (!hip_test::kernels_supported()) return;
  constexpr unsigned n = 64;
  std::vector<hipFloatComplex> a(n), b(n);
  std::vector<std::complex<double>> s(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = make_hipFloatComplex(float(i) + 1.0f, 0.5f * float(i) - 3.0f);
    b[i] = make_hipFloatComplex(2.0f - float(i), float(i % 5) + 0.25f);
    s[i] = std::complex<double>(0.1 * i + 0.5, 1.0 - 0.05 * i);
  }
  hip_test::DeviceBuffer<hipFloatComplex> da(n), db(n), dout(n);
  hip_test::DeviceBuffer<std::complex<double>> ds(n), dsout(n);
  HIP_CHECK(hipMemcpy(da.get(), a.data(), da.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db.get(), b.data(), db.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(ds.get(), s.data(), ds.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(complex_kernel, dim3(1), dim3(n), 0, 0, da.get(), db.get(), dout.get());
  HIP_LAUNCH_CHECK(std_complex_kernel, dim3(1), dim3(n), 0, 0, ds.get(), dsout.get());
  std::vector<hipFloatComplex> out(n);
  std::vector<std::complex<double>> sout(n);
  HIP_CHECK(hipMemcpy(out.data(), dout.get(), dout.bytes(), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(sout.data(), dsout.get(), dsout.bytes(), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; ++i) {
    const auto sa = to_std(a[i]), sb = to_std(b[i]);
    require_close(out[i], sa * sb + sa / sb);
    const auto expected = std::exp(s[i]) * std::conj(s[i]) + std::sqrt(s[i]) / std::abs(s[i]);
    REQUIRE(std::abs(sout[i] - expected) <= 1e-12 * std::abs(expected));
  }
}
