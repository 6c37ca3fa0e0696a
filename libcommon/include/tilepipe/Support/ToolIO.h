//===- ToolIO.h - Input and output files of the stage tools ---------------===//
//
// Every tool reads one input (a file, or stdin for "-" / no operand) and writes
// one output (stdout, or -o FILE). Outputs are built in memory and written in
// one piece on success: a file goes to a temporary name beside the target and
// is renamed over it, so a failed or interrupted run leaves nothing behind.
// zstd is transparent on both sides.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_SUPPORT_TOOLIO_H
#define TILEPIPE_SUPPORT_TOOLIO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace tilepipe {

/// True when `data` starts with the zstd frame magic (28 B5 2F FD).
bool isZstdFrame(llvm::StringRef data);

/// Decompresses a complete zstd stream. Refuses outputs larger than
/// `maxSize` bytes so that a hostile frame cannot exhaust memory.
llvm::Expected<std::string> zstdDecompress(llvm::StringRef data,
                                           size_t maxSize = size_t(1) << 32);
/// Compresses `data` into one zstd frame.
llvm::Expected<std::string> zstdCompress(llvm::StringRef data, int level = 3);

/// Reads `path` ("-" = stdin) completely; zstd input is decompressed. The
/// buffer's identifier is the path (or "<stdin>").
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path);

/// Writes a complete output in one piece. `path` "-" means stdout.
struct OutputOptions {
  std::string path = "-";
  /// The payload is binary (MLIR bytecode, LLVM bitcode, cubin, zstd): refuse
  /// a terminal unless `force`.
  bool binary = false;
  bool force = false;
  /// Compress with zstd (also implied by a ".zst" output path).
  bool zstd = false;
};

/// Checks, before any work is done, that the output can be produced at all
/// (binary to a terminal, ...). Returns a message on refusal.
llvm::Error checkOutputAllowed(const OutputOptions &options);

/// Writes `contents` according to `options`: temp file + rename, or stdout.
llvm::Error writeOutput(const OutputOptions &options, llvm::StringRef contents);

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_TOOLIO_H
