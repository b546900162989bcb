/* SPDX-License-Identifier: MIT */
/* weft: AMD extensions to the launch API: global-work-size module launches with optional timing
 * events, and hipExtLaunchKernel/hipExtLaunchKernelGGL. */
#ifndef HIP_INCLUDE_HIP_HIP_EXT_H
#define HIP_INCLUDE_HIP_HIP_EXT_H

#include <hip/hip_runtime_api.h>

/* As AMD's, the kernel language comes with it (hipExtLaunchKernelGGL needs it); weft's own
 * sources take the declarations only. */
#if defined(__cplusplus) && !defined(WEFT_HIP_EXT_DECLARATIONS_ONLY)
#define WEFT_HIP_EXT_KERNEL_LANGUAGE 1
#include <hip/hip_runtime.h>
#endif

#ifdef __cplusplus

#include <cstdint>
#include <type_traits>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Launches f over a grid given in work-items (not blocks): globalWorkSize{X,Y,Z} threads in
 * blocks of localWorkSize{X,Y,Z}. startEvent/stopEvent, when not NULL, are recorded around the
 * kernel; flags may be hipExtAnyOrderLaunch. */
HIP_PUBLIC_API hipError_t hipExtModuleLaunchKernel(
    hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
    uint32_t localWorkSizeX, uint32_t localWorkSizeY, uint32_t localWorkSizeZ,
    size_t sharedMemBytes, hipStream_t hStream, void** kernelParams, void** extra,
    hipEvent_t startEvent __dparm(NULL), hipEvent_t stopEvent __dparm(NULL),
    uint32_t flags __dparm(0));

/* Older name of hipExtModuleLaunchKernel without the flags argument. */
HIP_DEPRECATED("use hipExtModuleLaunchKernel instead")
HIP_PUBLIC_API hipError_t hipHccModuleLaunchKernel(
    hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY, uint32_t globalWorkSizeZ,
    uint32_t localWorkSizeX, uint32_t localWorkSizeY, uint32_t localWorkSizeZ,
    size_t sharedMemBytes, hipStream_t hStream, void** kernelParams, void** extra,
    hipEvent_t startEvent __dparm(NULL), hipEvent_t stopEvent __dparm(NULL));

#ifdef __cplusplus
} /* extern "C" */
#endif

#ifdef WEFT_HIP_EXT_KERNEL_LANGUAGE
/* hipExtLaunchKernelGGL(kernel, grid, block, shmem, stream, start, stop, flags, args...):
 * hipLaunchKernelGGL with startEvent/stopEvent (when not NULL) recorded on the stream around
 * the kernel. The kernels of a program built against these headers are single-source kernels
 * (hip/weft/single_source.h), launched with their parameter types known here. flags
 * (hipExtAnyOrderLaunch) changes nothing on an in-order stream. */
template <typename... KernelArgs, typename... Args>
inline void hipExtLaunchKernelGGL(void (*kernel)(KernelArgs...), const dim3& numBlocks,
                                  const dim3& dimBlocks, std::uint32_t sharedMemBytes,
                                  hipStream_t stream, hipEvent_t startEvent, hipEvent_t stopEvent,
                                  std::uint32_t flags, Args... args) {
  static_assert(sizeof...(KernelArgs) == sizeof...(Args),
                "hipExtLaunchKernelGGL: wrong number of kernel arguments");
  (void)flags;
  if (startEvent && hipEventRecord(startEvent, stream) != hipSuccess) return;
#if defined(__HIP__)
  /* clang's HIP mode: the kernel is a registered host stub; its arguments, converted to the
   * kernel's parameter types, go by address as hipLaunchKernel wants them. */
  std::tuple<std::decay_t<KernelArgs>...> converted(args...);
  void* addresses[sizeof...(KernelArgs) + 1];
  std::apply(
      [&](auto&... value) {
    size_t i = 0;
    ((addresses[i++] = static_cast<void*>(&value)), ...);
      },
      converted);
  if (hipLaunchKernel(reinterpret_cast<const void*>(kernel), numBlocks, dimBlocks, addresses,
                      sharedMemBytes, stream) != hipSuccess)
    return;
#else
  if (::weft::detail::launch_pointer(kernel, "hipExtLaunchKernelGGL", numBlocks, dimBlocks,
                                     sharedMemBytes, stream, args...) != hipSuccess)
    return;
#endif
  if (stopEvent) (void)hipEventRecord(stopEvent, stream);
}
#endif /* WEFT_HIP_EXT_KERNEL_LANGUAGE */

#endif /* HIP_INCLUDE_HIP_HIP_EXT_H */
