//===- InProcessCompiler.cpp - The six stages in one process --------------===//
#include "tilepipe/Driver/InProcessCompiler.h"

#include "tilepipe/Bytecode/BytecodeReader.h"
#include "tilepipe/Pipeline/StagePipelines.h"
#include "tilepipe/Support/ExitCodes.h"
#include "tilepipe/Support/InputKind.h"
#include "tilepipe/Target/NVPTXCodegen.h"
#include "tilepipe/Target/Ptxas.h"
#include "tilepipe/Tools/MlirStage.h"

#include "mlir/IR/Verifier.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace tilepipe;

namespace {
/// One compile: the context, its diagnostics and the result being built.
class Compilation {
public:
  Compilation(const InProcessCompileOptions &options)
      : options(options), context(createStageContext()), logStream(result.log),
        diagnostics(context.get(), logStream) {}

  InProcessCompileResult run(llvm::StringRef input) {
    result.exitCode = compile(input);
    if (result.exitCode != kExitSuccess)
      result.output.clear();
    logStream.flush();
    return std::move(result);
  }

private:
  int compile(llvm::StringRef input) {
    mlir::OwningOpRef<mlir::Operation *> module;
    if (int exit = read(input, module))
      return exit;
    for (Stage stage : {Stage::Lower, Stage::Sched, Stage::LLVM})
      if (int exit = runStage(stage, module))
        return exit;

    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateTileModuleToLLVMIR(module.get(), llvmContext);
    if (!llvmModule)
      return kExitCompile;
    if (options.output == CompileOutput::LLVMIR) {
      llvm::raw_string_ostream os(result.output);
      llvmModule->print(os, nullptr);
      return kExitSuccess;
    }
    llvm::Expected<std::string> ptx =
        compileLLVMToPTX(*llvmModule, codegenOptions());
    if (!ptx)
      return fail(ptx.takeError(), kExitCompile);
    if (options.output == CompileOutput::PTX) {
      result.output = std::move(*ptx);
      return kExitSuccess;
    }
    PtxasOptions ptxas;
    ptxas.gpu = options.gpu;
    ptxas.optLevel = options.optLevel;
    ptxas.lineInfo = options.lineInfo;
    ptxas.deviceDebug = options.deviceDebug;
    llvm::Expected<std::string> cubin = assembleWithPtxas(*ptx, ptxas, logStream);
    if (!cubin)
      return fail(cubin.takeError(), kExitCompile);
    result.output = std::move(*cubin);
    return kExitSuccess;
  }

  /// Stage 1's input side: TileIR bytecode or MLIR, verified, in a
  /// builtin.module so that the lowering can replace the cuda_tile.module.
  int read(llvm::StringRef input, mlir::OwningOpRef<mlir::Operation *> &module) {
    InputKind kind = classifyInput(input);
    if (kind == InputKind::Unknown) {
      logStream << "error: " << notTileIRMessage(kind) << "\n";
      return kExitNotTileIR;
    }
    auto buffer = llvm::MemoryBuffer::getMemBuffer(input, options.inputName,
                                                   /*RequiresNullTerminator=*/false);
    if (kind == InputKind::TileIRBytecode) {
      BytecodeReadStatus status;
      auto read = readTileIRBytecode(buffer->getMemBufferRef(), context.get(), &status);
      if (mlir::failed(read))
        return exitCodeFor(status);
      module = std::move(*read);
    } else {
      module = parseMlirModule(std::move(buffer), context.get());
      if (!module)
        return kExitCompile;
    }
    if (mlir::failed(mlir::verify(module.get())))
      return kExitCompile;
    if (!mlir::isa<mlir::ModuleOp>(module.get())) {
      mlir::Operation *inner = module.release();
      auto outer = mlir::ModuleOp::create(inner->getLoc());
      outer.getBody()->push_back(inner);
      module = mlir::OwningOpRef<mlir::Operation *>(outer.getOperation());
    }
    return kExitSuccess;
  }

  int runStage(Stage stage, mlir::OwningOpRef<mlir::Operation *> &module) {
    mlir::PassManager pm(context.get(), module.get()->getName().getStringRef(),
                         mlir::OpPassManager::Nesting::Implicit);
    if (mlir::failed(buildStagePipeline(pm, stage, options.optLevel,
                                        options.gpu.name())))
      return kExitConfig;
    if (mlir::failed(pm.run(module.get())))
      return kExitCompile;
    return kExitSuccess;
  }

  PTXCodegenOptions codegenOptions() const {
    PTXCodegenOptions codegen;
    codegen.gpu = options.gpu;
    codegen.optLevel = options.optLevel;
    codegen.debugInfo = options.deviceDebug ? DebugInfoLevel::Full
                        : options.lineInfo  ? DebugInfoLevel::LineTables
                                            : DebugInfoLevel::None;
    return codegen;
  }

  int fail(llvm::Error error, int exitCode) {
    logStream << "error: " << llvm::toString(std::move(error)) << "\n";
    return exitCode;
  }

  const InProcessCompileOptions &options;
  std::unique_ptr<mlir::MLIRContext> context;
  InProcessCompileResult result;
  llvm::raw_string_ostream logStream;
  StageDiagnosticHandler diagnostics;
};
} // namespace

InProcessCompileResult
tilepipe::compileInProcess(llvm::StringRef input,
                           const InProcessCompileOptions &options) {
  return Compilation(options).run(input);
}
