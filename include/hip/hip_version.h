/* SPDX-License-Identifier: MIT */
/* weft: the HIP version weft's API headers and libamdhip64 implement.
 * Keep in step with hip_major/hip_minor/hip_patch in the top-level meson.build
 * (include/meson.build checks this at configure time). */
#ifndef HIP_VERSION_H
#define HIP_VERSION_H

#define HIP_VERSION_MAJOR 7
#define HIP_VERSION_MINOR 1
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH "weft"
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME ""

/* major * 10^7 + minor * 10^5 + patch, the value hipRuntimeGetVersion reports. */
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)

#endif /* HIP_VERSION_H */
