/* SPDX-License-Identifier: MIT */
/* weft: the deprecated name of <hip/hip_ext.h> (AMD's header forwards there too). */
#ifndef HIP_INCLUDE_HIP_HIP_HCC_H
#define HIP_INCLUDE_HIP_HIP_HCC_H

#include <hip/hip_ext.h>

#endif /* HIP_INCLUDE_HIP_HIP_HCC_H */
