// SPDX-License-Identifier: MIT
// Every atomic overload (each element type, each scope, mixed-type calls as hipcc resolves them,
// the __hip_atomic_* builtins), contended by many GPU threads of many blocks (blocks run on
// several CPU workers at once); every result exact against the same operations done on the host.
#include "hip_test.hpp"

#include <limits>
#include <type_traits>

namespace {

constexpr unsigned kBlocks = 64, kThreads = 128, kN = kBlocks * kThreads;

// Overload resolution as with AMD's non-template overloads: the value converts to the pointee.
static_assert(
    std::is_same<decltype(atomicAdd(static_cast<unsigned*>(nullptr), 1)), unsigned>::value);
static_assert(std::is_same<decltype(atomicAdd(static_cast<float*>(nullptr), 1.0)), float>::value);
static_assert(
    std::is_same<decltype(atomicMax(static_cast<long long*>(nullptr), 1)), long long>::value);
static_assert(std::is_same<decltype(atomicSub_block(static_cast<unsigned long*>(nullptr), 1)),
                           unsigned long>::value);
static_assert(std::is_same<decltype(atomicCAS_system(static_cast<double*>(nullptr), 0, 1.0f)),
                           double>::value);

// A spread of values per thread: negative ones for signed types and floating point.
// The helpers are __host__ __device__: every_op calls them in kernels (clang's HIP
// mode, weftcc, rejects host functions there), host_result on the host.
template <class T>
__host__ __device__ T key(unsigned tid) {
  long long k = static_cast<long long>((tid * 7919ull) % 10007);
  if constexpr (std::is_signed<T>::value || std::is_floating_point<T>::value) k -= 5003;
  return static_cast<T>(k);
}
template <class T>
__host__ __device__ T small(unsigned tid) {
  return static_cast<T>(tid % 13 + 1);
}
// Bit patterns are built unsigned (no shift into a sign bit), then converted.
template <class T>
__host__ __device__ T and_mask(unsigned tid) {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned bits = sizeof(T) * 8;
  return tid % 97 == 0 ? static_cast<T>(static_cast<U>(~(U(1) << (tid / 97 % bits))))
                       : static_cast<T>(~U(0));
}
template <class T>
__host__ __device__ T or_bit(unsigned tid) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U(1) << (tid % 29 % (sizeof(T) * 8)));
}

// Slot [0] takes the default scope, [1] _block, [2] _system.
template <class T>
struct Slots {
  T add[3], sub[3], min[3], max[3], band[3], bor[3], bxor[3], cas[3], exch;
};

template <class T>
Slots<T> initial_slots() {
  Slots<T> s{};
  for (int k = 0; k < 3; ++k) {
    s.add[k] = T(5);
    s.sub[k] = std::is_signed<T>::value || std::is_floating_point<T>::value ? T(0) : T(1000000);
    s.min[k] = T(20000);
    s.max[k] = std::is_signed<T>::value || std::is_floating_point<T>::value ? T(-20000) : T(0);
    if constexpr (std::is_integral<T>::value) {
      s.band[k] = static_cast<T>(~std::make_unsigned_t<T>(0));
      s.bor[k] = T(0);
      s.bxor[k] = static_cast<T>(0x5a);
    }
    s.cas[k] = T(0);
  }
  s.exch = T(0);
  return s;
}

// The same operations, one thread after another.
template <class T>
Slots<T> host_result() {
  Slots<T> s = initial_slots<T>();
  for (unsigned tid = 0; tid < kN; ++tid)
    for (int k = 0; k < 3; ++k) {
      s.add[k] = static_cast<T>(s.add[k] + small<T>(tid));
      s.sub[k] = static_cast<T>(s.sub[k] - small<T>(tid));
      s.min[k] = std::min(s.min[k], key<T>(tid));
      s.max[k] = std::max(s.max[k], key<T>(tid));
      if constexpr (std::is_integral<T>::value) {
        s.band[k] = static_cast<T>(s.band[k] & and_mask<T>(tid));
        s.bor[k] = static_cast<T>(s.bor[k] | or_bit<T>(tid));
        s.bxor[k] = static_cast<T>(s.bxor[k] ^ key<T>(tid));
      }
      s.cas[k] = static_cast<T>(s.cas[k] + 1);
    }
  return s;
}

template <class T, class Cas>
__host__ __device__ void cas_increment(T* p, Cas cas) {
  T assumed = T(0);
  for (;;) {
    T old = cas(p, assumed, static_cast<T>(assumed + 1));
    if (old == assumed) return;
    assumed = old;
  }
}

#define EVERY_SCOPE(op, slot, ...)        \
  do {                                    \
    op(&(slot)[0], __VA_ARGS__);          \
    op##_block(&(slot)[1], __VA_ARGS__);  \
    op##_system(&(slot)[2], __VA_ARGS__); \
  } while (0)

template <class T>
__device__ void every_op(Slots<T>* s, T* exch_old) {
  const unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  EVERY_SCOPE(atomicAdd, s->add, small<T>(tid));
  EVERY_SCOPE(atomicSub, s->sub, small<T>(tid));
  EVERY_SCOPE(atomicMin, s->min, key<T>(tid));
  EVERY_SCOPE(atomicMax, s->max, key<T>(tid));
  if constexpr (std::is_integral<T>::value) {
    EVERY_SCOPE(atomicAnd, s->band, and_mask<T>(tid));
    EVERY_SCOPE(atomicOr, s->bor, or_bit<T>(tid));
    EVERY_SCOPE(atomicXor, s->bxor, key<T>(tid));
  }
  cas_increment(&s->cas[0], [](T* p, T c, T v) { return atomicCAS(p, c, v); });
  cas_increment(&s->cas[1], [](T* p, T c, T v) { return atomicCAS_block(p, c, v); });
  cas_increment(&s->cas[2], [](T* p, T c, T v) { return atomicCAS_system(p, c, v); });
  exch_old[tid] = atomicExch(&s->exch, static_cast<T>(tid + 1));
}

#define TYPE_KERNEL(name, T) \
  __global__ void name(Slots<T>* s, T* exch_old) { every_op<T>(s, exch_old); }
TYPE_KERNEL(ops_int, int)
TYPE_KERNEL(ops_uint, unsigned int)
TYPE_KERNEL(ops_ulong, unsigned long)
TYPE_KERNEL(ops_ulonglong, unsigned long long)
TYPE_KERNEL(ops_longlong, long long)
TYPE_KERNEL(ops_float, float)
TYPE_KERNEL(ops_double, double)

// `launch(slots, olds)` launches the type's kernel (a kernel name, not a pointer, goes to
// hipLaunchKernelGGL).
template <class T, class Launch>
void run_every_op(Launch launch) {
  hip_test::DeviceBuffer<Slots<T>> slots(1);
  hip_test::DeviceBuffer<T> olds(kN);
  const Slots<T> init = initial_slots<T>();
  HIP_CHECK(hipMemcpy(slots.get(), &init, sizeof init, hipMemcpyHostToDevice));
  launch(slots.get(), olds.get());
  HIP_CHECK(hipDeviceSynchronize());
  Slots<T> got;
  std::vector<T> old(kN);
  HIP_CHECK(hipMemcpy(&got, slots.get(), sizeof got, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(old.data(), olds.get(), olds.bytes(), hipMemcpyDeviceToHost));
  const Slots<T> want = host_result<T>();
  for (int k = 0; k < 3; ++k) {
    INFO("scope " << (k == 0 ? "default" : k == 1 ? "_block" : "_system"));
    CHECK(got.add[k] == want.add[k]);
    CHECK(got.sub[k] == want.sub[k]);
    CHECK(got.min[k] == want.min[k]);
    CHECK(got.max[k] == want.max[k]);
    CHECK(got.band[k] == want.band[k]);
    CHECK(got.bor[k] == want.bor[k]);
    CHECK(got.bxor[k] == want.bxor[k]);
    CHECK(got.cas[k] == want.cas[k]);
  }
  // Exchange: the values handed back plus the last one left are exactly the initial value
  // and every thread's value, each once.
  old.push_back(got.exch);
  std::sort(old.begin(), old.end());
  for (unsigned i = 0; i <= kN; ++i) REQUIRE(old[i] == static_cast<T>(i));
}

}  // namespace

TEST_CASE("language_types_atomics_every_type_and_scope_contended") {
  if (!hip_test::kernels_supported()) return;
#define RUN_EVERY_OP(T, kernel)                                                 \
  run_every_op<T>([](Slots<T>* slots, T* olds) {                                \
    HIP_LAUNCH_CHECK(kernel, dim3(kBlocks), dim3(kThreads), 0, 0, slots, olds); \
  })
  SECTION("int") { RUN_EVERY_OP(int, ops_int); }
  SECTION("unsigned int") { RUN_EVERY_OP(unsigned int, ops_uint); }
  SECTION("unsigned long") { RUN_EVERY_OP(unsigned long, ops_ulong); }
  SECTION("unsigned long long") { RUN_EVERY_OP(unsigned long long, ops_ulonglong); }
  SECTION("long long") { RUN_EVERY_OP(long long, ops_longlong); }
  SECTION("float") { RUN_EVERY_OP(float, ops_float); }
  SECTION("double") { RUN_EVERY_OP(double, ops_double); }
#undef RUN_EVERY_OP
}

namespace {

struct Counters {
  unsigned inc[3], dec[3];
  unsigned u_add_int, u_sub_int, u_or_int;
  unsigned long long ull_add_int;
  long long ll_max_int;
  unsigned long ul_min_uint;
  float f_add_double, f_unsafe, f_safe, f_noret, f_umax, f_smin;
  double d_add_float, d_unsafe, d_safe, d_umin, d_smax;
  int b_add, b_max, b_cas, b_exch_seen;
  unsigned b_or;
  float b_fadd;
  double b_dsub;
};

constexpr unsigned kIncLimit = 17, kDecLimit = 137;

__global__ void mixed_ops(Counters* c) {
  const unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
  EVERY_SCOPE(atomicInc, c->inc, kIncLimit);
  EVERY_SCOPE(atomicDec, c->dec, kDecLimit);
  atomicAdd(&c->u_add_int, -1);  // int -1 converts to 0xffffffff: a decrement, as under hipcc
  atomicSub(&c->u_sub_int, 2);
  atomicOr(&c->u_or_int, static_cast<int>(1u << (tid % 32)));
  atomicAdd(&c->ull_add_int, 3);
  atomicMax(&c->ll_max_int, key<int>(tid));
  atomicMin(&c->ul_min_uint, key<unsigned>(tid) + 7u);
  atomicAdd(&c->f_add_double, 0.5);  // double 0.5 converts to float
  unsafeAtomicAdd(&c->f_unsafe, 0.25f);
  safeAtomicAdd(&c->f_safe, 2.0f);
  atomicAddNoRet(&c->f_noret, 1.0f);
  unsafeAtomicMax(&c->f_umax, key<float>(tid));
  safeAtomicMin(&c->f_smin, key<float>(tid));
  atomicAdd(&c->d_add_float, 0.75f);
  unsafeAtomicAdd(&c->d_unsafe, 0.125);
  safeAtomicAdd(&c->d_safe, 4.0);
  unsafeAtomicMin(&c->d_umin, key<double>(tid));
  safeAtomicMax(&c->d_smax, key<double>(tid));
  // Clang's builtins with explicit order and scope.
  __hip_atomic_fetch_add(&c->b_add, 2, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __hip_atomic_fetch_max(&c->b_max, key<int>(tid), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_WORKGROUP);
  __hip_atomic_fetch_or(&c->b_or, 1u << (tid % 7), __ATOMIC_SEQ_CST, __HIP_MEMORY_SCOPE_SYSTEM);
  __hip_atomic_fetch_add(&c->b_fadd, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  __hip_atomic_fetch_sub(&c->b_dsub, 0.5, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  int expected = __hip_atomic_load(&c->b_cas, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  while (!__hip_atomic_compare_exchange_strong(&c->b_cas, &expected, expected + 1, __ATOMIC_ACQ_REL,
                                               __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)) {
  }
  if (tid == 0) __hip_atomic_store(&c->b_exch_seen, 41, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
}

__global__ void exchange_after(Counters* c, int* seen) {
  *seen = __hip_atomic_exchange(&c->b_exch_seen, 7, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT);
}

}  // namespace

TEST_CASE("language_types_atomics_mixed_types_inc_dec_fp_variants_and_builtins") {
  if (!hip_test::kernels_supported()) return;
  Counters init{};
  init.u_add_int = 3 * kN;
  init.u_sub_int = 5 * kN;
  init.ll_max_int = std::numeric_limits<long long>::min();
  init.ul_min_uint = ~0ul;
  init.f_umax = -1e9f;
  init.f_smin = 1e9f;
  init.d_umin = 1e9;
  init.d_smax = -1e9;
  init.b_max = std::numeric_limits<int>::min();
  init.b_dsub = 100.0;
  hip_test::DeviceBuffer<Counters> dc(1);
  hip_test::DeviceBuffer<int> seen(1);
  HIP_CHECK(hipMemcpy(dc.get(), &init, sizeof init, hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(mixed_ops, dim3(kBlocks), dim3(kThreads), 0, 0, dc.get());
  HIP_LAUNCH_CHECK(exchange_after, dim3(1), dim3(1), 0, 0, dc.get(), seen.get());
  Counters got;
  int seen_value = 0;
  HIP_CHECK(hipMemcpy(&got, dc.get(), sizeof got, hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(&seen_value, seen.get(), sizeof seen_value, hipMemcpyDeviceToHost));

  // Inc and Dec: the same function applied kN times, so the order does not matter.
  unsigned inc = 0, dec = 0;
  for (unsigned i = 0; i < kN; ++i) {
    inc = inc >= kIncLimit ? 0 : inc + 1;
    dec = (dec == 0 || dec > kDecLimit) ? kDecLimit : dec - 1;
  }
  for (int k = 0; k < 3; ++k) {
    CHECK(got.inc[k] == inc);
    CHECK(got.dec[k] == dec);
  }
  int key_max = std::numeric_limits<int>::min();
  unsigned key_min = ~0u;
  float fkey_max = -1e9f, fkey_min = 1e9f;
  unsigned bor = 0;
  for (unsigned tid = 0; tid < kN; ++tid) {
    key_max = std::max(key_max, key<int>(tid));
    key_min = std::min(key_min, key<unsigned>(tid) + 7u);
    fkey_max = std::max(fkey_max, key<float>(tid));
    fkey_min = std::min(fkey_min, key<float>(tid));
    bor |= 1u << (tid % 7);
  }
  CHECK(got.u_add_int == 2 * kN);
  CHECK(got.u_sub_int == 3 * kN);
  CHECK(got.u_or_int == ~0u);
  CHECK(got.ull_add_int == 3ull * kN);
  CHECK(got.ll_max_int == key_max);
  CHECK(got.ul_min_uint == key_min);
  // Sums of multiples of powers of two below 2^24: exact in any order.
  CHECK(got.f_add_double == 0.5f * kN);
  CHECK(got.f_unsafe == 0.25f * kN);
  CHECK(got.f_safe == 2.0f * kN);
  CHECK(got.f_noret == 1.0f * kN);
  CHECK(got.f_umax == fkey_max);
  CHECK(got.f_smin == fkey_min);
  CHECK(got.d_add_float == 0.75 * kN);
  CHECK(got.d_unsafe == 0.125 * kN);
  CHECK(got.d_safe == 4.0 * kN);
  CHECK(got.d_umin == static_cast<double>(fkey_min));
  CHECK(got.d_smax == static_cast<double>(fkey_max));
  CHECK(got.b_add == 2 * static_cast<int>(kN));
  CHECK(got.b_max == key_max);
  CHECK(got.b_or == bor);
  CHECK(got.b_fadd == 1.0f * kN);
  CHECK(got.b_dsub == 100.0 - 0.5 * kN);
  CHECK(got.b_cas == static_cast<int>(kN));
  CHECK(seen_value == 41);
  CHECK(got.b_exch_seen == 7);
}
