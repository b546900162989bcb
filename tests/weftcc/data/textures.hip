// SPDX-License-Identifier: MIT
// Every texture and surface form of weft's device headers, for weftcc_test.py's gpu group:
// the NVIDIA pass must turn each into its PTX instruction, the AMD pass must refuse them.
#include <hip/hip_runtime.h>

texture<float, hipTextureType1D, hipReadModeElementType> g_ref_linear;
texture<unsigned char, hipTextureType1D, hipReadModeNormalizedFloat> g_ref_bytes;
texture<uchar4, hipTextureType2D, hipReadModeElementType> g_ref_2d;

__global__ void references(float* out, uchar4* bytes) {
  out[0] = tex1Dfetch(g_ref_linear, 3);
  out[1] = tex1Dfetch(g_ref_bytes, 2);  // normalized: a float
  *bytes = tex2D(g_ref_2d, 0.5f, 1.5f);
}

template <typename T>
__global__ void element(hipTextureObject_t t, T* out) {
  *out = tex2D<T>(t, 1.5f, 0.5f);
}
template __global__ void element<float>(hipTextureObject_t, float*);
template __global__ void element<float2>(hipTextureObject_t, float2*);
template __global__ void element<char1>(hipTextureObject_t, char1*);
template __global__ void element<uchar4>(hipTextureObject_t, uchar4*);
template __global__ void element<short2>(hipTextureObject_t, short2*);
template __global__ void element<unsigned short>(hipTextureObject_t, unsigned short*);
template __global__ void element<int4>(hipTextureObject_t, int4*);
template __global__ void element<unsigned>(hipTextureObject_t, unsigned*);

__global__ void forms(hipTextureObject_t t, float4* o, int layer) {
  o[0] = tex1Dfetch<float4>(t, layer);
  o[1] = tex1D<float4>(t, 0.5f);
  o[2] = tex3D<float4>(t, 1, 2, 3);
  o[3] = tex1DLod<float4>(t, 1, 2);
  o[4] = tex2DLod<float4>(t, 1, 2, 3);
  o[5] = tex3DLod<float4>(t, 1, 2, 3, 4);
  o[6] = tex1DLayered<float4>(t, 1, layer);
  o[7] = tex2DLayered<float4>(t, 1, 2, layer);
  o[8] = tex1DLayeredLod<float4>(t, 1, layer, 2);
  o[9] = tex2DLayeredLod<float4>(t, 1, 2, layer, 3);
  o[10] = texCubemap<float4>(t, 1, 2, 3);
  o[11] = texCubemapLod<float4>(t, 1, 2, 3, 4);
  o[12] = texCubemapLayered<float4>(t, 1, 2, 3, layer);
  o[13] = tex1DGrad<float4>(t, 1, 2, 3);
  o[14] = tex2DGrad<float4>(t, 1, 2, make_float2(1, 2), make_float2(3, 4));
  o[15] = tex3DGrad<float4>(t, 1, 2, 3, make_float4(1, 2, 3, 0), make_float4(4, 5, 6, 0));
  o[16] = tex1DLayeredGrad<float4>(t, 1, layer, 2, 3);
  o[17] = tex2DLayeredGrad<float4>(t, 1, 2, layer, make_float2(1, 2), make_float2(3, 4));
  tex2D(&o[18], t, 1.0f, 2.0f);
}

__global__ void surfaces(hipSurfaceObject_t s, int mode) {
  unsigned char c;
  short h;
  float f;
  uint2 u2;
  float4 f4;
  surf1Dread(&c, s, 1);
  surf1Dwrite(c, s, 2);
  surf2Dread(&h, s, 2, 3, hipBoundaryModeClamp);
  surf2Dwrite(h, s, 4, 4, hipBoundaryModeTrap);
  surf3Dread(&f, s, 4, 5, 6, mode);
  surf3Dwrite(f, s, 8, 1, 2, mode);
  surf1DLayeredread(&u2, s, 8, 2);
  surf1DLayeredwrite(u2, s, 16, 3);
  surf2DLayeredread(&f4, s, 16, 2, 1);
  surf2DLayeredwrite(f4, s, 32, 2, 1);
}
