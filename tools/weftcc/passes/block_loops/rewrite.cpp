// SPDX-License-Identifier: MIT
// Work-group loops with region formation (the PoCL model), written for weft's
// markers. The kernel is cut after every sync point (barrier, reducing barrier,
// warp operation); a region is what a thread runs from the kernel's entry or
// from one sync point up to the next sync point or return. Each region becomes a
// loop over the block's threads (z, y, x nested, so threadIdx.x is the innermost
// index and LLVM vectorizes across GPU threads), and a small dispatcher runs the
// regions in the order the threads reach them:
//
//  - Uniform mode (every thread at the same point, the normal case in valid
//    HIP): the region of that point runs for all threads, without a state check.
//    A region with one way out (one next sync point, or return) needs no
//    per-thread state at all; one with several (a barrier in a loop, an early
//    return) records each thread's next point and checks they agree.
//  - Mixed mode (threads returned early, or diverged at warp operations): each
//    thread has a state, block_runtime.c picks the next group (a warp's lanes at
//    a warp operation, or every thread released by a barrier), and a predicated
//    copy of the region runs for that group.
//
// Values used in another region than the one that computed them (live across a
// sync point) get a per-thread slot: every definition stores to it, every use in
// a region that is not dominated by a definition there loads from it. Locals
// left after SROA get one copy per thread.
#include "rewrite.hpp"

#include "markers.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/DivergenceAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/SyncDependenceAnalysis.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <climits>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace weft::block_loops {
namespace {

using namespace llvm;

// More per-thread state than this, times 1024 threads, would not fit a worker's stack.
constexpr uint64_t kMaxBytesPerThread = 4096;
constexpr unsigned kMaxSyncPoints = 4096;
// Elements before and after each exchange buffer: a shifted read of a lane whose result
// is its own value may land up to 31 lanes outside the block (selected away).
constexpr uint32_t kExchangePad = 32;

struct SyncPoint {
  CallInst* call;
  Marker marker;
  uint32_t state;      // 1..m, in the order of the kernel's code
  BasicBlock* resume;  // the code after it
};

struct Region {
  uint32_t state;  // 0: the kernel's entry
  BasicBlock* start;
  std::vector<BasicBlock*> blocks;
  std::set<uint32_t> exits;  // next states (kStateDone for a return)
  // Several exits, but which one is taken depends only on block-uniform values:
  // every thread leaves the same way, so no per-thread state is needed.
  bool uniform_exit = false;
};

// Where a region's copy records the sync point each thread goes to next.
enum class NextState { Known, PerThread, Uniform };

// How a fast copy of the region after an in-region warp exchange reads its result. When
// the kernel computes the source lane as its own lane plus block-uniform shifts (the
// forms of __shfl_down/__shfl_up/__shfl_xor, at any width: SourceForm), a shifted copy
// reads each shift with one contiguous load and selects by the kernel's own conditions,
// recomputed (Shift; ShiftFull when the block has no partial warp, so no source can lie
// past its last thread; ShiftWarps when its rows are whole warps, run warp by warp);
// otherwise the source lane is recomputed and read by a gather.
enum class Exchange { None, Shift, ShiftFull, ShiftWarps, Gather };

// One way the kernel's source-lane expression can go: its lane plus `amount` (negated for
// a subtraction), or lane ^ amount read as + amount where that bit is clear (XorUp) and
// - amount where it is set (XorDown); taken where every condition on `path` has the
// given value (the selects the expression goes through).
struct LaneShift {
  enum Kind { Add, XorUp, XorDown } kind;
  llvm::Value* amount;  // a kernel value: constant, argument or block-uniform
  bool negate;
  std::vector<std::pair<llvm::Value*, bool>> path;
};

// A shuffle's source lane, recognized in the kernel's code: every value it can take is
// the thread's lane plus one of `shifts`, its lane, or a lane past the warp (its own
// value). `lane` is one of the kernel's lane values, (threadIdx.x or the linear id) & 31;
// threadIdx.x's is the warp lane only when the block is 1-D or its rows are whole warps,
// and lane ^ m is a shift only for m a power of two: both checked per block.
struct SourceForm {
  bool matched = false;
  llvm::Value* lane = nullptr;
  bool lane_is_x = false;
  std::vector<LaneShift> shifts;
  std::vector<llvm::Value*> xor_masks;
};

// A region whose threads at or past a block-uniform bound on threadIdx.x do nothing that
// another region or thread can see (the `if (t < s)` of a tree reduction): its x loops stop
// at the bound. `path` leads from the region's start to the guard's block (its last), through
// branches on block-uniform conditions (`taken`: the condition's value on the path); `bound`
// is the guard's uniform operand (`is_signed`: compared signed, so a negative bound is 0).
struct XBound {
  std::vector<llvm::BasicBlock*> path;
  std::vector<std::pair<llvm::Value*, bool>> taken;  // by path block, for the conditional ones
  std::vector<size_t> taken_at;                      // the path index of each taken condition
  llvm::Value* bound = nullptr;
  bool is_signed = false;
};

// One copy of a region inside one loop over threads.
struct RegionCopy {
  const Region* region;
  ValueToValueMapTy map;
  std::vector<Instruction*> instructions;  // copied from the kernel (still to remap)
  Value* linear;                           // the thread's linear id in the block
  // The linear id as an i64 induction of the loop over threads (fast loops): per-thread
  // slots are addressed by it, so their addresses need no sign extension per access.
  Value* index = nullptr;
  BasicBlock* preheader = nullptr;  // before the loop over threads
  BasicBlock* head = nullptr;       // per thread, before the region's code
  bool slow = false;                // the predicated copy of mixed mode
  Exchange exchange = Exchange::None;
  Value* dim_x = nullptr;        // blockDim.x as this copy reads it
  bool stores_exchange = false;  // some exit leads to an in-region shuffle
  // Kernel values whose bits the region after a shuffle already has: the shuffled value
  // is its own exchange entry (read at the region's head), not a per-thread slot as well.
  std::vector<std::pair<Instruction*, Value*>> own_aliases;
  Value* buffers[2][2] = {};  // [64-bit][read]: exchange buffers, chosen in the preheader
};

class Rewriter {
 public:
  Rewriter(Function& kernel, bool ranges)
      : kernel_(kernel), m_(*kernel.getParent()), ctx_(m_.getContext()), dl_(m_.getDataLayout()),
        ranges_(ranges) {}

  std::string run(RewriteStats& stats);
  Function* result() const { return whole_; }

 private:
  std::string find_sync_points();
  void form_regions();
  void classify_exits();
  std::string build();
  void emit_entry();
  void emit_block_loop(IRBuilder<>& b);
  void emit_dispatch();
  BasicBlock* emit_fast_loop(const Region& r, BasicBlock* done, Exchange exchange = Exchange::None);
  BasicBlock* emit_slow_loop(const Region& r, Value* want, Value* lo, Value* hi, BasicBlock* done);
  void copy_region(RegionCopy& copy, BasicBlock* body, BasicBlock* latch, NextState next_state,
                   const Value* tid[3]);
  void emit_prelude(IRBuilder<>& b, uint32_t state, Value* st, Value* want, Value* lo, Value* hi);
  bool in_region_exchange(uint32_t state) const {
    return fast_exchange_ && state != 0 && syncs_[state - 1].marker == Marker::WarpRead;
  }
  Value* exchange_buffer(RegionCopy& copy, bool wide, bool read);
  Value* exchange_entry(IRBuilder<>& b, const SyncPoint& s);
  Value* load_exchange(RegionCopy& copy, IRBuilder<>& head, const SyncPoint& s);
  void match_sources();
  void find_x_bounds();
  void find_lane_bounds();
  unsigned final_lane_bound(const Region& r);
  bool without_effects(const Region& r, const Instruction* sync_call) const;
  std::optional<XBound> find_x_bound(const Region& r,
                                     const DenseMap<BasicBlock*, unsigned>& owners);
  bool clone_on_path(Value* v, const XBound& xb, size_t pos, RegionCopy* copy, IRBuilder<>* b,
                     Value*& out, int depth = 0);
  // A copy of region r's block-uniform values starting at `pre`: the kernel's arguments and
  // the blockDim/blockIdx/gridDim/dynamic-shared markers mapped to what the whole-block
  // function holds for them (the checks emitted before a region's loops read only these).
  std::unique_ptr<RegionCopy> uniform_copy(const Region& r, BasicBlock* pre);
  BasicBlock* emit_x_bound(const Region& r, const XBound& xb, BasicBlock* loop, BasicBlock* done,
                           Value*& bound);
  int lane_kind(Value* v);
  int thread_id_kind(Value* x);
  bool is_uniform_operand(Value* v) const;
  bool match_source(Value* v, std::vector<std::pair<Value*, bool>>& path, SourceForm& form,
                    int depth);
  Value* clone_expr(Value* v, RegionCopy& copy, IRBuilder<>& b, int depth = 0);
  BasicBlock* emit_exchange_choice(const Region& r, const SourceForm& form, BasicBlock* at,
                                   BasicBlock* done);
  void alias_own_values(DominatorTree& dt);
  void spill_cross_region_values();
  void annotate_parallel_loops();
  bool order_free(const Instruction& i);
  bool order_free(const Function& f);
  void find_uniform_values();
  bool can_recompute(Value* v, int depth);
  Value* hoist_thread_local(Value* v, Instruction* before);
  void hoist_thread_locals(Instruction* ni);
  Value* recompute(Value* v, RegionCopy& copy, Instruction* before);
  Value* slot(Value* base, Type* type, Value* linear, IRBuilder<>& b) {
    return b.CreateInBoundsGEP(type, base, linear);
  }
  // This thread's entry of a per-thread array.
  Value* slot(Value* base, Type* type, const RegionCopy& copy, IRBuilder<>& b) {
    return b.CreateInBoundsGEP(type, base, copy.index ? copy.index : copy.linear);
  }

  Function& kernel_;
  Module& m_;
  LLVMContext& ctx_;
  const DataLayout& dl_;
  // The function runs a range of blocks (the loop over them inside it), not one block.
  const bool ranges_;
  Type* i8_ = Type::getInt8Ty(ctx_);
  Type* i32_ = Type::getInt32Ty(ctx_);
  Type* i64_ = Type::getInt64Ty(ctx_);
  Type* ptr_ = PointerType::getUnqual(ctx_);

  std::vector<SyncPoint> syncs_;
  DenseMap<BasicBlock*, unsigned> sync_of_block_;  // block ending in sync point i
  std::vector<Region> regions_;                    // by state
  bool mixed_mode_ = false;                        // some region has several exits

  Function* whole_ = nullptr;
  BasicBlock* entry_ = nullptr;
  BasicBlock* dispatch_ = nullptr;
  BasicBlock* exit_ = nullptr;  // the block's end
  // Range form: the loop over the range's blocks around the dispatcher. blocks_head_ checks
  // the range's end, block_start_ publishes the block (and may stop), block_run_ enters the
  // dispatcher, exit_ goes on to block_next_; ret_ returns.
  BasicBlock* blocks_head_ = nullptr;
  BasicBlock* block_start_ = nullptr;
  BasicBlock* block_run_ = nullptr;
  BasicBlock* block_next_ = nullptr;
  BasicBlock* ret_ = nullptr;
  BasicBlock* dispatch_from_ = nullptr;  // what enters the dispatcher at a block's start
  PHINode* current_ = nullptr;
  Value* dim_[3] = {};
  // Block-uniform markers read once per block: blockIdx, gridDim, the dynamic shared base.
  DenseMap<std::pair<int, uint64_t>, Value*> uniform_;
  Value* threads_ = nullptr;
  Value* state_ = nullptr;  // i32 per thread
  Value* xval_ = nullptr;   // i64 per thread: what a thread passes to a sync point
  Value* xsrc_ = nullptr;   // i32 per thread: source lane / reduce op
  Value* xres_ = nullptr;   // i64 per thread: what the sync point returns
  Value* range_ = nullptr;  // [2 x i32]: the group block_runtime picked
  // In-region warp exchanges (every warp_read when the kernel has no mixed mode): the
  // region before a shuffle stores each thread's value and source lane, the region
  // after it reads the source's value itself; no pass over the block in between.
  bool fast_exchange_ = false;
  std::vector<bool> wide_;         // by sync index: a 64-bit value (else 32-bit)
  std::vector<SourceForm> forms_;  // by sync index: the shuffle's source lane, recognized
  std::vector<std::optional<XBound>> x_bounds_;  // by state: the region's bound on threadIdx.x
  unsigned bounded_regions_ = 0;
  // By state: how many lanes of each warp a region's ShiftWarps copy runs (32 but where only
  // lower lanes' results can be seen: find_lane_bounds).
  std::vector<unsigned> lane_bounds_;
  unsigned lane_bounded_regions_ = 0;
  Value* xbuf_[2][2] = {};                // [64-bit][parity]: value buffers, padded both sides
  Value* parity_ = nullptr;               // i32: the buffer the next exchange writes
  DenseSet<const Instruction*> ordered_;  // accesses annotate_parallel_loops leaves alone
  unsigned in_region_exchanges_ = 0;
  unsigned shifted_exchanges_ = 0;  // of which the source lane is recognized as shifts
  Instruction* alloca_point_ = nullptr;
  DenseMap<AllocaInst*, Value*> private_;  // kernel local -> per-thread array
  std::vector<std::unique_ptr<RegionCopy>> copies_;
  DenseMap<Instruction*, Instruction*> original_of_;  // copy -> kernel instruction
  DenseSet<const Instruction*> uniform_values_;
  DenseSet<const Instruction*> divergent_branches_;  // terminators whose choice differs by thread
  Value* next_state_ = nullptr;                      // i32: the exit of a uniform-exit region
  // thread_local globals (__shared__ in a CPU image) -> their address, computed once per block.
  DenseMap<GlobalVariable*, Value*> thread_locals_;
  uint64_t bytes_per_thread_ = 0;
  unsigned spilled_ = 0;
  unsigned parallel_loops_ = 0;
  DenseMap<const Function*, bool> order_free_callee_;  // memo of order_free(Function)
};

std::string Rewriter::find_sync_points() {
  for (Instruction& i : instructions(kernel_)) {
    Marker m = marker_of(&i);
    if (!is_sync(m)) continue;
    if (syncs_.size() >= kMaxSyncPoints)
      return "it has more than 4096 barriers and warp operations";
    syncs_.push_back({cast<CallInst>(&i), m, uint32_t(syncs_.size() + 1), nullptr});
  }
  for (SyncPoint& s : syncs_) {
    BasicBlock* block = s.call->getParent();
    s.resume = block->splitBasicBlock(s.call->getNextNode(), block->getName() + ".after.sync");
    sync_of_block_[block] = s.state - 1;
  }
  return {};
}

void Rewriter::form_regions() {
  regions_.resize(syncs_.size() + 1);
  for (uint32_t state = 0; state <= syncs_.size(); ++state) {
    Region& r = regions_[state];
    r.state = state;
    r.start = state == 0 ? &kernel_.getEntryBlock() : syncs_[state - 1].resume;
    SetVector<BasicBlock*> seen;
    seen.insert(r.start);
    for (size_t k = 0; k < seen.size(); ++k) {
      BasicBlock* b = seen[k];
      if (auto it = sync_of_block_.find(b); it != sync_of_block_.end()) {
        r.exits.insert(syncs_[it->second].state);
        continue;
      }
      if (isa<ReturnInst>(b->getTerminator())) r.exits.insert(kStateDone);
      for (BasicBlock* next : successors(b)) seen.insert(next);
    }
    r.blocks.assign(seen.begin(), seen.end());
  }
}

void Rewriter::classify_exits() {
  for (Region& r : regions_) {
    if (r.exits.size() < 2) continue;
    // Exits reachable from each block of the region.
    DenseMap<BasicBlock*, std::set<uint32_t>> reach;
    for (bool changed = true; changed;) {
      changed = false;
      for (BasicBlock* b : r.blocks) {
        std::set<uint32_t> now;
        if (auto it = sync_of_block_.find(b); it != sync_of_block_.end()) {
          now.insert(syncs_[it->second].state);
        } else {
          if (isa<ReturnInst>(b->getTerminator())) now.insert(kStateDone);
          for (BasicBlock* next : successors(b)) now.insert(reach[next].begin(), reach[next].end());
        }
        if (now != reach[b]) {
          reach[b] = std::move(now);
          changed = true;
        }
      }
    }
    r.uniform_exit = true;
    for (BasicBlock* b : r.blocks) {
      if (sync_of_block_.count(b) || !divergent_branches_.count(b->getTerminator())) continue;
      for (BasicBlock* next : successors(b))
        if (reach[next].size() != 1 || reach[next] != reach[*succ_begin(b)]) r.uniform_exit = false;
    }
    if (!r.uniform_exit) mixed_mode_ = true;
  }
}

void Rewriter::emit_entry() {
  IRBuilder<> b(entry_);
  FunctionCallee block_dim = m_.getOrInsertFunction("__weft_cpu_block_dim", i32_, i32_);
  for (unsigned d = 0; d < 3; ++d) dim_[d] = b.CreateCall(block_dim, {b.getInt32(d)}, "block.dim");
  threads_ = b.CreateNUWMul(b.CreateNUWMul(dim_[0], dim_[1]), dim_[2], "block.threads");
  for (Instruction& i : instructions(kernel_)) {
    Marker m = marker_of(&i);
    if (m != Marker::BlockIdx && m != Marker::GridDim && m != Marker::DynamicShared) continue;
    if (m == Marker::BlockIdx && ranges_) continue;  // per block: emit_block_loop
    auto* call = cast<CallInst>(&i);
    uint64_t dim = 0;
    if (m != Marker::DynamicShared) {
      auto* c = dyn_cast<ConstantInt>(call->getArgOperand(0));
      if (!c) continue;  // stays a call in the loop
      dim = c->getZExtValue();
    }
    Value*& v = uniform_[{int(m), dim}];
    if (!v)
      v = b.CreateCall(call->getFunctionType(), call->getCalledOperand(),
                       m == Marker::DynamicShared ? ArrayRef<Value*>{}
                                                  : ArrayRef<Value*>{b.getInt32(uint32_t(dim))});
  }
  auto per_thread = [&](Type* t, const char* name, Value* count = nullptr) {
    AllocaInst* a = b.CreateAlloca(t, count ? count : threads_, name);
    a->setAlignment(Align(std::max<uint64_t>(64, dl_.getABITypeAlign(t).value())));
    bytes_per_thread_ += dl_.getTypeAllocSize(t);
    return a;
  };
  for (const Region& r : regions_)
    if (r.exits.size() > 1 && r.uniform_exit && !next_state_)
      next_state_ = b.CreateAlloca(i32_, nullptr, "next.state");
  if (mixed_mode_) {
    state_ = per_thread(i32_, "thread.state");
    range_ = b.CreateAlloca(ArrayType::get(i32_, 2), nullptr, "group.range");
  }
  bool prepared = false;  // some sync point's result comes from __weft_bl_prepare
  bool any_width[2] = {false, false};
  for (const SyncPoint& s : syncs_) {
    if (in_region_exchange(s.state)) any_width[wide_[s.state - 1]] = true;
    else prepared |= s.marker != Marker::Barrier && s.marker != Marker::WarpSync;
  }
  if (prepared || mixed_mode_) {
    xval_ = per_thread(i64_, "sync.value");
    xsrc_ = per_thread(i32_, "sync.lane");
    xres_ = per_thread(i64_, "sync.result");
  }
  if (any_width[0] || any_width[1]) {
    parity_ = b.CreateAlloca(i32_, nullptr, "xchg.parity");
    b.CreateStore(b.getInt32(0), parity_);
    for (int wide = 0; wide < 2; ++wide) {
      if (!any_width[wide]) continue;
      Type* t = wide ? i64_ : i32_;
      Value* n = b.CreateNUWAdd(threads_, b.getInt32(2 * kExchangePad));
      for (int k = 0; k < 2; ++k) {
        AllocaInst* a = per_thread(t, wide ? "xchg.buf64" : "xchg.buf32", n);
        xbuf_[wide][k] = b.CreateConstInBoundsGEP1_32(t, a, kExchangePad, "xchg.buf");
      }
    }
  }
  for (Instruction& i : kernel_.getEntryBlock()) {
    auto* a = dyn_cast<AllocaInst>(&i);
    if (!a) continue;
    uint64_t count = cast<ConstantInt>(a->getArraySize())->getZExtValue();
    Value* n = count == 1 ? threads_ : b.CreateNUWMul(threads_, b.getInt32(uint32_t(count)));
    AllocaInst* copy = b.CreateAlloca(a->getAllocatedType(), n, a->getName() + ".per.thread");
    copy->setAlignment(std::max(a->getAlign(), Align(16)));
    bytes_per_thread_ += dl_.getTypeAllocSize(a->getAllocatedType()) * count;
    private_[a] = copy;
  }
  // The address of a thread_local is a call (__tls_get_addr) in a shared object, which
  // the code generator would repeat in every block of every thread loop: take it once,
  // behind an empty asm, which LLVM cannot turn back into the global.
  std::function<void(Value*)> find_tls = [&](Value* v) {
    if (auto* g = dyn_cast<GlobalVariable>(v)) {
      if (g->isThreadLocal() && !thread_locals_.count(g)) {
        auto* type = FunctionType::get(g->getType(), {g->getType()}, false);
        thread_locals_[g] =
            b.CreateCall(InlineAsm::get(type, "", "=r,0", false), {g}, g->getName() + ".addr");
      }
    } else if (auto* ce = dyn_cast<ConstantExpr>(v)) {
      for (Value* op : ce->operands()) find_tls(op);
    }
  };
  for (Instruction& i : instructions(kernel_))
    for (Value* op : i.operands()) find_tls(op);
  if (ranges_) return emit_block_loop(b);
  dispatch_from_ = entry_;
  alloca_point_ = cast<Instruction>(b.CreateBr(dispatch_));
}

// The range form's loop over blocks, after the setup (`b` is at the end of the entry):
//
//   for (block = first; block < end; ++block, advance (x, y, z)) {
//     if (__weft_cpu_block_enter(x, y, z)) return;  // another block failed
//     the dispatcher: every region of the block
//   }
//
// blockIdx is (x, y, z): computed from the range's first linear id once (x fastest, as
// the engine numbers blocks), then carried from block to block without a division; the
// marker's call publishes it to the code that still reads it through the marker.
void Rewriter::emit_block_loop(IRBuilder<>& b) {
  FunctionCallee range = m_.getOrInsertFunction("__weft_cpu_block_range", i64_, i32_);
  FunctionCallee enter = m_.getOrInsertFunction("__weft_cpu_block_enter", i32_, i32_, i32_, i32_);
  FunctionCallee grid_dim = m_.getOrInsertFunction("__weft_cpu_grid_dim", i32_, i32_);
  auto grid = [&](uint32_t d) {
    Value*& v = uniform_[{int(Marker::GridDim), d}];
    if (!v) v = b.CreateCall(grid_dim, {b.getInt32(d)}, "grid.dim");
    return v;
  };
  Value* gx = grid(0);
  Value* gy = grid(1);
  Value* first = b.CreateCall(range, {b.getInt32(0)}, "range.first");
  Value* end = b.CreateCall(range, {b.getInt32(1)}, "range.end");
  Value* gx64 = b.CreateZExt(gx, i64_);
  Value* gy64 = b.CreateZExt(gy, i64_);
  Value* rest = b.CreateUDiv(first, gx64);
  Value* x0 = b.CreateTrunc(b.CreateURem(first, gx64), i32_, "block.x.first");
  Value* y0 = b.CreateTrunc(b.CreateURem(rest, gy64), i32_, "block.y.first");
  Value* z0 = b.CreateTrunc(b.CreateUDiv(rest, gy64), i32_, "block.z.first");
  blocks_head_ = BasicBlock::Create(ctx_, "blocks", whole_, dispatch_);
  block_start_ = BasicBlock::Create(ctx_, "block.start", whole_, dispatch_);
  block_run_ = BasicBlock::Create(ctx_, "block.run", whole_, dispatch_);
  block_next_ = BasicBlock::Create(ctx_, "block.next", whole_, ret_);
  alloca_point_ = cast<Instruction>(b.CreateBr(blocks_head_));

  IRBuilder<> hb(blocks_head_);
  PHINode* block = hb.CreatePHI(i64_, 2, "block");
  PHINode* x = hb.CreatePHI(i32_, 2, "block.x");
  PHINode* y = hb.CreatePHI(i32_, 2, "block.y");
  PHINode* z = hb.CreatePHI(i32_, 2, "block.z");
  hb.CreateCondBr(hb.CreateICmpULT(block, end), block_start_, ret_);

  IRBuilder<> sb(block_start_);
  Value* stop = sb.CreateCall(enter, {x, y, z}, "block.stop");
  sb.CreateCondBr(sb.CreateICmpNE(stop, sb.getInt32(0)), ret_, block_run_);

  IRBuilder<> rb(block_run_);
  if (parity_) rb.CreateStore(rb.getInt32(0), parity_);  // every block starts at buffer 0
  uniform_[{int(Marker::BlockIdx), 0}] = x;
  uniform_[{int(Marker::BlockIdx), 1}] = y;
  uniform_[{int(Marker::BlockIdx), 2}] = z;
  for (Instruction& i : instructions(kernel_)) {  // blockIdx past z: what the marker answers
    if (marker_of(&i) != Marker::BlockIdx) continue;
    auto* c = dyn_cast<ConstantInt>(cast<CallInst>(i).getArgOperand(0));
    if (!c || c->getZExtValue() < 3) continue;
    Value*& v = uniform_[{int(Marker::BlockIdx), c->getZExtValue()}];
    if (!v)
      v = rb.CreateCall(cast<CallInst>(i).getFunctionType(), cast<CallInst>(i).getCalledOperand(),
                        {c});
  }
  rb.CreateBr(dispatch_);
  dispatch_from_ = block_run_;

  IRBuilder<> nb(block_next_);
  Value* x1 = nb.CreateNUWAdd(x, nb.getInt32(1));
  Value* x_wraps = nb.CreateICmpEQ(x1, gx);
  Value* y1 = nb.CreateNUWAdd(y, nb.CreateZExt(x_wraps, i32_));
  Value* y_wraps = nb.CreateICmpEQ(y1, gy);
  Value* z1 = nb.CreateNUWAdd(z, nb.CreateZExt(y_wraps, i32_));
  Value* block1 = nb.CreateNUWAdd(block, nb.getInt64(1));
  Value* x_next = nb.CreateSelect(x_wraps, nb.getInt32(0), x1);
  Value* y_next = nb.CreateSelect(y_wraps, nb.getInt32(0), y1);
  nb.CreateBr(blocks_head_);
  block->addIncoming(first, entry_);
  block->addIncoming(block1, block_next_);
  x->addIncoming(x0, entry_);
  x->addIncoming(x_next, block_next_);
  y->addIncoming(y0, entry_);
  y->addIncoming(y_next, block_next_);
  z->addIncoming(z0, entry_);
  z->addIncoming(z1, block_next_);
}

void Rewriter::emit_prelude(IRBuilder<>& b, uint32_t state, Value* st, Value* want, Value* lo,
                            Value* hi) {
  if (state == 0 || in_region_exchange(state)) return;
  SyncKind kind = sync_kind(syncs_[state - 1].marker);
  if (kind != kSyncBarrierReduce && kind != kSyncWarpRead && kind != kSyncWarpBallot) return;
  Function* prepare = m_.getFunction("__weft_bl_prepare");
  b.CreateCall(prepare, {b.getInt32(kind), st, want, lo, hi, xval_, xsrc_, xres_});
}

// Copies region r into the loop body that starts at `body` (where the thread ids
// are known); the region's exits go to `latch`.
void Rewriter::copy_region(RegionCopy& copy, BasicBlock* body, BasicBlock* latch,
                           NextState next_state, const Value* tid[3]) {
  const Region& r = *copy.region;
  ValueToValueMapTy& map = copy.map;
  for (Argument& a : kernel_.args()) map[&a] = whole_->getArg(a.getArgNo());
  IRBuilder<> head(body);
  for (auto& [local, array] : private_) {
    uint64_t count = cast<ConstantInt>(local->getArraySize())->getZExtValue();
    Value* at = copy.index ? copy.index : copy.linear;
    Value* index = count == 1 ? at : head.CreateNUWMul(at, ConstantInt::get(at->getType(), count));
    map[local] = head.CreateInBoundsGEP(local->getAllocatedType(), array, index, local->getName());
  }
  // Every threadIdx read of the kernel is this thread's loop index, in every region
  // (no need to keep it across a barrier).
  for (BasicBlock& orig : kernel_) {
    for (Instruction& i : orig) {
      Marker m = marker_of(&i);
      if (m == Marker::ThreadIdx || m == Marker::BlockDim) {
        auto d = cast<ConstantInt>(cast<CallInst>(i).getArgOperand(0))->getZExtValue();
        map[&i] = d < 3
                    ? (m == Marker::ThreadIdx ? const_cast<Value*>(tid[d])
                       : d == 0 && copy.dim_x ? copy.dim_x
                                              : dim_[d])
                    : static_cast<Value*>(ConstantInt::get(i32_, m == Marker::ThreadIdx ? 0 : 1));
      } else if (m == Marker::BlockIdx || m == Marker::GridDim || m == Marker::DynamicShared) {
        auto* c = m == Marker::DynamicShared
                    ? nullptr
                    : dyn_cast<ConstantInt>(cast<CallInst>(i).getArgOperand(0));
        auto it = uniform_.find({int(m), c ? c->getZExtValue() : 0});
        if (it != uniform_.end() && (c || m == Marker::DynamicShared)) map[&i] = it->second;
      }
    }
  }
  if (r.state != 0) {
    const SyncPoint& s = syncs_[r.state - 1];
    Type* t = s.call->getType();
    if (in_region_exchange(r.state)) {
      // In a block of its own: the values it reads from slots are loaded in the head.
      auto* read = BasicBlock::Create(ctx_, "xchg.read", whole_, latch);
      head.CreateBr(read);
      head.SetInsertPoint(read);
      Value* v = load_exchange(copy, head, s);
      map[s.call] = v;
      if (auto* vi = dyn_cast<Instruction>(v)) original_of_[vi] = s.call;
    } else if (!t->isVoidTy()) {
      auto* result = head.CreateLoad(i64_, slot(xres_, i64_, copy, head), "sync.result");
      Value* v = t->isIntegerTy(64) ? static_cast<Value*>(result) : head.CreateTrunc(result, t);
      map[s.call] = v;
      if (auto* vi = dyn_cast<Instruction>(v)) original_of_[vi] = s.call;
    }
  }
  for (BasicBlock* orig : r.blocks) {
    auto* nb = BasicBlock::Create(ctx_, orig->getName(), whole_, latch);
    map[orig] = nb;
  }
  head.CreateBr(cast<BasicBlock>(map[r.start]));
  auto record = [&](Instruction* ni, Instruction* orig) {
    copy.instructions.push_back(ni);
    if (orig) original_of_[ni] = orig;
  };
  std::vector<std::pair<BasicBlock*, const SyncPoint*>> exits;  // into the latch
  DenseMap<BasicBlock*, Value*> exchanges;                      // exit -> value
  for (BasicBlock* orig : r.blocks) {
    auto* nb = cast<BasicBlock>(map[orig]);
    auto sync_it = sync_of_block_.find(orig);
    const SyncPoint* sync = sync_it == sync_of_block_.end() ? nullptr : &syncs_[sync_it->second];
    for (Instruction& i : *orig) {
      if (sync && &i == sync->call) continue;
      if (i.isTerminator()) {
        IRBuilder<> b(nb);
        uint32_t next = 0;
        if (sync) {
          next = sync->state;
          auto* call = sync->call;
          switch (sync->marker) {
            case Marker::WarpRead:
              if (in_region_exchange(sync->state)) {
                Instruction* last = nb->empty() ? nullptr : &nb->back();
                exchanges[nb] = exchange_entry(b, *sync);
                // What it added reads kernel values (the value, the source lane): remapped below.
                for (auto it = last ? std::next(last->getIterator()) : nb->begin(); it != nb->end();
                     ++it)
                  record(&*it, nullptr);
                break;
              }
              record(b.CreateStore(call->getArgOperand(0), slot(xval_, i64_, copy, b)), nullptr);
              record(b.CreateStore(call->getArgOperand(1), slot(xsrc_, i32_, copy, b)), nullptr);
              break;
            case Marker::WarpBallot:
            case Marker::BarrierReduce: {
              Value* wide = b.CreateZExt(call->getArgOperand(0), i64_);  // folded for a constant
              if (auto* wi = dyn_cast<Instruction>(wide)) record(wi, nullptr);
              record(b.CreateStore(wide, slot(xval_, i64_, copy, b)), nullptr);
              if (sync->marker == Marker::BarrierReduce)
                record(b.CreateStore(call->getArgOperand(1), slot(xsrc_, i32_, copy, b)), nullptr);
              break;
            }
            default: break;
          }
        } else if (isa<ReturnInst>(&i)) {
          next = kStateDone;
        } else {
          Instruction* ni = i.clone();
          nb->getInstList().push_back(ni);
          record(ni, &i);
          continue;
        }
        if (next_state == NextState::PerThread)
          b.CreateStore(b.getInt32(next), slot(state_, i32_, copy, b));
        if (next_state == NextState::Uniform) b.CreateStore(b.getInt32(next), next_state_);
        b.CreateBr(latch);
        exits.push_back({nb, sync});
        continue;
      }
      if (map.count(&i)) continue;  // threadIdx, blockDim, a local
      Instruction* ni = i.clone();
      if (i.hasName()) ni->setName(i.getName());
      nb->getInstList().push_back(ni);
      map[&i] = ni;
      record(ni, &i);
    }
  }
  if (!exchanges.empty()) {
    // The exits toward in-region shuffles store each thread's entry in the latch, on every
    // path (what other exits store is never read): one unconditional store per buffer,
    // which the vectorizer keeps contiguous (stores in the exit blocks would be merged
    // with the region's own stores on other paths into a scatter). Where each thread reads
    // from is the region after's business: it recomputes the source lane.
    IRBuilder<> lb(latch, latch->getFirstInsertionPt());
    PHINode* value[2] = {};
    for (auto& [exit, sync] : exits) {
      auto it = exchanges.find(exit);
      bool wide = it != exchanges.end() && wide_[sync->state - 1];
      if (it != exchanges.end() && !value[wide])
        value[wide] = lb.CreatePHI(wide ? i64_ : i32_, unsigned(exits.size()), "xchg.value.out");
    }
    for (auto& [exit, sync] : exits) {
      auto it = exchanges.find(exit);
      bool is_exchange = it != exchanges.end();
      for (int wide = 0; wide < 2; ++wide) {
        if (!value[wide]) continue;
        bool mine = is_exchange && wide_[sync->state - 1] == bool(wide);
        value[wide]->addIncoming(mine ? it->second : PoisonValue::get(value[wide]->getType()),
                                 exit);
      }
    }
    for (int wide = 0; wide < 2; ++wide) {
      if (!value[wide]) continue;
      record(value[wide], nullptr);
      lb.CreateStore(value[wide],
                     slot(exchange_buffer(copy, wide, false), value[wide]->getType(), copy, lb));
    }
    copy.stores_exchange = true;
  }
  for (Instruction* ni : copy.instructions) {
    RemapInstruction(ni, map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    if (auto* phi = dyn_cast<PHINode>(ni)) {
      for (int k = int(phi->getNumIncomingValues()) - 1; k >= 0; --k)
        if (phi->getIncomingBlock(unsigned(k))->getParent() != whole_)
          phi->removeIncomingValue(unsigned(k), false);
    }
    hoist_thread_locals(ni);
  }
}

// The exchange buffer (of 64-bit or 32-bit lanes) that `copy`'s region reads (the one the
// region before the shuffle wrote) or writes (for the shuffle it reaches next). Every
// in-region exchange flips parity_ before the region after it runs, so a region never
// reads the buffer it writes (another thread may still need the old value).
Value* Rewriter::exchange_buffer(RegionCopy& copy, bool wide, bool read) {
  Value*& buffer = copy.buffers[wide][read];
  if (!buffer) {
    IRBuilder<> b(copy.preheader->getTerminator());
    Value* odd = b.CreateICmpNE(b.CreateLoad(i32_, parity_, "xchg.parity"), b.getInt32(0));
    Value *even_buffer = xbuf_[wide][0], *odd_buffer = xbuf_[wide][1];
    buffer = read ? b.CreateSelect(odd, even_buffer, odd_buffer, "xchg.read")
                  : b.CreateSelect(odd, odd_buffer, even_buffer, "xchg.write");
  }
  return buffer;
}

// Before a warp_read: the thread's value (the latch stores it in the exchange buffer).
Value* Rewriter::exchange_entry(IRBuilder<>& b, const SyncPoint& s) {
  Value* value = s.call->getArgOperand(0);
  if (!wide_[s.state - 1]) {
    if (auto* z = dyn_cast<ZExtInst>(value)) value = b.CreateZExt(z->getOperand(0), i32_);
    else value = b.CreateTrunc(value, i32_);  // a constant
  }
  return value;
}

// A copy of the kernel's expression `v` at `b`, for the region after a shuffle to
// recompute the source lane: arithmetic on thread ids is cloned; block-uniform values,
// constants, arguments, markers and anything else stay kernel values, which the copy's
// remapping and spill_cross_region_values resolve (a block-uniform value is read from its
// slot as of the shuffle: it was computed before it, and nothing ran in between).
Value* Rewriter::clone_expr(Value* v, RegionCopy& copy, IRBuilder<>& b, int depth) {
  auto* i = dyn_cast<Instruction>(v);
  if (!i || i->getFunction() != &kernel_ || marker_of(i) != Marker::None ||
      uniform_values_.count(i) || depth > 12)
    return v;
  if (!isa<BinaryOperator>(i) && !isa<CastInst>(i) && !isa<CmpInst>(i) && !isa<SelectInst>(i))
    return v;
  Instruction* ni = i->clone();
  for (Use& u : ni->operands()) u.set(clone_expr(u.get(), copy, b, depth + 1));
  b.Insert(ni);
  return ni;
}

// 1 for (linear id) & 31, 2 for threadIdx.x & 31: the lane values a kernel computes.
int Rewriter::lane_kind(Value* v) {
  using namespace PatternMatch;
  Value* x;
  if (!match(v, m_And(m_Value(x), m_SpecificInt(31)))) return 0;
  return thread_id_kind(x);
}

// 1 for the linear id, 2 for threadIdx.x (lane_kind without the mask).
int Rewriter::thread_id_kind(Value* x) {
  using namespace PatternMatch;
  auto marker = [](Value* x, Marker m, uint64_t d) {
    auto* call = dyn_cast<CallInst>(x);
    if (!call || marker_of(call) != m) return false;
    auto* c = dyn_cast<ConstantInt>(call->getArgOperand(0));
    return c && c->getZExtValue() == d;
  };
  Value *a, *b;
  if (marker(x, Marker::ThreadIdx, 0)) return 2;
  // x + blockDim.x * (y + blockDim.y * z), in any operand order
  auto product = [&](Value* p, uint64_t d, Value*& rest) {
    Value *l, *r;
    if (!match(p, m_Mul(m_Value(l), m_Value(r)))) return false;
    if (marker(l, Marker::BlockDim, d)) rest = r;
    else if (marker(r, Marker::BlockDim, d)) rest = l;
    else return false;
    return true;
  };
  auto sum = [&](Value* p, uint64_t d, Value*& rest) {
    Value *l, *r;
    if (!match(p, m_Add(m_Value(l), m_Value(r)))) return false;
    if (marker(l, Marker::ThreadIdx, d)) rest = r;
    else if (marker(r, Marker::ThreadIdx, d)) rest = l;
    else return false;
    return true;
  };
  Value* z = nullptr;
  if (sum(x, 0, a) && product(a, 0, b) && sum(b, 1, a) && product(a, 1, z) &&
      marker(z, Marker::ThreadIdx, 2))
    return 1;
  return 0;
}

bool Rewriter::is_uniform_operand(Value* v) const {
  if (isa<Constant>(v) || isa<Argument>(v)) return true;
  auto* i = dyn_cast<Instruction>(v);
  return i && i->getFunction() == &kernel_ && uniform_values_.count(i);
}

// Whether the source lane `v` is, on every path through its selects, the thread's lane
// plus a block-uniform amount, its lane (or a constant the path's condition says it equals),
// or a constant lane past the warp.
bool Rewriter::match_source(Value* v, std::vector<std::pair<Value*, bool>>& path, SourceForm& form,
                            int depth) {
  using namespace PatternMatch;
  if (depth > 8 || form.shifts.size() > 4 || !v->getType()->isIntegerTy(32)) return false;
  auto lane = [&](Value* l) {
    int kind = lane_kind(l);
    if (!kind) return false;
    if (!form.lane) form.lane = l;
    form.lane_is_x |= kind == 2;
    return true;
  };
  if (lane(v)) return true;
  if (auto* c = dyn_cast<ConstantInt>(v)) return c->getValue().uge(32);
  // On the side of a select where `lane == C` holds, the constant C is the lane itself:
  // InstCombine writes `lane + 1 < 32 ? lane + 1 : lane` as `lane == 31 ? 31 : lane + 1`
  // once the amount is a constant (an unrolled round).
  auto equals_lane = [&](Value* cond, bool taken, Value* arm) {
    auto* k = dyn_cast<ConstantInt>(arm);
    ICmpInst::Predicate p;
    Value* l;
    ConstantInt* ck;
    if (!k || !match(cond, m_ICmp(p, m_Value(l), m_ConstantInt(ck)))) return false;
    if (p != (taken ? ICmpInst::ICMP_EQ : ICmpInst::ICMP_NE) || ck->getValue() != k->getValue())
      return false;
    return lane(l);
  };
  Value *c, *a, *b;
  if (match(v, m_Select(m_Value(c), m_Value(a), m_Value(b)))) {
    path.push_back({c, true});
    bool ok = equals_lane(c, true, a) || match_source(a, path, form, depth + 1);
    path.back().second = false;
    ok = ok && (equals_lane(c, false, b) || match_source(b, path, form, depth + 1));
    path.pop_back();
    return ok;
  }
  if (match(v, m_Add(m_Value(a), m_Value(b)))) {
    if (!(lane(a) && is_uniform_operand(b))) std::swap(a, b);
    if (!(lane(a) && is_uniform_operand(b))) return false;
    form.shifts.push_back({LaneShift::Add, b, false, path});
    return true;
  }
  if (match(v, m_Sub(m_Value(a), m_Value(b)))) {
    if (!(lane(a) && is_uniform_operand(b))) return false;
    form.shifts.push_back({LaneShift::Add, b, true, path});
    return true;
  }
  if (match(v, m_Xor(m_Value(a), m_Value(b)))) {
    if (!(lane(a) && is_uniform_operand(b))) std::swap(a, b);
    if (!(lane(a) && is_uniform_operand(b))) return false;
    form.shifts.push_back({LaneShift::XorUp, b, false, path});
    form.shifts.push_back({LaneShift::XorDown, b, false, path});
    form.xor_masks.push_back(b);
    return true;
  }
  return false;
}

void Rewriter::match_sources() {
  forms_.resize(syncs_.size());
  for (const SyncPoint& s : syncs_) {
    if (s.marker != Marker::WarpRead) continue;
    SourceForm form;
    std::vector<std::pair<Value*, bool>> path;
    if (match_source(s.call->getArgOperand(1), path, form, 0) && form.lane) {
      form.matched = true;
      forms_[s.state - 1] = std::move(form);
    }
  }
}

// Regions whose x loops can stop at a block-uniform bound (XBound): none in mixed mode, where
// every thread keeps its own state and values.
void Rewriter::find_x_bounds() {
  x_bounds_.assign(regions_.size(), std::nullopt);
  if (mixed_mode_) return;
  DenseMap<BasicBlock*, unsigned> owners;  // how many regions hold each block
  for (const Region& r : regions_)
    for (BasicBlock* b : r.blocks) ++owners[b];
  for (const Region& r : regions_) {
    x_bounds_[r.state] = find_x_bound(r, owners);
    if (x_bounds_[r.state]) ++bounded_regions_;
  }
}

// Whether region r has no effect another thread or region can see but its exchange value:
// nothing in it writes memory or calls anything but the thread and block markers (and its
// own sync point at the end, the shuffle it stores for).
bool Rewriter::without_effects(const Region& r, const Instruction* sync_call) const {
  for (BasicBlock* b : r.blocks)
    for (Instruction& i : *b) {
      if (&i == sync_call || i.isTerminator()) continue;
      Marker m = marker_of(&i);
      if (m == Marker::ThreadIdx || m == Marker::BlockIdx || m == Marker::BlockDim ||
          m == Marker::GridDim || m == Marker::DynamicShared)
        continue;
      if (m != Marker::None || i.mayHaveSideEffects()) return false;
    }
  return true;
}

// The last region of a warp reduction, `if (lane == 0) out[...] = v;` after its last shuffle:
// where the region's start ends in a branch on `lane == 0` or `lane < C` (C constant), the
// lanes that fail it reach only code without effects, and the start itself has none, only
// lanes below C do anything visible (the bound: 1 or C). 32 when it is not of that shape.
unsigned Rewriter::final_lane_bound(const Region& r) {
  using namespace PatternMatch;
  if (r.exits.size() != 1 || !r.exits.count(kStateDone)) return 32;
  BasicBlock* g = r.start;
  if (sync_of_block_.count(g)) return 32;
  for (BasicBlock* b : r.blocks)
    for (BasicBlock* n : successors(b))
      if (n == g) return 32;  // the guard in a cycle: a lane would pass it again
  auto* br = dyn_cast<BranchInst>(g->getTerminator());
  if (!br || !br->isConditional()) return 32;
  ICmpInst::Predicate pred;
  Value *lane, *id;
  ConstantInt *c, *mask;
  if (!match(br->getCondition(), m_ICmp(pred, m_Value(lane), m_ConstantInt(c)))) return 32;
  uint64_t bound = 32;
  if (pred == ICmpInst::ICMP_ULT && lane_kind(lane) && c->getZExtValue() >= 1 &&
      c->getZExtValue() < 32) {
    bound = c->getZExtValue();  // lane < C
  } else if (pred == ICmpInst::ICMP_EQ && c->isZero() &&
             match(lane, m_And(m_Value(id), m_ConstantInt(mask))) && thread_id_kind(id)) {
    // (id & M) == 0: lane == 0 for M = 31, and InstCombine's form of lane < 2^j
    // (M = 32 - 2^j); in general the lanes l with l & M == 0, the highest of them + 1.
    uint64_t m = mask->getZExtValue() & 31;
    while (bound > 1 && ((bound - 1) & m) != 0) --bound;
  }
  if (bound >= 32) return 32;
  for (Instruction& i : *g) {
    if (i.isTerminator()) continue;
    Marker m = marker_of(&i);
    if (m == Marker::ThreadIdx || m == Marker::BlockIdx || m == Marker::BlockDim ||
        m == Marker::GridDim || m == Marker::DynamicShared)
      continue;
    if (m != Marker::None || i.mayHaveSideEffects()) return 32;
  }
  // What the failing lanes run: the guard's false side and all it reaches in the region.
  DenseSet<BasicBlock*> in_region(r.blocks.begin(), r.blocks.end());
  SetVector<BasicBlock*> failing;
  failing.insert(br->getSuccessor(1));
  for (size_t k = 0; k < failing.size(); ++k) {
    BasicBlock* b = failing[k];
    if (!in_region.count(b) || sync_of_block_.count(b)) return 32;
    for (Instruction& i : *b) {
      if (i.isTerminator()) continue;
      if (marker_of(&i) != Marker::None || i.mayHaveSideEffects()) return 32;
    }
    for (BasicBlock* n : successors(b)) failing.insert(n);
  }
  return unsigned(bound);
}

// Lane bounds: in a chain of in-region exchanges that ends in a region where only lanes
// below C do anything visible (final_lane_bound), a region before the last computes values
// that only the lanes the next region reads from can use. Walking back from the end, each
// region's bound is the highest source lane its successor's bounded lanes read (its
// recognized shifts, constant amounts, path conditions ignored: more lanes, never fewer) plus
// one, and at least the successor's own bound; a region in the chain must have no effect but
// its exchange value, one exit, and be its successor's only way in. Its ShiftWarps copy then
// runs lanes [0, bound) of each warp (lane 0 always: the uniform slots are still written).
// The other copies run every lane; the lanes they compute past a bound read stale buffer
// entries and nothing they compute is seen.
void Rewriter::find_lane_bounds() {
  lane_bounds_.assign(regions_.size(), 32);
  if (!fast_exchange_) return;
  std::vector<std::vector<uint32_t>> preds(regions_.size());
  for (const Region& r : regions_)
    for (uint32_t e : r.exits)
      if (e != kStateDone) preds[e].push_back(r.state);
  for (const Region& last : regions_) {
    if (!in_region_exchange(last.state) || !forms_[last.state - 1].matched) continue;
    unsigned bound = final_lane_bound(last);
    const Region* cur = &last;
    // Each step goes to the one region whose only exit is `cur`: no region comes twice (the
    // chain ends at a return), and the count bounds the walk whatever the graph.
    for (size_t steps = 0; bound < 32 && steps < regions_.size(); ++steps) {
      lane_bounds_[cur->state] = bound;
      ++lane_bounded_regions_;
      // The lanes of the previous region this one's bounded lanes read.
      const SourceForm& form = forms_[cur->state - 1];
      unsigned sources = bound;
      for (const LaneShift& shift : form.shifts) {
        auto* amount = dyn_cast<ConstantInt>(shift.amount);
        if (!amount || amount->getValue().getActiveBits() > 6) {
          sources = 32;
          break;
        }
        int64_t a = int64_t(amount->getZExtValue());
        for (int64_t l = 0; l < int64_t(bound); ++l) {
          int64_t k = shift.kind == LaneShift::Add   ? (shift.negate ? -a : a)
                    : shift.kind == LaneShift::XorUp ? a
                                                     : -a;
          if (shift.kind == LaneShift::XorUp && (l & a) != 0) continue;
          if (shift.kind == LaneShift::XorDown && (l & a) == 0) continue;
          if (l + k >= 0 && l + k < 32) sources = std::max(sources, unsigned(l + k + 1));
        }
      }
      if (preds[cur->state].size() != 1) break;
      const Region& prev = regions_[preds[cur->state][0]];
      if (prev.exits.size() != 1 || !in_region_exchange(prev.state) ||
          !without_effects(prev, syncs_[cur->state - 1].call))
        break;
      bound = sources;
      cur = &prev;
    }
  }
}

// Region r's guard, if threads that fail it do nothing another region or thread can see:
// the region's start reaches the guard's block through block-uniform branches only (so every
// thread gets there, once), the guard is threadIdx.x < U (U block-uniform), and what a
// failing thread runs until the region's end (the path, then whatever the guard's other
// side reaches) has no side effects, defines no per-thread value used elsewhere, and ends
// at a barrier, __syncwarp or return (sync points that take a value from each thread store
// it on the way out). The region's exits must not differ by thread (no per-thread state).
std::optional<XBound> Rewriter::find_x_bound(const Region& r,
                                             const DenseMap<BasicBlock*, unsigned>& owners) {
  if (r.exits.size() > 1 && !r.uniform_exit) return std::nullopt;
  for (uint32_t e : r.exits) {
    if (e == kStateDone) continue;
    Marker m = syncs_[e - 1].marker;
    if (m != Marker::Barrier && m != Marker::WarpSync) return std::nullopt;
  }
  DenseSet<BasicBlock*> in_region(r.blocks.begin(), r.blocks.end());
  auto successors_in_region = [&](BasicBlock* b) {
    std::vector<BasicBlock*> out;
    if (sync_of_block_.count(b)) return out;  // an exit: the code after it is another region's
    for (BasicBlock* n : successors(b))
      if (in_region.count(n)) out.push_back(n);
    return out;
  };
  auto reach_from = [&](BasicBlock* from) {
    SetVector<BasicBlock*> seen;
    seen.insert(from);
    for (size_t k = 0; k < seen.size(); ++k)
      for (BasicBlock* n : successors_in_region(seen[k])) seen.insert(n);
    return seen;
  };
  auto is_x = [&](Value* v) {
    auto* call = dyn_cast<CallInst>(v);
    if (!call || marker_of(call) != Marker::ThreadIdx) return false;
    auto* d = dyn_cast<ConstantInt>(call->getArgOperand(0));
    return d && d->isZero();
  };
  auto uniform_operand = [&](Value* v) {
    if (is_uniform_operand(v)) return true;
    auto* call = dyn_cast<CallInst>(v);
    Marker m = call ? marker_of(call) : Marker::None;
    return m == Marker::BlockDim || m == Marker::GridDim || m == Marker::BlockIdx;
  };
  for (BasicBlock* g : r.blocks) {
    auto* br = dyn_cast<BranchInst>(g->getTerminator());
    if (!br || !br->isConditional() || sync_of_block_.count(g)) continue;
    auto* cmp = dyn_cast<ICmpInst>(br->getCondition());
    if (!cmp) continue;
    ICmpInst::Predicate pred = cmp->getPredicate();
    Value *x = cmp->getOperand(0), *u = cmp->getOperand(1);
    if (is_x(u)) {
      std::swap(x, u);
      pred = ICmpInst::getSwappedPredicate(pred);
    }
    if (!is_x(x) || !uniform_operand(u)) continue;
    unsigned active;  // the successor threads below the bound take
    if (pred == ICmpInst::ICMP_ULT || pred == ICmpInst::ICMP_SLT) active = 0;
    else if (pred == ICmpInst::ICMP_UGE || pred == ICmpInst::ICMP_SGE) active = 1;
    else continue;
    BasicBlock* inactive = br->getSuccessor(1 - active);
    if (!in_region.count(inactive) || !in_region.count(br->getSuccessor(active))) continue;
    // The way from the region's start: uniform branches, each with one side toward g.
    DenseSet<BasicBlock*> to_g;
    to_g.insert(g);
    for (bool grew = true; grew;) {
      grew = false;
      for (BasicBlock* b : r.blocks) {
        if (to_g.count(b)) continue;
        for (BasicBlock* n : successors_in_region(b))
          if (to_g.count(n)) {
            to_g.insert(b);
            grew = true;
            break;
          }
      }
    }
    if (!to_g.count(r.start)) continue;
    XBound xb;
    xb.bound = u;
    xb.is_signed = ICmpInst::isSigned(pred);
    bool ok = true;
    DenseSet<BasicBlock*> on_path;
    for (BasicBlock* b = r.start; ok;) {
      if (!on_path.insert(b).second) ok = false;  // a cycle before the guard
      xb.path.push_back(b);
      if (b == g) break;
      auto* t = dyn_cast<BranchInst>(b->getTerminator());
      if (!t || sync_of_block_.count(b)) {
        ok = false;
        break;
      }
      if (t->isUnconditional()) {
        b = t->getSuccessor(0);
        continue;
      }
      bool first = to_g.count(t->getSuccessor(0)), second = to_g.count(t->getSuccessor(1));
      if (divergent_branches_.count(t) || first == second) {
        ok = false;
        break;
      }
      xb.taken.push_back({t->getCondition(), first});
      xb.taken_at.push_back(xb.path.size() - 1);
      b = t->getSuccessor(first ? 0 : 1);
    }
    if (!ok) continue;
    // What a failing thread runs: the path, then what the guard's other side reaches; g
    // must not come again (each thread passes the guard once).
    SetVector<BasicBlock*> failing = reach_from(inactive);
    if (failing.count(g) || reach_from(br->getSuccessor(active)).count(g)) continue;
    for (BasicBlock* b : xb.path) failing.insert(b);
    for (BasicBlock* b : failing) {
      auto sync_it = sync_of_block_.find(b);
      const CallInst* sync_call =
          sync_it == sync_of_block_.end() ? nullptr : syncs_[sync_it->second].call;
      if (isa<ReturnInst>(b->getTerminator()) && !r.exits.count(kStateDone)) ok = false;
      for (Instruction& i : *b) {
        if (&i == sync_call || i.isTerminator()) continue;
        Marker m = marker_of(&i);
        if (m == Marker::ThreadIdx || m == Marker::BlockIdx || m == Marker::BlockDim ||
            m == Marker::GridDim || m == Marker::DynamicShared)
          continue;
        if (m != Marker::None || i.mayHaveSideEffects()) ok = false;
        if (!ok) break;
        if (i.getType()->isVoidTy() || uniform_values_.count(&i)) continue;
        // A per-thread value: only this region's copy may use it (a failing thread would
        // not store its slot).
        for (User* user : i.users()) {
          auto* ui = cast<Instruction>(user);
          BasicBlock* ub = ui->getParent();
          bool same_block = ub == b && !isa<PHINode>(ui);
          auto owner = owners.find(ub);
          if (!same_block && !(in_region.count(ub) && owner != owners.end() && owner->second == 1))
            ok = false;
        }
        if (!ok) break;
      }
      if (!ok) break;
    }
    if (!ok) continue;
    // The bound and the conditions must be computable before the loop.
    Value* ignored = nullptr;
    if (!clone_on_path(u, xb, xb.path.size() - 1, nullptr, nullptr, ignored)) continue;
    for (size_t k = 0; k < xb.taken.size() && ok; ++k)
      ok = clone_on_path(xb.taken[k].first, xb, xb.taken_at[k], nullptr, nullptr, ignored);
    if (!ok) continue;
    return xb;
  }
  return std::nullopt;
}

// `v` as a thread has it at path block `pos` (the conditions at its end, the bound at the
// guard), computed before the region's loop: values the path defines up to there are
// cloned (a phi takes its value from the path's previous block), anything else is a kernel
// value, which the copy reads as of the region's start (its uniform slot). With no builder,
// only says whether it can.
bool Rewriter::clone_on_path(Value* v, const XBound& xb, size_t pos, RegionCopy* copy,
                             IRBuilder<>* b, Value*& out, int depth) {
  out = v;
  auto* i = dyn_cast<Instruction>(v);
  if (!i || i->getFunction() != &kernel_ || marker_of(i) != Marker::None) return true;
  size_t k = 0;
  while (k <= pos && xb.path[k] != i->getParent()) ++k;
  // Defined before the region, or later on the path: its value at the region's start, read
  // from its uniform slot (a value without one cannot be read there).
  if (k > pos) return uniform_values_.count(i) != 0;
  if (depth > 16) return false;
  if (auto* phi = dyn_cast<PHINode>(i)) {
    if (k == 0) return false;
    return clone_on_path(phi->getIncomingValueForBlock(xb.path[k - 1]), xb, k - 1, copy, b, out,
                         depth + 1);
  }
  if (i->mayReadOrWriteMemory() ||
      !(isa<BinaryOperator>(i) || isa<CastInst>(i) || isa<CmpInst>(i) || isa<SelectInst>(i)))
    return false;
  Instruction* ni = b ? i->clone() : nullptr;
  for (unsigned n = 0; n < i->getNumOperands(); ++n) {
    Value* op = nullptr;
    if (!clone_on_path(i->getOperand(n), xb, k, copy, b, op, depth + 1)) {
      if (ni) ni->deleteValue();
      return false;
    }
    if (ni) ni->setOperand(n, op);
  }
  if (ni) {
    b->Insert(ni);
    out = ni;
  }
  return true;
}

std::unique_ptr<RegionCopy> Rewriter::uniform_copy(const Region& r, BasicBlock* pre) {
  auto copy = std::make_unique<RegionCopy>();
  copy->region = &r;
  copy->preheader = pre;
  copy->head = pre;
  for (Argument& a : kernel_.args()) copy->map[&a] = whole_->getArg(a.getArgNo());
  for (Instruction& i : instructions(kernel_)) {
    Marker m = marker_of(&i);
    if (m == Marker::BlockDim) {
      auto d = cast<ConstantInt>(cast<CallInst>(i).getArgOperand(0))->getZExtValue();
      copy->map[&i] = d < 3 ? dim_[d] : ConstantInt::get(i32_, 1);
    } else if (m == Marker::BlockIdx || m == Marker::GridDim || m == Marker::DynamicShared) {
      auto* c = m == Marker::DynamicShared
                  ? nullptr
                  : dyn_cast<ConstantInt>(cast<CallInst>(i).getArgOperand(0));
      auto it = uniform_.find({int(m), c ? c->getZExtValue() : 0});
      if (it != uniform_.end() && (c || m == Marker::DynamicShared)) copy->map[&i] = it->second;
    }
  }
  return copy;
}

// Before a fast loop of region r: the x bound, umax(1, umin(blockDim.x, U)) where the path's
// conditions hold, else blockDim.x. A copy of its own (like emit_exchange_choice's check):
// the kernel values it reads are loaded from their uniform slots in its preheader.
BasicBlock* Rewriter::emit_x_bound(const Region& r, const XBound& xb, BasicBlock* loop,
                                   BasicBlock* done, Value*& bound) {
  auto* pre = BasicBlock::Create(ctx_, "xbound.pre", whole_, done);
  auto* calc = BasicBlock::Create(ctx_, "xbound", whole_, done);
  BranchInst::Create(calc, pre);
  auto copy = uniform_copy(r, pre);
  IRBuilder<> b(calc);
  Value* u = nullptr;
  clone_on_path(xb.bound, xb, xb.path.size() - 1, copy.get(), &b, u);
  Value* ok = b.getTrue();
  for (size_t k = 0; k < xb.taken.size(); ++k) {
    Value* c = nullptr;
    clone_on_path(xb.taken[k].first, xb, xb.taken_at[k], copy.get(), &b, c);
    ok = b.CreateAnd(ok, xb.taken[k].second ? c : b.CreateNot(c));
  }
  if (xb.is_signed) u = b.CreateBinaryIntrinsic(Intrinsic::smax, u, b.getInt32(0));
  Value* narrow = b.CreateBinaryIntrinsic(
      Intrinsic::umax, b.CreateBinaryIntrinsic(Intrinsic::umin, u, dim_[0]), b.getInt32(1));
  bound = b.CreateSelect(ok, narrow, dim_[0], "xbound");
  b.CreateBr(loop);
  // Kernel values they read: arguments and markers are mapped here, the others go through
  // their uniform slots (spill_cross_region_values, loads in `pre`).
  for (Instruction& i : *calc) {
    RemapInstruction(&i, copy->map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    hoist_thread_locals(&i);
    copy->instructions.push_back(&i);
  }
  copies_.push_back(std::move(copy));
  return pre;
}

// After a warp_read: the source lane's value (as the i64 the marker returns). `head` is a
// block of its own after the loop's head (where values kept across the shuffle are read).
Value* Rewriter::load_exchange(RegionCopy& copy, IRBuilder<>& head, const SyncPoint& s) {
  bool wide = wide_[s.state - 1];
  Type* t = wide ? i64_ : i32_;
  Value* lin = copy.linear;
  Value* buffer = exchange_buffer(copy, wide, true);
  BasicBlock* at = head.GetInsertBlock();
  Instruction* last = at->empty() ? nullptr : &at->back();
  Value* own = head.CreateLoad(t, slot(buffer, t, copy, head), "xchg.own");
  Value* v = own;
  if (copy.exchange == Exchange::Gather) {
    Value* src = clone_expr(s.call->getArgOperand(1), copy, head);
    Value* from = head.CreateAdd(head.CreateAnd(lin, head.getInt32(~31u)), src, "xchg.from");
    Value* valid = head.CreateAnd(head.CreateICmpULT(src, head.getInt32(32)),
                                  head.CreateICmpULT(from, threads_));
    Value* index = head.CreateSelect(valid, from, lin, "xchg.index");
    v = head.CreateLoad(t, slot(buffer, t, index, head), "xchg.gathered");
  } else {
    // Each shift's lanes read it where the kernel's conditions say it is taken and the
    // source is in the warp (and the block); every other lane keeps its own value.
    const SourceForm& form = forms_[s.state - 1];
    Value* lane = clone_expr(form.lane, copy, head);
    for (const LaneShift& shift : form.shifts) {
      Value* amount = clone_expr(shift.amount, copy, head);
      Value* k = shift.negate || shift.kind == LaneShift::XorDown ? head.CreateNeg(amount) : amount;
      Value* take = head.CreateICmpULT(head.CreateAdd(lane, k), head.getInt32(32));
      if (shift.kind != LaneShift::Add) {
        Value* clear = head.CreateICmpEQ(head.CreateAnd(lane, amount), head.getInt32(0));
        take = head.CreateAnd(take, shift.kind == LaneShift::XorUp ? clear : head.CreateNot(clear));
      }
      for (auto& [cond, want] : shift.path) {
        Value* c = clone_expr(cond, copy, head);
        take = head.CreateAnd(take, want ? c : head.CreateNot(c));
      }
      if (copy.exchange == Exchange::Shift)  // a partial warp: the source may be past the block
        take = head.CreateAnd(take, head.CreateICmpULT(head.CreateAdd(lin, k), threads_));
      // Within the buffer's padding whatever the amount (a lane that takes it has |k| < 32).
      Value* clamped = head.CreateBinaryIntrinsic(
          Intrinsic::smin,
          head.CreateBinaryIntrinsic(Intrinsic::smax, k, head.getInt32(-int32_t(kExchangePad))),
          head.getInt32(kExchangePad));
      Value* at = copy.index ? head.CreateNSWAdd(copy.index, head.CreateSExt(clamped, i64_))
                             : head.CreateNSWAdd(lin, clamped);
      Value* shifted = head.CreateLoad(t, slot(buffer, t, at, head), "xchg.shifted");
      v = head.CreateSelect(take, shifted, v, "xchg.take");
    }
  }
  // The shuffled value's own bits are this thread's entry: the region reads the value (and
  // what it was cast from) from there instead of a per-thread slot of its own.
  Value* x = s.call->getArgOperand(0);
  Value* bits = own;
  if (!wide) {
    auto* z = dyn_cast<ZExtInst>(x);
    x = z ? z->getOperand(0) : nullptr;
    if (x && x->getType() != i32_) bits = head.CreateTrunc(own, x->getType());
  }
  for (int depth = 0; x && depth < 2; ++depth) {
    auto* xi = dyn_cast<Instruction>(x);
    if (!xi || xi->getFunction() != &kernel_) break;
    copy.own_aliases.push_back({xi, bits});
    auto* cast = dyn_cast<BitCastInst>(xi);
    if (!cast) break;
    x = cast->getOperand(0);
    bits = head.CreateBitCast(bits, x->getType());
  }
  // What it added reads kernel values (the source lane's operands): remapped with the region.
  for (auto it = last ? std::next(last->getIterator()) : at->begin(); it != at->end(); ++it)
    copy.instructions.push_back(&*it);
  return wide ? v : head.CreateZExt(v, i64_, "xchg.result");
}

BasicBlock* Rewriter::emit_fast_loop(const Region& r, BasicBlock* done, Exchange exchange) {
  // do { do { body } while (++x < dim.x) } while (++row < dim.y * dim.z): one loop over the
  // block's rows, y and z carried along (y wraps into z), so a 1-D block's region pays one
  // loop level around x, not two.
  // A ShiftWarps copy (rows of whole warps) runs x in warps of 32 lanes: the inner loop
  // has a constant trip count and starts at a multiple of 32 (blockDim.x is read as
  // dim.x & ~31 there), so once it is vectorized and unrolled each vector's lanes are
  // constants: the masks that pick shifts and lanes fold or leave the loop.
  bool warps = exchange == Exchange::ShiftWarps;
  // Thread indices stay below 1024 (a block's limit): their arithmetic wraps neither way,
  // which lets SCEV drop the vectorizer's run-time overflow checks on sign-extended indices.
  auto add_nw = [](IRBuilder<>& b, Value* l, Value* r, const Twine& name = "") {
    return b.CreateAdd(l, r, name, true, true);
  };
  auto mul_nw = [](IRBuilder<>& b, Value* l, Value* r, const Twine& name = "") {
    return b.CreateMul(l, r, name, true, true);
  };
  auto* pre = BasicBlock::Create(ctx_, "fast.pre", whole_, done);
  // A region whose threads past a uniform bound on threadIdx.x do nothing: x stops there.
  Value* x_end = dim_[0];
  BasicBlock* first = pre;
  if (exchange == Exchange::None && x_bounds_[r.state])
    first = emit_x_bound(r, *x_bounds_[r.state], pre, done, x_end);
  auto* yh = BasicBlock::Create(ctx_, "fast.row", whole_, done);
  auto* wh = warps ? BasicBlock::Create(ctx_, "fast.warp", whole_, done) : nullptr;
  auto* xh = BasicBlock::Create(ctx_, "fast.x", whole_, done);
  auto* xl = BasicBlock::Create(ctx_, "fast.x.next", whole_, done);
  auto* wl = warps ? BasicBlock::Create(ctx_, "fast.warp.next", whole_, done) : nullptr;
  auto* yl = BasicBlock::Create(ctx_, "fast.row.next", whole_, done);
  IRBuilder<> b(pre);
  Value* dim_x = warps ? b.CreateAnd(dim_[0], b.getInt32(~31u), "block.dim.x.warps") : dim_[0];
  Value* rows = mul_nw(b, dim_[1], dim_[2], "block.rows");
  b.CreateBr(yh);
  b.SetInsertPoint(yh);
  PHINode* row_id = b.CreatePHI(i32_, 2, "tid.row.id");  // z * dim.y + y
  PHINode* y = b.CreatePHI(i32_, 2, "tid.y");
  PHINode* z = b.CreatePHI(i32_, 2, "tid.z");
  // The linear id is an induction of the x loop of its own, as x is: LLVM 15 widens
  // a value computed from an induction lane by lane in every vector iteration when it
  // also has scalar uses (addresses), an induction once.
  Value* row = mul_nw(b, row_id, dim_x, "tid.row");
  PHINode *xw = nullptr, *lane = nullptr;
  Value* lin0 = row;
  if (warps) {
    b.CreateBr(wh);
    b.SetInsertPoint(wh);
    xw = b.CreatePHI(i32_, 2, "tid.x.warp");
    lin0 = add_nw(b, row, xw, "tid.warp");
  }
  Value* index0 = b.CreateZExt(lin0, i64_);  // thread ids are non-negative
  BasicBlock* to_x = b.GetInsertBlock();
  b.CreateBr(xh);
  b.SetInsertPoint(xh);
  PHINode* x = b.CreatePHI(i32_, 2, "tid.x");
  PHINode* lin = b.CreatePHI(i32_, 2, "tid");
  PHINode* index = b.CreatePHI(i64_, 2, "tid.index");
  if (warps) lane = b.CreatePHI(i32_, 2, "tid.lane");
  auto copy = std::make_unique<RegionCopy>();
  copy->region = &r;
  copy->linear = lin;
  copy->index = index;
  copy->preheader = pre;
  copy->head = xh;
  copy->exchange = exchange;
  copy->dim_x = dim_x;
  const Value* tid[3] = {x, y, z};
  copy_region(*copy, xh, xl,
              r.exits.size() < 2 ? NextState::Known
              : r.uniform_exit   ? NextState::Uniform
                                 : NextState::PerThread,
              tid);
  b.SetInsertPoint(xl);
  Value* x1 = add_nw(b, x, b.getInt32(1));
  Value* lin1 = add_nw(b, lin, b.getInt32(1));
  index->addIncoming(index0, to_x);
  index->addIncoming(add_nw(b, index, b.getInt64(1)), xl);
  if (warps) {
    Value* lane1 = add_nw(b, lane, b.getInt32(1));
    b.CreateCondBr(b.CreateICmpULT(lane1, b.getInt32(lane_bounds_[r.state])), xh, wl);
    lane->addIncoming(b.getInt32(0), wh);
    lane->addIncoming(lane1, xl);
    b.SetInsertPoint(wl);
    Value* xw1 = add_nw(b, xw, b.getInt32(32));
    b.CreateCondBr(b.CreateICmpULT(xw1, dim_x), wh, yl);
    xw->addIncoming(b.getInt32(0), yh);
    xw->addIncoming(xw1, wl);
    x->addIncoming(xw, wh);
    lin->addIncoming(lin0, wh);
  } else {
    b.CreateCondBr(b.CreateICmpULT(x1, x_end), xh, yl);
    x->addIncoming(b.getInt32(0), yh);
    lin->addIncoming(row, yh);
  }
  // The next row: y + 1, or 0 and z + 1 past the last (computed only where the region reads
  // them). The row loop runs once in 1-D blocks: unrolled (at run time, by 2) it would cost
  // a trip count check and an odd-count test per region and block for nothing.
  b.SetInsertPoint(yl);
  Value* row1 = add_nw(b, row_id, b.getInt32(1));
  Value* y1 = add_nw(b, y, b.getInt32(1));
  Value* wrap = b.CreateICmpEQ(y1, dim_[1]);
  Value* y_next = b.CreateSelect(wrap, b.getInt32(0), y1);
  Value* z_next = add_nw(b, z, b.CreateZExt(wrap, i32_));
  Instruction* latch = b.CreateCondBr(b.CreateICmpULT(row1, rows), yh, done);
  MDNode* off = MDNode::get(ctx_, {MDString::get(ctx_, "llvm.loop.unroll.disable")});
  MDNode* id = MDNode::getDistinct(ctx_, {nullptr, off});
  id->replaceOperandWith(0, id);
  latch->setMetadata(LLVMContext::MD_loop, id);
  row_id->addIncoming(b.getInt32(0), pre);
  row_id->addIncoming(row1, yl);
  y->addIncoming(b.getInt32(0), pre);
  y->addIncoming(y_next, yl);
  z->addIncoming(b.getInt32(0), pre);
  z->addIncoming(z_next, yl);
  x->addIncoming(x1, xl);
  lin->addIncoming(lin1, xl);
  copies_.push_back(std::move(copy));
  return first;
}

BasicBlock* Rewriter::emit_slow_loop(const Region& r, Value* want, Value* lo, Value* hi,
                                     BasicBlock* done) {
  auto* pre = BasicBlock::Create(ctx_, "group.pre", whole_, done);
  auto* head = BasicBlock::Create(ctx_, "group.thread", whole_, done);
  auto* body = BasicBlock::Create(ctx_, "group.run", whole_, done);
  auto* latch = BasicBlock::Create(ctx_, "group.next", whole_, done);
  IRBuilder<> b(pre);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  PHINode* lin = b.CreatePHI(i32_, 2, "tid");
  Value* st = b.CreateLoad(i32_, slot(state_, i32_, lin, b));
  b.CreateCondBr(b.CreateICmpEQ(st, want), body, latch);
  b.SetInsertPoint(body);
  Value* x = b.CreateURem(lin, dim_[0], "tid.x");
  Value* rest = b.CreateUDiv(lin, dim_[0]);
  Value* y = b.CreateURem(rest, dim_[1], "tid.y");
  Value* z = b.CreateUDiv(rest, dim_[1], "tid.z");
  auto copy = std::make_unique<RegionCopy>();
  copy->region = &r;
  copy->linear = lin;
  copy->preheader = pre;
  copy->head = body;
  copy->slow = true;
  const Value* tid[3] = {x, y, z};
  copy_region(*copy, body, latch, NextState::PerThread, tid);
  b.SetInsertPoint(latch);
  Value* next = b.CreateNUWAdd(lin, b.getInt32(1));
  b.CreateCondBr(b.CreateICmpULT(next, hi), head, done);
  lin->addIncoming(lo, pre);
  lin->addIncoming(next, latch);
  copies_.push_back(std::move(copy));
  return pre;
}

// The uniform choice between the copies of the region after a recognized shuffle: shifts
// when the lane the kernel computed is the warp lane (1-D blocks, or rows of whole warps,
// for threadIdx.x's) and every xor mask is a power of two; without the partial-block check
// when the block is whole warps. The masks are kernel values (block-uniform, read from
// their slots): the check is a copy of its own for spill_cross_region_values.
BasicBlock* Rewriter::emit_exchange_choice(const Region& r, const SourceForm& form,
                                           BasicBlock* gather, BasicBlock* done) {
  auto* pre = BasicBlock::Create(ctx_, "xchg.check.pre", whole_, done);
  auto* check = BasicBlock::Create(ctx_, "xchg.check", whole_, done);
  auto* whole_warps = BasicBlock::Create(ctx_, "xchg.check.full", whole_, done);
  BranchInst::Create(check, pre);
  auto copy = uniform_copy(r, pre);
  IRBuilder<> b(check);
  Value* ok = b.getTrue();
  if (form.lane_is_x)
    ok = b.CreateOr(b.CreateICmpEQ(b.CreateMul(dim_[1], dim_[2]), b.getInt32(1)),
                    b.CreateICmpEQ(b.CreateAnd(dim_[0], b.getInt32(31)), b.getInt32(0)));
  for (Value* mask : form.xor_masks) {
    Value* m = clone_expr(mask, *copy, b);
    ok = b.CreateAnd(ok,
                     b.CreateICmpEQ(b.CreateAnd(m, b.CreateSub(m, b.getInt32(1))), b.getInt32(0)));
  }
  // The common case first, in one test (block-uniform, so LLVM computes it once per range):
  // rows of whole warps (then the block is whole warps too) and the shifts apply.
  BasicBlock* by_warps = emit_fast_loop(r, done, Exchange::ShiftWarps);
  auto* slower = BasicBlock::Create(ctx_, "xchg.check.other", whole_, done);
  Value* warp_rows = b.CreateICmpEQ(b.CreateAnd(dim_[0], b.getInt32(31)), b.getInt32(0));
  b.CreateCondBr(b.CreateAnd(ok, warp_rows), by_warps, slower);
  for (Instruction& i : *check) {
    copy->instructions.push_back(&i);
    RemapInstruction(&i, copy->map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    hoist_thread_locals(&i);
  }
  BranchInst::Create(whole_warps, gather, ok, slower);
  IRBuilder<> fb(whole_warps);
  Value* full = fb.CreateICmpEQ(fb.CreateAnd(threads_, fb.getInt32(31)), fb.getInt32(0));
  fb.CreateCondBr(full, emit_fast_loop(r, done, Exchange::ShiftFull),
                  emit_fast_loop(r, done, Exchange::Shift));
  copies_.push_back(std::move(copy));
  return pre;
}

void Rewriter::emit_dispatch() {
  IRBuilder<> b(dispatch_);
  current_ = b.CreatePHI(i32_, 4, "block.state");
  current_->addIncoming(b.getInt32(0), dispatch_from_);
  SwitchInst* sw = b.CreateSwitch(current_, exit_, unsigned(regions_.size()));
  BasicBlock* slow = nullptr;
  if (mixed_mode_) slow = BasicBlock::Create(ctx_, "group.pick", whole_, exit_);

  // A region with one known next region goes straight to it: the dispatcher's switch is
  // only for exits that are read at run time (loops around barriers, mixed mode). A chain
  // of regions is then straight-line code, and the exchange parity a constant in each.
  std::map<uint32_t, BasicBlock*> case_blocks;
  for (const Region& r : regions_)
    case_blocks[r.state] =
        BasicBlock::Create(ctx_, "state." + std::to_string(r.state), whole_, exit_);
  for (const Region& r : regions_) {
    BasicBlock* case_block = case_blocks.at(r.state);
    auto* done =
        BasicBlock::Create(ctx_, "state." + std::to_string(r.state) + ".done", whole_, exit_);
    sw->addCase(b.getInt32(r.state), case_block);
    IRBuilder<> cb(case_block);
    Constant* null = ConstantPointerNull::get(cast<PointerType>(ptr_));
    emit_prelude(cb, r.state, null, cb.getInt32(0), cb.getInt32(0), threads_);
    if (in_region_exchange(r.state)) {
      // The buffers swap; the copy that reads the shifts runs when the block's shape (and
      // the xor masks) make them warp shifts, the gather copy otherwise.
      cb.CreateStore(cb.CreateXor(cb.CreateLoad(i32_, parity_), cb.getInt32(1)), parity_);
      const SourceForm& form = forms_[r.state - 1];
      BasicBlock* gather = emit_fast_loop(r, done, Exchange::Gather);
      if (form.matched) {
        BasicBlock* choice = emit_exchange_choice(r, form, gather, done);
        cb.CreateBr(choice);
        ++shifted_exchanges_;
      } else {
        cb.CreateBr(gather);
      }
      ++in_region_exchanges_;
    } else {
      cb.CreateBr(emit_fast_loop(r, done));
    }
    IRBuilder<> db(done);
    if (r.exits.size() == 1) {
      uint32_t next = *r.exits.begin();
      if (next == kStateDone) {
        db.CreateBr(exit_);
      } else {
        db.CreateBr(case_blocks.at(next));
      }
    } else if (r.uniform_exit) {
      current_->addIncoming(db.CreateLoad(i32_, next_state_, "next"), done);
      db.CreateBr(dispatch_);
    } else {
      Value* same =
          db.CreateCall(m_.getFunction("__weft_bl_uniform"), {state_, threads_}, "uniform");
      auto* back =
          BasicBlock::Create(ctx_, "state." + std::to_string(r.state) + ".uniform", whole_, exit_);
      db.CreateCondBr(db.CreateICmpEQ(same, db.getInt32(kScheduleMixed)), slow, back);
      IRBuilder<> kb(back);
      kb.CreateBr(dispatch_);
      current_->addIncoming(same, back);
    }
  }
  if (!slow) return;

  // Mixed mode: block_runtime picks a group, a predicated copy runs it.
  IRBuilder<> sb(slow);
  Type* kinds_type = ArrayType::get(i8_, regions_.size());
  std::vector<Constant*> kinds{ConstantInt::get(i8_, 0)};
  for (const SyncPoint& s : syncs_) kinds.push_back(ConstantInt::get(i8_, sync_kind(s.marker)));
  auto* kinds_table = new GlobalVariable(m_, kinds_type, true, GlobalValue::PrivateLinkage,
                                         ConstantArray::get(cast<ArrayType>(kinds_type), kinds),
                                         kernel_.getName() + ".sync.kinds");
  Value* picked = sb.CreateCall(m_.getFunction("__weft_bl_schedule"),
                                {state_, threads_, kinds_table, range_}, "group.state");
  Value* lo = sb.CreateLoad(
      i32_, sb.CreateConstInBoundsGEP2_32(ArrayType::get(i32_, 2), range_, 0, 0), "group.lo");
  Value* hi = sb.CreateLoad(
      i32_, sb.CreateConstInBoundsGEP2_32(ArrayType::get(i32_, 2), range_, 0, 1), "group.hi");
  auto* dead = BasicBlock::Create(ctx_, "deadlock", whole_, exit_);
  SwitchInst* pick = sb.CreateSwitch(picked, dead, unsigned(regions_.size() + 1));
  pick->addCase(sb.getInt32(kScheduleFinished), exit_);
  for (const Region& r : regions_) {
    if (r.state == 0) continue;  // only ever runs in uniform mode
    auto* case_block = BasicBlock::Create(ctx_, "group." + std::to_string(r.state), whole_, exit_);
    pick->addCase(sb.getInt32(r.state), case_block);
    IRBuilder<> cb(case_block);
    Value* want = cb.getInt32(r.state | kStateReleased);
    emit_prelude(cb, r.state, state_, want, lo, hi);
    cb.CreateBr(emit_slow_loop(r, want, lo, hi, slow));
  }
  IRBuilder<> deadb(dead);
  FunctionCallee fail = m_.getOrInsertFunction("weftKernelFail", Type::getVoidTy(ctx_), ptr_);
  Value* what = deadb.CreateGlobalStringPtr(
      "deadlock: lanes of a warp wait at a warp operation while others wait at __syncthreads "
      "(kernel " +
      kernel_.getName().str() + ")");
  deadb.CreateCall(fail, {what});
  deadb.CreateBr(exit_);
}

Value* Rewriter::hoist_thread_local(Value* v, Instruction* before) {
  if (auto* g = dyn_cast<GlobalVariable>(v)) {
    auto it = thread_locals_.find(g);
    return it == thread_locals_.end() ? v : it->second;
  }
  auto* ce = dyn_cast<ConstantExpr>(v);
  if (!ce) return v;
  bool uses_tls = false;
  std::function<void(Value*)> scan = [&](Value* x) {
    if (auto* g = dyn_cast<GlobalVariable>(x)) uses_tls |= thread_locals_.count(g) != 0;
    else if (auto* c = dyn_cast<ConstantExpr>(x))
      for (Value* op : c->operands()) scan(op);
  };
  scan(ce);
  if (!uses_tls) return v;
  Instruction* ni = ce->getAsInstruction(before);
  for (Use& u : ni->operands()) u.set(hoist_thread_local(u.get(), ni));
  return ni;
}

void Rewriter::hoist_thread_locals(Instruction* ni) {
  if (thread_locals_.empty()) return;
  for (Use& u : ni->operands()) {
    if (!isa<Constant>(u.get())) continue;
    Instruction* at = ni;
    if (auto* phi = dyn_cast<PHINode>(ni)) at = phi->getIncomingBlock(u)->getTerminator();
    Value* v = hoist_thread_local(u.get(), at);
    if (v != u.get()) u.set(v);
  }
}

// Uses of a shuffled value (and what it was cast from) in the region after the shuffle,
// up to the region's own definition of it, read the thread's exchange entry.
void Rewriter::alias_own_values(DominatorTree& dt) {
  for (auto& copy : copies_) {
    for (auto& [x, alias] : copy->own_aliases) {
      Instruction* def = nullptr;
      if (auto it = copy->map.find(x); it != copy->map.end())
        def = dyn_cast<Instruction>(&*it->second);
      SmallVector<Use*, 8> uses;
      for (Instruction* ni : copy->instructions)
        for (Use& u : ni->operands())
          if (u.get() == x || (def && u.get() == def && !dt.dominates(def, u))) uses.push_back(&u);
      if (uses.empty()) continue;
      auto* at = cast<Instruction>(alias)->getParent();
      SSAUpdater ssa;
      ssa.Initialize(x->getType(), x->getName());
      ssa.AddAvailableValue(at, alias);
      if (def && def->getParent() != at) ssa.AddAvailableValue(def->getParent(), def);
      for (Use* u : uses) ssa.RewriteUse(*u);
    }
  }
}

// A value computed only from thread ids, block-uniform markers, arguments and
// constants (an index, an address) is cheaper to compute again in each region
// than to keep per thread.
bool Rewriter::can_recompute(Value* v, int depth) {
  if (isa<Constant>(v) || isa<Argument>(v)) return true;
  auto* i = dyn_cast<Instruction>(v);
  if (!i || i->getFunction() != &kernel_) return false;
  if (auto* a = dyn_cast<AllocaInst>(i)) return private_.count(a) != 0;
  switch (marker_of(i)) {
    case Marker::ThreadIdx:
    case Marker::BlockDim: return true;
    case Marker::BlockIdx:
    case Marker::GridDim:
      return isa<ConstantInt>(cast<CallInst>(i)->getArgOperand(0)) &&
             uniform_.count(
                 {int(marker_of(i)),
                  cast<ConstantInt>(cast<CallInst>(i)->getArgOperand(0))->getZExtValue()});
    case Marker::DynamicShared: return uniform_.count({int(Marker::DynamicShared), 0}) != 0;
    default: break;
  }
  if (depth > 8) return false;
  if (!isa<BinaryOperator>(i) && !isa<CastInst>(i) && !isa<GetElementPtrInst>(i) &&
      !isa<CmpInst>(i) && !isa<SelectInst>(i))
    return false;
  for (Value* op : i->operands())
    if (!can_recompute(op, depth + 1)) return false;
  return true;
}

Value* Rewriter::recompute(Value* v, RegionCopy& copy, Instruction* before) {
  if (isa<Constant>(v)) return v;
  if (auto* a = dyn_cast<Argument>(v)) return whole_->getArg(a->getArgNo());
  auto* i = cast<Instruction>(v);
  if (isa<AllocaInst>(i) || marker_of(i) != Marker::None) return &*copy.map[i];
  Instruction* ni = i->clone();
  for (Use& u : ni->operands()) u.set(recompute(u.get(), copy, before));
  ni->insertBefore(before);
  hoist_thread_locals(ni);
  return ni;
}

void Rewriter::spill_cross_region_values() {
  DominatorTree dt(*whole_);
  alias_own_values(dt);
  SetVector<Instruction*> spilled;
  for (auto& copy : copies_) {
    for (Instruction* ni : copy->instructions) {
      for (Use& u : ni->operands()) {
        auto* op = dyn_cast<Instruction>(u.get());
        if (!op) continue;
        if (op->getFunction() == &kernel_) {
          spilled.insert(op);
        } else if (auto it = original_of_.find(op);
                   it != original_of_.end() && !dt.dominates(op, u)) {
          spilled.insert(it->second);
        }
      }
    }
  }
  SetVector<Instruction*> recomputed;
  for (Instruction* v : spilled)
    if (can_recompute(v, 0)) recomputed.insert(v);
  for (Instruction* v : recomputed) spilled.remove(v);
  // Uses that need a recomputed value get their own copy of its expression.
  for (auto& copy : copies_) {
    DenseMap<Value*, Instruction*> copy_of;
    for (Instruction* v : recomputed)
      if (auto it = copy->map.find(v); it != copy->map.end())
        if (auto* def = dyn_cast<Instruction>(&*it->second)) copy_of[def] = v;
    for (Instruction* ni : copy->instructions) {
      for (Use& u : ni->operands()) {
        auto* op = dyn_cast<Instruction>(u.get());
        if (!op) continue;
        Instruction* orig = nullptr;
        if (op->getFunction() == &kernel_ && recomputed.count(op)) orig = op;
        else if (auto it = copy_of.find(op); it != copy_of.end() && !dt.dominates(op, u))
          orig = it->second;
        if (!orig) continue;
        Instruction* at = ni;
        if (auto* phi = dyn_cast<PHINode>(ni)) at = phi->getIncomingBlock(u)->getTerminator();
        u.set(recompute(orig, *copy, at));
      }
    }
  }
  spilled_ = unsigned(spilled.size());
  if (spilled.empty()) return;
  // A block-uniform value (divergence analysis) has one slot read once before a
  // fast loop: every thread stores the same value, so the loop stays free of
  // per-thread loads (a loop counter around a barrier keeps addresses affine and
  // the loop vectorizable). Mixed mode runs groups out of step, so there every
  // value is per thread, and fast loops keep those slots current too.
  IRBuilder<> ab(alloca_point_);
  struct Slots {
    Value* per_thread = nullptr;
    Value* uniform = nullptr;
  };
  DenseMap<Instruction*, Slots> slots;
  for (Instruction* v : spilled) {
    Slots s;
    Type* t = v->getType();
    bool uniform = uniform_values_.count(v) != 0;
    if (!uniform || mixed_mode_) {
      auto* a = ab.CreateAlloca(t, threads_, v->getName() + ".per.thread");
      a->setAlignment(Align(std::max<uint64_t>(16, dl_.getABITypeAlign(t).value())));
      bytes_per_thread_ += dl_.getTypeAllocSize(t);
      s.per_thread = a;
    }
    if (uniform) s.uniform = ab.CreateAlloca(t, nullptr, v->getName() + ".uniform");
    slots[v] = s;
  }
  for (auto& copy : copies_) {
    for (Instruction* v : spilled) {
      const Slots& s = slots[v];
      Type* t = v->getType();
      bool use_uniform = s.uniform && !copy->slow;
      Instruction* def = nullptr;
      if (auto it = copy->map.find(v); it != copy->map.end())
        def = dyn_cast<Instruction>(&*it->second);
      SmallVector<Use*, 8> uses;
      for (Instruction* ni : copy->instructions)
        for (Use& u : ni->operands())
          if (u.get() == v || (def && u.get() == def && !dt.dominates(def, u))) uses.push_back(&u);
      if (def) {
        IRBuilder<> b(def->getParent(), isa<PHINode>(def) ? def->getParent()->getFirstInsertionPt()
                                                          : std::next(def->getIterator()));
        if (use_uniform) b.CreateStore(def, s.uniform);
        if (s.per_thread) b.CreateStore(def, slot(s.per_thread, t, *copy, b));
      }
      if (uses.empty()) continue;
      Value* live_in;
      if (use_uniform) {
        IRBuilder<> b(copy->preheader->getTerminator());
        live_in = b.CreateLoad(t, s.uniform, v->getName() + ".uniform.in");
      } else {
        IRBuilder<> b(copy->head->getTerminator());
        live_in = b.CreateLoad(t, slot(s.per_thread, t, *copy, b), v->getName() + ".in");
      }
      // The region sees the value of an earlier phase until its own definition.
      SSAUpdater ssa;
      ssa.Initialize(t, v->getName());
      ssa.AddAvailableValue(copy->head, live_in);
      if (def && def->getParent() != copy->head) ssa.AddAvailableValue(def->getParent(), def);
      for (Use* u : uses) ssa.RewriteUse(*u);
    }
  }
}

// Whether the memory effects of `i` may be reordered across GPU threads: between two
// sync points, HIP gives a thread no way to see another thread's plain accesses
// (that would be a data race), so a region's loop over threads has no loop-carried
// dependence through them. Atomics, fences and volatile accesses do order threads
// (a counter, a flag, warp-synchronous code on volatile shared memory), and so may
// calls whose bodies the pass cannot see.
bool Rewriter::order_free(const Instruction& i) {
  if (!i.mayReadOrWriteMemory()) return true;
  if (i.isAtomic()) return false;
  if (auto* l = dyn_cast<LoadInst>(&i)) return !l->isVolatile();
  if (auto* s = dyn_cast<StoreInst>(&i)) return !s->isVolatile();
  auto* call = dyn_cast<CallBase>(&i);
  if (!call || call->isInlineAsm()) return false;
  if (auto* mi = dyn_cast<MemIntrinsic>(call)) return !mi->isVolatile();
  if (auto* ii = dyn_cast<IntrinsicInst>(call)) {
    switch (ii->getIntrinsicID()) {
      case Intrinsic::assume:
      case Intrinsic::experimental_noalias_scope_decl:
      case Intrinsic::lifetime_start:
      case Intrinsic::lifetime_end:
      case Intrinsic::invariant_start:
      case Intrinsic::invariant_end:
      case Intrinsic::prefetch:
      case Intrinsic::masked_load:
      case Intrinsic::masked_store:
      case Intrinsic::masked_gather:
      case Intrinsic::masked_scatter: return true;
      default: return false;
    }
  }
  const Function* callee = call->getCalledFunction();
  if (!callee) return false;
  if (call->onlyReadsMemory() || callee->onlyReadsMemory()) return true;
  // The block-uniform markers left in a region (a run-time dimension) only read.
  switch (marker_of(callee)) {
    case Marker::BlockIdx:
    case Marker::BlockDim:
    case Marker::GridDim:
    case Marker::DynamicShared: return true;
    default: break;
  }
  return order_free(*callee);
}

bool Rewriter::order_free(const Function& f) {
  if (f.isDeclaration() || f.isInterposable()) return false;
  if (auto it = order_free_callee_.find(&f); it != order_free_callee_.end()) return it->second;
  order_free_callee_[&f] = false;  // a recursive call is not looked through
  bool free = true;
  for (const Instruction& i : instructions(f))
    if (!(free = order_free(i))) break;
  order_free_callee_[&f] = free;
  return free;
}

// Marks the loop over threads of each uniform-mode region whose memory accesses are
// all order_free with llvm.loop.parallel_accesses (every access in one access group):
// the loop vectorizer then needs no run-time alias check, which it could not form
// for accesses such as partial[t] += partial[t + s] (SCEV has no bound for t + s).
// Calls carry the group too; the inliner hands it to the accesses it inlines.
void Rewriter::annotate_parallel_loops() {
  DominatorTree dt(*whole_);
  LoopInfo li(dt);
  for (auto& copy : copies_) {
    if (copy->slow) continue;
    Loop* loop = li.getLoopFor(copy->head);
    if (!loop || loop->getHeader() != copy->head) continue;
    bool free = true;
    for (BasicBlock* b : loop->blocks()) {
      for (Instruction& i : *b)
        if (!(free = order_free(i))) break;
      if (!free) break;
    }
    if (!free) continue;
    MDNode* group = MDNode::getDistinct(ctx_, {});
    for (BasicBlock* b : loop->blocks())
      for (Instruction& i : *b)
        if (i.mayReadOrWriteMemory() && !ordered_.count(&i))
          i.setMetadata(LLVMContext::MD_access_group, group);
    MDNode* parallel =
        MDNode::get(ctx_, {MDString::get(ctx_, "llvm.loop.parallel_accesses"), group});
    SmallVector<Metadata*, 3> ops{nullptr, parallel};
    // Loops around exchanges carry many values (four offset reductions, the buffers):
    // interleaving them spills vector registers.
    if (copy->exchange != Exchange::None || copy->stores_exchange)
      ops.push_back(MDNode::get(ctx_, {MDString::get(ctx_, "llvm.loop.interleave.count"),
                                       ConstantAsMetadata::get(ConstantInt::get(i32_, 1))}));
    MDNode* id = MDNode::getDistinct(ctx_, ops);
    id->replaceOperandWith(0, id);
    loop->setLoopID(id);
    ++parallel_loops_;
  }
}

// Which values every thread of a block computes alike: not derived from
// threadIdx, memory, per-thread locals or a sync point's result, nor from
// control flow that depends on them.
void Rewriter::find_uniform_values() {
  DominatorTree dt(kernel_);
  PostDominatorTree pdt(kernel_);
  LoopInfo li(dt);
  SyncDependenceAnalysis sda(dt, pdt, li);
  DivergenceAnalysisImpl da(kernel_, nullptr, dt, li, sda, false);
  for (Instruction& i : instructions(kernel_)) {
    Marker m = marker_of(&i);
    if (m == Marker::BlockIdx || m == Marker::BlockDim || m == Marker::GridDim ||
        m == Marker::DynamicShared)
      continue;
    if (m != Marker::None || isa<AllocaInst>(&i) || i.mayReadOrWriteMemory() ||
        (isa<CallBase>(&i) && !isa<IntrinsicInst>(&i)))
      da.markDivergent(i);
  }
  da.compute();
  for (BasicBlock& b : kernel_) {
    Instruction* term = b.getTerminator();
    if ((isa<BranchInst>(term) && cast<BranchInst>(term)->isConditional()) || isa<SwitchInst>(term))
      if (da.isDivergentUse(term->getOperandUse(0))) divergent_branches_.insert(term);
  }
  for (Instruction& i : instructions(kernel_)) {
    if (i.getType()->isVoidTy() || da.isDivergent(i)) continue;
    bool uniform = true;
    for (const Use& u : i.uses()) uniform &= !da.isDivergentUse(u);
    if (uniform) uniform_values_.insert(&i);
  }
}

std::string Rewriter::build() {
  whole_ = Function::Create(kernel_.getFunctionType(), kernel_.getLinkage(),
                            kernel_.getAddressSpace(), kernel_.getName() + ".whole.block", &m_);
  whole_->copyAttributesFrom(&kernel_);
  // On AVX-512 targets the thread loops use 512-bit vectors: LLVM prefers 256 bits there
  // unless told otherwise, and the loops over a block's threads are long and regular (a
  // 32-lane warp is two registers). Measured on the quiet H200 host's Xeon with the whole
  // bench object built -mprefer-vector-width=512 (bench/RESULTS.md, session 10).
  if (kernel_.getFnAttribute("target-features").getValueAsString().contains("+avx512f") &&
      !kernel_.hasFnAttribute("prefer-vector-width"))
    whole_->addFnAttr("prefer-vector-width", "512");
  whole_->setComdat(kernel_.getComdat());
  for (Argument& a : kernel_.args()) whole_->getArg(a.getArgNo())->setName(a.getName());
  entry_ = BasicBlock::Create(ctx_, "entry", whole_);
  dispatch_ = BasicBlock::Create(ctx_, "dispatch", whole_);
  exit_ = BasicBlock::Create(ctx_, "exit", whole_);
  if (ranges_) {
    ret_ = BasicBlock::Create(ctx_, "return", whole_);
    ReturnInst::Create(ctx_, ret_);
  } else {
    ReturnInst::Create(ctx_, exit_);
  }
  emit_entry();
  if (ranges_) BranchInst::Create(block_next_, exit_);
  emit_dispatch();
  spill_cross_region_values();
  annotate_parallel_loops();
  if (bytes_per_thread_ > kMaxBytesPerThread)
    return "it keeps " + std::to_string(bytes_per_thread_) +
           " bytes per thread across barriers (limit " + std::to_string(kMaxBytesPerThread) + ")";
  std::string errors;
  raw_string_ostream out(errors);
  if (verifyFunction(*whole_, &out))
    return "internal error, the rewritten kernel does not verify: " + out.str();
  return {};
}

std::string Rewriter::run(RewriteStats& stats) {
  if (std::string why = find_sync_points(); !why.empty()) return why;
  form_regions();
  find_uniform_values();
  classify_exits();
  // Mixed mode runs a warp's exchange for some lanes at a time (__weft_bl_prepare), with
  // per-thread states; without it every thread is at the same shuffle when it is exchanged.
  fast_exchange_ = !mixed_mode_;
  if (fast_exchange_) match_sources();
  find_x_bounds();
  find_lane_bounds();
  for (const SyncPoint& s : syncs_) {
    bool narrow = false;
    if (s.marker == Marker::WarpRead) {
      Value* v = s.call->getArgOperand(0);
      if (auto* z = dyn_cast<ZExtInst>(v)) narrow = z->getSrcTy()->getIntegerBitWidth() <= 32;
      if (auto* c = dyn_cast<ConstantInt>(v)) narrow = c->getValue().isIntN(32);
    }
    wide_.push_back(!narrow);
  }
  std::string why = build();
  if (!why.empty()) {
    whole_->eraseFromParent();
    whole_ = nullptr;
    return why;
  }
  stats.sync_points = unsigned(syncs_.size());
  stats.regions = unsigned(regions_.size());
  stats.spilled = spilled_;
  stats.parallel_loops = parallel_loops_;
  stats.warp_exchanges = in_region_exchanges_;
  stats.shifted_exchanges = shifted_exchanges_;
  stats.block_ranges = ranges_;
  stats.bounded_regions = bounded_regions_;
  stats.lane_bounded_regions = lane_bounded_regions_;
  return {};
}

}  // namespace

std::string rewrite_kernel(Function*& kernel, RewriteStats& stats, bool ranges) {
  Rewriter rewriter(*kernel, ranges);
  std::string why = rewriter.run(stats);
  if (!why.empty()) return why;
  Function* whole = rewriter.result();
  whole->takeName(kernel);
  kernel->replaceAllUsesWith(whole);
  kernel->eraseFromParent();
  kernel = whole;
  return {};
}

}  // namespace weft::block_loops
