// SPDX-License-Identifier: MIT
// CPU code objects: host shared objects that hold kernels for weft's CPU agent,
// loaded with hipModuleLoad / hipModuleLoadData or carried in a fat binary's
// offload bundle (entry ID "hipv4-x86_64-unknown-linux-gnu-x86_64").
//
// Write kernels as ordinary HIP source, then list them once:
//
//   #include <hip/weft/cpu_code_object.h>
//   __global__ void vadd(float* c, const float* a, const float* b, int n) { ... }
//   WEFT_CPU_KERNEL(vadd)
//   WEFT_CPU_KERNEL(scale<float>)          // template instances too
//
// and build with `g++ -std=c++20 -O2 -shared -fPIC -I<weft>/include k.cpp -o k.so`.
//
// The ABI (docs/code-objects.md): the object exports `weft_cpu_code_object`, a
// weftCpuCodeObject whose records (one per kernel) give the entry point, the
// argument layout and resource needs. An entry has the weftKernelEntry shape: the
// CPU engine calls it exactly as it calls a single-source entry (kernel_abi.h:
// once per block, or once per GPU thread after a barrier), and it reads its
// arguments from the kernarg buffer, packed as for a GPU: each argument at the
// next offset aligned to its natural alignment. Versioned by
// WEFT_CPU_CODE_OBJECT_VERSION.
#ifndef WEFT_HIP_CPU_CODE_OBJECT_H
#define WEFT_HIP_CPU_CODE_OBJECT_H

#include <hip/weft/kernel_abi.h>
#include <stdint.h>

#define WEFT_CPU_CODE_OBJECT_MAGIC 0x4f434657u /* "WFCO" little-endian */
#define WEFT_CPU_CODE_OBJECT_VERSION 1u
#define WEFT_CPU_CODE_OBJECT_SYMBOL "weft_cpu_code_object"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct weftCpuKernelArg {
  uint32_t offset;  // in the kernarg buffer
  uint32_t size;
  uint32_t align;
  uint32_t reserved;
} weftCpuKernelArg;

typedef struct weftCpuKernelRecord {
  const char* name;        // as written in WEFT_CPU_KERNEL ("vadd", "scale<float>")
  const void* function;    // the kernel function; its symbol is the linker (mangled) name
  weftKernelEntry entry;   // entry(ctx, kernarg), called as kernel_abi.h describes
  uint32_t kernarg_size;   // end of the last argument
  uint32_t kernarg_align;  // largest argument alignment (at least 1)
  uint32_t static_shared_bytes;
  uint32_t max_threads_per_block;
  uint32_t arg_count;
  uint32_t reserved;
  const weftCpuKernelArg* args;  // arg_count entries, in parameter order
} weftCpuKernelRecord;

typedef struct weftCpuCodeObject {
  uint32_t magic;               // WEFT_CPU_CODE_OBJECT_MAGIC
  uint32_t version;             // WEFT_CPU_CODE_OBJECT_VERSION
  uint32_t kernel_abi_version;  // WEFT_KERNEL_ABI_VERSION the entries were built for
  uint32_t record_size;         // sizeof(weftCpuKernelRecord)
  const weftCpuKernelRecord* begin;
  const weftCpuKernelRecord* end;
} weftCpuCodeObject;

#ifdef __cplusplus
}  // extern "C"
#endif

// The macros below are for building code objects with a host C++ compiler.
// The runtime defines WEFT_CPU_CODE_OBJECT_ABI_ONLY to get just the structs above.
#if defined(__cplusplus) && !defined(WEFT_CPU_CODE_OBJECT_ABI_ONLY) && !defined(__HIP__) && \
    !defined(__CUDACC__)
#include <hip/hip_runtime.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

// Records of this shared object, gathered by the linker into one section.
extern "C" const weftCpuKernelRecord __start_weft_cpu_kernels[]
    __attribute__((weak, visibility("hidden")));
extern "C" const weftCpuKernelRecord __stop_weft_cpu_kernels[]
    __attribute__((weak, visibility("hidden")));

extern "C" __attribute__((visibility("default"),
                          used)) inline const weftCpuCodeObject weft_cpu_code_object = {
    WEFT_CPU_CODE_OBJECT_MAGIC,  WEFT_CPU_CODE_OBJECT_VERSION, WEFT_KERNEL_ABI_VERSION,
    sizeof(weftCpuKernelRecord), __start_weft_cpu_kernels,     __stop_weft_cpu_kernels};

namespace weft::cpu_code_object {

template <typename... Params>
struct Layout {
  static constexpr size_t kCount = sizeof...(Params);
  static constexpr std::array<weftCpuKernelArg, kCount> make_args() {
    std::array<weftCpuKernelArg, kCount> out{};
    uint32_t sizes[] = {uint32_t(sizeof(std::decay_t<Params>))..., 0};
    uint32_t aligns[] = {uint32_t(alignof(std::decay_t<Params>))..., 1};
    uint32_t at = 0;
    for (size_t i = 0; i < kCount; ++i) {
      at = (at + aligns[i] - 1) / aligns[i] * aligns[i];
      out[i] = weftCpuKernelArg{at, sizes[i], aligns[i], 0};
      at += sizes[i];
    }
    return out;
  }
  static constexpr std::array<weftCpuKernelArg, kCount> kArgs = make_args();
  static constexpr uint32_t kSize = kCount ? kArgs[kCount - 1].offset + kArgs[kCount - 1].size : 0;
  static constexpr uint32_t kAlign = [] {
    uint32_t a = 1;
    for (const auto& arg : kArgs) a = arg.align > a ? arg.align : a;
    return a;
  }();
  static constexpr const weftCpuKernelArg* args() { return kCount ? kArgs.data() : nullptr; }
};

template <auto Fn>
struct Kernel;

template <typename... Params, void (*Fn)(Params...)>
struct Kernel<Fn> {
  using L = Layout<Params...>;
  static_assert((std::is_trivially_copyable_v<std::decay_t<Params>> && ...),
                "kernel arguments must be trivially copyable (they travel as bytes)");

  using Tuple = std::tuple<std::decay_t<Params>...>;

  template <size_t... I>
  static void unpack(Tuple& values, const std::byte* kernarg, std::index_sequence<I...>) {
    (std::memcpy(&std::get<I>(values), kernarg + L::kArgs[I].offset, L::kArgs[I].size), ...);
  }
  // Unpacks the kernarg buffer, then runs the block (or one GPU thread) exactly as
  // a single-source kernel runs (hip/weft/single_source.h, kernel ABI contract).
  using Call = ::weft::detail::ConstantCall<Fn>;
  static void entry(weftKernelContext* ctx, void* kernarg) {
    ::weft::detail::LaunchBlob<Call, Tuple> blob{Call{}, Tuple{}};
    unpack(blob.args, static_cast<const std::byte*>(kernarg), std::index_sequence_for<Params...>{});
    ::weft::detail::kernel_entry<Call, Tuple>(ctx, &blob);
  }
  static constexpr weftCpuKernelRecord record(const char* name, uint32_t max_threads) {
    return weftCpuKernelRecord{name,        reinterpret_cast<const void*>(Fn),
                               &entry,      L::kSize,
                               L::kAlign,   0,
                               max_threads, uint32_t(L::kCount),
                               0,           L::args()};
  }
};

}  // namespace weft::cpu_code_object

#define WEFT_CPU_CONCAT_INNER_(a, b) a##b
#define WEFT_CPU_CONCAT_(a, b) WEFT_CPU_CONCAT_INNER_(a, b)

// Lists a kernel with an explicit name and block-size limit.
#define WEFT_CPU_KERNEL_EX(name, max_threads, ...)                                                \
  __attribute__((section("weft_cpu_kernels"), used, aligned(8))) static const weftCpuKernelRecord \
      WEFT_CPU_CONCAT_(weft_cpu_kernel_record_, __COUNTER__) =                                    \
          ::weft::cpu_code_object::Kernel<&__VA_ARGS__>::record(name, max_threads)

// Lists a kernel (a function, or a template instance such as scale<float>).
#define WEFT_CPU_KERNEL(...) WEFT_CPU_KERNEL_EX(#__VA_ARGS__, 1024, __VA_ARGS__)

#endif  // C++ host compiler

#endif  // WEFT_HIP_CPU_CODE_OBJECT_H
