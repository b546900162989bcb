// SPDX-License-Identifier: MIT
#include "prepare.hpp"

#include "markers.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/InlineCost.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Cloning.h>

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

}  // namespace

std::string prepare_kernel(Function& kernel, FunctionAnalysisManager& fam) {
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
  drop_debug_and_lifetime_intrinsics(kernel);
  return check_shape(kernel);
}

}  // namespace weft::block_loops
