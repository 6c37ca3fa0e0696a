//===- OpTable.h - Per-opcode field layout of TileIR bytecode -------------===//
//
// One row per opcode: the op name, the version that introduced it and its
// fields in wire order, written in a small field language (see OpTable.cpp).
// The reader and the writer both walk these rows, so the two cannot disagree
// about a layout.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_BYTECODE_OPTABLE_H
#define TILEPIPE_BYTECODE_OPTABLE_H

#include "tilepipe/Bytecode/WireFormat.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace tilepipe {
namespace bytecode {

enum class FieldKind {
  ResultCount,     // N: varint number of results
  Result,          // R: one result type index (R* = N of them)
  Flags,           // F: flags varint
  UnitAttr,        // u<bit>:name
  EnumAttr,        // e:name:Enum, e?<bit>:name:Enum (optional)
  IntAttr,         // i<width>:name: varint integer
  BoolAttr,        // b:name: one byte
  StringAttr,      // s:name: string index
  SymbolRefAttr,   // y:name: string index as a flat symbol reference
  I32ArrayAttr,    // a:name: i32[]
  ConstantAttr,    // c:name: constant index typed by the result type
  TaggedAttr,      // t:name: self-contained attribute
  TaggedArrayAttr, // A:name: count + self-contained attributes
  HintsAttr,       // h?<bit>:name: optimization hints dictionary
  BoolArrayAttr,   // z@13.4:name: count + one byte per bool
  Operands,        // o<k>: k value indices; o*: count + indices
  Segment,         // g1 / g* / g?<bit>: one operand group (with segment sizes)
  Regions,         // r: region count + regions
};

struct FieldSpec {
  FieldKind kind;
  std::string name;     // attribute name, enum kind, ...
  std::string enumKind; // EnumAttr only
  int flagBit = -1;     // optional attributes/operands, unit attributes
  unsigned count = 1;   // Operands/Result: fixed count
  bool variadic = false;
  unsigned width = 64;  // IntAttr
  Version since;        // field introduced in this version (13.1 = always)
  int64_t defaultValue = 0; // EnumAttr newer than the file: this value
  std::string defaultEnumType; // Result newer than the file: "token"
};

struct OpSpec {
  uint64_t opcode;
  llvm::StringRef name; // without the `cuda_tile.` prefix
  Version since;
  std::vector<FieldSpec> fields;
  bool hasSegments() const;
};

/// The spec of an opcode, or null if the opcode names no op.
const OpSpec *lookupOpcode(uint64_t opcode);
/// The spec of an op name (without the dialect prefix), or null.
const OpSpec *lookupOpName(llvm::StringRef name);
/// Highest opcode available in a bytecode version.
uint64_t maxOpcodeForVersion(const Version &version);
/// All rows (for tests).
const std::vector<OpSpec> &allOpSpecs();

} // namespace bytecode
} // namespace tilepipe

#endif // TILEPIPE_BYTECODE_OPTABLE_H
