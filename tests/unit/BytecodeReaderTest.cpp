//===- BytecodeReaderTest.cpp - TileIR bytecode to cuda_tile, hostile input -===//

#include "tilepipe/Bytecode/BytecodeReader.h"
#include "tilepipe/Bytecode/BytecodeWriter.h"
#include "tilepipe/Bytecode/ByteCursor.h"
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cstring>
#include <iostream>
#include <random>

using namespace tilepipe;

namespace {

/// Reads `data` in a fresh context, collecting the diagnostics.
struct ReadResult {
  BytecodeReadStatus status;
  std::string diagnostics;
  std::string printed;
};

ReadResult read(llvm::ArrayRef<uint8_t> data, bool debugInfo = false) {
  mlir::MLIRContext context;
  context.loadDialect<cuda_tile::CudaTileDialect>();
  ReadResult result;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    result.diagnostics += diag.str() + "\n";
    for (const mlir::Diagnostic &note : diag.getNotes())
      result.diagnostics += note.str() + "\n";
    return mlir::success();
  });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data.data()), data.size());
  auto module = readTileIRBytecode(llvm::MemoryBufferRef(bytes, "input"), &context,
                                   &result.status);
  if (succeeded(module)) {
    llvm::raw_string_ostream os(result.printed);
    mlir::OpPrintingFlags flags;
    if (debugInfo)
      flags.enableDebugInfo();
    (*module)->print(os, flags);
  }
  return result;
}

std::vector<uint8_t> load(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return {};
  return std::vector<uint8_t>((*buffer)->getBufferStart(),
                              (*buffer)->getBufferEnd());
}

std::vector<std::string> listDir(const char *dir, llvm::StringRef suffix) {
  std::vector<std::string> files;
  llvm::SmallString<256> path(TILEPIPE_SHARED_DIR);
  llvm::sys::path::append(path, dir);
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::StringRef(it->path()).ends_with(suffix))
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string shared(const char *relative) {
  llvm::SmallString<256> path(TILEPIPE_SHARED_DIR);
  llvm::sys::path::append(path, relative);
  return std::string(path);
}

/// The C++ twin of tests/bytecode/normalize-ssa.py --loose: numbers each
/// definition of a %value (results, block arguments, iter_values bindings) in
/// order and each use with its latest definition, so printers that reuse a
/// name in sibling regions compare equal; ignores blank runs, blanks before
/// commas and `cuda_tile.` op prefixes (exact layout is the dialect's test).
std::string normalize(llvm::StringRef text) {
  std::string out;
  llvm::StringMap<std::string> current;
  unsigned counter = 0;
  auto isNameChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
  };
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.rtrim();
    if (line.empty())
      continue;
    llvm::StringRef stripped = line.ltrim();
    size_t indent = line.size() - stripped.size();
    size_t lhsEnd = llvm::StringRef::npos;
    if (stripped.starts_with("%") && stripped.find(" = ") != llvm::StringRef::npos)
      lhsEnd = indent + stripped.find(" = ");
    std::string renamed;
    for (size_t i = 0; i < line.size();) {
      char c = line[i];
      if ((c != '%' && c != '^') || i + 1 >= line.size() || !isNameChar(line[i + 1])) {
        renamed += c;
        ++i;
        continue;
      }
      size_t end = i + 1;
      while (end < line.size() && isNameChar(line[end]))
        ++end;
      std::string name = line.slice(i, end).str();
      llvm::StringRef after = line.substr(end);
      llvm::StringRef before = line.take_front(i).rtrim();
      bool isDef = c == '%' &&
                   ((lhsEnd != llvm::StringRef::npos && i < lhsEnd) ||
                    after.starts_with(": ") ||
                    (after.starts_with(" = ") &&
                     (lhsEnd == llvm::StringRef::npos || i > lhsEnd) &&
                     (before.ends_with("(") || before.ends_with(","))));
      auto it = current.find(name);
      if (isDef || it == current.end())
        it = current.insert_or_assign(name, std::string(1, c) + "v" +
                                                std::to_string(counter++))
                 .first;
      renamed += it->second;
      i = end;
    }
    // Loose layout: collapse blank runs, drop blanks before commas and the
    // `cuda_tile.` prefix of op names.
    std::string cooked;
    llvm::StringRef r(renamed);
    for (size_t i = 0; i < r.size();) {
      if (r[i] == ' ' && !cooked.empty() &&
          cooked.find_first_not_of(' ') != std::string::npos) {
        size_t end = i;
        while (end < r.size() && r[end] == ' ')
          ++end;
        if (end < r.size() && r[end] == ',') {
          i = end;
          continue;
        }
        cooked += ' ';
        i = end;
        continue;
      }
      if (r.substr(i).starts_with("cuda_tile.") &&
          (i == 0 || !isNameChar(r[i - 1])) && i + 10 < r.size() &&
          llvm::isLower(r[i + 10])) {
        i += 10;
        continue;
      }
      cooked += r[i++];
    }
    out += cooked + "\n";
  }
  return out;
}

/// NVIDIA's printing of a corpus file: mlir/<name>.mlir, else
/// mlir/<stem>.<version>.mlir, else mlir/<stem>.mlir; empty if none (13.4).
std::string expectedPrinting(const std::string &path) {
  llvm::StringRef base = llvm::sys::path::stem(path);
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(path)));
  llvm::sys::path::append(dir, "mlir");
  llvm::StringRef stem = base.drop_back(5); // ".13.x"
  llvm::StringRef version = base.take_back(4);
  for (std::string candidate : {base.str(), (stem + "." + version).str(), stem.str()}) {
    llvm::SmallString<256> file(dir);
    llvm::sys::path::append(file, candidate + ".mlir");
    if (auto buffer = llvm::MemoryBuffer::getFile(file))
      return (*buffer)->getBuffer().str();
  }
  return {};
}

/// Globs of tests/bytecode/known-dialect-gaps.txt (corpus-relative paths).
/// The file's text is kept alive: a GlobPattern refers to its pattern text.
std::vector<llvm::GlobPattern> knownPrinterGaps() {
  static std::unique_ptr<llvm::MemoryBuffer> text;
  std::vector<llvm::GlobPattern> globs;
  llvm::SmallString<256> path(TILEPIPE_SOURCE_DIR);
  llvm::sys::path::append(path, "tests", "bytecode", "known-dialect-gaps.txt");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return globs;
  text = std::move(*buffer);
  llvm::SmallVector<llvm::StringRef> lines;
  text->getBuffer().split(lines, '\n');
  for (llvm::StringRef line : lines) {
    llvm::StringRef glob = line.split('#').first.trim();
    if (glob.empty())
      continue;
    auto pattern = llvm::GlobPattern::create(glob);
    if (pattern)
      globs.push_back(std::move(*pattern));
    else
      ADD_FAILURE() << "bad glob in known-dialect-gaps.txt: "
                    << llvm::toString(pattern.takeError());
  }
  return globs;
}

TEST(BytecodeReader, EveryCorpusFileReadsAsNvidiaPrintsIt) {
  unsigned compared = 0, matched = 0, knownGaps = 0, listedButMatching = 0;
  std::vector<llvm::GlobPattern> gaps = knownPrinterGaps();
  std::string corpusRoot = shared("corpus/");
  for (const char *dir : {"corpus/cutile/bytecode", "corpus/oracle/bytecode"})
    for (const std::string &path : listDir(dir, ".tileirbc")) {
      ReadResult result = read(load(path));
      llvm::StringRef relative =
          llvm::StringRef(path).drop_front(corpusRoot.size()).ltrim('/');
      bool listed = llvm::any_of(
          gaps, [&](const llvm::GlobPattern &g) { return g.match(relative); });
      if (result.status != BytecodeReadStatus::Success) {
        if (listed) {
          ++knownGaps;
          continue;
        }
        ADD_FAILURE() << path << " does not read:\n" << result.diagnostics;
        continue;
      }
      std::string expected = expectedPrinting(path);
      if (expected.empty())
        continue;
      ++compared;
      std::string want = normalize(expected), got = normalize(result.printed);
      if (want == got) {
        ++matched;
        listedButMatching += listed;
        continue;
      }
      if (listed) {
        ++knownGaps;
        continue;
      }
      // Report the first differing line only: the whole module is noise.
      llvm::SmallVector<llvm::StringRef> a, b;
      llvm::StringRef(want).split(a, '\n');
      llvm::StringRef(got).split(b, '\n');
      size_t line = 0;
      while (line < a.size() && line < b.size() && a[line] == b[line])
        ++line;
      ADD_FAILURE() << path << " differs at line " << line + 1 << "\n  NVIDIA: "
                    << (line < a.size() ? a[line] : "<end>").str()
                    << "\n  ours:   " << (line < b.size() ? b[line] : "<end>").str();
    }
  std::cout << "corpus files compared with NVIDIA's printing: " << compared
            << ", identical: " << matched
            << ", known dialect gaps: " << knownGaps
            << " (listed in known-dialect-gaps.txt but matching: "
            << listedButMatching << ")\n";
}

TEST(BytecodeReader, DebugInfoReadsAsNvidiaPrintsIt) {
  unsigned compared = 0;
  for (const std::string &expectedPath :
       listDir("corpus/oracle/mlir", ".dbg.mlir")) {
    llvm::StringRef stem = llvm::sys::path::filename(expectedPath);
    stem = stem.drop_back(strlen(".dbg.mlir"));
    std::string bytecode =
        shared("corpus/oracle/bytecode/") + stem.str() + ".13.3.tileirbc";
    if (!llvm::sys::fs::exists(bytecode))
      continue;
    ReadResult result = read(load(bytecode), /*debugInfo=*/true);
    ASSERT_EQ(result.status, BytecodeReadStatus::Success) << result.diagnostics;
    auto expected = llvm::MemoryBuffer::getFile(expectedPath);
    ASSERT_TRUE(bool(expected));
    EXPECT_EQ(normalize((*expected)->getBuffer()), normalize(result.printed))
        << bytecode;
    ++compared;
  }
  EXPECT_GT(compared, 0u);
}

TEST(BytecodeReader, LegacyPrintTakesNoValueNumber) {
  ReadResult result = read(load(shared(
      "corpus/oracle/invalid-or-legacy/print-op-13.1.tileirbc")));
  ASSERT_EQ(result.status, BytecodeReadStatus::Success) << result.diagnostics;
  EXPECT_NE(result.printed.find("print_tko"), std::string::npos);
}

TEST(BytecodeReader, VersionAndMagicFailuresAreExitThree) {
  ReadResult magic = read(load(shared(
      "corpus/oracle/invalid-or-legacy/invalid_magic_number.tileirbc")));
  EXPECT_EQ(magic.status, BytecodeReadStatus::NotTileIR);
  EXPECT_EQ(exitCodeFor(magic.status), 3);
  ReadResult version = read(load(shared(
      "corpus/oracle/invalid-or-legacy/unsupported_version.tileirbc")));
  EXPECT_EQ(version.status, BytecodeReadStatus::UnsupportedVersion);
  EXPECT_NE(version.diagnostics.find("unsupported Tile version 18.0.0, this "
                                     "reader supports versions [13.1 - 13.4]"),
            std::string::npos);
}

/// A minimal 13.1 file: one kernel `k` with no arguments whose body is
/// `body`, and a type table given by `types` (entry bytes each).
std::vector<uint8_t> makeFile(std::vector<std::vector<uint8_t>> types,
                              std::vector<uint8_t> body, uint64_t signature) {
  using bytecode::appendVarint;
  std::vector<uint8_t> file = {0x7f, 'T', 'i', 'l', 'e', 'I', 'R', 0, 13, 1, 0, 0};
  auto section = [&](uint8_t id, unsigned align, std::vector<uint8_t> payload) {
    file.push_back(id | 0x80);
    appendVarint(file, payload.size());
    appendVarint(file, align);
    while (file.size() % align)
      file.push_back(0xcb);
    file.insert(file.end(), payload.begin(), payload.end());
  };
  // Function section: name 0, signature, flags = kernel, no debug info.
  std::vector<uint8_t> func = {1, 0};
  appendVarint(func, signature);
  func.push_back(2);
  func.push_back(0);
  appendVarint(func, body.size());
  func.insert(func.end(), body.begin(), body.end());
  section(2, 8, func);
  // Type section: count, pad to 4 (payload starts aligned), offsets, entries.
  std::vector<uint8_t> type;
  appendVarint(type, types.size());
  while (type.size() % 4)
    type.push_back(0xcb);
  uint32_t offset = 0;
  for (auto &entry : types) {
    for (int i = 0; i < 4; ++i)
      type.push_back(uint8_t(offset >> (8 * i)));
    offset += entry.size();
  }
  for (auto &entry : types)
    type.insert(type.end(), entry.begin(), entry.end());
  section(5, 4, type);
  section(1, 4, {1, 0xcb, 0xcb, 0xcb, 0, 0, 0, 0, 'k'});
  file.push_back(0);
  return file;
}

TEST(BytecodeReader, HandMadeFileReads) {
  // types: 0 = () -> (), body: return (opcode 0x5C, 0 operands).
  ReadResult ok = read(makeFile({{16, 0, 0}}, {0x5C, 0, 0}, 0));
  ASSERT_EQ(ok.status, BytecodeReadStatus::Success) << ok.diagnostics;
  EXPECT_NE(ok.printed.find("entry @k"), std::string::npos) << ok.printed;
}

TEST(BytecodeReader, CyclicTypesAreRejected) {
  // type 1 = ptr<type 2>, type 2 = ptr<type 1>; a make_token-free body that
  // names type 1 as a block argument type would loop forever without checks.
  ReadResult cyclic = read(makeFile({{16, 1, 1, 0}, {12, 2}, {12, 1}},
                                    {0x5C, 0, 0}, 0));
  EXPECT_EQ(cyclic.status, BytecodeReadStatus::Malformed);
  EXPECT_NE(cyclic.diagnostics.find("cyclic type reference"), std::string::npos)
      << cyclic.diagnostics;
}

TEST(BytecodeReader, DeepRegionNestingIsCapped) {
  // 200 nested `loop` ops: opcode, 0 results, 0 operands, 1 region, 1 block,
  // 0 args, 1 op ... never closed; must fail cleanly, not overflow the stack.
  std::vector<uint8_t> body;
  for (int i = 0; i < 200; ++i)
    body.insert(body.end(), {0x41, 0, 0, 1, 1, 0, 1});
  ReadResult deep = read(makeFile({{16, 0, 0}}, body, 0));
  EXPECT_EQ(deep.status, BytecodeReadStatus::Malformed);
  EXPECT_NE(deep.diagnostics.find("nesting"), std::string::npos) << deep.diagnostics;
}

TEST(BytecodeReader, TruncationsAndFlipsNeverCrash) {
  auto files = listDir("corpus/cutile/bytecode", ".13.3.tileirbc");
  ASSERT_FALSE(files.empty());
  std::mt19937 rng(4321);
  for (size_t f = 0; f < files.size(); f += files.size() / 3 + 1) {
    std::vector<uint8_t> data = load(files[f]);
    for (size_t cut = 0; cut < data.size(); cut += 1 + cut / 64) {
      ReadResult result = read(llvm::ArrayRef<uint8_t>(data).take_front(cut));
      EXPECT_NE(result.status, BytecodeReadStatus::Success) << files[f] << " @" << cut;
      EXPECT_FALSE(result.diagnostics.empty());
    }
    for (int round = 0; round < 200; ++round) {
      std::vector<uint8_t> mutated = data;
      for (int k = 0; k < 2; ++k)
        mutated[rng() % mutated.size()] = uint8_t(rng());
      ReadResult result = read(mutated);
      if (result.status != BytecodeReadStatus::Success) {
        EXPECT_FALSE(result.diagnostics.empty());
      }
    }
  }
}

} // namespace

namespace {

/// Reads, writes at `version`, and returns the second reading's printout or
/// the writer's diagnostics.
struct RoundTrip {
  bool readable = false;
  bool written = false;
  std::string diagnostics;
  std::string first, second;
};

RoundTrip roundTrip(llvm::ArrayRef<uint8_t> data, bytecode::Version version) {
  RoundTrip result;
  ReadResult original = read(data);
  result.first = original.printed;
  if (original.status != BytecodeReadStatus::Success) {
    result.diagnostics = original.diagnostics;
    return result;
  }
  result.readable = true;
  mlir::MLIRContext context;
  context.loadDialect<cuda_tile::CudaTileDialect>();
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    result.diagnostics += diag.str() + "\n";
    return mlir::success();
  });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data.data()), data.size());
  auto module = readTileIRBytecode(llvm::MemoryBufferRef(bytes, "input"), &context);
  if (failed(module))
    return result;
  std::string encoded;
  llvm::raw_string_ostream os(encoded);
  if (failed(writeTileIRBytecode(module->get(), version, os)))
    return result;
  result.written = true;
  ReadResult again = read(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(encoded.data()), encoded.size()));
  result.second = again.printed;
  result.diagnostics += again.diagnostics;
  return result;
}

TEST(BytecodeWriter, SameVersionRoundTripIsExact) {
  for (const char *dir : {"corpus/cutile/bytecode", "corpus/oracle/bytecode"})
    for (const std::string &path : listDir(dir, ".tileirbc")) {
      llvm::StringRef name = llvm::sys::path::stem(path);
      std::optional<bytecode::Version> version =
          bytecode::parseVersion(name.substr(name.size() - 4));
      ASSERT_TRUE(version.has_value()) << path;
      RoundTrip result = roundTrip(load(path), *version);
      if (!result.readable)
        continue; // reading failures are reported by the reader tests
      EXPECT_TRUE(result.written) << path << "\n" << result.diagnostics;
      EXPECT_EQ(result.first, result.second) << path << "\n" << result.diagnostics;
    }
}

TEST(BytecodeWriter, LowerVersionsWriteOrRefuseClearly) {
  for (const std::string &path :
       listDir("corpus/oracle/bytecode", ".13.3.tileirbc")) {
    for (unsigned minor : {1u, 2u}) {
      bytecode::Version version;
      version.minor = minor;
      RoundTrip result = roundTrip(load(path), version);
      if (!result.readable)
        continue;
      if (result.written) {
        EXPECT_FALSE(result.second.empty()) << path << "\n" << result.diagnostics;
      } else {
        EXPECT_NE(result.diagnostics.find("cannot write TileIR bytecode 13." +
                                          std::to_string(minor)),
                  std::string::npos)
            << path << "\n" << result.diagnostics;
      }
    }
  }
}

} // namespace

namespace {

TEST(BytecodeReader, RegressionsNeverCrash) {
  llvm::SmallString<256> dir(TILEPIPE_SOURCE_DIR);
  llvm::sys::path::append(dir, "tests", "bytecode", "regressions");
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    if (llvm::sys::path::filename(it->path()) == "README.md")
      continue;
    ReadResult result = read(load(it->path()));
    if (result.status != BytecodeReadStatus::Success) {
      EXPECT_FALSE(result.diagnostics.empty()) << it->path();
    }
  }
}

} // namespace
