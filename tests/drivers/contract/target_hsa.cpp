// SPDX-License-Identifier: MIT
// Contract target: the AMD GPU driver (drivers/hsa) on the ROCr double of
// tests/drivers/hsa/fake_hsa.*, with two GPU agents. The double plays the
// packet processor and DMA engines on host memory, so data checks run for
// real. This target adds what ROCr itself enforces and the double does not: a
// pool refuses allocations larger than the agent's memory, and an IPC handle
// that names nothing does not attach. The asynchronous failure is a dispatch
// of a kernel object the double faults (a memory fault: hipErrorIllegalAddress).
#include <cstring>

#include "api.hpp"
#include "device.hpp"
#include "fake_hsa.hpp"
#include "module.hpp"
#include "target.hpp"

namespace weft::hsa {
std::unique_ptr<Driver> make_driver();
}

namespace {

const weft::hsa::Api* g_double = nullptr;
constexpr uint64_t kFaultingObject = 0xFA017ull;
constexpr size_t kPoolBytes = size_t(64) << 30;  // GpuConfig::coarse_bytes

hsa_status_t pool_allocate(hsa_amd_memory_pool_t pool, size_t size, uint32_t flags, void** ptr) {
  if (size > kPoolBytes) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  return g_double->hsa_amd_memory_pool_allocate(pool, size, flags, ptr);
}

hsa_status_t ipc_attach(const hsa_amd_ipc_memory_t* handle, size_t size, uint32_t count,
                        const hsa_agent_t* agents, void** mapped) {
  static const hsa_amd_ipc_memory_t kNothing{};
  if (std::memcmp(handle, &kNothing, sizeof(kNothing)) == 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return g_double->hsa_amd_ipc_memory_attach(handle, size, count, agents, mapped);
}

// Each GPU agent its own UUID ("GPU-" and 16 hex digits), as on a real machine.
hsa_status_t agent_info(hsa_agent_t agent, hsa_agent_info_t attribute, void* value) {
  hsa_status_t s = g_double->hsa_agent_get_info(agent, attribute, value);
  if (s == HSA_STATUS_SUCCESS && attribute == hsa_agent_info_t(HSA_AMD_AGENT_INFO_UUID)) {
    auto* text = static_cast<char*>(value);
    if (std::strncmp(text, "GPU-", 4) == 0 && std::strlen(text) >= 20)
      text[19] = "0123456789abcdef"[agent.handle & 0xf];
  }
  return s;
}

void install_double() {
  // Never destroyed (driver objects live to the end); held here so that leak
  // checkers see it reachable.
  static fake_hsa::FakeHsa* fake = new fake_hsa::FakeHsa();
  fake_hsa::state().gpus.push_back(fake_hsa::GpuConfig{});
  fake_hsa::state().fault_object = kFaultingObject;
  g_double = &fake->api();
  static weft::hsa::Api table = fake->api();
  table.hsa_amd_memory_pool_allocate = pool_allocate;
  table.hsa_amd_ipc_memory_attach = ipc_attach;
  table.hsa_agent_get_info = agent_info;
  weft::hsa::set_api_for_testing(&table);
}

std::unique_ptr<weft::Driver> make_on_double() {
  static const bool installed = (install_double(), true);
  (void)installed;
  return weft::hsa::make_driver();
}

}  // namespace

namespace contract {

const Target& target() {
  static const Target t = [] {
    Target made;
    made.name = "hsa-fake";
    made.make_driver = make_on_double;
    made.failing_op = [](weft::Device& device) -> weft::Result<FailingOp> {
      auto& gpu = static_cast<weft::hsa::HsaDevice&>(device);
      weft::KernelInfo info;
      info.name = "contract_faulting_kernel";
      info.kernarg_size = 8;
      weft::DispatchOp op;
      op.kernel = weft::make_ref<weft::hsa::HsaKernel>(
          nullptr, gpu, info, kFaultingObject, std::vector<weft::hsa::aql::HiddenArg>{}, false);
      op.dims.grid = dim3(1, 1, 1);
      op.dims.block = dim3(64, 1, 1);
      op.kernarg.resize(8);
      return FailingOp{std::move(op), hipErrorIllegalAddress};
    };
    return made;
  }();
  return t;
}

}  // namespace contract
