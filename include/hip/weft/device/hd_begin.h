// SPDX-License-Identifier: MIT
// Opens a region whose functions are callable from host and device code (clang's HIP
// mode only; a no-op for g++). weft's public headers wrap their declarations in
// hd_begin.h / hd_end.h, so they serve kernels whatever order a program includes them in.
// No include guard: every inclusion opens one more level (hd_end.h closes it).
#if defined(__HIP__)
#pragma clang force_cuda_host_device begin
#endif
