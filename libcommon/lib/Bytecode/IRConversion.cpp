//===- IRConversion.cpp - Wire tables to cuda_tile types/attributes/locs --===//

#include "IRConversion.h"

#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

using namespace tilepipe::bytecode;
using namespace mlir;
namespace ct = tilepipe::cuda_tile;
using llvm::Twine;

IRConversion::IRConversion(MLIRContext *context, const WireModule &wire,
                           WireDiagnostic &diag)
    : context(context), wire(wire), diag(diag), types(wire.types.size()),
      typeState(wire.types.size(), State::Unvisited),
      debugAttrs(wire.debugAttrs.size()),
      debugState(wire.debugAttrs.size(), State::Unvisited) {}

/// Emits verifier complaints of getChecked() as plain errors; the wire
/// diagnostic then says where in the file the bad type or attribute was.
static auto emitAtUnknown(MLIRContext *context) {
  return [context]() { return emitError(UnknownLoc::get(context)); };
}

FailureOr<llvm::StringRef> IRConversion::string(uint64_t index,
                                                const ByteCursor &at) {
  if (index >= wire.strings.size() || !wire.stringValid[index]) {
    (void)at.fail("string index " + Twine(index) + " out of bounds");
    return failure();
  }
  return wire.strings[index];
}

FailureOr<Type> IRConversion::getType(uint64_t index, const ByteCursor &at) {
  return getTypeAtDepth(index, at, 0);
}

FailureOr<Type> IRConversion::getTypeAtDepth(uint64_t index, const ByteCursor &at,
                                             unsigned depth) {
  if (index >= types.size()) {
    (void)at.fail("type index " + Twine(index) + " out of bounds");
    return failure();
  }
  if (typeState[index] == State::Done)
    return types[index];
  if (typeState[index] == State::InProgress) {
    (void)at.fail("cyclic type reference at type index " + Twine(index));
    return failure();
  }
  if (depth > kMaxTypeNesting) {
    (void)at.fail("type nesting exceeds " + Twine(kMaxTypeNesting));
    return failure();
  }
  typeState[index] = State::InProgress;
  FailureOr<Type> type = convertType(wire.types[index], at, depth + 1);
  if (failed(type)) {
    diag.addContext("failed to get type " + Twine(index));
    typeState[index] = State::Unvisited;
    return failure();
  }
  types[index] = *type;
  typeState[index] = State::Done;
  return *type;
}

static Type scalarType(MLIRContext *ctx, TypeTag tag) {
  switch (tag) {
  case TypeTag::I1: return IntegerType::get(ctx, 1);
  case TypeTag::I4: return IntegerType::get(ctx, 4);
  case TypeTag::I8: return IntegerType::get(ctx, 8);
  case TypeTag::I16: return IntegerType::get(ctx, 16);
  case TypeTag::I32: return IntegerType::get(ctx, 32);
  case TypeTag::I64: return IntegerType::get(ctx, 64);
  case TypeTag::F16: return Float16Type::get(ctx);
  case TypeTag::BF16: return BFloat16Type::get(ctx);
  case TypeTag::F32: return Float32Type::get(ctx);
  case TypeTag::TF32: return FloatTF32Type::get(ctx);
  case TypeTag::F64: return Float64Type::get(ctx);
  case TypeTag::F8E4M3FN: return Float8E4M3FNType::get(ctx);
  case TypeTag::F8E5M2: return Float8E5M2Type::get(ctx);
  case TypeTag::F8E8M0FNU: return Float8E8M0FNUType::get(ctx);
  case TypeTag::F4E2M1FN: return Float4E2M1FNType::get(ctx);
  case TypeTag::Token: return ct::TokenType::get(ctx);
  default: return nullptr;
  }
}

FailureOr<Type> IRConversion::convertType(const WireType &type,
                                          const ByteCursor &at, unsigned depth) {
  if (Type scalar = scalarType(context, TypeTag(type.tag)))
    return scalar;
  auto sub = [&](uint64_t index) { return getTypeAtDepth(index, at, depth); };
  auto tensorView = [&](uint64_t index) -> FailureOr<ct::TensorViewType> {
    FailureOr<Type> viewed = sub(index);
    if (failed(viewed))
      return failure();
    auto tv = dyn_cast<ct::TensorViewType>(*viewed);
    if (!tv) {
      (void)at.fail("view type must refer to a tensor_view type");
      return failure();
    }
    return tv;
  };
  auto padding = [&]() -> ct::PaddingValueAttr {
    if (!type.padding)
      return nullptr;
    return ct::PaddingValueAttr::get(
        context, *ct::symbolizePaddingValue(uint32_t(*type.padding)));
  };
  auto checked = [&](Type result) -> FailureOr<Type> {
    if (!result) {
      (void)at.fail("invalid type parameters (type tag " + Twine(type.tag) + ")");
      return failure();
    }
    return result;
  };
  auto emit = emitAtUnknown(context);
  switch (TypeTag(type.tag)) {
  case TypeTag::Pointer: {
    FailureOr<Type> pointee = sub(type.elementType);
    if (failed(pointee))
      return failure();
    return checked(ct::PointerType::getChecked(emit, context, *pointee));
  }
  case TypeTag::Tile: {
    FailureOr<Type> element = sub(type.elementType);
    if (failed(element))
      return failure();
    return checked(ct::TileType::getChecked(emit, context, llvm::ArrayRef<int64_t>(type.shape), *element));
  }
  case TypeTag::TensorView: {
    FailureOr<Type> element = sub(type.elementType);
    if (failed(element))
      return failure();
    return checked(ct::TensorViewType::getChecked(
        emit, context, *element, llvm::ArrayRef<int64_t>(type.shape),
        llvm::ArrayRef<int64_t>(type.strides)));
  }
  case TypeTag::PartitionView: {
    FailureOr<ct::TensorViewType> tv = tensorView(type.viewType);
    if (failed(tv))
      return failure();
    return checked(ct::PartitionViewType::getChecked(
        emit, context, llvm::ArrayRef<int32_t>(type.tileShape), *tv,
        llvm::ArrayRef<int32_t>(type.dimMap), padding()));
  }
  case TypeTag::StridedView: {
    FailureOr<ct::TensorViewType> tv = tensorView(type.viewType);
    if (failed(tv))
      return failure();
    llvm::SmallVector<int64_t> strides(type.traversalStrides.begin(),
                                       type.traversalStrides.end());
    return checked(ct::StridedViewType::getChecked(
        emit, context, llvm::ArrayRef<int32_t>(type.tileShape),
        llvm::ArrayRef<int64_t>(strides), *tv,
        llvm::ArrayRef<int32_t>(type.dimMap), padding()));
  }
  case TypeTag::GatherScatterView: {
    FailureOr<ct::TensorViewType> tv = tensorView(type.viewType);
    if (failed(tv))
      return failure();
    if (type.sparseDim > UINT32_MAX) {
      (void)at.fail("sparse_dim out of range");
      return failure();
    }
    return checked(ct::GatherScatterViewType::getChecked(
        emit, context, llvm::ArrayRef<int32_t>(type.tileShape), *tv,
        uint32_t(type.sparseDim), padding()));
  }
  case TypeTag::Function: {
    llvm::SmallVector<Type> inputs, results;
    for (uint64_t index : type.inputs) {
      FailureOr<Type> t = sub(index);
      if (failed(t))
        return failure();
      inputs.push_back(*t);
    }
    for (uint64_t index : type.results) {
      FailureOr<Type> t = sub(index);
      if (failed(t))
        return failure();
      results.push_back(*t);
    }
    return Type(FunctionType::get(context, inputs, results));
  }
  default:
    (void)at.fail("unsupported type tag " + Twine(type.tag));
    return failure();
  }
}

FailureOr<Attribute> IRConversion::enumAttr(llvm::StringRef kind, uint64_t value,
                                            const ByteCursor &at) {
  if (value <= UINT32_MAX) {
    uint32_t v = uint32_t(value);
#define TILEPIPE_ENUM_ATTR(Kind)                                               \
  if (kind == #Kind) {                                                         \
    if (auto symbol = ct::symbolize##Kind(v))                                  \
      return Attribute(ct::Kind##Attr::get(context, *symbol));                 \
  }
    TILEPIPE_ENUM_ATTR(RoundingMode)
    TILEPIPE_ENUM_ATTR(IntegerOverflow)
    TILEPIPE_ENUM_ATTR(Signedness)
    TILEPIPE_ENUM_ATTR(ComparisonPredicate)
    TILEPIPE_ENUM_ATTR(ComparisonOrdering)
    TILEPIPE_ENUM_ATTR(MemoryOrderingSemantics)
    TILEPIPE_ENUM_ATTR(MemoryScope)
    TILEPIPE_ENUM_ATTR(AtomicRMWMode)
    TILEPIPE_ENUM_ATTR(PaddingValue)
    TILEPIPE_ENUM_ATTR(SymbolVisibility)
#undef TILEPIPE_ENUM_ATTR
  }
  (void)at.fail("invalid value " + Twine(value) + " for enum " + kind);
  return failure();
}

FailureOr<Attribute> IRConversion::denseConstant(uint64_t constantIndex,
                                                 Type tileType,
                                                 const ByteCursor &at) {
  if (constantIndex >= wire.constants.size()) {
    (void)at.fail("constant index " + Twine(constantIndex) + " out of bounds");
    return failure();
  }
  auto tile = dyn_cast_or_null<ct::TileType>(tileType);
  if (!tile || !tile.getElementType().isIntOrFloat()) {
    (void)at.fail("constant must have a tile type of numbers");
    return failure();
  }
  // Bound the element count before MLIR computes sizes from the shape.
  uint64_t numElements = 1;
  for (int64_t dim : tile.getShape()) {
    if (dim < 0 || (dim > 0 && numElements > (uint64_t(1) << 31) / uint64_t(dim))) {
      (void)at.fail("constant shape is negative or too large");
      return failure();
    }
    numElements *= uint64_t(dim);
  }
  auto storageType =
      RankedTensorType::get(tile.getShape(), tile.getElementType());
  llvm::ArrayRef<uint8_t> blob = wire.constants[constantIndex];
  llvm::ArrayRef<char> raw(reinterpret_cast<const char *>(blob.data()),
                           blob.size());
  bool splat = false;
  if (!DenseElementsAttr::isValidRawBuffer(storageType, raw, splat)) {
    (void)at.fail("constant " + Twine(constantIndex) + " has " +
                  Twine(blob.size()) + " bytes, which do not fit its type");
    return failure();
  }
  return Attribute(DenseElementsAttr::getFromRawBuffer(storageType, raw));
}

FailureOr<Attribute> IRConversion::convertDictionary(const WireAttr &attr,
                                                     const ByteCursor &at,
                                                     unsigned depth) {
  llvm::SmallVector<NamedAttribute> entries;
  for (const auto &[key, value] : attr.entries) {
    FailureOr<llvm::StringRef> name = string(key, at);
    if (failed(name))
      return failure();
    FailureOr<Attribute> converted = convertAttr(value, at, depth + 1);
    if (failed(converted))
      return failure();
    entries.emplace_back(StringAttr::get(context, *name), *converted);
  }
  return Attribute(DictionaryAttr::get(context, entries));
}

FailureOr<Attribute> IRConversion::convertAttr(const WireAttr &attr,
                                               const ByteCursor &at,
                                               unsigned depth) {
  if (depth > kMaxAttrNesting) {
    (void)at.fail("attribute nesting exceeds " + Twine(kMaxAttrNesting));
    return failure();
  }
  auto emit = emitAtUnknown(context);
  switch (AttrTag(attr.tag)) {
  case AttrTag::Integer: {
    FailureOr<Type> type = getType(attr.typeIndex, at);
    if (failed(type))
      return failure();
    auto intType = dyn_cast<IntegerType>(*type);
    if (!intType) {
      (void)at.fail("integer attribute with a non-integer type");
      return failure();
    }
    llvm::APInt value(64, attr.intValue);
    return Attribute(IntegerAttr::get(intType, value.trunc(intType.getWidth())));
  }
  case AttrTag::Float: {
    FailureOr<Type> type = getType(attr.typeIndex, at);
    if (failed(type))
      return failure();
    auto floatType = dyn_cast<FloatType>(*type);
    if (!floatType || attr.floatWords.empty()) {
      (void)at.fail("float attribute with a non-float type");
      return failure();
    }
    unsigned width = floatType.getWidth();
    llvm::APInt bits(64, attr.floatWords.front());
    if (width < 64 && bits.getActiveBits() > width) {
      (void)at.fail("float attribute bits do not fit its type");
      return failure();
    }
    llvm::APFloat value(floatType.getFloatSemantics(), bits.trunc(width));
    return Attribute(FloatAttr::get(floatType, value));
  }
  case AttrTag::Bool:
    return Attribute(BoolAttr::get(context, attr.boolValue));
  case AttrTag::Type: {
    FailureOr<Type> type = getType(attr.typeIndex, at);
    if (failed(type))
      return failure();
    return Attribute(TypeAttr::get(*type));
  }
  case AttrTag::String: {
    FailureOr<llvm::StringRef> text = string(attr.index, at);
    if (failed(text))
      return failure();
    return Attribute(StringAttr::get(context, *text));
  }
  case AttrTag::Array: {
    llvm::SmallVector<Attribute> elements;
    for (const WireAttr &element : attr.elements) {
      FailureOr<Attribute> converted = convertAttr(element, at, depth + 1);
      if (failed(converted))
        return failure();
      elements.push_back(*converted);
    }
    return Attribute(ArrayAttr::get(context, elements));
  }
  case AttrTag::DenseElements: {
    FailureOr<Type> type = getType(attr.typeIndex, at);
    if (failed(type))
      return failure();
    return denseConstant(attr.index, *type, at);
  }
  case AttrTag::DivBy: {
    std::optional<int64_t> every, along;
    if (attr.flags & 1)
      every = attr.first;
    if (attr.flags & 2)
      along = attr.second;
    Attribute result =
        ct::DivByAttr::getChecked(emit, context, attr.intValue, every, along);
    if (!result) {
      (void)at.fail("invalid div_by attribute");
      return failure();
    }
    return result;
  }
  case AttrTag::SameElements:
    return Attribute(ct::SameElementsAttr::get(
        context, DenseI64ArrayAttr::get(context, attr.values)));
  case AttrTag::Dictionary:
    return convertDictionary(attr, at, depth);
  case AttrTag::OptimizationHints: {
    FailureOr<Attribute> dict = convertDictionary(attr, at, depth);
    if (failed(dict))
      return failure();
    Attribute result = ct::OptimizationHintsAttr::getChecked(
        emit, context, cast<DictionaryAttr>(*dict));
    if (!result) {
      (void)at.fail("invalid optimization hints");
      return failure();
    }
    return result;
  }
  case AttrTag::Bounded: {
    std::optional<int64_t> lb, ub;
    if (attr.flags & 1)
      lb = attr.first;
    if (attr.flags & 2)
      ub = attr.second;
    Attribute result = ct::BoundedAttr::getChecked(emit, context, lb, ub);
    if (!result) {
      (void)at.fail("invalid bounded attribute");
      return failure();
    }
    return result;
  }
  }
  (void)at.fail("unsupported AttributeTag " + Twine(attr.tag));
  return failure();
}

//===----------------------------------------------------------------------===//
// Debug info
//===----------------------------------------------------------------------===//

FailureOr<Location> IRConversion::getLocation(uint64_t debugIndex,
                                              const ByteCursor &at) {
  if (debugIndex == 0)
    return Location(UnknownLoc::get(context));
  FailureOr<Attribute> attr = getDebugAttr(debugIndex, at, 0);
  if (failed(attr))
    return failure();
  if (auto loc = dyn_cast<LocationAttr>(*attr))
    return Location(loc);
  (void)at.fail("debug attribute " + Twine(debugIndex) + " is not a location");
  return failure();
}

FailureOr<Attribute> IRConversion::getDebugAttr(uint64_t debugIndex,
                                                const ByteCursor &at,
                                                unsigned depth) {
  if (debugIndex == 0)
    return Attribute(UnknownLoc::get(context));
  uint64_t slot = debugIndex - 1;
  if (slot >= debugAttrs.size()) {
    (void)at.fail("debug attribute index " + Twine(debugIndex) + " out of bounds");
    return failure();
  }
  if (debugState[slot] == State::Done)
    return debugAttrs[slot];
  if (debugState[slot] == State::InProgress) {
    (void)at.fail("cyclic debug info reference at index " + Twine(debugIndex));
    return failure();
  }
  if (depth > kMaxDebugNesting) {
    (void)at.fail("debug info nesting exceeds " + Twine(kMaxDebugNesting));
    return failure();
  }
  debugState[slot] = State::InProgress;
  FailureOr<Attribute> attr = convertDebugAttr(wire.debugAttrs[slot], at, depth + 1);
  if (failed(attr)) {
    debugState[slot] = State::Unvisited;
    return failure();
  }
  debugAttrs[slot] = *attr;
  debugState[slot] = State::Done;
  return *attr;
}

FailureOr<Attribute> IRConversion::convertDebugAttr(const WireDebugAttr &attr,
                                                    const ByteCursor &at,
                                                    unsigned depth) {
  auto sub = [&](uint64_t index) { return getDebugAttr(index, at, depth); };
  auto expect = [&](uint64_t index, auto tag, llvm::StringRef what)
      -> FailureOr<decltype(tag)> {
    FailureOr<Attribute> a = sub(index);
    if (failed(a))
      return failure();
    if (auto typed = dyn_cast<decltype(tag)>(*a))
      return typed;
    (void)at.fail("debug attribute " + Twine(index) + " is not a " + what);
    return failure();
  };
  auto str = [&](uint64_t index) -> FailureOr<StringAttr> {
    FailureOr<llvm::StringRef> s = string(index, at);
    if (failed(s))
      return failure();
    return StringAttr::get(context, *s);
  };
  auto lineOrCol = [&](uint64_t value) -> FailureOr<unsigned> {
    if (value > UINT32_MAX) {
      (void)at.fail("debug line/column out of range");
      return failure();
    }
    return unsigned(value);
  };
  const auto &f = attr.fields;
  switch (DebugTag(attr.tag)) {
  case DebugTag::File: {
    auto name = str(f[0]);
    auto dir = str(f[1]);
    if (failed(name) || failed(dir))
      return failure();
    return Attribute(ct::DIFileAttr::get(context, *name, *dir));
  }
  case DebugTag::CompileUnit: {
    auto file = expect(f[0], ct::DIFileAttr(), "file");
    if (failed(file))
      return failure();
    return Attribute(ct::DICompileUnitAttr::get(context, *file));
  }
  case DebugTag::Subprogram: {
    auto file = expect(f[0], ct::DIFileAttr(), "file");
    auto line = lineOrCol(f[1]);
    auto name = str(f[2]);
    auto linkage = str(f[3]);
    auto unit = expect(f[4], ct::DICompileUnitAttr(), "compile unit");
    auto scopeLine = lineOrCol(f[5]);
    if (failed(file) || failed(line) || failed(name) || failed(linkage) ||
        failed(unit) || failed(scopeLine))
      return failure();
    return Attribute(ct::DISubprogramAttr::get(context, *file, *line, *name,
                                               *linkage, *unit, *scopeLine));
  }
  case DebugTag::LexicalBlock: {
    FailureOr<Attribute> scope = sub(f[0]);
    auto file = expect(f[1], ct::DIFileAttr(), "file");
    auto line = lineOrCol(f[2]);
    auto column = lineOrCol(f[3]);
    if (failed(scope) || failed(file) || failed(line) || failed(column))
      return failure();
    Attribute result = ct::DILexicalBlockAttr::getChecked(
        emitAtUnknown(context), context, *scope, *file, *line, *column);
    if (!result) {
      (void)at.fail("invalid lexical block");
      return failure();
    }
    return result;
  }
  case DebugTag::Loc: {
    FailureOr<Attribute> scope = sub(f[0]);
    auto file = str(f[1]);
    auto line = lineOrCol(f[2]);
    auto column = lineOrCol(f[3]);
    if (failed(scope) || failed(file) || failed(line) || failed(column))
      return failure();
    auto source = FileLineColLoc::get(*file, *line, *column);
    Attribute result = ct::DILocAttr::getChecked(emitAtUnknown(context), context,
                                                 source, *scope);
    if (!result) {
      (void)at.fail("invalid debug location");
      return failure();
    }
    return result;
  }
  case DebugTag::CallSite: {
    FailureOr<Attribute> callee = sub(f[0]);
    FailureOr<Attribute> caller = sub(f[1]);
    if (failed(callee) || failed(caller))
      return failure();
    auto calleeLoc = dyn_cast<LocationAttr>(*callee);
    auto callerLoc = dyn_cast<LocationAttr>(*caller);
    if (!calleeLoc || !callerLoc) {
      (void)at.fail("call site refers to a non-location");
      return failure();
    }
    return Attribute(CallSiteLoc::get(calleeLoc, callerLoc));
  }
  }
  // Unknown tags decode as an unknown location (as NVIDIA's reader does).
  return Attribute(UnknownLoc::get(context));
}
