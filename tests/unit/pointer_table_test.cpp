// SPDX-License-Identifier: MIT
#include "runtime/pointer_table.hpp"

#include <catch2/catch.hpp>

#include <thread>
#include <vector>

using weft::AllocationKind;
using weft::AllocationRecord;
using weft::PointerTable;

namespace {
AllocationRecord record_at(std::byte* base, size_t size, int device = 0,
                           AllocationKind kind = AllocationKind::kDevice) {
  AllocationRecord r;
  r.base = base;
  r.size = size;
  r.device = device;
  r.kind = kind;
  return r;
}
}  // namespace

TEST_CASE("Unit_PointerTable_FindsInteriorPointers") {
  std::vector<std::byte> arena(4096);
  PointerTable table;
  table.insert(record_at(arena.data() + 100, 50));
  table.insert(record_at(arena.data() + 200, 10));
  CHECK_FALSE(table.find(arena.data() + 99));
  CHECK(table.find(arena.data() + 100)->base == arena.data() + 100);
  CHECK(table.find(arena.data() + 149)->base == arena.data() + 100);
  CHECK_FALSE(table.find(arena.data() + 150));
  CHECK(table.find(arena.data() + 209)->size == 10);
  CHECK_FALSE(table.find(arena.data() + 210));
}

TEST_CASE("Unit_AllocationRecord_ContainsChecksBounds") {
  std::vector<std::byte> arena(64);
  auto r = record_at(arena.data(), 32);
  CHECK(r.contains(arena.data(), 32));
  CHECK(r.contains(arena.data() + 31, 1));
  CHECK_FALSE(r.contains(arena.data() + 31, 2));
  CHECK_FALSE(r.contains(arena.data(), 33));
  CHECK_FALSE(r.contains(arena.data() + 1, SIZE_MAX));  // no wrap-around
}

TEST_CASE("Unit_PointerTable_EraseOnlyByBase") {
  std::vector<std::byte> arena(64);
  PointerTable table;
  table.insert(record_at(arena.data(), 32));
  CHECK_FALSE(table.erase(arena.data() + 1));
  CHECK(table.erase(arena.data()));
  CHECK_FALSE(table.find(arena.data()));
}

TEST_CASE("Unit_PointerTable_EraseDeviceKeepsRegistrations") {
  std::vector<std::byte> arena(256);
  PointerTable table;
  table.insert(record_at(arena.data(), 16, 0));
  table.insert(record_at(arena.data() + 32, 16, 1));
  table.insert(record_at(arena.data() + 64, 16, 0, AllocationKind::kRegistered));
  auto removed = table.erase_device(0);
  REQUIRE(removed.size() == 1);
  CHECK(removed[0].base == arena.data());
  CHECK(table.find(arena.data() + 32));
  CHECK(table.find(arena.data() + 64));
}

TEST_CASE("Unit_PointerTable_ConcurrentInsertFind") {
  std::vector<std::byte> arena(64 * 1024);
  PointerTable table;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        std::byte* base = arena.data() + (t * 1000 + i) * 16;
        table.insert(record_at(base, 16));
        (void)table.find(base + 8);
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int i = 0; i < 4000; ++i) REQUIRE(table.find(arena.data() + i * 16 + 15));
}
