/* SPDX-License-Identifier: MIT */
/* weft: HIP's profiling markers. AMD's header defines them empty (the markers belonged to a
 * retired tracer); weft has no tracer for them either, so they compile to nothing. Profiling a
 * program uses hipProfilerStart/hipProfilerStop (hip_runtime_api.h). */
#ifndef HIP_INCLUDE_HIP_HIP_PROFILE_H
#define HIP_INCLUDE_HIP_HIP_PROFILE_H

#define HIP_SCOPED_MARKER(markerName, group)
#define HIP_BEGIN_MARKER(markerName, group)
#define HIP_END_MARKER()

#endif /* HIP_INCLUDE_HIP_HIP_PROFILE_H */
