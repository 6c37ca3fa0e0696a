//===- tile-llvm.cpp - tile dialects -> LLVM + NVVM -> LLVM IR ------------===//
//
// Stage 4 of tilepipe. Runs the LLVM-lowering pipeline of the -O level and
// translates the resulting LLVM/NVVM dialect module to LLVM IR: text (.ll),
// or bitcode for `-o x.bc` / --emit-bitcode. `--emit=mlir` stops before the
// translation to show the LLVM dialect.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Pipeline/StagePipelines.h"
#include "tilepipe/Tools/MlirStage.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace tilepipe;

namespace {
struct LLVMStageOptions {
  StageIOOptions io;
  MlirEmitOptions emit;
  TargetOptions target;
  std::string emitKind = "llvm";
  bool emitBitcode = false;
};
} // namespace

/// Translates the lowered module to LLVM IR text or bitcode.
static int emitLLVMIR(ToolDriver &driver, mlir::Operation *module,
                      LLVMStageOptions &options) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateTileModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return kExitCompile;
  std::string out;
  llvm::raw_string_ostream os(out);
  if (options.emitBitcode)
    llvm::WriteBitcodeToFile(*llvmModule, os);
  else
    llvmModule->print(os, nullptr);
  if (llvm::Error err = writeOutput(options.io.output, out))
    return reportError(driver.toolName(), std::move(err), kExitIO);
  return kExitSuccess;
}

int main(int argc, char **argv) {
  LLVMStageOptions options;
  ToolDriver driver("tile-llvm",
                    "tile-llvm: tile dialects -> LLVM + NVVM dialects -> LLVM IR");
  driver.addStageIO(options.io);
  driver.addTargetOptions(options.target);
  addMlirEmitOptions(driver, options.emit);
  driver.app()
      .add_option("--emit", options.emitKind,
                  "Output: llvm (LLVM IR, default) or mlir (the LLVM dialect)")
      ->check(CLI::IsMember({"llvm", "mlir"}));
  driver.app().add_flag("--emit-bitcode", options.emitBitcode,
                        "Write LLVM bitcode (implied by -o *.bc)");
  if (auto exit = driver.parse(argc, argv))
    return *exit;
  if (auto exit = driver.validateTarget(options.target))
    return *exit;
  if (llvm::StringRef(options.io.output.path).ends_with(".bc"))
    options.emitBitcode = true;
  bool toLLVM = options.emitKind == "llvm";
  options.io.output.binary =
      toLLVM ? options.emitBitcode : options.emit.emitBytecode;
  return runMlirStage(
      driver, options.io,
      [&](mlir::PassManager &pm) {
        return buildStagePipeline(pm, Stage::LLVM, options.target.optLevel);
      },
      toLLVM ? StageEmitter([&](mlir::Operation *module) {
        return emitLLVMIR(driver, module, options);
      })
             : emitMlirTo(driver, options.io.output, options.emit));
}
