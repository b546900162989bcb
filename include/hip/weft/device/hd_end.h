// SPDX-License-Identifier: MIT
// Closes the region hd_begin.h opened. No include guard (see hd_begin.h).
#if defined(__HIP__)
#pragma clang force_cuda_host_device end
#endif
