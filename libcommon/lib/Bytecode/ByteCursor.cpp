//===- ByteCursor.cpp - Bounds-checked reading of TileIR bytecode ---------===//

#include "tilepipe/Bytecode/ByteCursor.h"

#include "llvm/Support/MathExtras.h"

using namespace tilepipe::bytecode;

void WireDiagnostic::error(uint64_t offset, const llvm::Twine &message) {
  if (failed)
    return;
  failed = true;
  primary = ("error at offset " + llvm::Twine(offset) + ": " + message).str();
}

void WireDiagnostic::errorNoOffset(const llvm::Twine &message) {
  if (failed)
    return;
  failed = true;
  primary = message.str();
}

void WireDiagnostic::addContext(const llvm::Twine &context) {
  if (failed)
    contextLines.push_back(context.str());
}

std::string WireDiagnostic::render() const {
  std::string text = primary;
  for (const std::string &line : contextLines)
    text += "\n" + line;
  return text;
}

void WireDiagnostic::clear() {
  failed = false;
  primary.clear();
  contextLines.clear();
}

LogicalResult ByteCursor::fail(const llvm::Twine &message) const {
  return failAt(pos, message);
}

LogicalResult ByteCursor::failAt(size_t at, const llvm::Twine &message) const {
  diag->error(at, message);
  return failure();
}

LogicalResult ByteCursor::readByte(uint8_t &value) {
  if (atEnd())
    return fail("unexpected end of data while reading a byte");
  value = bytes[pos++];
  return success();
}

LogicalResult ByteCursor::readLE32(uint32_t &value) {
  if (remaining() < 4)
    return fail("unexpected end of data while reading a 4-byte integer");
  value = 0;
  for (unsigned i = 0; i < 4; ++i)
    value |= uint32_t(bytes[pos + i]) << (8 * i);
  pos += 4;
  return success();
}

LogicalResult ByteCursor::readLE64(uint64_t &value) {
  if (remaining() < 8)
    return fail("unexpected end of data while reading an 8-byte integer");
  value = 0;
  for (unsigned i = 0; i < 8; ++i)
    value |= uint64_t(bytes[pos + i]) << (8 * i);
  pos += 8;
  return success();
}

LogicalResult ByteCursor::readVarint(uint64_t &value) {
  size_t start = pos;
  value = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (atEnd())
      return failAt(start, "unexpected end of data while reading a varint");
    uint8_t byte = bytes[pos++];
    uint64_t group = byte & 0x7f;
    // The tenth byte may only contribute the single remaining bit.
    if (shift == 63 && group > 1)
      return failAt(start, "varint exceeds 64 bits");
    value |= group << shift;
    if (!(byte & 0x80))
      return success();
    if (shift >= 63)
      return failAt(start, "varint exceeds 64 bits");
  }
}

LogicalResult ByteCursor::readSignedVarint(int64_t &value) {
  uint64_t raw;
  if (failed(readVarint(raw)))
    return failure();
  value = int64_t(raw >> 1) ^ -int64_t(raw & 1);
  return success();
}

LogicalResult ByteCursor::readBoundedVarint(uint64_t &value, uint64_t max,
                                            llvm::StringRef what) {
  size_t start = pos;
  if (failed(readVarint(value)))
    return failure();
  if (value > max)
    return failAt(start, llvm::Twine(what) + " " + llvm::Twine(value) +
                             " out of range (at most " + llvm::Twine(max) + ")");
  return success();
}

LogicalResult ByteCursor::readCount(uint64_t &count, size_t minElementBytes,
                                    llvm::StringRef what) {
  size_t start = pos;
  if (failed(readVarint(count)))
    return failure();
  uint64_t limit = minElementBytes ? remaining() / minElementBytes : remaining();
  if (count > limit)
    return failAt(start, llvm::Twine(what) + " count " + llvm::Twine(count) +
                             " exceeds remaining data size " +
                             llvm::Twine(remaining()));
  return success();
}

LogicalResult ByteCursor::readBytes(size_t count, llvm::ArrayRef<uint8_t> &out) {
  if (count > remaining())
    return fail("length " + llvm::Twine(count) +
                " exceeds remaining data size " + llvm::Twine(remaining()));
  out = bytes.slice(pos, count);
  pos += count;
  return success();
}

LogicalResult ByteCursor::alignTo(uint64_t alignment) {
  if (alignment == 0 || !llvm::isPowerOf2_64(alignment))
    return fail("invalid alignment value: " + llvm::Twine(alignment));
  uint64_t absolute = absoluteOffset();
  uint64_t padding = llvm::alignTo(absolute, alignment) - absolute;
  if (padding > remaining())
    return fail("alignment padding exceeds remaining data size");
  pos += padding;
  return success();
}

LogicalResult ByteCursor::readI32Array(llvm::SmallVectorImpl<int32_t> &values) {
  uint64_t count;
  if (failed(readCount(count, 4, "i32 array")))
    return failure();
  values.clear();
  values.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t raw;
    if (failed(readLE32(raw)))
      return failure();
    values.push_back(int32_t(raw));
  }
  return success();
}

LogicalResult ByteCursor::readI64Array(llvm::SmallVectorImpl<int64_t> &values) {
  uint64_t count;
  if (failed(readCount(count, 8, "i64 array")))
    return failure();
  values.clear();
  values.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t raw;
    if (failed(readLE64(raw)))
      return failure();
    values.push_back(int64_t(raw));
  }
  return success();
}

LogicalResult ByteCursor::split(size_t length, ByteCursor &sub) {
  uint64_t subStart = absoluteOffset();
  llvm::ArrayRef<uint8_t> slice;
  if (failed(readBytes(length, slice)))
    return failure();
  sub = ByteCursor(slice, subStart, *diag);
  return success();
}

void tilepipe::bytecode::appendVarint(std::vector<uint8_t> &out, uint64_t value) {
  do {
    uint8_t byte = value & 0x7f;
    value >>= 7;
    out.push_back(value ? (byte | 0x80) : byte);
  } while (value);
}

void tilepipe::bytecode::appendSignedVarint(std::vector<uint8_t> &out,
                                            int64_t value) {
  appendVarint(out, (uint64_t(value) << 1) ^ uint64_t(value >> 63));
}
