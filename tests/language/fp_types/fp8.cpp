// SPDX-License-Identifier: MIT
// hip_fp8.h: all 256 patterns of the four formats against values computed from their
// fields, float/half/bfloat16/double rounding against the independent reference with
// both saturation modes, and a quantize/dequantize kernel on the CPU agent.
#include "hip_test.hpp"

#include <hip/hip_fp8.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "reference.hpp"

#include <sstream>

namespace {

struct Format {
  const char* name;
  __hip_fp8_interpretation_t interp;
  fp_ref::Table table;
  bool fnuz;
  bool has_inf;
};

const std::vector<Format>& formats() {
  static const std::vector<Format> all = {
      {"E4M3", __HIP_E4M3, fp_ref::Table(3, 7, 0x7e), false, false},
      {"E5M2", __HIP_E5M2, fp_ref::Table(2, 15, 0x7b), false, true},
      {"E4M3_FNUZ", __HIP_E4M3_FNUZ, fp_ref::Table(3, 8, 0x7f), true, false},
      {"E5M2_FNUZ", __HIP_E5M2_FNUZ, fp_ref::Table(2, 16, 0x7f), true, false},
  };
  return all;
}

bool ref_is_nan(const Format& f, unsigned b) {
  if (f.fnuz) return b == 0x80;
  return f.has_inf ? (b & 0x7f) > 0x7c : (b & 0x7f) == 0x7f;
}

double ref_value(const Format& f, unsigned b) {
  if (ref_is_nan(f, b)) return NAN;
  const double magnitude = f.has_inf && (b & 0x7f) == 0x7c ? INFINITY : f.table.decode(b & 0x7f);
  return (b & 0x80) ? -magnitude : magnitude;
}

// The expected fp8 bits for a real x, as hip_fp8.h documents it.
unsigned ref_fp8(const Format& f, double x, __hip_saturation_t sat) {
  const unsigned sign = std::signbit(x) ? 0x80 : 0;
  if (std::isnan(x)) return f.fnuz ? 0x80 : sign | 0x7f;  // OCP NaN keeps the sign
  const unsigned overflow = sat == __HIP_SATFINITE ? sign | f.table.max_code
                          : f.has_inf              ? sign | 0x7c
                                                   : (f.fnuz ? 0x80 : sign | 0x7f);
  if (std::isinf(x)) return overflow;
  const unsigned code = f.table.round(x, fp_ref::Mode::nearest_even);
  if (code > f.table.max_code) return overflow;
  if (code == 0 && f.fnuz) return 0;
  return sign | code;
}

}  // namespace

TEST_CASE("every fp8 pattern of every format decodes exactly", "[fp8]") {
  for (const Format& f : formats()) {
    for (unsigned b = 0; b < 256; ++b) {
      const auto bits = static_cast<__hip_fp8_storage_t>(b);
      const double v = ref_value(f, b);
      const __half_raw h = __hip_cvt_fp8_to_halfraw(bits, f.interp);
      const float via_half = __half2float(__half(h));
      const auto fp_context = [&] {
        std::ostringstream s;
        s << f.name << " bits 0x" << std::hex << b;
        return s.str();
      };
      if (std::isnan(v)) {
        FP_CHECK(std::isnan(via_half));
        continue;
      }
      FP_CHECK(double(via_half) == v);
      FP_CHECK(std::signbit(via_half) == std::signbit(v));
      // Encoding the exact value gives the pattern back, in both saturation modes (an
      // infinity saturates under SATFINITE).
      const bool inf = std::isinf(v);
      FP_CHECK(__hip_cvt_float_to_fp8(float(v), __HIP_NOSAT, f.interp) == b);
      if (!inf) FP_CHECK(__hip_cvt_float_to_fp8(float(v), __HIP_SATFINITE, f.interp) == b);
      FP_CHECK(__hip_cvt_halfraw_to_fp8(h, __HIP_NOSAT, f.interp) == b);
    }
  }
  // The struct types decode the same way.
  __hip_fp8_e4m3 e4;
  e4.__x = 0x7e;
  REQUIRE(float(e4) == 448.0f);
  __hip_fp8_e5m2 e5;
  e5.__x = 0x7b;
  REQUIRE(float(e5) == 57344.0f);
  e5.__x = 0xfc;
  REQUIRE(float(e5) == -INFINITY);
  __hip_fp8_e4m3_fnuz n4;
  n4.__x = 0x7f;
  REQUIRE(double(n4) == 240.0);
  n4.__x = 0x80;
  REQUIRE(std::isnan(float(n4)));
  REQUIRE(int(n4) == 0);
  __hip_fp8_e5m2_fnuz n5;
  n5.__x = 0x01;
  REQUIRE(float(n5) == 0x1p-17f);
}

TEST_CASE("float, double, half and bfloat16 round to fp8 in both saturation modes", "[fp8]") {
  std::vector<double> inputs = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-30, -1e-30, 1e30, -1e30};
  for (uint64_t u = 0; u <= 0xffffffffull; u += 65521) {
    float f;
    const uint32_t v = uint32_t(u);
    std::memcpy(&f, &v, 4);
    inputs.push_back(f);
  }
  for (const Format& f : formats()) {
    const auto& t = f.table;
    for (unsigned code = 0; code <= t.max_code; ++code) {
      const double hi =
          code < t.max_code ? t.values[code + 1] : 2 * t.values[code] - t.values[code - 1];
      const double mid = (t.values[code] + hi) / 2;
      for (double d : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, INFINITY), t.values[code],
                       std::nextafter(double(std::nextafter(float(mid), 0.0f)), 0.0)}) {
        inputs.push_back(d);
        inputs.push_back(-d);
      }
    }
  }
  for (const Format& f : formats()) {
    for (double x : inputs) {
      for (__hip_saturation_t sat : {__HIP_NOSAT, __HIP_SATFINITE}) {
        const auto fp_context = [&] {
          std::ostringstream s;
          s << f.name << " x " << x << " sat " << int(sat);
          return s.str();
        };
        FP_CHECK(__hip_cvt_double_to_fp8(x, sat, f.interp) == ref_fp8(f, x, sat));
        const float xf = float(x);  // rounds x; the reference then rounds the float once
        FP_CHECK(__hip_cvt_float_to_fp8(xf, sat, f.interp) == ref_fp8(f, xf, sat));
        const __half h = __double2half(x);
        FP_CHECK(__hip_cvt_halfraw_to_fp8(h, sat, f.interp) == ref_fp8(f, __half2float(h), sat));
        const __hip_bfloat16 b = __double2bfloat16(x);
        FP_CHECK(__hip_cvt_bfloat16raw_to_fp8(b, sat, f.interp) ==
                 ref_fp8(f, __bfloat162float(b), sat));
      }
    }
  }
  // Spot checks of the documented edges.
  REQUIRE(__hip_cvt_float_to_fp8(464.0f, __HIP_NOSAT, __HIP_E4M3) == 0x7e);  // tie to even 448
  REQUIRE(__hip_cvt_float_to_fp8(465.0f, __HIP_NOSAT, __HIP_E4M3) == 0x7f);  // NaN
  REQUIRE(__hip_cvt_float_to_fp8(-465.0f, __HIP_SATFINITE, __HIP_E4M3) == 0xfe);
  REQUIRE(__hip_cvt_float_to_fp8(61440.0f, __HIP_NOSAT, __HIP_E5M2) == 0x7c);  // tie to inf
  REQUIRE(__hip_cvt_float_to_fp8(-INFINITY, __HIP_SATFINITE, __HIP_E5M2) == 0xfb);
  REQUIRE(__hip_cvt_float_to_fp8(-0.0f, __HIP_NOSAT, __HIP_E4M3_FNUZ) == 0x00);
  REQUIRE(__hip_cvt_float_to_fp8(-1e-9f, __HIP_NOSAT, __HIP_E5M2_FNUZ) == 0x00);
  REQUIRE(__hip_cvt_float_to_fp8(NAN, __HIP_SATFINITE, __HIP_E5M2_FNUZ) == 0x80);
  REQUIRE(__hip_cvt_float_to_fp8(1000.0f, __HIP_NOSAT, __HIP_E4M3_FNUZ) == 0x80);
  // Pairs and quads keep x in the low byte.
  REQUIRE(__hip_cvt_float2_to_fp8x2(float2(1.0f, -2.0f), __HIP_SATFINITE, __HIP_E4M3) == 0xc038);
  const __half2_raw pair = __hip_cvt_fp8x2_to_halfraw2(0xc038, __HIP_E4M3);
  REQUIRE(__half2float(__half(__half_raw{pair.x})) == 1.0f);
  REQUIRE(__half2float(__half(__half_raw{pair.y})) == -2.0f);
  const __hip_fp8x4_e5m2 quad(float4(1.0f, 2.0f, 1e9f, -0.0f));
  REQUIRE(quad.__x == 0x807b403cu);  // 1.0 = 0x3c, 2.0 = 0x40, saturated 57344 = 0x7b, -0 = 0x80
  const float4 back = quad;
  REQUIRE((back.x == 1.0f && back.y == 2.0f && back.z == 57344.0f && back.w == 0.0f));
  const __hip_fp8x2_e4m3_fnuz from_half2(__floats2half2_rn(0.5f, 300.0f));
  REQUIRE(float2(from_half2).y == 240.0f);
  const __hip_fp8_e4m3 e(3.3);
  REQUIRE(float(e) == 3.25f);
  REQUIRE(float(__half(e)) == 3.25f);
  REQUIRE(float(__hip_bfloat16(e)) == 3.25f);
  REQUIRE(int(__hip_fp8_e4m3(-7.5f)) == -7);  // exact in E4M3; int truncates
  REQUIRE(int(__hip_fp8_e5m2(-7.5f)) == -8);  // a tie: 8 has the even significand
  REQUIRE(__hip_fp8_e4m3(1000).__x == 0x7e);  // the types saturate
}

namespace {

// Quantizes four floats per thread to E4M3 and back.
__global__ void fp8_round_trip(int n, const float4* in, __hip_fp8x4_e4m3* packed, float4* out) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  packed[i] = __hip_fp8x4_e4m3(in[i]);
  out[i] = packed[i];
}

}  // namespace

TEST_CASE("fp8 quantize and dequantize run on the CPU agent", "[fp8][kernel]") {
  if (!hip_test::kernels_supported()) return;
  const int n = 300;
  std::vector<float4> in(n), out(n);
  std::vector<__hip_fp8x4_e4m3> packed(n);
  for (int i = 0; i < n; ++i)
    in[i] = float4(0.37f * float(i) - 50.0f, float(i * i), -1.0f / float(i + 1), 1e-3f * float(i));
  hip_test::DeviceBuffer<float4> din(n), dout(n);
  hip_test::DeviceBuffer<__hip_fp8x4_e4m3> dpacked(n);
  HIP_CHECK(hipMemcpy(din.get(), in.data(), din.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(fp8_round_trip, dim3((n + 31) / 32), dim3(32), 0, 0, n, din.get(), dpacked.get(),
                   dout.get());
  HIP_CHECK(hipMemcpy(out.data(), dout.get(), dout.bytes(), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(packed.data(), dpacked.get(), dpacked.bytes(), hipMemcpyDeviceToHost));
  const Format& e4m3 = formats()[0];
  for (int i = 0; i < n; ++i) {
    const float values[4] = {in[i].x, in[i].y, in[i].z, in[i].w};
    const float got[4] = {out[i].x, out[i].y, out[i].z, out[i].w};
    for (int k = 0; k < 4; ++k) {
      const auto fp_context = [&] {
        std::ostringstream s;
        s << "element " << i << " lane " << k;
        return s.str();
      };
      const unsigned expected = ref_fp8(e4m3, values[k], __HIP_SATFINITE);
      FP_CHECK(((packed[i].__x >> (8 * k)) & 0xff) == expected);
      FP_CHECK(double(got[k]) == ref_value(e4m3, expected));
    }
  }
}
