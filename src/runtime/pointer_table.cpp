// SPDX-License-Identifier: MIT
#include "runtime/pointer_table.hpp"

#include <mutex>

namespace weft {

void PointerTable::insert(const AllocationRecord& record) {
  std::unique_lock lock(mutex_);
  by_base_[reinterpret_cast<uintptr_t>(record.base)] = record;
}

std::optional<AllocationRecord> PointerTable::erase(const void* base) {
  std::unique_lock lock(mutex_);
  auto it = by_base_.find(reinterpret_cast<uintptr_t>(base));
  if (it == by_base_.end()) return std::nullopt;
  AllocationRecord record = it->second;
  by_base_.erase(it);
  return record;
}

std::optional<AllocationRecord> PointerTable::find(const void* ptr) const {
  auto key = reinterpret_cast<uintptr_t>(ptr);
  std::shared_lock lock(mutex_);
  auto it = by_base_.upper_bound(key);
  if (it == by_base_.begin()) return std::nullopt;
  --it;
  const AllocationRecord& r = it->second;
  // A zero-size record (never created today) would still own its base address.
  if (key - it->first < std::max<size_t>(r.size, 1)) return r;
  return std::nullopt;
}

PointerTable::Neighbours PointerTable::neighbours(const void* ptr) const {
  auto key = reinterpret_cast<uintptr_t>(ptr);
  std::shared_lock lock(mutex_);
  Neighbours result;
  auto above = by_base_.upper_bound(key);
  if (above != by_base_.end()) result.above = above->second;
  if (above != by_base_.begin()) result.below = std::prev(above)->second;
  return result;
}

void PointerTable::replace_virtual(const void* lo, const void* hi,
                                   const std::vector<AllocationRecord>& records) {
  std::unique_lock lock(mutex_);
  auto it = by_base_.lower_bound(reinterpret_cast<uintptr_t>(lo));
  while (it != by_base_.end() && it->first < reinterpret_cast<uintptr_t>(hi)) {
    if (it->second.virtual_mapping) it = by_base_.erase(it);
    else ++it;
  }
  for (const AllocationRecord& record : records)
    by_base_[reinterpret_cast<uintptr_t>(record.base)] = record;
}

std::vector<AllocationRecord> PointerTable::erase_device(int device) {
  std::unique_lock lock(mutex_);
  std::vector<AllocationRecord> out;
  for (auto it = by_base_.begin(); it != by_base_.end();) {
    if (it->second.device == device && it->second.kind != AllocationKind::kRegistered &&
        !it->second.virtual_mapping) {
      out.push_back(it->second);
      it = by_base_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

}  // namespace weft
