/* SPDX-License-Identifier: MIT */
/* weft: the CUDA-style short vector types (char1 ... double4) and their make_* helpers.
 *
 * Size and alignment follow AMD's HIP: an N-component vector of T has size N*sizeof(T) and
 * alignment N*sizeof(T) for N = 1, 2, 4, while 3-component vectors are packed (alignment of T).
 * In C the types are plain structs. In C++ they also get constructors and component-wise
 * operators (arithmetic for all, bitwise/shift/modulo for integer element types). */
#ifndef HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H
#define HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H

#include <hip/hip_common.h>

#if defined(__GNUC__) || defined(__clang__)
#define WEFT_VEC_ALIGN_(n) __attribute__((aligned(n)))
#else
#define WEFT_VEC_ALIGN_(n)
#endif

#ifdef __cplusplus
#include <type_traits>
#define WEFT_VEC_HD_ __host__ __device__
#define WEFT_VEC_ARITH_T_(A) typename std::enable_if<std::is_arithmetic<A>::value, int>::type = 0

/* Constructors: default (trivial), scalar broadcast and one value per component. */
#define WEFT_VEC_CTORS1_(N, T) \
  N() = default;               \
  template <class A, WEFT_VEC_ARITH_T_(A)> \
  WEFT_VEC_HD_ constexpr N(A a) : x(static_cast<T>(a)) {}
#define WEFT_VEC_CTORS2_(N, T)                                                         \
  N() = default;                                                                       \
  template <class A, WEFT_VEC_ARITH_T_(A)>                                             \
  WEFT_VEC_HD_ constexpr explicit N(A a) : x(static_cast<T>(a)), y(static_cast<T>(a)) {} \
  template <class A, class B>                                                          \
  WEFT_VEC_HD_ constexpr N(A a, B b) : x(static_cast<T>(a)), y(static_cast<T>(b)) {}
#define WEFT_VEC_CTORS3_(N, T)                                                       \
  N() = default;                                                                     \
  template <class A, WEFT_VEC_ARITH_T_(A)>                                           \
  WEFT_VEC_HD_ constexpr explicit N(A a)                                             \
      : x(static_cast<T>(a)), y(static_cast<T>(a)), z(static_cast<T>(a)) {}          \
  template <class A, class B, class C>                                               \
  WEFT_VEC_HD_ constexpr N(A a, B b, C c)                                            \
      : x(static_cast<T>(a)), y(static_cast<T>(b)), z(static_cast<T>(c)) {}
#define WEFT_VEC_CTORS4_(N, T)                                                          \
  N() = default;                                                                        \
  template <class A, WEFT_VEC_ARITH_T_(A)>                                              \
  WEFT_VEC_HD_ constexpr explicit N(A a)                                                \
      : x(static_cast<T>(a)), y(static_cast<T>(a)), z(static_cast<T>(a)),               \
        w(static_cast<T>(a)) {}                                                         \
  template <class A, class B, class C, class D>                                         \
  WEFT_VEC_HD_ constexpr N(A a, B b, C c, D d)                                          \
      : x(static_cast<T>(a)), y(static_cast<T>(b)), z(static_cast<T>(c)),               \
        w(static_cast<T>(d)) {}
#else
#define WEFT_VEC_CTORS1_(N, T)
#define WEFT_VEC_CTORS2_(N, T)
#define WEFT_VEC_CTORS3_(N, T)
#define WEFT_VEC_CTORS4_(N, T)
#endif

#define WEFT_VEC_DECL1_(N, T)            \
  typedef struct WEFT_VEC_ALIGN_(sizeof(T)) N { \
    T x;                                 \
    WEFT_VEC_CTORS1_(N, T)               \
  } N;
#define WEFT_VEC_DECL2_(N, T)                \
  typedef struct WEFT_VEC_ALIGN_(2 * sizeof(T)) N { \
    T x;                                     \
    T y;                                     \
    WEFT_VEC_CTORS2_(N, T)                   \
  } N;
#define WEFT_VEC_DECL3_(N, T)            \
  typedef struct WEFT_VEC_ALIGN_(sizeof(T)) N { \
    T x;                                 \
    T y;                                 \
    T z;                                 \
    WEFT_VEC_CTORS3_(N, T)               \
  } N;
#define WEFT_VEC_DECL4_(N, T)                \
  typedef struct WEFT_VEC_ALIGN_(4 * sizeof(T)) N { \
    T x;                                     \
    T y;                                     \
    T z;                                     \
    T w;                                     \
    WEFT_VEC_CTORS4_(N, T)                   \
  } N;

/* make_<name>N(...) builds a vector from its components, in C and C++. */
#define WEFT_VEC_MAKE1_(N, T) \
  static inline __host__ __device__ N make_##N(T x) { N r; r.x = x; return r; }
#define WEFT_VEC_MAKE2_(N, T)                                   \
  static inline __host__ __device__ N make_##N(T x, T y) {      \
    N r;                                                        \
    r.x = x;                                                    \
    r.y = y;                                                    \
    return r;                                                   \
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
/* Component-wise expressions for each rank: V op V, V op scalar, scalar op V. */
#define WEFT_VEC_VV1_(N, op) N(a.x op b.x)
#define WEFT_VEC_VV2_(N, op) N(a.x op b.x, a.y op b.y)
#define WEFT_VEC_VV3_(N, op) N(a.x op b.x, a.y op b.y, a.z op b.z)
#define WEFT_VEC_VV4_(N, op) N(a.x op b.x, a.y op b.y, a.z op b.z, a.w op b.w)
#define WEFT_VEC_VS1_(N, op) N(a.x op s)
#define WEFT_VEC_VS2_(N, op) N(a.x op s, a.y op s)
#define WEFT_VEC_VS3_(N, op) N(a.x op s, a.y op s, a.z op s)
#define WEFT_VEC_VS4_(N, op) N(a.x op s, a.y op s, a.z op s, a.w op s)
#define WEFT_VEC_SV1_(N, op) N(s op b.x)
#define WEFT_VEC_SV2_(N, op) N(s op b.x, s op b.y)
#define WEFT_VEC_SV3_(N, op) N(s op b.x, s op b.y, s op b.z)
#define WEFT_VEC_SV4_(N, op) N(s op b.x, s op b.y, s op b.z, s op b.w)
#define WEFT_VEC_UN1_(N, op) N(op a.x)
#define WEFT_VEC_UN2_(N, op) N(op a.x, op a.y)
#define WEFT_VEC_UN3_(N, op) N(op a.x, op a.y, op a.z)
#define WEFT_VEC_UN4_(N, op) N(op a.x, op a.y, op a.z, op a.w)
#define WEFT_VEC_EQ1_ (a.x == b.x)
#define WEFT_VEC_EQ2_ (a.x == b.x && a.y == b.y)
#define WEFT_VEC_EQ3_ (a.x == b.x && a.y == b.y && a.z == b.z)
#define WEFT_VEC_EQ4_ (a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w)

#define WEFT_VEC_BINOP_(R, N, T, op, opeq)                                                \
  inline WEFT_VEC_HD_ N operator op(const N& a, const N& b) { return WEFT_VEC_VV##R##_(N, op); } \
  inline WEFT_VEC_HD_ N operator op(const N& a, T s) { return WEFT_VEC_VS##R##_(N, op); }        \
  inline WEFT_VEC_HD_ N operator op(T s, const N& b) { return WEFT_VEC_SV##R##_(N, op); }        \
  inline WEFT_VEC_HD_ N& operator opeq(N& a, const N& b) { return a = a op b; }                  \
  inline WEFT_VEC_HD_ N& operator opeq(N& a, T s) { return a = a op s; }

#define WEFT_VEC_OPS_(R, N, T)                                                              \
  WEFT_VEC_BINOP_(R, N, T, +, +=)                                                          \
  WEFT_VEC_BINOP_(R, N, T, -, -=)                                                          \
  WEFT_VEC_BINOP_(R, N, T, *, *=)                                                          \
  WEFT_VEC_BINOP_(R, N, T, /, /=)                                                          \
  inline WEFT_VEC_HD_ N operator-(const N& a) { return WEFT_VEC_UN##R##_(N, -); }          \
  inline WEFT_VEC_HD_ N operator+(const N& a) { return a; }                                 \
  inline WEFT_VEC_HD_ bool operator==(const N& a, const N& b) { return WEFT_VEC_EQ##R##_; } \
  inline WEFT_VEC_HD_ bool operator!=(const N& a, const N& b) { return !(a == b); }        \
  inline WEFT_VEC_HD_ N& operator++(N& a) { return a += static_cast<T>(1); }               \
  inline WEFT_VEC_HD_ N& operator--(N& a) { return a -= static_cast<T>(1); }               \
  inline WEFT_VEC_HD_ N operator++(N& a, int) { N t = a; a += static_cast<T>(1); return t; } \
  inline WEFT_VEC_HD_ N operator--(N& a, int) { N t = a; a -= static_cast<T>(1); return t; }

#define WEFT_VEC_INT_OPS_(R, N, T)                                                 \
  WEFT_VEC_BINOP_(R, N, T, %, %=)                                                 \
  WEFT_VEC_BINOP_(R, N, T, &, &=)                                                 \
  WEFT_VEC_BINOP_(R, N, T, |, |=)                                                 \
  WEFT_VEC_BINOP_(R, N, T, ^, ^=)                                                 \
  WEFT_VEC_BINOP_(R, N, T, <<, <<=)                                               \
  WEFT_VEC_BINOP_(R, N, T, >>, >>=)                                               \
  inline WEFT_VEC_HD_ N operator~(const N& a) { return WEFT_VEC_UN##R##_(N, ~); }
#else
#define WEFT_VEC_OPS_(R, N, T)
#define WEFT_VEC_INT_OPS_(R, N, T)
#endif

/* One element type: four ranks, their make_* helpers and operators. */
#define WEFT_VEC_FAMILY_(base, T, MT, EXTRA)                                              \
  WEFT_VEC_DECL1_(base##1, T) WEFT_VEC_DECL2_(base##2, T)                                 \
  WEFT_VEC_DECL3_(base##3, T) WEFT_VEC_DECL4_(base##4, T)                                 \
  WEFT_VEC_MAKE1_(base##1, MT) WEFT_VEC_MAKE2_(base##2, MT)                               \
  WEFT_VEC_MAKE3_(base##3, MT) WEFT_VEC_MAKE4_(base##4, MT)                               \
  WEFT_VEC_OPS_(1, base##1, T) WEFT_VEC_OPS_(2, base##2, T)                               \
  WEFT_VEC_OPS_(3, base##3, T) WEFT_VEC_OPS_(4, base##4, T)                               \
  EXTRA(1, base##1, T) EXTRA(2, base##2, T) EXTRA(3, base##3, T) EXTRA(4, base##4, T)

#define WEFT_VEC_NO_EXTRA_(R, N, T)

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#endif

WEFT_VEC_FAMILY_(char, char, signed char, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(uchar, unsigned char, unsigned char, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(short, short, short, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(ushort, unsigned short, unsigned short, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(int, int, int, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(uint, unsigned int, unsigned int, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(long, long, long, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(ulong, unsigned long, unsigned long, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(longlong, long long, long long, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(ulonglong, unsigned long long, unsigned long long, WEFT_VEC_INT_OPS_)
WEFT_VEC_FAMILY_(float, float, float, WEFT_VEC_NO_EXTRA_)
WEFT_VEC_FAMILY_(double, double, double, WEFT_VEC_NO_EXTRA_)

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif /* HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H */
