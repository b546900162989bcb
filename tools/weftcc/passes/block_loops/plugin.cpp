// SPDX-License-Identifier: MIT
// weft's block-loop pass plugin for clang-15 (-fpass-plugin=weft_block_loops.so).
// Registered at the start of the optimization pipeline, before anything is
// inlined: the kernels are the functions whose address reaches
// __weft_cpu_kernel_runs_block_ranges or __weft_cpu_kernel_is_whole_block (the CPU
// image's entries ask them, see WEFTCC-plan "CPU image and the block-loop pass").
// Each kernel the pass can handle becomes a function running every GPU thread of
// every block of the caller's range (when the entry asks runs_block_ranges and the
// module has the range markers: __weft_cpu_block_range, __weft_cpu_block_enter), or
// of the current block (an entry that asks only is_whole_block: older headers);
// the marker of that form folds to 1, the other to 0. The kernels it cannot handle
// keep their body and both fold to 0 (the entry then runs them one GPU thread at a
// time, fibers after a barrier). Why a kernel fell
// back goes out as an optimization remark (-Rpass-missed=weft-block-loops), on
// stderr when WEFT_BLOCK_LOOPS_VERBOSE is set, and into the image as the string
// `__weft_cpu_fiber_reason.<kernel>` for the runtime's log.
#include "markers.hpp"
#include "prepare.hpp"
#include "rewrite.hpp"

#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <map>
#include <set>
#include <vector>

namespace weft::block_loops {

// block_runtime.c as LLVM bitcode (embed_ir.py)
extern const unsigned char kBlockRuntimeBitcode[];
extern const size_t kBlockRuntimeBitcodeSize;

namespace {

using namespace llvm;

constexpr const char* kPassName = "weft-block-loops";
constexpr const char* kRuntimeFunctions[] = {"__weft_bl_uniform", "__weft_bl_schedule",
                                             "__weft_bl_prepare"};

bool verbose() {
  static const bool on = [] {
    const char* v = std::getenv("WEFT_BLOCK_LOOPS_VERBOSE");
    return v && *v && *v != '0';
  }();
  return on;
}

// Links block_runtime's functions into `m` (internal: each image has its copy).
bool link_runtime(Module& m) {
  if (m.getFunction(kRuntimeFunctions[0])) return true;
  MemoryBufferRef bitcode(
      StringRef(reinterpret_cast<const char*>(kBlockRuntimeBitcode), kBlockRuntimeBitcodeSize),
      "block_runtime");
  Expected<std::unique_ptr<Module>> parsed = parseBitcodeFile(bitcode, m.getContext());
  if (!parsed) {
    errs() << kPassName << ": cannot read the block runtime: " << toString(parsed.takeError())
           << "\n";
    return false;
  }
  std::unique_ptr<Module> runtime = std::move(*parsed);
  // Its module flags (PIC/PIE level, ...) are those of the plugin's build: the
  // image's own must win, or a shared object gets executable-only TLS accesses.
  if (NamedMDNode* flags = runtime->getModuleFlagsMetadata()) runtime->eraseNamedMetadata(flags);
  if (NamedMDNode* ident = runtime->getNamedMetadata("llvm.ident"))
    runtime->eraseNamedMetadata(ident);
  runtime->setDataLayout(m.getDataLayout());
  runtime->setTargetTriple(m.getTargetTriple());
  for (Function& f : *runtime) {
    // Inlined into the kernels: let them take the kernel's target features.
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("tune-cpu");
  }
  if (Linker::linkModules(m, std::move(runtime))) {
    errs() << kPassName << ": cannot link the block runtime\n";
    return false;
  }
  for (const char* name : kRuntimeFunctions)
    if (Function* f = m.getFunction(name)) f->setLinkage(GlobalValue::InternalLinkage);
  return true;
}

// The two forms of a rewritten kernel (None: left alone).
enum class Form { None, Block, Ranges };

// Whether the range form's code can call its markers: a module that defines the CPU
// markers (a CPU image: inline definitions, emitted only when used; the image keeps
// these) must define them too; where every marker is external, the program that loads
// the code provides them.
bool range_markers_available(const Module& m) {
  bool defines_markers = false;
  for (const Function& f : m)
    defines_markers |= !f.isDeclaration() && marker_of(&f) != Marker::None;
  if (!defines_markers) return true;
  for (const char* name :
       {"__weft_cpu_block_range", "__weft_cpu_block_enter", "__weft_cpu_grid_dim"}) {
    const Function* f = m.getFunction(name);
    if (!f || f->isDeclaration()) return false;
  }
  return true;
}

void record_fallback(Module& m, Function& kernel, const std::string& why) {
  Constant* text = ConstantDataArray::getString(m.getContext(), why);
  auto* g = new GlobalVariable(m, text->getType(), true, GlobalValue::ExternalLinkage, text,
                               "__weft_cpu_fiber_reason." + kernel.getName());
  g->setVisibility(GlobalValue::DefaultVisibility);
}

struct BlockLoopsPass : PassInfoMixin<BlockLoopsPass> {
  PreservedAnalyses run(Module& m, ModuleAnalysisManager& mam) {
    struct Ask {
      CallInst* call;
      Form form;  // what the call asks: whether K runs this form
    };
    std::vector<Ask> asks;
    std::vector<Function*> kernels;  // in order of first appearance
    std::map<Function*, std::set<Form>> asked;
    for (auto [name, form] : {std::pair{"__weft_cpu_kernel_runs_block_ranges", Form::Ranges},
                              std::pair{"__weft_cpu_kernel_is_whole_block", Form::Block}}) {
      Function* marker = m.getFunction(name);
      if (!marker) continue;
      for (User* u : marker->users()) {
        auto* call = dyn_cast<CallInst>(u);
        if (!call || call->getCalledFunction() != marker) continue;
        asks.push_back({call, form});
        auto* k = dyn_cast<Function>(call->getArgOperand(0)->stripPointerCasts());
        if (!k) continue;
        if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) kernels.push_back(k);
        asked[k].insert(form);
      }
    }
    if (asks.empty()) return PreservedAnalyses::all();
    auto& fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    bool runtime_ok = link_runtime(m);
    const bool hooks = range_markers_available(m);
    std::map<std::string, Form> form_of;  // by kernel name (the rewrite replaces the function)
    for (Function* k : kernels) {
      std::string name = k->getName().str();
      // The range form when the entry asks for it and the module can call its markers,
      // else the one-block form if the entry asks for that one.
      const std::set<Form>& wanted = asked[k];
      Form form = wanted.count(Form::Ranges) && hooks ? Form::Ranges
                : wanted.count(Form::Block)           ? Form::Block
                                                      : Form::None;
      unsigned unrolled = 0;  // loops around shuffles (prepare_kernel)
      std::string why = !runtime_ok ? "the block runtime did not link"
                      : form == Form::None
                          ? "the module defines the CPU markers but not the block-range "
                            "ones (__weft_cpu_block_range, __weft_cpu_block_enter, "
                            "__weft_cpu_grid_dim)"
                          : prepare_kernel(*k, fam, &unrolled);
      RewriteStats stats;
      if (why.empty()) why = rewrite_kernel(k, stats, form == Form::Ranges);
      form_of[name] = why.empty() ? form : Form::None;
      OptimizationRemarkEmitter ore(k);
      if (why.empty()) {
        ore.emit([&] {
          return OptimizationRemark(kPassName, "WholeBlock", k)
              << "kernel " << name << " runs whole blocks: " << std::to_string(stats.regions)
              << " regions, " << std::to_string(stats.sync_points) << " barriers/warp operations, "
              << std::to_string(stats.spilled) << " values kept per thread, "
              << std::to_string(stats.parallel_loops) << " parallel thread loops, "
              << std::to_string(stats.warp_exchanges) << " in-region warp exchanges ("
              << std::to_string(stats.shifted_exchanges) << " by lane shifts), "
              << std::to_string(stats.bounded_regions) << " regions bounded by threadIdx.x guards, "
              << std::to_string(unrolled) << " loops around warp shuffles unrolled, "
              << std::to_string(stats.lane_bounded_regions)
              << " exchange regions bounded to the lanes read later"
              << (stats.block_ranges ? ", ranges of blocks" : ", one block per call");
        });
        if (verbose())
          errs() << kPassName << ": " << name << ": whole block (" << stats.regions << " regions, "
                 << stats.spilled << " values per thread, " << stats.parallel_loops
                 << " parallel thread loops, " << stats.warp_exchanges
                 << " in-region warp exchanges, " << stats.shifted_exchanges << " by lane shifts, "
                 << stats.bounded_regions << " bounded regions, " << unrolled
                 << " unrolled shuffle loops, " << stats.lane_bounded_regions
                 << " lane-bounded regions, "
                 << (stats.block_ranges ? "ranges of blocks" : "one block per call") << ")\n";
      } else {
        ore.emit([&] {
          return OptimizationRemarkMissed(kPassName, "Fibers", k)
              << "kernel " << name << " runs on fibers: " << why;
        });
        if (verbose()) errs() << kPassName << ": " << name << ": fibers: " << why << "\n";
        record_fallback(m, *k, why);
      }
    }
    for (const Ask& ask : asks) {
      auto* k = dyn_cast<Function>(ask.call->getArgOperand(0)->stripPointerCasts());
      auto it = k ? form_of.find(k->getName().str()) : form_of.end();
      bool yes = it != form_of.end() && it->second == ask.form;
      ask.call->replaceAllUsesWith(ConstantInt::get(ask.call->getType(), yes ? 1 : 0));
      ask.call->eraseFromParent();
    }
    return PreservedAnalyses::none();
  }
};

}  // namespace
}  // namespace weft::block_loops

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "weft-block-loops", "1",
          [](llvm::PassBuilder& pb) {
    pb.registerPipelineStartEPCallback([](llvm::ModulePassManager& mpm, llvm::OptimizationLevel) {
      mpm.addPass(weft::block_loops::BlockLoopsPass());
    });
          }};
}
