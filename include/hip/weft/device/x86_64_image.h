// SPDX-License-Identifier: MIT
// The CPU code object that weftcc builds from a HIP source (x86-64 device pass): included,
// after the source itself, by the wrapper translation unit that
// tools/weftcc/weftcc_lib/cpu_image.py generates, which lists each kernel once:
//
//   extern "C" __device__ void weft_kernel_0(float*, int) __asm__("_Z4vaddPfi");  // the kernel
//   ... a weftCpuKernelArg table from Layout<float*, int>, and a weftCpuKernelRecord in the
//   section weft_cpu_kernels whose entry is Entry<void(float*, int), &weft_kernel_0>::entry
//
// (a device function declared under the kernel's own symbol: device code may not take a
// __global__ function's address, and the wrapper need not name the kernel, only its
// parameter types). The records and the table are the ABI of docs/code-objects.md.
#ifndef WEFT_HIP_DEVICE_X86_64_IMAGE_H
#define WEFT_HIP_DEVICE_X86_64_IMAGE_H

#include <hip/hip_runtime.h>
#include <hip/weft/device/hd_begin.h>
#define WEFT_CPU_CODE_OBJECT_ABI_ONLY
#include <hip/weft/cpu_code_object.h>
#undef WEFT_CPU_CODE_OBJECT_ABI_ONLY

#include <stddef.h>
#include <string.h>

#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

// The image's dynamic shared memory (x86_64.h declares it; extern __shared__ arrays are
// aliases of it, written by the wrapper).
extern "C" {
__device__ thread_local __attribute__((aligned(64), visibility("hidden"))) unsigned char
    __weft_cpu_dynamic_shared_storage[::weft::cpu_image::kDynamicSharedBytes];
}

namespace weft::cpu_image {

template <typename Fn>
struct Signature;

// A kernel of type void(P...): its argument layout, packed as for a GPU (each argument at
// the next offset aligned to its natural alignment, as WEFT_CPU_KERNEL's records), and its
// entry.
template <typename... P>
struct Signature<void(P...)> {
  static constexpr uint32_t kCount = sizeof...(P);
  static constexpr uint32_t size_of(size_t i) {
    constexpr uint32_t sizes[] = {uint32_t(sizeof(std::decay_t<P>))..., 0};
    return sizes[i];
  }
  static constexpr uint32_t align_of(size_t i) {
    constexpr uint32_t aligns[] = {uint32_t(alignof(std::decay_t<P>))..., 1};
    return aligns[i];
  }
  static constexpr uint32_t offset_of(size_t i) {
    uint32_t at = 0;
    for (size_t k = 0;; ++k) {
      at = (at + align_of(k) - 1) / align_of(k) * align_of(k);
      if (k == i) return at;
      at += size_of(k);
    }
  }
  static constexpr uint32_t kSize = kCount ? offset_of(kCount - 1) + size_of(kCount - 1) : 0;
  static constexpr uint32_t kAlign = [] {
    uint32_t a = 1;
    for (size_t k = 0; k < kCount; ++k) a = align_of(k) > a ? align_of(k) : a;
    return a;
  }();
  template <size_t... I>
  static constexpr std::array<weftCpuKernelArg, kCount ? kCount : 1> make_args(
      std::index_sequence<I...>) {
    return {{weftCpuKernelArg{offset_of(I), size_of(I), align_of(I), 0}...}};
  }
  static constexpr std::array<weftCpuKernelArg, kCount ? kCount : 1> kArgTable =
      make_args(std::index_sequence_for<P...>{});
  static constexpr const weftCpuKernelArg* kArgs = kArgTable.data();

  using Tuple = std::tuple<std::decay_t<P>...>;
  static_assert((std::is_trivially_copyable_v<std::decay_t<P>> && ...),
                "kernel arguments must be trivially copyable (they travel as bytes)");

  template <void (*Kernel)(P...)>
  struct Entry {
    using Call = ::weft::detail::ConstantCall<Kernel>;
    using Blob = ::weft::detail::LaunchBlob<Call, Tuple>;

    template <size_t... I>
    static __device__ void unpack(Tuple& values, const unsigned char* kernarg,
                                  std::index_sequence<I...>) {
      (__builtin_memcpy(&std::get<I>(values), kernarg + offset_of(I), size_of(I)), ...);
    }

    // The kernel that the block-loop pass rewrote for ranges runs every thread of every
    // block of the range itself (reading it with __weft_cpu_block_range, publishing each
    // block with __weft_cpu_block_enter, x86_64.h); its setup is paid once per range.
    static __device__ void whole_ranges(weftKernelContext* ctx, Blob& blob) {
      ::weft::detail::t_ctx = ctx;
      ::weft::detail::t_blockDim = ::weft::detail::to_uint3(ctx->blockDim);
      ::weft::detail::t_gridDim = ::weft::detail::to_uint3(ctx->gridDim);
      ::weft::detail::t_fiber_block = nullptr;
      std::apply(blob.call, blob.args);
    }

    // The one-block form (the pass rewrote the kernel but not for ranges): once per block.
    static __device__ void whole_blocks(weftKernelContext* ctx, Blob& blob) {
      ::weft::detail::t_ctx = ctx;
      ::weft::detail::t_blockDim = ::weft::detail::to_uint3(ctx->blockDim);
      ::weft::detail::t_gridDim = ::weft::detail::to_uint3(ctx->gridDim);
      ::weft::detail::t_fiber_block = nullptr;
      const uint32_t gx = ctx->gridDim.x, gy = ctx->gridDim.y;
      for (uint64_t b = ctx->blockBegin; b < ctx->blockEnd; ++b) {
        if (__atomic_load_n(ctx->stop, __ATOMIC_RELAXED)) return;  // another block failed
        const ::weft::detail::Uint3 block{static_cast<uint32_t>(b % gx),
                                          static_cast<uint32_t>(b / gx % gy),
                                          static_cast<uint32_t>(b / (uint64_t(gx) * gy))};
        ::weft::detail::t_blockIdx = block;
        ctx->blockIdx = dim3(block.x, block.y, block.z);
        std::apply(blob.call, blob.args);
      }
    }

    // weftKernelEntry (kernel_abi.h): unpacks the kernarg buffer, then runs the range as
    // the g++ path's entry does (loop mode, fibers after the first barrier).
    static __device__ void entry(weftKernelContext* ctx, void* kernarg) {
      Blob blob{Call{}, Tuple{}};
      unpack(blob.args, static_cast<const unsigned char*>(kernarg),
             std::index_sequence_for<P...>{});
      if (__weft_cpu_kernel_runs_block_ranges(reinterpret_cast<const void*>(Kernel)))
        return whole_ranges(ctx, blob);
      if (__weft_cpu_kernel_is_whole_block(reinterpret_cast<const void*>(Kernel)))
        return whole_blocks(ctx, blob);
      ::weft::detail::kernel_entry<Call, Tuple>(ctx, &blob);
    }
  };
};

// The block-loop pass (tools/weftcc/passes/block_loops) reads blockDim in every kernel it
// rewrites, and gridDim and the range markers in every kernel it rewrites for ranges, also
// in kernels that never name them: keep the markers' definitions in the image.
__device__ __attribute__((used)) inline uint32_t (*const kBlockLoopsMarkers[])(uint32_t) = {
    &__weft_cpu_block_dim, &__weft_cpu_grid_dim};
__device__ __attribute__((used)) inline uint64_t (*const kBlockLoopsRange)(uint32_t) =
    &__weft_cpu_block_range;
__device__
    __attribute__((used)) inline int (*const kBlockLoopsEnter)(uint32_t, uint32_t,
                                                               uint32_t) = &__weft_cpu_block_enter;

}  // namespace weft::cpu_image

// The table that bounds the records (weft_cpu_code_object) is a separate, plain C
// translation unit of the image (cpu_image.py, TABLE_SOURCE): the device pass emits only
// __device__ variables, whose initializers must be constants, and cannot declare the
// linker's __start_/__stop_ symbols without defining them.

#include <hip/weft/device/hd_end.h>

#endif  // WEFT_HIP_DEVICE_X86_64_IMAGE_H
