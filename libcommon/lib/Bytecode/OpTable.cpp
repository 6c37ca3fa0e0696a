//===- OpTable.cpp - Per-opcode field layout of TileIR bytecode -----------===//
//
// The rows below follow the per-op field table of
// shared/notes/tileir-bytecode-format.md (b). Field language, one token per
// field, in wire order:
//   N            result count varint (result types follow: N type indices)
//   R, R2, R3    fixed result types;  R@13.2=token  result added in 13.2 (older
//                files: created with that type but given no value number)
//   F, F@13.2    flags varint (only present from that version on)
//   u<b>:name    unit attribute = flag bit b
//   e:name:Enum  enum attribute; e?<b>:... optional (flag bit b);
//                e@13.2:name:Enum=<v>  added in 13.2, older files get v
//   i32:name, i64:name  integer attribute (varint)
//   b:name       bool attribute (one byte)
//   s:name       string attribute;  y:name  flat symbol reference
//   a:name       dense i32 array;   c:name  dense constant typed by the result
//   t:name       self-contained attribute;  A:name  array of them
//   h?<b>:name   optimization hints (dictionary), optional
//   z@13.4:name  dense bool array (count + one byte each); only all-false
//                arrays exist before 13.4, and the reader drops those
//   o<k>, o*     k operands / count + operands (no segment sizes)
//   g1, g*, g?<b>  one operand group each (the op has operandSegmentSizes)
//   r            region count, then the regions
//
//===----------------------------------------------------------------------===//

#include "tilepipe/Bytecode/OpTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

using namespace tilepipe::bytecode;
using llvm::StringRef;

namespace {

struct OpRow {
  uint64_t opcode;
  const char *name;
  unsigned sinceMinor;
  const char *fields;
};

#define MOS "e:memory_ordering_semantics:MemoryOrderingSemantics"
#define UNARY "R o1"
#define BINARY "R o2"
#define FTZ_ROUND_BINARY "R F u0:flush_to_zero e:rounding_mode:RoundingMode o2"

const OpRow kRows[] = {
    {0x00, "absf", 1, UNARY},
    {0x01, "absi", 1, UNARY},
    {0x02, "addf", 1, FTZ_ROUND_BINARY},
    {0x03, "addi", 1, "R e:overflow:IntegerOverflow o2"},
    {0x04, "andi", 1, BINARY},
    {0x05, "assert", 1, "s:message o1"},
    {0x06, "assume", 1, "R t:predicate o1"},
    {0x07, "atomic_cas_tko", 1,
     "R2 F " MOS " e:memory_scope:MemoryScope g1 g1 g1 g?0 g?1"},
    {0x08, "atomic_rmw_tko", 1,
     "R2 F " MOS " e:memory_scope:MemoryScope e:mode:AtomicRMWMode g1 g1 g?0 g?1"},
    {0x09, "bitcast", 1, UNARY},
    {0x0A, "break", 1, "N o*"},
    {0x0B, "broadcast", 1, UNARY},
    {0x0C, "cat", 1, "R i64:dim o2"},
    {0x0D, "ceil", 1, UNARY},
    {0x0E, "cmpf", 1,
     "R e:comparison_predicate:ComparisonPredicate "
     "e:comparison_ordering:ComparisonOrdering o2"},
    {0x0F, "cmpi", 1,
     "R e:comparison_predicate:ComparisonPredicate e:signedness:Signedness o2"},
    {0x10, "constant", 1, "R c:value"},
    {0x11, "continue", 1, "N o*"},
    {0x12, "cos", 1, UNARY},
    {0x13, "cosh", 1, UNARY},
    {0x14, "divf", 1, FTZ_ROUND_BINARY},
    {0x15, "divi", 1, "R e:signedness:Signedness e:rounding:RoundingMode o2"},
    {0x17, "exp", 1, "R e@13.3:rounding_mode:RoundingMode=5 o1"},
    {0x18, "exp2", 1, "R F u0:flush_to_zero o1"},
    {0x25, "exti", 1, "R e:signedness:Signedness o1"},
    {0x26, "extract", 1, "N o*"},
    {0x27, "floor", 1, UNARY},
    {0x28, "fma", 1, "R F u0:flush_to_zero e:rounding_mode:RoundingMode o3"},
    {0x29, "for", 1, "N F@13.2 u0:unsignedCmp o* r"},
    {0x2A, "ftof", 1, "R e:rounding_mode:RoundingMode o1"},
    {0x2B, "ftoi", 1,
     "R F@13.4 u0:saturating e:signedness:Signedness "
     "e:rounding_mode:RoundingMode o1"},
    {0x2C, "get_global", 1, "R y:name"},
    {0x2D, "get_index_space_shape", 1, "N o1"},
    {0x2E, "get_num_tile_blocks", 1, "R3"},
    {0x2F, "get_tensor_shape", 1, "N o1"},
    {0x30, "get_tile_block_id", 1, "R3"},
    {0x32, "if", 1, "N o1 r"},
    {0x33, "int_to_ptr", 1, UNARY},
    {0x3A, "iota", 1, "R"},
    {0x3B, "itof", 1,
     "R e:signedness:Signedness e:rounding_mode:RoundingMode o1"},
    {0x3C, "join_tokens", 1, "N o*"},
    {0x3D, "load_ptr_tko", 1,
     "R2 F " MOS " e?0:memory_scope:MemoryScope h?1:optimization_hints "
     "g1 g?2 g?3 g?4"},
    {0x3E, "load_view_tko", 1,
     "N F " MOS " e?0:memory_scope:MemoryScope h?1:optimization_hints "
     "z@13.4:inbounds g1 g* g?2"},
    {0x3F, "log", 1, UNARY},
    {0x40, "log2", 1, UNARY},
    {0x41, "loop", 1, "N o* r"},
    {0x42, "make_partition_view", 1, UNARY},
    {0x43, "make_tensor_view", 1, "N g1 g* g*"},
    {0x44, "make_token", 1, "R"},
    {0x45, "maxf", 1, "R F u0:propagate_nan u1:flush_to_zero o2"},
    {0x46, "maxi", 1, "R e:signedness:Signedness o2"},
    {0x47, "minf", 1, "R F u0:propagate_nan u1:flush_to_zero o2"},
    {0x48, "mini", 1, "R e:signedness:Signedness o2"},
    {0x49, "mmaf", 1, "R F@13.3 u0:fast_acc o3"},
    {0x4A, "mmai", 1,
     "R e:signedness_lhs:Signedness e:signedness_rhs:Signedness o3"},
    {0x4C, "mulf", 1, FTZ_ROUND_BINARY},
    {0x4D, "mulhii", 1, BINARY},
    {0x4E, "muli", 1, "R e:overflow:IntegerOverflow o2"},
    {0x4F, "negf", 1, UNARY},
    {0x50, "negi", 1, "R e@13.2:overflow:IntegerOverflow=0 o1"},
    {0x51, "offset", 1, BINARY},
    {0x52, "ori", 1, BINARY},
    {0x53, "permute", 1, "R a:permutation o1"},
    {0x54, "pow", 1, BINARY},
    {0x55, "print_tko", 1, "N R@13.2=token F@13.2 s:str g* g?0"},
    {0x56, "ptr_to_int", 1, UNARY},
    {0x57, "ptr_to_ptr", 1, UNARY},
    {0x58, "reduce", 1, "N i32:dim A:identities o* r"},
    {0x59, "remf", 1, BINARY},
    {0x5A, "remi", 1, "R e:signedness:Signedness o2"},
    {0x5B, "reshape", 1, UNARY},
    {0x5C, "return", 1, "N o*"},
    {0x5D, "rsqrt", 1, "R F u0:flush_to_zero o1"},
    {0x5E, "scan", 1, "N i32:dim b:reverse A:identities o* r"},
    {0x5F, "select", 1, "R o3"},
    {0x60, "shli", 1, "R e:overflow:IntegerOverflow o2"},
    {0x61, "shri", 1, "R e:signedness:Signedness o2"},
    {0x62, "sin", 1, UNARY},
    {0x63, "sinh", 1, UNARY},
    {0x64, "sqrt", 1, "R F u0:flush_to_zero e:rounding_mode:RoundingMode o1"},
    {0x65, "store_ptr_tko", 1,
     "R F " MOS " e?0:memory_scope:MemoryScope h?1:optimization_hints "
     "g1 g1 g?2 g?3"},
    {0x66, "store_view_tko", 1,
     "N F " MOS " e?0:memory_scope:MemoryScope h?1:optimization_hints "
     "z@13.4:inbounds g1 g1 g* g?2"},
    {0x67, "subf", 1, FTZ_ROUND_BINARY},
    {0x68, "subi", 1, "R e:overflow:IntegerOverflow o2"},
    {0x69, "tan", 1, UNARY},
    {0x6A, "tanh", 1, "R e@13.2:rounding_mode:RoundingMode=5 o1"},
    {0x6B, "trunci", 1, "R e:overflow:IntegerOverflow o1"},
    {0x6C, "xori", 1, BINARY},
    {0x6D, "yield", 1, "N o*"},
    {0x6E, "atan2", 2, BINARY},
    {0x6F, "pack", 3, UNARY},
    {0x70, "unpack", 3, UNARY},
    {0x71, "alloca", 3, "R F u0:global i64:num_elem i64:alignment"},
    {0x72, "mmaf_scaled", 3, "R o5"},
    {0x73, "make_gather_scatter_view", 3, UNARY},
    {0x74, "make_strided_view", 3, UNARY},
    {0x75, "atomic_red_view_tko", 3,
     "N F " MOS " e:memory_scope:MemoryScope e:mode:AtomicRMWMode g1 g* g1 g?0"},
    // 13.4 (cuTile's writer; no NVIDIA reader exists yet).
    {0x76, "insert", 4, "N o*"},
    {0x77, "gdc_launch_dependents_tko", 4, "R o*"},
    {0x78, "gdc_wait_tko", 4, "R o*"},
    {0x79, "powi", 4, BINARY}, // cuTile: FPowI
    {0x7A, "memory_fence_alias_tko", 4, UNARY},
};

#undef MOS
#undef UNARY
#undef BINARY
#undef FTZ_ROUND_BINARY

[[noreturn]] void badRow(const OpRow &row, StringRef token) {
  llvm::report_fatal_error(llvm::Twine("bad op table row for '") + row.name +
                           "': token '" + token + "'");
}

Version versionOf(unsigned minor) {
  Version v;
  v.major = 13;
  v.minor = minor;
  return v;
}

/// Splits `@13.x` off a token head and returns the version (13.1 if absent).
Version takeSince(StringRef &head, const OpRow &row) {
  size_t at = head.find('@');
  if (at == StringRef::npos)
    return versionOf(1);
  std::optional<Version> v = parseVersion(head.substr(at + 1));
  if (!v)
    badRow(row, head);
  head = head.take_front(at);
  return *v;
}

FieldSpec parseToken(StringRef token, const OpRow &row) {
  FieldSpec field{};
  field.since = versionOf(1);
  llvm::SmallVector<StringRef, 3> parts;
  token.split(parts, ':');
  StringRef head = parts[0];
  auto requireParts = [&](size_t n) {
    if (parts.size() != n)
      badRow(row, token);
  };
  char kind = head.front();
  head = head.drop_front();
  switch (kind) {
  case 'N':
    field.kind = FieldKind::ResultCount;
    return field;
  case 'R': {
    field.kind = FieldKind::Result;
    size_t eq = head.find('=');
    if (eq != StringRef::npos) {
      field.defaultEnumType = head.substr(eq + 1).str();
      head = head.take_front(eq);
    }
    field.since = takeSince(head, row);
    if (head == "*")
      field.variadic = true;
    else if (!head.empty() && head.getAsInteger(10, field.count))
      badRow(row, token);
    return field;
  }
  case 'F':
    field.kind = FieldKind::Flags;
    field.since = takeSince(head, row);
    return field;
  case 'u':
    requireParts(2);
    field.kind = FieldKind::UnitAttr;
    if (head.getAsInteger(10, field.flagBit))
      badRow(row, token);
    field.name = parts[1].str();
    return field;
  case 'e': {
    requireParts(3);
    field.kind = FieldKind::EnumAttr;
    field.since = takeSince(head, row);
    if (head.consume_front("?") && head.getAsInteger(10, field.flagBit))
      badRow(row, token);
    field.name = parts[1].str();
    StringRef enumKind = parts[2];
    size_t eq = enumKind.find('=');
    if (eq != StringRef::npos) {
      if (enumKind.substr(eq + 1).getAsInteger(10, field.defaultValue))
        badRow(row, token);
      enumKind = enumKind.take_front(eq);
    }
    field.enumKind = enumKind.str();
    return field;
  }
  case 'i':
    requireParts(2);
    field.kind = FieldKind::IntAttr;
    if (head.getAsInteger(10, field.width))
      badRow(row, token);
    field.name = parts[1].str();
    return field;
  case 'h':
    requireParts(2);
    field.kind = FieldKind::HintsAttr;
    if (!head.consume_front("?") || head.getAsInteger(10, field.flagBit))
      badRow(row, token);
    field.name = parts[1].str();
    return field;
  case 'z':
    requireParts(2);
    field.kind = FieldKind::BoolArrayAttr;
    field.since = takeSince(head, row);
    field.name = parts[1].str();
    return field;
  case 'b': case 's': case 'y': case 'a': case 'c': case 't': case 'A': {
    requireParts(2);
    static const std::pair<char, FieldKind> simple[] = {
        {'b', FieldKind::BoolAttr}, {'s', FieldKind::StringAttr},
        {'y', FieldKind::SymbolRefAttr}, {'a', FieldKind::I32ArrayAttr},
        {'c', FieldKind::ConstantAttr}, {'t', FieldKind::TaggedAttr},
        {'A', FieldKind::TaggedArrayAttr}};
    for (auto [c, k] : simple)
      if (c == kind)
        field.kind = k;
    field.name = parts[1].str();
    return field;
  }
  case 'o':
    field.kind = FieldKind::Operands;
    if (head == "*")
      field.variadic = true;
    else if (head.getAsInteger(10, field.count))
      badRow(row, token);
    return field;
  case 'g':
    field.kind = FieldKind::Segment;
    if (head == "*")
      field.variadic = true;
    else if (head.consume_front("?")) {
      if (head.getAsInteger(10, field.flagBit))
        badRow(row, token);
    } else if (head != "1") {
      badRow(row, token);
    }
    return field;
  case 'r':
    field.kind = FieldKind::Regions;
    return field;
  default:
    badRow(row, token);
  }
}

struct Tables {
  std::vector<OpSpec> specs;
  llvm::DenseMap<uint64_t, size_t> byOpcode;
  llvm::StringMap<size_t> byName;

  Tables() {
    for (const OpRow &row : kRows) {
      OpSpec spec;
      spec.opcode = row.opcode;
      spec.name = row.name;
      spec.since = versionOf(row.sinceMinor);
      llvm::SmallVector<StringRef> tokens;
      StringRef(row.fields).split(tokens, ' ', -1, /*KeepEmpty=*/false);
      for (StringRef token : tokens)
        spec.fields.push_back(parseToken(token, row));
      byOpcode[spec.opcode] = specs.size();
      byName[spec.name] = specs.size();
      specs.push_back(std::move(spec));
    }
  }
};

const Tables &tables() {
  static const Tables instance;
  return instance;
}

} // namespace

bool OpSpec::hasSegments() const {
  for (const FieldSpec &field : fields)
    if (field.kind == FieldKind::Segment)
      return true;
  return false;
}

const OpSpec *tilepipe::bytecode::lookupOpcode(uint64_t opcode) {
  const Tables &t = tables();
  auto it = t.byOpcode.find(opcode);
  return it == t.byOpcode.end() ? nullptr : &t.specs[it->second];
}

const OpSpec *tilepipe::bytecode::lookupOpName(StringRef name) {
  const Tables &t = tables();
  auto it = t.byName.find(name);
  return it == t.byName.end() ? nullptr : &t.specs[it->second];
}

uint64_t tilepipe::bytecode::maxOpcodeForVersion(const Version &version) {
  switch (version.minor) {
  case 1: return 0x6D;
  case 2: return 0x6E;
  case 3: return 0x75;
  default: return 0x7A; // 13.4: insert .. memory_fence_alias_tko (118-122)
  }
}

const std::vector<OpSpec> &tilepipe::bytecode::allOpSpecs() {
  return tables().specs;
}
