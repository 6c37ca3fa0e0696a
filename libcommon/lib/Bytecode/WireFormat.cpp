//===- WireFormat.cpp - TileIR bytecode file structure, dialect-free ------===//
//
// Decodes header, section table and every table of a TileIR bytecode file
// into the plain structs of WireFormat.h. Every count is checked against the
// bytes left before anything is allocated from it, and every index is checked
// against its table, so the op layer only sees consistent data.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/Bytecode/WireFormat.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

using namespace tilepipe::bytecode;
using llvm::ArrayRef;
using llvm::StringRef;
using llvm::Twine;

const uint8_t tilepipe::bytecode::kMagic[8] = {0x7F, 'T', 'i', 'l', 'e', 'I', 'R', 0};

std::string Version::str() const {
  return (Twine(unsigned(major)) + "." + Twine(unsigned(minor)) + "." + Twine(unsigned(tag))).str();
}

std::optional<Version> tilepipe::bytecode::parseVersion(StringRef text) {
  llvm::SmallVector<StringRef, 3> parts;
  text.split(parts, '.');
  if (parts.size() < 2 || parts.size() > 3)
    return std::nullopt;
  unsigned major, minor, tag = 0;
  if (parts[0].getAsInteger(10, major) || parts[1].getAsInteger(10, minor) ||
      (parts.size() == 3 && parts[2].getAsInteger(10, tag)))
    return std::nullopt;
  if (major != kSupportedMajor || minor < kMinSupportedMinor ||
      minor > kMaxSupportedMinor || tag > 0xffff)
    return std::nullopt;
  Version v;
  v.major = major;
  v.minor = minor;
  v.tag = tag;
  return v;
}

static Version makeVersion(unsigned major, unsigned minor) {
  Version v;
  v.major = major;
  v.minor = minor;
  return v;
}

std::optional<Version> tilepipe::bytecode::typeTagSince(uint64_t tag) {
  if (tag <= uint64_t(TypeTag::Token))
    return makeVersion(13, 1);
  switch (TypeTag(tag)) {
  case TypeTag::F8E8M0FNU:
    return makeVersion(13, 2);
  case TypeTag::F4E2M1FN:
  case TypeTag::GatherScatterView:
  case TypeTag::StridedView:
  case TypeTag::I4:
    return makeVersion(13, 3);
  case TypeTag::F8E5M3FNU:
    return makeVersion(13, 4);
  default:
    return std::nullopt;
  }
}

static StringRef typeTagName(uint64_t tag) {
  switch (TypeTag(tag)) {
  case TypeTag::F8E8M0FNU: return "Float8E8M0FNU";
  case TypeTag::F4E2M1FN: return "Float4E2M1FN";
  case TypeTag::GatherScatterView: return "GatherScatterView";
  case TypeTag::StridedView: return "StridedView";
  case TypeTag::I4: return "Int4";
  case TypeTag::F8E5M3FNU: return "Float8E5M3FNU";
  default: return "type";
  }
}

unsigned tilepipe::bytecode::scalarBitWidth(uint64_t tag) {
  switch (TypeTag(tag)) {
  case TypeTag::I1: return 1;
  case TypeTag::I4: return 4;
  case TypeTag::F4E2M1FN: return 4;
  case TypeTag::I8:
  case TypeTag::F8E4M3FN:
  case TypeTag::F8E5M2:
  case TypeTag::F8E8M0FNU:
  case TypeTag::F8E5M3FNU: return 8;
  case TypeTag::I16:
  case TypeTag::F16:
  case TypeTag::BF16: return 16;
  case TypeTag::I32:
  case TypeTag::F32:
  case TypeTag::TF32: return 32;
  case TypeTag::I64:
  case TypeTag::F64: return 64;
  default: return 0;
  }
}

bool tilepipe::bytecode::isFloatTag(uint64_t tag) {
  switch (TypeTag(tag)) {
  case TypeTag::F16: case TypeTag::BF16: case TypeTag::F32: case TypeTag::TF32:
  case TypeTag::F64: case TypeTag::F8E4M3FN: case TypeTag::F8E5M2:
  case TypeTag::F8E8M0FNU: case TypeTag::F4E2M1FN: case TypeTag::F8E5M3FNU:
    return true;
  default:
    return false;
  }
}

int tilepipe::bytecode::debugFieldCount(uint64_t tag) {
  switch (DebugTag(tag)) {
  case DebugTag::CompileUnit: return 1;
  case DebugTag::File: return 2;
  case DebugTag::LexicalBlock: return 4;
  case DebugTag::Loc: return 4;
  case DebugTag::Subprogram: return 6;
  case DebugTag::CallSite: return 2;
  default: return -1;
  }
}

ArrayRef<uint64_t> WireModule::debugIndicesOf(uint64_t slot) const {
  if (slot == 0 || slot > debugSlots.size())
    return {};
  auto [begin, end] = debugSlots[slot - 1];
  return ArrayRef<uint64_t>(debugIndices).slice(begin, end - begin);
}

bool tilepipe::bytecode::hasTileIRMagic(ArrayRef<uint8_t> bytes) {
  return bytes.size() >= sizeof(kMagic) &&
         std::equal(std::begin(kMagic), std::end(kMagic), bytes.begin());
}

bool tilepipe::bytecode::hasMLIRBytecodeMagic(ArrayRef<uint8_t> bytes) {
  static const uint8_t mlirMagic[4] = {'M', 'L', 0xEF, 'R'};
  return bytes.size() >= 4 &&
         std::equal(std::begin(mlirMagic), std::end(mlirMagic), bytes.begin());
}

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

namespace {

/// Reads an offset table: varint count, padding, count x LE-4/LE-8 offsets,
/// then the data blob (the rest of the payload). Entry i runs from offset i to
/// offset i+1 (or the end of the data); every range is validated.
struct OffsetTable {
  std::vector<uint64_t> offsets;
  ArrayRef<uint8_t> data;
  uint64_t dataStart = 0; // offset of the data inside the payload

  LogicalResult parse(ByteCursor &cursor, unsigned width, StringRef what) {
    uint64_t count;
    if (failed(cursor.readCount(count, width, what)) ||
        failed(cursor.alignTo(width)))
      return failure();
    if (count > cursor.remaining() / width)
      return cursor.fail(Twine(what) + " count " + Twine(count) +
                         " exceeds remaining data size");
    offsets.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t offset;
      if (width == 4) {
        uint32_t raw;
        if (failed(cursor.readLE32(raw)))
          return failure();
        offset = raw;
      } else if (failed(cursor.readLE64(offset))) {
        return failure();
      }
      offsets.push_back(offset);
    }
    dataStart = cursor.offset();
    return cursor.readBytes(cursor.remaining(), data);
  }

  /// The byte range of entry i, or nullopt if its offsets are inconsistent.
  std::optional<std::pair<uint64_t, uint64_t>> range(size_t i) const {
    uint64_t begin = offsets[i];
    uint64_t end = i + 1 < offsets.size() ? offsets[i + 1] : data.size();
    if (begin > end || end > data.size())
      return std::nullopt;
    return std::make_pair(begin, end);
  }
};

class WireParser {
public:
  WireParser(ArrayRef<uint8_t> file, WireModule &module, WireDiagnostic &diag)
      : file(file), module(module), diag(diag) {}

  LogicalResult parse(ReadFailure &kind);

private:
  struct Section {
    bool present = false;
    ArrayRef<uint8_t> payload;
    uint64_t start = 0;
    uint64_t alignment = 1;
  };

  LogicalResult parseHeader(ByteCursor &cursor, ReadFailure &kind);
  LogicalResult parseSectionTable(ByteCursor &cursor);
  LogicalResult checkSectionAlignments();
  ByteCursor sectionCursor(SectionId id) {
    const Section &s = sections[unsigned(id)];
    return ByteCursor(s.payload, s.start, diag);
  }
  LogicalResult withContext(LogicalResult result, StringRef name) {
    if (failed(result))
      diag.addContext(("failed to parse " + name + " section").str());
    return result;
  }

  LogicalResult parseStrings();
  LogicalResult parseProducer();
  LogicalResult parseTypes();
  LogicalResult parseTypeEntry(ByteCursor &cursor, WireType &type);
  LogicalResult parseConstants();
  LogicalResult parseGlobals();
  LogicalResult parseFunctions();
  LogicalResult parseDebug();

  LogicalResult checkIndex(ByteCursor &cursor, uint64_t &value, size_t size,
                           StringRef what) {
    size_t at = cursor.offset();
    if (failed(cursor.readVarint(value)))
      return failure();
    if (value >= size)
      return cursor.failAt(at, Twine(what) + " index " + Twine(value) +
                                   " out of bounds");
    return success();
  }

  ArrayRef<uint8_t> file;
  WireModule &module;
  WireDiagnostic &diag;
  Section sections[kNumSectionIds];
};

} // namespace

LogicalResult WireParser::parseHeader(ByteCursor &cursor, ReadFailure &kind) {
  for (unsigned i = 0; i < sizeof(kMagic); ++i) {
    if (i >= file.size() || file[i] != kMagic[i]) {
      kind = ReadFailure::NotTileIR;
      if (i >= file.size())
        (void)cursor.failAt(i, "invalid magic number at position " + Twine(i) +
                             ", got end of data expected " + Twine(unsigned(kMagic[i])));
      else
        (void)cursor.failAt(i, "invalid magic number at position " + Twine(i) +
                             ", got " + Twine(unsigned(file[i])) + " expected " +
                             Twine(unsigned(kMagic[i])));
      diag.addContext(hasMLIRBytecodeMagic(file)
                          ? "input does not correspond to Tile IR bytecode (it "
                            "looks like MLIR bytecode instead)"
                          : "input does not correspond to Tile IR bytecode");
      return failure();
    }
  }
  ArrayRef<uint8_t> skipped;
  (void)cursor.readBytes(sizeof(kMagic), skipped);
  uint8_t major, minor;
  uint8_t tagLo, tagHi;
  if (failed(cursor.readByte(major)) || failed(cursor.readByte(minor)) ||
      failed(cursor.readByte(tagLo)) || failed(cursor.readByte(tagHi))) {
    kind = ReadFailure::Malformed;
    diag.addContext("failed to parse bytecode header");
    return failure();
  }
  module.version.major = major;
  module.version.minor = minor;
  module.version.tag = uint16_t(tagLo | (tagHi << 8));
  if (major != kSupportedMajor || minor < kMinSupportedMinor ||
      minor > kMaxSupportedMinor) {
    kind = ReadFailure::UnsupportedVersion;
    (void)cursor.failAt(8, "unsupported Tile version " + module.version.str() +
                         ", this reader supports versions [13.1 - 13.4]");
    diag.addContext("failed to parse bytecode header");
    return failure();
  }
  return success();
}

LogicalResult WireParser::parseSectionTable(ByteCursor &cursor) {
  while (true) {
    size_t idOffset = cursor.offset();
    uint8_t idByte;
    if (cursor.atEnd())
      return cursor.fail("missing end section");
    (void)cursor.readByte(idByte);
    unsigned id = idByte & 0x7f;
    bool aligned = idByte & 0x80;
    if (id == unsigned(SectionId::End)) {
      if (aligned)
        return cursor.failAt(idOffset,
                             "end section should not have alignment flag set");
      if (!cursor.atEnd())
        return cursor.failAt(idOffset, "end section is not the last section");
      return success();
    }
    if (id >= kNumSectionIds)
      return cursor.failAt(idOffset, "unknown section ID: " + Twine(id));
    Section &section = sections[id];
    if (section.present)
      return cursor.failAt(idOffset, "duplicate section ID: " + Twine(id));
    uint64_t length;
    if (failed(cursor.readVarint(length)))
      return failure();
    if (aligned) {
      uint64_t alignment;
      size_t alignOffset = cursor.offset();
      if (failed(cursor.readVarint(alignment)))
        return failure();
      if (alignment == 0 || (alignment & (alignment - 1)) || alignment > 4096)
        return cursor.failAt(alignOffset,
                             "invalid alignment value: " + Twine(alignment));
      if (failed(cursor.alignTo(alignment)))
        return failure();
      section.alignment = alignment;
    }
    if (length > cursor.remaining())
      return cursor.fail("section length " + Twine(length) +
                         " exceeds remaining data size " +
                         Twine(cursor.remaining()));
    section.present = true;
    section.start = cursor.absoluteOffset();
    (void)cursor.readBytes(length, section.payload);
  }
}

LogicalResult WireParser::checkSectionAlignments() {
  struct Rule {
    SectionId id;
    unsigned multiple;
  };
  static const Rule rules[] = {{SectionId::String, 4}, {SectionId::Type, 4},
                               {SectionId::Func, 8}, {SectionId::Constant, 8},
                               {SectionId::Debug, 8}};
  for (const Rule &rule : rules) {
    const Section &s = sections[unsigned(rule.id)];
    if (s.present && s.alignment % rule.multiple != 0) {
      diag.error(0, "section " + Twine(unsigned(rule.id)) +
                        " must have alignment that is a multiple of " +
                        Twine(rule.multiple) + " bytes, but has " +
                        Twine(s.alignment));
      return failure();
    }
  }
  if (!sections[unsigned(SectionId::String)].present) {
    diag.error(0, "string section is mandatory");
    return failure();
  }
  if (!sections[unsigned(SectionId::Func)].present) {
    diag.error(0, "function section is mandatory");
    return failure();
  }
  return success();
}

LogicalResult WireParser::parseStrings() {
  ByteCursor cursor = sectionCursor(SectionId::String);
  OffsetTable table;
  if (failed(table.parse(cursor, 4, "string")))
    return failure();
  // Strings are resolved eagerly but a broken range only fails when used
  // (NVIDIA's reader is lazy and reports the use site).
  module.strings.reserve(table.offsets.size());
  module.stringValid.reserve(table.offsets.size());
  for (size_t i = 0; i < table.offsets.size(); ++i) {
    auto range = table.range(i);
    module.stringValid.push_back(range.has_value());
    if (!range) {
      module.strings.push_back(StringRef());
      continue;
    }
    module.strings.push_back(
        StringRef(reinterpret_cast<const char *>(table.data.data()) + range->first,
                  range->second - range->first));
  }
  return success();
}

LogicalResult WireModule::readStringIndex(ByteCursor &cursor,
                                          uint64_t &index) const {
  size_t at = cursor.offset();
  if (failed(cursor.readVarint(index)))
    return failure();
  if (index >= strings.size() || !stringValid[index])
    return cursor.failAt(at, "string index " + Twine(index) + " out of bounds");
  return success();
}

LogicalResult WireModule::readString(ByteCursor &cursor, StringRef &out) const {
  uint64_t index;
  if (failed(readStringIndex(cursor, index)))
    return failure();
  out = strings[index];
  return success();
}

LogicalResult WireModule::readTypeIndex(ByteCursor &cursor, uint64_t &out) const {
  size_t at = cursor.offset();
  if (failed(cursor.readVarint(out)))
    return failure();
  if (out >= types.size())
    return cursor.failAt(at, "type index " + Twine(out) + " out of bounds");
  return success();
}

LogicalResult WireParser::parseProducer() {
  ByteCursor cursor = sectionCursor(SectionId::Producer);
  uint64_t index;
  if (failed(module.readStringIndex(cursor, index)))
    return failure();
  module.producer = index;
  return success();
}

LogicalResult WireParser::parseTypes() {
  if (!sections[unsigned(SectionId::Type)].present)
    return success();
  ByteCursor cursor = sectionCursor(SectionId::Type);
  OffsetTable table;
  if (failed(table.parse(cursor, 4, "type")))
    return failure();
  module.types.resize(table.offsets.size());
  for (size_t i = 0; i < table.offsets.size(); ++i) {
    auto range = table.range(i);
    if (!range)
      return cursor.failAt(table.dataStart,
                           "invalid offset for type " + Twine(i));
    ByteCursor entry(table.data.slice(range->first, range->second - range->first),
                     sections[unsigned(SectionId::Type)].start + table.dataStart +
                         range->first,
                     diag);
    if (failed(parseTypeEntry(entry, module.types[i]))) {
      diag.addContext("failed to parse type " + Twine(i));
      return failure();
    }
    if (!entry.atEnd())
      return entry.fail("unexpected trailing bytes in type entry " + Twine(i));
  }
  return success();
}

LogicalResult WireParser::parseTypeEntry(ByteCursor &cursor, WireType &type) {
  const Version &version = module.version;
  size_t tagOffset = cursor.offset();
  if (failed(cursor.readVarint(type.tag)))
    return failure();
  std::optional<Version> since = typeTagSince(type.tag);
  if (!since)
    return cursor.failAt(tagOffset, "unknown type tag " + Twine(type.tag));
  if (version < *since)
    return cursor.failAt(tagOffset,
                         "type '" + typeTagName(type.tag) +
                             "' requires bytecode version " + Twine(unsigned(since->major)) +
                             "." + Twine(unsigned(since->minor)) + "+, file version is " +
                             Twine(unsigned(version.major)) + "." + Twine(unsigned(version.minor)));
  size_t numTypes = module.types.size();
  auto readRef = [&](uint64_t &ref) {
    size_t at = cursor.offset();
    if (failed(cursor.readVarint(ref)))
      return failure();
    if (ref >= numTypes)
      return cursor.failAt(at, "type index " + Twine(ref) + " out of bounds");
    return success();
  };
  // 13.4 adds a leading flags varint to ptr and tensor_view; no bit is
  // defined by any writer we know, so a set bit is rejected, not guessed at.
  auto readLeadingFlags = [&]() {
    if (!version.atLeast(13, 4))
      return success();
    size_t at = cursor.offset();
    if (failed(cursor.readVarint(type.flags)))
      return failure();
    if (type.flags != 0)
      return cursor.failAt(at, "unsupported type flags " + Twine(type.flags));
    return success();
  };
  auto readPadding = [&]() -> LogicalResult {
    uint64_t value;
    size_t at = cursor.offset();
    if (failed(cursor.readVarint(value)))
      return failure();
    if (value > 4)
      return cursor.failAt(at, "invalid padding value " + Twine(value));
    type.padding = value;
    return success();
  };
  auto readViewFlags = [&]() -> LogicalResult {
    size_t at = cursor.offset();
    if (failed(cursor.readVarint(type.flags)))
      return failure();
    if (type.flags & ~uint64_t(1))
      return cursor.failAt(at, "unsupported view flags " + Twine(type.flags));
    return success();
  };

  switch (TypeTag(type.tag)) {
  case TypeTag::Pointer:
    return failure(failed(readLeadingFlags()) || failed(readRef(type.elementType)));
  case TypeTag::Tile:
    return failure(failed(readRef(type.elementType)) ||
                   failed(cursor.readI64Array(type.shape)));
  case TypeTag::TensorView:
    return failure(failed(readLeadingFlags()) || failed(readRef(type.elementType)) ||
                   failed(cursor.readI64Array(type.shape)) ||
                   failed(cursor.readI64Array(type.strides)));
  case TypeTag::PartitionView: {
    bool unified = version.atLeast(13, 3);
    if (unified && failed(readViewFlags()))
      return failure();
    if (failed(cursor.readI32Array(type.tileShape)) ||
        failed(readRef(type.viewType)) || failed(cursor.readI32Array(type.dimMap)))
      return failure();
    if (unified)
      return (type.flags & 1) ? readPadding() : success();
    uint64_t present;
    size_t at = cursor.offset();
    if (failed(cursor.readVarint(present)))
      return failure();
    if (present > 1)
      return cursor.failAt(at, "invalid padding presence flag " + Twine(present));
    return present ? readPadding() : success();
  }
  case TypeTag::StridedView:
    if (failed(readViewFlags()) || failed(cursor.readI32Array(type.tileShape)) ||
        failed(cursor.readI32Array(type.traversalStrides)) ||
        failed(readRef(type.viewType)) || failed(cursor.readI32Array(type.dimMap)))
      return failure();
    return (type.flags & 1) ? readPadding() : success();
  case TypeTag::GatherScatterView:
    if (failed(readViewFlags()) || failed(cursor.readI32Array(type.tileShape)) ||
        failed(readRef(type.viewType)) || failed(cursor.readVarint(type.sparseDim)))
      return failure();
    return (type.flags & 1) ? readPadding() : success();
  case TypeTag::Function: {
    llvm::SmallVectorImpl<uint64_t> *lists[] = {&type.inputs, &type.results};
    for (llvm::SmallVectorImpl<uint64_t> *list : lists) {
      uint64_t count;
      if (failed(cursor.readCount(count, 1, "function type")))
        return failure();
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t ref;
        if (failed(readRef(ref)))
          return failure();
        list->push_back(ref);
      }
    }
    return success();
  }
  default:
    return success(); // scalars and token have no parameters
  }
}

LogicalResult WireParser::parseConstants() {
  if (!sections[unsigned(SectionId::Constant)].present)
    return success();
  ByteCursor cursor = sectionCursor(SectionId::Constant);
  OffsetTable table;
  if (failed(table.parse(cursor, 8, "constant")))
    return failure();
  uint64_t dataAbs = sections[unsigned(SectionId::Constant)].start + table.dataStart;
  for (size_t i = 0; i < table.offsets.size(); ++i) {
    uint64_t begin = table.offsets[i];
    if (begin >= table.data.size())
      return cursor.failAt(table.dataStart,
                           "invalid offset for constant " + Twine(i));
    ByteCursor blob(table.data.drop_front(begin), dataAbs + begin, diag);
    uint64_t length;
    ArrayRef<uint8_t> bytes;
    if (failed(blob.readVarint(length)) || failed(blob.readBytes(length, bytes)))
      return failure();
    module.constants.push_back(bytes);
  }
  return success();
}

LogicalResult WireParser::parseGlobals() {
  if (!sections[unsigned(SectionId::Global)].present)
    return success();
  ByteCursor cursor = sectionCursor(SectionId::Global);
  uint64_t count;
  if (failed(cursor.readCount(count, 4, "global")))
    return failure();
  bool hasFlags = module.version.atLeast(13, 3);
  for (uint64_t i = 0; i < count; ++i) {
    WireGlobal global;
    if (failed(module.readStringIndex(cursor, global.name)) ||
        failed(module.readTypeIndex(cursor, global.type)) ||
        failed(checkIndex(cursor, global.constant, module.constants.size(),
                          "constant")) ||
        failed(cursor.readVarint(global.alignment)))
      return failure();
    if (hasFlags) {
      uint64_t isConstant;
      if (failed(cursor.readBoundedVarint(global.visibility, 1,
                                          "symbol visibility")) ||
          failed(cursor.readBoundedVarint(isConstant, 1, "constant flag")))
        return failure();
      global.isConstant = isConstant;
    }
    module.globals.push_back(global);
  }
  return success();
}

LogicalResult WireParser::parseFunctions() {
  ByteCursor cursor = sectionCursor(SectionId::Func);
  uint64_t count;
  if (failed(cursor.readCount(count, 5, "function")))
    return failure();
  for (uint64_t i = 0; i < count; ++i) {
    WireFunction function;
    // The name is resolved when the function is built (after its hints), as
    // NVIDIA's reader does; its diagnostics come in that order.
    if (failed(cursor.readVarint(function.name)) ||
        failed(module.readTypeIndex(cursor, function.signature)) ||
        failed(cursor.readByte(function.flags)) ||
        failed(cursor.readVarint(function.location)))
      return failure();
    if (function.isKernel() && (function.flags & 4)) {
      WireAttr hints;
      size_t at = cursor.offset();
      if (failed(parseWireAttr(cursor, module, hints)))
        return failure();
      if (hints.tag != uint64_t(AttrTag::OptimizationHints))
        return cursor.failAt(at, "expected optimization hints attribute");
      function.hints = std::move(hints);
    }
    uint64_t length;
    if (failed(cursor.readVarint(length)))
      return failure();
    function.bodyStart = cursor.absoluteOffset();
    if (failed(cursor.readBytes(length, function.body)))
      return failure();
    module.functions.push_back(std::move(function));
  }
  // The writer pads the payload to 8 bytes; trailing bytes are ignored.
  return success();
}

LogicalResult WireParser::parseDebug() {
  if (!sections[unsigned(SectionId::Debug)].present)
    return success();
  ByteCursor cursor = sectionCursor(SectionId::Debug);
  std::vector<uint32_t> slotOffsets;
  uint64_t numSlots, numIndices, numAttrs;
  if (failed(cursor.readCount(numSlots, 4, "debug function")) ||
      failed(cursor.alignTo(4)))
    return failure();
  if (numSlots > cursor.remaining() / 4)
    return cursor.fail("debug function count exceeds remaining data size");
  for (uint64_t i = 0; i < numSlots; ++i) {
    uint32_t offset;
    if (failed(cursor.readLE32(offset)))
      return failure();
    slotOffsets.push_back(offset);
  }
  if (failed(cursor.readCount(numIndices, 8, "debug index")) ||
      failed(cursor.alignTo(8)))
    return failure();
  if (numIndices > cursor.remaining() / 8)
    return cursor.fail("debug index count exceeds remaining data size");
  for (uint64_t i = 0; i < numIndices; ++i) {
    uint64_t index;
    if (failed(cursor.readLE64(index)))
      return failure();
    module.debugIndices.push_back(index);
  }
  for (uint64_t i = 0; i < numSlots; ++i) {
    uint64_t begin = slotOffsets[i];
    uint64_t end = i + 1 < numSlots ? slotOffsets[i + 1] : numIndices;
    if (begin > end || end > numIndices)
      return cursor.fail("invalid debug index range for function " + Twine(i));
    module.debugSlots.emplace_back(begin, end);
  }
  OffsetTable table;
  if (failed(table.parse(cursor, 4, "debug attribute")))
    return failure();
  numAttrs = table.offsets.size();
  uint64_t dataAbs = sections[unsigned(SectionId::Debug)].start + cursor.offset() -
                     table.data.size();
  for (uint64_t i = 0; i < numAttrs; ++i) {
    auto range = table.range(i);
    if (!range)
      return cursor.fail("invalid offset for debug attribute " + Twine(i));
    ByteCursor entry(table.data.slice(range->first, range->second - range->first),
                     dataAbs + range->first, diag);
    WireDebugAttr attr;
    if (failed(entry.readVarint(attr.tag)))
      return failure();
    int fieldCount = debugFieldCount(attr.tag);
    for (int f = 0; f < fieldCount; ++f) {
      uint64_t value;
      if (failed(entry.readVarint(value)))
        return failure();
      attr.fields.push_back(value);
    }
    module.debugAttrs.push_back(std::move(attr));
  }
  for (uint64_t index : module.debugIndices)
    if (index > numAttrs)
      return cursor.fail("debug attribute index " + Twine(index) +
                         " out of bounds");
  return success();
}

LogicalResult WireParser::parse(ReadFailure &kind) {
  ByteCursor cursor(file, 0, diag);
  if (failed(parseHeader(cursor, kind)))
    return failure();
  kind = ReadFailure::Malformed;
  if (failed(parseSectionTable(cursor)) || failed(checkSectionAlignments()))
    return failure();
  if (failed(withContext(parseStrings(), "string")))
    return failure();
  if (sections[unsigned(SectionId::Producer)].present &&
      failed(withContext(parseProducer(), "producer")))
    return failure();
  if (failed(withContext(parseTypes(), "type")) ||
      failed(withContext(parseConstants(), "constant")) ||
      failed(withContext(parseGlobals(), "global")) ||
      failed(withContext(parseFunctions(), "function")) ||
      failed(withContext(parseDebug(), "debug")))
    return failure();
  kind = ReadFailure::None;
  return success();
}

LogicalResult tilepipe::bytecode::parseWireModule(ArrayRef<uint8_t> file,
                                                  WireModule &module,
                                                  WireDiagnostic &diag,
                                                  ReadFailure &kind) {
  kind = ReadFailure::Malformed;
  return WireParser(file, module, diag).parse(kind);
}

//===----------------------------------------------------------------------===//
// Self-contained attributes
//===----------------------------------------------------------------------===//

LogicalResult tilepipe::bytecode::parseWireDictionary(ByteCursor &cursor,
                                                      const WireModule &module,
                                                      WireAttr &attr,
                                                      unsigned depth) {
  uint64_t count;
  if (failed(cursor.readCount(count, 2, "dictionary")))
    return failure();
  llvm::StringSet<> seenNames;
  for (uint64_t i = 0; i < count; ++i) {
    size_t at = cursor.offset();
    uint64_t keyIndex;
    if (failed(module.readStringIndex(cursor, keyIndex)))
      return failure();
    StringRef key = module.strings[keyIndex];
    if (key.empty())
      return cursor.failAt(at, "invalid empty attribute name for DictionaryAttr "
                               "element " + Twine(i));
    if (!seenNames.insert(key).second)
      return cursor.failAt(at, "duplicate attribute name '" + key +
                                   "' in DictionaryAttr");
    WireAttr value;
    if (failed(parseWireAttr(cursor, module, value, depth + 1)))
      return failure();
    attr.entries.emplace_back(keyIndex, std::move(value));
  }
  return success();
}

LogicalResult tilepipe::bytecode::parseWireAttr(ByteCursor &cursor,
                                                const WireModule &module,
                                                WireAttr &attr, unsigned depth) {
  if (depth > kMaxAttrNesting)
    return cursor.fail("attribute nesting exceeds " + Twine(kMaxAttrNesting));
  size_t tagOffset = cursor.offset();
  if (failed(cursor.readVarint(attr.tag)))
    return failure();
  auto readIndex = [&](uint64_t &value, size_t size, StringRef what) {
    size_t at = cursor.offset();
    if (failed(cursor.readVarint(value)))
      return failure();
    if (value >= size)
      return cursor.failAt(at, Twine(what) + " index " + Twine(value) +
                                   " out of bounds");
    return success();
  };
  switch (AttrTag(attr.tag)) {
  case AttrTag::Integer:
    return failure(failed(module.readTypeIndex(cursor, attr.typeIndex)) ||
                   failed(cursor.readVarint(attr.intValue)));
  case AttrTag::Float: {
    if (failed(module.readTypeIndex(cursor, attr.typeIndex)))
      return failure();
    uint64_t tag = module.types[attr.typeIndex].tag;
    if (!isFloatTag(tag))
      return cursor.fail("float attribute with a non-float type");
    unsigned width = scalarBitWidth(tag);
    if (width <= 8) {
      uint8_t byte;
      if (failed(cursor.readByte(byte)))
        return failure();
      attr.floatWords.push_back(byte);
      return success();
    }
    int64_t word;
    if (failed(cursor.readSignedVarint(word)))
      return failure();
    attr.floatWords.push_back(uint64_t(word));
    return success();
  }
  case AttrTag::Bool: {
    uint8_t byte;
    if (failed(cursor.readByte(byte)))
      return failure();
    attr.boolValue = byte != 0;
    return success();
  }
  case AttrTag::Type:
    return module.readTypeIndex(cursor, attr.typeIndex);
  case AttrTag::String:
    return module.readStringIndex(cursor, attr.index);
  case AttrTag::Array: {
    uint64_t count;
    if (failed(cursor.readCount(count, 1, "array")))
      return failure();
    attr.elements.resize(count);
    for (WireAttr &element : attr.elements)
      if (failed(parseWireAttr(cursor, module, element, depth + 1)))
        return failure();
    return success();
  }
  case AttrTag::DenseElements:
    return failure(failed(module.readTypeIndex(cursor, attr.typeIndex)) ||
                   failed(readIndex(attr.index, module.constants.size(),
                                    "constant")));
  case AttrTag::DivBy:
    if (failed(cursor.readVarint(attr.intValue)) ||
        failed(cursor.readByte(attr.flags)))
      return failure();
    if ((attr.flags & 1) && failed(cursor.readSignedVarint(attr.first)))
      return failure();
    if ((attr.flags & 2) && failed(cursor.readSignedVarint(attr.second)))
      return failure();
    return success();
  case AttrTag::SameElements:
    return cursor.readI64Array(attr.values);
  case AttrTag::Dictionary:
  case AttrTag::OptimizationHints:
    return parseWireDictionary(cursor, module, attr, depth);
  case AttrTag::Bounded:
    if (failed(cursor.readByte(attr.flags)))
      return failure();
    if ((attr.flags & 1) && failed(cursor.readSignedVarint(attr.first)))
      return failure();
    if ((attr.flags & 2) && failed(cursor.readSignedVarint(attr.second)))
      return failure();
    return success();
  }
  return cursor.failAt(tagOffset, "unsupported AttributeTag " + Twine(attr.tag) +
                                      " for self-contained attribute");
}
