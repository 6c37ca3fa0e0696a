//===- MlirStage.cpp - Shared driver of the MLIR-to-MLIR stage tools ------===//
#include "tilepipe/Tools/MlirStage.h"

#include "tilepipe/InitAll.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Module.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/ParseUtilities.h"
#include "llvm/Support/SourceMgr.h"

using namespace tilepipe;

static llvm::StringRef severityName(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return "error";
  case mlir::DiagnosticSeverity::Warning:
    return "warning";
  case mlir::DiagnosticSeverity::Note:
    return "note";
  case mlir::DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

/// The source position a user looks for: the first file:line:col inside the
/// location (cuda_tile's di_loc, fused, named and call-site locations all wrap
/// one), printed the way compilers print it. Locations without one print whole.
static void printLocation(llvm::raw_ostream &os, mlir::Location loc) {
  mlir::FileLineColLoc position;
  loc->walk([&](mlir::Location inner) {
    position = mlir::dyn_cast<mlir::FileLineColLoc>(inner);
    return position ? mlir::WalkResult::interrupt() : mlir::WalkResult::advance();
  });
  if (position)
    os << position.getFilename().getValue() << ":" << position.getLine() << ":"
       << position.getColumn();
  else
    os << loc;
}

static void printDiagnostic(llvm::raw_ostream &os, mlir::Location loc,
                            llvm::StringRef severity, llvm::StringRef message) {
  if (!mlir::isa<mlir::UnknownLoc>(loc)) {
    printLocation(os, loc);
    os << ": ";
  }
  os << severity << ": " << message << "\n";
}

StageDiagnosticHandler::StageDiagnosticHandler(mlir::MLIRContext *context,
                                               llvm::raw_ostream &os,
                                               bool printRemarks)
    : mlir::ScopedDiagnosticHandler(context) {
  setHandler([&os, printRemarks](mlir::Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Remark && !printRemarks)
      return mlir::success();
    printDiagnostic(os, diag.getLocation(), severityName(diag.getSeverity()),
                    diag.str());
    for (mlir::Diagnostic &note : diag.getNotes())
      printDiagnostic(os, note.getLocation(), "note", note.str());
    os.flush();
    return mlir::success();
  });
}

std::unique_ptr<mlir::MLIRContext> tilepipe::createStageContext() {
  mlir::DialectRegistry registry;
  registerTilepipeDialects(registry);
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  context->allowUnregisteredDialects(false);
  return context;
}

mlir::OwningOpRef<mlir::Operation *>
tilepipe::parseMlirModule(std::unique_ptr<llvm::MemoryBuffer> buffer,
                          mlir::MLIRContext *context) {
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mlir::ParserConfig config(context, /*verifyAfterParse=*/true);
  // A file holding one top-level op (cuda_tile.module, builtin.module) is
  // taken as is; anything else is wrapped in a builtin.module.
  mlir::OwningOpRef<mlir::Operation *> op =
      mlir::parseSourceFileForTool(sourceMgr, config,
                                   /*insertImplicitModule=*/false);
  return op;
}

void tilepipe::addMlirEmitOptions(ToolDriver &driver, MlirEmitOptions &options) {
  driver.app().add_flag("--emit-bytecode", options.emitBytecode,
                        "Write MLIR bytecode instead of text");
  driver.app().add_flag("--mlir-generic", options.generic,
                        "Print operations in generic form");
}

std::string tilepipe::printMlir(mlir::Operation *op,
                                const MlirEmitOptions &options) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (options.emitBytecode) {
    if (mlir::failed(mlir::writeBytecodeToFile(op, os)))
      return {};
  } else {
    mlir::OpPrintingFlags flags;
    if (options.generic)
      flags.printGenericOpForm();
    op->print(os, flags);
    if (out.empty() || out.back() != '\n')
      os << "\n";
  }
  return out;
}

StageEmitter tilepipe::emitMlirTo(ToolDriver &driver,
                                  const OutputOptions &output,
                                  const MlirEmitOptions &options) {
  return [&driver, output, options](mlir::Operation *op) {
    if (llvm::Error err = writeOutput(output, printMlir(op, options)))
      return reportError(driver.toolName(), std::move(err), kExitIO);
    return int(kExitSuccess);
  };
}

int tilepipe::runMlirStage(
    ToolDriver &driver, StageIOOptions &io,
    const std::function<mlir::LogicalResult(mlir::PassManager &)>
        &buildPipeline,
    const StageEmitter &emit, bool wrapInBuiltinModule, bool printRemarks) {
  if (llvm::Error err = checkOutputAllowed(io.output))
    return reportError(driver.toolName(), std::move(err), kExitUsage);

  auto buffer = readInputFile(io.input);
  if (!buffer)
    return reportError(driver.toolName(), buffer.takeError(), kExitIO);

  std::unique_ptr<mlir::MLIRContext> context = createStageContext();
  StageDiagnosticHandler diagnostics(context.get(), llvm::errs(), printRemarks);
  mlir::OwningOpRef<mlir::Operation *> module =
      parseMlirModule(std::move(*buffer), context.get());
  if (!module)
    return kExitCompile;
  if (wrapInBuiltinModule && !mlir::isa<mlir::ModuleOp>(module.get())) {
    mlir::Operation *inner = module.release();
    auto outer = mlir::ModuleOp::create(inner->getLoc());
    outer.getBody()->push_back(inner);
    module = mlir::OwningOpRef<mlir::Operation *>(outer.getOperation());
  }

  if (buildPipeline) {
    mlir::PassManager pm(context.get(), module.get()->getName().getStringRef(),
                         mlir::OpPassManager::Nesting::Implicit);
    if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
      return reportError(driver.toolName(), "invalid pass manager options",
                         kExitUsage);
    // --mlir-timing: the report is printed when the pass manager is done.
    auto timing = std::make_unique<mlir::DefaultTimingManager>();
    mlir::applyDefaultTimingManagerCLOptions(*timing);
    pm.enableTiming(std::move(timing));
    if (mlir::failed(buildPipeline(pm)))
      return kExitConfig;
    if (mlir::failed(pm.run(module.get())))
      return kExitCompile;
  }
  return emit(module.get());
}

/// MLIR's debug translation only understands builtin locations; a dialect's
/// own location attribute left in hand-written input would crash it. Such
/// locations become unknown.
static void dropForeignLocations(mlir::Operation *module) {
  mlir::AttrTypeReplacer replacer;
  replacer.addReplacement(
      [](mlir::LocationAttr loc) -> std::optional<mlir::Location> {
        if (loc.getDialect().getNamespace() == "builtin")
          return std::nullopt;
        return mlir::UnknownLoc::get(loc.getContext());
      });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}

std::unique_ptr<llvm::Module>
tilepipe::translateTileModuleToLLVMIR(mlir::Operation *module,
                                      llvm::LLVMContext &context) {
  dropForeignLocations(module);
  return mlir::translateModuleToLLVMIR(module, context, "tilepipe");
}
