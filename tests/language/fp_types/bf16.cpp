// SPDX-License-Identifier: MIT
// hip_bf16.h and hip_bfloat16.h: every bfloat16 pattern, float rounding against the
// independent reference, arithmetic against exact results, and a bf16 dot product kernel.
#include "hip_test.hpp"

#include <hip/hip_bf16.h>
#include <hip/hip_bfloat16.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "reference.hpp"

#include <sstream>

namespace {

const fp_ref::Table& bf16_table() {
  static const fp_ref::Table table(7, 127, 0x7f7f);
  return table;
}

unsigned short ref_bf16(double x, fp_ref::Mode mode = fp_ref::Mode::nearest_even) {
  const unsigned short sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isinf(x)) return sign | 0x7f80;
  return static_cast<unsigned short>(sign | bf16_table().round(x, mode));
}

double bf16_value(unsigned short b) {
  const double magnitude =
      (b & 0x7f80) == 0x7f80 ? ((b & 0x7f) ? NAN : INFINITY) : bf16_table().decode(b & 0x7fff);
  return (b & 0x8000) ? -magnitude : magnitude;
}

float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

TEST_CASE("every bfloat16 pattern widens exactly and rounds back to itself", "[bf16]") {
  for (unsigned b = 0; b <= 0xffff; ++b) {
    const auto bits = static_cast<unsigned short>(b);
    const double v = bf16_value(bits);
    const float f = __bfloat162float(__ushort_as_bfloat16(bits));
    const auto fp_context = [&] {
      std::ostringstream s;
      s << "bf16 bits 0x" << std::hex << b;
      return s.str();
    };
    if (std::isnan(v)) FP_CHECK(std::isnan(f));
    else FP_CHECK(double(f) == v);
    FP_CHECK(__bfloat16_as_ushort(__float2bfloat16(f)) == bits);
    hip_bfloat16 old;
    old.data = bits;
    FP_CHECK((float(old) == f || std::isnan(v)));
    FP_CHECK(hip_bfloat16::round_to_bfloat16(f).data == bits);
    FP_CHECK(hip_bfloat16(f, hip_bfloat16::truncate).data == bits);
    FP_CHECK(std::isnan(old) == std::isnan(v));
    FP_CHECK(std::isinf(old) == std::isinf(v));
  }
}

TEST_CASE("float to bfloat16 rounds correctly; hip_bfloat16 rounds or truncates", "[bf16]") {
  using fp_ref::Mode;
  for (uint64_t u = 0; u <= 0xffffffffull; u += 4091) {
    const float f = float_of(uint32_t(u)), tie = float_of((uint32_t(u) & 0xffff0000u) | 0x8000u);
    for (float x : {f, tie}) {
      const uint32_t xu = [&] {
        uint32_t r;
        std::memcpy(&r, &x, 4);
        return r;
      }();
      const auto fp_context = [&] {
        std::ostringstream s;
        s << "float bits 0x" << std::hex << xu;
        return s.str();
      };
      if (std::isnan(x)) {
        FP_CHECK(__hisnan(__float2bfloat16(x)));
        FP_CHECK(std::isnan(hip_bfloat16(x)));
        FP_CHECK(std::isnan(hip_bfloat16(x, hip_bfloat16::truncate)));
        continue;
      }
      FP_CHECK(__bfloat16_as_ushort(__float2bfloat16(x)) == ref_bf16(x));
      FP_CHECK(__bfloat16_as_ushort(__float2bfloat16_rz(x)) == ref_bf16(x, Mode::toward_zero));
      FP_CHECK(__bfloat16_as_ushort(__float2bfloat16_rd(x)) == ref_bf16(x, Mode::down));
      FP_CHECK(__bfloat16_as_ushort(__float2bfloat16_ru(x)) == ref_bf16(x, Mode::up));
      FP_CHECK(__bfloat16_as_ushort(__hip_bfloat16(x)) == ref_bf16(x));
      FP_CHECK(hip_bfloat16(x).data == ref_bf16(x));
      FP_CHECK(hip_bfloat16(x, hip_bfloat16::truncate).data == uint16_t(xu >> 16));
    }
  }
  // Double converts in one rounding: just above a bfloat16 midpoint must round up.
  const double just_above = 1.0 + 0x1p-8 + 0x1p-40;
  REQUIRE(__bfloat16_as_ushort(__double2bfloat16(just_above)) == 0x3f81);
  REQUIRE(__bfloat16_as_ushort(__double2bfloat16(1.0 + 0x1p-8)) == 0x3f80);  // tie to even
  // Signaling NaN whose payload is all in the dropped half stays NaN in hip_bfloat16.
  REQUIRE(std::isnan(hip_bfloat16(float_of(0x7f800001u))));
  REQUIRE(std::isnan(hip_bfloat16(float_of(0x7f800001u), hip_bfloat16::truncate)));
}

TEST_CASE("bfloat16 arithmetic equals the exact result rounded once", "[bf16]") {
  std::mt19937 rng(3);
  std::vector<unsigned short> samples = {0x0000, 0x8000, 0x0001, 0x007f, 0x0080, 0x3f80,
                                         0xbf80, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0};
  while (samples.size() < 400) {
    // Mostly exponents near 1 so that sums stay exact in double for the reference.
    const unsigned r = rng();
    samples.push_back(static_cast<unsigned short>((r & 0x807f) | ((0x70 + (r >> 8) % 32) << 7)));
  }
  for (unsigned short a : samples) {
    for (unsigned short b : samples) {
      const double x = bf16_value(a), y = bf16_value(b);
      const __hip_bfloat16 ha = __ushort_as_bfloat16(a), hb = __ushort_as_bfloat16(b);
      const auto fp_context = [&] {
        std::ostringstream s;
        s << "a 0x" << std::hex << a << " b 0x" << b;
        return s.str();
      };
      auto check = [&](__hip_bfloat16 got, double exact) {
        if (std::isnan(exact)) FP_CHECK(__hisnan(got));
        else FP_CHECK(__bfloat16_as_ushort(got) == ref_bf16(exact));
      };
      const bool ordinary = std::isfinite(x) && std::isfinite(y) && x != 0 && y != 0;
      const bool sum_exact = !ordinary || std::abs(std::ilogb(x) - std::ilogb(y)) < 40;
      if (sum_exact) {
        check(__hadd(ha, hb), x + y);
        check(ha - hb, x - y);
      }
      check(__hmul(ha, hb), x * y);  // 8-bit significands: exact in double
      check(ha / hb, x / y);
      check(__hfma(ha, hb, __float2bfloat16(1.0f)), std::fma(x, y, 1.0));
      check(__float2bfloat16(float(hip_bfloat16(float(x)) * hip_bfloat16(float(y)))), x * y);
      FP_CHECK(__heq(ha, hb) == (x == y));
      FP_CHECK(__hltu(ha, hb) == !(x >= y));
      FP_CHECK((ha >= hb) == (x >= y));
      FP_CHECK(__hbgt2(__halves2bfloat162(ha, hb), __halves2bfloat162(hb, ha)) == false);
    }
  }
  __hip_bfloat16 v = 2.5f;
  v += __float2bfloat16(1.0f);
  ++v;
  REQUIRE(float(v) == 4.5f);
  REQUIRE(__hisinf(HIPRT_INF_BF16));
  REQUIRE(__hisnan(HIPRT_NAN_BF16));
  REQUIRE(float(hsqrt(__float2bfloat16(16.0f))) == 4.0f);
  const __hip_bfloat162 p = __floats2bfloat162_rn(1.0f, -3.0f);
  REQUIRE(__high2float(__habs2(p)) == 3.0f);
  REQUIRE(__bfloat1622float2(__lowhigh2highlow(p)).x == -3.0f);
  REQUIRE(__hbeq2(p + p, __hmul2(p, __float2bfloat162_rn(2.0f))));
  hip_bfloat16 old(1.5f);
  old *= hip_bfloat16(2.0f);
  REQUIRE(float(old) == 3.0f);
  REQUIRE(float(-old) == -3.0f);
}

namespace {

// Each thread multiplies one pair of bfloat16 pairs into float and atomically adds it.
__global__ void bf16_dot(int n, const __hip_bfloat162* a, const __hip_bfloat162* b, float* sum) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const __hip_bfloat162 product = __hmul2(a[i], b[i]);
  atomicAdd(sum, __low2float(product) + __high2float(product));
}

__global__ void bf16_atomic_count(__hip_bfloat162* counter) {
  atomicAdd(counter, __floats2bfloat162_rn(1.0f, -2.0f));
}

}  // namespace

TEST_CASE("a bfloat16 dot product runs on the CPU agent", "[bf16][kernel]") {
  if (!hip_test::kernels_supported()) return;
  const int n = 777;
  std::vector<__hip_bfloat162> a(n), b(n);
  double expected = 0;
  for (int i = 0; i < n; ++i) {
    a[i] = __floats2bfloat162_rn(float(i % 9) - 4.0f, 0.5f * float(i % 5));
    b[i] = __floats2bfloat162_rn(float(i % 7), -2.0f);
    // Small integers and halves: every product and partial sum is exact in float.
    expected += double(__low2float(a[i])) * __low2float(b[i]) +
                double(__high2float(a[i])) * __high2float(b[i]);
  }
  hip_test::DeviceBuffer<__hip_bfloat162> da(n), db(n);
  hip_test::DeviceBuffer<float> dsum(1);
  HIP_CHECK(hipMemcpy(da.get(), a.data(), da.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db.get(), b.data(), db.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemset(dsum.get(), 0, sizeof(float)));
  HIP_LAUNCH_CHECK(bf16_dot, dim3((n + 63) / 64), dim3(64), 0, 0, n, da.get(), db.get(),
                   dsum.get());
  float sum = 0;
  HIP_CHECK(hipMemcpy(&sum, dsum.get(), sizeof sum, hipMemcpyDeviceToHost));
  REQUIRE(double(sum) == expected);

  // 128 atomic updates; partial sums up to 256 are exact in bfloat16.
  hip_test::DeviceBuffer<__hip_bfloat162> counter(1);
  HIP_CHECK(hipMemset(counter.get(), 0, sizeof(__hip_bfloat162)));
  HIP_LAUNCH_CHECK(bf16_atomic_count, dim3(4), dim3(32), 0, 0, counter.get());
  __hip_bfloat162 c;
  HIP_CHECK(hipMemcpy(&c, counter.get(), sizeof c, hipMemcpyDeviceToHost));
  REQUIRE(__low2float(c) == 128.0f);
  REQUIRE(__high2float(c) == -256.0f);
}
