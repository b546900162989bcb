// SPDX-License-Identifier: MIT
// Managed-memory hints and their queries: hipMemAdvise(_v2), hipMemPrefetchAsync(_v2),
// hipMemPrefetchBatchAsync, hipMemRangeGetAttribute(s), hipStreamAttachMemAsync.
//
// Managed memory never migrates in weft (on the CPU agent it is host memory; GPU
// drivers keep placement to their own managed allocators), so no hint changes data or
// a location later work could observe, and nothing is submitted. What the hints said is
// kept, per byte range, so hipMemRangeGetAttribute(s) answer what CUDA and HIP define:
// a range's value when the whole range agrees, else the "mixed" value (0 / invalid
// device / indeterminate), and the devices accessing all of it.
#include "api/api.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <vector>

using namespace weft;
using namespace weft::api;

namespace {

// The tracked managed allocation that holds all of [ptr, ptr + count).
Result<AllocationRecord> managed_range(const void* ptr, size_t count) {
  if (!ptr) return invalid_value("null pointer");
  if (count == 0) return invalid_value("count must not be 0");
  auto record = Runtime::get().pointers().find(ptr);
  if (!record || record->kind != AllocationKind::kManaged)
    return invalid_value(fmt::format("{} is not managed memory (hipMallocManaged)", ptr));
  if (!record->contains(ptr, count))
    return invalid_value(
        fmt::format("{} + {} bytes runs past the end of its managed allocation "
                    "({} bytes at {})",
                    ptr, count, record->size, static_cast<const void*>(record->base)));
  return *record;
}

// hipCpuDeviceId or a device ordinal.
Status check_location(int device) {
  if (device == hipCpuDeviceId) return Status();
  if (device < 0) return Status(hipErrorInvalidDevice, fmt::format("{} is not a device", device));
  return device_at(device).status();
}

// A hipMemLocation as hipMemAdvise's device argument: a device ordinal or hipCpuDeviceId.
Result<int> location_device(const hipMemLocation& location) {
  switch (raw_value(location.type)) {
    case hipMemLocationTypeDevice:
      WEFT_RETURN_IF_ERROR(check_location(location.id >= 0 ? location.id : -3));
      return location.id;
    case hipMemLocationTypeHost:
    case hipMemLocationTypeHostNumaCurrent: return hipCpuDeviceId;
    case hipMemLocationTypeHostNuma:
      if (location.id < 0)
        return invalid_value(fmt::format("NUMA node {} is not a node", location.id));
      return hipCpuDeviceId;
    default:
      return invalid_value(fmt::format("{} is not a hipMemLocationType", raw_value(location.type)));
  }
}

// The hints given for byte ranges: one piecewise-constant map per attribute, from
// address to value (the value holds up to the next key). Accessed-by is a set of
// devices per piece. Thread-safe; entries go with hipFree of nothing in particular:
// a range's entries are cleared when new hints cover it, and lookups only consider
// the asked range, so a freed and reused address starts from the old hints at worst
// (hints never change results).
struct Hints {
  std::mutex mutex;
  std::map<uintptr_t, int> read_mostly;    // 0/1
  std::map<uintptr_t, int> preferred;      // device, hipCpuDeviceId, hipInvalidDeviceId
  std::map<uintptr_t, int> last_prefetch;  // device, hipCpuDeviceId, hipInvalidDeviceId
  std::map<uintptr_t, int> coarse_grain;   // 0/1
  std::map<uintptr_t, std::set<int>> accessed_by;
};

Hints& hints() {
  static auto* h = new Hints();  // leaked: used until exit
  return *h;
}

// The value at `at` of a piecewise map (the default before any key).
template <typename V>
V value_at(const std::map<uintptr_t, V>& m, uintptr_t at, const V& fallback) {
  auto it = m.upper_bound(at);
  if (it == m.begin()) return fallback;
  return std::prev(it)->second;
}

// Sets [lo, hi) to `value` (keeps what lies outside).
template <typename V>
void assign(std::map<uintptr_t, V>& m, uintptr_t lo, uintptr_t hi, const V& value,
            const V& fallback) {
  V after = value_at(m, hi, fallback);
  m.erase(m.lower_bound(lo), m.lower_bound(hi));
  m[lo] = value;
  if (m.find(hi) == m.end()) m[hi] = after;
}

// Applies `change` to every piece of [lo, hi).
template <typename V, typename F>
void modify(std::map<uintptr_t, V>& m, uintptr_t lo, uintptr_t hi, const V& fallback, F change) {
  V first = value_at(m, lo, fallback), after = value_at(m, hi, fallback);
  m[lo] = first;
  if (m.find(hi) == m.end()) m[hi] = after;
  for (auto it = m.find(lo); it != m.end() && it->first < hi; ++it) change(it->second);
}

// Whether every piece of [lo, hi) has one value; that value or `mixed`.
template <typename V>
V uniform(const std::map<uintptr_t, V>& m, uintptr_t lo, uintptr_t hi, const V& fallback,
          const V& mixed) {
  V first = value_at(m, lo, fallback);
  for (auto it = m.upper_bound(lo); it != m.end() && it->first < hi; ++it)
    if (it->second != first) return mixed;
  return first;
}

Status advise(const void* ptr, size_t count, hipMemoryAdvise advice, int device,
              bool device_checked) {
  WEFT_RETURN_IF_ERROR(managed_range(ptr, count).status());
  switch (raw_value(advice)) {
    case hipMemAdviseSetReadMostly:
    case hipMemAdviseUnsetReadMostly:
      break;  // the device argument is ignored for read-mostly advice
    case hipMemAdviseSetPreferredLocation:
    case hipMemAdviseUnsetPreferredLocation:
    case hipMemAdviseSetAccessedBy:
    case hipMemAdviseUnsetAccessedBy:
    case hipMemAdviseSetCoarseGrain:
    case hipMemAdviseUnsetCoarseGrain:
      if (!device_checked) WEFT_RETURN_IF_ERROR(check_location(device));
      break;
    default:
      return invalid_value(fmt::format("{} is not a hipMemoryAdvise value", raw_value(advice)));
  }
  const auto lo = reinterpret_cast<uintptr_t>(ptr), hi = lo + count;
  Hints& h = hints();
  std::lock_guard lock(h.mutex);
  switch (advice) {
    case hipMemAdviseSetReadMostly: assign(h.read_mostly, lo, hi, 1, 0); break;
    case hipMemAdviseUnsetReadMostly: assign(h.read_mostly, lo, hi, 0, 0); break;
    case hipMemAdviseSetPreferredLocation:
      assign(h.preferred, lo, hi, device, hipInvalidDeviceId);
      break;
    case hipMemAdviseUnsetPreferredLocation:
      assign(h.preferred, lo, hi, int{hipInvalidDeviceId}, int{hipInvalidDeviceId});
      break;
    case hipMemAdviseSetCoarseGrain: assign(h.coarse_grain, lo, hi, 1, 0); break;
    case hipMemAdviseUnsetCoarseGrain: assign(h.coarse_grain, lo, hi, 0, 0); break;
    case hipMemAdviseSetAccessedBy:
      modify(h.accessed_by, lo, hi, std::set<int>{}, [&](std::set<int>& s) { s.insert(device); });
      break;
    case hipMemAdviseUnsetAccessedBy:
      modify(h.accessed_by, lo, hi, std::set<int>{}, [&](std::set<int>& s) { s.erase(device); });
      break;
    default: break;
  }
  return Status();
}

Status prefetch(const void* ptr, size_t count, int device, hipStream_t stream) {
  WEFT_RETURN_IF_ERROR(managed_range(ptr, count).status());
  WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
  (void)s;
  // Nothing is submitted (see the top of this file); the location is remembered.
  const auto lo = reinterpret_cast<uintptr_t>(ptr);
  Hints& h = hints();
  std::lock_guard lock(h.mutex);
  assign(h.last_prefetch, lo, lo + count, device, int{hipInvalidDeviceId});
  return Status();
}

Status range_attribute(void* data, size_t data_size, hipMemRangeAttribute attribute,
                       const void* ptr, size_t count) {
  if (!data) return invalid_value("null output");
  WEFT_RETURN_IF_ERROR(managed_range(ptr, count).status());
  const auto lo = reinterpret_cast<uintptr_t>(ptr), hi = lo + count;
  auto one_int = [&](int value) -> Status {
    if (data_size != sizeof(int))
      return invalid_value(fmt::format("data size {} is not 4", data_size));
    *static_cast<int*>(data) = value;
    return Status();
  };
  Hints& h = hints();
  std::lock_guard lock(h.mutex);
  switch (raw_value(attribute)) {
    case hipMemRangeAttributeReadMostly: return one_int(uniform(h.read_mostly, lo, hi, 0, 0));
    case hipMemRangeAttributePreferredLocation:
      return one_int(
          uniform(h.preferred, lo, hi, int{hipInvalidDeviceId}, int{hipInvalidDeviceId}));
    case hipMemRangeAttributeLastPrefetchLocation:
      return one_int(
          uniform(h.last_prefetch, lo, hi, int{hipInvalidDeviceId}, int{hipInvalidDeviceId}));
    case hipMemRangeAttributeCoherencyMode: {
      int coarse = uniform(h.coarse_grain, lo, hi, 0, -1);
      return one_int(coarse < 0 ? hipMemRangeCoherencyModeIndeterminate
                     : coarse   ? hipMemRangeCoherencyModeCoarseGrain
                                : hipMemRangeCoherencyModeFineGrain);
    }
    case hipMemRangeAttributeAccessedBy: {
      if (data_size == 0 || data_size % sizeof(int) != 0)
        return invalid_value(
            fmt::format("data size {} is not a positive multiple of 4", data_size));
      // The devices set for every piece of the range.
      std::set<int> all = value_at(h.accessed_by, lo, std::set<int>{});
      for (auto it = h.accessed_by.upper_bound(lo); it != h.accessed_by.end() && it->first < hi;
           ++it) {
        std::set<int> both;
        std::set_intersection(all.begin(), all.end(), it->second.begin(), it->second.end(),
                              std::inserter(both, both.begin()));
        all = std::move(both);
      }
      auto* out = static_cast<int*>(data);
      const size_t slots = data_size / sizeof(int);
      size_t i = 0;
      for (int device : all)
        if (i < slots) out[i++] = device;
      for (; i < slots; ++i) out[i] = hipInvalidDeviceId;
      return Status();
    }
    default:
      return invalid_value(fmt::format("{} is not a hipMemRangeAttribute", raw_value(attribute)));
  }
}

}  // namespace

WEFT_EXPORT hipError_t hipMemAdvise(const void* ptr, size_t count, hipMemoryAdvise advice,
                                    int device) {
  return call(
      "hipMemAdvise", [&] { return advise(ptr, count, advice, device, false); }, ptr, count, advice,
      device);
}

WEFT_EXPORT hipError_t hipMemAdvise_v2(const void* dev_ptr, size_t count, hipMemoryAdvise advice,
                                       hipMemLocation location) {
  return call(
      "hipMemAdvise_v2",
      [&] {
    WEFT_ASSIGN_OR_RETURN(int device, location_device(location));
    return advise(dev_ptr, count, advice, device, true);
      },
      dev_ptr, count, advice, location.type, location.id);
}

WEFT_EXPORT hipError_t hipMemPrefetchAsync(const void* ptr, size_t count, int device,
                                           hipStream_t stream) {
  return call(
      "hipMemPrefetchAsync",
      [&] {
    WEFT_RETURN_IF_ERROR(check_location(device));
    return prefetch(ptr, count, device, stream);
      },
      ptr, count, device, stream);
}

WEFT_EXPORT hipError_t hipMemPrefetchAsync_v2(const void* dev_ptr, size_t count,
                                              hipMemLocation location, unsigned int flags,
                                              hipStream_t stream) {
  return call(
      "hipMemPrefetchAsync_v2",
      [&] {
    if (flags != 0) return invalid_value("flags must be 0");
    WEFT_ASSIGN_OR_RETURN(int device, location_device(location));
    return prefetch(dev_ptr, count, device, stream);
      },
      dev_ptr, count, location.type, location.id, flags, stream);
}

WEFT_EXPORT hipError_t hipMemPrefetchBatchAsync(void** dev_ptrs, size_t* sizes, size_t count,
                                                hipMemLocation* prefetch_locs,
                                                size_t* prefetch_loc_idxs, size_t num_prefetch_locs,
                                                unsigned long long flags, hipStream_t stream) {
  return call(
      "hipMemPrefetchBatchAsync",
      [&]() -> Status {
        if (count == 0 || !dev_ptrs || !sizes)
          return invalid_value("no prefetches, or null arrays");
        if (num_prefetch_locs == 0 || num_prefetch_locs > count || !prefetch_locs ||
            !prefetch_loc_idxs)
          return invalid_value("locations must be 1 to count entries with their start indices");
        if (prefetch_loc_idxs[0] != 0)
          return invalid_value("the first location must start at prefetch 0");
        if (flags != 0) return invalid_value("flags must be 0");
        // Location i applies from prefetch_loc_idxs[i] up to the next one's start.
        std::vector<int> devices(count);
        for (size_t i = 0; i < num_prefetch_locs; ++i) {
          const size_t from = prefetch_loc_idxs[i],
                       to = i + 1 < num_prefetch_locs ? prefetch_loc_idxs[i + 1] : count;
          if (from >= to || to > count)
            return invalid_value(
                fmt::format("location start indices must increase below {}", count));
          WEFT_ASSIGN_OR_RETURN(int device, location_device(prefetch_locs[i]));
          for (size_t j = from; j < to; ++j) devices[j] = device;
        }
        for (size_t j = 0; j < count; ++j)
          WEFT_RETURN_IF_ERROR(managed_range(dev_ptrs[j], sizes[j]).status());
        for (size_t j = 0; j < count; ++j)
          WEFT_RETURN_IF_ERROR(prefetch(dev_ptrs[j], sizes[j], devices[j], stream));
        return Status();
      },
      dev_ptrs, sizes, count, prefetch_locs, prefetch_loc_idxs, num_prefetch_locs, flags, stream);
}

WEFT_EXPORT hipError_t hipMemRangeGetAttribute(void* data, size_t data_size,
                                               hipMemRangeAttribute attribute, const void* dev_ptr,
                                               size_t count) {
  return call(
      "hipMemRangeGetAttribute",
      [&] { return range_attribute(data, data_size, attribute, dev_ptr, count); }, data, data_size,
      attribute, dev_ptr, count);
}

WEFT_EXPORT hipError_t hipMemRangeGetAttributes(void** data, size_t* data_sizes,
                                                hipMemRangeAttribute* attributes,
                                                size_t num_attributes, const void* dev_ptr,
                                                size_t count) {
  return call(
      "hipMemRangeGetAttributes",
      [&]() -> Status {
        if (!data || !data_sizes || !attributes || num_attributes == 0)
          return invalid_value("no attributes, or null arrays");
        for (size_t i = 0; i < num_attributes; ++i) {
          Status status = range_attribute(data[i], data_sizes[i], attributes[i], dev_ptr, count);
          if (!status.ok())
            return Status(status.code(), fmt::format("attribute {}: {}", i, status.message()));
        }
        return Status();
      },
      data, data_sizes, attributes, num_attributes, dev_ptr, count);
}

WEFT_EXPORT hipError_t hipStreamAttachMemAsync(hipStream_t stream, void* dev_ptr, size_t length,
                                               unsigned int flags) {
  return call(
      "hipStreamAttachMemAsync",
      [&]() -> Status {
        if (flags != hipMemAttachGlobal && flags != hipMemAttachHost && flags != hipMemAttachSingle)
          return invalid_value(
              "flags must be one of hipMemAttachGlobal, hipMemAttachHost, hipMemAttachSingle");
        WEFT_ASSIGN_OR_RETURN(Ref<Stream> s, resolve_stream(stream));
        (void)s;
        if (!dev_ptr) return invalid_value("null pointer");
        auto record = Runtime::get().pointers().find(dev_ptr);
        if (!record || record->kind != AllocationKind::kManaged)
          return invalid_value(fmt::format("{} is not managed memory (hipMallocManaged)", dev_ptr));
        // As CUDA: the whole allocation (length 0 or its size, from its start).
        if (record->base != dev_ptr || (length != 0 && length != record->size))
          return invalid_value(
              "hipStreamAttachMemAsync takes a whole managed allocation (its base, length 0 or its "
              "size)");
        // Every agent may reach managed memory at any time in weft (nothing migrates), so
        // attaching it to a stream or to the host restricts nothing that could be observed.
        return Status();
      },
      stream, dev_ptr, length, flags);
}

// Not managed memory, but the same family of range queries: a dma-buf for a device
// range (for RDMA). Only a kernel driver can export dma-bufs, and no agent's driver
// interface here offers one (CUDA's cuMemGetHandleForAddressRange is not in its table),
// so a valid request is hipErrorNotSupported; bad ones get HIP's errors first.
WEFT_EXPORT hipError_t hipMemGetHandleForAddressRange(void* handle, hipDeviceptr_t dptr,
                                                      size_t size, hipMemRangeHandleType handleType,
                                                      unsigned long long flags) {
  return call(
      "hipMemGetHandleForAddressRange",
      [&]() -> Status {
        if (!handle || !dptr || size == 0)
          return invalid_value("null handle or pointer, or size 0");
        if (raw_value(handleType) != hipMemRangeHandleTypeDmaBufFd)
          return invalid_value(
              fmt::format("{} is not a hipMemRangeHandleType", raw_value(handleType)));
        if (flags != 0) return invalid_value("flags must be 0");
        auto record = Runtime::get().pointers().find(dptr);
        if (!record || record->kind != AllocationKind::kDevice || !record->contains(dptr, size))
          return invalid_value(
              fmt::format("{} + {} bytes is not inside one device allocation", dptr, size));
        return Status(hipErrorNotSupported,
                      "no agent here exports dma-bufs (the CPU agent's memory is not a "
                      "device buffer; the GPU drivers' dma-buf export is not wired up)");
      },
      handle, dptr, size, handleType, flags);
}
