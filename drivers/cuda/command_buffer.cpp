// SPDX-License-Identifier: MIT
#include "command_buffer.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <typeinfo>

#include "event.hpp"
#include "module.hpp"
#include "queue.hpp"
#include "status.hpp"

namespace weft::cuda {
namespace {

CUdeviceptr address(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

CudaKernel* cuda_kernel(const DispatchOp& op) {
  Kernel* any = op.kernel.get();
  return any && typeid(*any) == typeid(CudaKernel) ? static_cast<CudaKernel*>(any) : nullptr;
}

// A kernel node's parameters, pointing into the op's packed arguments (CUDA
// copies them when the node is added or patched).
struct KernelParams {
  static constexpr size_t kMaxParams = 64;
  CUDA_KERNEL_NODE_PARAMS p;
  void* args[kMaxParams];
  size_t size = 0;
  void* extra[5];

  // Fills the parameters; the op's kernel must be a CudaKernel.
  Status build(const DispatchOp& op, CudaKernel& kernel) {
    std::memset(&p, 0, sizeof p);
    const KernelInfo& info = kernel.info();
    const LaunchDims& d = op.dims;
    if (d.dynamic_shared_bytes + info.static_shared_bytes > 48 * 1024)
      WEFT_RETURN_IF_ERROR(kernel.allow_dynamic_shared(d.dynamic_shared_bytes));
    p.func = kernel.function();
    p.gridDimX = d.grid.x;
    p.gridDimY = d.grid.y;
    p.gridDimZ = d.grid.z;
    p.blockDimX = d.block.x;
    p.blockDimY = d.block.y;
    p.blockDimZ = d.block.z;
    p.sharedMemBytes = d.dynamic_shared_bytes;
    const size_t count = info.args.size();
    if (count > 0 && count <= kMaxParams) {
      auto* base = const_cast<std::byte*>(op.kernarg.data());  // CUDA only reads them
      for (size_t i = 0; i < count; ++i) args[i] = base + info.args[i].offset;
      p.kernelParams = args;
      return Status();
    }
    // No layout: the blob itself, exactly the parameters' size (as CudaQueue).
    size = info.kernarg_size ? info.kernarg_size : op.kernarg.size();
    if (size == 0) return Status();
    extra[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
    extra[1] = const_cast<std::byte*>(op.kernarg.data());
    extra[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
    extra[3] = &size;
    extra[4] = CU_LAUNCH_PARAM_END;
    p.extra = extra;
    return Status();
  }
};

CUDA_MEMCPY3D copy_params(const CopyOp& op) {
  CUDA_MEMCPY3D c;
  std::memset(&c, 0, sizeof c);
  const bool one_row = op.height == 1;
  c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  c.srcDevice = address(op.src);
  c.srcPitch = one_row ? op.width : op.src_pitch;
  c.srcHeight = op.height;
  c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  c.dstDevice = address(op.dst);
  c.dstPitch = one_row ? op.width : op.dst_pitch;
  c.dstHeight = op.height;
  c.WidthInBytes = op.width;
  c.Height = op.height;
  c.Depth = 1;
  return c;
}

CUDA_MEMSET_NODE_PARAMS fill_params(const FillOp& op) {
  CUDA_MEMSET_NODE_PARAMS m;
  std::memset(&m, 0, sizeof m);
  m.dst = address(op.dst);
  m.elementSize = static_cast<unsigned>(op.element_size);
  m.width = op.width_elements;
  m.height = op.height;
  m.pitch = op.height > 1 ? op.pitch : op.width_elements * op.element_size;
  m.value = op.element_size == 1 ? (op.value & 0xffu)
          : op.element_size == 2 ? (op.value & 0xffffu)
                                 : op.value;
  return m;
}

Status refused(CUresult r, const char* call) {
  Status s = status_from_cuda(r, call);
  return Status(hipErrorNotSupported, "the native graph cannot take this change: " + s.message());
}

}  // namespace

bool CudaCommandBuffer::supported(const Api& a) {
  return a.cuGraphCreate && a.cuGraphDestroy && a.cuGraphAddKernelNode && a.cuGraphAddMemcpyNode &&
         a.cuGraphAddMemsetNode && a.cuGraphAddEventRecordNode && a.cuGraphAddEventWaitNode &&
         a.cuGraphInstantiateWithFlags && a.cuGraphExecDestroy && a.cuGraphLaunch &&
         a.cuGraphExecKernelNodeSetParams && a.cuGraphExecMemcpyNodeSetParams &&
         a.cuGraphExecMemsetNodeSetParams && a.cuGraphExecEventRecordNodeSetEvent &&
         a.cuGraphExecEventWaitNodeSetEvent && a.cuGraphNodeSetEnabled && a.cuPointerGetAttribute;
}

CudaCommandBuffer::CudaCommandBuffer(Ref<CudaDevice> device)
    : device_(std::move(device)), api_(device_->api()) {}

CudaCommandBuffer::~CudaCommandBuffer() {
  if (!device_->make_current().ok()) return;
  // Launches still in flight finish; CUDA frees the executable graph after them.
  // The CUgraph templates go with their last holder (this or the cache).
  for (Segment& s : segments_)
    if (s.exec) (void)api_.cuGraphExecDestroy(s.exec);
}

CudaCommandBuffer::Kind CudaCommandBuffer::classify(const Op& op) const {
  if (auto* d = std::get_if<DispatchOp>(&op)) {
    CudaKernel* k = cuda_kernel(*d);
    if (!k || &k->device() != device_.get() || d->kernarg.size() < k->info().kernarg_size)
      return Kind::kQueue;  // fails there exactly as a direct launch would
    return Kind::kKernel;
  }
  if (auto* c = std::get_if<CopyOp>(&op)) {
    if (c->width == 0 || c->height == 0) return Kind::kQueue;
    // Both sides must be memory CUDA knows (pageable memory has its own copy
    // semantics, kept by the queue) and device memory must be this device's.
    for (const void* p : {static_cast<const void*>(c->src), static_cast<const void*>(c->dst)}) {
      unsigned type = 0;
      if (api_.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address(p)) !=
          CUDA_SUCCESS)
        return Kind::kQueue;
      if (type == CU_MEMORYTYPE_DEVICE) {
        int ordinal = -1;
        if (api_.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, address(p)) !=
                CUDA_SUCCESS ||
            ordinal != static_cast<int>(device_->handle()))
          return Kind::kQueue;
      }
    }
    return Kind::kCopy;
  }
  if (auto* f = std::get_if<FillOp>(&op)) {
    if (f->width_elements == 0 || f->height == 0) return Kind::kQueue;
    if (f->element_size != 1 && f->element_size != 2 && f->element_size != 4) return Kind::kQueue;
    unsigned type = 0;
    int ordinal = -1;
    if (api_.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, address(f->dst)) !=
            CUDA_SUCCESS ||
        type != CU_MEMORYTYPE_DEVICE ||
        api_.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                   address(f->dst)) != CUDA_SUCCESS ||
        ordinal != static_cast<int>(device_->handle()))
      return Kind::kQueue;
    return Kind::kFill;
  }
  if (auto* r = std::get_if<EventRecordOp>(&op)) {
    auto* e = dynamic_cast<CudaEvent*>(r->event.get());
    return e && &e->device() == device_.get() ? Kind::kRecord : Kind::kQueue;
  }
  if (auto* w = std::get_if<EventWaitOp>(&op)) {
    auto* e = dynamic_cast<CudaEvent*>(w->event.get());
    return e && &e->device() == device_.get() ? Kind::kWait : Kind::kQueue;
  }
  return Kind::kQueue;  // host functions
}

namespace {

// The lock of a template's CUDA calls. A patch takes it on every SetParams, and
// it is almost never contended (two plans of one cached graph instantiated or
// patched at the same time), so taking it is one exchange and giving it back
// one store (a std::mutex costs two locked instructions and two calls into
// libc, about 80 instructions a patch). A waiter yields, then sleeps in short
// steps: the holder may be instantiating a large graph.
class GraphLock {
 public:
  void lock() noexcept {
    if (!held_.exchange(true, std::memory_order_acquire)) [[likely]]
      return;
    for (int spins = 0;; ++spins) {
      if (!held_.load(std::memory_order_relaxed) &&
          !held_.exchange(true, std::memory_order_acquire))
        return;
      if (spins < 64) std::this_thread::yield();
      else std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  void unlock() noexcept { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};

}  // namespace

// A built CUgraph and its nodes (by position in the segment). Immutable once
// built; `mutex` serializes the calls CUDA requires to be (instantiation and
// patches name the graph's nodes).
struct CudaCommandBuffer::Template {
  Ref<CudaDevice> device;
  CUgraph graph = nullptr;
  std::vector<CUgraphNode> nodes;
  std::vector<Ref<Kernel>> kernels;  // keeps each CUfunction's module loaded
  GraphLock mutex;

  ~Template() {
    if (graph && device->make_current().ok()) (void)device->api().cuGraphDestroy(graph);
  }
};

namespace {

// Finished CUgraphs by exact content, most recently used first. Leaked: it
// must not outlive libcuda at exit.
struct TemplateCache {
  static constexpr size_t kCapacity = 8;
  struct Entry {
    const CudaDevice* device;
    std::string key;
    std::shared_ptr<CudaCommandBuffer::Template> graph;
  };
  std::mutex mutex;
  std::vector<Entry> entries;

  std::shared_ptr<CudaCommandBuffer::Template> find(const CudaDevice* device,
                                                    const std::string& key) {
    std::lock_guard lock(mutex);
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].device != device || entries[i].key != key) continue;
      auto found = entries[i].graph;
      std::rotate(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(i),
                  entries.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return found;
    }
    return nullptr;
  }
  void insert(const CudaDevice* device, std::string key,
              std::shared_ptr<CudaCommandBuffer::Template> graph) {
    std::shared_ptr<CudaCommandBuffer::Template> evicted;  // destroyed outside the lock
    std::lock_guard lock(mutex);
    if (entries.size() == kCapacity) {
      evicted = std::move(entries.back().graph);
      entries.pop_back();
    }
    entries.insert(entries.begin(), Entry{device, std::move(key), std::move(graph)});
  }
};

TemplateCache& template_cache() {
  static TemplateCache* cache = new TemplateCache();
  return *cache;
}

template <typename T>
void append(std::string& key, const T& value) {
  key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

}  // namespace

Result<std::shared_ptr<CudaCommandBuffer::Template>> CudaCommandBuffer::template_for(
    const Segment& segment) {
  // The segment's exact content. Parameter structs are zeroed before they are
  // filled, so their bytes compare.
  std::string key;
  bool cacheable = true;
  for (uint32_t i : segment.steps) {
    Step& step = steps_[i];
    append(key, step.kind);
    switch (step.kind) {
      case Kind::kKernel: {
        auto& op = std::get<DispatchOp>(step.op);
        append(key, cuda_kernel(op)->function());
        append(key, op.dims.grid);
        append(key, op.dims.block);
        append(key, op.dims.dynamic_shared_bytes);
        append(key, op.kernarg.size());
        key.append(reinterpret_cast<const char*>(op.kernarg.data()), op.kernarg.size());
        break;
      }
      case Kind::kCopy: append(key, copy_params(std::get<CopyOp>(step.op))); break;
      case Kind::kFill: append(key, fill_params(std::get<FillOp>(step.op))); break;
      default: cacheable = false; break;  // events: the CUgraph would outlive them
    }
    append(key, step.edges.size());
    for (uint32_t e : step.edges) append(key, e);
  }
  if (cacheable)
    if (auto found = template_cache().find(device_.get(), key)) return found;

  auto t = std::make_shared<Template>();
  t->device = device_;
  WEFT_CU_RETURN_IF_ERROR(api_.cuGraphCreate(&t->graph, 0));
  t->nodes.reserve(segment.steps.size());
  std::vector<CUgraphNode> deps;
  for (uint32_t i : segment.steps) {
    Step& step = steps_[i];
    deps.clear();
    for (uint32_t e : step.edges) deps.push_back(t->nodes[e]);
    CUgraphNode node = nullptr;
    CUresult r = CUDA_SUCCESS;
    const char* call = "";
    switch (step.kind) {
      case Kind::kKernel: {
        auto& op = std::get<DispatchOp>(step.op);
        KernelParams k;
        WEFT_RETURN_IF_ERROR(k.build(op, *cuda_kernel(op)));
        r = api_.cuGraphAddKernelNode(&node, t->graph, deps.data(), deps.size(), &k.p);
        call = "cuGraphAddKernelNode";
        t->kernels.push_back(op.kernel);
        break;
      }
      case Kind::kCopy: {
        CUDA_MEMCPY3D c = copy_params(std::get<CopyOp>(step.op));
        r = api_.cuGraphAddMemcpyNode(&node, t->graph, deps.data(), deps.size(), &c,
                                      device_->context());
        call = "cuGraphAddMemcpyNode";
        break;
      }
      case Kind::kFill: {
        CUDA_MEMSET_NODE_PARAMS m = fill_params(std::get<FillOp>(step.op));
        r = api_.cuGraphAddMemsetNode(&node, t->graph, deps.data(), deps.size(), &m,
                                      device_->context());
        call = "cuGraphAddMemsetNode";
        break;
      }
      case Kind::kRecord: {
        auto* e = static_cast<CudaEvent*>(std::get<EventRecordOp>(step.op).event.get());
        r = api_.cuGraphAddEventRecordNode(&node, t->graph, deps.data(), deps.size(), e->handle());
        call = "cuGraphAddEventRecordNode";
        break;
      }
      case Kind::kWait: {
        auto* e = static_cast<CudaEvent*>(std::get<EventWaitOp>(step.op).event.get());
        r = api_.cuGraphAddEventWaitNode(&node, t->graph, deps.data(), deps.size(), e->handle());
        call = "cuGraphAddEventWaitNode";
        break;
      }
      case Kind::kQueue: return Status(hipErrorIllegalState, "a queue step in a native segment");
    }
    WEFT_RETURN_IF_ERROR(status_from_cuda(r, call));
    t->nodes.push_back(node);
  }
  if (cacheable) template_cache().insert(device_.get(), std::move(key), t);
  return t;
}

Status CudaCommandBuffer::record(const Op& op) {
  // Without dependencies: in order after the previous record.
  if (steps_.empty()) return record_after(op, {});
  uint32_t previous = static_cast<uint32_t>(steps_.size() - 1);
  return record_after(op, std::span<const uint32_t>(&previous, 1));
}

Status CudaCommandBuffer::record_after(const Op& op, std::span<const uint32_t> deps) {
  if (finalized_) return Status(hipErrorIllegalState, "command buffer already finalized");
  WEFT_RETURN_IF_ERROR(device_->make_current());
  Step step;
  step.op = op;
  step.kind = classify(step.op);
  const bool native = step.kind != Kind::kQueue;
  if (segments_.empty() || segments_.back().native != native) {
    segments_.emplace_back();
    segments_.back().native = native;
  }
  Segment& segment = segments_.back();
  const uint32_t index = static_cast<uint32_t>(steps_.size());
  step.segment = static_cast<uint32_t>(segments_.size() - 1);
  if (native) {
    // Dependencies inside this segment become edges (by position in it);
    // earlier segments are ordered by the stream already.
    for (uint32_t d : deps)
      if (d < steps_.size() && steps_[d].segment == step.segment)
        step.edges.push_back(steps_[d].position);
    if (step.kind == Kind::kRecord) records_.push_back(index);
  }
  step.position = static_cast<uint32_t>(segment.steps.size());
  segment.steps.push_back(index);
  steps_.push_back(std::move(step));
  return Status();
}

Status CudaCommandBuffer::finalize() {
  if (finalized_) return Status();
  WEFT_RETURN_IF_ERROR(device_->make_current());
  for (Segment& s : segments_) {
    if (!s.native) continue;
    WEFT_ASSIGN_OR_RETURN(s.graph, template_for(s));
    for (size_t k = 0; k < s.steps.size(); ++k) steps_[s.steps[k]].node = s.graph->nodes[k];
    std::lock_guard lock(s.graph->mutex);
    WEFT_CU_RETURN_IF_ERROR(api_.cuGraphInstantiateWithFlags(&s.exec, s.graph->graph, 0));
  }
  finalized_ = true;
  return Status();
}

Status CudaCommandBuffer::submit(Queue& queue) {
  if (!finalized_) return Status(hipErrorIllegalState, "command buffer not finalized");
  auto* q = typeid(queue) == typeid(CudaQueue) ? static_cast<CudaQueue*>(&queue) : nullptr;
  if (!q || &q->device() != device_.get())
    return Status(hipErrorInvalidHandle,
                  "NVIDIA command buffer submitted to another device's queue");
  WEFT_RETURN_IF_ERROR(device_->make_current());
  for (Segment& s : segments_) {
    if (s.native) {
      WEFT_CU_RETURN_IF_ERROR(api_.cuGraphLaunch(s.exec, q->stream()));
      continue;
    }
    for (uint32_t i : s.steps)
      if (steps_[i].enabled) WEFT_RETURN_IF_ERROR(q->submit(Op(steps_[i].op)));
  }
  for (uint32_t i : records_)
    static_cast<CudaEvent*>(std::get<EventRecordOp>(steps_[i].op).event.get())->mark_recorded();
  return Status();
}

Status CudaCommandBuffer::update(size_t index, const Op& op) {
  if (!finalized_ || index >= steps_.size())
    return Status(hipErrorInvalidValue, "NVIDIA command buffer: no such record");
  Step& s = steps_[index];
  if (s.kind == Kind::kQueue) {  // the queue runs any op
    s.op = op;
    return Status();
  }
  if (s.kind == Kind::kKernel) return update_kernel(s, op);  // no current context needed
  WEFT_RETURN_IF_ERROR(device_->make_current());
  if (classify(op) != s.kind)
    return Status(hipErrorNotSupported, "the new parameters cannot stay in the native graph");
  CUgraphExec exec = segments_[s.segment].exec;
  std::lock_guard lock(segments_[s.segment].graph->mutex);
  CUresult r = CUDA_SUCCESS;
  switch (s.kind) {
    case Kind::kKernel: break;  // update_kernel
    case Kind::kCopy: {
      CUDA_MEMCPY3D c = copy_params(std::get<CopyOp>(op));
      r = api_.cuGraphExecMemcpyNodeSetParams(exec, s.node, &c, device_->context());
      if (r != CUDA_SUCCESS) return refused(r, "cuGraphExecMemcpyNodeSetParams");
      break;
    }
    case Kind::kFill: {
      CUDA_MEMSET_NODE_PARAMS m = fill_params(std::get<FillOp>(op));
      r = api_.cuGraphExecMemsetNodeSetParams(exec, s.node, &m, device_->context());
      if (r != CUDA_SUCCESS) return refused(r, "cuGraphExecMemsetNodeSetParams");
      break;
    }
    case Kind::kRecord: {
      auto* e = static_cast<CudaEvent*>(std::get<EventRecordOp>(op).event.get());
      r = api_.cuGraphExecEventRecordNodeSetEvent(exec, s.node, e->handle());
      if (r != CUDA_SUCCESS) return refused(r, "cuGraphExecEventRecordNodeSetEvent");
      break;
    }
    case Kind::kWait: {
      auto* e = static_cast<CudaEvent*>(std::get<EventWaitOp>(op).event.get());
      r = api_.cuGraphExecEventWaitNodeSetEvent(exec, s.node, e->handle());
      if (r != CUDA_SUCCESS) return refused(r, "cuGraphExecEventWaitNodeSetEvent");
      break;
    }
    case Kind::kQueue: break;
  }
  s.op = op;  // keeps the kernel's module and the event alive
  return Status();
}

// A kernel step's patch (the common SetParams): CUDA copies the parameters at
// the call, so they are read from `op` itself. After finalize() a native step's
// op only keeps its kernel (and module) alive, so only the kernel is kept.
Status CudaCommandBuffer::update_kernel(Step& s, const Op& op) {
  const auto* d = std::get_if<DispatchOp>(&op);
  CudaKernel* kernel = d ? cuda_kernel(*d) : nullptr;
  if (!kernel || &kernel->device() != device_.get() ||
      d->kernarg.size() < kernel->info().kernarg_size)  // as classify() has it
    return Status(hipErrorNotSupported, "the new parameters cannot stay in the native graph");
  if (d->dims.dynamic_shared_bytes + kernel->info().static_shared_bytes > 48 * 1024) [[unlikely]]
    WEFT_RETURN_IF_ERROR(device_->make_current());  // build() sets the function's attribute
  std::lock_guard lock(segments_[s.segment].graph->mutex);
  KernelParams k;
  WEFT_RETURN_IF_ERROR(k.build(*d, *kernel));
  // CUDA patches the node in the executable graph's own context
  // (CudaDevice::call_in_context makes it current only where CUDA refuses).
  CUresult r = device_->call_in_context(
      [&] { return api_.cuGraphExecKernelNodeSetParams(segments_[s.segment].exec, s.node, &k.p); });
  if (r != CUDA_SUCCESS) return refused(r, "cuGraphExecKernelNodeSetParams");
  auto& kept = std::get<DispatchOp>(s.op);  // a kernel step holds a DispatchOp
  if (kept.kernel != d->kernel) kept.kernel = d->kernel;
  return Status();
}

Status CudaCommandBuffer::set_enabled(size_t index, bool enabled) {
  if (!finalized_ || index >= steps_.size())
    return Status(hipErrorInvalidValue, "NVIDIA command buffer: no such record");
  Step& s = steps_[index];
  if (s.enabled == enabled) return Status();
  if (s.kind == Kind::kKernel || s.kind == Kind::kCopy || s.kind == Kind::kFill) {
    WEFT_RETURN_IF_ERROR(device_->make_current());
    std::lock_guard lock(segments_[s.segment].graph->mutex);
    CUresult r = api_.cuGraphNodeSetEnabled(segments_[s.segment].exec, s.node, enabled ? 1 : 0);
    if (r != CUDA_SUCCESS) return refused(r, "cuGraphNodeSetEnabled");
  } else if (s.kind != Kind::kQueue) {
    return Status(hipErrorNotSupported, "CUDA cannot disable event nodes");
  }
  s.enabled = enabled;
  return Status();
}

size_t CudaCommandBuffer::native_segments() const {
  size_t n = 0;
  for (const Segment& s : segments_) n += s.native;
  return n;
}

size_t CudaCommandBuffer::queue_steps() const {
  size_t n = 0;
  for (const Step& s : steps_) n += s.kind == Kind::kQueue;
  return n;
}

}  // namespace weft::cuda
