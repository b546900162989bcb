/* SPDX-License-Identifier: MIT */
/* weft: the CUDA-style short vector types (char1 ... double4) and their make_* helpers.
 *
 * Size and alignment follow AMD's HIP: an N-component vector of T has size N*sizeof(T) and
 * alignment N*sizeof(T) for N = 1, 2, 4, while 3-component vectors are packed (alignment of T).
 * In C the types are plain structs. In C++ they also get value_type, constructors (explicit
 * broadcast of one scalar, one value per component) and AMD's component-wise operators:
 * + - * / with compound forms, unary + - ++ --, == and != (a bool: all components equal), each
 * binary one also with a scalar on either side (the scalar is broadcast), and % & | ^ << >> ~
 * for integer element types. */
#ifndef HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H
#define HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H

// Host and device functions under clang's HIP mode (a no-op for g++).
#include <hip/hip_common.h>
#include <hip/weft/device/hd_begin.h>

#if defined(__GNUC__) || defined(__clang__)
#define WEFT_VEC_ALIGN_(n) __attribute__((aligned(n)))
#else
#define WEFT_VEC_ALIGN_(n)
#endif

#ifdef __cplusplus
#include <type_traits>
#define WEFT_VEC_HD_ __host__ __device__
#define WEFT_VEC_ARITH_T_(A) typename std::enable_if<std::is_arithmetic<A>::value, int>::type = 0

/* C++ members (none of them changes the layout): value_type, the tag the operators below
 * recognise, a trivial default constructor, an explicit broadcast of one scalar (as AMD's) and
 * one value per component. */
#define WEFT_VEC_MEMBERS_(N, T)            \
  using value_type = T;                    \
  using weft_vector_tag = void;            \
  N() = default;                           \
  template <class A, WEFT_VEC_ARITH_T_(A)> \
  WEFT_VEC_HD_ constexpr explicit N(A a)
#define WEFT_VEC_CTORS1_(N, T) \
  WEFT_VEC_MEMBERS_(N, T) : x(static_cast<T>(a)) {}
#define WEFT_VEC_CTORS2_(N, T)                                            \
  WEFT_VEC_MEMBERS_(N, T) : x(static_cast<T>(a)), y(static_cast<T>(a)) {} \
  template <class A, class B>                                             \
  WEFT_VEC_HD_ constexpr N(A a, B b) : x(static_cast<T>(a)), y(static_cast<T>(b)) {}
#define WEFT_VEC_CTORS3_(N, T)                                                                  \
  WEFT_VEC_MEMBERS_(N, T) : x(static_cast<T>(a)), y(static_cast<T>(a)), z(static_cast<T>(a)) {} \
  template <class A, class B, class C>                                                          \
  WEFT_VEC_HD_ constexpr N(A a, B b, C c)                                                       \
      : x(static_cast<T>(a)), y(static_cast<T>(b)), z(static_cast<T>(c)) {}
#define WEFT_VEC_CTORS4_(N, T)                                                                    \
  WEFT_VEC_MEMBERS_(N, T)                                                                         \
      : x(static_cast<T>(a)), y(static_cast<T>(a)), z(static_cast<T>(a)), w(static_cast<T>(a)) {} \
  template <class A, class B, class C, class D>                                                   \
  WEFT_VEC_HD_ constexpr N(A a, B b, C c, D d)                                                    \
      : x(static_cast<T>(a)), y(static_cast<T>(b)), z(static_cast<T>(c)), w(static_cast<T>(d)) {}
#else
#define WEFT_VEC_CTORS1_(N, T)
#define WEFT_VEC_CTORS2_(N, T)
#define WEFT_VEC_CTORS3_(N, T)
#define WEFT_VEC_CTORS4_(N, T)
#endif

#define WEFT_VEC_DECL1_(N, T)                   \
  typedef struct WEFT_VEC_ALIGN_(sizeof(T)) N { \
    T x;                                        \
    WEFT_VEC_CTORS1_(N, T)                      \
  } N;
#define WEFT_VEC_DECL2_(N, T)                       \
  typedef struct WEFT_VEC_ALIGN_(2 * sizeof(T)) N { \
    T x;                                            \
    T y;                                            \
    WEFT_VEC_CTORS2_(N, T)                          \
  } N;
#define WEFT_VEC_DECL3_(N, T)                   \
  typedef struct WEFT_VEC_ALIGN_(sizeof(T)) N { \
    T x;                                        \
    T y;                                        \
    T z;                                        \
    WEFT_VEC_CTORS3_(N, T)                      \
  } N;
#define WEFT_VEC_DECL4_(N, T)                       \
  typedef struct WEFT_VEC_ALIGN_(4 * sizeof(T)) N { \
    T x;                                            \
    T y;                                            \
    T z;                                            \
    T w;                                            \
    WEFT_VEC_CTORS4_(N, T)                          \
  } N;

/* make_<name>N(...) builds a vector from its components, in C and C++. */
#define WEFT_VEC_MAKE1_(N, T)                         \
  static inline __host__ __device__ N make_##N(T x) { \
    N r;                                              \
    r.x = x;                                          \
    return r;                                         \
  }
#define WEFT_VEC_MAKE2_(N, T)                              \
  static inline __host__ __device__ N make_##N(T x, T y) { \
    N r;                                                   \
    r.x = x;                                               \
    r.y = y;                                               \
    return r;                                              \
  }
#define WEFT_VEC_MAKE3_(N, T)                                   \
  static inline __host__ __device__ N make_##N(T x, T y, T z) { \
    N r;                                                        \
    r.x = x;                                                    \
    r.y = y;                                                    \
    r.z = z;                                                    \
    return r;                                                   \
  }
#define WEFT_VEC_MAKE4_(N, T)                                        \
  static inline __host__ __device__ N make_##N(T x, T y, T z, T w) { \
    N r;                                                             \
    r.x = x;                                                         \
    r.y = y;                                                         \
    r.z = z;                                                         \
    r.w = w;                                                         \
    return r;                                                        \
  }

#ifdef __cplusplus
/* The operators are templates over every vector type (recognised by weft_vector_tag), as
 * AMD's are: a non-template overload for one type wins over them, which is how hip_complex.h
 * makes hipFloatComplex * hipFloatComplex a complex product under both implementations. A
 * scalar operand has type value_type (not deduced), so any arithmetic scalar converts to it. */
namespace weft {
namespace detail {
template <class V, class = void>
struct is_vector : std::false_type {};
template <class V>
struct is_vector<V, std::void_t<typename V::weft_vector_tag>> : std::true_type {};
template <class V>
using if_vector = typename std::enable_if<is_vector<V>::value, int>::type;
template <class V, class = void>
struct is_integer_vector : std::false_type {};
template <class V>
struct is_integer_vector<V, std::void_t<typename V::weft_vector_tag>>
    : std::is_integral<typename V::value_type> {};
template <class V>
using if_integer_vector = typename std::enable_if<is_integer_vector<V>::value, int>::type;

/* 3-component vectors are packed, the others have no padding: size / element size is the rank. */
template <class V>
constexpr int vector_rank = static_cast<int>(sizeof(V) / sizeof(typename V::value_type));

template <class V, class F>
WEFT_VEC_HD_ constexpr V map(const V& a, F f) {
  using T = typename V::value_type;
  V r = a;
  r.x = static_cast<T>(f(a.x));
  if constexpr (vector_rank < V >> 1) r.y = static_cast<T>(f(a.y));
  if constexpr (vector_rank < V >> 2) r.z = static_cast<T>(f(a.z));
  if constexpr (vector_rank < V >> 3) r.w = static_cast<T>(f(a.w));
  return r;
}
template <class V, class F>
WEFT_VEC_HD_ constexpr V zip(const V& a, const V& b, F f) {
  using T = typename V::value_type;
  V r = a;
  r.x = static_cast<T>(f(a.x, b.x));
  if constexpr (vector_rank < V >> 1) r.y = static_cast<T>(f(a.y, b.y));
  if constexpr (vector_rank < V >> 2) r.z = static_cast<T>(f(a.z, b.z));
  if constexpr (vector_rank < V >> 3) r.w = static_cast<T>(f(a.w, b.w));
  return r;
}
template <class V>
WEFT_VEC_HD_ constexpr bool all_equal(const V& a, const V& b) {
  bool same = a.x == b.x;
  if constexpr (vector_rank < V >> 1) same = same && a.y == b.y;
  if constexpr (vector_rank < V >> 2) same = same && a.z == b.z;
  if constexpr (vector_rank < V >> 3) same = same && a.w == b.w;
  return same;
}
}  // namespace detail
}  // namespace weft

/* V op V, V op scalar, scalar op V, V op= V and V op= scalar, for vectors that pass `enable`.
 * Each is computed here, component by component, never through another operator, so that an
 * overload hip_complex.h adds for one form (complex V * V) leaves the others (V * scalar) as
 * AMD's. */
#define WEFT_VEC_BINARY_(op, enable)                                                  \
  template <class V, ::weft::detail::enable<V> = 0>                                   \
  inline WEFT_VEC_HD_ constexpr V operator op(const V& a, const V& b) {               \
    return ::weft::detail::zip(a, b, [](auto p, auto q) { return p op q; });          \
  }                                                                                   \
  template <class V, ::weft::detail::enable<V> = 0>                                   \
  inline WEFT_VEC_HD_ constexpr V operator op(const V& a, typename V::value_type s) { \
    return ::weft::detail::zip(a, V(s), [](auto p, auto q) { return p op q; });       \
  }                                                                                   \
  template <class V, ::weft::detail::enable<V> = 0>                                   \
  inline WEFT_VEC_HD_ constexpr V operator op(typename V::value_type s, const V& b) { \
    return ::weft::detail::zip(V(s), b, [](auto p, auto q) { return p op q; });       \
  }                                                                                   \
  template <class V, ::weft::detail::enable<V> = 0>                                   \
  inline WEFT_VEC_HD_ constexpr V& operator op##=(V& a, const V& b) {                 \
    return a = ::weft::detail::zip(a, b, [](auto p, auto q) { return p op q; });      \
  }                                                                                   \
  template <class V, ::weft::detail::enable<V> = 0>                                   \
  inline WEFT_VEC_HD_ constexpr V& operator op##=(V& a, typename V::value_type s) {   \
    return a = ::weft::detail::zip(a, V(s), [](auto p, auto q) { return p op q; });   \
  }
#define WEFT_VEC_UNARY_(op, enable)                             \
  template <class V, ::weft::detail::enable<V> = 0>             \
  inline WEFT_VEC_HD_ constexpr V operator op(const V& a) {     \
    return ::weft::detail::map(a, [](auto p) { return op p; }); \
  }

WEFT_VEC_BINARY_(+, if_vector)
WEFT_VEC_BINARY_(-, if_vector)
WEFT_VEC_BINARY_(*, if_vector)
WEFT_VEC_BINARY_(/, if_vector)
WEFT_VEC_BINARY_(%, if_integer_vector)
WEFT_VEC_BINARY_(&, if_integer_vector)
WEFT_VEC_BINARY_(|, if_integer_vector)
WEFT_VEC_BINARY_(^, if_integer_vector)
WEFT_VEC_BINARY_(<<, if_integer_vector)
WEFT_VEC_BINARY_(>>, if_integer_vector)
WEFT_VEC_UNARY_(+, if_vector)
WEFT_VEC_UNARY_(-, if_vector)
WEFT_VEC_UNARY_(~, if_integer_vector)

template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr V& operator++(V& a) {
  return a += typename V::value_type(1);
}
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr V& operator--(V& a) {
  return a -= typename V::value_type(1);
}
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr V operator++(V& a, int) {
  V old = a;
  ++a;
  return old;
}
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr V operator--(V& a, int) {
  V old = a;
  --a;
  return old;
}

/* Equality is one bool for the whole vector (every component equal), as AMD's. */
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr bool operator==(const V& a, const V& b) {
  return ::weft::detail::all_equal(a, b);
}
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr bool operator==(const V& a, typename V::value_type s) {
  return ::weft::detail::all_equal(a, V(s));
}
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr bool operator==(typename V::value_type s, const V& b) {
  return ::weft::detail::all_equal(V(s), b);
}
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr bool operator!=(const V& a, const V& b) {
  return !::weft::detail::all_equal(a, b);
}
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr bool operator!=(const V& a, typename V::value_type s) {
  return !::weft::detail::all_equal(a, V(s));
}
template <class V, ::weft::detail::if_vector<V> = 0>
inline WEFT_VEC_HD_ constexpr bool operator!=(typename V::value_type s, const V& b) {
  return !::weft::detail::all_equal(V(s), b);
}

#undef WEFT_VEC_UNARY_
#undef WEFT_VEC_BINARY_
#endif

/* One element type: four ranks and their make_* helpers. */
// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
#define WEFT_VEC_FAMILY_(base, T, MT)                                \
  WEFT_VEC_DECL1_(base##1, T) WEFT_VEC_DECL2_(base##2, T)            \
  WEFT_VEC_DECL3_(base##3, T) WEFT_VEC_DECL4_(base##4, T)            \
  WEFT_VEC_MAKE1_(base##1, MT) WEFT_VEC_MAKE2_(base##2, MT)          \
  WEFT_VEC_MAKE3_(base##3, MT) WEFT_VEC_MAKE4_(base##4, MT)
// clang-format on

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif

WEFT_VEC_FAMILY_(char, char, signed char)
WEFT_VEC_FAMILY_(uchar, unsigned char, unsigned char)
WEFT_VEC_FAMILY_(short, short, short)
WEFT_VEC_FAMILY_(ushort, unsigned short, unsigned short)
WEFT_VEC_FAMILY_(int, int, int)
WEFT_VEC_FAMILY_(uint, unsigned int, unsigned int)
WEFT_VEC_FAMILY_(long, long, long)
WEFT_VEC_FAMILY_(ulong, unsigned long, unsigned long)
WEFT_VEC_FAMILY_(longlong, long long, long long)
WEFT_VEC_FAMILY_(ulonglong, unsigned long long, unsigned long long)
WEFT_VEC_FAMILY_(float, float, float)
WEFT_VEC_FAMILY_(double, double, double)

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#include <hip/weft/device/hd_end.h>

#endif /* HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H */
