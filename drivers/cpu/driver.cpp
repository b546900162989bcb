// SPDX-License-Identifier: MIT
// The CPU driver: one agent for the host, unless WEFT_CPU_AGENT=0 hides it.
#include "device.hpp"

#include <weft/common/env.hpp>
#include <weft/common/log.hpp>
#include <weft/driver/device.hpp>

#include <memory>

namespace weft::cpu {
namespace {

class CpuDriver final : public Driver {
 public:
  std::string_view name() const override { return "cpu"; }
  std::vector<Ref<Device>> devices() override {
    const auto& settings = env::settings();
    if (!settings.cpu_agent) {
      note_ = "hidden by WEFT_CPU_AGENT=0";
      return {};
    }
    HostFacts facts = read_host_facts();
    unsigned workers = settings.cpu_workers ? settings.cpu_workers : facts.usable_cores;
    if (workers > facts.usable_cores) {
      // More workers than cores only adds switching: the pool would never run
      // them at once (docs/settings.md).
      log::warn_once("WEFT_CPU_WORKERS",
                     fmt::format("WEFT_CPU_WORKERS={} exceeds the {} usable cores; using {}",
                                 workers, facts.usable_cores, facts.usable_cores));
      workers = facts.usable_cores;
    }
    note_ = "host CPU agent with " + std::to_string(workers) + " workers";
    return {Ref<Device>(
        make_ref<CpuDevice>(std::move(facts), workers, settings.cpu_fiber_stack_bytes))};
  }
  std::string status_note() const override { return note_; }

 private:
  std::string note_;
};

}  // namespace

std::unique_ptr<Driver> make_driver() { return std::make_unique<CpuDriver>(); }

}  // namespace weft::cpu
