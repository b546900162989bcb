// SPDX-License-Identifier: MIT
// hip_fp16.h: conversions checked exhaustively or over dense samples against the
// independent reference in reference.hpp, arithmetic against exactly computed results,
// and a __half2 axpy plus a warp reduction run as kernels on the CPU agent.
#include "hip_test.hpp"

#include <hip/hip_fp16.h>

#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "reference.hpp"

#include <sstream>

namespace {

const fp_ref::Table& half_table() {
  static const fp_ref::Table table(10, 15, 0x7bff);
  return table;
}

unsigned short bits_of(__half h) { return __half_as_ushort(h); }
__half from(unsigned short b) { return __ushort_as_half(b); }
bool is_nan_bits(unsigned short b) { return (b & 0x7fff) > 0x7c00; }

// The reference result of rounding the real x (double) to binary16 bits.
unsigned short ref_half(double x, fp_ref::Mode mode = fp_ref::Mode::nearest_even) {
  const unsigned short sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return 0x7e00;
  if (std::isinf(x)) return sign | 0x7c00;
  return static_cast<unsigned short>(sign | half_table().round(x, mode));
}

// The value of a binary16 pattern, from its fields.
double ref_value(unsigned short b) {
  const double magnitude =
      (b & 0x7c00) == 0x7c00 ? (b & 0x3ff ? NAN : INFINITY) : half_table().decode(b & 0x7fff);
  return (b & 0x8000) ? -magnitude : magnitude;
}

}  // namespace

TEST_CASE("every binary16 pattern widens exactly and rounds back to itself", "[fp16]") {
  for (unsigned b = 0; b <= 0xffff; ++b) {
    const auto h = static_cast<unsigned short>(b);
    const float f = __half2float(from(h));
    const double expected = ref_value(h);
    const auto fp_context = [&] {
      std::ostringstream s;
      s << "half bits 0x" << std::hex << b;
      return s.str();
    };
    if (std::isnan(expected)) {
      FP_CHECK(std::isnan(f));
    } else {
      FP_CHECK(double(f) == expected);
      FP_CHECK(std::signbit(f) == std::signbit(expected));
    }
    FP_CHECK(bits_of(__float2half(f)) == h);  // NaN payloads, signaling ones too, survive
    // (double(f) would quiet a signaling NaN, so only non-NaN patterns go through double.)
    if (!std::isnan(expected)) FP_CHECK(bits_of(__half(double(f))) == h);
  }
}

TEST_CASE("float to binary16 rounds correctly in all four modes", "[fp16]") {
  using fp_ref::Mode;
  std::vector<float> inputs;
  // A dense stride over all float patterns, plus every midpoint between neighbouring
  // halves and the floats right next to it (where double rounding or a tie rule goes wrong).
  for (uint64_t u = 0; u <= 0xffffffffull; u += 1021) {
    float f;
    const uint32_t v = uint32_t(u);
    std::memcpy(&f, &v, 4);
    inputs.push_back(f);
  }
  const auto& t = half_table();
  for (unsigned code = 0; code <= t.max_code; ++code) {
    const double hi = code < t.max_code ? t.values[code + 1] : 65536.0;
    const float mid = float((t.values[code] + hi) / 2);  // exact in float
    for (float f :
         {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, INFINITY), float(t.values[code])}) {
      inputs.push_back(f);
      inputs.push_back(-f);
    }
  }
  size_t checked = 0;
  for (float f : inputs) {
    if (std::isnan(f)) {
      REQUIRE(is_nan_bits(bits_of(__float2half(f))));
      continue;
    }
    const auto fp_context = [&] {
      std::ostringstream s;
      s << "float " << f;
      return s.str();
    };
    FP_CHECK(bits_of(__float2half(f)) == ref_half(f));
    FP_CHECK(bits_of(__float2half_rn(f)) == ref_half(f));
    FP_CHECK(bits_of(__float2half_rz(f)) == ref_half(f, Mode::toward_zero));
    FP_CHECK(bits_of(__float2half_rd(f)) == ref_half(f, Mode::down));
    FP_CHECK(bits_of(__float2half_ru(f)) == ref_half(f, Mode::up));
    ++checked;
  }
  REQUIRE(checked > 4000000);
}

TEST_CASE("double to binary16 rounds once (no double rounding through float)", "[fp16]") {
  const auto& t = half_table();
  for (unsigned code = 0; code < t.max_code; ++code) {
    const double mid = (t.values[code] + t.values[code + 1]) / 2;
    for (double d : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, INFINITY)}) {
      const auto fp_context = [&] {
        std::ostringstream s;
        s << "double " << d;
        return s.str();
      };
      FP_CHECK(bits_of(__double2half(d)) == ref_half(d));
      FP_CHECK(bits_of(__half(-d)) == ref_half(-d));
    }
  }
}

TEST_CASE("integer conversions round and saturate", "[fp16]") {
  using fp_ref::Mode;
  for (long long i = -70000; i <= 70000; ++i) {
    const auto fp_context = [&] {
      std::ostringstream s;
      s << "integer " << i;
      return s.str();
    };
    FP_CHECK(bits_of(__int2half_rn(int(i))) == ref_half(double(i)));
    FP_CHECK(bits_of(__int2half_rz(int(i))) == ref_half(double(i), Mode::toward_zero));
    FP_CHECK(bits_of(__ll2half_rd(i)) == ref_half(double(i), Mode::down));
    FP_CHECK(bits_of(__ll2half_ru(i)) == ref_half(double(i), Mode::up));
    if (i >= 0) FP_CHECK(bits_of(__uint2half_rn(unsigned(i))) == ref_half(double(i)));
  }
  REQUIRE(bits_of(__ull2half_rz(~0ull)) == 0x7bff);
  REQUIRE(bits_of(__ull2half_rn(~0ull)) == 0x7c00);
  REQUIRE(bits_of(__ll2half_rn(std::numeric_limits<long long>::min())) == 0xfc00);
  REQUIRE(bits_of(__short2half_rn(short(-32768))) == ref_half(-32768.0));
  REQUIRE(bits_of(__ushort2half_ru(65535)) == 0x7c00);

  for (unsigned b = 0; b <= 0xffff; ++b) {
    const __half h = from(static_cast<unsigned short>(b));
    const double v = ref_value(static_cast<unsigned short>(b));
    const auto fp_context = [&] {
      std::ostringstream s;
      s << "half bits 0x" << std::hex << b;
      return s.str();
    };
    if (std::isnan(v)) {
      FP_CHECK(__half2int_rn(h) == 0);
      FP_CHECK(__half2ull_ru(h) == 0);
      continue;
    }
    auto sat = [](double r, double lo, double hi) { return r < lo ? lo : (r > hi ? hi : r); };
    FP_CHECK(__half2int_rn(h) == int(sat(std::nearbyint(v), INT32_MIN, INT32_MAX)));
    FP_CHECK(__half2int_rz(h) == int(sat(std::trunc(v), INT32_MIN, INT32_MAX)));
    FP_CHECK(__half2int_rd(h) == int(sat(std::floor(v), INT32_MIN, INT32_MAX)));
    FP_CHECK(__half2int_ru(h) == int(sat(std::ceil(v), INT32_MIN, INT32_MAX)));
    FP_CHECK(__half2short_rn(h) == short(sat(std::nearbyint(v), -32768, 32767)));
    FP_CHECK(__half2ushort_rz(h) == static_cast<unsigned short>(sat(std::trunc(v), 0, 65535)));
    FP_CHECK(__half2uint_rd(h) == unsigned(sat(std::floor(v), 0, 4294967295.0)));
    if (std::isfinite(v)) FP_CHECK(__half2ll_ru(h) == (long long)std::ceil(v));
    else FP_CHECK(__half2ll_ru(h) == (v > 0 ? LLONG_MAX : LLONG_MIN));
    FP_CHECK(int(h) == int(sat(std::trunc(v), INT32_MIN, INT32_MAX)));  // C++ conversion truncates
    FP_CHECK(bool(h) == (v != 0));
  }
}

TEST_CASE("arithmetic equals the exact result rounded once", "[fp16]") {
  std::mt19937 rng(12);
  std::vector<unsigned short> samples = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                                         0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3555, 0x1400};
  while (samples.size() < 700) samples.push_back(static_cast<unsigned short>(rng()));
  for (unsigned short a : samples) {
    for (unsigned short b : samples) {
      const double x = ref_value(a), y = ref_value(b);
      const __half ha = from(a), hb = from(b);
      const auto fp_context = [&] {
        std::ostringstream s;
        s << "a 0x" << std::hex << a << " b 0x" << b;
        return s.str();
      };
      auto check = [&](__half got, double exact) {
        if (std::isnan(exact)) FP_CHECK(is_nan_bits(bits_of(got)));
        else FP_CHECK(bits_of(got) == ref_half(exact));
      };
      check(__hadd(ha, hb), x + y);  // sums and products of halves are exact in double
      check(__hsub(ha, hb), x - y);
      check(__hmul(ha, hb), x * y);
      check(__hdiv(ha, hb), x / y);  // double's 53 bits make the second rounding harmless
      check(ha + hb, x + y);
      check(ha * hb, x * y);
      FP_CHECK(__heq(ha, hb) == (x == y));
      FP_CHECK(__hne(ha, hb) == (x < y || x > y));
      FP_CHECK(__hneu(ha, hb) == !(x == y));
      FP_CHECK(__hlt(ha, hb) == (x < y));
      FP_CHECK(__hltu(ha, hb) == !(x >= y));
      FP_CHECK(__hge(ha, hb) == (x >= y));
      FP_CHECK(__hequ(ha, hb) == (x == y || std::isnan(x) || std::isnan(y)));
      FP_CHECK((ha <= hb) == (x <= y));
      FP_CHECK((ha != hb) == (x != y));
      const __half2 pair(ha, hb), swapped(hb, ha);
      const __half2 sum = __hadd2(pair, swapped);
      check(sum.x, x + y);  // which NaN payload an addition keeps is up to the compiler
      check(sum.y, y + x);
      FP_CHECK(__hblt2(pair, swapped) == false);  // a < b and b < a never both hold
      FP_CHECK(__hbequ2(pair, swapped) == __hequ(ha, hb));
      FP_CHECK(__hlt2_mask(pair, swapped) == ((x < y ? 0xffffu : 0u) | (y < x ? 0xffff0000u : 0u)));
      if (!std::isnan(x) && !std::isnan(y)) {
        FP_CHECK(__half2float(__hmax(ha, hb)) == std::max(x, y));
        FP_CHECK(__half2float(__hmin(ha, hb)) == std::min(x, y));
      }
    }
  }
}

TEST_CASE("fma rounds the exact a*b+c once", "[fp16]") {
  std::mt19937 rng(7);
  // Finite halves are integers times 2^-24, so a*b + c is an integer times 2^-48: exact
  // in 128-bit integers. The reference rounds that with the table, scaled by 2^48.
  __extension__ typedef __int128 wide;
  auto scaled = [](unsigned short b) {  // the value of b times 2^24, an integer
    const double v = std::fabs(ref_value(b)) * 0x1p24;
    const wide w = wide(v);
    return (b & 0x8000) ? -w : w;
  };
  const auto& t = half_table();
  for (int i = 0; i < 200000; ++i) {
    unsigned short a = static_cast<unsigned short>(rng()), b = static_cast<unsigned short>(rng()),
                   c = static_cast<unsigned short>(rng());
    // Keep products in range often: pull exponents of a and b toward the middle.
    if (i % 2) {
      a = static_cast<unsigned short>((a & 0x83ff) | 0x3000 | (a & 0x0c00));
      b = static_cast<unsigned short>((b & 0x83ff) | 0x3000 | (b & 0x0c00));
    }
    if (is_nan_bits(a) || is_nan_bits(b) || is_nan_bits(c) || (a & 0x7c00) == 0x7c00 ||
        (b & 0x7c00) == 0x7c00 || (c & 0x7c00) == 0x7c00)
      continue;
    const wide exact = scaled(a) * scaled(b) + scaled(c) * (wide(1) << 24);  // times 2^48
    const bool negative = exact < 0;
    const wide mag = negative ? -exact : exact;
    // Neighbours in the table, compared in 2^-48 units.
    unsigned lo = 0;
    auto unit = [&](unsigned code) { return wide(t.values[code] * 0x1p48); };
    unsigned expected;
    if (mag > unit(t.max_code)) {
      const wide next = wide(65536.0 * 0x1p48);
      expected = 2 * mag >= unit(t.max_code) + next ? 0x7c00 : 0x7bff;
    } else {
      unsigned hi_code = t.max_code;
      while (lo < hi_code) {  // largest code with value <= mag
        const unsigned mid = (lo + hi_code + 1) / 2;
        if (unit(mid) <= mag) lo = mid;
        else hi_code = mid - 1;
      }
      expected = lo;
      if (unit(lo) != mag) {
        const wide twice = 2 * mag,
                   sum = unit(lo) + (lo < t.max_code ? unit(lo + 1) : wide(65536.0 * 0x1p48));
        if (twice > sum || (twice == sum && (lo & 1))) expected = lo + 1;
      }
    }
    if (mag == 0) {
      // Exact zero: +0 unless both the product and c are -0 or negative zero-sums (round to nearest).
      REQUIRE((bits_of(__hfma(from(a), from(b), from(c))) & 0x7fff) == 0);
      continue;
    }
    if (negative) expected |= 0x8000;
    const auto fp_context = [&] {
      std::ostringstream s;
      s << "a 0x" << std::hex << a << " b 0x" << b << " c 0x" << c;
      return s.str();
    };
    FP_CHECK(bits_of(__hfma(from(a), from(b), from(c))) == expected);
  }
  // The documented saturating forms clamp to [0, 1] and flush NaN to +0.
  REQUIRE(bits_of(__hfma_sat(from(0x3c00), from(0x4000), from(0x4200))) == 0x3c00);
  REQUIRE(bits_of(__hadd_sat(from(0x7e00), from(0x3c00))) == 0x0000);
  REQUIRE(bits_of(__hsub_sat(from(0x3c00), from(0x4000))) == 0x0000);
  REQUIRE(bits_of(__hmul_sat(from(0x3800), from(0x3800))) == 0x3400);
}

TEST_CASE("sign, classification, pair helpers and limits", "[fp16]") {
  for (unsigned b = 0; b <= 0xffff; ++b) {
    const auto h = static_cast<unsigned short>(b);
    REQUIRE(bits_of(__hneg(from(h))) == (h ^ 0x8000));
    REQUIRE(bits_of(-from(h)) == (h ^ 0x8000));
    REQUIRE(bits_of(__habs(from(h))) == (h & 0x7fff));
    REQUIRE(__hisnan(from(h)) == std::isnan(ref_value(h)));
    REQUIRE(bool(__hisinf(from(h))) == std::isinf(ref_value(h)));
  }
  const __half2 p = __floats2half2_rn(1.5f, -2.25f);
  REQUIRE(__low2float(p) == 1.5f);
  REQUIRE(__high2float(p) == -2.25f);
  REQUIRE(__half2float(__low2half(__lowhigh2highlow(p))) == -2.25f);
  const __half2 q = __lows2half2(p, __float2half2_rn(7.0f));
  REQUIRE(__half22float2(q).x == 1.5f);
  REQUIRE(__half22float2(q).y == 7.0f);
  REQUIRE(__high2float(__highs2half2(p, make_half2(__float2half(3.0f), __float2half(4.0f)))) ==
          4.0f);
  REQUIRE(__half22float2(__float22half2_rn(float2(0.1f, 65520.0f))).y == INFINITY);
  REQUIRE(__half_as_short(__short_as_half(-12345)) == -12345);
  REQUIRE(bits_of(std::numeric_limits<__half>::max()) == 0x7bff);
  REQUIRE(__half2float(std::numeric_limits<__half>::epsilon()) == 0x1p-10f);
  REQUIRE(__half2float(std::numeric_limits<__half>::denorm_min()) == 0x1p-24f);
  REQUIRE(__hisnan(std::numeric_limits<__half>::signaling_NaN()));
  __half h = 2.0f;
  h += 1;
  h *= __half(0.5);
  ++h;
  REQUIRE(float(h) == 2.5f);
  REQUIRE(float(h--) == 2.5f);
  REQUIRE(float(h) == 1.5f);
  __half2 v{1, 2};
  v += 1;
  REQUIRE(v == __half2(2, 3));
  REQUIRE(v != 0);
  REQUIRE(__hbeq2(__h2div(v, v), __half2(1.0f)));
}

TEST_CASE("half math functions are within half an ulp of the exact value", "[fp16]") {
  struct Fn {
    const char* name;
    __half (*half_fn)(__half);
    double (*exact)(double);
  };
  const Fn fns[] = {
      {"hsqrt", hsqrt, [](double v) { return std::sqrt(v); }},
      {"hrsqrt", hrsqrt, [](double v) { return 1 / std::sqrt(v); }},
      {"hrcp", hrcp, [](double v) { return 1 / v; }},
      {"hexp", hexp, [](double v) { return std::exp(v); }},
      {"hexp2", hexp2, [](double v) { return std::exp2(v); }},
      {"hexp10", hexp10, [](double v) { return std::pow(10.0, v); }},
      {"hlog", hlog, [](double v) { return std::log(v); }},
      {"hlog2", hlog2, [](double v) { return std::log2(v); }},
      {"hlog10", hlog10, [](double v) { return std::log10(v); }},
      {"hsin", hsin, [](double v) { return std::sin(v); }},
      {"hcos", hcos, [](double v) { return std::cos(v); }},
      {"hceil", hceil, [](double v) { return std::ceil(v); }},
      {"hfloor", hfloor, [](double v) { return std::floor(v); }},
      {"htrunc", htrunc, [](double v) { return std::trunc(v); }},
      {"hrint", hrint, [](double v) { return std::nearbyint(v); }},
  };
  for (const Fn& fn : fns) {
    for (unsigned b = 0; b <= 0xffff; b += 3) {
      const auto h = static_cast<unsigned short>(b);
      const double exact = fn.exact(ref_value(h));
      const unsigned short got = bits_of(fn.half_fn(from(h)));
      const auto fp_context = [&] {
        std::ostringstream s;
        s << fn.name << " of half 0x" << std::hex << b;
        return s.str();
      };
      if (std::isnan(exact)) FP_CHECK(is_nan_bits(got));
      else FP_CHECK(got == ref_half(exact));
    }
  }
  const __half2 r = h2sqrt(__floats2half2_rn(4.0f, 9.0f));
  REQUIRE(__low2float(r) == 2.0f);
  REQUIRE(__high2float(r) == 3.0f);
}

namespace {

__global__ void half2_axpy(int n, __half2 a, const __half2* x, __half2* y) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) y[i] = __hfma2(a, x[i], y[i]);
}

// Each warp sums its lanes' pairs with butterfly shuffles; lane 0 writes the sum.
__global__ void half2_warp_sum(const __half2* in, __half2* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 v = in[i];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v = __hadd2(v, __shfl_xor(v, offset));
  __half lo = __low2half(v);
  lo = __shfl(lo, 0);
  if (threadIdx.x % warpSize == 0) out[i / warpSize] = __halves2half2(lo, __high2half(v));
}

// Every thread adds (1, 0.5) to one pair and 0.25 to one half.
__global__ void half_atomic_add(__half2* pair, __half* single) {
  atomicAdd(pair, __floats2half2_rn(1.0f, 0.5f));
  atomicAdd(single, __float2half(0.25f));
}

}  // namespace

TEST_CASE("atomicAdd on __half and __half2 loses no update", "[fp16][kernel]") {
  if (!hip_test::kernels_supported()) return;
  hip_test::DeviceBuffer<__half2> pair(1);
  hip_test::DeviceBuffer<__half> single(1);
  HIP_CHECK(hipMemset(pair.get(), 0, sizeof(__half2)));
  HIP_CHECK(hipMemset(single.get(), 0, sizeof(__half)));
  HIP_LAUNCH_CHECK(half_atomic_add, dim3(8), dim3(64), 0, 0, pair.get(), single.get());
  __half2 p;
  __half h;
  HIP_CHECK(hipMemcpy(&p, pair.get(), sizeof p, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&h, single.get(), sizeof h, hipMemcpyDeviceToHost));
  // 512 updates; every partial sum is exact in binary16.
  REQUIRE(__low2float(p) == 512.0f);
  REQUIRE(__high2float(p) == 256.0f);
  REQUIRE(__half2float(h) == 128.0f);
}

TEST_CASE("a __half2 axpy and a warp reduction of __half2 run on the CPU agent", "[fp16][kernel]") {
  if (!hip_test::kernels_supported()) return;
  const int n = 1000;
  std::vector<__half2> x(n), y(n), expected(n);
  for (int i = 0; i < n; ++i) {
    x[i] = __floats2half2_rn(0.25f * float(i % 37), -float(i % 11));
    y[i] = __floats2half2_rn(float(i) / 8, 3.0f);
  }
  const __half2 a = __floats2half2_rn(1.5f, -0.75f);
  for (int i = 0; i < n; ++i) expected[i] = __hfma2(a, x[i], y[i]);
  hip_test::DeviceBuffer<__half2> dx(n), dy(n);
  HIP_CHECK(hipMemcpy(dx.get(), x.data(), dx.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(dy.get(), y.data(), dy.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(half2_axpy, dim3((n + 127) / 128), dim3(128), 0, 0, n, a, dx.get(), dy.get());
  HIP_CHECK(hipMemcpy(y.data(), dy.get(), dy.bytes(), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const auto fp_context = [&] {
      std::ostringstream s;
      s << "element " << i;
      return s.str();
    };
    FP_CHECK(__half_as_ushort(y[i].x) == __half_as_ushort(expected[i].x));
    FP_CHECK(__half_as_ushort(y[i].y) == __half_as_ushort(expected[i].y));
  }

  const int warp = hip_test::props().warpSize, warps = 8;
  std::vector<__half2> in(size_t(warp * warps)), sums(warps);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = __floats2half2_rn(float(i % 5), 0.5f * float(i % 3));
  hip_test::DeviceBuffer<__half2> din(in.size()), dout(warps);
  HIP_CHECK(hipMemcpy(din.get(), in.data(), din.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(half2_warp_sum, dim3(2), dim3(warp * warps / 2), 0, 0, din.get(), dout.get());
  HIP_CHECK(hipMemcpy(sums.data(), dout.get(), dout.bytes(), hipMemcpyDeviceToHost));
  for (int w = 0; w < warps; ++w) {
    float lo = 0, hi = 0;  // small integers and halves: every partial sum is exact
    for (int l = 0; l < warp; ++l) {
      lo += __low2float(in[size_t(w * warp + l)]);
      hi += __high2float(in[size_t(w * warp + l)]);
    }
    const auto fp_context = [&] {
      std::ostringstream s;
      s << "warp " << w;
      return s.str();
    };
    FP_CHECK(__low2float(sums[w]) == lo);
    FP_CHECK(__high2float(sums[w]) == hi);
  }
}

// fma of three halves rounds once to half; an integral addend promotes to float (the
// overload set HIP programs rely on, instead of an ambiguity between float/double/long double).
TEST_CASE("fp16_fma_overloads") {
  const __half h = __float2half(1.0f / 3.0f);
  const __half three = __float2half(3.0f);
  const __half r = fma(h, h, three);
  REQUIRE(__half_as_ushort(r) == __half_as_ushort(__hfma(h, h, three)));
  static_assert(std::is_same_v<decltype(fma(h, h, 3)), float>, "integral addend: float");
  const float f = __half2float(h);
  REQUIRE(fma(h, h, 3) == std::fma(f, f, 3.0f));
  REQUIRE(fma(h, h, true) == std::fma(f, f, 1.0f));
  REQUIRE(__half2float(r) != std::fma(f, f, 3.0f));  // rounded to half, not kept in float
}
