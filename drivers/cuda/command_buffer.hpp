// SPDX-License-Identifier: MIT
// The NVIDIA agent's command buffer (graph plans, docs/graphs.md): the plan's
// steps become a native CUgraph, instantiated once, so a replay is one
// cuGraphLaunch.
//
// Kernels, copies between memory CUDA knows (device, pinned, registered,
// managed), fills and this device's event records and waits become CUgraph
// nodes with the plan's dependencies as edges. Anything else (host functions,
// waits on other agents' events, copies touching pageable memory, steps CUDA
// refuses) runs through the queue as in a direct submission; such a step
// splits the plan into segments, each native segment its own CUgraphExec,
// launched in record order on the stream (record order is a topological
// order, so dependencies that cross segments hold by stream order).
//
// Recording only classifies the steps; finalize() builds each native segment's
// CUgraph (one cuGraphAdd*Node per step) and instantiates it. Building costs
// about as much as instantiating, so finished CUgraphs are kept as templates
// in a small per-process cache keyed by their exact content (kernels and
// their argument bytes, copy and fill parameters, edges): instantiating the
// same plan again (the same graph, or an equal one) only instantiates.
// Templates are never modified after they are built; they keep their kernels'
// modules loaded while cached. Segments with event nodes are not cached.
//
// Patches map to cuGraphExec*SetParams / cuGraphNodeSetEnabled, which CUDA
// applies to later launches only (queued replays keep what they saw). A patch
// CUDA refuses returns hipErrorNotSupported: the core then falls back to
// per-step submission for that plan.
//
// Needs the optional graph entry points of the symbol table (CUDA 11.6+);
// CudaDevice::create_command_buffer answers hipErrorNotSupported without them.
// Externally synchronized, as CommandBuffer requires.
#pragma once

#include <memory>
#include <vector>
#include <weft/driver/device.hpp>

#include "device.hpp"

namespace weft::cuda {

class CudaCommandBuffer final : public CommandBuffer {
 public:
  // Whether `api` has every entry point this buffer uses.
  static bool supported(const Api& api);
  explicit CudaCommandBuffer(Ref<CudaDevice> device);
  ~CudaCommandBuffer() override;

  Status record(const Op& op) override;
  Status record_after(const Op& op, std::span<const uint32_t> deps) override;
  Status finalize() override;
  Status submit(Queue& queue) override;
  Status update(size_t index, const Op& op) override;
  Status set_enabled(size_t index, bool enabled) override;

  // For tests and the benchmark: how the plan was lowered.
  size_t native_segments() const;
  size_t queue_steps() const;

 private:
  enum class Kind : uint8_t { kKernel, kCopy, kFill, kRecord, kWait, kQueue };
  struct Step {
    Op op;
    Kind kind = Kind::kQueue;
    uint32_t segment = 0;
    uint32_t position = 0;        // in its segment
    std::vector<uint32_t> edges;  // native steps: positions in the segment it follows
    CUgraphNode node = nullptr;   // native steps, after finalize()
    bool enabled = true;
  };
 public:
  struct Template;  // a built CUgraph (command_buffer.cpp)

 private:
  struct Segment {
    bool native = false;
    std::vector<uint32_t> steps;  // the segment's steps, in record order
    std::shared_ptr<Template> graph;
    CUgraphExec exec = nullptr;
  };

  // How `op` would be lowered; kQueue when it cannot be a native node.
  Kind classify(const Op& op) const;
  Status update_kernel(Step& s, const Op& op);
  // The segment's CUgraph: from the cache, or built.
  Result<std::shared_ptr<Template>> template_for(const Segment& segment);

  Ref<CudaDevice> device_;
  const Api& api_;
  std::vector<Step> steps_;
  std::vector<Segment> segments_;
  std::vector<uint32_t> records_;  // native event-record steps (marked recorded per submit)
  bool finalized_ = false;
};

}  // namespace weft::cuda
