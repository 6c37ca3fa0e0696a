//===- tile-emu.cpp - Run a compiled GPU kernel on the CPU ----------------===//
//
//   tile-emu KERNEL.ll --kernel SYMBOL --grid X[,Y[,Z]] --param TYPE:VALUE ...
//
// Runs an nvptx64 LLVM IR kernel warp-accurately on the host (see
// tilepipe/Emu/Emulator.h), with .npy files as global buffers that are
// written back to --out-dir afterwards.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Driver/InProcessCompiler.h"
#include "tilepipe/Emu/Emulator.h"
#include "tilepipe/Emu/LaunchSpec.h"
#include "tilepipe/Support/ExitCodes.h"
#include "tilepipe/Support/GpuTarget.h"
#include "tilepipe/Support/ToolDriver.h"

#include "llvm/Support/FileSystem.h"

#include <cstring>

using namespace tilepipe;
using namespace tilepipe::emu;

namespace {
struct EmuOptions {
  std::string input;
  std::string kernel;
  std::string grid;
  std::string block;
  std::string gpuName = "sm_80";
  std::string outDir = "emu-out";
  std::vector<std::string> params;
  std::vector<std::string> pointerPatches;
  uint32_t dynamicShared = 0;
  bool noLibdevice = false;
  unsigned timeout = 300;
  unsigned threadStackMiB = kDefaultThreadStackBytes >> 20;
};
} // namespace

static bool isLLVMBitcode(llvm::StringRef data) {
  return data.starts_with("BC\xC0\xDE") || data.starts_with("\xDE\xC0\x17\x0B");
}

/// TileIR bytecode and cuda_tile MLIR will go through the compiler stages
/// in-process once those exist; LLVM IR text is anything else that parses.
static bool isTileInput(llvm::StringRef data) {
  if (isLLVMBitcode(data))
    return false;
  return data.starts_with("\x7FTileIR") || data.contains("cuda_tile.module") ||
         data.contains("cuda_tile.entry") || data.starts_with("ML\xEF\x52");
}

int main(int argc, char **argv) {
  EmuOptions options;
  ToolDriver driver("tile-emu",
                    "tile-emu: run a kernel warp-accurately on the CPU (nvptx64 LLVM IR, "
                    "or TileIR bytecode / cuda_tile MLIR compiled in-process)");
  CLI::App &app = driver.app();
  app.add_option("KERNEL", options.input, "Kernel module: LLVM IR text or bitcode (nvptx64), TileIR bytecode or cuda_tile MLIR")
      ->required();
  app.add_option("--kernel", options.kernel, "Kernel symbol to launch")->required();
  app.add_option("--grid", options.grid, "Grid size X[,Y[,Z]] in CTAs (in clusters for a kernel with nvvm.blocksareclusters)")->required();
  app.add_option("--param", options.params,
                 "Kernel parameter, one per parameter in order: "
                 "i1|i8|i16|i32|i64:INT, f16|bf16|f32|f64:FLOAT, ptr:FILE.npy[+BYTES]");
  app.add_option("--pointer-into", options.pointerPatches,
                 "INTO.npy@WORD=FROM.npy[+BYTES]: before the launch, store the address of "
                 "buffer FROM (+BYTES) as 64-bit word WORD of buffer INTO (tables of "
                 "pointers, e.g. cuTile list arguments)");
  app.add_option("--gpu-name", options.gpuName, "Emulated GPU (__CUDA_ARCH__), default sm_80");
  app.add_option("--out-dir", options.outDir,
                 "Where every buffer is written as <stem>.npy after the run (default ./emu-out)");
  app.add_option("--block", options.block,
                 "CTA size X[,Y[,Z]] for kernels that declare none (reqntid/maxntid)");
  app.add_option("--dynamic-shared", options.dynamicShared,
                 "Bytes of dynamic shared memory (extern __shared__), default 0");
  app.add_flag("--no-libdevice", options.noLibdevice, "Do not link libdevice for __nv_* calls");
  app.add_option("--timeout", options.timeout,
                 "Stop with exit 5 after this many seconds (0: never), default 300");
  app.add_option("--thread-stack-mib", options.threadStackMiB,
                 "Host stack of each emulated thread in MiB, default 4 (kernels with large "
                 "tiles need more; only the pages a thread touches cost memory)")
      ->check(CLI::Range(1u, 1024u));
  if (auto exit = driver.parse(argc, argv))
    return *exit;
  llvm::StringRef tool = driver.toolName();

  auto target = parseGpuTarget(options.gpuName);
  if (!target)
    return reportError(tool, target.takeError(), kExitConfig);
  auto grid = parseDim3(options.grid);
  if (!grid)
    return reportError(tool, "--grid: " + llvm::toString(grid.takeError()), kExitUsage);
  std::vector<ParamSpec> specs;
  for (const std::string &text : options.params) {
    auto spec = parseParamSpec(text);
    if (!spec)
      return reportError(tool, spec.takeError(), kExitUsage);
    specs.push_back(std::move(*spec));
  }

  auto input = readInputFile(options.input);
  if (!input)
    return reportError(tool, input.takeError(), kExitIO);
  llvm::StringRef contents = (*input)->getBuffer();
  // TileIR bytecode and cuda_tile MLIR go through our own stages in-process,
  // up to the LLVM IR tile-llvm would write for --gpu-name.
  std::string compiledIR;
  if (isTileInput(contents)) {
    InProcessCompileOptions compile;
    compile.gpu = *target;
    compile.optLevel = 3;
    compile.output = CompileOutput::LLVMIR;
    compile.inputName = options.input;
    InProcessCompileResult result = compileInProcess(contents, compile);
    llvm::errs() << result.log;
    if (result.exitCode != kExitSuccess)
      return result.exitCode;
    compiledIR = std::move(result.output);
    contents = compiledIR;
  }

  EmulatorOptions emuOptions;
  emuOptions.smVersion = target->sm;
  emuOptions.dynamicSharedBytes = options.dynamicShared;
  emuOptions.linkLibdevice = !options.noLibdevice;
  emuOptions.threadStackBytes = uint64_t(options.threadStackMiB) << 20;
  auto emulator = Emulator::createFromIR(contents, options.input, emuOptions);
  if (!emulator)
    return reportError(tool, emulator.takeError(), kExitCompile);

  auto types = emulator->parameterTypes(options.kernel);
  if (!types)
    return reportError(tool, types.takeError(), kExitUsage);
  if (types->size() != specs.size())
    return reportError(tool,
                       "kernel '" + options.kernel + "' takes " +
                           std::to_string(types->size()) + " parameters, " +
                           std::to_string(specs.size()) + " --param given",
                       kExitUsage);

  Dim3 block;
  if (!options.block.empty()) {
    auto parsed = parseDim3(options.block);
    if (!parsed)
      return reportError(tool, "--block: " + llvm::toString(parsed.takeError()), kExitUsage);
    block = *parsed;
  } else if (auto declared = emulator->declaredBlockSize(options.kernel)) {
    block = *declared;
  } else {
    return reportError(tool,
                       "kernel '" + options.kernel +
                           "' declares no CTA size (nvvm.reqntid / nvvm.maxntid); pass --block",
                       kExitUsage);
  }

  BufferSet buffers;
  std::vector<KernelArg> args;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    const std::string &expected = (*types)[i];
    if (spec.type != expected)
      return reportError(tool,
                         "--param " + std::to_string(i) + " is " + spec.type +
                             " but kernel parameter " + std::to_string(i) + " is " + expected,
                         kExitUsage);
    if (spec.type != "ptr") {
      auto arg = makeScalarArg(spec);
      if (!arg)
        return reportError(tool, arg.takeError(), kExitUsage);
      args.push_back(*arg);
      continue;
    }
    auto buffer = buffers.load(spec.value);
    if (!buffer)
      return reportError(tool, buffer.takeError(), kExitIO);
    args.push_back(KernelArg::pointer((*buffer)->data + spec.byteOffset));
  }
  for (const std::string &text : options.pointerPatches) {
    auto patch = parsePointerPatch(text);
    if (!patch)
      return reportError(tool, patch.takeError(), kExitUsage);
    auto into = buffers.load(patch->into);
    if (!into)
      return reportError(tool, into.takeError(), kExitIO);
    auto from = buffers.load(patch->from);
    if (!from)
      return reportError(tool, from.takeError(), kExitIO);
    if ((patch->word + 1) * 8 > (*into)->bytes || patch->byteOffset > (*from)->bytes)
      return reportError(tool, "--pointer-into '" + text + "' is outside its buffers",
                         kExitUsage);
    uint64_t address = reinterpret_cast<uint64_t>((*from)->data + patch->byteOffset);
    std::memcpy((*into)->data + patch->word * 8, &address, sizeof(address));
  }
  for (auto &buffer : buffers.buffers())
    emulator->registerBuffer(buffer->data, buffer->bytes, buffer->name + ".npy");

  installFaultHandlers("tile-emu", kExitCompile, options.timeout);
  if (llvm::Error err = emulator->launch(options.kernel, *grid, block, args))
    return reportError(tool, std::move(err), kExitCompile);
  if (llvm::Error err = buffers.writeAll(options.outDir))
    return reportError(tool, std::move(err), kExitIO);
  return kExitSuccess;
}
