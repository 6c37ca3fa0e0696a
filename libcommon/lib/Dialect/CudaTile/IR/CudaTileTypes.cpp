//===- CudaTileTypes.cpp - cuda_tile types --------------------------------===//
//
// Text forms (as NVIDIA's cuda-tile-opt prints them):
//   tile<4x8xf32>, tile<i32>, tile<4xptr<f16>>, ptr<f32>, token,
//   tensor_view<?x32xf32, strides=[?,1]>, tensor_view<f32>,
//   partition_view<tile=(2x2), [padding_value = P, ]tensor_view<...>[, dim_map=[1, 0]]>,
//   strided_view<tile=(..), traversal_strides=[..], [padding_value = P, ]tensor_view<...>[, dim_map=[..]]>,
//   gather_scatter_view<tile=(..), [padding_value = P, ]tensor_view<...>, sparse_dim=N>.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe::cuda_tile;

#define GET_TYPEDEF_CLASSES
#include "tilepipe/Dialect/CudaTile/IR/CudaTileTypes.cpp.inc"

namespace tilepipe::cuda_tile {

namespace {
/// The largest number of elements a tile may hold (2^24).
constexpr int64_t kMaxTileElements = int64_t(1) << 24;
/// Mnemonics of the cuda_tile types that may be written without prefix.
const llvm::StringRef kTypeMnemonics[] = {
    "tile", "ptr", "token", "tensor_view", "partition_view", "strided_view",
    "gather_scatter_view"};
} // namespace

bool isNumberType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() &&
           llvm::is_contained({1u, 4u, 8u, 16u, 32u, 64u}, intType.getWidth());
  return isa<Float16Type, BFloat16Type, Float32Type, FloatTF32Type, Float64Type,
             Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType,
             Float4E2M1FNType>(type);
}

ParseResult parseCudaTileType(AsmParser &parser, Type &type) {
  StringRef mnemonic;
  if (failed(parser.parseOptionalKeyword(&mnemonic, kTypeMnemonics)))
    return parser.parseType(type);
  // The mnemonic is consumed: dispatch to the type's own parameter parser.
  type = llvm::StringSwitch<function_ref<Type()>>(mnemonic)
             .Case("tile", [&] { return TileType::parse(parser); })
             .Case("ptr", [&] { return PointerType::parse(parser); })
             .Case("tensor_view", [&] { return TensorViewType::parse(parser); })
             .Case("partition_view", [&] { return PartitionViewType::parse(parser); })
             .Case("strided_view", [&] { return StridedViewType::parse(parser); })
             .Case("gather_scatter_view",
                   [&] { return GatherScatterViewType::parse(parser); })
             .Default([&] { return TokenType::get(parser.getContext()); })();
  return success(type != nullptr);
}

void printCudaTileType(AsmPrinter &printer, Type type) {
  if (type.getDialect().getNamespace() == CudaTileDialect::getDialectNamespace() &&
      succeeded(generatedTypePrinter(type, printer)))
    return;
  printer.printType(type);
}

ParseResult parseCudaTileType(OpAsmParser &parser, Type &type) {
  return parseCudaTileType(static_cast<AsmParser &>(parser), type);
}

ParseResult parseCudaTileType(OpAsmParser &parser,
                              llvm::SmallVectorImpl<Type> &types) {
  return parser.parseCommaSeparatedList([&]() -> ParseResult {
    return parseCudaTileType(parser, types.emplace_back());
  });
}

void printCudaTileType(OpAsmPrinter &printer, Operation *, Type type) {
  printCudaTileType(static_cast<AsmPrinter &>(printer), type);
}

void printCudaTileType(OpAsmPrinter &printer, Operation *, TypeRange types) {
  llvm::interleaveComma(types, printer, [&](Type type) {
    printCudaTileType(static_cast<AsmPrinter &>(printer), type);
  });
}

} // namespace tilepipe::cuda_tile

//===----------------------------------------------------------------------===//
// Shared pieces of the type syntax
//===----------------------------------------------------------------------===//

namespace {

/// `[1,?,4]` (no spaces; `?` is a dynamic value).
ParseResult parseBracketedList(AsmParser &parser, SmallVectorImpl<int64_t> &values,
                               bool allowDynamic) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
    if (allowDynamic && succeeded(parser.parseOptionalQuestion())) {
      values.push_back(ShapedType::kDynamic);
      return success();
    }
    return parser.parseInteger(values.emplace_back());
  });
}

void printCompactList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleave(
      values, printer,
      [&](int64_t v) {
        if (ShapedType::isDynamic(v))
          printer << '?';
        else
          printer << v;
      },
      ",");
  printer << ']';
}

/// `tile=(2x4)`.
ParseResult parseTileShape(AsmParser &parser, SmallVectorImpl<int32_t> &shape) {
  SmallVector<int64_t> dims;
  if (parser.parseKeyword("tile") || parser.parseEqual() || parser.parseLParen() ||
      parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                /*withTrailingX=*/false) ||
      parser.parseRParen())
    return failure();
  for (int64_t d : dims) {
    if (d < INT32_MIN || d > INT32_MAX)
      return parser.emitError(parser.getCurrentLocation(),
                              "tile dimension does not fit in 32 bits");
    shape.push_back(static_cast<int32_t>(d));
  }
  return success();
}

void printTileShape(AsmPrinter &printer, ArrayRef<int32_t> shape) {
  printer << "tile=(";
  llvm::interleave(shape, printer, "x");
  printer << ')';
}

/// `padding_value = nan, ` (optional).
ParseResult parseOptionalPadding(AsmParser &parser, PaddingValueAttr &padding) {
  if (failed(parser.parseOptionalKeyword("padding_value")))
    return success();
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseEqual() || parser.parseKeyword(&keyword))
    return failure();
  std::optional<PaddingValue> value = symbolizePaddingValue(keyword);
  if (!value)
    return parser.emitError(loc, "unknown padding value '") << keyword << "'";
  padding = PaddingValueAttr::get(parser.getContext(), *value);
  return parser.parseComma();
}

void printOptionalPadding(AsmPrinter &printer, PaddingValueAttr padding) {
  if (padding)
    printer << "padding_value = " << stringifyPaddingValue(padding.getValue())
            << ", ";
}

/// The nested `tensor_view<...>` (prefix optional).
ParseResult parseNestedTensorView(AsmParser &parser, TensorViewType &view) {
  Type type;
  SMLoc loc = parser.getCurrentLocation();
  if (parseCudaTileType(parser, type))
    return failure();
  view = dyn_cast<TensorViewType>(type);
  if (!view)
    return parser.emitError(loc, "expected a tensor_view type");
  return success();
}

/// `, dim_map=[1, 0]` (optional; absent means the identity).
ParseResult parseOptionalDimMap(AsmParser &parser, SmallVectorImpl<int32_t> &dimMap,
                                size_t rank) {
  if (succeeded(parser.parseOptionalComma())) {
    SmallVector<int64_t> values;
    if (parser.parseKeyword("dim_map") || parser.parseEqual() ||
        parseBracketedList(parser, values, /*allowDynamic=*/false))
      return failure();
    for (int64_t v : values) {
      if (v < INT32_MIN || v > INT32_MAX)
        return parser.emitError(parser.getCurrentLocation(),
                                "dim_map entry does not fit in 32 bits");
      dimMap.push_back(static_cast<int32_t>(v));
    }
    return success();
  }
  for (size_t i = 0; i < rank; ++i)
    dimMap.push_back(static_cast<int32_t>(i));
  return success();
}

bool isIdentity(ArrayRef<int32_t> dimMap) {
  for (auto [i, v] : llvm::enumerate(dimMap))
    if (v != static_cast<int32_t>(i))
      return false;
  return true;
}

void printOptionalDimMap(AsmPrinter &printer, ArrayRef<int32_t> dimMap) {
  if (isIdentity(dimMap))
    return;
  printer << ", dim_map=[";
  llvm::interleaveComma(dimMap, printer);
  printer << ']';
}

LogicalResult verifyTileViewShape(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int32_t> tileShape,
                                  TensorViewType tensorView,
                                  ArrayRef<int32_t> dimMap) {
  for (int32_t d : tileShape)
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return emitError() << "tile dimensions must be positive powers of two, got "
                         << d;
  size_t viewRank = tensorView.getShape().size();
  if (dimMap.size() != tileShape.size())
    return emitError() << "expected dim_map to map exactly all "
                       << tileShape.size() << " dimensions of the tile, got "
                       << dimMap.size() << " mappings";
  llvm::SmallVector<bool> seen(viewRank, false);
  for (int32_t target : dimMap) {
    if (target < 0 || static_cast<size_t>(target) >= viewRank)
      return emitError() << "target dimension is outside of tensor view "
                            "dimensions, expected strictly less than "
                         << viewRank << ", got " << target;
    if (seen[target])
      return emitError() << "target dimension " << target
                         << " mapped more than once";
    seen[target] = true;
  }
  return success();
}

LogicalResult verifyPadding(function_ref<InFlightDiagnostic()> emitError,
                            PaddingValueAttr padding, TensorViewType view) {
  if (!padding || padding.getValue() == PaddingValue::zero)
    return success();
  if (!isa<FloatType>(view.getElementType()))
    return emitError() << "padding_value " << stringifyPaddingValue(padding.getValue())
                       << " requires a floating-point element type";
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// PointerType
//===----------------------------------------------------------------------===//

Type PointerType::parse(AsmParser &parser) {
  Type pointee;
  if (parser.parseLess() || parseCudaTileType(parser, pointee) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), pointee);
}

void PointerType::print(AsmPrinter &printer) const {
  printer << '<';
  printCudaTileType(printer, getPointeeType());
  printer << '>';
}

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointee) {
  if (!isNumberType(pointee))
    return emitError() << "pointee type must be an integer or float type, got "
                       << pointee;
  return success();
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type element;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parseCudaTileType(parser, element) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), shape, element);
}

void TileType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t d : getShape())
    printer << d << 'x';
  printCudaTileType(printer, getElementType());
  printer << '>';
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type element) {
  if (!isNumberType(element) && !isa<PointerType>(element))
    return emitError() << "failed to verify 'elementType': f16 or bf16 or f32 "
                          "or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU "
                          "or f4E2M1FN or i1 or i4 or i8 or i16 or i32 or i64 "
                          "or Pointer type";
  auto dims = [&] {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(shape, os);
    return text;
  };
  if (llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "all dimensions must be positive constants, got "
                       << dims();
  if (!llvm::all_of(shape, [](int64_t d) { return llvm::isPowerOf2_64(d); }))
    return emitError() << "all dimensions must be powers of two, got " << dims();
  int64_t count = 1;
  for (int64_t d : shape) {
    if (d > kMaxTileElements || count * d > kMaxTileElements)
      return emitError() << "tile would exceed the maximum of "
                         << kMaxTileElements << " elements";
    count *= d;
  }
  return success();
}

TileType TileType::cloneWith(std::optional<ArrayRef<int64_t>> shape,
                             Type elementType) const {
  return TileType::get(getContext(), shape ? *shape : getShape(), elementType);
}

int64_t TileType::getNumElements() const {
  int64_t count = 1;
  for (int64_t d : getShape())
    count *= d;
  return count;
}

//===----------------------------------------------------------------------===//
// TensorViewType
//===----------------------------------------------------------------------===//

Type TensorViewType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, strides;
  Type element;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/true,
                                /*withTrailingX=*/true) ||
      parseCudaTileType(parser, element))
    return {};
  if (!shape.empty() &&
      (parser.parseComma() || parser.parseKeyword("strides") ||
       parser.parseEqual() ||
       parseBracketedList(parser, strides, /*allowDynamic=*/true)))
    return {};
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), element, shape, strides);
}

void TensorViewType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t d : getShape()) {
    if (ShapedType::isDynamic(d))
      printer << '?';
    else
      printer << d;
    printer << 'x';
  }
  printCudaTileType(printer, getElementType());
  if (!getShape().empty()) {
    printer << ", strides=";
    printCompactList(printer, getStrides());
  }
  printer << '>';
}

LogicalResult TensorViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                                     Type element, ArrayRef<int64_t> shape,
                                     ArrayRef<int64_t> strides) {
  if (!isNumberType(element))
    return emitError() << "tensor_view element type must be an integer or "
                          "float type, got "
                       << element;
  if (shape.size() != strides.size())
    return emitError() << "expected strides to have the same rank as the "
                          "shape, got "
                       << strides.size() << " strides for rank "
                       << shape.size();
  for (int64_t d : shape)
    if (!ShapedType::isDynamic(d) && d <= 0)
      return emitError() << "tensor_view dimensions must be positive, got " << d;
  for (int64_t s : strides)
    if (!ShapedType::isDynamic(s) && s <= 0)
      return emitError() << "tensor_view strides must be positive, got " << s;
  return success();
}

unsigned TensorViewType::getNumDynamicShape() const {
  return llvm::count_if(getShape(), ShapedType::isDynamic);
}

unsigned TensorViewType::getNumDynamicStrides() const {
  return llvm::count_if(getStrides(), ShapedType::isDynamic);
}

//===----------------------------------------------------------------------===//
// PartitionViewType
//===----------------------------------------------------------------------===//

Type PartitionViewType::parse(AsmParser &parser) {
  SmallVector<int32_t> tileShape, dimMap;
  PaddingValueAttr padding;
  TensorViewType view;
  if (parser.parseLess() || parseTileShape(parser, tileShape) ||
      parser.parseComma() || parseOptionalPadding(parser, padding) ||
      parseNestedTensorView(parser, view) ||
      parseOptionalDimMap(parser, dimMap, tileShape.size()) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), tileShape, view, dimMap, padding);
}

void PartitionViewType::print(AsmPrinter &printer) const {
  printer << '<';
  printTileShape(printer, getTileShape());
  printer << ", ";
  printOptionalPadding(printer, getPaddingValue());
  printCudaTileType(printer, getTensorView());
  printOptionalDimMap(printer, getDimMap());
  printer << '>';
}

LogicalResult PartitionViewType::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int32_t> tileShape,
    TensorViewType view, ArrayRef<int32_t> dimMap, PaddingValueAttr padding) {
  if (failed(verifyTileViewShape(emitError, tileShape, view, dimMap)))
    return failure();
  return verifyPadding(emitError, padding, view);
}

//===----------------------------------------------------------------------===//
// StridedViewType
//===----------------------------------------------------------------------===//

Type StridedViewType::parse(AsmParser &parser) {
  SmallVector<int32_t> tileShape, dimMap;
  SmallVector<int64_t> strides;
  PaddingValueAttr padding;
  TensorViewType view;
  if (parser.parseLess() || parseTileShape(parser, tileShape) ||
      parser.parseComma() || parser.parseKeyword("traversal_strides") ||
      parser.parseEqual() ||
      parseBracketedList(parser, strides, /*allowDynamic=*/false) ||
      parser.parseComma() || parseOptionalPadding(parser, padding) ||
      parseNestedTensorView(parser, view) ||
      parseOptionalDimMap(parser, dimMap, tileShape.size()) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), tileShape, strides, view, dimMap,
                    padding);
}

void StridedViewType::print(AsmPrinter &printer) const {
  printer << '<';
  printTileShape(printer, getTileShape());
  printer << ", traversal_strides=";
  printCompactList(printer, getTraversalStrides());
  printer << ", ";
  printOptionalPadding(printer, getPaddingValue());
  printCudaTileType(printer, getTensorView());
  printOptionalDimMap(printer, getDimMap());
  printer << '>';
}

LogicalResult StridedViewType::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int32_t> tileShape,
    ArrayRef<int64_t> traversalStrides, TensorViewType view,
    ArrayRef<int32_t> dimMap, PaddingValueAttr padding) {
  if (traversalStrides.size() != tileShape.size())
    return emitError() << "expected " << tileShape.size()
                       << " traversal strides, got " << traversalStrides.size();
  for (int64_t s : traversalStrides)
    if (s <= 0)
      return emitError() << "traversal strides must be positive, got " << s;
  if (failed(verifyTileViewShape(emitError, tileShape, view, dimMap)))
    return failure();
  return verifyPadding(emitError, padding, view);
}

//===----------------------------------------------------------------------===//
// GatherScatterViewType
//===----------------------------------------------------------------------===//

Type GatherScatterViewType::parse(AsmParser &parser) {
  SmallVector<int32_t> tileShape;
  PaddingValueAttr padding;
  TensorViewType view;
  uint32_t sparseDim = 0;
  if (parser.parseLess() || parseTileShape(parser, tileShape) ||
      parser.parseComma() || parseOptionalPadding(parser, padding) ||
      parseNestedTensorView(parser, view) || parser.parseComma() ||
      parser.parseKeyword("sparse_dim") || parser.parseEqual() ||
      parser.parseInteger(sparseDim) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), tileShape, view, sparseDim, padding);
}

void GatherScatterViewType::print(AsmPrinter &printer) const {
  printer << '<';
  printTileShape(printer, getTileShape());
  printer << ", ";
  printOptionalPadding(printer, getPaddingValue());
  printCudaTileType(printer, getTensorView());
  printer << ", sparse_dim=" << getSparseDim() << '>';
}

LogicalResult GatherScatterViewType::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int32_t> tileShape,
    TensorViewType view, uint32_t sparseDim, PaddingValueAttr padding) {
  for (int32_t d : tileShape)
    if (d <= 0 || !llvm::isPowerOf2_64(d))
      return emitError() << "tile dimensions must be positive powers of two, got "
                         << d;
  if (tileShape.size() != view.getShape().size())
    return emitError() << "expected tile rank " << tileShape.size()
                       << " to match the tensor_view rank "
                       << view.getShape().size();
  if (sparseDim >= view.getShape().size())
    return emitError() << "sparse_dim " << sparseDim
                       << " is outside of the tensor_view dimensions";
  return verifyPadding(emitError, padding, view);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void CudaTileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilepipe/Dialect/CudaTile/IR/CudaTileTypes.cpp.inc"
      >();
}
