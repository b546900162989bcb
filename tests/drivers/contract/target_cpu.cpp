// SPDX-License-Identifier: MIT
// Contract target: the CPU agent (drivers/cpu), the reference driver. Its
// asynchronous failure is a device-side assert in a single-source kernel: the
// launch ends with hipErrorAssert, which the queue then keeps returning.
#include <hip/weft/kernel_abi.h>

#include "target.hpp"

namespace weft::cpu {
std::unique_ptr<Driver> make_driver();
}

namespace contract {

const Target& target() {
  static const Target t = [] {
    Target made;
    made.name = "cpu";
    made.make_driver = [] { return weft::cpu::make_driver(); };
    made.failing_op = [](weft::Device&) -> weft::Result<FailingOp> {
      weftHostKernel k{};
      k.abiVersion = WEFT_KERNEL_ABI_VERSION;
      k.name = "contract_assert";
      k.entry = [](weftKernelContext*, void*) {
        weftKernelAssertFail("contract check: this kernel always fails", __FILE__, __LINE__,
                             "contract_assert");
      };
      weft::DispatchOp op;
      op.host_kernel = weft::make_ref<weft::HostKernel>(k);
      op.dims.grid = dim3(1, 1, 1);
      op.dims.block = dim3(1, 1, 1);
      return FailingOp{std::move(op), hipErrorAssert};
    };
    return made;
  }();
  return t;
}

}  // namespace contract
