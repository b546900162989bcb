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
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <climits>
#include <functional>
#include <map>
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

// How a fast copy of the region after an in-region warp exchange reads its result:
// every source lane is its own lane or one block-uniform shift up or down (__shfl_down,
// __shfl_up, __shfl_xor with a power of two: contiguous loads), or any lane (a gather).
enum class Exchange { None, Shift, Gather };

// One copy of a region inside one loop over threads.
struct RegionCopy {
  const Region* region;
  ValueToValueMapTy map;
  std::vector<Instruction*> instructions;  // copied from the kernel (still to remap)
  Value* linear;                           // the thread's linear id in the block
  BasicBlock* preheader = nullptr;         // before the loop over threads
  BasicBlock* head = nullptr;              // per thread, before the region's code
  bool slow = false;                       // the predicated copy of mixed mode
  Exchange exchange = Exchange::None;
  bool stores_exchange = false;  // some exit leads to an in-region shuffle
  Value* buffers[2][2] = {};     // [64-bit][read]: exchange buffers, chosen in the preheader
};

class Rewriter {
 public:
  explicit Rewriter(Function& kernel)
      : kernel_(kernel), m_(*kernel.getParent()), ctx_(m_.getContext()), dl_(m_.getDataLayout()) {}

  std::string run(RewriteStats& stats);
  Function* result() const { return whole_; }

 private:
  std::string find_sync_points();
  void form_regions();
  void classify_exits();
  std::string build();
  void emit_entry();
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
  std::pair<Value*, Value*> exchange_entry(RegionCopy& copy, IRBuilder<>& b, const SyncPoint& s);
  Value* load_exchange(RegionCopy& copy, IRBuilder<>& head, const SyncPoint& s);
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

  Function& kernel_;
  Module& m_;
  LLVMContext& ctx_;
  const DataLayout& dl_;
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
  BasicBlock* exit_ = nullptr;
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
  std::vector<bool> wide_;   // by sync index: a 64-bit value (else 32-bit)
  Value* xdelta_ = nullptr;  // i32 per thread: source index minus own index
  Value* xbuf_[2][2] = {};   // [64-bit][parity]: value buffers, padded both sides
  Value* parity_ = nullptr;  // i32: the buffer the next exchange writes
  // What the loops storing exchange entries accumulate over the offsets (in the latch, so
  // LLVM keeps them in registers as reductions): the largest and smallest positive offset,
  // the smallest and largest negative one. Their accesses stay out of the loops' parallel
  // access group (a loop they stay in memory in must not vectorize).
  Value* shift_acc_[4] = {};
  DenseSet<const Instruction*> ordered_;  // accesses annotate_parallel_loops leaves alone
  unsigned in_region_exchanges_ = 0;
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
    xdelta_ = per_thread(i32_, "xchg.delta");
    parity_ = b.CreateAlloca(i32_, nullptr, "xchg.parity");
    b.CreateStore(b.getInt32(0), parity_);
    const char* names[4] = {"xchg.up.max", "xchg.up.min", "xchg.down.min", "xchg.down.max"};
    for (int k = 0; k < 4; ++k) shift_acc_[k] = b.CreateAlloca(i32_, nullptr, names[k]);
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
  alloca_point_ = cast<Instruction>(b.CreateBr(dispatch_));
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
    Value* index =
        count == 1 ? copy.linear : head.CreateNUWMul(copy.linear, head.getInt32(uint32_t(count)));
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
                    ? (m == Marker::ThreadIdx ? const_cast<Value*>(tid[d]) : dim_[d])
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
      Value* v = load_exchange(copy, head, s);
      map[s.call] = v;
      if (auto* vi = dyn_cast<Instruction>(v)) original_of_[vi] = s.call;
    } else if (!t->isVoidTy()) {
      auto* result = head.CreateLoad(i64_, slot(xres_, i64_, copy.linear, head), "sync.result");
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
  DenseMap<BasicBlock*, std::pair<Value*, Value*>> exchanges;   // exit -> value, offset
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
                exchanges[nb] = exchange_entry(copy, b, *sync);
                // What it added reads kernel values (the value, the source lane): remapped below.
                for (auto it = last ? std::next(last->getIterator()) : nb->begin(); it != nb->end();
                     ++it)
                  record(&*it, nullptr);
                break;
              }
              record(b.CreateStore(call->getArgOperand(0), slot(xval_, i64_, copy.linear, b)),
                     nullptr);
              record(b.CreateStore(call->getArgOperand(1), slot(xsrc_, i32_, copy.linear, b)),
                     nullptr);
              break;
            case Marker::WarpBallot:
            case Marker::BarrierReduce: {
              Value* wide = b.CreateZExt(call->getArgOperand(0), i64_);  // folded for a constant
              if (auto* wi = dyn_cast<Instruction>(wide)) record(wi, nullptr);
              record(b.CreateStore(wide, slot(xval_, i64_, copy.linear, b)), nullptr);
              if (sync->marker == Marker::BarrierReduce)
                record(b.CreateStore(call->getArgOperand(1), slot(xsrc_, i32_, copy.linear, b)),
                       nullptr);
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
          b.CreateStore(b.getInt32(next), slot(state_, i32_, copy.linear, b));
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
    // with the region's own stores on other paths into a scatter).
    IRBuilder<> lb(latch, latch->getFirstInsertionPt());
    PHINode* delta = lb.CreatePHI(i32_, unsigned(exits.size()), "xchg.delta.out");
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
      delta->addIncoming(is_exchange ? it->second.second : lb.getInt32(0), exit);
      for (int wide = 0; wide < 2; ++wide) {
        if (!value[wide]) continue;
        bool mine = is_exchange && wide_[sync->state - 1] == bool(wide);
        value[wide]->addIncoming(mine ? it->second.first : PoisonValue::get(value[wide]->getType()),
                                 exit);
      }
    }
    for (int wide = 0; wide < 2; ++wide) {
      if (!value[wide]) continue;
      record(value[wide], nullptr);
      lb.CreateStore(value[wide], slot(exchange_buffer(copy, wide, false), value[wide]->getType(),
                                       copy.linear, lb));
    }
    record(delta, nullptr);
    lb.CreateStore(delta, slot(xdelta_, i32_, copy.linear, lb));
    // The offsets' extremes, for the region after the shuffle to pick its copy: the
    // largest, the smallest, and (offsets being in [-31, 31]) the smallest positive one as
    // umin(offset - 1) + 1 and the largest negative one as ~umin(~offset), no selects.
    copy.stores_exchange = true;
    IRBuilder<> pb(copy.preheader->getTerminator());
    const int32_t identity[4] = {0, -1, 0, -1};
    for (int k = 0; k < 4; ++k)
      ordered_.insert(pb.CreateStore(pb.getInt32(identity[k]), shift_acc_[k]));
    Value* term[4] = {delta, lb.CreateSub(delta, lb.getInt32(1)), delta, lb.CreateNot(delta)};
    const Intrinsic::ID op[4] = {Intrinsic::smax, Intrinsic::umin, Intrinsic::smin,
                                 Intrinsic::umin};
    for (int k = 0; k < 4; ++k) {
      auto* old = lb.CreateLoad(i32_, shift_acc_[k]);
      ordered_.insert(old);
      ordered_.insert(lb.CreateStore(lb.CreateBinaryIntrinsic(op[k], old, term[k]), shift_acc_[k]));
    }
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

// Before a warp_read: the thread's value, and where its result comes from as an offset
// from its own index in the block (0: its own value, as when the source lane is outside
// the warp or past the block's last thread, a partial warp). The latch stores them.
std::pair<Value*, Value*> Rewriter::exchange_entry(RegionCopy& copy, IRBuilder<>& b,
                                                   const SyncPoint& s) {
  bool wide = wide_[s.state - 1];
  Value* value = s.call->getArgOperand(0);
  if (!wide) {
    if (auto* z = dyn_cast<ZExtInst>(value)) value = b.CreateZExt(z->getOperand(0), i32_);
    else value = b.CreateTrunc(value, i32_);  // a constant
  }
  Value* lin = copy.linear;
  Value* src = s.call->getArgOperand(1);
  Value* lane = b.CreateAnd(lin, b.getInt32(31), "xchg.lane");
  Value* from = b.CreateAdd(b.CreateAnd(lin, b.getInt32(~31u)), src, "xchg.from");
  Value* valid = b.CreateAnd(b.CreateICmpULT(src, b.getInt32(32)), b.CreateICmpULT(from, threads_));
  Value* delta = b.CreateSelect(valid, b.CreateSub(src, lane), b.getInt32(0), "xchg.delta");
  return {value, delta};
}

// After a warp_read: the source lane's value (as the i64 the marker returns).
Value* Rewriter::load_exchange(RegionCopy& copy, IRBuilder<>& head, const SyncPoint& s) {
  bool wide = wide_[s.state - 1];
  Type* t = wide ? i64_ : i32_;
  Value* lin = copy.linear;
  Value* buffer = exchange_buffer(copy, wide, true);
  Value* delta = head.CreateLoad(i32_, slot(xdelta_, i32_, lin, head), "xchg.delta");
  Value* v;
  if (copy.exchange == Exchange::Shift) {
    IRBuilder<> pre(copy.preheader->getTerminator());
    Value* up = pre.CreateLoad(i32_, shift_acc_[0], "xchg.shift.up");
    Value* down = pre.CreateLoad(i32_, shift_acc_[2], "xchg.shift.down");
    Value* from_up = pre.CreateInBoundsGEP(t, buffer, up, "xchg.up");
    Value* from_down = pre.CreateInBoundsGEP(t, buffer, down, "xchg.down");
    Value* own = head.CreateLoad(t, slot(buffer, t, lin, head));
    Value* above = head.CreateLoad(t, slot(from_up, t, lin, head));
    Value* below = head.CreateLoad(t, slot(from_down, t, lin, head));
    v = head.CreateSelect(
        head.CreateICmpSGT(delta, head.getInt32(0)), above,
        head.CreateSelect(head.CreateICmpSLT(delta, head.getInt32(0)), below, own));
  } else {
    v = head.CreateLoad(t, slot(buffer, t, head.CreateNSWAdd(lin, delta), head));
  }
  return wide ? v : head.CreateZExt(v, i64_, "xchg.result");
}

BasicBlock* Rewriter::emit_fast_loop(const Region& r, BasicBlock* done, Exchange exchange) {
  // do { do { do { body } while (++x < dim.x) } while (++y < dim.y) } while (++z < dim.z)
  auto* pre = BasicBlock::Create(ctx_, "fast.pre", whole_, done);
  auto* zh = BasicBlock::Create(ctx_, "fast.z", whole_, done);
  auto* yh = BasicBlock::Create(ctx_, "fast.y", whole_, done);
  auto* xh = BasicBlock::Create(ctx_, "fast.x", whole_, done);
  auto* xl = BasicBlock::Create(ctx_, "fast.x.next", whole_, done);
  auto* yl = BasicBlock::Create(ctx_, "fast.y.next", whole_, done);
  auto* zl = BasicBlock::Create(ctx_, "fast.z.next", whole_, done);
  IRBuilder<> b(pre);
  b.CreateBr(zh);
  b.SetInsertPoint(zh);
  PHINode* z = b.CreatePHI(i32_, 2, "tid.z");
  b.CreateBr(yh);
  b.SetInsertPoint(yh);
  PHINode* y = b.CreatePHI(i32_, 2, "tid.y");
  // The linear id is an induction of the x loop of its own, as x is: LLVM 15 widens
  // a value computed from an induction lane by lane in every vector iteration when it
  // also has scalar uses (addresses), an induction once.
  Value* row = b.CreateNUWMul(b.CreateNUWAdd(b.CreateNUWMul(z, dim_[1]), y), dim_[0], "tid.row");
  b.CreateBr(xh);
  b.SetInsertPoint(xh);
  PHINode* x = b.CreatePHI(i32_, 2, "tid.x");
  PHINode* lin = b.CreatePHI(i32_, 2, "tid");
  auto copy = std::make_unique<RegionCopy>();
  copy->region = &r;
  copy->linear = lin;
  copy->preheader = pre;
  copy->head = xh;
  copy->exchange = exchange;
  const Value* tid[3] = {x, y, z};
  copy_region(*copy, xh, xl,
              r.exits.size() < 2 ? NextState::Known
              : r.uniform_exit   ? NextState::Uniform
                                 : NextState::PerThread,
              tid);
  b.SetInsertPoint(xl);
  Value* x1 = b.CreateNUWAdd(x, b.getInt32(1));
  Value* lin1 = b.CreateNUWAdd(lin, b.getInt32(1));
  b.CreateCondBr(b.CreateICmpULT(x1, dim_[0]), xh, yl);
  b.SetInsertPoint(yl);
  Value* y1 = b.CreateNUWAdd(y, b.getInt32(1));
  b.CreateCondBr(b.CreateICmpULT(y1, dim_[1]), yh, zl);
  b.SetInsertPoint(zl);
  Value* z1 = b.CreateNUWAdd(z, b.getInt32(1));
  b.CreateCondBr(b.CreateICmpULT(z1, dim_[2]), zh, done);
  z->addIncoming(b.getInt32(0), pre);
  z->addIncoming(z1, zl);
  y->addIncoming(b.getInt32(0), zh);
  y->addIncoming(y1, yl);
  x->addIncoming(b.getInt32(0), yh);
  x->addIncoming(x1, xl);
  lin->addIncoming(row, yh);
  lin->addIncoming(lin1, xl);
  copies_.push_back(std::move(copy));
  return pre;
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

void Rewriter::emit_dispatch() {
  IRBuilder<> b(dispatch_);
  current_ = b.CreatePHI(i32_, 4, "block.state");
  current_->addIncoming(b.getInt32(0), entry_);
  SwitchInst* sw = b.CreateSwitch(current_, exit_, unsigned(regions_.size()));
  BasicBlock* slow = nullptr;
  if (mixed_mode_) slow = BasicBlock::Create(ctx_, "group.pick", whole_, exit_);

  for (const Region& r : regions_) {
    auto* case_block = BasicBlock::Create(ctx_, "state." + std::to_string(r.state), whole_, exit_);
    auto* done =
        BasicBlock::Create(ctx_, "state." + std::to_string(r.state) + ".done", whole_, exit_);
    sw->addCase(b.getInt32(r.state), case_block);
    IRBuilder<> cb(case_block);
    Constant* null = ConstantPointerNull::get(cast<PointerType>(ptr_));
    emit_prelude(cb, r.state, null, cb.getInt32(0), cb.getInt32(0), threads_);
    if (in_region_exchange(r.state)) {
      // The buffers swap; a run-time look at the lanes' offsets picks the copy that reads
      // with contiguous loads when they are one shift up or down (or none).
      cb.CreateStore(cb.CreateXor(cb.CreateLoad(i32_, parity_), cb.getInt32(1)), parity_);
      // One shift up and/or down: every positive offset is the largest, every negative one
      // the smallest (or there is none).
      Value* acc[4];
      for (int k = 0; k < 4; ++k) acc[k] = cb.CreateLoad(i32_, shift_acc_[k]);
      Value* zero = cb.getInt32(0);
      Value* up_min = cb.CreateAdd(acc[1], cb.getInt32(1));
      Value* down_max = cb.CreateNot(acc[3]);
      Value* ups = cb.CreateOr(cb.CreateICmpEQ(acc[0], zero), cb.CreateICmpEQ(up_min, acc[0]));
      Value* downs = cb.CreateOr(cb.CreateICmpEQ(acc[2], zero), cb.CreateICmpEQ(down_max, acc[2]));
      BasicBlock* by_shift = emit_fast_loop(r, done, Exchange::Shift);
      BasicBlock* gather = emit_fast_loop(r, done, Exchange::Gather);
      cb.CreateCondBr(cb.CreateAnd(ups, downs, "xchg.is.shift"), by_shift, gather);
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
        current_->addIncoming(db.getInt32(next), done);
        db.CreateBr(dispatch_);
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
        if (s.per_thread) b.CreateStore(def, slot(s.per_thread, t, copy->linear, b));
      }
      if (uses.empty()) continue;
      Value* live_in;
      if (use_uniform) {
        IRBuilder<> b(copy->preheader->getTerminator());
        live_in = b.CreateLoad(t, s.uniform, v->getName() + ".uniform.in");
      } else {
        IRBuilder<> b(copy->head->getTerminator());
        live_in = b.CreateLoad(t, slot(s.per_thread, t, copy->linear, b), v->getName() + ".in");
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
  whole_->setComdat(kernel_.getComdat());
  for (Argument& a : kernel_.args()) whole_->getArg(a.getArgNo())->setName(a.getName());
  entry_ = BasicBlock::Create(ctx_, "entry", whole_);
  dispatch_ = BasicBlock::Create(ctx_, "dispatch", whole_);
  exit_ = BasicBlock::Create(ctx_, "exit", whole_);
  ReturnInst::Create(ctx_, exit_);
  emit_entry();
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
  return {};
}

}  // namespace

std::string rewrite_kernel(Function*& kernel, RewriteStats& stats) {
  Rewriter rewriter(*kernel);
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
