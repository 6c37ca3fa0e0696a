//===- WireFormat.h - TileIR bytecode file structure, dialect-free --------===//
//
// The file as tables of plain structs: header, sections, strings, types,
// constants, globals, functions (bodies as byte ranges), self-contained
// attributes and debug info. Nothing here creates MLIR IR, so every check
// against hostile input happens before the op layer runs. Layout reference:
// shared/notes/tileir-bytecode-format.md (b).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_BYTECODE_WIREFORMAT_H
#define TILEPIPE_BYTECODE_WIREFORMAT_H

#include "tilepipe/Bytecode/ByteCursor.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>

namespace tilepipe {
namespace bytecode {

/// A bytecode version: major.minor (the 16-bit tag is carried, never compared).
struct Version {
  uint8_t major = 13;
  uint8_t minor = 1;
  uint16_t tag = 0;

  unsigned key() const { return major * 256u + minor; }
  bool atLeast(unsigned maj, unsigned min) const {
    return key() >= maj * 256u + min;
  }
  std::string str() const;
  friend bool operator<(const Version &a, const Version &b) {
    return a.key() < b.key();
  }
};

constexpr uint8_t kSupportedMajor = 13;
constexpr uint8_t kMinSupportedMinor = 1;
constexpr uint8_t kMaxSupportedMinor = 4;

/// Parses "13.x" or "13.x.t"; fails for unsupported versions.
std::optional<Version> parseVersion(llvm::StringRef text);

extern const uint8_t kMagic[8];

enum class SectionId : uint8_t {
  End = 0,
  String = 1,
  Func = 2,
  Debug = 3,
  Constant = 4,
  Type = 5,
  Global = 6,
  Producer = 7,
};
constexpr unsigned kNumSectionIds = 8;

/// Type tags (frozen table).
enum class TypeTag : uint64_t {
  I1 = 0, I8 = 1, I16 = 2, I32 = 3, I64 = 4, F16 = 5, BF16 = 6, F32 = 7,
  TF32 = 8, F64 = 9, F8E4M3FN = 10, F8E5M2 = 11, Pointer = 12, Tile = 13,
  TensorView = 14, PartitionView = 15, Function = 16, Token = 17,
  F8E8M0FNU = 18, F4E2M1FN = 19, GatherScatterView = 20, StridedView = 21,
  I4 = 22, F8E5M3FNU = 130,
};

/// The version that introduced a type tag, or nullopt for unknown tags.
std::optional<Version> typeTagSince(uint64_t tag);
/// Bit width of a scalar tag, or 0 for non-scalars.
unsigned scalarBitWidth(uint64_t tag);
bool isFloatTag(uint64_t tag);

/// One decoded type-table entry. Which fields are used depends on `tag`.
struct WireType {
  uint64_t tag = 0;
  uint64_t flags = 0;               // ptr/tensor_view (13.4), views (13.3+)
  uint64_t elementType = 0;         // ptr pointee, tile/tensor_view element
  uint64_t viewType = 0;            // tensor_view of a partition/strided/gather view
  llvm::SmallVector<int64_t, 4> shape;     // tile / tensor_view shape
  llvm::SmallVector<int64_t, 4> strides;   // tensor_view strides
  llvm::SmallVector<int32_t, 4> tileShape; // views
  llvm::SmallVector<int32_t, 4> dimMap;
  llvm::SmallVector<int32_t, 4> traversalStrides;
  std::optional<uint64_t> padding;
  uint64_t sparseDim = 0;
  llvm::SmallVector<uint64_t, 4> inputs;   // function
  llvm::SmallVector<uint64_t, 2> results;  // function
};

/// Self-contained attribute tags.
enum class AttrTag : uint64_t {
  Integer = 1, Float = 2, Bool = 3, Type = 4, String = 5, Array = 6,
  DenseElements = 7, DivBy = 8, SameElements = 9, Dictionary = 10,
  OptimizationHints = 11, Bounded = 12,
};

/// A decoded self-contained attribute (a small tree).
struct WireAttr {
  uint64_t tag = 0;
  uint64_t typeIndex = 0;       // Integer, Float, Type, DenseElements
  uint64_t index = 0;           // String: string index; DenseElements: constant
  uint64_t intValue = 0;        // Integer value (zero-extended), DivBy divisor
  llvm::SmallVector<uint64_t, 2> floatWords; // Float bits, low word first
  bool boolValue = false;
  uint8_t flags = 0;            // DivBy / Bounded presence bits
  int64_t first = 0, second = 0; // DivBy every/along, Bounded lb/ub
  llvm::SmallVector<int64_t, 4> values; // SameElements
  std::vector<WireAttr> elements;       // Array
  std::vector<std::pair<uint64_t, WireAttr>> entries; // Dictionary/Hints
};

struct WireGlobal {
  uint64_t name = 0, type = 0, constant = 0, alignment = 0;
  uint64_t visibility = 0;
  bool isConstant = false;
};

struct WireFunction {
  uint64_t name = 0, signature = 0, location = 0;
  uint8_t flags = 0;
  std::optional<WireAttr> hints;
  llvm::ArrayRef<uint8_t> body;
  uint64_t bodyStart = 0; // absolute file offset of the body
  bool isKernel() const { return flags & 2; }
};

enum class DebugTag : uint64_t {
  CompileUnit = 1, File = 2, LexicalBlock = 3, Loc = 4, Subprogram = 5,
  CallSite = 6,
};

/// One debug attribute; `fields` per tag as in the notes.
struct WireDebugAttr {
  uint64_t tag = 0;
  llvm::SmallVector<uint64_t, 6> fields;
};

/// How many fields each debug tag has, or -1 for an unknown tag.
int debugFieldCount(uint64_t tag);

/// The whole file, decoded structurally.
struct WireModule {
  Version version;
  std::vector<llvm::StringRef> strings;
  std::vector<bool> stringValid; // false: offsets of that string are broken
  std::vector<WireType> types;
  std::vector<llvm::ArrayRef<uint8_t>> constants;
  std::vector<WireGlobal> globals;
  std::vector<WireFunction> functions;
  std::optional<uint64_t> producer;
  /// Debug: per function slot (1-based in the file), a range into
  /// `debugIndices`; then the attribute table (index i+1 in the file).
  std::vector<std::pair<size_t, size_t>> debugSlots;
  std::vector<uint64_t> debugIndices;
  std::vector<WireDebugAttr> debugAttrs;

  /// Reads a string index at the cursor and checks it.
  LogicalResult readStringIndex(ByteCursor &cursor, uint64_t &index) const;
  /// Reads a string index at the cursor and resolves it.
  LogicalResult readString(ByteCursor &cursor, llvm::StringRef &out) const;
  /// Reads a type index at the cursor and checks it.
  LogicalResult readTypeIndex(ByteCursor &cursor, uint64_t &out) const;

  /// Returns the debug-attribute indices of a function slot (empty if none).
  llvm::ArrayRef<uint64_t> debugIndicesOf(uint64_t slot) const;
};

/// Why a read failed: the caller maps this to an exit code.
enum class ReadFailure {
  None,
  NotTileIR,          // bad magic: exit 3
  UnsupportedVersion, // exit 3
  Malformed,          // exit 5
};

/// True if `bytes` starts with the TileIR magic.
bool hasTileIRMagic(llvm::ArrayRef<uint8_t> bytes);
/// True if `bytes` starts with MLIR's bytecode magic `ML\xefR`.
bool hasMLIRBytecodeMagic(llvm::ArrayRef<uint8_t> bytes);

/// Decodes the file structure. On failure `diag` holds the message and
/// `kind` says which class of failure it was.
LogicalResult parseWireModule(llvm::ArrayRef<uint8_t> file, WireModule &module,
                              WireDiagnostic &diag, ReadFailure &kind);

/// Reads one self-contained attribute (tag + payload) with a nesting cap.
/// Exposed for the op layer, which finds such attributes inside bodies.
LogicalResult parseWireAttr(ByteCursor &cursor, const WireModule &module,
                            WireAttr &attr, unsigned depth = 0);
/// Reads a dictionary payload (count, then key/value pairs).
LogicalResult parseWireDictionary(ByteCursor &cursor, const WireModule &module,
                                  WireAttr &attr, unsigned depth = 0);

constexpr unsigned kMaxAttrNesting = 32;

} // namespace bytecode
} // namespace tilepipe

#endif // TILEPIPE_BYTECODE_WIREFORMAT_H
