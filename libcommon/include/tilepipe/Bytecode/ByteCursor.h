//===- ByteCursor.h - Bounds-checked reading of TileIR bytecode -----------===//
//
// Every read of untrusted bytes goes through a ByteCursor: it never reads past
// its buffer, never allocates from an unchecked count, and reports the first
// failure as `error at offset N: ...` where N is the offset inside the buffer
// being read (file, section payload or function body), as NVIDIA's reader does.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_BYTECODE_BYTECURSOR_H
#define TILEPIPE_BYTECODE_BYTECURSOR_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tilepipe {
namespace bytecode {

using mlir::failure;
using mlir::LogicalResult;
using mlir::success;

/// The first error of a read plus the chain of contexts it happened in
/// ("failed to parse function section", ...). Later errors are ignored so
/// that the primary message is always the root cause.
class WireDiagnostic {
public:
  bool hasError() const { return failed; }
  /// Records `error at offset N: message` unless an error is already recorded.
  void error(uint64_t offset, const llvm::Twine &message);
  /// Records an error without an offset (used for semantic checks).
  void errorNoOffset(const llvm::Twine &message);
  /// Adds an outer context line; only meaningful after an error.
  void addContext(const llvm::Twine &context);
  const std::string &message() const { return primary; }
  const std::vector<std::string> &contexts() const { return contextLines; }
  /// Primary message and contexts joined by newlines.
  std::string render() const;
  void clear();

private:
  bool failed = false;
  std::string primary;
  std::vector<std::string> contextLines;
};

/// A read position inside one buffer. `absoluteStart` is the file offset of
/// byte 0 of the buffer: alignment padding is measured from the file start.
class ByteCursor {
public:
  ByteCursor(llvm::ArrayRef<uint8_t> bytes, uint64_t absoluteStart,
             WireDiagnostic &diag)
      : bytes(bytes), absoluteStart(absoluteStart), diag(&diag) {}

  size_t offset() const { return pos; }
  size_t size() const { return bytes.size(); }
  size_t remaining() const { return bytes.size() - pos; }
  bool atEnd() const { return pos >= bytes.size(); }
  uint64_t absoluteOffset() const { return absoluteStart + pos; }
  llvm::ArrayRef<uint8_t> buffer() const { return bytes; }
  WireDiagnostic &diagnostic() const { return *diag; }

  /// Records an error at the current offset; always returns failure.
  LogicalResult fail(const llvm::Twine &message) const;
  /// Records an error at a given offset inside this buffer.
  LogicalResult failAt(size_t at, const llvm::Twine &message) const;

  LogicalResult readByte(uint8_t &value);
  LogicalResult readLE32(uint32_t &value);
  LogicalResult readLE64(uint64_t &value);
  /// Unsigned LEB128, at most 64 bits.
  LogicalResult readVarint(uint64_t &value);
  /// Zigzag-encoded signed LEB128.
  LogicalResult readSignedVarint(int64_t &value);
  /// A varint that must be <= `max`; `what` names it in the diagnostic.
  LogicalResult readBoundedVarint(uint64_t &value, uint64_t max,
                                  llvm::StringRef what);
  /// A count of elements that each take at least `minElementBytes` bytes: it
  /// must fit in the remaining bytes, so no caller allocates from a hostile count.
  LogicalResult readCount(uint64_t &count, size_t minElementBytes,
                          llvm::StringRef what);
  LogicalResult readBytes(size_t count, llvm::ArrayRef<uint8_t> &out);
  /// Skips padding so that the absolute offset is a multiple of `alignment`.
  LogicalResult alignTo(uint64_t alignment);
  /// i32[] / i64[]: varint count, then LE values.
  LogicalResult readI32Array(llvm::SmallVectorImpl<int32_t> &values);
  LogicalResult readI64Array(llvm::SmallVectorImpl<int64_t> &values);

  /// A cursor over `length` bytes starting here; advances this cursor past them.
  LogicalResult split(size_t length, ByteCursor &sub);

private:
  llvm::ArrayRef<uint8_t> bytes;
  uint64_t absoluteStart;
  WireDiagnostic *diag;
  size_t pos = 0;
};

/// Appends LEB128 / zigzag encodings (shared with the writer).
void appendVarint(std::vector<uint8_t> &out, uint64_t value);
void appendSignedVarint(std::vector<uint8_t> &out, int64_t value);

} // namespace bytecode
} // namespace tilepipe

#endif // TILEPIPE_BYTECODE_BYTECURSOR_H
