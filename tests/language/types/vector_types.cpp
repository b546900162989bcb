// SPDX-License-Identifier: MIT
// Every vector type's operators against the same operation done component by component on the
// host, with vectors and with scalars on either side; make_*; value_type; and vectors used in a
// kernel.
#include "hip_test.hpp"

#include <type_traits>

namespace {

template <class V>
constexpr int rank_of = static_cast<int>(sizeof(V) / sizeof(typename V::value_type));

template <class V>
typename V::value_type& comp(V& v, int i) {
  if constexpr (rank_of < V >> 3)
    if (i == 3) return v.w;
  if constexpr (rank_of < V >> 2)
    if (i == 2) return v.z;
  if constexpr (rank_of < V >> 1)
    if (i == 1) return v.y;
  return v.x;
}
template <class V>
typename V::value_type comp(const V& v, int i) {
  return comp(const_cast<V&>(v), i);
}

// Components chosen so that no operation overflows, divides by zero or shifts too far, for
// every element type: a > b > 0, b is a valid shift count.
template <class V>
V value_a() {
  V v{};
  const int values[4] = {9, 6, 12, 5};
  for (int i = 0; i < rank_of<V>; ++i) comp(v, i) = static_cast<typename V::value_type>(values[i]);
  return v;
}
template <class V>
V value_b() {
  V v{};
  const int values[4] = {2, 3, 4, 1};
  for (int i = 0; i < rank_of<V>; ++i) comp(v, i) = static_cast<typename V::value_type>(values[i]);
  return v;
}

// Checks r == f(a_i, b_i) in every component, f computed on the element type.
template <class V, class F>
void require_zip(const V& r, const V& a, const V& b, F f) {
  using T = typename V::value_type;
  for (int i = 0; i < rank_of<V>; ++i) {
    INFO("component " << i);
    REQUIRE(comp(r, i) == static_cast<T>(f(comp(a, i), comp(b, i))));
  }
}

template <class V>
V broadcast(typename V::value_type s) {
  V v{};
  for (int i = 0; i < rank_of<V>; ++i) comp(v, i) = s;
  return v;
}

#define CHECK_BINARY(op)                            \
  do {                                              \
    INFO("operator " #op);                          \
    auto f = [](auto p, auto q) { return p op q; }; \
    require_zip(V(a op b), a, b, f);                \
    require_zip(V(a op s), a, broadcast<V>(s), f);  \
    require_zip(V(s op b), broadcast<V>(s), b, f);  \
    V c = a;                                        \
    c op## = b;                                     \
    require_zip(c, a, b, f);                        \
    c = a;                                          \
    c op## = s;                                     \
    require_zip(c, a, broadcast<V>(s), f);          \
  } while (0)

template <class V>
void check_common_operators() {
  using T = typename V::value_type;
  const V a = value_a<V>(), b = value_b<V>();
  const T s = static_cast<T>(3);
  CHECK_BINARY(+);
  CHECK_BINARY(-);
  CHECK_BINARY(*);
  CHECK_BINARY(/);

  auto neg = [](auto p, auto) { return -p; };
  require_zip(V(-a), a, a, neg);
  require_zip(V(+a), a, a, [](auto p, auto) { return p; });

  V c = a;
  REQUIRE(c++ == a);
  require_zip(c, a, a, [](auto p, auto) { return p + 1; });
  REQUIRE(--c == a);
  require_zip(++c, a, a, [](auto p, auto) { return p + 1; });
  REQUIRE(c-- != a);
  REQUIRE(c == a);

  // Equality is over all components; one differing component makes the vectors unequal.
  REQUIRE(a == a);
  REQUIRE_FALSE(a != a);
  for (int i = 0; i < rank_of<V>; ++i) {
    V d = a;
    comp(d, i) = static_cast<T>(comp(d, i) + 1);
    REQUIRE_FALSE(a == d);
    REQUIRE(a != d);
  }
  REQUIRE(broadcast<V>(s) == s);
  REQUIRE(s == broadcast<V>(s));
  REQUIRE_FALSE(a == s);
  REQUIRE(a != s);
  REQUIRE(s != a);

  // Broadcast construction from any arithmetic type, and a mixed-type scalar operand.
  REQUIRE(V(3) == broadcast<V>(s));
  REQUIRE(V(3.0) == broadcast<V>(s));
  REQUIRE(V(3ull) == broadcast<V>(s));
  require_zip(V(a * 2.0), a, broadcast<V>(static_cast<T>(2)), [](auto p, auto q) { return p * q; });
  require_zip(V(1 + a), broadcast<V>(static_cast<T>(1)), a, [](auto p, auto q) { return p + q; });
}

template <class V>
void check_integer_operators() {
  using T = typename V::value_type;
  const V a = value_a<V>(), b = value_b<V>();
  const T s = static_cast<T>(3);
  CHECK_BINARY(%);
  CHECK_BINARY(&);
  CHECK_BINARY(|);
  CHECK_BINARY(^);
  CHECK_BINARY(<<);
  CHECK_BINARY(>>);
  require_zip(V(~a), a, a, [](auto p, auto) { return ~p; });
}

template <class V>
struct element_is_integer : std::is_integral<typename V::value_type> {};

template <class V, class T>
void check_type() {
  STATIC_REQUIRE(std::is_same<typename V::value_type, T>::value);
  STATIC_REQUIRE(std::is_trivially_copyable<V>::value);
  STATIC_REQUIRE(std::is_constructible<V, unsigned char>::value);
  STATIC_REQUIRE(std::is_constructible<V, double>::value);
  // As AMD's: the broadcast constructor is explicit.
  STATIC_REQUIRE_FALSE(std::is_convertible<T, V>::value);
  check_common_operators<V>();
  if constexpr (element_is_integer<V>::value) check_integer_operators<V>();
}

#define CHECK_FAMILY(base, T)                      \
  SECTION(#base "1") { check_type<base##1, T>(); } \
  SECTION(#base "2") { check_type<base##2, T>(); } \
  SECTION(#base "3") { check_type<base##3, T>(); } \
  SECTION(#base "4") { check_type<base##4, T>(); }

}  // namespace

TEST_CASE("language_types_vector_operators_match_componentwise_host_results"){
    CHECK_FAMILY(char, char) CHECK_FAMILY(uchar, unsigned char) CHECK_FAMILY(short, short)
        CHECK_FAMILY(ushort, unsigned short) CHECK_FAMILY(int, int) CHECK_FAMILY(uint, unsigned int)
            CHECK_FAMILY(long, long) CHECK_FAMILY(ulong, unsigned long)
                CHECK_FAMILY(longlong, long long) CHECK_FAMILY(ulonglong, unsigned long long)
                    CHECK_FAMILY(float, float) CHECK_FAMILY(double, double)}

TEST_CASE("language_types_vector_make_and_component_constructors") {
  const float4 f = make_float4(1.5f, -2.0f, 3.25f, 4.0f);
  REQUIRE((f.x == 1.5f && f.y == -2.0f && f.z == 3.25f && f.w == 4.0f));
  REQUIRE(f == float4(1.5f, -2.0, 3.25f, 4));
  const char3 c = make_char3(-1, 2, -3);
  REQUIRE((c.x == -1 && c.y == 2 && c.z == -3));
  const ulonglong2 u = make_ulonglong2(~0ull, 7);
  REQUIRE((u.x == ~0ull && u.y == 7));
  REQUIRE(make_uint1(5).x == 5u);
  REQUIRE(make_double3(0.5, 1, 2) == double3(0.5, 1.0, 2.0));
  REQUIRE(make_short4(1, 2, 3, 4) == short4(1, 2, 3, 4));
}

namespace {
__global__ void vector_kernel(const float4* a, const int3* b, float4* fout, int3* iout) {
  unsigned i = threadIdx.x + blockIdx.x * blockDim.x;
  float4 f = a[i] * 2.0f + float4(1);
  f -= a[i] / 4;
  fout[i] = -f;
  int3 k = b[i];
  k <<= 2;
  iout[i] = (k ^ b[i]) % 7 + ~b[i];
}
}  // namespace

TEST_CASE("language_types_vector_operators_in_a_kernel") {
  if (!hip_test::kernels_supported()) return;
  constexpr unsigned n = 256;
  std::vector<float4> a(n);
  std::vector<int3> b(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = make_float4(float(i), 0.5f * float(i), -float(i), 3.0f);
    b[i] = make_int3(int(i), int(i) + 100, int(i) * 3);  // non-negative: shifted left
  }
  hip_test::DeviceBuffer<float4> da(n), dfo(n);
  hip_test::DeviceBuffer<int3> db(n), dio(n);
  HIP_CHECK(hipMemcpy(da.get(), a.data(), da.bytes(), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db.get(), b.data(), db.bytes(), hipMemcpyHostToDevice));
  HIP_LAUNCH_CHECK(vector_kernel, dim3(n / 64), dim3(64), 0, 0, da.get(), db.get(), dfo.get(),
                   dio.get());
  std::vector<float4> fo(n);
  std::vector<int3> io(n);
  HIP_CHECK(hipMemcpy(fo.data(), dfo.get(), dfo.bytes(), hipMemcpyDeviceToHost));
  HIP_CHECK(hipMemcpy(io.data(), dio.get(), dio.bytes(), hipMemcpyDeviceToHost));
  for (unsigned i = 0; i < n; ++i) {
    for (int c = 0; c < 4; ++c) {
      float x = comp(a[i], c);
      float expected = -((x * 2.0f + 1.0f) - x / 4.0f);
      REQUIRE(comp(fo[i], c) == expected);
    }
    for (int c = 0; c < 3; ++c) {
      int x = comp(b[i], c);
      int expected = ((x * 4) ^ x) % 7 + ~x;
      REQUIRE(comp(io[i], c) == expected);
    }
  }
}
