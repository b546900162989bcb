// SPDX-License-Identifier: MIT
// A weft queue on a CUstream. Created CU_STREAM_NON_BLOCKING: the core
// implements HIP's legacy null-stream ordering itself, so CUDA's implicit
// synchronization with its own legacy stream must stay out of the way.
// Every op maps to asynchronous CUDA calls; host work goes through a HostLane.
// Thread-safe.
#pragma once

#include <memory>
#include <mutex>
#include <weft/driver/device.hpp>

#include "device.hpp"
#include "host_lane.hpp"

namespace weft::cuda {

class CudaQueue final : public Queue {
 public:
  CudaQueue(Ref<CudaDevice> device, CUstream stream);
  ~CudaQueue() override;

  Status submit(Op&& op) override;
  // cuMemcpy3DAsync with array operands (image.cpp).
  Status submit_array_copy(const ArrayCopyOp& op) override;
  Status synchronize() override;
  bool is_idle() override;

  CUstream stream() const { return stream_; }
  const CudaDevice& device() const { return *device_; }

 private:
  Status run(DispatchOp& op);
  Status run(CopyOp& op);
  Status run(FillOp& op);
  Status run(HostFuncOp& op);
  Status run(EventRecordOp& op);
  Status run(EventWaitOp& op);
  Result<HostLane*> lane();

  Ref<CudaDevice> device_;
  const Api& api_;
  const CUstream stream_;
  std::once_flag lane_once_;
  std::shared_ptr<HostLane> lane_;
  Status lane_status_;
};

}  // namespace weft::cuda
