/* SPDX-License-Identifier: MIT */
/* weft: surface object handles and boundary modes. */
#ifndef HIP_INCLUDE_HIP_SURFACE_TYPES_H
#define HIP_INCLUDE_HIP_SURFACE_TYPES_H

#include <hip/driver_types.h>

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreserved-identifier"
#endif

/* Opaque surface object, created by hipCreateSurfaceObject. */
struct __hip_surface;
typedef struct __hip_surface* hipSurfaceObject_t;

/* Legacy surface reference (compiler-generated for surface<> declarations). */
struct surfaceReference {
  hipSurfaceObject_t surfaceObject;
};

/* What an out-of-range surface access does. */
enum hipSurfaceBoundaryMode {
  hipBoundaryModeZero = 0,
  hipBoundaryModeTrap = 1,
  hipBoundaryModeClamp = 2
};

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

#endif /* HIP_INCLUDE_HIP_SURFACE_TYPES_H */
