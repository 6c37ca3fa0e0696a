//===- BytecodeWireTest.cpp - The dialect-free bytecode wire layer --------===//

#include "tilepipe/Bytecode/WireFormat.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <random>

using namespace tilepipe::bytecode;

namespace {

std::vector<uint8_t> bytes(std::initializer_list<int> list) {
  std::vector<uint8_t> out;
  for (int b : list)
    out.push_back(uint8_t(b));
  return out;
}

TEST(ByteCursor, VarintRoundTrip) {
  WireDiagnostic diag;
  for (uint64_t value : {0ull, 1ull, 127ull, 128ull, 300ull, ~0ull}) {
    std::vector<uint8_t> buffer;
    appendVarint(buffer, value);
    ByteCursor cursor(buffer, 0, diag);
    uint64_t read = 0;
    ASSERT_TRUE(succeeded(cursor.readVarint(read)));
    EXPECT_EQ(read, value);
    EXPECT_TRUE(cursor.atEnd());
  }
  for (int64_t value : {int64_t(0), int64_t(-1), int64_t(63), int64_t(-64),
                        INT64_MIN, INT64_MAX}) {
    std::vector<uint8_t> buffer;
    appendSignedVarint(buffer, value);
    ByteCursor cursor(buffer, 0, diag);
    int64_t read = 0;
    ASSERT_TRUE(succeeded(cursor.readSignedVarint(read)));
    EXPECT_EQ(read, value);
  }
  EXPECT_FALSE(diag.hasError());
}

TEST(ByteCursor, VarintOverflowAndTruncation) {
  WireDiagnostic diag;
  auto tooLong = bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f});
  ByteCursor cursor(tooLong, 0, diag);
  uint64_t value;
  EXPECT_TRUE(failed(cursor.readVarint(value)));
  EXPECT_NE(diag.message().find("varint exceeds 64 bits"), std::string::npos);

  WireDiagnostic diag2;
  auto truncated = bytes({0x80, 0x80});
  ByteCursor cursor2(truncated, 0, diag2);
  EXPECT_TRUE(failed(cursor2.readVarint(value)));
  EXPECT_EQ(diag2.message(),
            "error at offset 0: unexpected end of data while reading a varint");
}

TEST(ByteCursor, CountsAreCheckedAgainstRemainingBytes) {
  WireDiagnostic diag;
  // A count of 2^62 i64 elements in a 12-byte buffer must not allocate.
  std::vector<uint8_t> buffer;
  appendVarint(buffer, uint64_t(1) << 62);
  buffer.resize(buffer.size() + 3, 0);
  ByteCursor cursor(buffer, 0, diag);
  llvm::SmallVector<int64_t> values;
  EXPECT_TRUE(failed(cursor.readI64Array(values)));
  EXPECT_NE(diag.message().find("exceeds remaining data size"), std::string::npos);
}

TEST(ByteCursor, AlignmentIsMeasuredFromTheFileStart) {
  WireDiagnostic diag;
  auto buffer = bytes({0xcb, 0xcb, 0xcb, 0x05});
  ByteCursor cursor(buffer, /*absoluteStart=*/13, diag);
  ASSERT_TRUE(succeeded(cursor.alignTo(16)));
  EXPECT_EQ(cursor.offset(), 3u);
  EXPECT_TRUE(failed(cursor.alignTo(3)));
}

ReadFailure parse(llvm::ArrayRef<uint8_t> file, WireDiagnostic &diag) {
  WireModule module;
  ReadFailure kind;
  (void)parseWireModule(file, module, diag, kind);
  return kind;
}

TEST(WireModule, HeaderChecks) {
  WireDiagnostic diag;
  EXPECT_EQ(parse(bytes({0x7e, 'T', 'i', 'l'}), diag), ReadFailure::NotTileIR);
  EXPECT_EQ(diag.message(), "error at offset 0: invalid magic number at position "
                            "0, got 126 expected 127");

  WireDiagnostic mlir;
  EXPECT_EQ(parse(bytes({'M', 'L', 0xef, 'R', 0, 0}), mlir), ReadFailure::NotTileIR);
  EXPECT_NE(mlir.render().find("looks like MLIR bytecode"), std::string::npos);

  WireDiagnostic version;
  EXPECT_EQ(parse(bytes({0x7f, 'T', 'i', 'l', 'e', 'I', 'R', 0, 13, 5, 0, 0}),
                  version),
            ReadFailure::UnsupportedVersion);
  EXPECT_NE(version.message().find("unsupported Tile version 13.5.0, this reader "
                                   "supports versions [13.1 - 13.4]"),
            std::string::npos);

  WireDiagnostic header;
  EXPECT_EQ(parse(bytes({0x7f, 'T', 'i', 'l', 'e', 'I', 'R', 0, 13}), header),
            ReadFailure::Malformed);
}

TEST(WireModule, SectionTableChecks) {
  auto file = bytes({0x7f, 'T', 'i', 'l', 'e', 'I', 'R', 0, 13, 1, 0, 0});
  auto withTail = [&](std::initializer_list<int> tail) {
    auto out = file;
    for (int b : tail)
      out.push_back(uint8_t(b));
    return out;
  };
  WireDiagnostic d1;
  EXPECT_EQ(parse(withTail({0x7f}), d1), ReadFailure::Malformed);
  EXPECT_EQ(d1.message(), "error at offset 12: unknown section ID: 127");
  WireDiagnostic d2;
  parse(withTail({0x00, 0xff}), d2);
  EXPECT_EQ(d2.message(), "error at offset 12: end section is not the last section");
  WireDiagnostic d3;
  parse(withTail({0x01, 0x7f}), d3);
  EXPECT_NE(d3.message().find("section length 127 exceeds remaining data size 0"),
            std::string::npos);
  WireDiagnostic d4;
  parse(withTail({0x00}), d4);
  EXPECT_NE(d4.message().find("string section is mandatory"), std::string::npos);
  WireDiagnostic d5;
  parse(withTail({}), d5);
  EXPECT_NE(d5.message().find("missing end section"), std::string::npos);
}

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  for (const char *dir : {"corpus/cutile/bytecode", "corpus/oracle/bytecode"}) {
    llvm::SmallString<256> path(TILEPIPE_SHARED_DIR);
    llvm::sys::path::append(path, dir);
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec))
      if (llvm::StringRef(it->path()).ends_with(".tileirbc"))
        files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(WireModule, EveryCorpusFileDecodes) {
  auto files = corpusFiles();
  ASSERT_GT(files.size(), 100u);
  for (const std::string &path : files) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(bool(buffer)) << path;
    llvm::ArrayRef<uint8_t> data(
        reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
        (*buffer)->getBufferSize());
    WireModule module;
    WireDiagnostic diag;
    ReadFailure kind;
    EXPECT_TRUE(succeeded(parseWireModule(data, module, diag, kind)))
        << path << ": " << diag.render();
  }
}

TEST(WireModule, TruncationsAndFlipsNeverCrash) {
  auto files = corpusFiles();
  ASSERT_FALSE(files.empty());
  std::mt19937 rng(1234);
  for (size_t f = 0; f < files.size(); f += files.size() / 5 + 1) {
    auto buffer = llvm::MemoryBuffer::getFile(files[f]);
    ASSERT_TRUE(bool(buffer));
    std::vector<uint8_t> data((*buffer)->getBufferStart(),
                              (*buffer)->getBufferEnd());
    for (size_t cut = 0; cut < data.size(); ++cut) {
      WireDiagnostic diag;
      ReadFailure kind = parse(llvm::ArrayRef<uint8_t>(data).take_front(cut), diag);
      EXPECT_NE(kind, ReadFailure::None) << files[f] << " cut at " << cut;
      EXPECT_TRUE(diag.hasError());
    }
    for (int round = 0; round < 300; ++round) {
      std::vector<uint8_t> mutated = data;
      for (int k = 0; k < 3; ++k)
        mutated[rng() % mutated.size()] = uint8_t(rng());
      WireDiagnostic diag;
      ReadFailure kind = parse(mutated, diag);
      EXPECT_EQ(kind == ReadFailure::None, !diag.hasError());
    }
  }
}

} // namespace
