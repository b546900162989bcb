// SPDX-License-Identifier: MIT
#include "prepare.hpp"

#include "markers.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/InlineCost.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

#include <map>

namespace weft::block_loops {
namespace {

using namespace llvm;

// Functions of the module that call a marker `wanted` accepts, directly or not.
template <typename Wanted>
SmallPtrSet<const Function*, 32> functions_reaching(const Module& m, Wanted wanted) {
  SmallPtrSet<const Function*, 32> reach;
  bool changed = true;
  while (changed) {
    changed = false;
    for (const Function& f : m) {
      if (f.isDeclaration() || reach.count(&f)) continue;
      for (const Instruction& i : instructions(f)) {
        auto* call = dyn_cast<CallBase>(&i);
        if (!call) continue;
        const Function* callee = call->getCalledFunction();
        if (callee && (wanted(marker_of(callee)) || reach.count(callee))) {
          reach.insert(&f);
          changed = true;
          break;
        }
      }
    }
  }
  return reach;
}

// Whether f can call itself through direct calls.
bool is_recursive(const Function& f) {
  SmallPtrSet<const Function*, 16> seen;
  SmallVector<const Function*, 16> work{&f};
  while (!work.empty()) {
    const Function* g = work.pop_back_val();
    for (const Instruction& i : instructions(*g)) {
      auto* call = dyn_cast<CallBase>(&i);
      const Function* callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || callee->isDeclaration()) continue;
      if (callee == &f) return true;
      if (seen.insert(callee).second) work.push_back(callee);
    }
  }
  return false;
}

std::string inline_marker_callees(Function& kernel) {
  // Bounded: a recursive callee would otherwise inline forever.
  constexpr int kMaxInlined = 2000;
  // Callees reaching threadIdx or a sync point must be inlined; those reaching only
  // block-uniform markers (blockIdx, blockDim, ...) are, when possible, so that
  // values computed from them can be recomputed instead of kept per thread.
  auto reach = functions_reaching(*kernel.getParent(), is_per_thread);
  auto reach_uniform = functions_reaching(*kernel.getParent(), [](Marker m) {
    return m == Marker::BlockIdx || m == Marker::BlockDim || m == Marker::GridDim ||
           m == Marker::DynamicShared;
  });
  SmallPtrSet<const Function*, 8> not_inlinable;
  for (int inlined = 0;;) {
    CallBase* next = nullptr;
    for (Instruction& i : instructions(kernel)) {
      auto* call = dyn_cast<CallBase>(&i);
      if (!call || call->isInlineAsm()) continue;
      Function* callee = call->getCalledFunction();
      if (!callee) {
        // A call through a pointer may reach a barrier we cannot see.
        if (!isa<IntrinsicInst>(call)) return "it makes an indirect call";
        continue;
      }
      if (callee == &kernel && reach.count(callee)) return "it calls itself";
      if (marker_of(callee) != Marker::None) continue;  // a marker's own body is the fiber path
      if (!reach.count(callee) && reach_uniform.count(callee) && !not_inlinable.count(callee)) {
        if (is_recursive(*callee) || !isInlineViable(*callee).isSuccess()) {
          not_inlinable.insert(callee);
          continue;
        }
        next = call;
        break;
      }
      if (reach.count(callee)) {
        if (is_recursive(*callee))
          return "it calls the recursive function " + callee->getName().str() +
                 ", which reaches a barrier or threadIdx";
        next = call;
        break;
      }
    }
    if (!next) return {};
    if (++inlined > kMaxInlined) return "too many calls reach a barrier or threadIdx (recursion?)";
    std::string callee_name = next->getCalledFunction()->getName().str();
    InlineFunctionInfo info;
    InlineResult result = InlineFunction(*next, info);
    if (!result.isSuccess())
      return "cannot inline " + callee_name +
             " (it reaches a barrier or threadIdx): " + result.getFailureReason();
  }
}

std::string check_shape(Function& kernel) {
  if (!kernel.getReturnType()->isVoidTy()) return "it does not return void";
  for (BasicBlock& b : kernel) {
    Instruction* term = b.getTerminator();
    if (isa<InvokeInst>(term) || isa<CallBrInst>(term) || isa<IndirectBrInst>(term) || b.isEHPad())
      return "it uses exceptions, callbr or indirectbr";
    for (Instruction& i : b) {
      if (auto* a = dyn_cast<AllocaInst>(&i)) {
        if (&b != &kernel.getEntryBlock() || !a->isStaticAlloca())
          return "it allocates stack memory of a size known only at run time";
      }
      auto* call = dyn_cast<CallBase>(&i);
      if (!call) continue;
      if (call->hasFnAttr(Attribute::ReturnsTwice))
        return "it calls setjmp or another returns_twice function";
      Marker m = marker_of(call->getCalledFunction());
      if ((m == Marker::ThreadIdx || m == Marker::BlockDim) &&
          !isa<ConstantInt>(call->getArgOperand(0)))
        return "threadIdx or blockDim is read with a dimension known only at run time";
      if (m == Marker::IsWholeBlock || m == Marker::RunsBlockRanges)
        return "it asks whether a kernel runs whole blocks";
      if (m == Marker::BlockRange || m == Marker::BlockEnter)
        return "it calls the block-range entry's own markers";
    }
  }
  return {};
}

// Debug intrinsics refer to values the rewrite moves or clones; lifetime markers on
// locals would let the code generator overlap the per-thread copies.
void drop_debug_and_lifetime_intrinsics(Function& kernel) {
  SmallVector<Instruction*, 16> dead;
  for (Instruction& i : instructions(kernel)) {
    if (isa<DbgInfoIntrinsic>(&i)) dead.push_back(&i);
    if (auto* ii = dyn_cast<IntrinsicInst>(&i))
      if (ii->getIntrinsicID() == Intrinsic::lifetime_start ||
          ii->getIntrinsicID() == Intrinsic::lifetime_end)
        dead.push_back(&i);
  }
  for (Instruction* i : dead) i->eraseFromParent();
}

// Loops around warp shuffles with a small constant trip count (the rounds of a warp
// reduction, `for (o = 16; o > 0; o /= 2) v += __shfl_down(v, o)`) are unrolled before the
// kernel is cut at its sync points. Left as loops, their shuffles are one site with a
// run-time amount: a dispatcher loop around the region, the amount read from a uniform
// slot, and the masks that pick the shifted lanes computed per vector. Unrolled, each
// round is a region of its own with a constant amount: the lanes that take the shift are
// known at compile time in the warp-by-warp copies (ShiftWarps), so the selects fold.
// Only innermost loops whose sync points are all shuffles: a loop around a barrier or a
// ballot keeps one region per sync point (unrolling would only multiply the code).
constexpr unsigned kMaxUnrolledTrips = 32;
constexpr unsigned kMaxUnrolledInstructions = 2048;

bool unrollable_shuffle_loop(const Loop& loop) {
  if (!loop.isInnermost()) return false;
  bool shuffles = false;
  unsigned size = 0;
  for (const BasicBlock* b : loop.blocks())
    for (const Instruction& i : *b) {
      ++size;
      Marker m = marker_of(&i);
      if (m == Marker::WarpRead) shuffles = true;
      else if (is_sync(m)) return false;
    }
  return shuffles && size <= kMaxUnrolledInstructions;
}

unsigned unroll_shuffle_loops(Function& kernel, FunctionAnalysisManager& fam) {
  if (kernel.hasOptNone()) return 0;  // -O0: the kernel stays as written
  auto& li = fam.getResult<LoopAnalysis>(kernel);
  SmallVector<Loop*, 8> candidates;
  for (Loop* loop : li.getLoopsInPreorder())
    if (unrollable_shuffle_loop(*loop)) candidates.push_back(loop);
  if (candidates.empty()) return 0;
  auto& dt = fam.getResult<DominatorTreeAnalysis>(kernel);
  auto& se = fam.getResult<ScalarEvolutionAnalysis>(kernel);
  auto& ac = fam.getResult<AssumptionAnalysis>(kernel);
  auto& tti = fam.getResult<TargetIRAnalysis>(kernel);
  OptimizationRemarkEmitter ore(&kernel);
  unsigned unrolled = 0;
  for (Loop* loop : candidates) {
    simplifyLoop(loop, &dt, &li, &se, &ac, nullptr, true);
    formLCSSARecursively(*loop, dt, &li, &se);
    if (!loop->isLoopSimplifyForm() || !loop->isLCSSAForm(dt)) continue;
    unsigned trips = se.getSmallConstantTripCount(loop);
    unsigned size = 0;
    for (const BasicBlock* b : loop->blocks()) size += unsigned(b->size());
    if (trips == 0 || trips > kMaxUnrolledTrips || trips * size > kMaxUnrolledInstructions)
      continue;
    UnrollLoopOptions options{};
    options.Count = trips;
    options.Force = true;
    options.Runtime = false;
    options.AllowExpensiveTripCount = false;
    options.UnrollRemainder = false;
    options.ForgetAllSCEV = true;
    if (UnrollLoop(loop, options, &li, &se, &dt, &ac, &tti, &ore, true) ==
        LoopUnrollResult::FullyUnrolled)
      ++unrolled;
  }
  return unrolled;
}

}  // namespace

std::string prepare_kernel(Function& kernel, FunctionAnalysisManager& fam,
                           unsigned* unrolled_loops) {
  if (kernel.isDeclaration()) return "it has no body in this module";
  if (kernel.isVarArg()) return "it takes variable arguments";
  // The rewrite reads the block's size through this marker. Where the module defines the
  // markers (a CPU image: inline definitions, emitted only when used), it must define this
  // one too; where they are all external, the program that loads the code provides them.
  const Function* block_dim = kernel.getParent()->getFunction("__weft_cpu_block_dim");
  bool defines_markers = false;
  for (const Function& f : *kernel.getParent())
    defines_markers |= !f.isDeclaration() && marker_of(&f) != Marker::None;
  if (defines_markers && (!block_dim || block_dim->isDeclaration()))
    return "the module defines the CPU markers but not __weft_cpu_block_dim";
  if (std::string why = inline_marker_callees(kernel); !why.empty()) return why;
  // Fewer values live across a barrier once locals are registers.
  FunctionPassManager fpm;
  fpm.addPass(SROAPass());
  fpm.addPass(EarlyCSEPass());
  fpm.addPass(InstCombinePass());
  fpm.addPass(SimplifyCFGPass());
  fpm.run(kernel, fam);
  fam.invalidate(kernel, PreservedAnalyses::none());
  unsigned unrolled = unroll_shuffle_loops(kernel, fam);
  fam.invalidate(kernel, PreservedAnalyses::none());
  if (unrolled) {  // fold the rounds' constant amounts into their source-lane expressions
    FunctionPassManager cleanup;
    cleanup.addPass(EarlyCSEPass());
    cleanup.addPass(InstCombinePass());
    cleanup.addPass(SimplifyCFGPass());
    cleanup.run(kernel, fam);
    fam.invalidate(kernel, PreservedAnalyses::none());
  }
  if (unrolled_loops) *unrolled_loops = unrolled;
  drop_debug_and_lifetime_intrinsics(kernel);
  return check_shape(kernel);
}

}  // namespace weft::block_loops
