/* SPDX-License-Identifier: MIT */
/* Texture and surface fetches in weftcc's AMD (gfx*) images: not supported. An AMD GPU
 * samples through image and sampler descriptors (V#, S#) that a texture object would have
 * to carry, and weft's HSA agent makes no native images (its textures are the core's linear
 * arrays, which only the CPU agent samples; docs/textures.md). So every texture and surface
 * function is declared here only to stop the build with a message naming the target (weftcc
 * reports it as `[target gfxNNN]`); the same source still builds for x86_64 and sm_*. */
#ifndef WEFT_HIP_DEVICE_AMDGCN_TEXTURE_H
#define WEFT_HIP_DEVICE_AMDGCN_TEXTURE_H

#if !defined(__AMDGCN__) || !defined(__HIP_DEVICE_COMPILE__)
#error "hip/weft/device/amdgcn_texture.h is the AMDGCN device pass's texture layer"
#endif

template <typename... A>
constexpr bool weft_amdgcn_no_textures = false;

#define WEFT_AMDGCN_NO_TEXTURE(name)                                                            \
  template <typename T = int, typename... A>                                                    \
  __attribute__((device)) inline T name(A...) {                                                 \
    static_assert(weft_amdgcn_no_textures<T, A...>,                                             \
                  "weft: " #name                                                                \
                  " is not supported for AMD GPU targets (gfx*): weft has no AMD image "        \
                  "descriptors; texture and surface fetches run on the CPU agent (x86_64) and " \
                  "NVIDIA GPUs (sm_*)");                                                        \
    return T();                                                                                 \
  }

// Macro calls without semicolons: clang-format would re-wrap this list on every run.
// clang-format off
WEFT_AMDGCN_NO_TEXTURE(tex1Dfetch) WEFT_AMDGCN_NO_TEXTURE(tex1D) WEFT_AMDGCN_NO_TEXTURE(tex2D)
WEFT_AMDGCN_NO_TEXTURE(tex3D) WEFT_AMDGCN_NO_TEXTURE(tex1DLod) WEFT_AMDGCN_NO_TEXTURE(tex2DLod)
WEFT_AMDGCN_NO_TEXTURE(tex3DLod) WEFT_AMDGCN_NO_TEXTURE(tex1DLayered)
WEFT_AMDGCN_NO_TEXTURE(tex2DLayered) WEFT_AMDGCN_NO_TEXTURE(tex1DLayeredLod)
WEFT_AMDGCN_NO_TEXTURE(tex2DLayeredLod) WEFT_AMDGCN_NO_TEXTURE(texCubemap)
WEFT_AMDGCN_NO_TEXTURE(texCubemapLod) WEFT_AMDGCN_NO_TEXTURE(texCubemapLayered)
WEFT_AMDGCN_NO_TEXTURE(tex1DGrad) WEFT_AMDGCN_NO_TEXTURE(tex2DGrad) WEFT_AMDGCN_NO_TEXTURE(tex3DGrad)
WEFT_AMDGCN_NO_TEXTURE(tex1DLayeredGrad) WEFT_AMDGCN_NO_TEXTURE(tex2DLayeredGrad)
WEFT_AMDGCN_NO_TEXTURE(surf1Dread) WEFT_AMDGCN_NO_TEXTURE(surf1Dwrite)
WEFT_AMDGCN_NO_TEXTURE(surf2Dread) WEFT_AMDGCN_NO_TEXTURE(surf2Dwrite)
WEFT_AMDGCN_NO_TEXTURE(surf3Dread) WEFT_AMDGCN_NO_TEXTURE(surf3Dwrite)
WEFT_AMDGCN_NO_TEXTURE(surf1DLayeredread) WEFT_AMDGCN_NO_TEXTURE(surf1DLayeredwrite)
WEFT_AMDGCN_NO_TEXTURE(surf2DLayeredread) WEFT_AMDGCN_NO_TEXTURE(surf2DLayeredwrite)
// clang-format on

#undef WEFT_AMDGCN_NO_TEXTURE

#endif  // WEFT_HIP_DEVICE_AMDGCN_TEXTURE_H
