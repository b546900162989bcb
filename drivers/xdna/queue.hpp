// SPDX-License-Identifier: MIT
// XdnaQueue: an in-order NPU queue. submit() checks and prepares an op (a
// launch's ERT packet and BO list are built there, so a bad argument fails
// synchronously) and hands it to the queue's thread, which runs ops one at a
// time: a launch is written to the queue's CMD BO, submitted with EXEC_CMD and
// waited for on the context's DRM timeline syncobj at the returned sequence
// number, then its state word is checked. Copies, fills and host functions run
// on that thread in order. The first asynchronous error sticks: later ops are
// dropped (events still complete, host functions still run, so nothing waits
// forever). Thread-safe; dropping the last reference never blocks, the thread
// drains what was submitted and exits on its own.
#pragma once

#include <weft/driver/device.hpp>

#include "device.hpp"
#include "event.hpp"
#include "module.hpp"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <variant>
#include <vector>

namespace weft::xdna {

// A launch, ready to write: the words after the header and the BO handles.
struct PreparedLaunch {
  Ref<XdnaKernel> kernel;
  uint32_t header = 0;
  std::vector<uint32_t> words;    // CU masks, then the register map
  std::vector<uint32_t> handles;  // EXEC_CMD args: the instruction BO, then each buffer's BO once
  std::vector<Bo> buffers;        // synced to the device before, from it after
};

struct RecordWork {
  Ref<XdnaEvent> event;
  uint64_t number = 0;
};
struct WaitWork {
  Ref<Event> event;
  Ref<XdnaEvent> own;  // set when the event is this driver's
  uint64_t number = 0;
};

using Work = std::variant<PreparedLaunch, CopyOp, FillOp, HostFuncOp, RecordWork, WaitWork>;

// Builds the ERT START_CU packet of a launch (exposed for white-box tests).
Result<PreparedLaunch> prepare_launch(XdnaDevice& device, const DispatchOp& op);

class XdnaQueue final : public Queue {
 public:
  XdnaQueue(Ref<XdnaDevice> device, Bo cmd);
  ~XdnaQueue() override;

  Status submit(Op&& op) override;
  Status synchronize() override;
  bool is_idle() override;

 private:
  struct State;
  Status push(Work work);
  std::shared_ptr<State> state_;
};

}  // namespace weft::xdna
