//===- InProcessCompiler.cpp - The six stages in one process --------------===//
#include "tilepipe/Driver/InProcessCompiler.h"

#include "tilepipe/Bytecode/BytecodeReader.h"
#include "tilepipe/Pipeline/StagePipelines.h"
#include "tilepipe/Support/ExitCodes.h"
#include "tilepipe/Support/InputKind.h"
#include "tilepipe/Target/NVPTXCodegen.h"
#include "tilepipe/Tools/MlirStage.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Support/Timing.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/WithColor.h"

using namespace tilepipe;

/// The module as the MLIR stage tools print it under tileiras (their
/// --mlir-print-debuginfo): locations kept, so that the text is the staged
/// flow's intermediate file byte for byte.
static std::string printWithLocations(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::OpPrintingFlags flags;
  flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  op->print(os, flags);
  if (text.empty() || text.back() != '\n')
    os << "\n";
  return text;
}

namespace {
/// One compile: the context, its diagnostics and the result being built.
class Compilation {
public:
  Compilation(const InProcessCompileOptions &options)
      : options(options), context(createStageContext()), logStream(result.log),
        log(options.diagnostics ? *options.diagnostics : logStream),
        diagnostics(context.get(), log) {}

  InProcessCompileResult run(llvm::StringRef input) {
    result.exitCode = compile(input);
    if (result.exitCode != kExitSuccess) {
      result.output.clear();
      result.remarks.clear();
    }
    log.flush();
    logStream.flush();
    return std::move(result);
  }

private:
  int compile(llvm::StringRef input) {
    mlir::OwningOpRef<mlir::Operation *> module;
    if (int exit = read(input, module))
      return exit;
    if (options.output == CompileOutput::CudaTile)
      return emitMlir(module.get());
    wrapInBuiltinModule(module);
    if (int exit = runStage(Stage::Lower, module))
      return exit;
    if (options.output == CompileOutput::Lowered)
      return emitMlir(module.get());
    if (int exit = runStage(Stage::Sched, module))
      return exit;
    if (options.output == CompileOutput::Scheduled)
      return emitMlir(module.get());
    if (int exit = runStage(Stage::LLVM, module))
      return exit;

    llvm::LLVMContext llvmContext;
    std::unique_ptr<llvm::Module> llvmModule =
        translateTileModuleToLLVMIR(module.get(), llvmContext);
    if (!llvmModule)
      return kExitCompile;
    // The LLVM module is all the back end needs: the MLIR one can go.
    module = nullptr;
    if (options.output == CompileOutput::LLVMIR) {
      llvm::raw_string_ostream os(result.output);
      llvmModule->print(os, nullptr);
      return kExitSuccess;
    }
    llvm::Expected<std::string> ptx =
        compileLLVMToPTX(*llvmModule, codegenOptions());
    if (!ptx)
      return fail("tile-ptx", ptx.takeError(), kExitCompile);
    if (options.output == CompileOutput::PTX) {
      result.output = std::move(*ptx);
      return kExitSuccess;
    }
    return pack(*ptx);
  }

  /// Stage 1: TileIR bytecode or MLIR, verified.
  int read(llvm::StringRef input, mlir::OwningOpRef<mlir::Operation *> &module) {
    InputKind kind = classifyInput(input);
    if (kind == InputKind::Unknown)
      return fail("tile-read", notTileIRMessage(kind), kExitNotTileIR);
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
    return kExitSuccess;
  }

  /// A cuda_tile.module root is nested in a builtin.module, so that the
  /// lowering can replace it (tile-lower does the same).
  static void wrapInBuiltinModule(mlir::OwningOpRef<mlir::Operation *> &module) {
    if (mlir::isa<mlir::ModuleOp>(module.get()))
      return;
    mlir::Operation *inner = module.release();
    auto outer = mlir::ModuleOp::create(inner->getLoc());
    outer.getBody()->push_back(inner);
    module = mlir::OwningOpRef<mlir::Operation *>(outer.getOperation());
  }

  int runStage(Stage stage, mlir::OwningOpRef<mlir::Operation *> &module) {
    mlir::PassManager pm(context.get(), module.get()->getName().getStringRef(),
                         mlir::OpPassManager::Nesting::Implicit);
    if (options.applyMlirCommandLine) {
      if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
        return fail("tileiras", "invalid pass manager options", kExitUsage);
      auto timing = std::make_unique<mlir::DefaultTimingManager>();
      mlir::applyDefaultTimingManagerCLOptions(*timing);
      pm.enableTiming(std::move(timing));
    }
    if (mlir::failed(buildStagePipeline(pm, stage, options.optLevel,
                                        options.gpu.name())))
      return kExitConfig;
    if (mlir::failed(pm.run(module.get())))
      return kExitCompile;
    return kExitSuccess;
  }

  int emitMlir(mlir::Operation *module) {
    result.output = printWithLocations(module);
    return kExitSuccess;
  }

  /// Stage 6: ptxas, the remarks, the container.
  int pack(llvm::StringRef ptx) {
    PackStageOptions pack;
    pack.ptxas.gpu = options.gpu;
    pack.ptxas.optLevel = options.optLevel;
    pack.ptxas.lineInfo = options.lineInfo;
    pack.ptxas.deviceDebug = options.deviceDebug;
    pack.container = options.output == CompileOutput::Fatbin ? Container::Fatbin
                     : options.output == CompileOutput::HostObject
                         ? Container::HostObject
                         : Container::Cubin;
    pack.hostArch = options.hostArch;
    pack.remarks = options.remarks;
    llvm::Expected<AssembledPTX> assembled = assemblePTX(ptx, pack, log);
    if (!assembled)
      return fail("tile-pack", assembled.takeError(), kExitCompile);
    result.remarks = std::move(assembled->remarks);
    llvm::Expected<std::string> packed =
        packCubin(std::move(assembled->cubin), ptx, pack, log);
    if (!packed)
      return fail("tile-pack", packed.takeError(), kExitCompile);
    result.output = std::move(*packed);
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

  /// Reports as the stage tool `tool` would: "tool: error: message".
  int fail(llvm::StringRef tool, const llvm::Twine &message, int exitCode) {
    llvm::WithColor::error(log, tool) << message << "\n";
    return exitCode;
  }
  int fail(llvm::StringRef tool, llvm::Error error, int exitCode) {
    return fail(tool, llvm::toString(std::move(error)), exitCode);
  }

  const InProcessCompileOptions &options;
  std::unique_ptr<mlir::MLIRContext> context;
  InProcessCompileResult result;
  llvm::raw_string_ostream logStream;
  llvm::raw_ostream &log;
  StageDiagnosticHandler diagnostics;
};
} // namespace

InProcessCompileResult
tilepipe::compileInProcess(llvm::StringRef input,
                           const InProcessCompileOptions &options) {
  return Compilation(options).run(input);
}
