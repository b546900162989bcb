// SPDX-License-Identifier: MIT
// ROCR-Runtime (HSA) as a table of function pointers, filled from
// libhsa-runtime64.so.1 with dlopen/dlsym at first use. Every hsa_* function the
// driver calls is listed once in WEFT_HSA_SYMBOLS; nothing links against ROCr at
// build time, so one weft build runs with or without ROCm installed.
//
// Only the stable HSA 1.x core API and the hsa_ext_amd.h functions present since
// ROCm 5.2 are used (docs/hsa.md, "Version notes"). Tests swap in a double with
// set_api_for_testing(). The table is immutable once published; thread-safe to read.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <string>

#include <weft/driver/status.hpp>

namespace weft::hsa {

// X(name): required. O(name): optional (null when the library lacks it).
#define WEFT_HSA_SYMBOLS(X, O)                 \
  X(hsa_status_string)                         \
  X(hsa_init)                                  \
  X(hsa_shut_down)                             \
  X(hsa_system_get_info)                       \
  X(hsa_iterate_agents)                        \
  X(hsa_agent_get_info)                        \
  X(hsa_agent_iterate_isas)                    \
  X(hsa_isa_get_info_alt)                      \
  X(hsa_amd_agent_iterate_memory_pools)        \
  X(hsa_amd_memory_pool_get_info)              \
  X(hsa_amd_agent_memory_pool_get_info)        \
  X(hsa_amd_memory_pool_allocate)              \
  X(hsa_amd_memory_pool_free)                  \
  X(hsa_amd_agents_allow_access)               \
  X(hsa_amd_memory_lock)                       \
  X(hsa_amd_memory_unlock)                     \
  X(hsa_amd_memory_async_copy)                 \
  X(hsa_amd_memory_fill)                       \
  X(hsa_memory_copy)                           \
  X(hsa_amd_pointer_info)                      \
  X(hsa_amd_ipc_memory_create)                 \
  X(hsa_amd_ipc_memory_attach)                 \
  X(hsa_amd_ipc_memory_detach)                 \
  X(hsa_signal_create)                         \
  X(hsa_signal_destroy)                        \
  X(hsa_signal_load_scacquire)                 \
  X(hsa_signal_store_relaxed)                  \
  X(hsa_signal_store_screlease)                \
  X(hsa_signal_wait_scacquire)                 \
  X(hsa_amd_signal_async_handler)              \
  X(hsa_queue_create)                          \
  X(hsa_queue_destroy)                         \
  X(hsa_queue_load_read_index_scacquire)       \
  X(hsa_queue_add_write_index_scacq_screl)     \
  O(hsa_amd_queue_set_priority)                \
  X(hsa_amd_profiling_set_profiler_enabled)    \
  X(hsa_amd_profiling_get_dispatch_time)       \
  X(hsa_code_object_reader_create_from_memory) \
  X(hsa_code_object_reader_destroy)            \
  X(hsa_executable_create_alt)                 \
  X(hsa_executable_load_agent_code_object)     \
  X(hsa_executable_freeze)                     \
  X(hsa_executable_destroy)                    \
  X(hsa_executable_get_symbol_by_name)         \
  X(hsa_executable_symbol_get_info)

struct Api {
#define WEFT_HSA_MEMBER(name) decltype(&::name) name = nullptr;
  WEFT_HSA_SYMBOLS(WEFT_HSA_MEMBER, WEFT_HSA_MEMBER)
#undef WEFT_HSA_MEMBER
};

inline constexpr const char* kLibraryName = "libhsa-runtime64.so.1";

// The table, loaded on first call; null when the library or a required symbol is
// missing, with the reason in load_error(). Thread-safe.
const Api* api();
const std::string& load_error();

// Replaces the table for tests; null simulates a machine without ROCr.
// reset_api_for_testing() goes back to the real library. Call only while no
// driver object is in use.
void set_api_for_testing(const Api* fake);
void reset_api_for_testing();
// True while a test double is installed.
bool testing_api_installed();

// "HSA_STATUS_ERROR_OUT_OF_RESOURCES (…)" from hsa_status_string, or the number.
std::string status_text(const Api& api, hsa_status_t status);

// A failed ROCr call as a Status: `error` is the HIP code the caller's contract
// names for it (ROCr's codes do not map one to one); the message reads
// "<call> failed: <ROCr's text>[ <context>]".
Status status_from_hsa(const Api& api, hsa_status_t status, hipError_t error, const char* call,
                       const std::string& context = {});

}  // namespace weft::hsa
