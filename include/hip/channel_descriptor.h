/* SPDX-License-Identifier: MIT */
/* weft: channel format descriptors for textures, surfaces and arrays.
 *
 * hipCreateChannelDesc(x, y, z, w, kind) is the exported C entry point. C++ code can also ask
 * for the descriptor of an element type: hipCreateChannelDesc<float4>() and so on, for the
 * scalar types and the vector types of <hip/hip_vector_types.h>. */
#ifndef HIP_INCLUDE_HIP_CHANNEL_DESCRIPTOR_H
#define HIP_INCLUDE_HIP_CHANNEL_DESCRIPTOR_H

#include <hip/driver_types.h>
#include <hip/hip_common.h>
#include <hip/hip_vector_types.h>

#ifdef __cplusplus
extern "C" {
#endif

HIP_PUBLIC_API hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w,
                                                         hipChannelFormatKind f);

#ifdef __cplusplus
} /* extern "C" */

/* 16-bit floats have no C++ type here; these name their descriptors. */
static inline hipChannelFormatDesc hipCreateChannelDescHalf() {
  return hipCreateChannelDesc(16, 0, 0, 0, hipChannelFormatKindFloat);
}
static inline hipChannelFormatDesc hipCreateChannelDescHalf1() {
  return hipCreateChannelDesc(16, 0, 0, 0, hipChannelFormatKindFloat);
}
static inline hipChannelFormatDesc hipCreateChannelDescHalf2() {
  return hipCreateChannelDesc(16, 16, 0, 0, hipChannelFormatKindFloat);
}
static inline hipChannelFormatDesc hipCreateChannelDescHalf4() {
  return hipCreateChannelDesc(16, 16, 16, 16, hipChannelFormatKindFloat);
}

/* Types without a channel layout get kind None and zero bits. */
template <typename T>
inline hipChannelFormatDesc hipCreateChannelDesc() {
  return hipCreateChannelDesc(0, 0, 0, 0, hipChannelFormatKindNone);
}

/* Element type E with channel kind K gives descriptors for E and its 1/2/3/4-vectors
 * (3-vectors are not valid texel formats and map to kind None, as in CUDA). */
#define WEFT_CHANNEL_DESC_(S, V1, V2, V3, V4, K)                       \
  template <>                                                          \
  inline hipChannelFormatDesc hipCreateChannelDesc<S>() {              \
    return hipCreateChannelDesc((int)sizeof(S) * 8, 0, 0, 0, K);       \
  }                                                                    \
  template <>                                                          \
  inline hipChannelFormatDesc hipCreateChannelDesc<V1>() {             \
    return hipCreateChannelDesc((int)sizeof(S) * 8, 0, 0, 0, K);       \
  }                                                                    \
  template <>                                                          \
  inline hipChannelFormatDesc hipCreateChannelDesc<V2>() {             \
    int e = (int)sizeof(S) * 8;                                        \
    return hipCreateChannelDesc(e, e, 0, 0, K);                        \
  }                                                                    \
  template <>                                                          \
  inline hipChannelFormatDesc hipCreateChannelDesc<V3>() {             \
    return hipCreateChannelDesc(0, 0, 0, 0, hipChannelFormatKindNone); \
  }                                                                    \
  template <>                                                          \
  inline hipChannelFormatDesc hipCreateChannelDesc<V4>() {             \
    int e = (int)sizeof(S) * 8;                                        \
    return hipCreateChannelDesc(e, e, e, e, K);                        \
  }

template <>
inline hipChannelFormatDesc hipCreateChannelDesc<char>() {
  return hipCreateChannelDesc(
      8, 0, 0, 0, (char)-1 < 0 ? hipChannelFormatKindSigned : hipChannelFormatKindUnsigned);
}
template <>
inline hipChannelFormatDesc hipCreateChannelDesc<signed char>() {
  return hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindSigned);
}
WEFT_CHANNEL_DESC_(unsigned char, uchar1, uchar2, uchar3, uchar4, hipChannelFormatKindUnsigned)
template <>
inline hipChannelFormatDesc hipCreateChannelDesc<char1>() {
  return hipCreateChannelDesc(8, 0, 0, 0, hipChannelFormatKindSigned);
}
template <>
inline hipChannelFormatDesc hipCreateChannelDesc<char2>() {
  return hipCreateChannelDesc(8, 8, 0, 0, hipChannelFormatKindSigned);
}
template <>
inline hipChannelFormatDesc hipCreateChannelDesc<char3>() {
  return hipCreateChannelDesc(0, 0, 0, 0, hipChannelFormatKindNone);
}
template <>
inline hipChannelFormatDesc hipCreateChannelDesc<char4>() {
  return hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindSigned);
}
WEFT_CHANNEL_DESC_(unsigned short, ushort1, ushort2, ushort3, ushort4, hipChannelFormatKindUnsigned)
WEFT_CHANNEL_DESC_(short, short1, short2, short3, short4, hipChannelFormatKindSigned)
WEFT_CHANNEL_DESC_(unsigned int, uint1, uint2, uint3, uint4, hipChannelFormatKindUnsigned)
WEFT_CHANNEL_DESC_(int, int1, int2, int3, int4, hipChannelFormatKindSigned)
WEFT_CHANNEL_DESC_(float, float1, float2, float3, float4, hipChannelFormatKindFloat)
#if !defined(_WIN32)
/* long is 64-bit on LP64 targets; CUDA/HIP describe it like the 32-bit types only on Windows. */
WEFT_CHANNEL_DESC_(unsigned long, ulong1, ulong2, ulong3, ulong4, hipChannelFormatKindUnsigned)
WEFT_CHANNEL_DESC_(long, long1, long2, long3, long4, hipChannelFormatKindSigned)
#endif

#undef WEFT_CHANNEL_DESC_

#endif /* __cplusplus */

#endif /* HIP_INCLUDE_HIP_CHANNEL_DESCRIPTOR_H */
