// SPDX-License-Identifier: MIT
// hipProfilerStart / hipProfilerStop: the recording window of the timeline trace
// (WEFT_TRACE, src/trace, docs/trace.md). Without WEFT_TRACE they succeed and do
// nothing, as AMD's runtime does without a profiler attached.
#include "api/api.hpp"
#include "trace/trace.hpp"

using weft::Status;
using weft::api::call;

WEFT_EXPORT hipError_t hipProfilerStart() {
  return call("hipProfilerStart", [] {
    weft::trace::profiler_start();
    return Status();
  });
}

WEFT_EXPORT hipError_t hipProfilerStop() {
  return call("hipProfilerStop", [] {
    weft::trace::profiler_stop();
    return Status();
  });
}
