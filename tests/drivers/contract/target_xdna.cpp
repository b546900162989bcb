// SPDX-License-Identifier: MIT
// Contract target: the AMD NPU driver (drivers/xdna) on the amdxdna double of
// tests/drivers/xdna/fake_xdna.*, with two NPUs (an NPU1 and an NPU4) so the
// cross-device checks run. The double completes commands itself; memory is
// SHMEM BOs the host maps, so every data check runs for real. The
// asynchronous failure is a kernel whose command the double's firmware ends in
// state ERROR (hipErrorLaunchFailure).
#include "driver.hpp"
#include "fake_xdna.hpp"
#include "module.hpp"
#include "npu_objects.hpp"
#include "os.hpp"
#include "target.hpp"

#include <cstring>

namespace {

std::unique_ptr<weft::Driver> make_on_double() {
  static const bool installed = [] {
    fake_xdna::NodeConfig npu1;
    fake_xdna::NodeConfig npu4;
    npu4.device_id = 0x17f0;
    npu4.revision = 0x10;
    npu4.bdf = "0000:c6:00.1";
    npu4.vbnv = "RyzenAI-npu4";
    npu4.columns = 8;
    fake_xdna::FakeXdna::get().configure({npu1, npu4});
    weft::xdna::set_os_for_testing(&fake_xdna::FakeXdna::get().table());
    return true;
  }();
  (void)installed;
  return weft::xdna::make_driver();
}

}  // namespace

namespace contract {

const Target& target() {
  static const Target t = [] {
    Target made;
    made.name = "xdna-fake";
    made.make_driver = make_on_double;
    made.failing_op = [](weft::Device& device) -> weft::Result<FailingOp> {
      // Loaded on this agent's own target, kept for the process (the kernel holds its context).
      auto image = xdna_test::test_object(16, 1, device.target_id());
      WEFT_ASSIGN_OR_RETURN(weft::Ref<weft::Module> module, device.load_module(image));
      static std::vector<weft::Ref<weft::Module>>* keep =
          new std::vector<weft::Ref<weft::Module>>();
      keep->push_back(module);
      WEFT_ASSIGN_OR_RETURN(weft::Ref<weft::Kernel> kernel, module->kernel("fault"));
      WEFT_ASSIGN_OR_RETURN(void* buffer, device.allocate(weft::MemoryKind::kDevice, 64, 0));
      weft::DispatchOp op;
      op.kernel = kernel;
      op.dims.grid = dim3(1, 1, 1);
      op.dims.block = dim3(1, 1, 1);
      op.kernarg.resize(kernel->info().kernarg_size);
      std::memcpy(op.kernarg.data(), &buffer, sizeof(buffer));
      return FailingOp{std::move(op), hipErrorLaunchFailure};
    };
    return made;
  }();
  return t;
}

}  // namespace contract
