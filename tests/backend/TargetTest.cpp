//===- TargetTest.cpp - Units of libcommon/Target -------------------------===//
//
// The library API the tileiras wrapper and a C API build on, without going
// through the tile-ptx / tile-pack command lines.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Support/CudaToolkit.h"
#include "tilepipe/Target/Libdevice.h"
#include "tilepipe/Target/NVPTXCodegen.h"
#include "tilepipe/Target/Ptxas.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace tilepipe;

static GpuTarget gpu(llvm::StringRef name) {
  auto target = parseGpuTarget(name);
  EXPECT_TRUE(bool(target));
  if (!target) {
    llvm::consumeError(target.takeError());
    return {};
  }
  return *target;
}

static std::unique_ptr<llvm::Module> parse(llvm::StringRef ir,
                                           llvm::LLVMContext &context) {
  llvm::SMDiagnostic diagnostic;
  auto module = llvm::parseAssemblyString(ir, diagnostic, context);
  EXPECT_TRUE(module) << diagnostic.getMessage().str();
  return module;
}

static const char kCopyKernel[] = R"(
define ptx_kernel void @copy(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %v = load i32, ptr addrspace(1) %in
  store i32 %v, ptr addrspace(1) %out
  ret void
}
)";

static const char kSinKernel[] = R"(
define ptx_kernel void @sine(ptr addrspace(1) %p) {
  %x = load float, ptr addrspace(1) %p
  %y = call float @__nv_sinf(float %x)
  store float %y, ptr addrspace(1) %p
  ret void
}
declare float @__nv_sinf(float)
)";

TEST(PtxasArch, FollowsTheArchSpecificTargetOfThePTX) {
  EXPECT_EQ(selectPtxasArch(".version 9.0\n.target sm_90a\n", gpu("sm_90")), "sm_90a");
  EXPECT_EQ(selectPtxasArch("  .target   sm_90a, debug\n", gpu("sm_90")), "sm_90a");
  EXPECT_EQ(selectPtxasArch(".target sm_90\n", gpu("sm_90")), "sm_90");
  EXPECT_EQ(selectPtxasArch(".target sm_90a\n", gpu("sm_100")), "sm_100");
  EXPECT_EQ(selectPtxasArch(".target sm_100a\n", gpu("sm_100f")), "sm_100f");
  EXPECT_EQ(selectPtxasArch("// .target sm_90a\n", gpu("sm_90")), "sm_90");
  EXPECT_EQ(selectPtxasArch("", gpu("sm_80")), "sm_80");
}

TEST(PTXProcessor, ArchSpecificOnlyWhenNeeded) {
  llvm::LLVMContext context;
  auto plain = parse(kCopyKernel, context);
  EXPECT_EQ(selectPTXProcessor(*plain, gpu("sm_90")), "sm_90");
  EXPECT_EQ(selectPTXProcessor(*plain, gpu("sm_90a")), "sm_90a");
  auto wgmma = parse(R"(
define ptx_kernel void @k() {
  call void asm sideeffect "wgmma.fence.sync.aligned;", ""()
  ret void
})", context);
  EXPECT_EQ(selectPTXProcessor(*wgmma, gpu("sm_90")), "sm_90a");
  // wgmma is Hopper-only: there is no sm_100a version to promote to.
  EXPECT_EQ(selectPTXProcessor(*wgmma, gpu("sm_100")), "sm_100");
  // The feature that forced the promotion (tile-ptx -v names it).
  EXPECT_EQ(findArchSpecificFeature(*wgmma, gpu("sm_90")), "wgmma.");
  EXPECT_EQ(findArchSpecificFeature(*wgmma, gpu("sm_90a")), "");
  EXPECT_EQ(findArchSpecificFeature(*wgmma, gpu("sm_100")), "");
  EXPECT_EQ(findArchSpecificFeature(*plain, gpu("sm_90")), "");
}

TEST(PTXProcessor, BlockScaledMmaNeedsTheArchSpecificBlackwellTarget) {
  llvm::LLVMContext context;
  // The intrinsic (what nvvm.mma.block_scale becomes) and inline PTX alike.
  auto intrinsic = parse(R"(
declare { float, float, float, float } @llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32.e4m3.e4m3.f32.ue8m0(i32, i32, i32, i32, i32, i32, float, float, float, float, i32, i16, i16, i32, i16, i16)
define ptx_kernel void @k() {
  ret void
})", context);
  EXPECT_EQ(selectPTXProcessor(*intrinsic, gpu("sm_120")), "sm_120a");
  EXPECT_EQ(selectPTXProcessor(*intrinsic, gpu("sm_121")), "sm_121a");
  EXPECT_EQ(selectPTXProcessor(*intrinsic, gpu("sm_120a")), "sm_120a");
  EXPECT_EQ(findArchSpecificFeature(*intrinsic, gpu("sm_120")), "block_scale.");
  // Not a feature of the other GPUs: nothing to promote to there.
  EXPECT_EQ(selectPTXProcessor(*intrinsic, gpu("sm_100")), "sm_100");
  llvm::LLVMContext asmContext;
  auto inlinePtx = parse(R"(
define ptx_kernel void @k() {
  call void asm sideeffect "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0 {$0}, {$1}, {$2}, {$3}, {$4}, {$5, $6}, {$7, $8};", ""()
  ret void
})", asmContext);
  EXPECT_EQ(selectPTXProcessor(*inlinePtx, gpu("sm_120")), "sm_120a");
}

TEST(CompileLLVMToPTX, EmitsTheKernelForTheTarget) {
  llvm::LLVMContext context;
  auto module = parse(kCopyKernel, context);
  PTXCodegenOptions options;
  options.gpu = gpu("sm_89");
  auto ptx = compileLLVMToPTX(*module, options);
  ASSERT_TRUE(bool(ptx)) << llvm::toString(ptx.takeError());
  EXPECT_NE(ptx->find(".target sm_89\n"), std::string::npos);
  EXPECT_NE(ptx->find(".version 9.0\n"), std::string::npos);
  EXPECT_NE(ptx->find(".entry copy("), std::string::npos);
  EXPECT_EQ(module->getTargetTriple().str(), "nvptx64-nvidia-cuda");
}

TEST(CompileLLVMToPTX, ReportsAMissingLibdevice) {
  llvm::LLVMContext context;
  auto module = parse(kSinKernel, context);
  EXPECT_TRUE(needsLibdevice(*module));
  PTXCodegenOptions options;
  options.gpu = gpu("sm_80");
  options.libdevicePath = "/nonexistent/libdevice.10.bc";
  auto ptx = compileLLVMToPTX(*module, options);
  ASSERT_FALSE(bool(ptx));
  EXPECT_NE(llvm::toString(ptx.takeError()).find("cannot load libdevice"),
            std::string::npos);
}

/// Writes `bytes` to `path`, with `modified` as its modification time.
static void writeWithTime(llvm::StringRef path, llvm::StringRef bytes,
                          llvm::sys::TimePoint<> modified) {
  std::error_code ec;
  {
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec) << ec.message();
    os << bytes;
  }
  int fd;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(path, fd, llvm::sys::fs::CD_OpenExisting,
                                               llvm::sys::fs::OF_Append));
  EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(fd, modified));
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
}

TEST(Libdevice, BytesAreReadOncePerFileVersion) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("libdevice", "bc", path));
  llvm::FileRemover remover(path);
  auto then = llvm::sys::TimePoint<>(std::chrono::seconds(1000000000));
  writeWithTime(path, "version one", then);
  auto first = loadLibdeviceBitcode(path);
  ASSERT_TRUE(bool(first)) << llvm::toString(first.takeError());
  EXPECT_EQ(first->getBuffer(), "version one");
  // The same file again: the same bytes in memory, not a second copy.
  auto again = loadLibdeviceBitcode(path);
  ASSERT_TRUE(bool(again));
  EXPECT_EQ(again->getBufferStart(), first->getBufferStart());
  // A new version of the file (another toolkit installed) is read anew; the
  // old bytes stay valid for whoever still reads them.
  writeWithTime(path, "version two!", then + std::chrono::seconds(1));
  auto changed = loadLibdeviceBitcode(path);
  ASSERT_TRUE(bool(changed));
  EXPECT_EQ(changed->getBuffer(), "version two!");
  EXPECT_EQ(first->getBuffer(), "version one");
  // A missing file says which one.
  auto missing = loadLibdeviceBitcode("/nonexistent/libdevice.10.bc");
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("cannot load libdevice: /nonexistent/libdevice.10.bc"),
            std::string::npos);
}

TEST(CompileLLVMToPTX, RejectsInvalidIR) {
  llvm::LLVMContext context;
  auto module = parse(kCopyKernel, context);
  // A block without a terminator.
  module->getFunction("copy")->front().getTerminator()->eraseFromParent();
  PTXCodegenOptions options;
  options.gpu = gpu("sm_80");
  auto ptx = compileLLVMToPTX(*module, options);
  ASSERT_FALSE(bool(ptx));
  EXPECT_NE(llvm::toString(ptx.takeError()).find("invalid LLVM IR"),
            std::string::npos);
}

TEST(AssembleWithPtxas, ReportsAPtxasThatCannotRun) {
  PtxasOptions options;
  options.gpu = gpu("sm_80");
  options.ptxasPath = "/nonexistent/ptxas";
  std::string log;
  llvm::raw_string_ostream logStream(log);
  auto cubin = assembleWithPtxas(".version 9.0\n.target sm_80\n", options, logStream);
  ASSERT_FALSE(bool(cubin));
  EXPECT_NE(llvm::toString(cubin.takeError()).find("cannot execute ptxas"),
            std::string::npos);
}

/// Every --gpu-name tilepipe accepts, with its a and f variants.
static std::vector<std::string> everyGpuName() {
  std::vector<std::string> names;
  for (unsigned sm : supportedComputeCapabilities()) {
    std::string base = "sm_" + std::to_string(sm);
    names.push_back(base);
    if (sm >= 90)
      names.push_back(base + "a");
    if (sm >= 100)
      names.push_back(base + "f");
  }
  return names;
}

TEST(EverySupportedTarget, CompilesAndAssemblesWithTheToolkitPtxas) {
  auto ptxas = findCudaTool("ptxas");
  if (!ptxas) {
    llvm::consumeError(ptxas.takeError());
    GTEST_SKIP() << "no CUDA toolkit";
  }
  for (const std::string &name : everyGpuName()) {
    SCOPED_TRACE(name);
    llvm::LLVMContext context;
    auto module = parse(kSinKernel, context);
    PTXCodegenOptions codegen;
    codegen.gpu = gpu(name);
    auto ptx = compileLLVMToPTX(*module, codegen);
    ASSERT_TRUE(bool(ptx)) << llvm::toString(ptx.takeError());
    EXPECT_NE(ptx->find(".target " + name + "\n"), std::string::npos);

    PtxasOptions assemble;
    assemble.gpu = codegen.gpu;
    assemble.ptxasPath = *ptxas;
    std::string log;
    llvm::raw_string_ostream logStream(log);
    auto cubin = assembleWithPtxas(*ptx, assemble, logStream);
    ASSERT_TRUE(bool(cubin)) << llvm::toString(cubin.takeError()) << "\n" << log;
    EXPECT_EQ(cubin->compare(0, 4, "\x7f" "ELF"), 0);
  }
}
