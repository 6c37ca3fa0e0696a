//===- BytecodeWriter.cpp - cuda_tile module to TileIR bytecode -----------===//
//
// The mirror image of the reader: walks each op with its OpTable row and
// emits the fields in wire order, filling the string, type and constant
// tables on the way (nested types first, so references always point down).
//
//===----------------------------------------------------------------------===//

#include "tilepipe/Bytecode/BytecodeWriter.h"

#include "tilepipe/Bytecode/OpTable.h"
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

using namespace tilepipe;
using namespace tilepipe::bytecode;
using namespace mlir;
namespace ct = tilepipe::cuda_tile;
using Bytes = std::vector<uint8_t>;

namespace {

void appendLE(Bytes &out, uint64_t value, unsigned width) {
  for (unsigned i = 0; i < width; ++i)
    out.push_back(uint8_t(value >> (8 * i)));
}

void padTo(Bytes &out, size_t base, unsigned alignment) {
  while ((base + out.size()) % alignment)
    out.push_back(0xCB);
}

template <typename T>
void appendIntArray(Bytes &out, llvm::ArrayRef<T> values) {
  appendVarint(out, values.size());
  for (T value : values)
    appendLE(out, uint64_t(int64_t(value)), sizeof(T));
}

/// An offset table: count, padding, offsets, then the entries back to back.
Bytes encodeOffsetTable(const std::vector<Bytes> &entries, unsigned width) {
  Bytes out;
  appendVarint(out, entries.size());
  padTo(out, 0, width);
  uint64_t offset = 0;
  for (const Bytes &entry : entries) {
    appendLE(out, offset, width);
    offset += entry.size();
  }
  for (const Bytes &entry : entries)
    out.insert(out.end(), entry.begin(), entry.end());
  return out;
}

class Writer {
public:
  Writer(Version version) : version(version) {}

  LogicalResult write(Operation *module, llvm::raw_ostream &os);

private:
  // Tables.
  uint64_t stringIndex(llvm::StringRef text);
  FailureOr<uint64_t> typeIndex(Type type, Operation *user);
  FailureOr<uint64_t> constantIndex(DenseElementsAttr value, Operation *user);
  FailureOr<Type> tileTypeOf(ShapedType type, Operation *user);

  // Attributes.
  LogicalResult writeTaggedAttr(Bytes &out, Attribute attr, Operation *user);
  LogicalResult writeDictionary(Bytes &out, DictionaryAttr dict, Operation *user);
  FailureOr<uint64_t> enumValue(Attribute attr, Operation *user);

  // Ops.
  LogicalResult writeOp(Bytes &out, Operation *op);
  LogicalResult writeRegion(Bytes &out, Region &region);
  LogicalResult writeValue(Bytes &out, Value value, Operation *user);
  LogicalResult writeFunction(Bytes &out, Operation *entry);
  LogicalResult writeGlobal(Bytes &out, Operation *global);
  bool below(const Version &since) const { return version < since; }
  InFlightDiagnostic refuse(Operation *op, const llvm::Twine &what);

  Version version;
  llvm::StringMap<uint64_t> stringIds;
  std::vector<Bytes> strings;
  llvm::DenseMap<Type, uint64_t> typeIds;
  std::vector<Bytes> types;
  llvm::DenseMap<Attribute, uint64_t> constantIds;
  std::vector<Bytes> constants;
  llvm::DenseMap<Value, uint64_t> valueIds;
  uint64_t nextValue = 0;
};

} // namespace

InFlightDiagnostic Writer::refuse(Operation *op, const llvm::Twine &what) {
  return op->emitError() << "cannot write TileIR bytecode " << version.major
                         << "." << version.minor << ": " << what;
}

uint64_t Writer::stringIndex(llvm::StringRef text) {
  auto [it, inserted] = stringIds.try_emplace(text, strings.size());
  if (inserted)
    strings.emplace_back(text.begin(), text.end());
  return it->second;
}

static std::optional<TypeTag> scalarTag(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type)) {
    switch (intType.getWidth()) {
    case 1: return TypeTag::I1;
    case 4: return TypeTag::I4;
    case 8: return TypeTag::I8;
    case 16: return TypeTag::I16;
    case 32: return TypeTag::I32;
    case 64: return TypeTag::I64;
    default: return std::nullopt;
    }
  }
  if (isa<Float16Type>(type)) return TypeTag::F16;
  if (isa<BFloat16Type>(type)) return TypeTag::BF16;
  if (isa<Float32Type>(type)) return TypeTag::F32;
  if (isa<FloatTF32Type>(type)) return TypeTag::TF32;
  if (isa<Float64Type>(type)) return TypeTag::F64;
  if (isa<Float8E4M3FNType>(type)) return TypeTag::F8E4M3FN;
  if (isa<Float8E5M2Type>(type)) return TypeTag::F8E5M2;
  if (isa<Float8E8M0FNUType>(type)) return TypeTag::F8E8M0FNU;
  if (isa<Float4E2M1FNType>(type)) return TypeTag::F4E2M1FN;
  if (isa<ct::TokenType>(type)) return TypeTag::Token;
  return std::nullopt;
}

FailureOr<uint64_t> Writer::typeIndex(Type type, Operation *user) {
  auto it = typeIds.find(type);
  if (it != typeIds.end())
    return it->second;
  Bytes entry;
  auto tag = [&](TypeTag t) -> LogicalResult {
    std::optional<Version> since = typeTagSince(uint64_t(t));
    if (since && below(*since)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      type.print(os);
      return refuse(user, "type ") << text << " requires bytecode version "
                                   << since->major << "." << since->minor;
    }
    appendVarint(entry, uint64_t(t));
    return success();
  };
  auto ref = [&](Type nested) -> LogicalResult {
    FailureOr<uint64_t> index = typeIndex(nested, user);
    if (failed(index))
      return failure();
    appendVarint(entry, *index);
    return success();
  };
  auto padding = [&](ct::PaddingValueAttr attr) {
    appendVarint(entry, uint64_t(attr.getValue()));
  };
  LogicalResult result = success();
  if (std::optional<TypeTag> scalar = scalarTag(type)) {
    result = tag(*scalar);
  } else if (auto ptr = dyn_cast<ct::PointerType>(type)) {
    result = tag(TypeTag::Pointer);
    if (succeeded(result) && version.atLeast(13, 4))
      appendVarint(entry, 0);
    if (succeeded(result))
      result = ref(ptr.getPointeeType());
  } else if (auto tile = dyn_cast<ct::TileType>(type)) {
    result = tag(TypeTag::Tile);
    if (succeeded(result))
      result = ref(tile.getElementType());
    appendIntArray<int64_t>(entry, tile.getShape());
  } else if (auto tv = dyn_cast<ct::TensorViewType>(type)) {
    result = tag(TypeTag::TensorView);
    if (succeeded(result) && version.atLeast(13, 4))
      appendVarint(entry, 0);
    if (succeeded(result))
      result = ref(tv.getElementType());
    appendIntArray<int64_t>(entry, tv.getShape());
    appendIntArray<int64_t>(entry, tv.getStrides());
  } else if (auto pv = dyn_cast<ct::PartitionViewType>(type)) {
    result = tag(TypeTag::PartitionView);
    bool unified = version.atLeast(13, 3);
    if (unified)
      appendVarint(entry, pv.getPaddingValue() ? 1 : 0);
    appendIntArray<int32_t>(entry, pv.getTileShape());
    if (succeeded(result))
      result = ref(pv.getTensorView());
    appendIntArray<int32_t>(entry, pv.getDimMap());
    if (!unified)
      appendVarint(entry, pv.getPaddingValue() ? 1 : 0);
    if (pv.getPaddingValue())
      padding(pv.getPaddingValue());
  } else if (auto sv = dyn_cast<ct::StridedViewType>(type)) {
    result = tag(TypeTag::StridedView);
    appendVarint(entry, sv.getPaddingValue() ? 1 : 0);
    appendIntArray<int32_t>(entry, sv.getTileShape());
    llvm::SmallVector<int32_t> strides;
    for (int64_t s : sv.getTraversalStrides())
      strides.push_back(int32_t(s));
    appendIntArray<int32_t>(entry, strides);
    if (succeeded(result))
      result = ref(sv.getTensorView());
    appendIntArray<int32_t>(entry, sv.getDimMap());
    if (sv.getPaddingValue())
      padding(sv.getPaddingValue());
  } else if (auto gv = dyn_cast<ct::GatherScatterViewType>(type)) {
    result = tag(TypeTag::GatherScatterView);
    appendVarint(entry, gv.getPaddingValue() ? 1 : 0);
    appendIntArray<int32_t>(entry, gv.getTileShape());
    if (succeeded(result))
      result = ref(gv.getTensorView());
    appendVarint(entry, gv.getSparseDim());
    if (gv.getPaddingValue())
      padding(gv.getPaddingValue());
  } else if (auto fn = dyn_cast<FunctionType>(type)) {
    result = tag(TypeTag::Function);
    for (llvm::ArrayRef<Type> list : {fn.getInputs(), fn.getResults()}) {
      appendVarint(entry, list.size());
      for (Type t : list)
        if (succeeded(result))
          result = ref(t);
    }
  } else {
    std::string text;
    llvm::raw_string_ostream os(text);
    type.print(os);
    return refuse(user, "type ") << text << " has no TileIR bytecode encoding";
  }
  if (failed(result))
    return failure();
  uint64_t index = types.size();
  types.push_back(std::move(entry));
  typeIds[type] = index;
  return index;
}

FailureOr<Type> Writer::tileTypeOf(ShapedType type, Operation *user) {
  if (auto tile = dyn_cast<ct::TileType>(type))
    return Type(tile);
  return Type(ct::TileType::get(type.getContext(), type.getShape(),
                                type.getElementType()));
}

FailureOr<uint64_t> Writer::constantIndex(DenseElementsAttr value, Operation *user) {
  auto it = constantIds.find(value);
  if (it != constantIds.end())
    return it->second;
  llvm::ArrayRef<char> raw = value.getRawData();
  Bytes blob;
  appendVarint(blob, raw.size());
  blob.insert(blob.end(), raw.begin(), raw.end());
  uint64_t index = constants.size();
  constants.push_back(std::move(blob));
  constantIds[value] = index;
  return index;
}

FailureOr<uint64_t> Writer::enumValue(Attribute attr, Operation *user) {
#define TILEPIPE_ENUM_VALUE(Kind)                                              \
  if (auto typed = dyn_cast<ct::Kind##Attr>(attr))                             \
    return uint64_t(typed.getValue());
  TILEPIPE_ENUM_VALUE(RoundingMode)
  TILEPIPE_ENUM_VALUE(IntegerOverflow)
  TILEPIPE_ENUM_VALUE(Signedness)
  TILEPIPE_ENUM_VALUE(ComparisonPredicate)
  TILEPIPE_ENUM_VALUE(ComparisonOrdering)
  TILEPIPE_ENUM_VALUE(MemoryOrderingSemantics)
  TILEPIPE_ENUM_VALUE(MemoryScope)
  TILEPIPE_ENUM_VALUE(AtomicRMWMode)
  TILEPIPE_ENUM_VALUE(PaddingValue)
  TILEPIPE_ENUM_VALUE(SymbolVisibility)
#undef TILEPIPE_ENUM_VALUE
  return refuse(user, "unsupported enum attribute ") << attr;
}

LogicalResult Writer::writeDictionary(Bytes &out, DictionaryAttr dict,
                                      Operation *user) {
  appendVarint(out, dict.size());
  for (NamedAttribute entry : dict) {
    appendVarint(out, stringIndex(entry.getName().getValue()));
    if (failed(writeTaggedAttr(out, entry.getValue(), user)))
      return failure();
  }
  return success();
}

LogicalResult Writer::writeTaggedAttr(Bytes &out, Attribute attr, Operation *user) {
  auto typeRef = [&](Type type) -> LogicalResult {
    FailureOr<uint64_t> index = typeIndex(type, user);
    if (failed(index))
      return failure();
    appendVarint(out, *index);
    return success();
  };
  auto zigzag = [&](int64_t v) { appendSignedVarint(out, v); };
  if (auto b = dyn_cast<BoolAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::Bool));
    out.push_back(b.getValue() ? 1 : 0);
    return success();
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::Integer));
    if (failed(typeRef(i.getType())))
      return failure();
    appendVarint(out, i.getValue().getZExtValue());
    return success();
  }
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::Float));
    if (failed(typeRef(f.getType())))
      return failure();
    llvm::APInt bits = f.getValue().bitcastToAPInt();
    if (bits.getBitWidth() <= 8)
      out.push_back(uint8_t(bits.getZExtValue()));
    else
      zigzag(int64_t(bits.getZExtValue()));
    return success();
  }
  if (auto t = dyn_cast<TypeAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::Type));
    return typeRef(t.getValue());
  }
  if (auto s = dyn_cast<StringAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::String));
    appendVarint(out, stringIndex(s.getValue()));
    return success();
  }
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::Array));
    appendVarint(out, a.size());
    for (Attribute element : a)
      if (failed(writeTaggedAttr(out, element, user)))
        return failure();
    return success();
  }
  if (auto d = dyn_cast<DenseElementsAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::DenseElements));
    FailureOr<Type> tile = tileTypeOf(d.getType(), user);
    if (failed(tile) || failed(typeRef(*tile)))
      return failure();
    FailureOr<uint64_t> index = constantIndex(d, user);
    if (failed(index))
      return failure();
    appendVarint(out, *index);
    return success();
  }
  if (auto divBy = dyn_cast<ct::DivByAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::DivBy));
    appendVarint(out, divBy.getDivisor());
    uint8_t flags = (divBy.getEvery() ? 1 : 0) | (divBy.getAlong() ? 2 : 0);
    out.push_back(flags);
    if (divBy.getEvery())
      zigzag(*divBy.getEvery());
    if (divBy.getAlong())
      zigzag(*divBy.getAlong());
    return success();
  }
  if (auto same = dyn_cast<ct::SameElementsAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::SameElements));
    appendIntArray<int64_t>(out, same.getValues().asArrayRef());
    return success();
  }
  if (auto bounded = dyn_cast<ct::BoundedAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::Bounded));
    out.push_back((bounded.getLb() ? 1 : 0) | (bounded.getUb() ? 2 : 0));
    if (bounded.getLb())
      zigzag(*bounded.getLb());
    if (bounded.getUb())
      zigzag(*bounded.getUb());
    return success();
  }
  if (auto hints = dyn_cast<ct::OptimizationHintsAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::OptimizationHints));
    return writeDictionary(out, hints.getValue(), user);
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    appendVarint(out, uint64_t(AttrTag::Dictionary));
    return writeDictionary(out, dict, user);
  }
  return refuse(user, "attribute ") << attr << " has no TileIR bytecode encoding";
}

LogicalResult Writer::writeValue(Bytes &out, Value value, Operation *user) {
  auto it = valueIds.find(value);
  if (it == valueIds.end())
    return refuse(user, "operand defined outside the function");
  appendVarint(out, it->second);
  return success();
}

LogicalResult Writer::writeRegion(Bytes &out, Region &region) {
  appendVarint(out, region.getBlocks().size());
  for (Block &block : region) {
    uint64_t scope = nextValue;
    appendVarint(out, block.getNumArguments());
    for (BlockArgument arg : block.getArguments()) {
      FailureOr<uint64_t> index = typeIndex(arg.getType(), region.getParentOp());
      if (failed(index))
        return failure();
      appendVarint(out, *index);
      valueIds[arg] = nextValue++;
    }
    appendVarint(out, block.getOperations().size());
    for (Operation &op : block)
      if (failed(writeOp(out, &op)))
        return failure();
    nextValue = scope; // numbers of the block die with it
  }
  return success();
}

LogicalResult Writer::writeOp(Bytes &out, Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  const OpSpec *spec =
      name.consume_front("cuda_tile.") ? lookupOpName(name) : nullptr;
  if (!spec)
    return refuse(op, "op '") << op->getName() << "' cannot be encoded";
  if (below(spec->since))
    return refuse(op, "op '") << op->getName() << "' requires bytecode version "
                              << spec->since.major << "." << spec->since.minor;
  appendVarint(out, spec->opcode);

  // Results introduced after the target version are left out; they must be
  // unused. Flags are computed up front from the fields that are present.
  size_t writtenResults = op->getNumResults();
  for (const FieldSpec &field : spec->fields)
    if (field.kind == FieldKind::Result && !field.defaultEnumType.empty() &&
        below(field.since)) {
      if (writtenResults == 0)
        break;
      --writtenResults;
      if (!op->getResult(writtenResults).use_empty())
        return refuse(op, "result ") << writtenResults
                                     << " is used but does not exist before "
                                     << field.since.major << "." << field.since.minor;
    }

  auto inherent = [&](llvm::StringRef attrName) -> Attribute {
    std::optional<Attribute> attr = op->getInherentAttr(attrName);
    return attr ? *attr : op->getAttr(attrName);
  };
  llvm::SmallVector<int32_t> segments;
  if (spec->hasSegments()) {
    auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(inherent("operandSegmentSizes"));
    if (!sizes)
      return refuse(op, "missing operandSegmentSizes");
    segments.assign(sizes.asArrayRef().begin(), sizes.asArrayRef().end());
  }
  uint64_t flags = 0;
  {
    size_t segment = 0;
    for (const FieldSpec &field : spec->fields) {
      if (field.kind == FieldKind::Segment) {
        if (field.flagBit >= 0 && segment < segments.size() && segments[segment])
          flags |= uint64_t(1) << field.flagBit;
        ++segment;
      } else if (field.flagBit >= 0 && inherent(field.name)) {
        flags |= uint64_t(1) << field.flagBit;
      }
    }
  }

  size_t segment = 0;
  unsigned operandIndex = 0;
  auto writeOperands = [&](unsigned count) -> LogicalResult {
    if (operandIndex + count > op->getNumOperands())
      return refuse(op, "operand count does not match its encoding");
    for (unsigned i = 0; i < count; ++i)
      if (failed(writeValue(out, op->getOperand(operandIndex++), op)))
        return failure();
    return success();
  };
  bool wroteResultTypes = false;
  auto writeResultTypes = [&]() -> LogicalResult {
    wroteResultTypes = true;
    for (size_t i = 0; i < writtenResults; ++i) {
      FailureOr<uint64_t> index = typeIndex(op->getResult(i).getType(), op);
      if (failed(index))
        return failure();
      appendVarint(out, *index);
    }
    return success();
  };

  for (const FieldSpec &field : spec->fields) {
    bool present = !below(field.since);
    Attribute attr = field.name.empty() ? Attribute() : inherent(field.name);
    switch (field.kind) {
    case FieldKind::ResultCount:
      appendVarint(out, writtenResults);
      if (failed(writeResultTypes()))
        return failure();
      break;
    case FieldKind::Result:
      if (!wroteResultTypes && present && failed(writeResultTypes()))
        return failure();
      break;
    case FieldKind::Flags:
      if (present)
        appendVarint(out, flags);
      else if (flags)
        return refuse(op, "optional fields of '")
               << op->getName() << "' require bytecode version "
               << field.since.major << "." << field.since.minor;
      break;
    case FieldKind::UnitAttr:
      break; // a flag bit only
    case FieldKind::EnumAttr: {
      if (field.flagBit >= 0 && !attr)
        break;
      uint64_t value = uint64_t(field.defaultValue);
      if (attr) {
        FailureOr<uint64_t> v = enumValue(attr, op);
        if (failed(v))
          return failure();
        value = *v;
      }
      if (!present) {
        if (value != uint64_t(field.defaultValue))
          return refuse(op, "attribute '")
                 << field.name << "' with a non-default value requires bytecode version "
                 << field.since.major << "." << field.since.minor;
        break;
      }
      if (!attr && field.flagBit < 0 && field.defaultValue == 0 &&
          field.since.minor == 1)
        return refuse(op, "missing attribute '") << field.name << "'";
      appendVarint(out, value);
      break;
    }
    case FieldKind::IntAttr: {
      auto i = dyn_cast_or_null<IntegerAttr>(attr);
      if (!i)
        return refuse(op, "missing integer attribute '") << field.name << "'";
      appendVarint(out, i.getValue().getZExtValue());
      break;
    }
    case FieldKind::BoolAttr: {
      auto b = dyn_cast_or_null<BoolAttr>(attr);
      out.push_back(b && b.getValue() ? 1 : 0);
      break;
    }
    case FieldKind::StringAttr: {
      auto s = dyn_cast_or_null<StringAttr>(attr);
      if (!s)
        return refuse(op, "missing string attribute '") << field.name << "'";
      appendVarint(out, stringIndex(s.getValue()));
      break;
    }
    case FieldKind::SymbolRefAttr: {
      auto s = dyn_cast_or_null<FlatSymbolRefAttr>(attr);
      if (!s)
        return refuse(op, "missing symbol attribute '") << field.name << "'";
      appendVarint(out, stringIndex(s.getValue()));
      break;
    }
    case FieldKind::I32ArrayAttr: {
      auto a = dyn_cast_or_null<DenseI32ArrayAttr>(attr);
      if (!a)
        return refuse(op, "missing array attribute '") << field.name << "'";
      appendIntArray<int32_t>(out, a.asArrayRef());
      break;
    }
    case FieldKind::ConstantAttr: {
      auto d = dyn_cast_or_null<DenseElementsAttr>(attr);
      if (!d)
        return refuse(op, "missing constant value");
      FailureOr<uint64_t> index = constantIndex(d, op);
      if (failed(index))
        return failure();
      appendVarint(out, *index);
      break;
    }
    case FieldKind::TaggedAttr:
      if (!attr)
        return refuse(op, "missing attribute '") << field.name << "'";
      if (failed(writeTaggedAttr(out, attr, op)))
        return failure();
      break;
    case FieldKind::TaggedArrayAttr: {
      auto a = dyn_cast_or_null<ArrayAttr>(attr);
      if (!a)
        return refuse(op, "missing array attribute '") << field.name << "'";
      appendVarint(out, a.size());
      for (Attribute element : a)
        if (failed(writeTaggedAttr(out, element, op)))
          return failure();
      break;
    }
    case FieldKind::HintsAttr:
      if (auto hints = dyn_cast_or_null<ct::OptimizationHintsAttr>(attr))
        if (failed(writeDictionary(out, hints.getValue(), op)))
          return failure();
      break;
    case FieldKind::BoolArrayAttr: {
      auto bools = dyn_cast_or_null<DenseBoolArrayAttr>(attr);
      bool anySet = bools && llvm::is_contained(bools.asArrayRef(), true);
      if (!present) {
        if (anySet)
          return refuse(op, "attribute '")
                 << field.name << "' requires bytecode version "
                 << field.since.major << "." << field.since.minor;
        break;
      }
      if (bools) {
        appendVarint(out, bools.size());
        for (bool b : bools.asArrayRef())
          out.push_back(b ? 1 : 0);
        break;
      }
      // All false, one entry per index operand (the first variadic group).
      size_t count = 0, group = 0;
      for (const FieldSpec &f : spec->fields)
        if (f.kind == FieldKind::Segment) {
          if (f.variadic) {
            count = group < segments.size() ? segments[group] : 0;
            break;
          }
          ++group;
        }
      appendVarint(out, count);
      out.insert(out.end(), count, 0);
      break;
    }
    case FieldKind::Operands: {
      unsigned count = field.count;
      if (field.variadic) {
        count = op->getNumOperands() - operandIndex;
        appendVarint(out, count);
      }
      if (failed(writeOperands(count)))
        return failure();
      break;
    }
    case FieldKind::Segment: {
      if (segment >= segments.size())
        return refuse(op, "operand segments do not match the encoding");
      int32_t count = segments[segment++];
      if (field.variadic)
        appendVarint(out, count);
      else if (field.flagBit < 0 && count != 1)
        return refuse(op, "operand segments do not match the encoding");
      if (failed(writeOperands(count)))
        return failure();
      break;
    }
    case FieldKind::Regions:
      appendVarint(out, op->getNumRegions());
      for (Region &region : op->getRegions())
        if (failed(writeRegion(out, region)))
          return failure();
      break;
    }
  }
  if (operandIndex != op->getNumOperands())
    return refuse(op, "operand count does not match its encoding");
  for (size_t i = 0; i < writtenResults; ++i)
    valueIds[op->getResult(i)] = nextValue++;
  return success();
}

LogicalResult Writer::writeFunction(Bytes &out, Operation *entry) {
  auto name = entry->getAttrOfType<StringAttr>("sym_name");
  auto typeAttr = dyn_cast_or_null<TypeAttr>(
      entry->getInherentAttr("function_type").value_or(Attribute()));
  if (!name || !typeAttr || entry->getNumRegions() != 1 ||
      entry->getRegion(0).getBlocks().size() != 1)
    return refuse(entry, "malformed entry");
  appendVarint(out, stringIndex(name.getValue()));
  FailureOr<uint64_t> signature = typeIndex(typeAttr.getValue(), entry);
  if (failed(signature))
    return failure();
  appendVarint(out, *signature);
  std::optional<Attribute> hintsAttr = entry->getInherentAttr("optimization_hints");
  auto hints = hintsAttr ? dyn_cast_or_null<ct::OptimizationHintsAttr>(*hintsAttr)
                         : ct::OptimizationHintsAttr();
  out.push_back(hints ? 0x06 : 0x02);
  appendVarint(out, 0); // no debug info
  if (hints && failed(writeTaggedAttr(out, hints, entry)))
    return failure();

  valueIds.clear();
  nextValue = 0;
  Block &body = entry->getRegion(0).front();
  for (BlockArgument arg : body.getArguments())
    valueIds[arg] = nextValue++;
  Bytes ops;
  for (Operation &op : body)
    if (failed(writeOp(ops, &op)))
      return failure();
  appendVarint(out, ops.size());
  out.insert(out.end(), ops.begin(), ops.end());
  return success();
}

LogicalResult Writer::writeGlobal(Bytes &out, Operation *global) {
  auto name = global->getAttrOfType<StringAttr>("sym_name");
  std::optional<Attribute> valueAttr = global->getInherentAttr("value");
  auto value = valueAttr ? dyn_cast_or_null<DenseElementsAttr>(*valueAttr)
                         : DenseElementsAttr();
  if (!name || !value)
    return refuse(global, "malformed global");
  bool isConstant = bool(global->getInherentAttr("constant").value_or(Attribute()));
  uint64_t visibility = 0;
  if (std::optional<Attribute> v = global->getInherentAttr("symbol_visibility"))
    if (*v) {
      FailureOr<uint64_t> value = enumValue(*v, global);
      if (failed(value))
        return failure();
      visibility = *value;
    }
  if (!version.atLeast(13, 3) && (isConstant || visibility != 0))
    return refuse(global, "a constant or private global requires bytecode 13.3+");
  appendVarint(out, stringIndex(name.getValue()));
  FailureOr<Type> tile = tileTypeOf(value.getType(), global);
  if (failed(tile))
    return failure();
  FailureOr<uint64_t> type = typeIndex(*tile, global);
  FailureOr<uint64_t> constant = constantIndex(value, global);
  if (failed(type) || failed(constant))
    return failure();
  appendVarint(out, *type);
  appendVarint(out, *constant);
  uint64_t alignment = 0;
  if (std::optional<Attribute> a = global->getInherentAttr("alignment"))
    if (auto i = dyn_cast_or_null<IntegerAttr>(*a))
      alignment = i.getValue().getZExtValue();
  appendVarint(out, alignment);
  if (version.atLeast(13, 3)) {
    appendVarint(out, visibility);
    appendVarint(out, isConstant ? 1 : 0);
  }
  return success();
}

static void appendSection(Bytes &file, SectionId id, const Bytes &payload,
                          unsigned alignment) {
  file.push_back(uint8_t(id) | (alignment > 1 ? 0x80 : 0));
  appendVarint(file, payload.size());
  if (alignment > 1) {
    appendVarint(file, alignment);
    padTo(file, 0, alignment);
  }
  file.insert(file.end(), payload.begin(), payload.end());
}

LogicalResult Writer::write(Operation *module, llvm::raw_ostream &os) {
  if (module->getName().getStringRef() != "cuda_tile.module" ||
      module->getNumRegions() != 1 || module->getRegion(0).empty())
    return module->emitError() << "expected a cuda_tile.module to write";
  Bytes globals, functions;
  uint64_t numGlobals = 0, numFunctions = 0;
  Bytes globalEntries, functionEntries;
  for (Operation &op : module->getRegion(0).front()) {
    llvm::StringRef name = op.getName().getStringRef();
    if (name == "cuda_tile.global") {
      if (failed(writeGlobal(globalEntries, &op)))
        return failure();
      ++numGlobals;
    } else if (name == "cuda_tile.entry") {
      if (failed(writeFunction(functionEntries, &op)))
        return failure();
      ++numFunctions;
    } else {
      return refuse(&op, "only entries and globals may appear in the module");
    }
  }
  appendVarint(globals, numGlobals);
  globals.insert(globals.end(), globalEntries.begin(), globalEntries.end());
  appendVarint(functions, numFunctions);
  functions.insert(functions.end(), functionEntries.begin(), functionEntries.end());
  padTo(functions, 0, 8);

  Bytes producer;
  if (version.atLeast(13, 3))
    if (auto text = module->getAttrOfType<StringAttr>("producer"))
      appendVarint(producer, stringIndex(text.getValue()));

  Bytes file(std::begin(kMagic), std::end(kMagic));
  file.push_back(version.major);
  file.push_back(version.minor);
  appendLE(file, version.tag, 2);
  if (numGlobals)
    appendSection(file, SectionId::Global, globals, 1);
  appendSection(file, SectionId::Func, functions, 8);
  if (!constants.empty())
    appendSection(file, SectionId::Constant, encodeOffsetTable(constants, 8), 8);
  appendSection(file, SectionId::Type, encodeOffsetTable(types, 4), 4);
  if (!producer.empty())
    appendSection(file, SectionId::Producer, producer, 1);
  appendSection(file, SectionId::String, encodeOffsetTable(strings, 4), 4);
  file.push_back(uint8_t(SectionId::End));
  os.write(reinterpret_cast<const char *>(file.data()), file.size());
  return success();
}

LogicalResult tilepipe::writeTileIRBytecode(Operation *module, Version version,
                                            llvm::raw_ostream &os) {
  return Writer(version).write(module, os);
}
