//===- SupportTest.cpp - Units of libcommon/Support -----------------------===//
#include "tilepipe/Support/CudaToolkit.h"
#include "tilepipe/Support/GpuTarget.h"
#include "tilepipe/Support/InputKind.h"
#include "tilepipe/Support/ToolIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tilepipe;

TEST(GpuTarget, AcceptsEverySupportedTarget) {
  for (unsigned sm : supportedComputeCapabilities()) {
    auto target = parseGpuTarget("sm_" + std::to_string(sm));
    ASSERT_TRUE(bool(target)) << llvm::toString(target.takeError());
    EXPECT_EQ(target->sm, sm);
    EXPECT_EQ(target->suffix, 0);
  }
}

TEST(GpuTarget, Suffixes) {
  auto a = parseGpuTarget("sm_90a");
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(a->name(), "sm_90a");
  EXPECT_EQ(a->baseName(), "sm_90");
  auto f = parseGpuTarget("sm_100f");
  ASSERT_TRUE(bool(f));
  EXPECT_EQ(f->suffix, 'f');
  // No arch-specific Ampere, no family before Blackwell.
  EXPECT_FALSE(bool(parseGpuTarget("sm_80a")));
  llvm::consumeError(parseGpuTarget("sm_80a").takeError());
  auto bad = parseGpuTarget("sm_90f");
  EXPECT_FALSE(bool(bad));
  llvm::consumeError(bad.takeError());
}

TEST(GpuTarget, RejectsUnknownNames) {
  for (const char *name : {"", "sm_", "sm_75", "sm_90x", "compute_90", "90",
                           "sm_1000", "sm_-1"}) {
    auto target = parseGpuTarget(name);
    EXPECT_FALSE(bool(target)) << name;
    if (!target) {
      std::string message = llvm::toString(target.takeError());
      EXPECT_NE(message.find("unsupported GPU target"), std::string::npos);
    }
  }
}

TEST(GpuTarget, OptLevels) {
  for (int level = 0; level <= 3; ++level)
    EXPECT_FALSE(bool(checkOptLevel(level)));
  for (int level : {-1, 4, 100}) {
    llvm::Error err = checkOptLevel(level);
    EXPECT_TRUE(bool(err));
    EXPECT_EQ(llvm::toString(std::move(err)), "invalid optimization level");
  }
}

TEST(InputKind, Classifies) {
  EXPECT_EQ(classifyInput(llvm::StringRef("\x7FTileIR\0\x0D\x01\0\0", 12)),
            InputKind::TileIRBytecode);
  EXPECT_EQ(classifyInput("ML\xEFR\x06"), InputKind::MLIRBytecode);
  EXPECT_EQ(classifyInput("cuda_tile.module @kernels {\n}\n"),
            InputKind::MLIRText);
  EXPECT_EQ(classifyInput("// a comment\n  module {}"), InputKind::MLIRText);
  EXPECT_EQ(classifyInput("#map = affine_map<(d0) -> (d0)>"),
            InputKind::MLIRText);
  EXPECT_EQ(classifyInput(""), InputKind::MLIRText);
  EXPECT_EQ(classifyInput("hello world"), InputKind::Unknown);
  EXPECT_EQ(classifyInput(llvm::StringRef("\x7FTileIR", 7)), InputKind::Unknown);
  EXPECT_EQ(classifyInput(llvm::StringRef("module\0", 7)), InputKind::Unknown);
}

TEST(Zstd, RoundTrip) {
  std::string data;
  for (int i = 0; i < 10000; ++i)
    data += "tile<" + std::to_string(i) + "xf32>\n";
  auto packed = zstdCompress(data);
  ASSERT_TRUE(bool(packed));
  EXPECT_TRUE(isZstdFrame(*packed));
  EXPECT_LT(packed->size(), data.size());
  auto unpacked = zstdDecompress(*packed);
  ASSERT_TRUE(bool(unpacked));
  EXPECT_EQ(*unpacked, data);
}

TEST(Zstd, RejectsCorruptTruncatedAndOversized) {
  auto packed = zstdCompress(std::string(100000, 'x'));
  ASSERT_TRUE(bool(packed));
  auto truncated = zstdDecompress(llvm::StringRef(*packed).drop_back(3));
  EXPECT_FALSE(bool(truncated));
  llvm::consumeError(truncated.takeError());
  std::string corrupt = *packed;
  corrupt[corrupt.size() / 2] ^= 0x5A;
  corrupt[4] ^= 0xFF;
  auto bad = zstdDecompress(corrupt);
  EXPECT_FALSE(bool(bad));
  llvm::consumeError(bad.takeError());
  auto capped = zstdDecompress(*packed, /*maxSize=*/1000);
  ASSERT_FALSE(bool(capped));
  EXPECT_NE(llvm::toString(capped.takeError()).find("too large"),
            std::string::npos);
}

/// A scratch directory removed at the end of the test.
struct ScratchDir {
  llvm::SmallString<128> path;
  ScratchDir() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tp", path)); }
  ~ScratchDir() { llvm::sys::fs::remove_directories(path); }
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return p.str().str();
  }
};

TEST(ToolIO, WritesAtomicallyAndReadsBackZstd) {
  ScratchDir dir;
  OutputOptions output;
  output.path = dir.file("out.mlir.zst");
  ASSERT_FALSE(bool(writeOutput(output, "module {}\n")));
  auto buffer = readInputFile(output.path);
  ASSERT_TRUE(bool(buffer));
  EXPECT_EQ((*buffer)->getBuffer(), "module {}\n");
  // Nothing but the output is left in the directory.
  std::error_code ec;
  int entries = 0;
  for (llvm::sys::fs::directory_iterator it(dir.path, ec), end;
       it != end && !ec; it.increment(ec))
    ++entries;
  EXPECT_EQ(entries, 1);
}

TEST(ToolIO, UnwritableOutputLeavesNothing) {
  ScratchDir dir;
  OutputOptions output;
  output.path = dir.file("missing-dir/out.mlir");
  llvm::Error err = writeOutput(output, "x");
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("cannot write"),
            std::string::npos);
  EXPECT_FALSE(llvm::sys::fs::exists(output.path));
}

TEST(ToolIO, MissingInput) {
  auto buffer = readInputFile("/nonexistent/tilepipe-input");
  ASSERT_FALSE(bool(buffer));
  EXPECT_NE(llvm::toString(buffer.takeError()).find("cannot read"),
            std::string::npos);
}

TEST(CudaToolkit, FindsToolsUnderCudaHome) {
  ScratchDir dir;
  ASSERT_FALSE(llvm::sys::fs::create_directories(dir.file("bin")));
  ASSERT_FALSE(llvm::sys::fs::create_directories(dir.file("nvvm/libdevice")));
  std::string fake = dir.file("bin/ptxas-fake-tool");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(fake, ec);
    os << "#!/bin/sh\n";
  }
  llvm::sys::fs::setPermissions(fake, llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_all);
  { std::error_code ec; llvm::raw_fd_ostream os(dir.file("nvvm/libdevice/libdevice.10.bc"), ec); }
  setenv("CUDA_HOME", dir.path.c_str(), 1);
  auto tool = findCudaTool("ptxas-fake-tool");
  ASSERT_TRUE(bool(tool)) << llvm::toString(tool.takeError());
  EXPECT_EQ(*tool, fake);
  auto libdevice = findLibdevice();
  ASSERT_TRUE(bool(libdevice));
  EXPECT_EQ(*libdevice, dir.file("nvvm/libdevice/libdevice.10.bc"));
  unsetenv("CUDA_HOME");

  // Nowhere to be found: the message says where we looked.
  setenv("TILEPIPE_DEFAULT_CUDA_ROOT", "", 1);
  auto missing = findCudaTool("tilepipe-no-such-tool");
  ASSERT_FALSE(bool(missing));
  std::string message = llvm::toString(missing.takeError());
  EXPECT_NE(message.find("cannot find 'tilepipe-no-such-tool'"), std::string::npos);
  EXPECT_NE(message.find("$PATH"), std::string::npos);
  unsetenv("TILEPIPE_DEFAULT_CUDA_ROOT");
}
