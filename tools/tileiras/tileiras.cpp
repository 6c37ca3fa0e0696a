//===- tileiras.cpp - Drop-in for NVIDIA's tileiras -----------------------===//
//
//   tileiras IN.tileirbc -o OUT.cubin --gpu-name sm_XX -O3 --lineinfo
//
// runs the stages tile-read, tile-lower, tile-sched, tile-llvm, tile-ptx and
// tile-pack. By default they run in this process on one in-memory module
// (tilepipe::compileInProcess): the same pipelines, bytes, diagnostics and
// exit codes as the stage tools, without six process starts and an MLIR
// print and parse between each two. The staged flow runs the stage tools as
// child processes, each stage's output file feeding the next; it is taken
// for --staged (or TILEPIPE_STAGED=1), --save-temps (keeps every stage's
// output as editable files) and -v (prints each stage's command line, so
// that any stage can be rerun by hand, and the stages' remarks). --emit
// stops early. The output file is written only when every stage succeeded.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Driver/InProcessCompiler.h"
#include "tilepipe/Support/CompileCache.h"
#include "tilepipe/Support/InputKind.h"
#include "tilepipe/Support/ToolDriver.h"
#include "tilepipe/Support/Version.h"
#include "tilepipe/Target/NVPTXCodegen.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

#include <cstring>

using namespace tilepipe;

namespace {

struct TileirasOptions {
  std::string input;
  OutputOptions output;
  TargetOptions target;
  std::string emit = "cubin";
  std::string saveTemps;      // directory; empty: do not keep temporaries
  bool saveTempsGiven = false;
  bool verbose = false;
  bool staged = false;        // run the stage tools as processes
  std::string cacheDir;       // empty: no cache
  uint64_t cacheMaxMiB = 1024;
  std::string hostArch = "x86_64"; // of host objects (-o *.o, --emit=obj)
  // Accepted for compatibility with the original; validated, no effect yet.
  std::string hostOS = "linux";
  std::string sanitize;
  std::string remarkFormat, remarks, remarksOutputFile;
};

/// One stage of the pipeline: the tool, its arguments, and the file suffix of
/// what it writes.
struct StageStep {
  const char *tool;
  const char *emitName; // the --emit value that stops after this stage
  const char *suffix;   // intermediate file suffix
  std::vector<std::string> args;
};

} // namespace

static const char *const kEmitKinds[] = {"cuda_tile", "lowered", "scheduled",
                                         "llvm",      "ptx",     "cubin",
                                         "fatbin",    "obj"};

/// The container tile-pack writes: --emit=fatbin|obj, or for --emit=cubin
/// the one `-o` names (*.o: host object, as the original's elf.o; *.fatbin).
static std::string packContainer(const TileirasOptions &options) {
  if (options.emit != "cubin")
    return options.emit;
  switch (containerForPath(options.output.path)) {
  case Container::HostObject:
    return "obj";
  case Container::Fatbin:
    return "fatbin";
  case Container::Cubin:
    break;
  }
  return "cubin";
}

static std::string mainExecutable() {
  static int anchor;
  return llvm::sys::fs::getMainExecutable("tileiras", &anchor);
}

/// The stage tools live next to tileiras.
static std::string findStageTool(llvm::StringRef name) {
  llvm::SmallString<256> path(llvm::sys::path::parent_path(mainExecutable()));
  llvm::sys::path::append(path, name);
  return llvm::sys::fs::can_execute(path) ? path.str().str() : std::string();
}

static std::vector<StageStep> planStages(const TileirasOptions &options) {
  const TargetOptions &t = options.target;
  std::vector<std::string> target = {"--gpu-name", t.gpuName, "-O",
                                     std::to_string(t.optLevel)};
  std::vector<std::string> codegen = target;
  if (t.lineInfo)
    codegen.push_back("--lineinfo");
  if (t.deviceDebug)
    codegen.push_back("--device-debug");
  // MLIR intermediates keep source locations so that --lineinfo (and every
  // later diagnostic) points at the user's source, not at a temp file.
  std::vector<std::string> mlirTarget = target;
  mlirTarget.push_back("--mlir-print-debuginfo");
  std::vector<StageStep> steps = {
      {"tile-read", "cuda_tile", ".cuda_tile.mlir", {"--mlir-print-debuginfo"}},
      {"tile-lower", "lowered", ".lowered.mlir", mlirTarget},
      {"tile-sched", "scheduled", ".sched.mlir", mlirTarget},
      {"tile-llvm", "llvm", ".ll", target},
      {"tile-ptx", "ptx", ".ptx", codegen},
      {"tile-pack", "cubin", ".cubin", codegen},
  };
  // -v also makes tile-lower say which optimization hints went unused (a
  // cluster size), tile-sched which tensor-core path each multiply takes
  // and why (on sm_90, whether wgmma makes the target sm_90a), and tile-ptx
  // which PTX target it picked and why (an arch-specific one, such as
  // sm_90a, for a module that needs its instructions).
  if (options.verbose)
    for (StageStep &step : steps)
      if (llvm::is_contained({"tile-lower", "tile-sched", "tile-ptx"},
                             llvm::StringRef(step.tool)))
        step.args.push_back("-v");
  if (!options.remarksOutputFile.empty())
    steps.back().args.push_back("--remarks-output-file=" +
                                options.remarksOutputFile);
  std::string container = packContainer(options);
  if (container != "cubin") {
    StageStep &pack = steps.back();
    pack.args.push_back("--emit=" + container);
    pack.suffix = container == "obj" ? ".o" : ".fatbin";
    if (container == "obj")
      pack.args.insert(pack.args.end(), {"--host-arch", options.hostArch});
  }
  llvm::StringRef lastStage =
      options.emit == "fatbin" || options.emit == "obj" ? "cubin" : options.emit;
  while (steps.back().emitName != lastStage)
    steps.pop_back();
  return steps;
}

/// Quotes `arg` for a POSIX shell when needed (for -v output).
static std::string shellQuote(llvm::StringRef arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_-+=./:,@%") ==
                          llvm::StringRef::npos)
    return arg.str();
  std::string quoted = "'";
  for (char c : arg)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// Runs every stage in order, file to file; returns the exit code.
static int runStages(const TileirasOptions &options, std::string firstInput,
                     llvm::StringRef workDir, std::string &finalOutputPath) {
  std::vector<StageStep> steps = planStages(options);
  llvm::SmallString<64> stem = llvm::sys::path::stem(options.input);
  if (stem.empty() || options.input == "-")
    stem = "stdin";
  std::string previous = std::move(firstInput);
  for (StageStep &step : steps) {
    std::string tool = findStageTool(step.tool);
    if (tool.empty())
      return reportError("tileiras",
                         std::string("cannot find the stage tool '") +
                             step.tool + "' next to tileiras",
                         kExitCompile);
    llvm::SmallString<256> out(workDir);
    llvm::sys::path::append(out, stem + step.suffix);
    std::vector<std::string> argv = {tool, previous, "-o", out.str().str()};
    argv.insert(argv.end(), step.args.begin(), step.args.end());
    if (options.verbose) {
      llvm::SmallVector<std::string> quoted;
      for (const std::string &arg : argv)
        quoted.push_back(shellQuote(arg));
      llvm::errs() << llvm::join(quoted, " ") << "\n";
    }
    llvm::SmallVector<llvm::StringRef> args(argv.begin(), argv.end());
    std::string errorMessage;
    int rc = llvm::sys::ExecuteAndWait(tool, args, /*Env=*/std::nullopt,
                                       /*Redirects=*/{}, 0, 0, &errorMessage);
    if (rc < 0)
      return reportError("tileiras",
                         std::string(step.tool) + " failed: " + errorMessage,
                         kExitCompile);
    if (rc != 0)
      return rc; // the stage printed its own diagnostics
    previous = out.str().str();
  }
  finalOutputPath = previous;
  return kExitSuccess;
}

/// "SIZE:MTIME" of the executable at `path`, empty when there is none.
static std::string executableStamp(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (path.empty() || llvm::sys::fs::status(path, status))
    return {};
  return std::to_string(status.getSize()) + ":" +
         std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
}

/// The cache key: everything the output depends on. The sizes and
/// modification times of tileiras (the in-process flow) and of the stage
/// tools (the staged one) stand for "our version" during development, when
/// the version string does not change between builds. Both flows give the
/// same bytes, so they share entries.
static std::string cacheKey(const TileirasOptions &options,
                            llvm::StringRef inputBytes) {
  const TargetOptions &t = options.target;
  std::vector<std::string> parts = {
      "tilepipe-cache-v1",      getVersionString().str(), inputBytes.str(),
      t.gpuName,                std::to_string(t.optLevel),
      t.lineInfo ? "lineinfo" : "", t.deviceDebug ? "device-debug" : "",
      options.emit,             packContainer(options), options.hostArch};
  parts.push_back("tileiras:" + executableStamp(mainExecutable()));
  for (const StageStep &step : planStages(options)) {
    std::string stamp = executableStamp(findStageTool(step.tool));
    if (!stamp.empty())
      parts.push_back(std::string(step.tool) + ":" + stamp);
  }
  return CompileCache::makeKey(parts);
}

/// The staged flow: the stage tools as processes, file to file in a
/// temporary directory (or the --save-temps one). Returns the exit code.
static int compileStaged(const TileirasOptions &options,
                         const llvm::MemoryBuffer &input, std::string &output) {
  llvm::SmallString<256> workDir;
  if (options.saveTempsGiven) {
    workDir = options.saveTemps;
    if (std::error_code ec = llvm::sys::fs::create_directories(workDir))
      return reportError("tileiras",
                         "cannot create '" + options.saveTemps +
                             "': " + ec.message(),
                         kExitIO);
  } else if (std::error_code ec = llvm::sys::fs::createUniqueDirectory(
                 "tileiras", workDir)) {
    return reportError("tileiras",
                       "cannot create a temporary directory: " + ec.message(),
                       kExitIO);
  }
  auto compile = [&]() -> int {
    // Stdin cannot be read twice: the first stage reads our copy of it.
    std::string firstInput = options.input;
    if (options.input == "-") {
      llvm::SmallString<256> copy(workDir);
      llvm::sys::path::append(copy, "stdin.input");
      OutputOptions copyOutput;
      copyOutput.path = copy.str().str();
      if (llvm::Error err = writeOutput(copyOutput, input.getBuffer()))
        return reportError("tileiras", std::move(err), kExitIO);
      firstInput = copyOutput.path;
    }
    std::string finalPath;
    if (int rc = runStages(options, firstInput, workDir, finalPath))
      return rc;
    auto result = llvm::MemoryBuffer::getFile(finalPath, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!result)
      return reportError("tileiras", "cannot read '" + finalPath + "'", kExitIO);
    output = (*result)->getBuffer().str();
    return kExitSuccess;
  };
  int rc = compile();
  if (!options.saveTempsGiven)
    llvm::sys::fs::remove_directories(workDir);
  return rc;
}

static CompileOutput compileOutputFor(const TileirasOptions &options) {
  std::string container = packContainer(options);
  if (container == "obj")
    return CompileOutput::HostObject;
  if (container == "fatbin")
    return CompileOutput::Fatbin;
  return llvm::StringSwitch<CompileOutput>(options.emit)
      .Case("cuda_tile", CompileOutput::CudaTile)
      .Case("lowered", CompileOutput::Lowered)
      .Case("scheduled", CompileOutput::Scheduled)
      .Case("llvm", CompileOutput::LLVMIR)
      .Case("ptx", CompileOutput::PTX)
      .Default(CompileOutput::Cubin);
}

/// The staged flow passes --mlir-print-debuginfo to the MLIR stages, so their
/// diagnostics show operations with locations ("see current operation: ...
/// loc(...)"); the in-process flow sets the same option for itself.
static void printLocationsInDiagnostics() {
  auto registered = llvm::cl::getRegisteredOptions();
  auto it = registered.find("mlir-print-debuginfo");
  if (it != registered.end() && it->second->getNumOccurrences() == 0)
    it->second->addOccurrence(0, it->first, "");
}

/// The default flow: every stage in this process (tilepipe::compileInProcess),
/// diagnostics on stderr as they come. Returns the exit code.
static int compileHere(const TileirasOptions &options,
                       const llvm::MemoryBuffer &input, std::string &output) {
  // The NVPTX code generator reports some errors as fatal ones.
  exitOnLLVMFatalErrors("tileiras");
  printLocationsInDiagnostics();
  InProcessCompileOptions compile;
  compile.gpu = options.target.target;
  compile.optLevel = unsigned(options.target.optLevel);
  compile.lineInfo = options.target.lineInfo;
  compile.deviceDebug = options.target.deviceDebug;
  compile.output = compileOutputFor(options);
  // Locations of MLIR text input name the file as the user gave it, as the
  // staged flow's tile-read does.
  compile.inputName = input.getBufferIdentifier().str();
  compile.hostArch =
      options.hostArch == "aarch64" ? HostArch::AArch64 : HostArch::X86_64;
  compile.remarks = !options.remarksOutputFile.empty();
  compile.diagnostics = &llvm::errs();
  compile.applyMlirCommandLine = true;
  // A crash in a stage must not take tileiras down with a signal where the
  // staged flow would report the failed stage and exit 5: the compile runs
  // under crash recovery, and a crash ends the process at once (the state it
  // left, locks included, is not to be trusted by exit-time destructors).
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  InProcessCompileResult result;
  if (!recovery.RunSafely([&] {
        result = compileInProcess(input.getBuffer(), compile);
      })) {
    int signal = recovery.RetCode > 128 ? recovery.RetCode - 128 : 0;
    reportError("tileiras",
                "the compiler crashed" +
                    (signal ? std::string(" (") + strsignal(signal) + ")"
                            : std::string()) +
                    "; nothing was written (--staged names the stage)",
                kExitCompile);
    llvm::errs().flush();
    std::_Exit(kExitCompile);
  }
  if (result.exitCode != kExitSuccess)
    return result.exitCode;
  if (compile.remarks) {
    OutputOptions remarksOutput;
    remarksOutput.path = options.remarksOutputFile;
    remarksOutput.force = true;
    if (llvm::Error err = writeOutput(remarksOutput, result.remarks))
      return reportError("tile-pack", std::move(err), kExitIO);
  }
  output = std::move(result.output);
  return kExitSuccess;
}

int main(int argc, char **argv) {
  TileirasOptions options;
  ToolDriver driver("tileiras",
                    "tileiras: tilepipe's drop-in CUDA Tile IR optimizing "
                    "assembler (TileIR bytecode -> cubin)");
  CLI::App &app = driver.app();
  app.add_option("input", options.input, "<tile bytecode file>");
  options.output.path = "elf.o";
  app.add_option("-o,--output-file", options.output.path,
                 "Output file (default: elf.o)");
  app.add_flag("-f,--force", options.output.force,
               "Write binary output even to a terminal");
  driver.addTargetOptions(options.target);
  app.add_option("--emit", options.emit,
                 "Stop after a stage: cuda_tile, lowered, scheduled, llvm, ptx, "
                 "cubin; or pack the cubin: fatbin, obj (host relocatable ELF)")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(kEmitKinds),
                                                     std::end(kEmitKinds))));
  app.add_option("--save-temps", options.saveTemps,
                 "Keep every stage's output in DIR (default: .)")
      ->expected(0, 1)
      ->default_str(".");
  app.add_flag("-v,--verbose", options.verbose,
               "Run the stage tools as processes (--staged) and print each "
               "one's command line and remarks");
  app.add_flag("--staged", options.staged,
               "Run the stages as processes of the stage tools next to "
               "tileiras, file to file (default: in this process; also "
               "TILEPIPE_STAGED=1, --save-temps, -v)");
  app.add_option("--cache-dir", options.cacheDir,
                 "Content-addressed compile cache (default: $TILEPIPE_CACHE_DIR)");
  app.add_option("--cache-max-size", options.cacheMaxMiB,
                 "Cache size limit in MiB, least recently used out first "
                 "(default 1024)");
  app.add_option("--host-arch", options.hostArch, "Host architecture")
      ->check(CLI::IsMember({"x86_64", "aarch64", "arm64ec"}));
  app.add_option("--host-os", options.hostOS, "Host operating system")
      ->check(CLI::IsMember({"linux", "windows"}));
  app.add_option("--sanitize", options.sanitize, "Sanitizer (memcheck)")
      ->check(CLI::IsMember({"memcheck"}));
  app.add_option("--remark-format", options.remarkFormat, "Remark format (yaml)")
      ->check(CLI::IsMember({"yaml"}));
  app.add_option("--remarks", options.remarks, "Remarks to emit (all)");
  app.add_option("--remarks-output-file", options.remarksOutputFile,
                 "Remarks output file");
  if (auto exit = driver.parse(argc, argv))
    return *exit;
  options.saveTempsGiven = app.count("--save-temps") > 0;
  if (options.saveTempsGiven && options.saveTemps.empty())
    options.saveTemps = ".";
  // The stage files and command lines only exist in the staged flow.
  if (const char *env = std::getenv("TILEPIPE_STAGED"))
    options.staged |= llvm::StringRef(env) == "1";
  options.staged |= options.saveTempsGiven || options.verbose;

  if (options.input.empty())
    return reportError("tileiras", "no input file provided", kExitUsage);
  if (auto exit = driver.validateTarget(options.target))
    return *exit;
  options.output.binary = options.emit == "cubin" || options.emit == "fatbin" ||
                          options.emit == "obj";
  if (packContainer(options) == "obj" && options.hostArch == "arm64ec")
    return reportError("tileiras", "host objects for arm64ec are not supported",
                       kExitConfig);
  if (llvm::Error err = checkOutputAllowed(options.output))
    return reportError("tileiras", std::move(err), kExitUsage);

  // The original's contract: refuse what is not Tile IR before any work.
  auto input = readInputFile(options.input);
  if (!input)
    return reportError("tileiras", input.takeError(), kExitIO);
  InputKind kind = classifyInput((*input)->getBuffer());
  if (kind != InputKind::TileIRBytecode && kind != InputKind::MLIRText)
    return reportError("tileiras", notTileIRMessage(kind), kExitNotTileIR);

  if (options.cacheDir.empty())
    if (const char *env = std::getenv("TILEPIPE_CACHE_DIR"))
      options.cacheDir = env;
  // Temporaries are only made by a real compilation: --save-temps bypasses.
  std::optional<CompileCache> cache;
  std::string key;
  // Remarks come from the ptxas run, which a cache hit skips.
  if (!options.cacheDir.empty() && !options.saveTempsGiven &&
      options.remarksOutputFile.empty()) {
    cache.emplace(options.cacheDir, options.cacheMaxMiB << 20);
    key = cacheKey(options, (*input)->getBuffer());
    if (std::optional<std::string> hit = cache->lookup(key)) {
      if (options.verbose)
        llvm::errs() << "tileiras: cache hit " << key << "\n";
      if (llvm::Error err = writeOutput(options.output, *hit))
        return reportError("tileiras", std::move(err), kExitIO);
      return kExitSuccess;
    }
  }
  std::string output;
  int rc = options.staged ? compileStaged(options, **input, output)
                          : compileHere(options, **input, output);
  if (rc != kExitSuccess)
    return rc;
  if (llvm::Error err = writeOutput(options.output, output))
    return reportError("tileiras", std::move(err), kExitIO);
  if (cache)
    // A cache that cannot be written only costs speed.
    if (llvm::Error err = cache->store(key, output))
      llvm::WithColor::warning(llvm::errs(), "tileiras")
          << "compile cache: " << llvm::toString(std::move(err)) << "\n";
  return kExitSuccess;
}
