// SPDX-License-Identifier: MIT
#include "graph/host_kernels.hpp"

#include <fmt/format.h>

#include <array>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace weft::graph {
namespace {

struct Table {
  std::shared_mutex mutex;
  std::unordered_map<const void*, weftHostKernel> by_function;
};

Table& table() {
  static Table* t = new Table();  // leaked: launches may run during exit
  return *t;
}

// Functions this thread already registered: a launch of a known kernel costs
// one probe here and no lock.
struct SeenCache {
  std::array<const void*, 64> slots{};
  bool check_and_insert(const void* f) {
    size_t slot = (reinterpret_cast<uintptr_t>(f) >> 4) % slots.size();
    if (slots[slot] == f) return true;
    slots[slot] = f;
    return false;
  }
};

}  // namespace

void remember_host_kernel(const weftHostKernel& d) {
  if (!d.function || !d.packArgs) return;
  thread_local SeenCache seen;
  if (seen.check_and_insert(d.function)) return;
  Table& t = table();
  {
    std::shared_lock lock(t.mutex);
    if (t.by_function.count(d.function)) return;
  }
  weftHostKernel copy = d;
  copy.args = nullptr;
  std::unique_lock lock(t.mutex);
  t.by_function.emplace(d.function, copy);
}

const weftHostKernel* find_host_kernel(const void* function) {
  Table& t = table();
  std::shared_lock lock(t.mutex);
  auto it = t.by_function.find(function);
  // Entries are never erased or moved (unordered_map nodes are stable).
  return it == t.by_function.end() ? nullptr : &it->second;
}

Result<Ref<HostKernel>> make_host_kernel(const weftHostKernel& d, void* const* kernel_params) {
  if (!d.packArgs)
    return Status(hipErrorInvalidValue,
                  fmt::format("kernel {} was built without graph argument support (kernel ABI < 2)",
                              d.name ? d.name : "<kernel>"));
  if (d.argCount > 0) {
    if (!kernel_params)
      return Status(hipErrorInvalidValue,
                    fmt::format("kernel {} takes {} arguments but kernelParams is null",
                                d.name ? d.name : "<kernel>", d.argCount));
    for (uint32_t i = 0; i < d.argCount; ++i)
      if (!kernel_params[i])
        return Status(hipErrorInvalidValue, fmt::format("kernelParams[{}] of kernel {} is null", i,
                                                        d.name ? d.name : "<kernel>"));
  }
  weftHostKernel k = d;
  k.args = d.packArgs(kernel_params);
  return make_ref<HostKernel>(k);
}

}  // namespace weft::graph
