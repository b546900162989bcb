// SPDX-License-Identifier: MIT
// Integer and bit intrinsics (__popc, __clz, __ffs, __brev, __byte_perm, __funnelshift_*,
// __bitextract/__bitinsert, __fns, __hadd, __sad, __mul24, __mulhi, __mul64hi, ...), type
// punning, and HIP's math constants, run in kernels against bit-by-bit host references.
#include "math_test.hpp"

#include <hip/hip_math_constants.h>

namespace {

using math_test::DeviceArray;
using math_test::grid_for;
using math_test::kBlock;

constexpr int kResults = 40;

__global__ void integer_ops(const unsigned long long* a, const unsigned long long* b,
                            unsigned long long* out, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const unsigned long long x = a[i], y = b[i];
  const unsigned ux = static_cast<unsigned>(x), uy = static_cast<unsigned>(y),
                 uz = static_cast<unsigned>(x >> 32);
  const int sx = static_cast<int>(ux), sy = static_cast<int>(uy);
  unsigned long long* o = out + kResults * i;
  int k = 0;
  o[k++] = static_cast<unsigned long long>(__popc(ux));
  o[k++] = static_cast<unsigned long long>(__popcll(x));
  o[k++] = static_cast<unsigned long long>(__clz(sx));
  o[k++] = static_cast<unsigned long long>(__clzll(static_cast<long long>(x)));
  o[k++] = static_cast<unsigned long long>(__ffs(sx));
  o[k++] = static_cast<unsigned long long>(__ffsll(static_cast<long long>(x)));
  o[k++] = __brev(ux);
  o[k++] = __brevll(x);
  o[k++] = __byte_perm(ux, uy, uz);
  o[k++] = __funnelshift_l(ux, uy, uz);
  o[k++] = __funnelshift_lc(ux, uy, uz & 63);
  o[k++] = __funnelshift_r(ux, uy, uz);
  o[k++] = __funnelshift_rc(ux, uy, uz & 63);
  o[k++] = __bitextract_u32(ux, uz, uz >> 8);
  o[k++] = __bitextract_u64(x, uz, uz >> 8);
  o[k++] = __bitinsert_u32(ux, uy, uz, uz >> 8);
  o[k++] = __bitinsert_u64(x, y, uz, uz >> 8);
  o[k++] = static_cast<unsigned long long>(
      static_cast<long long>(__fns64(x, uz & 63, static_cast<int>(uz >> 8) % 5 - 2)));
  o[k++] = __lastbit_u32_u32(ux);
  o[k++] = __lastbit_u32_u64(x);
  o[k++] = static_cast<unsigned long long>(static_cast<long long>(__hadd(sx, sy)));
  o[k++] = static_cast<unsigned long long>(static_cast<long long>(__rhadd(sx, sy)));
  o[k++] = __uhadd(ux, uy);
  o[k++] = __urhadd(ux, uy);
  o[k++] = __sad(sx, sy, uz);
  o[k++] = __usad(ux, uy, uz);
  o[k++] = static_cast<unsigned long long>(static_cast<long long>(__mul24(sx, sy)));
  o[k++] = __umul24(ux, uy);
  o[k++] = static_cast<unsigned long long>(static_cast<long long>(__mulhi(sx, sy)));
  o[k++] = __umulhi(ux, uy);
  o[k++] = static_cast<unsigned long long>(
      __mul64hi(static_cast<long long>(x), static_cast<long long>(y)));
  o[k++] = __umul64hi(x, y);
  o[k++] = static_cast<unsigned>(__float_as_int(__uint_as_float(ux)));
  o[k++] = __float_as_uint(__int_as_float(sx));
  o[k++] = static_cast<unsigned long long>(
      __double_as_longlong(__longlong_as_double(static_cast<long long>(x))));
  o[k++] = static_cast<unsigned>(__double2hiint(__longlong_as_double(static_cast<long long>(x))));
  o[k++] = static_cast<unsigned>(__double2loint(__longlong_as_double(static_cast<long long>(x))));
  o[k++] = static_cast<unsigned long long>(
      __double_as_longlong(__hiloint2double(static_cast<int>(uz), sx)));
}

// ---- host references, bit by bit ----
unsigned bit(unsigned long long v, unsigned i) { return static_cast<unsigned>(v >> i & 1); }
unsigned long long popcount(unsigned long long v) {
  unsigned long long c = 0;
  for (unsigned i = 0; i < 64; ++i) c += bit(v, i);
  return c;
}
unsigned long long leading_zeros(unsigned long long v, unsigned width) {
  unsigned long long c = 0;
  for (unsigned i = width; i-- > 0 && !bit(v, i);) ++c;
  return c;
}
unsigned long long first_set(unsigned long long v, unsigned width) {  // 1-based, 0 if none
  for (unsigned i = 0; i < width; ++i)
    if (bit(v, i)) return i + 1;
  return 0;
}
unsigned long long reverse(unsigned long long v, unsigned width) {
  unsigned long long r = 0;
  for (unsigned i = 0; i < width; ++i)
    r |= static_cast<unsigned long long>(bit(v, i)) << (width - 1 - i);
  return r;
}
long long floor_half(long long v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }
std::vector<unsigned long long> reference(unsigned long long x, unsigned long long y) {
  const unsigned ux = static_cast<unsigned>(x), uy = static_cast<unsigned>(y),
                 uz = static_cast<unsigned>(x >> 32);
  const int sx = static_cast<int>(ux), sy = static_cast<int>(uy);
  const auto u64 = [](long long v) { return static_cast<unsigned long long>(v); };
  std::vector<unsigned long long> r;
  r.push_back(popcount(ux));
  r.push_back(popcount(x));
  r.push_back(leading_zeros(ux, 32));
  r.push_back(leading_zeros(x, 64));
  r.push_back(first_set(ux, 32));
  r.push_back(first_set(x, 64));
  r.push_back(reverse(ux, 32));
  r.push_back(reverse(x, 64));
  unsigned perm = 0;  // byte i: byte (uz >> 4i) & 7 of y:x
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned sel = (uz >> (4 * i)) & 7;
    const unsigned byte = sel < 4 ? (ux >> (8 * sel)) & 0xff : (uy >> (8 * (sel - 4))) & 0xff;
    perm |= byte << (8 * i);
  }
  r.push_back(perm);
  const auto funnel_left = [&](unsigned s) {  // bits of hi:lo, shifted left by s, top 32
    unsigned out = 0;
    for (unsigned i = 0; i < 32; ++i) {
      const int src = static_cast<int>(i + 32) - static_cast<int>(s);
      const unsigned b =
          src < 0 ? 0 : (src < 32 ? bit(ux, unsigned(src)) : bit(uy, unsigned(src - 32)));
      out |= b << i;
    }
    return out;
  };
  const auto funnel_right = [&](unsigned s) {
    unsigned out = 0;
    for (unsigned i = 0; i < 32; ++i) {
      const unsigned src = i + s;
      const unsigned b = src < 32 ? bit(ux, src) : (src < 64 ? bit(uy, src - 32) : 0);
      out |= b << i;
    }
    return out;
  };
  r.push_back(funnel_left(uz % 32));
  r.push_back(funnel_left(std::min(uz & 63, 32u)));
  r.push_back(funnel_right(uz % 32));
  r.push_back(funnel_right(std::min(uz & 63, 32u)));
  const auto extract = [](unsigned long long src, unsigned off, unsigned width) {
    unsigned long long out = 0;
    for (unsigned i = 0; i < width && off + i < 64; ++i)
      out |= static_cast<unsigned long long>(bit(src, off + i)) << i;
    return out;
  };
  r.push_back(extract(ux, uz % 32, (uz >> 8) % 32));
  r.push_back(extract(x, uz % 64, (uz >> 8) % 64));
  const auto insert = [](unsigned long long base, unsigned long long ins, unsigned off,
                         unsigned width, unsigned size) {
    for (unsigned i = 0; i < width && off + i < size; ++i) {
      base &= ~(1ull << (off + i));
      base |= static_cast<unsigned long long>(bit(ins, i)) << (off + i);
    }
    return base;
  };
  r.push_back(insert(ux, uy, uz % 32, (uz >> 8) % 32, 32));
  r.push_back(insert(x, y, uz % 64, (uz >> 8) % 64, 64));
  {  // __fns64: the offset-th set bit from base, up (offset > 0) or down (< 0); base itself for 0
    const unsigned base = uz & 63;
    const int offset = static_cast<int>(uz >> 8) % 5 - 2;
    long long found = -1;
    if (offset == 0) found = bit(x, base) ? static_cast<long long>(base) : -1;
    int count = 0;
    if (offset > 0)
      for (int b = static_cast<int>(base); b < 64 && found < 0; ++b)
        if (bit(x, unsigned(b)) && ++count == offset) found = b;
    if (offset < 0)
      for (int b = static_cast<int>(base); b >= 0 && found < 0; --b)
        if (bit(x, unsigned(b)) && ++count == -offset) found = b;
    r.push_back(u64(found));
  }
  r.push_back(ux == 0 ? 0xffffffffu : first_set(ux, 32) - 1);
  r.push_back(x == 0 ? 0xffffffffu : first_set(x, 64) - 1);
  const long long sum = static_cast<long long>(sx) + sy;
  r.push_back(u64(floor_half(sum)));
  r.push_back(u64(floor_half(sum + 1)));
  r.push_back((static_cast<unsigned long long>(ux) + uy) / 2);
  r.push_back((static_cast<unsigned long long>(ux) + uy + 1) / 2);
  r.push_back(static_cast<unsigned>(std::llabs(static_cast<long long>(sx) - sy) + uz));
  r.push_back(static_cast<unsigned>(std::llabs(static_cast<long long>(ux) - uy) + uz));
  const auto sext24 = [](unsigned v) {
    return (v & 0x800000) ? static_cast<long long>(v & 0xffffff) - 0x1000000
                          : static_cast<long long>(v & 0xffffff);
  };
  r.push_back(u64(static_cast<int>(static_cast<unsigned>(sext24(ux) * sext24(uy)))));
  r.push_back(static_cast<unsigned>((ux & 0xffffffull) * (uy & 0xffffffull)));
  r.push_back(u64(static_cast<int>((static_cast<long long>(sx) * sy) >> 32)));
  r.push_back((static_cast<unsigned long long>(ux) * uy) >> 32);
  // 64x64 high halves from 32-bit limbs.
  const auto high64 = [](unsigned long long p, unsigned long long q) {
    const unsigned long long p0 = p & 0xffffffff, p1 = p >> 32, q0 = q & 0xffffffff, q1 = q >> 32;
    const unsigned long long mid =
        (p0 * q0 >> 32) + (p1 * q0 & 0xffffffff) + (p0 * q1 & 0xffffffff);
    return p1 * q1 + (p1 * q0 >> 32) + (p0 * q1 >> 32) + (mid >> 32);
  };
  unsigned long long shigh =
      high64(x, y);  // signed: subtract the other operand where one is negative
  if (static_cast<long long>(x) < 0) shigh -= y;
  if (static_cast<long long>(y) < 0) shigh -= x;
  r.push_back(shigh);
  r.push_back(high64(x, y));
  r.push_back(ux);
  r.push_back(ux);
  r.push_back(x);
  r.push_back(uz);
  r.push_back(ux);
  r.push_back((static_cast<unsigned long long>(uz) << 32) | ux);
  return r;
}

TEST_CASE("integer and bit intrinsics match bit-by-bit references", "[math][integer]") {
  if (!hip_test::kernels_supported()) return;
  std::vector<unsigned long long> a = {0,
                                       ~0ull,
                                       1,
                                       1ull << 63,
                                       0x8000000080000000ull,
                                       0x00000000ffffffffull,
                                       0x7fffffff7fffffffull,
                                       0x0123456789abcdefull,
                                       0x0000201f00000000ull};
  std::vector<unsigned long long> b = {0,
                                       ~0ull,
                                       ~0ull,
                                       1ull << 63,
                                       0x80000000ull,
                                       0x7fffffffull,
                                       0x7fffffffull,
                                       0xfedcba9876543210ull,
                                       0xffffffffull};
  std::mt19937_64 gen(17);
  for (int i = 0; i < 500; ++i) {
    a.push_back(gen() >> (gen() % 8 * 8));
    b.push_back(gen() >> (gen() % 8 * 8));
  }
  const int n = static_cast<int>(a.size());
  DeviceArray<unsigned long long> da(a), db(b), out(kResults * a.size());
  HIP_LAUNCH_CHECK(integer_ops, grid_for(a.size()), dim3(kBlock), 0, 0, da.get(), db.get(),
                   out.get(), n);
  HIP_CHECK(hipDeviceSynchronize());
  const std::vector<unsigned long long> got = out.read();
  const char* const names[] = {"__popc",
                               "__popcll",
                               "__clz",
                               "__clzll",
                               "__ffs",
                               "__ffsll",
                               "__brev",
                               "__brevll",
                               "__byte_perm",
                               "__funnelshift_l",
                               "__funnelshift_lc",
                               "__funnelshift_r",
                               "__funnelshift_rc",
                               "__bitextract_u32",
                               "__bitextract_u64",
                               "__bitinsert_u32",
                               "__bitinsert_u64",
                               "__fns64",
                               "__lastbit_u32_u32",
                               "__lastbit_u32_u64",
                               "__hadd",
                               "__rhadd",
                               "__uhadd",
                               "__urhadd",
                               "__sad",
                               "__usad",
                               "__mul24",
                               "__umul24",
                               "__mulhi",
                               "__umulhi",
                               "__mul64hi",
                               "__umul64hi",
                               "__float_as_int",
                               "__float_as_uint",
                               "__double_as_longlong",
                               "__double2hiint",
                               "__double2loint",
                               "__hiloint2double"};
  for (int i = 0; i < n; ++i) {
    const std::vector<unsigned long long> want = reference(a[i], b[i]);
    for (size_t k = 0; k < want.size(); ++k) {
      INFO(names[k] << " with x = " << std::hex << a[i] << ", y = " << b[i]);
      CHECK(got[kResults * i + k] == want[k]);
    }
  }
}

__global__ void constants(float* f, double* d) {
  f[0] = HIP_PI_F;
  f[1] = HIP_INF_F;
  f[2] = HIP_NAN_F;
  f[3] = HIP_SQRT_TWO_F;
  f[4] = HIP_LN2_F;
  f[5] = HIP_MIN_DENORM_F;
  f[6] = HIP_NEG_ZERO_F;
  f[7] = HIP_L2E_F;
  f[8] = HIP_SQRT_HALF_LO_F;
  d[0] = HIP_PI;
  d[1] = HIP_PI_LO;
  d[2] = HIP_INF;
  d[3] = HIP_NAN;
  d[4] = HIP_SQRT_TWO;
  d[5] = HIP_LN2_LO;
  d[6] = HIP_LNT;
  d[7] = HIP_SQRT_2PI;
  d[8] = HIP_LN2_X_1024;
  d[9] = HIP_TWO_TO_M1022;
}

template <typename To, typename From>
To bits(From v) {
  To out;
  std::memcpy(&out, &v, sizeof out);
  return out;
}

TEST_CASE("hip_math_constants.h values", "[math][constants]") {
  if (!hip_test::kernels_supported()) return;
  DeviceArray<float> f(9);
  DeviceArray<double> d(10);
  HIP_LAUNCH_CHECK(constants, dim3(1), dim3(1), 0, 0, f.get(), d.get());
  HIP_CHECK(hipDeviceSynchronize());
  const std::vector<float> fv = f.read();
  const std::vector<double> dv = d.read();
  const long double pi = std::acos(-1.0L);
  CHECK(fv[0] == static_cast<float>(pi));
  CHECK(bits<uint32_t>(fv[1]) == 0x7f800000u);
  CHECK(bits<uint32_t>(fv[2]) == 0x7fffffffu);
  CHECK(fv[3] == static_cast<float>(std::sqrt(2.0L)));
  CHECK(fv[4] == static_cast<float>(std::log(2.0L)));
  CHECK(bits<uint32_t>(fv[5]) == 1u);
  CHECK(bits<uint32_t>(fv[6]) == 0x80000000u);
  CHECK(fv[7] == static_cast<float>(1 / std::log(2.0L)));
  CHECK(fv[8] == static_cast<float>(std::sqrt(0.5L) - static_cast<float>(std::sqrt(0.5L))));
  CHECK(dv[0] == static_cast<double>(pi));
  CHECK(dv[1] ==
        Approx(static_cast<double>(pi - dv[0])).epsilon(1e-3));  // long double holds 11 bits of it
  CHECK(bits<uint64_t>(dv[2]) == 0x7ff0000000000000ull);
  CHECK(bits<uint64_t>(dv[3]) == 0xfff8000000000000ull);
  CHECK(dv[4] == static_cast<double>(std::sqrt(2.0L)));
  CHECK(dv[5] == Approx(static_cast<double>(std::log(2.0L) - std::log(2.0))).epsilon(1e-3));
  CHECK(dv[6] == static_cast<double>(std::log(10.0L)));
  CHECK(dv[7] == static_cast<double>(std::sqrt(2 * pi)));
  CHECK(dv[8] == Approx(1024 * std::log(2.0)).epsilon(1e-15));
  CHECK(dv[9] == std::numeric_limits<double>::min());
}

}  // namespace
