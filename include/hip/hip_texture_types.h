/* SPDX-License-Identifier: MIT */
/* weft: the old name of <hip/texture_types.h>, kept because programs still include it. */
#ifndef HIP_INCLUDE_HIP_HIP_TEXTURE_TYPES_H
#define HIP_INCLUDE_HIP_HIP_TEXTURE_TYPES_H

#include <hip/texture_types.h>

#endif /* HIP_INCLUDE_HIP_HIP_TEXTURE_TYPES_H */
