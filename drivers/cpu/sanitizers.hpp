// SPDX-License-Identifier: MIT
// Which sanitizer this build runs under, and the one thing every stack weft maps
// for itself must do under AddressSanitizer before it is unmapped.
#pragma once

#include <sys/mman.h>

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define WEFT_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEFT_ASAN_FIBERS 1
#endif
#endif
#ifdef WEFT_ASAN_FIBERS
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if defined(__SANITIZE_THREAD__)
#define WEFT_TSAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define WEFT_TSAN_FIBERS 1
#endif
#endif
#ifdef WEFT_TSAN_FIBERS
#include <sanitizer/tsan_interface.h>
#endif

namespace weft::cpu {

// Unmaps a fiber or signal stack. A fiber abandoned mid-kernel (an abort, a fault)
// never returns through its frames, so their redzones stay poisoned in ASan's
// shadow; this ASan does not clear shadow on munmap, and the next mapping at those
// addresses (often a new OS thread's stack and static TLS) would then report
// overflows it never made. Clean first.
inline void unmap_stack(void* base, size_t bytes) {
#ifdef WEFT_ASAN_FIBERS
  ASAN_UNPOISON_MEMORY_REGION(base, bytes);
#endif
  munmap(base, bytes);
}

}  // namespace weft::cpu
