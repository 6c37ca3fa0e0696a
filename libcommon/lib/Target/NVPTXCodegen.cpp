//===- NVPTXCodegen.cpp - LLVM IR to PTX text -----------------------------===//
#include "tilepipe/Target/NVPTXCodegen.h"

#include "ModuleSettings.h"

#include "tilepipe/Support/ExitCodes.h"
#include "tilepipe/Target/Libdevice.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

#include <cstdlib>
#include <mutex>

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

using namespace tilepipe;

static constexpr const char *kNVPTXTriple = "nvptx64-nvidia-cuda";

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Diagnostics of the optimizer and the code generator
//===----------------------------------------------------------------------===//

namespace {
/// Collects errors reported through the LLVMContext (the default handler
/// would exit the process); warnings and requested remarks go to stderr.
struct CollectingDiagnosticHandler : llvm::DiagnosticHandler {
  std::string errors;

  bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
    if (auto *remark = llvm::dyn_cast<llvm::DiagnosticInfoOptimizationBase>(&info))
      if (!remark->isEnabled())
        return true;
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    switch (info.getSeverity()) {
    case llvm::DS_Error:
      errors += (errors.empty() ? "" : "\n") + text;
      break;
    case llvm::DS_Warning:
      llvm::WithColor::warning() << text << "\n";
      break;
    case llvm::DS_Remark:
      llvm::WithColor::remark() << text << "\n";
      break;
    case llvm::DS_Note:
      llvm::WithColor::note() << text << "\n";
      break;
    }
    return true;
  }
};

/// Installs a CollectingDiagnosticHandler for its lifetime.
class ScopedDiagnosticCapture {
public:
  explicit ScopedDiagnosticCapture(llvm::LLVMContext &context)
      : context_(context), previous_(context.getDiagnosticHandler()) {
    auto handler = std::make_unique<CollectingDiagnosticHandler>();
    handler_ = handler.get();
    context_.setDiagnosticHandler(std::move(handler));
  }
  ~ScopedDiagnosticCapture() { context_.setDiagnosticHandler(std::move(previous_)); }

  /// The errors reported so far as one llvm::Error.
  llvm::Error takeErrors() {
    if (handler_->errors.empty())
      return llvm::Error::success();
    return makeError(std::exchange(handler_->errors, std::string()));
  }

private:
  llvm::LLVMContext &context_;
  std::unique_ptr<llvm::DiagnosticHandler> previous_;
  CollectingDiagnosticHandler *handler_;
};
} // namespace

//===----------------------------------------------------------------------===//
// The steps
//===----------------------------------------------------------------------===//

static void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

static llvm::CodeGenOptLevel codegenOptLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(llvm::StringRef processor,
                         const PTXCodegenOptions &options) {
  initializeNVPTX();
  llvm::Triple triple(kNVPTXTriple);
  std::string lookupError;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!target)
    return makeError("NVPTX target unavailable: " + lookupError);
  llvm::TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion =
      options.fmad ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
  std::string features = "+ptx" + std::to_string(kPTXISAVersion);
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, processor, features, targetOptions, std::nullopt, std::nullopt,
      codegenOptLevel(options.optLevel)));
  if (!machine)
    return makeError("cannot create the NVPTX target machine for " + processor);
  return std::move(machine);
}

static llvm::Error verify(const llvm::Module &module, llvm::StringRef when) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (llvm::verifyModule(module, &os))
    return makeError("invalid LLVM IR " + when + ":\n" + llvm::StringRef(message).rtrim());
  return llvm::Error::success();
}

static void runOptimizationPipeline(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    unsigned optLevel) {
  llvm::LoopAnalysisManager loopAM;
  llvm::FunctionAnalysisManager functionAM;
  llvm::CGSCCAnalysisManager cgsccAM;
  llvm::ModuleAnalysisManager moduleAM;
  // Makes --print-after-all and friends work on this pipeline too.
  llvm::PassInstrumentationCallbacks instrumentation;
  llvm::StandardInstrumentations standard(module.getContext(),
                                          /*DebugLogging=*/false);
  standard.registerCallbacks(instrumentation, &moduleAM);

  // The NVPTX target machine registers NVVMReflect (with its SM version) at
  // the start of every default pipeline, O0 included.
  llvm::PassBuilder builder(&machine, llvm::PipelineTuningOptions(),
                            std::nullopt, &instrumentation);
  builder.registerModuleAnalyses(moduleAM);
  builder.registerCGSCCAnalyses(cgsccAM);
  builder.registerFunctionAnalyses(functionAM);
  builder.registerLoopAnalyses(loopAM);
  builder.crossRegisterProxies(loopAM, functionAM, cgsccAM, moduleAM);

  static const llvm::OptimizationLevel levels[] = {
      llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
      llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
  llvm::OptimizationLevel level = levels[std::min(optLevel, 3u)];
  llvm::ModulePassManager pipeline;
  if (optLevel == 0) {
    pipeline = builder.buildO0DefaultPipeline(level);
    // O0 inlines libdevice (always_inline) but keeps the dead bodies.
    pipeline.addPass(llvm::GlobalDCEPass());
  } else {
    pipeline = builder.buildPerModuleDefaultPipeline(level);
  }
  pipeline.run(module, moduleAM);
}

static llvm::Expected<std::string> emitPTX(llvm::Module &module,
                                           llvm::TargetMachine &machine) {
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr,
                                  llvm::CodeGenFileType::AssemblyFile))
    return makeError("the NVPTX back end cannot emit PTX");
  codegen.run(module);
  return std::string(ptx.str());
}

llvm::Expected<std::string>
tilepipe::compileLLVMToPTX(llvm::Module &module,
                           const PTXCodegenOptions &options) {
  ScopedDiagnosticCapture diagnostics(module.getContext());
  if (llvm::Error error = verify(module, "on input"))
    return std::move(error);

  removeUnavailableGridDependencyControl(module, options.gpu);
  std::string processor = selectPTXProcessor(module, options.gpu);
  auto machine = createNVPTXTargetMachine(processor, options);
  if (!machine)
    return machine.takeError();
  module.setTargetTriple(llvm::Triple(kNVPTXTriple));
  module.setDataLayout((*machine)->createDataLayout());
  detail::applyDebugInfoLevel(module, options.debugInfo);
  if (llvm::Error error = linkLibdevice(module, options.libdevicePath))
    return std::move(error);
  detail::applyFloatingPointOptions(module, options);
  if (llvm::Error error = verify(module, "after linking libdevice"))
    return std::move(error);
  if (llvm::Error error = diagnostics.takeErrors())
    return std::move(error);

  runOptimizationPipeline(module, **machine, options.optLevel);
  if (llvm::Error error = diagnostics.takeErrors())
    return std::move(error);

  llvm::Expected<std::string> ptx = emitPTX(module, **machine);
  if (llvm::Error error = diagnostics.takeErrors()) {
    llvm::consumeError(ptx.takeError());
    return std::move(error);
  }
  return ptx;
}

void tilepipe::exitOnLLVMFatalErrors(const char *toolName) {
  llvm::install_fatal_error_handler(
      [](void *name, const char *reason, bool) {
        llvm::WithColor::error(llvm::errs(), static_cast<const char *>(name))
            << "LLVM: " << reason << "\n";
        llvm::errs().flush();
        std::_Exit(kExitCompile);
      },
      const_cast<char *>(toolName));
}
