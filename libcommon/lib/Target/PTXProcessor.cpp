//===- PTXProcessor.cpp - Choosing the .target of a module ----------------===//
#include "tilepipe/Target/NVPTXCodegen.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace tilepipe;

namespace {
/// A feature that exists only on the arch-specific `sm_XXa` targets: its PTX
/// spelling (`name`, found in inline PTX), the prefix of its intrinsics after
/// `llvm.nvvm.`, and the GPUs that have it.
struct ArchSpecificFeature {
  llvm::StringRef name;
  llvm::StringRef intrinsic;
  unsigned minSM;
  unsigned maxSM;
};
} // namespace

static const ArchSpecificFeature kArchSpecificFeatures[] = {
    {"wgmma.", "wgmma.", 90, 90},
    {"setmaxnreg.", "setmaxnreg.", 90, 110},
    {"tcgen05.", "tcgen05.", 100, 110},
    // Block-scaled mma.sync (mma.sync...kind::mxf8f6f4.block_scale...).
    {"block_scale.", "mma.block.scale.", 120, 121},
};

static bool usesFeature(const llvm::Module &module, const ArchSpecificFeature &feature) {
  std::string intrinsicPrefix = ("llvm.nvvm." + feature.intrinsic).str();
  for (const llvm::Function &function : module) {
    if (function.getName().starts_with(intrinsicPrefix))
      return true;
    for (const llvm::BasicBlock &block : function)
      for (const llvm::Instruction &inst : block)
        if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
          if (const auto *asmCode =
                  llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()))
            if (llvm::StringRef(asmCode->getAsmString()).contains(feature.name))
              return true;
  }
  return false;
}

llvm::StringRef tilepipe::findArchSpecificFeature(const llvm::Module &module,
                                                  const GpuTarget &gpu) {
  if (gpu.suffix)
    return {};
  for (const ArchSpecificFeature &feature : kArchSpecificFeatures)
    if (gpu.sm >= feature.minSM && gpu.sm <= feature.maxSM &&
        usesFeature(module, feature))
      return feature.name;
  return {};
}

std::string tilepipe::selectPTXProcessor(const llvm::Module &module,
                                         const GpuTarget &gpu) {
  if (findArchSpecificFeature(module, gpu).empty())
    return gpu.name();
  return gpu.name() + "a";
}

void tilepipe::removeUnavailableGridDependencyControl(llvm::Module &module,
                                                      const GpuTarget &gpu) {
  if (gpu.sm >= 90)
    return;
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    if (!function.getName().starts_with("llvm.nvvm.griddepcontrol."))
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(function.users()))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(user))
        call->eraseFromParent();
    if (function.use_empty())
      function.eraseFromParent();
  }
}
