//===- ModuleSettings.cpp - Debug info and floating-point settings --------===//
#include "ModuleSettings.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace tilepipe;

/// Turns every compile unit into a DebugDirectivesOnly one: NVPTX then emits
/// .file/.loc without DWARF sections and without the `, debug` target flag
/// that would ask ptxas for full device debugging.
static void useDebugDirectivesOnly(llvm::Module &module) {
  llvm::DebugInfoFinder finder;
  finder.processModule(module);
  llvm::DenseMap<llvm::DICompileUnit *, llvm::DICompileUnit *> replacements;
  for (llvm::DICompileUnit *unit : finder.compile_units()) {
    if (unit->getEmissionKind() == llvm::DICompileUnit::DebugDirectivesOnly)
      continue;
    replacements[unit] = llvm::DICompileUnit::getDistinct(
        module.getContext(), unit->getSourceLanguage(), unit->getFile(),
        unit->getProducer(), unit->isOptimized(), unit->getFlags(),
        unit->getRuntimeVersion(), unit->getSplitDebugFilename(),
        llvm::DICompileUnit::DebugDirectivesOnly, unit->getEnumTypes(),
        unit->getRetainedTypes(), unit->getGlobalVariables(),
        unit->getImportedEntities(), unit->getMacros(), unit->getDWOId(),
        unit->getSplitDebugInlining(), unit->getDebugInfoForProfiling(),
        unit->getNameTableKind(), unit->getRangesBaseAddress(),
        unit->getSysRoot(), unit->getSDK());
  }
  if (replacements.empty())
    return;
  for (llvm::DISubprogram *subprogram : finder.subprograms())
    if (auto it = replacements.find(subprogram->getUnit());
        it != replacements.end())
      subprogram->replaceUnit(it->second);
  if (llvm::NamedMDNode *units = module.getNamedMetadata("llvm.dbg.cu"))
    for (unsigned i = 0, e = units->getNumOperands(); i < e; ++i)
      if (auto it = replacements.find(
              llvm::dyn_cast<llvm::DICompileUnit>(units->getOperand(i)));
          it != replacements.end())
        units->setOperand(i, it->second);
}

void tilepipe::detail::applyDebugInfoLevel(llvm::Module &module,
                                           DebugInfoLevel level) {
  switch (level) {
  case DebugInfoLevel::Full:
    break;
  case DebugInfoLevel::LineTables:
    llvm::stripNonLineTableDebugInfo(module);
    useDebugDirectivesOnly(module);
    break;
  case DebugInfoLevel::None:
    llvm::StripDebugInfo(module);
    break;
  }
}

/// The string a `__nvvm_reflect("...")` call asks about, empty if it is not a
/// constant.
static llvm::StringRef reflectQuery(const llvm::CallBase &call) {
  if (call.arg_size() != 1)
    return {};
  const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(
      call.getArgOperand(0)->stripPointerCasts());
  if (!global || !global->hasInitializer())
    return {};
  const auto *text =
      llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
  return text && text->isCString() ? text->getAsCString() : llvm::StringRef();
}

/// Answers `__nvvm_reflect("<query>")` with `value`. LLVM 22's NVVMReflect
/// only knows __CUDA_FTZ and __CUDA_ARCH; libdevice also asks for
/// __CUDA_PREC_SQRT, which would otherwise read as 0 (approximate sqrt).
static void resolveReflectQuery(llvm::Module &module, llvm::StringRef query,
                                int value) {
  for (llvm::StringRef name : {"__nvvm_reflect", "llvm.nvvm.reflect"}) {
    llvm::Function *reflect = module.getFunction(name);
    if (!reflect)
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(reflect->users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (!call || call->getCalledFunction() != reflect ||
          reflectQuery(*call) != query)
        continue;
      call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), value));
      call->eraseFromParent();
    }
  }
}

/// The value of an NVVMReflect module flag, `defaultValue` when absent.
static bool reflectFlag(const llvm::Module &module, llvm::StringRef flag,
                        bool defaultValue) {
  if (auto *value = llvm::mdconst::extract_or_null<llvm::ConstantInt>(
          module.getModuleFlag(flag)))
    return !value->isZero();
  return defaultValue;
}

/// Decides an NVVMReflect setting (the option, else the module's flag, else
/// the default) and records it as the module flag NVVMReflect reads.
static bool settleReflectFlag(llvm::Module &module, llvm::StringRef flag,
                              std::optional<bool> option, bool defaultValue) {
  bool value = option ? *option : reflectFlag(module, flag, defaultValue);
  module.setModuleFlag(llvm::Module::Override, flag, value ? 1u : 0u);
  return value;
}

void tilepipe::detail::applyFloatingPointOptions(
    llvm::Module &module, const PTXCodegenOptions &options) {
  // NVPTX picks the .ftz instruction forms from the f32 denormal mode of
  // each function; an explicit --ftz=false also overrides the front end's.
  bool ftz = settleReflectFlag(module, "nvvm-reflect-ftz", options.ftz, false);
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    if (ftz)
      function.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    else if (options.ftz)
      function.removeFnAttr("denormal-fp-math-f32");
  }
  resolveReflectQuery(
      module, "__CUDA_PREC_SQRT",
      settleReflectFlag(module, "nvvm-reflect-prec-sqrt", options.precSqrt, true));
}
