//===- Emulator.cpp - Running NVPTX LLVM IR kernels on the CPU ------------===//
#include "tilepipe/Emu/Emulator.h"

#include "FloatBits.h"
#include "HostStack.h"
#include "Rewrite.h"
#include "Runtime.h"
#include "RuntimeEntryPoints.h"

#include "tilepipe/Support/CudaToolkit.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <map>

using namespace llvm;
using namespace tilepipe::emu;

char EmuError::ID = 0;

KernelArg KernelArg::integer(unsigned bits, uint64_t value) {
  KernelArg arg;
  arg.kind = Kind::Int;
  arg.bits = bits;
  arg.bits64 = bits >= 64 ? value : value & ((uint64_t(1) << bits) - 1);
  return arg;
}

KernelArg KernelArg::f32(float value) {
  KernelArg arg;
  arg.kind = Kind::Float;
  arg.bits = 32;
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  arg.bits64 = bits;
  return arg;
}

KernelArg KernelArg::f64(double value) {
  KernelArg arg;
  arg.kind = Kind::Float;
  arg.bits = 64;
  std::memcpy(&arg.bits64, &value, 8);
  return arg;
}

KernelArg KernelArg::f16(float value) {
  KernelArg arg;
  arg.kind = Kind::Float;
  arg.bits = 16;
  arg.bits64 = floatToHalf(value);
  return arg;
}

KernelArg KernelArg::bf16(float value) {
  KernelArg arg;
  arg.kind = Kind::Float;
  arg.bits = 16;
  arg.bfloat = true;
  arg.bits64 = floatToBFloat(value);
  return arg;
}

KernelArg KernelArg::pointer(const void *address) {
  KernelArg arg;
  arg.kind = Kind::Pointer;
  arg.bits = 64;
  arg.bits64 = reinterpret_cast<uintptr_t>(address);
  return arg;
}

namespace tilepipe::emu {
class EmulatorImpl {
public:
  EmulatorOptions options;
  /// Each function's host frame in bytes, as the JIT reports it (before
  /// `jit`: the JIT's context refers to it).
  StringMap<uint64_t> frames;
  std::unique_ptr<orc::LLJIT> jit;
  std::deque<IntrinsicHandler> handlers;
  RewriteResult module;
  std::vector<MemoryRegion> moduleRegions;
  std::vector<MemoryRegion> buffers;
  std::map<std::string, LaunchEntry> launchers;

  const KernelInfo *findKernel(StringRef name) const {
    for (const KernelInfo &kernel : module.kernels)
      if (kernel.name == name)
        return &kernel;
    return nullptr;
  }
  Error unknownKernel(StringRef name) const {
    std::string known;
    for (const KernelInfo &kernel : module.kernels)
      known += (known.empty() ? "" : ", ") + kernel.name;
    return createStringError(inconvertibleErrorCode(),
                             "no kernel named '" + name + "' (kernels: " +
                                 (known.empty() ? "none" : known) + ")");
  }
};
} // namespace tilepipe::emu

Emulator::Emulator(std::unique_ptr<EmulatorImpl> impl) : impl_(std::move(impl)) {}
Emulator::~Emulator() = default;
Emulator::Emulator(Emulator &&) noexcept = default;

static bool callsLibdevice(const Module &module) {
  for (const Function &fn : module)
    if (fn.isDeclaration() && fn.getName().starts_with("__nv_"))
      return true;
  return false;
}

/// Links the __nv_* functions the module uses from libdevice.
static Error linkLibdevice(Module &module) {
  auto path = tilepipe::findLibdevice();
  if (!path)
    return path.takeError();
  auto buffer = MemoryBuffer::getFile(*path);
  if (!buffer)
    return createStringError(buffer.getError(), "cannot read " + *path);
  auto libdevice = parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!libdevice)
    return libdevice.takeError();
  (*libdevice)->setDataLayout(module.getDataLayout());
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  if (Linker::linkModules(module, std::move(*libdevice), Linker::LinkOnlyNeeded))
    return createStringError(inconvertibleErrorCode(), "linking libdevice failed");
  for (Function &fn : module)
    if (!fn.isDeclaration() && fn.getName().starts_with("__nv_"))
      fn.setLinkage(GlobalValue::InternalLinkage);
  return Error::success();
}

static void initializeNativeTargetOnce() {
  static bool done = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)done;
}

Expected<Emulator> Emulator::create(std::unique_ptr<Module> module,
                                    std::unique_ptr<LLVMContext> context,
                                    const EmulatorOptions &options) {
  initializeNativeTargetOnce();
  auto impl = std::make_unique<EmulatorImpl>();
  impl->options = options;

  if (options.linkLibdevice && callsLibdevice(*module))
    if (Error err = linkLibdevice(*module))
      return std::move(err);

  auto builder = orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  // Kernels are large straight-line functions run once: instruction
  // selection and register allocation at -O0 cost far less than they lose.
  builder->setCodeGenOptLevel(CodeGenOptLevel::None);
  auto layout = builder->getDefaultDataLayoutForTarget();
  if (!layout)
    return layout.takeError();
  auto rewritten = rewriteForHost(*module, options, *layout,
                                  builder->getTargetTriple().str(), impl->handlers);
  if (!rewritten)
    return rewritten.takeError();
  impl->module = std::move(*rewritten);
  measureHostFrames(*module, impl->frames);

  auto jit = orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*builder)).create();
  if (!jit)
    return jit.takeError();
  impl->jit = std::move(*jit);
  orc::JITDylib &dylib = impl->jit->getMainJITDylib();
  orc::SymbolMap symbols;
  for (auto [name, address] : runtimeSymbols())
    symbols[impl->jit->mangleAndIntern(name)] = {orc::ExecutorAddr::fromPtr(address),
                                                 JITSymbolFlags::Exported};
  if (Error err = dylib.define(orc::absoluteSymbols(std::move(symbols))))
    return std::move(err);
  // libm and friends for the math the kernel calls directly (sinf, ...).
  auto process = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      impl->jit->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  dylib.addGenerator(std::move(*process));
  if (Error err = impl->jit->addIRModule(
          orc::ThreadSafeModule(std::move(module), std::move(context))))
    return std::move(err);

  // Compiles everything now, so that launches only run code.
  auto table = impl->jit->lookup(impl->module.globalTable);
  if (!table)
    return table.takeError();
  auto *addresses = table->toPtr<void *const *>();
  for (auto [i, info] : enumerate(impl->module.globals)) {
    MemoryRegion region;
    region.begin = reinterpret_cast<uintptr_t>(addresses[i]);
    region.end = region.begin + info.size;
    region.kind = info.constantSpace ? RegionKind::Constant : RegionKind::ModuleGlobal;
    region.readOnly = info.readOnly;
    region.name = info.name;
    impl->moduleRegions.push_back(region);
  }
  return Emulator(std::move(impl));
}

Expected<Emulator> Emulator::createFromIR(StringRef contents, StringRef name,
                                          const EmulatorOptions &options) {
  auto context = std::make_unique<LLVMContext>();
  SMDiagnostic diagnostic;
  std::unique_ptr<Module> module =
      parseIR(MemoryBufferRef(contents, name), diagnostic, *context);
  if (!module) {
    std::string message;
    raw_string_ostream os(message);
    diagnostic.print(nullptr, os, /*ShowColors=*/false);
    return createStringError(inconvertibleErrorCode(), StringRef(message).trim());
  }
  return create(std::move(module), std::move(context), options);
}

void Emulator::registerBuffer(void *data, uint64_t bytes, StringRef name) {
  MemoryRegion region;
  region.begin = reinterpret_cast<uintptr_t>(data);
  region.end = region.begin + bytes;
  region.kind = RegionKind::Global;
  region.name = name.str();
  impl_->buffers.push_back(region);
}

std::optional<Dim3> Emulator::declaredBlockSize(StringRef kernel) const {
  const KernelInfo *info = impl_->findKernel(kernel);
  return info ? info->declaredBlock : std::nullopt;
}

Expected<std::vector<std::string>> Emulator::parameterTypes(StringRef kernel) const {
  const KernelInfo *info = impl_->findKernel(kernel);
  if (!info)
    return impl_->unknownKernel(kernel);
  if (!info->unsupported.empty())
    return createStringError(inconvertibleErrorCode(), info->unsupported);
  std::vector<std::string> types;
  for (const KernelParam &param : info->params)
    types.push_back(param.type);
  return types;
}

Error Emulator::launch(StringRef kernel, Dim3 grid, Dim3 block, ArrayRef<KernelArg> args) {
  const KernelInfo *info = impl_->findKernel(kernel);
  if (!info)
    return impl_->unknownKernel(kernel);
  if (!info->unsupported.empty())
    return createStringError(inconvertibleErrorCode(), info->unsupported);
  if (args.size() != info->params.size())
    return createStringError(inconvertibleErrorCode(),
                             "kernel '" + kernel + "' takes " +
                                 Twine(info->params.size()) + " parameters, " +
                                 Twine(args.size()) + " given");
  std::vector<uint8_t> buffer(info->argBufferBytes, 0);
  for (auto [i, arg] : enumerate(args))
    std::memcpy(buffer.data() + info->params[i].offset, &arg.bits64,
                std::min<uint32_t>(info->params[i].size, 8));

  if (Error err = checkKernelFrame(info->name, impl_->frames.lookup(info->name),
                                   impl_->options.threadStackBytes))
    return err;
  LaunchEntry &entry = impl_->launchers[info->name];
  if (!entry) {
    auto address = impl_->jit->lookup(info->launcher);
    if (!address)
      return address.takeError();
    entry = address->toPtr<LaunchEntry>();
  }
  std::vector<MemoryRegion> regions = impl_->buffers;
  regions.insert(regions.end(), impl_->moduleRegions.begin(), impl_->moduleRegions.end());
  uint32_t shared = impl_->module.dynamicSharedOffset + impl_->options.dynamicSharedBytes;
  // With .blocksareclusters each block of the launch is a whole cluster.
  Dim3 ctas = grid;
  if (info->blocksAreClusters) {
    uint64_t x = uint64_t(grid.x) * info->cluster.x, y = uint64_t(grid.y) * info->cluster.y,
             z = uint64_t(grid.z) * info->cluster.z;
    if (x > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX)
      return createStringError(inconvertibleErrorCode(),
                               "kernel '" + kernel + "': grid of clusters too large");
    ctas = {uint32_t(x), uint32_t(y), uint32_t(z)};
  }
  Runtime runtime(info->name, entry, buffer.data(), ctas, block, info->cluster, shared,
                  std::move(regions),
                  impl_->options.printfStream ? *impl_->options.printfStream : outs(),
                  impl_->options.threadStackBytes);
  return runtime.run();
}
