// SPDX-License-Identifier: MIT
// The lock-free lookup paths of the handle registries (runtime/handle_registry.hpp,
// graph/handles.hpp), the held lookups without references (runtime/hazard.hpp hold
// slots) and the empty-clock fast path of StreamClock.
#include "runtime/handle_registry.hpp"
#include "graph/handles.hpp"
#include "runtime/stream_order.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

using weft::HandleRegistry;
using weft::make_ref;
using weft::Ref;
using weft::RefCounted;
using weft::StreamClock;

namespace {

std::atomic<int> g_alive{0};

class Thing final : public RefCounted {
 public:
  explicit Thing(int v) : value(v) { g_alive.fetch_add(1); }
  ~Thing() override {
    magic = 0;
    g_alive.fetch_sub(1);
  }
  int value;
  std::atomic<uint32_t> magic{0x7e57ab1e};
};

// The races below: readers sweep a fixed set of handles while the main thread
// replaces their objects round by round (removes the old one, whose last
// reference goes there, and adds a fresh one). Readers count what they saw;
// Catch2's assertions are not thread-safe, so the main thread checks.
struct ReplacementRace {
  explicit ReplacementRace(size_t slots) : handles(slots) {}

  // A reader's loop: `visit` each handle, sweep after sweep, until stopped.
  template <typename Visit>
  void sweep_until_stopped(Visit visit) {
    while (!stop.load(std::memory_order_relaxed)) {
      for (auto& h : handles) visit(h.load(std::memory_order_relaxed));
      passes.fetch_add(1, std::memory_order_relaxed);
    }
  }
  // A reader found `t`: it must be alive for all `reads`.
  void saw(const Thing& t, int reads) {
    for (int i = 0; i < reads; ++i)
      if (t.magic.load() != 0x7e57ab1e) dead_hits.fetch_add(1, std::memory_order_relaxed);
    hits.fetch_add(1, std::memory_order_relaxed);
  }
  // Runs the readers, one thread each, against `rounds` replacements and then as
  // many more as it takes them to sweep 6 times (on a loaded machine they may not
  // have run yet; all handles but one are live at any time); then removes the rest.
  void run(const std::vector<std::function<void()>>& readers, int rounds) {
    int round = 0;
    for (; round < int(handles.size()); ++round) replace(round);  // every handle live
    std::vector<std::thread> threads;
    for (const auto& r : readers) threads.emplace_back(r);
    for (; round < rounds; ++round) replace(round);
    for (; passes.load(std::memory_order_relaxed) < 6; ++round) {
      replace(round);
      std::this_thread::yield();
    }
    stop = true;
    for (auto& t : threads) t.join();
    for (auto& h : handles) registry.remove(h.load());
  }

  HandleRegistry<Thing> registry;
  std::vector<std::atomic<Thing*>> handles;
  const int alive_before = g_alive.load();
  std::atomic<bool> stop{false};
  std::atomic<long> hits{0};
  std::atomic<long> dead_hits{0};
  std::atomic<int> passes{0};  // full sweeps of the handles, all readers together

 private:
  void replace(int round) {
    size_t i = size_t(round) % handles.size();
    if (Thing* old = handles[i].load()) registry.remove(old);
    auto fresh = make_ref<Thing>(round);
    registry.add(fresh);
    handles[i].store(fresh.get());
  }
};

// A new Thing that only `registry` references.
Thing* add_owned_by_registry(HandleRegistry<Thing>& registry, int value) {
  auto thing = make_ref<Thing>(value);
  registry.add(thing);
  return thing.get();
}

// The hold cases' start: a registry whose one Thing (`raw`) only it references,
// the count of live Things before, and this thread's hazard record.
struct OneThing {
  explicit OneThing(int value)
      : raw(add_owned_by_registry(registry, value)), record(weft::hazard::record()) {}
  HandleRegistry<Thing> registry;
  const int alive_before = g_alive.load();
  Thing* raw;
  weft::hazard::Record* record;
};

void check(const ReplacementRace& race) {
  CHECK(race.dead_hits.load() == 0);
  CHECK(g_alive.load() == race.alive_before);
  CHECK(race.hits.load() > 0);
}

}  // namespace

TEST_CASE("Unit_HandleRegistry_FindsLiveHandlesOnly") {
  HandleRegistry<Thing> registry;
  // More objects than cache slots: some share a slot and are found in the map.
  std::vector<Ref<Thing>> things;
  for (int i = 0; i < 1000; ++i) {
    things.push_back(make_ref<Thing>(i));
    registry.add(things.back());
  }
  for (int i = 0; i < 1000; ++i) {
    Ref<Thing> found = registry.find(things[i].get());
    REQUIRE(found);
    CHECK(found->value == i);
  }
  CHECK_FALSE(registry.find(nullptr));
  int local = 0;
  CHECK_FALSE(registry.find(&local));
  for (int i = 0; i < 1000; i += 2) CHECK(registry.remove(things[i].get()));
  for (int i = 0; i < 1000; ++i) CHECK(bool(registry.find(things[i].get())) == (i % 2 == 1));
  CHECK_FALSE(registry.remove(things[0].get()));  // twice: unknown
  auto removed = registry.remove_if([](const Thing& t) { return t.value % 3 == 1; });
  for (const auto& t : removed) CHECK(t->value % 3 == 1);
  for (int i = 1; i < 1000; i += 2) CHECK(bool(registry.find(things[i].get())) == (i % 3 != 1));
}

TEST_CASE("Unit_HandleRegistry_LookupsRaceWithRemoval") {
  // Readers look up handles while a writer adds and destroys objects: a lookup
  // returns a live object or nothing, never one being destroyed.
  ReplacementRace race(64);
  auto reader = [&] {
    race.sweep_until_stopped([&](Thing* handle) {
      if (Ref<Thing> t = race.registry.find(handle)) race.saw(*t, 1);
    });
  };
  race.run({reader, reader, reader}, 20000);
  check(race);
}

TEST_CASE("Unit_HandleRegistry_RemoveWaitsForAHold") {
  namespace hazard = weft::hazard;
  OneThing one(42);
  auto& [registry, alive_before, raw, record] = one;
  REQUIRE(record);
  std::atomic<const void*>& slot = record->held[hazard::kHoldFirst];
  int local = 0;
  CHECK(registry.find_held(&local, slot) == nullptr);  // unknown: nothing held
  CHECK(slot.load() == nullptr);
  CHECK(registry.find_held(nullptr, slot) == nullptr);
  CHECK(slot.load() == nullptr);
  Thing* held = registry.find_held(raw, slot);
  REQUIRE(held == raw);
  CHECK(slot.load() == raw);
  std::atomic<bool> removed{false};
  std::thread remover([&] {
    Ref<Thing> last = registry.remove(raw);
    removed.store(bool(last));
  });  // drops the last reference on return
  // Once the map forgot the handle, the remover is past its erase and must wait
  // for the hold before it returns.
  while (registry.find(raw)) std::this_thread::yield();
  CHECK_FALSE(removed.load());
  CHECK(held->magic.load() == 0x7e57ab1e);
  CHECK(held->value == 42);
  {
    hazard::HoldEnd end;
    end.arm(slot);
  }  // the hold ends here
  CHECK(slot.load() == nullptr);
  remover.join();
  CHECK(removed.load());
  CHECK(g_alive.load() == alive_before);
  CHECK(registry.find_held(raw, slot) == nullptr);
}

TEST_CASE("Unit_HandleRegistry_HeldLookupsRaceWithRemoval") {
  // Like LookupsRaceWithRemoval, with readers that hold instead of referencing:
  // a held object stays alive until the hold ends.
  namespace hazard = weft::hazard;
  ReplacementRace race(64);
  auto reader = [&](size_t which) {
    hazard::Record* record = hazard::record();
    if (!record) return;
    race.sweep_until_stopped([&](Thing* handle) {
      hazard::HoldEnd end;
      Thing* t = race.registry.find_held(handle, record->held[which]);
      if (!t) return;
      end.arm(record->held[which]);
      race.saw(*t, 4);  // a few reads while held
    });
  };
  race.run({[&] { reader(hazard::kHoldFirst); }, [&] { reader(hazard::kHoldSecond); }}, 20000);
  check(race);
}

TEST_CASE("Unit_LiveSet_FindsLiveObjectsOnly") {
  weft::graph::LiveSet<Thing> set;
  std::vector<std::unique_ptr<Thing>> things;
  for (int i = 0; i < 600; ++i) {
    things.push_back(std::make_unique<Thing>(i));
    set.add(things.back().get());
  }
  for (auto& t : things) CHECK(set.find(t.get()) == t.get());
  CHECK(set.find(nullptr) == nullptr);
  for (int i = 0; i < 600; i += 3) set.remove(things[i].get());
  for (int i = 0; i < 600; ++i) CHECK((set.find(things[i].get()) != nullptr) == (i % 3 != 0));
}

TEST_CASE("Unit_StreamClock_EmptyClocksCopyWithoutEntries") {
  StreamClock stream, event, waiter;
  event.assign_from(stream);
  CHECK(event.snapshot().empty());
  CHECK(event.seen(7) == 0);
  stream.advance(7, 3);
  event.assign_from(stream);
  CHECK(event.seen(7) == 3);
  waiter.merge_from(event);
  CHECK(waiter.seen(7) == 3);
  StreamClock empty;
  event.assign_from(empty);  // a record on a stream with no history forgets the old one
  CHECK(event.seen(7) == 0);
  CHECK(event.snapshot().empty());
  waiter.merge_from(empty);
  CHECK(waiter.seen(7) == 3);
  waiter.clear();
  CHECK(waiter.seen(7) == 0);
  waiter.advance(9, 1);
  CHECK(waiter.seen(9) == 1);
}

TEST_CASE("Unit_HandleRegistry_RemoveParksAWaitingHold") {
  // A hold across a wait (hipEventSynchronize) does not hold up the remover: it
  // returns at once, and the object lives until the hold ends.
  namespace hazard = weft::hazard;
  OneThing one(7);
  auto& [registry, alive_before, raw, record] = one;
  REQUIRE(record);
  Thing* held = registry.find_waiting_held(raw, *record);
  REQUIRE(held == raw);
  // The slot is taken: a second waiting hold on this thread takes a reference.
  CHECK(registry.find_waiting_held(raw, *record) == nullptr);
  bool removed = false;  // Catch2's assertions stay on this thread
  std::thread remover([&] { removed = bool(registry.remove(raw)); });
  remover.join();  // did not wait for the hold
  CHECK(removed);
  CHECK_FALSE(registry.find(raw));
  CHECK(g_alive.load() == alive_before + 1);  // parked
  CHECK(held->magic.load() == 0x7e57ab1e);
  CHECK(held->value == 7);
  registry.end_waiting_hold(*record);
  CHECK(record->waiting.load() == nullptr);
  CHECK(g_alive.load() == alive_before);  // let go with the hold's end
  // Unknown handles hold nothing.
  int local = 0;
  CHECK(registry.find_waiting_held(&local, *record) == nullptr);
  CHECK(record->waiting.load() == nullptr);
}

TEST_CASE("Unit_HandleRegistry_WaitingHoldsRaceWithRemoval") {
  // Readers that hold across a "wait": a held object stays alive until its hold
  // ends, and no parked object outlives the last hold.
  namespace hazard = weft::hazard;
  ReplacementRace race(16);
  auto reader = [&] {
    hazard::Record* record = hazard::record();
    if (!record) return;
    race.sweep_until_stopped([&](Thing* handle) {
      Thing* t = race.registry.find_waiting_held(handle, *record);
      if (!t) return;
      race.saw(*t, 16);  // the "wait"
      race.registry.end_waiting_hold(*record);
    });
  };
  race.run({reader, reader}, 5000);
  check(race);
}
