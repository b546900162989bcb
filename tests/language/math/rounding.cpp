// SPDX-License-Identifier: MIT
// Arithmetic and conversions with a rounding direction (__fadd_rd, __dmul_ru, __fma_rz,
// __fsqrt_ru, __frcp_rd, __int2float_ru, __double2float_rz, __float2int_rn, ...), run in
// kernels. Each result is checked against the exact value, computed in __float128 (exact for
// these inputs: products of two doubles need 106 bits, sums are checked to be exact):
// _rd is the largest value <= exact, _ru the smallest >= exact, _rz the one of them nearer
// zero, _rn the nearer one (ties to even). 0 ulp everywhere: these are exact operations.
#include "math_test.hpp"

#include <hip/weft/round_from_nearest.h>

#include <array>
#include <bit>
#include <cfenv>
#include <climits>
#include <string>

namespace {

using math_test::DeviceArray;
using math_test::grid_for;
using math_test::kBlock;
#if defined(__HIP_DEVICE_COMPILE__) && (defined(__NVPTX__) || defined(__AMDGCN__))
// A GPU pass (weftcc, hipcc) parses the host reference code below but never emits it, and
// its target has no __float128: a stand-in type there. Host passes use the real one.
using Quad = double;
#else
using Quad = __float128;
#endif

enum Op { kAdd, kSub, kMul, kDiv, kRcp, kSqrt, kFma, kOpCount };
const char* const kOpNames[] = {"add", "sub", "mul", "div", "rcp", "sqrt", "fma"};

// Four results per element: _rn, _rz, _ru, _rd; then the rounding mode the kernel saw after.
__global__ void rounded_float(int op, const float* a, const float* b, const float* c, float* out,
                              int* mode, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const float x = a[i], y = b[i], z = c[i];
  float* o = out + 4 * i;
  switch (op) {
    case kAdd:
      o[0] = __fadd_rn(x, y);
      o[1] = __fadd_rz(x, y);
      o[2] = __fadd_ru(x, y);
      o[3] = __fadd_rd(x, y);
      break;
    case kSub:
      o[0] = __fsub_rn(x, y);
      o[1] = __fsub_rz(x, y);
      o[2] = __fsub_ru(x, y);
      o[3] = __fsub_rd(x, y);
      break;
    case kMul:
      o[0] = __fmul_rn(x, y);
      o[1] = __fmul_rz(x, y);
      o[2] = __fmul_ru(x, y);
      o[3] = __fmul_rd(x, y);
      break;
    case kDiv:
      o[0] = __fdiv_rn(x, y);
      o[1] = __fdiv_rz(x, y);
      o[2] = __fdiv_ru(x, y);
      o[3] = __fdiv_rd(x, y);
      break;
    case kRcp:
      o[0] = __frcp_rn(y);
      o[1] = __frcp_rz(y);
      o[2] = __frcp_ru(y);
      o[3] = __frcp_rd(y);
      break;
    case kSqrt:
      o[0] = __fsqrt_rn(x);
      o[1] = __fsqrt_rz(x);
      o[2] = __fsqrt_ru(x);
      o[3] = __fsqrt_rd(x);
      break;
    default:
      o[0] = __fmaf_rn(x, y, z);
      o[1] = __fmaf_rz(x, y, z);
      o[2] = __fmaf_ru(x, y, z);
      o[3] = __fmaf_rd(x, y, z);
      break;
  }
  mode[i] = fegetround();
}
__global__ void rounded_double(int op, const double* a, const double* b, const double* c,
                               double* out, int* mode, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const double x = a[i], y = b[i], z = c[i];
  double* o = out + 4 * i;
  switch (op) {
    case kAdd:
      o[0] = __dadd_rn(x, y);
      o[1] = __dadd_rz(x, y);
      o[2] = __dadd_ru(x, y);
      o[3] = __dadd_rd(x, y);
      break;
    case kSub:
      o[0] = __dsub_rn(x, y);
      o[1] = __dsub_rz(x, y);
      o[2] = __dsub_ru(x, y);
      o[3] = __dsub_rd(x, y);
      break;
    case kMul:
      o[0] = __dmul_rn(x, y);
      o[1] = __dmul_rz(x, y);
      o[2] = __dmul_ru(x, y);
      o[3] = __dmul_rd(x, y);
      break;
    case kDiv:
      o[0] = __ddiv_rn(x, y);
      o[1] = __ddiv_rz(x, y);
      o[2] = __ddiv_ru(x, y);
      o[3] = __ddiv_rd(x, y);
      break;
    case kRcp:
      o[0] = __drcp_rn(y);
      o[1] = __drcp_rz(y);
      o[2] = __drcp_ru(y);
      o[3] = __drcp_rd(y);
      break;
    case kSqrt:
      o[0] = __dsqrt_rn(x);
      o[1] = __dsqrt_rz(x);
      o[2] = __dsqrt_ru(x);
      o[3] = __dsqrt_rd(x);
      break;
    default:
      o[0] = __fma_rn(x, y, z);
      o[1] = __fma_rz(x, y, z);
      o[2] = __fma_ru(x, y, z);
      o[3] = __fma_rd(x, y, z);
      break;
  }
  mode[i] = fegetround();
}

template <typename F>
std::vector<F> run_rounded(Op op, const std::vector<F>& a, const std::vector<F>& b,
                           const std::vector<F>& c) {
  DeviceArray<F> da(a), db(b), dc(c), out(4 * a.size());
  DeviceArray<int> mode(a.size());
  const int n = static_cast<int>(a.size());
  if constexpr (sizeof(F) == 4)
    HIP_LAUNCH_CHECK(rounded_float, grid_for(a.size()), dim3(kBlock), 0, 0, int(op), da.get(),
                     db.get(), dc.get(), out.get(), mode.get(), n);
  else
    HIP_LAUNCH_CHECK(rounded_double, grid_for(a.size()), dim3(kBlock), 0, 0, int(op), da.get(),
                     db.get(), dc.get(), out.get(), mode.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  for (int m : mode.read()) REQUIRE(m == FE_TONEAREST);  // the caller's mode is restored
  return out.read();
}

// The last significand bit is 0 (what ties round to).
template <typename F>
bool even_last_bit(F v) {
  using Bits = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  Bits bits;
  std::memcpy(&bits, &v, sizeof v);
  return (bits & 1) == 0;
}

int sign(Quad v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

// Exact a + b (TwoSum's error term is zero), or false.
bool exact_sum(Quad a, Quad b, Quad* sum) {
  const Quad s = a + b, bv = s - a;
  *sum = s;
  return (a - (s - bv)) + (b - bv) == 0;
}

// sign(candidate - exact result), by cross-multiplying where the result is a quotient or root.
// False when the inputs make the exact value unrepresentable in __float128.
template <typename F>
bool compare(Op op, F a, F b, F c, Quad candidate, int* result) {
  const Quad qa = a, qb = b, qc = c;
  Quad exact;
  switch (op) {
    case kAdd:
      if (!exact_sum(qa, qb, &exact)) return false;
      break;
    case kSub:
      if (!exact_sum(qa, -qb, &exact)) return false;
      break;
    case kMul: exact = qa * qb; break;
    case kFma:
      if (!exact_sum(qa * qb, qc, &exact)) return false;
      break;
    case kDiv: *result = sign(candidate * qb - qa) * sign(qb); return true;
    case kRcp: *result = sign(candidate * qb - 1) * sign(qb); return true;
    default: *result = sign(candidate * candidate - qa); return true;  // sqrt: candidate >= 0
  }
  *result = sign(candidate - exact);
  return true;
}

template <typename F>
void check_directed(Op op, const std::vector<F>& a, const std::vector<F>& b,
                    const std::vector<F>& c) {
  const std::vector<F> got = run_rounded(op, a, b, c);
  const F inf = std::numeric_limits<F>::infinity();
  size_t checked = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const F rn = got[4 * i], rz = got[4 * i + 1], ru = got[4 * i + 2], rd = got[4 * i + 3];
    INFO(kOpNames[op] << "(" << double(a[i]) << ", " << double(b[i]) << ", " << double(c[i])
                      << "): rn " << double(rn) << " rz " << double(rz) << " ru " << double(ru)
                      << " rd " << double(rd));
    int at_rd, above_rd, at_ru, below_ru, at_zero, at_mid;
    if (!compare(op, a[i], b[i], c[i], rd, &at_rd)) continue;  // not exact in __float128: skip
    ++checked;
    REQUIRE(std::isfinite(rd));
    REQUIRE(std::isfinite(ru));
    compare(op, a[i], b[i], c[i], std::nextafter(rd, inf), &above_rd);
    compare(op, a[i], b[i], c[i], ru, &at_ru);
    compare(op, a[i], b[i], c[i], std::nextafter(ru, -inf), &below_ru);
    compare(op, a[i], b[i], c[i], 0, &at_zero);
    CHECK(at_rd <= 0);
    CHECK(above_rd > 0);
    CHECK(at_ru >= 0);
    CHECK(below_ru < 0);
    CHECK(rz == (at_zero <= 0 ? rd : ru));  // exact >= 0: toward zero is down
    compare(op, a[i], b[i], c[i], (Quad(rd) + Quad(ru)) / 2, &at_mid);
    if (rd == ru) CHECK(rn == rd);
    else if (at_mid != 0) CHECK(rn == (at_mid > 0 ? rd : ru));
    else CHECK(rn == (even_last_bit(rd) ? rd : ru));
  }
  CHECK(checked >= a.size() * 9 / 10);
}

template <typename F>
F random_value(std::mt19937& gen, int lo, int hi) {
  const double magnitude = std::exp2(std::uniform_real_distribution<double>(lo, hi)(gen));
  return static_cast<F>(gen() & 1 ? magnitude : -magnitude);
}

template <typename F>
void check_random_ops() {
  std::mt19937 gen(21);
  const int n = 500;
  for (int op = 0; op < kOpCount; ++op) {
    std::vector<F> a, b, c;
    for (int i = 0; i < n; ++i) {
      // Magnitudes where sums stay exact in __float128 and products far from overflow;
      // some with a small exponent gap, so sums have many bits to round away.
      const int span = i % 2 ? 40 : 3;
      F x = random_value<F>(gen, -span, span), y = random_value<F>(gen, -span, span);
      if (op == kSqrt) x = std::fabs(x);
      if (i % 7 == 0) y = x * F(1 + std::numeric_limits<F>::epsilon() * 3);  // near cancellation
      a.push_back(x);
      b.push_back(y);
      c.push_back(static_cast<F>(x * y * random_value<F>(gen, -2, 2)));  // fma: c near the product
    }
    check_directed(static_cast<Op>(op), a, b, c);
  }
}

TEST_CASE("directed-rounding arithmetic brackets the exact result (float and double)",
          "[math][rounding]") {
  if (!hip_test::kernels_supported()) return;
  check_random_ops<float>();
  check_random_ops<double>();
}

template <typename F>
void check_rounding_edges() {
  using L = std::numeric_limits<F>;
  const F inf = L::infinity();
  // Overflow: only the mode toward the infinity reaches it.
  std::vector<F> r = run_rounded<F>(kAdd, {L::max(), -L::max()}, {L::max(), -L::max()}, {0, 0});
  CHECK((r[0] == inf && r[1] == L::max() && r[2] == inf && r[3] == L::max()));
  CHECK((r[4] == -inf && r[5] == -L::max() && r[6] == -L::max() && r[7] == -inf));
  // Underflow: a product below the smallest subnormal rounds to 0 or to it.
  r = run_rounded<F>(kMul, {L::denorm_min(), -L::denorm_min()}, {F(0.25), F(0.25)}, {0, 0});
  CHECK((r[0] == 0 && r[1] == 0 && r[2] == L::denorm_min() && r[3] == 0));
  CHECK((r[4] == 0 && r[5] == 0 && r[6] == 0 && r[7] == -L::denorm_min()));
  CHECK(std::signbit(r[7]) == true);
  // An exact zero sum is -0 only when rounding down.
  r = run_rounded<F>(kSub, {F(1.5)}, {F(1.5)}, {0});
  CHECK((!std::signbit(r[0]) && !std::signbit(r[1]) && !std::signbit(r[2]) && std::signbit(r[3])));
  // NaN and infinity propagate in every mode; sqrt(-1) and 0/0 are NaN.
  r = run_rounded<F>(kDiv, {F(0), F(1), L::quiet_NaN()}, {F(0), F(0), F(1)}, {0, 0, 0});
  for (int m = 0; m < 4; ++m) {
    CHECK(std::isnan(r[m]));
    CHECK(r[4 + m] == inf);
    CHECK(std::isnan(r[8 + m]));
  }
  r = run_rounded<F>(kSqrt, {F(-1), inf, -F(0)}, {0, 0, 0}, {0, 0, 0});
  for (int m = 0; m < 4; ++m) {
    CHECK(std::isnan(r[m]));
    CHECK(r[4 + m] == inf);
    CHECK((r[8 + m] == 0 && std::signbit(r[8 + m])));
  }
  // Ties to even: 1 + 2^-p halfway between 1 and 1 + 2^(1-p).
  const F half_ulp = L::epsilon() / 2;
  r = run_rounded<F>(kAdd, {F(1), F(1) + L::epsilon()}, {half_ulp, half_ulp}, {0, 0});
  CHECK(r[0] == F(1));
  CHECK(r[4] == F(1) + 2 * L::epsilon());
}

TEST_CASE("directed rounding at overflow, underflow, zeros, NaN and ties", "[math][rounding]") {
  if (!hip_test::kernels_supported()) return;
  check_rounding_edges<float>();
  check_rounding_edges<double>();
}

// ---- conversions ----

__global__ void int_conversions(const long long* in, float* f, double* d, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const long long v = in[i];
  const unsigned long long u = static_cast<unsigned long long>(v);
  const int w = static_cast<int>(v);
  const unsigned uw = static_cast<unsigned>(v);
  float* o = f + 16 * i;
  o[0] = __ll2float_rn(v);
  o[1] = __ll2float_rz(v);
  o[2] = __ll2float_ru(v);
  o[3] = __ll2float_rd(v);
  o[4] = __ull2float_rn(u);
  o[5] = __ull2float_rz(u);
  o[6] = __ull2float_ru(u);
  o[7] = __ull2float_rd(u);
  o[8] = __int2float_rn(w);
  o[9] = __int2float_rz(w);
  o[10] = __int2float_ru(w);
  o[11] = __int2float_rd(w);
  o[12] = __uint2float_rn(uw);
  o[13] = __uint2float_rz(uw);
  o[14] = __uint2float_ru(uw);
  o[15] = __uint2float_rd(uw);
  double* p = d + 10 * i;
  p[0] = __ll2double_rn(v);
  p[1] = __ll2double_rz(v);
  p[2] = __ll2double_ru(v);
  p[3] = __ll2double_rd(v);
  p[4] = __ull2double_rn(u);
  p[5] = __ull2double_rz(u);
  p[6] = __ull2double_ru(u);
  p[7] = __ull2double_rd(u);
  p[8] = __int2double_rn(w);
  p[9] = __uint2double_rn(uw);
}

// r4 = {rn, rz, ru, rd} of the exact integer value.
template <typename F>
void check_four(const F* r4, Quad exact) {
  const F inf = std::numeric_limits<F>::infinity();
  const F rn = r4[0], rz = r4[1], ru = r4[2], rd = r4[3];
  CHECK(Quad(rd) <= exact);
  CHECK(Quad(std::nextafter(rd, inf)) > exact);
  CHECK(Quad(ru) >= exact);
  CHECK(Quad(std::nextafter(ru, -inf)) < exact);
  CHECK(rz == (exact >= 0 ? rd : ru));
  const Quad mid = (Quad(rd) + Quad(ru)) / 2;
  if (rd == ru) CHECK(rn == rd);
  else if (exact != mid) CHECK(rn == (exact < mid ? rd : ru));
  else CHECK(even_last_bit(rn));
}

TEST_CASE("integer to float and double conversions in each rounding direction",
          "[math][rounding]") {
  if (!hip_test::kernels_supported()) return;
  std::vector<long long> v = {0,
                              1,
                              -1,
                              16777217,
                              -16777217,
                              16777219,
                              (1LL << 53) + 1,
                              -((1LL << 53) + 3),
                              LLONG_MAX,
                              LLONG_MIN,
                              INT_MAX,
                              INT_MIN,
                              0x7fffffbfLL,
                              -0x7fffffbfLL};
  std::mt19937_64 gen(4);
  for (int i = 0; i < 300; ++i) v.push_back(static_cast<long long>(gen() >> (gen() % 64)));
  const int n = static_cast<int>(v.size());
  DeviceArray<long long> in(v);
  DeviceArray<float> f(16 * v.size());
  DeviceArray<double> d(10 * v.size());
  HIP_LAUNCH_CHECK(int_conversions, grid_for(v.size()), dim3(kBlock), 0, 0, in.get(), f.get(),
                   d.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  const std::vector<float> fr = f.read();
  const std::vector<double> dr = d.read();
  for (int i = 0; i < n; ++i) {
    const long long x = v[i];
    INFO("value " << x);
    check_four(&fr[16 * i], Quad(x));
    check_four(&fr[16 * i + 4], Quad(static_cast<unsigned long long>(x)));
    check_four(&fr[16 * i + 8], Quad(static_cast<int>(x)));
    check_four(&fr[16 * i + 12], Quad(static_cast<unsigned>(x)));
    check_four(&dr[10 * i], Quad(x));
    check_four(&dr[10 * i + 4], Quad(static_cast<unsigned long long>(x)));
    CHECK(dr[10 * i + 8] == static_cast<int>(x));
    CHECK(dr[10 * i + 9] == static_cast<unsigned>(x));
  }
}

__global__ void float_conversions(const double* in, float* f, long long* w, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const double x = in[i];
  const float y = static_cast<float>(x);
  float* o = f + 4 * i;
  o[0] = __double2float_rn(x);
  o[1] = __double2float_rz(x);
  o[2] = __double2float_ru(x);
  o[3] = __double2float_rd(x);
  long long* r = w + 32 * i;
  r[0] = __double2int_rn(x);
  r[1] = __double2int_rz(x);
  r[2] = __double2int_ru(x);
  r[3] = __double2int_rd(x);
  r[4] = __double2uint_rn(x);
  r[5] = __double2uint_rz(x);
  r[6] = __double2uint_ru(x);
  r[7] = __double2uint_rd(x);
  r[8] = __double2ll_rn(x);
  r[9] = __double2ll_rz(x);
  r[10] = __double2ll_ru(x);
  r[11] = __double2ll_rd(x);
  r[12] = static_cast<long long>(__double2ull_rn(x));
  r[13] = static_cast<long long>(__double2ull_rz(x));
  r[14] = static_cast<long long>(__double2ull_ru(x));
  r[15] = static_cast<long long>(__double2ull_rd(x));
  r[16] = __float2int_rn(y);
  r[17] = __float2int_rz(y);
  r[18] = __float2int_ru(y);
  r[19] = __float2int_rd(y);
  r[20] = __float2uint_rn(y);
  r[21] = __float2uint_rz(y);
  r[22] = __float2uint_ru(y);
  r[23] = __float2uint_rd(y);
  r[24] = __float2ll_rn(y);
  r[25] = __float2ll_rz(y);
  r[26] = __float2ll_ru(y);
  r[27] = __float2ll_rd(y);
  r[28] = static_cast<long long>(__float2ull_rn(y));
  r[29] = static_cast<long long>(__float2ull_rz(y));
  r[30] = static_cast<long long>(__float2ull_ru(y));
  r[31] = static_cast<long long>(__float2ull_rd(y));
}

// The GPU's conversion: the integer nearest `rounded` within [lo, hi]; NaN gives 0.
long long clamp_to(long double rounded, long double lo, long double hi) {
  if (std::isnan(rounded)) return 0;
  if (rounded < lo) rounded = lo;
  if (rounded > hi) rounded = hi;
  return rounded > static_cast<long double>(LLONG_MAX)
           ? static_cast<long long>(static_cast<unsigned long long>(rounded))
           : static_cast<long long>(rounded);
}

TEST_CASE("double to float, and float and double to integers, in each rounding direction",
          "[math][rounding]") {
  if (!hip_test::kernels_supported()) return;
  using L = std::numeric_limits<double>;
  std::vector<double> v = {0.0,
                           -0.0,
                           0.5,
                           1.5,
                           2.5,
                           -0.5,
                           -1.5,
                           -2.5,
                           0.49999999999999994,
                           1.0 / 3,
                           -2.0 / 3,
                           1e-40,
                           -1e-40,
                           1e39,
                           -1e39,
                           2147483647.5,
                           2147483648.0,
                           -2147483648.5,
                           4294967295.5,
                           4294967296.0,
                           9.3e18,
                           -9.3e18,
                           1.9e19,
                           L::infinity(),
                           -L::infinity(),
                           L::quiet_NaN(),
                           L::denorm_min(),
                           L::max(),
                           16777217.0,
                           3.4028235677973366e38};
  std::mt19937 gen(8);
  for (int i = 0; i < 300; ++i) {
    const double m = std::exp2(std::uniform_real_distribution<double>(-30, 66)(gen));
    v.push_back(gen() & 1 ? m : -m);
  }
  const int n = static_cast<int>(v.size());
  DeviceArray<double> in(v);
  DeviceArray<float> f(4 * v.size());
  DeviceArray<long long> w(32 * v.size());
  HIP_LAUNCH_CHECK(float_conversions, grid_for(v.size()), dim3(kBlock), 0, 0, in.get(), f.get(),
                   w.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  const std::vector<float> fr = f.read();
  const std::vector<long long> wr = w.read();
  for (int i = 0; i < n; ++i) {
    const double x = v[i];
    INFO("value " << x);
    const float* r4 = &fr[4 * i];
    if (std::isnan(x)) {
      for (int m = 0; m < 4; ++m) CHECK(std::isnan(r4[m]));
    } else if (std::isinf(x) || std::fabs(x) > std::numeric_limits<float>::max()) {
      // Beyond float's range: the infinity in its direction and in nearest, else the largest float.
      const float big = std::numeric_limits<float>::max(),
                  inf = std::numeric_limits<float>::infinity();
      const bool up = x > 0;
      CHECK(r4[0] == std::copysign(inf, x));  // every such input is at least FLT_MAX + ulp/2
      CHECK(r4[1] == (std::isinf(x) ? std::copysign(inf, x) : std::copysign(big, x)));
      CHECK(r4[2] == (up ? inf : (std::isinf(x) ? -inf : -big)));
      CHECK(r4[3] == (up ? (std::isinf(x) ? inf : big) : -inf));
    } else {
      check_four(r4, Quad(x));
    }
    const float y = static_cast<float>(x);
    for (int part = 0; part < 2; ++part) {
      const long double src = part == 0 ? static_cast<long double>(x) : static_cast<long double>(y);
      const long double nearest = std::isfinite(src) && std::fabs(src - std::trunc(src)) == 0.5L
                                    ? 2 * std::round(src / 2)
                                    : std::round(src);
      const long double rounded[4] = {nearest, std::trunc(src), std::ceil(src), std::floor(src)};
      const long double bounds[4][2] = {
          {INT_MIN, INT_MAX}, {0, UINT_MAX}, {LLONG_MIN, LLONG_MAX}, {0, ULLONG_MAX}};
      for (int type = 0; type < 4; ++type)
        for (int m = 0; m < 4; ++m) {
          INFO("source " << (part ? "float" : "double") << ", integer type " << type << ", mode "
                         << m);
          CHECK(wr[32 * i + 16 * part + 4 * type + m] ==
                clamp_to(rounded[m], bounds[type][0], bounds[type][1]));
        }
    }
  }
}

}  // namespace

// ---- the GPU layers' software directed rounding ----
// hip/weft/round_from_nearest.h builds the AMDGPU layer's __fadd_rd & co. from nearest results
// and exact residuals (no AMD GPU here to run them on). Plain C++: on the host it must agree,
// bit for bit, with the host's own directed operations, which run with the FPU's mode switched
// (hip/weft/device_math.h): random bit patterns (subnormals, infinities, NaN), values near 1,
// and doubles whose products, quotients and roots fall in or near the subnormal range.

template <typename F>
bool same_bits(F x, F y) {
  return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
}

template <typename F>
std::vector<F> software_rounding_values(std::mt19937_64& gen) {
  using L = std::numeric_limits<F>;
  using Bits = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  std::vector<F> v = {
      F(0),     -F(0),    L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(),
      L::min(), L::max(), -L::max(),     F(1),           F(-3),          L::epsilon()};
  for (int i = 0; i < 120; ++i) {
    const Bits bits = static_cast<Bits>(gen());
    F x;
    std::memcpy(&x, &bits, sizeof x);
    v.push_back(x);
    v.push_back(F(1) + F(gen() % 1000) * L::epsilon());
  }
  return v;
}

struct SoftwareRoundingCheck {
  size_t checks = 0, mismatches = 0;
  std::string first;
  template <typename F>
  void expect(const char* what, int mode, double x, double y, F got, F want) {
    ++checks;
    if (same_bits(got, want)) return;
    if (mismatches++ == 0)
      first = std::string(what) + " mode " + std::to_string(mode) + " of " + std::to_string(x) +
              ", " + std::to_string(y) + ": " + std::to_string(got) + " instead of " +
              std::to_string(want);
  }
};

// The four results {_rn, _rz, _ru, _rd} of a host function family, in rfn's mode order.
#define FOUR(f, ...) \
  { f##_rn(__VA_ARGS__), f##_rz(__VA_ARGS__), f##_ru(__VA_ARGS__), f##_rd(__VA_ARGS__) }

struct HostFloat {
  static std::array<float, 4> add(float x, float y) { return FOUR(__fadd, x, y); }
  static std::array<float, 4> sub(float x, float y) { return FOUR(__fsub, x, y); }
  static std::array<float, 4> mul(float x, float y) { return FOUR(__fmul, x, y); }
  static std::array<float, 4> div(float x, float y) { return FOUR(__fdiv, x, y); }
  static std::array<float, 4> sqrt(float x) { return FOUR(__fsqrt, x); }
};
struct HostDouble {
  static std::array<double, 4> add(double x, double y) { return FOUR(__dadd, x, y); }
  static std::array<double, 4> sub(double x, double y) { return FOUR(__dsub, x, y); }
  static std::array<double, 4> mul(double x, double y) { return FOUR(__dmul, x, y); }
  static std::array<double, 4> div(double x, double y) { return FOUR(__ddiv, x, y); }
  static std::array<double, 4> sqrt(double x) { return FOUR(__dsqrt, x); }
};

template <typename F>
void check_software_rounding(SoftwareRoundingCheck& s, std::mt19937_64& gen) {
  namespace rfn = weft::rfn;
  using Host = std::conditional_t<sizeof(F) == 4, HostFloat, HostDouble>;
  const std::vector<F> v = software_rounding_values<F>(gen);
  for (F x : v) {
    for (F y : v) {
      const auto add = Host::add(x, y), sub = Host::sub(x, y), mul = Host::mul(x, y),
                 div = Host::div(x, y);
      for (int m = 0; m < 4; ++m) {  // rfn's modes: nearest, toward zero, up, down
        s.expect("add", m, x, y, rfn::add(x, y, m), add[m]);
        s.expect("sub", m, x, y, rfn::add(x, -y, m), sub[m]);
        s.expect("mul", m, x, y, rfn::mul(x, y, m), mul[m]);
        s.expect("div", m, x, y, rfn::div(x, y, m), div[m]);
      }
      if constexpr (sizeof(F) == 4) {
        const float z = v[gen() % v.size()];
        const float fma[4] = FOUR(__fmaf, x, y, z);
        for (int m = 0; m < 4; ++m) s.expect("fma", m, x, y, rfn::fma(x, y, z, m), fma[m]);
      }
    }
    const auto root = Host::sqrt(x);
    for (int m = 0; m < 4; ++m) s.expect("sqrt", m, x, x, rfn::sqrt(x, m), root[m]);
  }
}

TEST_CASE("the GPU layers' software directed rounding matches the host's FPU", "[math][rounding]") {
  SoftwareRoundingCheck s;
  std::mt19937_64 gen(31);
  check_software_rounding<float>(s, gen);
  check_software_rounding<double>(s, gen);
  // Doubles where a product, quotient or root underflows (the residuals' scaled paths).
  auto scaled = [&gen](int lo, int span) {
    return std::ldexp(1.0 + static_cast<double>(gen() >> 12) * 0x1p-52,
                      lo + static_cast<int>(gen() % span));
  };
  for (int i = 0; i < 20000; ++i) {
    const double a = scaled(-600, 200) * (gen() & 1 ? -1 : 1), b = scaled(-530, 200),
                 big = scaled(400, 200), tiny = scaled(-1074, 120);
    const double mul[4] = FOUR(__dmul, a, b);
    const double quo[4] = FOUR(__ddiv, a, big);
    const double sub[4] = FOUR(__ddiv, tiny, b);
    const double root[4] = FOUR(__dsqrt, tiny);
    for (int m = 0; m < 4; ++m) {
      s.expect("mul", m, a, b, weft::rfn::mul(a, b, m), mul[m]);
      s.expect("div", m, a, big, weft::rfn::div(a, big, m), quo[m]);
      s.expect("div", m, tiny, b, weft::rfn::div(tiny, b, m), sub[m]);
      s.expect("sqrt", m, tiny, tiny, weft::rfn::sqrt(tiny, m), root[m]);
    }
  }
  // Conversions.
  for (int i = 0; i < 20000; ++i) {
    const long long x = static_cast<long long>(gen()) >> (gen() % 63);
    const unsigned long long u = gen() >> (gen() % 64);
    const int w = static_cast<int>(gen()) >> (gen() % 31);
    const unsigned uw = static_cast<unsigned>(gen()) >> (gen() % 32);
    const double d = i % 2 ? scaled(-160, 320) : std::bit_cast<double>(gen());
    const float ll2f[4] = FOUR(__ll2float, x);
    const float ull2f[4] = FOUR(__ull2float, u);
    const double ll2d[4] = FOUR(__ll2double, x);
    const double ull2d[4] = FOUR(__ull2double, u);
    const float i2f[4] = FOUR(__int2float, w);
    const float u2f[4] = FOUR(__uint2float, uw);
    const float d2f[4] = FOUR(__double2float, d);
    for (int m = 0; m < 4; ++m) {
      s.expect("ll2float", m, double(x), 0, weft::rfn::from_int64<float>(x, m), ll2f[m]);
      s.expect("ull2float", m, double(u), 0, weft::rfn::from_uint64<float>(u, m), ull2f[m]);
      s.expect("ll2double", m, double(x), 0, weft::rfn::from_int64<double>(x, m), ll2d[m]);
      s.expect("ull2double", m, double(u), 0, weft::rfn::from_uint64<double>(u, m), ull2d[m]);
      s.expect("int2float", m, w, 0, weft::rfn::to_float(w, m), i2f[m]);
      s.expect("uint2float", m, uw, 0, weft::rfn::to_float(uw, m), u2f[m]);
      s.expect("double2float", m, d, 0, weft::rfn::to_float(d, m), d2f[m]);
    }
  }
  INFO(s.checks << " results compared; first difference: " << s.first);
  REQUIRE(s.checks > 1000000);
  REQUIRE(s.mismatches == 0);
}
#undef FOUR
