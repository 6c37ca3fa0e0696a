//===- CudaTileOps.cpp - cuda_tile structure, memory and control ops ------===//
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilepipe::cuda_tile;

//===----------------------------------------------------------------------===//
// Custom directives shared by several ops
//===----------------------------------------------------------------------===//

/// Scalars of one dense literal: ints (`-3`), booleans, floats (decimal or
/// hex bit patterns), read into `values` in row-major order.
static ParseResult parseConstantScalar(OpAsmParser &parser, Type elementType,
                                       SmallVectorImpl<Attribute> &values) {
  SMLoc loc = parser.getCurrentLocation();
  if (auto intType = dyn_cast<IntegerType>(elementType)) {
    unsigned width = intType.getWidth();
    if (succeeded(parser.parseOptionalKeyword("true"))) {
      values.push_back(IntegerAttr::get(intType, APInt(width, 1)));
      return success();
    }
    if (succeeded(parser.parseOptionalKeyword("false"))) {
      values.push_back(IntegerAttr::get(intType, APInt(width, 0)));
      return success();
    }
    APInt value;
    if (parser.parseInteger(value))
      return failure();
    // Accept values that fit as signed or as unsigned integers of the width.
    bool fits = value.isNegative()
                    ? value.getSignificantBits() <= width
                    : value.getActiveBits() <= width;
    if (!fits)
      return parser.emitError(loc, "integer constant out of range for ")
             << elementType;
    values.push_back(IntegerAttr::get(intType, value.sextOrTrunc(width)));
    return success();
  }
  auto floatType = dyn_cast<FloatType>(elementType);
  if (!floatType)
    return parser.emitError(loc, "constant element type must be an integer or "
                                 "float type, got ")
           << elementType;
  APFloat value(floatType.getFloatSemantics());
  if (parser.parseFloat(floatType.getFloatSemantics(), value))
    return failure();
  values.push_back(FloatAttr::get(floatType, value));
  return success();
}

/// A (nested) list of scalars; records the shape seen at each depth.
static ParseResult parseConstantList(OpAsmParser &parser, Type elementType,
                                     SmallVectorImpl<Attribute> &values,
                                     SmallVectorImpl<int64_t> &shape,
                                     unsigned depth) {
  if (failed(parser.parseOptionalLSquare()))
    return parseConstantScalar(parser, elementType, values);
  int64_t count = 0;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        ++count;
        return parseConstantList(parser, elementType, values, shape, depth + 1);
      }) ||
      parser.parseRSquare())
    return failure();
  if (shape.size() <= depth)
    shape.resize(depth + 1, -1);
  if (shape[depth] != -1 && shape[depth] != count)
    return parser.emitError(loc, "constant literal has non-uniform shape");
  shape[depth] = count;
  return success();
}

/// `<f32: [1.0, 2.0]> : tile<2xf32>` or the splat form `<i32: 0> : tile<i32>`.
static ParseResult parseTileConstant(OpAsmParser &parser, Attribute &value,
                                     Type &resultType) {
  Type elementType;
  SmallVector<Attribute> scalars;
  SmallVector<int64_t> literalShape;
  SMLoc literalLoc = parser.getCurrentLocation();
  if (parser.parseLess() || parseCudaTileType(parser, elementType) ||
      parser.parseColon() ||
      parseConstantList(parser, elementType, scalars, literalShape, 0) ||
      parser.parseGreater() || parser.parseColon())
    return failure();
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parseCudaTileType(parser, resultType))
    return failure();
  auto tileType = dyn_cast<TileType>(resultType);
  if (!tileType)
    return parser.emitError(typeLoc, "expected a tile type");
  if (tileType.getElementType() != elementType)
    return parser.emitError(literalLoc, "constant element type ")
           << elementType << " does not match the tile element type "
           << tileType.getElementType();
  auto tensorType = RankedTensorType::get(tileType.getShape(), elementType);
  if (literalShape.empty()) {
    value = DenseElementsAttr::get(tensorType, scalars.front());
    return success();
  }
  if (ArrayRef<int64_t>(literalShape) != tileType.getShape())
    return parser.emitError(literalLoc,
                            "constant literal shape does not match the tile "
                            "shape");
  value = DenseElementsAttr::get(tensorType, scalars);
  return success();
}

static void printTileConstant(OpAsmPrinter &printer, Operation *,
                              Attribute value, Type resultType) {
  auto elements = cast<DenseElementsAttr>(value);
  // Reuse MLIR's dense literal printer (decimal or exact hex floats) and keep
  // only the part between `dense<` and `>`. Never the one hex blob MLIR
  // prints for large attributes by default: parseTileConstant reads lists.
  std::string text;
  llvm::raw_string_ostream os(text);
  AsmState state(elements.getContext(),
                 OpPrintingFlags().printLargeElementsAttrWithHex(-1));
  elements.print(os, state, /*elideType=*/true);
  StringRef literal = StringRef(text).drop_front(strlen("dense<")).drop_back();
  printer << '<';
  printCudaTileType(printer, elements.getElementType());
  printer << ": " << literal << "> : ";
  printCudaTileType(printer, resultType);
}

/// Prints a cuda_tile attribute without the `#cuda_tile.` prefix.
static void printBareAttr(OpAsmPrinter &printer, Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  StringRef bare(text);
  bare.consume_front("#cuda_tile.");
  printer << bare;
}

/// `div_by<32>`, `same_elements<[1, 4]>`, `bounded<0, ?>`.
static ParseResult parseAssumePredicate(OpAsmParser &parser, Attribute &predicate) {
  StringRef mnemonic;
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(
          &mnemonic, {"div_by", "same_elements", "bounded"}))) {
    if (mnemonic == "div_by")
      predicate = DivByAttr::parse(parser, Type());
    else if (mnemonic == "same_elements")
      predicate = SameElementsAttr::parse(parser, Type());
    else
      predicate = BoundedAttr::parse(parser, Type());
    return success(predicate != nullptr);
  }
  if (parser.parseAttribute(predicate))
    return failure();
  if (!isa<DivByAttr, SameElementsAttr, BoundedAttr>(predicate))
    return parser.emitError(loc, "expected an assume predicate (div_by, "
                                 "same_elements or bounded)");
  return success();
}

static void printAssumePredicate(OpAsmPrinter &printer, Operation *,
                                 Attribute predicate) {
  printBareAttr(printer, predicate);
}

/// `, tile<i32>`: the one type shared by all indices, or `, T0, T1, ...`:
/// one per index (nothing if there are no indices).
static ParseResult
parseIndexTypes(OpAsmParser &parser,
                ArrayRef<OpAsmParser::UnresolvedOperand> indices,
                SmallVectorImpl<Type> &types) {
  if (indices.empty())
    return success();
  if (parser.parseComma())
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  do {
    Type type;
    if (parseCudaTileType(parser, type))
      return failure();
    types.push_back(type);
  } while (types.size() < indices.size() && succeeded(parser.parseOptionalComma()));
  if (types.size() == 1)
    types.assign(indices.size(), types.front());
  if (types.size() != indices.size())
    return parser.emitError(loc, "expected 1 or ")
           << indices.size() << " index types, got " << types.size();
  return success();
}

/// One type when all indices share it (partition and strided views), else
/// each index's type (a gather_scatter_view's sparse index is a 1-d tile).
static void printIndexTypes(OpAsmPrinter &printer, Operation *, OperandRange,
                            TypeRange types) {
  if (types.empty())
    return;
  bool uniform = llvm::all_equal(types);
  for (Type type : uniform ? types.take_front() : types) {
    printer << ", ";
    printCudaTileType(printer, type);
  }
}

/// A bare enum keyword (`weak`, `device`, `addf`).
template <typename AttrT>
static ParseResult parseKeywordEnum(OpAsmParser &parser, AttrT &attr) {
  using EnumT = decltype(std::declval<AttrT>().getValue());
  FailureOr<EnumT> value = FieldParser<EnumT>::parse(parser);
  if (failed(value))
    return failure();
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

template <typename AttrT>
static void printKeywordEnum(OpAsmPrinter &printer, Operation *, AttrT attr) {
  printer << stringifyEnum(attr.getValue());
}

/// `weak` or `relaxed device`: an ordering, then an optional scope.
static ParseResult parseOrderingAndScope(OpAsmParser &parser,
                                         MemoryOrderingSemanticsAttr &ordering,
                                         MemoryScopeAttr &scope) {
  if (parseKeywordEnum(parser, ordering))
    return failure();
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword, {"tl_blk", "device", "sys"})))
    scope = MemoryScopeAttr::get(parser.getContext(),
                                 *symbolizeMemoryScope(keyword));
  return success();
}

static void printOrderingAndScope(OpAsmPrinter &printer, Operation *op,
                                  MemoryOrderingSemanticsAttr ordering,
                                  MemoryScopeAttr scope) {
  printKeywordEnum(printer, op, ordering);
  if (scope) {
    printer << ' ';
    printKeywordEnum(printer, op, scope);
  }
}

/// Bare `signed` / `unsigned`.
static ParseResult parseSignednessKeyword(OpAsmParser &parser,
                                          SignednessAttr &attr) {
  StringRef keyword;
  if (failed(parser.parseOptionalKeyword(&keyword, {"signed", "unsigned"})))
    return parser.emitError(parser.getCurrentLocation(),
                            "expected 'signed' or 'unsigned'");
  attr = SignednessAttr::get(parser.getContext(), *symbolizeSignedness(keyword));
  return success();
}

static void printSignednessKeyword(OpAsmPrinter &printer, Operation *,
                                   SignednessAttr attr) {
  printer << stringifySignedness(attr.getValue());
}

#define GET_OP_CLASSES
#include "tilepipe/Dialect/CudaTile/IR/CudaTileOps.cpp.inc"

void CudaTileDialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "tilepipe/Dialect/CudaTile/IR/CudaTileOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

/// Element type of a tile or of the tile behind a view; null otherwise.
Type getPointeeOfPtrTile(Type type) {
  auto tile = dyn_cast<TileType>(type);
  if (!tile)
    return {};
  auto ptr = dyn_cast<PointerType>(tile.getElementType());
  return ptr ? ptr.getPointeeType() : Type();
}

/// Tile shape, rank of the index space and tensor_view behind a tile view.
struct ViewInfo {
  SmallVector<int64_t> tileShape;
  unsigned indexRank = 0;
  TensorViewType tensorView;
  PaddingValueAttr padding;
};

/// The facts every view type shares: its tile shape, its tensor view and
/// padding.
template <typename ViewType>
static ViewInfo makeViewInfo(ViewType view) {
  ViewInfo info;
  ArrayRef<int32_t> tileShape = view.getTileShape();
  info.tileShape.assign(tileShape.begin(), tileShape.end());
  info.tensorView = view.getTensorView();
  info.indexRank = info.tensorView.getShape().size();
  info.padding = view.getPaddingValue();
  return info;
}

std::optional<ViewInfo> getViewInfo(Type type) {
  if (auto view = dyn_cast<PartitionViewType>(type))
    return makeViewInfo(view);
  if (auto view = dyn_cast<StridedViewType>(type))
    return makeViewInfo(view);
  if (auto view = dyn_cast<GatherScatterViewType>(type))
    return makeViewInfo(view);
  return std::nullopt;
}

/// The index operands of a view access. Every index is a scalar of one
/// integer type, except on a gather_scatter_view, whose sparse dimension takes
/// a 1-d integer tile of element indices, one per tile row along that
/// dimension (its element type may differ from the scalars').
static LogicalResult verifyViewIndices(Operation *op, Type viewType,
                                       ValueRange indices) {
  std::optional<unsigned> sparseDim;
  int64_t sparseSize = 0;
  if (auto gather = dyn_cast<GatherScatterViewType>(viewType)) {
    sparseDim = gather.getSparseDim();
    sparseSize = gather.getTileShape()[*sparseDim];
  }
  Type scalarType;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    auto type = cast<TileType>(index.getType());
    if (sparseDim && dim == *sparseDim) {
      if (type.getShape() != ArrayRef<int64_t>{sparseSize})
        return op->emitOpError("expected index ")
               << dim << " (the sparse dimension) to be a 1-d tile of "
               << sparseSize << " indices, got " << type;
      continue;
    }
    if (type.getRank() != 0)
      return op->emitOpError("index operand ")
             << dim << " must be a scalar tile (rank 0), got " << type;
    if (!scalarType)
      scalarType = type;
    if (type != scalarType)
      return op->emitOpError("expected all scalar indices to have the same type");
  }
  return success();
}

/// Shared checks of the view load/store/reduce ops.
LogicalResult verifyViewAccess(Operation *op, Type viewType, ValueRange indices,
                               TileType tileType) {
  std::optional<ViewInfo> info = getViewInfo(viewType);
  if (!info)
    return op->emitOpError("expected a tile view, got ") << viewType;
  if (indices.size() != info->indexRank)
    return op->emitOpError("expected ")
           << info->indexRank << " index operands, got " << indices.size();
  if (failed(verifyViewIndices(op, viewType, indices)))
    return failure();
  if (tileType.getShape() != ArrayRef<int64_t>(info->tileShape))
    return op->emitOpError("expected tile type to match the view tile shape (")
           << info->tileShape.size() << "-d), got " << tileType;
  if (tileType.getElementType() != info->tensorView.getElementType())
    return op->emitOpError("expected tile element type ")
           << info->tensorView.getElementType() << ", got "
           << tileType.getElementType();
  return success();
}

/// `pointers`, `values` and `mask` must have matching shapes and the pointee
/// type must be the value element type.
LogicalResult verifyPointerAccess(Operation *op, Type ptrType, Type valueType,
                                  Value mask) {
  auto ptrTile = cast<TileType>(ptrType);
  auto valueTile = cast<TileType>(valueType);
  if (ptrTile.getShape() != valueTile.getShape())
    return op->emitOpError("expected pointer and value tiles of the same shape");
  if (getPointeeOfPtrTile(ptrType) != valueTile.getElementType())
    return op->emitOpError("expected pointee type ")
           << getPointeeOfPtrTile(ptrType) << " to match the value element type "
           << valueTile.getElementType();
  if (mask && cast<TileType>(mask.getType()).getShape() != ptrTile.getShape())
    return op->emitOpError("expected mask of the same shape as the pointers");
  return success();
}

/// `(%a = %x, %b = %y)` after `iter_values`.
ParseResult parseIterValues(OpAsmParser &parser,
                            SmallVectorImpl<OpAsmParser::Argument> &regionArgs,
                            SmallVectorImpl<OpAsmParser::UnresolvedOperand> &inits) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
    if (parser.parseArgument(regionArgs.emplace_back()) || parser.parseEqual() ||
        parser.parseOperand(inits.emplace_back()))
      return failure();
    return success();
  });
}

void printIterValues(OpAsmPrinter &printer, ValueRange regionArgs,
                     ValueRange inits) {
  printer << "iter_values(";
  llvm::interleaveComma(llvm::zip(regionArgs, inits), printer, [&](auto pair) {
    printer << std::get<0>(pair) << " = " << std::get<1>(pair);
  });
  printer << ')';
}

/// `(t1, t2)`.
ParseResult parseParenTypeList(OpAsmParser &parser, SmallVectorImpl<Type> &types) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
    return parseCudaTileType(parser, types.emplace_back());
  });
}

void printTypeList(OpAsmPrinter &printer, TypeRange types) {
  printCudaTileType(printer, nullptr, types);
}

/// Gives `region` a block ending in a terminator, adding `TermOp` (no
/// operands) where the text left it implicit.
template <typename TermOp>
void ensureImplicitTerminator(Region &region, OpBuilder &builder, Location loc) {
  if (region.empty())
    region.push_back(new Block());
  Block &block = region.back();
  if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
    return;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&block);
  TermOp::create(builder, loc);
}

/// A terminator the text leaves implicit: `TermOp` without operands.
template <typename TermOp>
bool isElidedTerminator(Region &region) {
  if (region.empty() || region.front().empty())
    return true;
  auto term = dyn_cast<TermOp>(region.front().back());
  return term && term->getNumOperands() == 0 && term->getAttrs().empty();
}

/// Checks that a region's values forwarded by `terminator` match `types`.
LogicalResult verifyYieldedTypes(Operation *terminator, TypeRange types,
                                 StringRef what) {
  if (terminator->getOperandTypes() != types)
    return terminator->emitOpError("expected ")
           << what << " types (" << types << "), got ("
           << terminator->getOperandTypes() << ")";
  return success();
}

/// The innermost loop (for/loop) around `op`, stopping at function bodies.
Operation *getEnclosingLoop(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<ForOp, LoopOp>(parent))
      return parent;
    if (!isa<IfOp>(parent))
      return nullptr;
  }
  return nullptr;
}

} // namespace

//===----------------------------------------------------------------------===//
// ModuleOp
//===----------------------------------------------------------------------===//

void tilepipe::cuda_tile::ModuleOp::build(OpBuilder &builder, OperationState &state, StringRef name) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

LogicalResult tilepipe::cuda_tile::ModuleOp::verify() {
  for (Operation &op : getBody().front())
    if (!isa<EntryOp, GlobalOp>(op))
      return op.emitOpError("is not allowed at the top level of a "
                            "cuda_tile.module (expected entry or global)");
  return success();
}

//===----------------------------------------------------------------------===//
// EntryOp
//===----------------------------------------------------------------------===//

ParseResult EntryOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseSymbolName(name, mlir::SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument &arg = args.emplace_back();
            if (parser.parseArgument(arg) || parser.parseColon() ||
                parseCudaTileType(parser, arg.type))
              return failure();
            NamedAttrList argAttrs;
            if (parser.parseOptionalAttrDict(argAttrs))
              return failure();
            if (!argAttrs.empty())
              arg.attrs = argAttrs.getDictionary(parser.getContext());
            std::optional<Location> loc;
            if (parser.parseOptionalLocationSpecifier(loc))
              return failure();
            arg.sourceLoc = loc;
            return success();
          }))
    return failure();
  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &arg : args)
    argTypes.push_back(arg.type);
  Builder &builder = parser.getBuilder();
  result.addAttribute(getFunctionTypeAttrName(result.name),
                      TypeAttr::get(builder.getFunctionType(argTypes, {})));
  if (succeeded(parser.parseOptionalKeyword("optimization_hints"))) {
    Attribute hints;
    if (parser.parseEqual() ||
        parser.parseCustomAttributeWithFallback(hints, Type(), [&](Attribute &a, Type) {
          a = OptimizationHintsAttr::parse(parser, Type());
          return success(a != nullptr);
        }))
      return failure();
    result.addAttribute(getOptimizationHintsAttrName(result.name), hints);
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  call_interface_impl::addArgAndResultAttrs(builder, result, args, {},
                                            getArgAttrsAttrName(result.name),
                                            getResAttrsAttrName(result.name));
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  if (body->empty())
    body->push_back(new Block());
  return success();
}

void EntryOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getSymName());
  printer << '(';
  ArrayAttr argAttrs = getArgAttrsAttr();
  Region &body = getBody();
  for (unsigned i = 0, e = getArgumentTypes().size(); i < e; ++i) {
    if (i)
      printer << ", ";
    if (!body.empty()) {
      printer.printRegionArgument(body.getArgument(i), {}, /*omitType=*/true);
    } else {
      printer << "%arg" << i;
    }
    printer << ": ";
    printCudaTileType(printer, getArgumentTypes()[i]);
    if (argAttrs)
      printer.printOptionalAttrDict(
          cast<DictionaryAttr>(argAttrs[i]).getValue());
  }
  printer << ')';
  if (auto hints = getOptimizationHintsAttr()) {
    printer << " optimization_hints=";
    hints.print(printer);
  }
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getFunctionTypeAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName(), getOptimizationHintsAttrName()});
  printer << ' ';
  printer.printRegion(body, /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

LogicalResult EntryOp::verify() {
  for (Type type : getArgumentTypes()) {
    // Tokens and views pass through as they are; tiles must be scalars.
    if (isa<TokenType, TensorViewType, PartitionViewType, StridedViewType,
            GatherScatterViewType>(type))
      continue;
    auto tile = dyn_cast<TileType>(type);
    if (!tile || tile.getRank() != 0)
      return emitOpError("entry op must have scalar types (rank 0 "
                         "!cuda_tile.tile)");
  }
  if (!getResultTypes().empty())
    return emitOpError("entry op must not return values");
  Region &body = getBody();
  if (body.empty())
    return emitOpError("expected a body");
  if (body.front().getArgumentTypes() != getArgumentTypes())
    return emitOpError("expected body arguments to match the signature");
  return verifyOptimizationHints(*this);
}

//===----------------------------------------------------------------------===//
// GlobalOp: `global [private] [constant] @name [alignment = N] <e: v> : tile<..>`
//===----------------------------------------------------------------------===//

ParseResult GlobalOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  if (succeeded(parser.parseOptionalKeyword("private")))
    result.addAttribute(getSymbolVisibilityAttrName(result.name),
                        SymbolVisibilityAttr::get(ctx, SymbolVisibility::PRIVATE));
  else if (succeeded(parser.parseOptionalKeyword("public")))
    result.addAttribute(getSymbolVisibilityAttrName(result.name),
                        SymbolVisibilityAttr::get(ctx, SymbolVisibility::PUBLIC));
  if (succeeded(parser.parseOptionalKeyword("constant")))
    result.addAttribute(getConstantAttrName(result.name), UnitAttr::get(ctx));
  StringAttr name;
  if (parser.parseSymbolName(name, mlir::SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("alignment"))) {
    int64_t alignment = 0;
    if (parser.parseEqual() || parser.parseInteger(alignment))
      return failure();
    result.addAttribute(getAlignmentAttrName(result.name),
                        parser.getBuilder().getI64IntegerAttr(alignment));
  }
  Attribute value;
  Type type;
  if (parseTileConstant(parser, value, type) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addAttribute(getValueAttrName(result.name), value);
  return success();
}

void GlobalOp::print(OpAsmPrinter &printer) {
  // NVIDIA prints the (possibly empty) visibility and a space before the name.
  printer << ' ';
  if (getSymbolVisibility() == SymbolVisibility::PRIVATE)
    printer << "private ";
  printer << ' ';
  if (getConstant())
    printer << "constant ";
  printer.printSymbolName(getSymName());
  if (auto alignment = getAlignment())
    printer << " alignment = " << *alignment;
  printer << ' ';
  auto value = cast<DenseElementsAttr>(getValue());
  printTileConstant(printer, *this, value,
                    TileType::get(getContext(), value.getType().getShape(),
                                  value.getElementType()));
  printer.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getValueAttrName(), getAlignmentAttrName(),
       getConstantAttrName(), getSymbolVisibilityAttrName()});
}

LogicalResult GlobalOp::verify() {
  auto type = cast<ShapedType>(getValue().getType());
  if (type.getRank() != 1)
    return emitOpError("expected a 1-d initial value, got rank ")
           << type.getRank();
  if (failed(TileType::verify([&] { return emitOpError(); }, type.getShape(),
                              type.getElementType())))
    return failure();
  if (auto alignment = getAlignment())
    if (*alignment <= 0 || !llvm::isPowerOf2_64(*alignment))
      return emitOpError("alignment must be a positive power of two, got ")
             << *alignment;
  return success();
}

//===----------------------------------------------------------------------===//
// GetGlobalOp
//===----------------------------------------------------------------------===//

LogicalResult GetGlobalOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto global =
      symbolTable.lookupNearestSymbolFrom<GlobalOp>(*this, getNameAttr());
  if (!global)
    return emitOpError("'") << getName() << "' does not reference a valid global";
  Type element = cast<ShapedType>(global.getValue().getType()).getElementType();
  if (getPointeeOfPtrTile(getResult().getType()) != element)
    return emitOpError("expected a pointer to ")
           << element << ", the element type of the global";
  return success();
}

//===----------------------------------------------------------------------===//
// Terminators
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  Operation *parent = (*this)->getParentOp();
  while (isa_and_nonnull<IfOp>(parent))
    parent = parent->getParentOp();
  if (!isa_and_nonnull<EntryOp>(parent) &&
      parent->getName().getStringRef() != "cuda_tile.testing$func")
    return emitOpError("expects parent op to be an entry (possibly through if)");
  if (auto entry = dyn_cast<EntryOp>(parent))
    if (getNumOperands() != entry.getResultTypes().size())
      return emitOpError("has ") << getNumOperands()
                                 << " operands, but enclosing function returns "
                                 << entry.getResultTypes().size();
  return success();
}

LogicalResult YieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (!isa_and_nonnull<IfOp, ReduceOp, ScanOp>(parent))
    return emitOpError("expects parent op to be one of 'if', 'reduce', 'scan'");
  return success();
}

LogicalResult BreakOp::verify() {
  Operation *loop = getEnclosingLoop(*this);
  if (!isa_and_nonnull<LoopOp>(loop))
    return emitOpError("can only be nested within a ancestor chain of "
                       "'cuda_tile.loop', 'cuda_tile.if' operations");
  if (getOperandTypes() != loop->getResultTypes())
    return emitOpError("operand types must correspond to the parent loop "
                       "result types");
  return success();
}

/// `(type, type)` as NVIDIA's loop diagnostics spell type lists.
static std::string quotedTypeList(TypeRange types) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '(';
  llvm::interleaveComma(types, os, [&](Type t) { os << '\'' << t << '\''; });
  os << ')';
  return text;
}

LogicalResult ContinueOp::verify() {
  Operation *loop = getEnclosingLoop(*this);
  if (!loop)
    return emitOpError("can only be nested within a ancestor chain of "
                       "'cuda_tile.for', 'cuda_tile.loop', 'cuda_tile.if' "
                       "operations");
  bool isFor = isa<ForOp>(loop);
  TypeRange expected = loop->getResultTypes();
  if (!isFor)
    expected = TypeRange(cast<LoopOp>(loop).getInitValues());
  if (getOperandTypes() != expected)
    return emitOpError("`")
           << (isFor ? "for" : "loop")
           << "` is missing a valid terminator. `continue` op should have "
              "operand types that match the parent loop "
           << (isFor ? "return types" : "iter_values") << ": "
           << quotedTypeList(expected)
           << ", but found: " << quotedTypeList(getOperandTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult ConstantOp::verify() {
  auto type = cast<ShapedType>(getValue().getType());
  auto tile = cast<TileType>(getResult().getType());
  if (type.getShape() != tile.getShape() ||
      type.getElementType() != tile.getElementType())
    return emitOpError("value type ")
           << type << " does not match the result " << tile;
  return success();
}

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  auto value = cast<DenseElementsAttr>(getValue());
  Type element = value.getElementType();
  std::string name;
  llvm::raw_string_ostream os(name);
  if (element.isInteger(1) && value.isSplat()) {
    setNameFn(getResult(), value.getSplatValue<bool>() ? "true" : "false");
    return;
  }
  os << "cst";
  if (value.isSplat()) {
    if (isa<IntegerType>(element)) {
      os << '_' << value.getSplatValue<APInt>().getSExtValue();
    } else {
      APFloat f = value.getSplatValue<APFloat>();
      APSInt asInt(64, /*isUnsigned=*/false);
      bool exact = false;
      if (f.convertToInteger(asInt, APFloat::rmTowardZero, &exact) ==
              APFloat::opOK &&
          exact)
        os << '_' << asInt.getExtValue();
    }
  }
  os << '_' << element;
  setNameFn(getResult(), name);
}

//===----------------------------------------------------------------------===//
// AssumeOp
//===----------------------------------------------------------------------===//

LogicalResult AssumeOp::verify() {
  Type type = getValue().getType();
  auto tile = dyn_cast<TileType>(type);
  Attribute predicate = getPredicate();
  if (auto divBy = dyn_cast<DivByAttr>(predicate)) {
    if (isa<TensorViewType>(type)) {
      if (divBy.getEvery())
        return emitOpError("'every' and 'along' cannot be used with a "
                           "tensor_view");
      return success();
    }
    if (!tile || !(isa<IntegerType, PointerType>(tile.getElementType())))
      return emitOpError("div_by predicate expects a tile of integers or "
                         "pointers, or a tensor_view");
    if (divBy.getAlong()) {
      if (tile.getRank() == 0)
        return emitOpError("'every' and 'along' cannot be used with a 0-d tile");
      if (*divBy.getAlong() >= tile.getRank())
        return emitOpError("'along' must be smaller than the rank of the tile");
    }
    return success();
  }
  if (auto same = dyn_cast<SameElementsAttr>(predicate)) {
    if (!tile || !(isa<IntegerType, PointerType>(tile.getElementType())))
      return emitOpError("same_elements predicate expects a tile of integers "
                         "or pointers");
    if (static_cast<int64_t>(same.getValues().size()) != tile.getRank())
      return emitOpError("expected ") << tile.getRank()
                                      << " same_elements values, got "
                                      << same.getValues().size();
    return success();
  }
  if (!tile || !isa<IntegerType>(tile.getElementType()))
    return emitOpError("bounded predicate expects a tile of integers");
  return success();
}

void AssumeOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "assume");
}

//===----------------------------------------------------------------------===//
// Tokens and printing
//===----------------------------------------------------------------------===//

LogicalResult JoinTokensOp::verify() {
  if (getTokens().empty())
    return emitOpError("expected at least one token");
  return success();
}

LogicalResult PrintTkoOp::verify() {
  // Every `%` conversion (not `%%`) consumes one argument.
  StringRef format = getStr();
  unsigned conversions = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%')
      continue;
    if (i + 1 < format.size() && format[i + 1] == '%') {
      ++i;
      continue;
    }
    ++conversions;
  }
  if (conversions != getArgs().size())
    return emitOpError("incorrect number of operands: expected ")
           << conversions << ", found " << getArgs().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Pointer memory ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyOrderingAndScope(Operation *op,
                                            MemoryOrderingSemantics ordering,
                                            std::optional<MemoryScope> scope,
                                            bool isLoad) {
  if (ordering == MemoryOrderingSemantics::WEAK) {
    if (scope)
      return op->emitOpError("weak operations must not have a memory scope");
    return success();
  }
  if (!scope)
    return op->emitOpError("expected a memory scope for ")
           << stringifyMemoryOrderingSemantics(ordering) << " ordering";
  if (ordering == MemoryOrderingSemantics::ACQ_REL ||
      (isLoad && ordering == MemoryOrderingSemantics::RELEASE) ||
      (!isLoad && ordering == MemoryOrderingSemantics::ACQUIRE))
    return op->emitOpError("invalid memory ordering semantics ")
           << stringifyMemoryOrderingSemantics(ordering) << " for a "
           << (isLoad ? "load" : "store");
  return success();
}

LogicalResult LoadPtrTkoOp::verify() {
  if (failed(verifyOrderingAndScope(*this, getMemoryOrderingSemantics(),
                                    getMemoryScope(), /*isLoad=*/true)))
    return failure();
  if (failed(verifyPointerAccess(*this, getSource().getType(),
                                 getResult().getType(), getMask())))
    return failure();
  if (getPaddingValue() && !getMask())
    return emitOpError("a padding value requires a mask");
  if (getPaddingValue() && getPaddingValue().getType() != getResult().getType())
    return emitOpError("expected the padding value to have the result type");
  return verifyOptimizationHints(*this);
}

void LoadPtrTkoOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "result");
  setNameFn(getResultToken(), "result_token");
}

LogicalResult StorePtrTkoOp::verify() {
  if (failed(verifyOrderingAndScope(*this, getMemoryOrderingSemantics(),
                                    getMemoryScope(), /*isLoad=*/false)))
    return failure();
  if (failed(verifyPointerAccess(*this, getDestination().getType(),
                                 getValue().getType(), getMask())))
    return failure();
  return verifyOptimizationHints(*this);
}

static LogicalResult verifyAtomicOrdering(Operation *op,
                                          MemoryOrderingSemantics ordering) {
  if (ordering == MemoryOrderingSemantics::WEAK)
    return op->emitOpError("atomic operations cannot use weak ordering");
  return success();
}

LogicalResult AtomicCASTkoOp::verify() {
  if (failed(verifyAtomicOrdering(*this, getMemoryOrderingSemantics())))
    return failure();
  return verifyPointerAccess(*this, getPointers().getType(), getVal().getType(),
                             getMask());
}

void AtomicCASTkoOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "result");
  setNameFn(getResultToken(), "result_token");
}

/// Element types each read-modify-write mode supports.
static LogicalResult verifyRMWMode(Operation *op, AtomicRMWMode mode,
                                   Type element) {
  bool isInt = element.isInteger(32) || element.isInteger(64);
  bool ok = false;
  switch (mode) {
  case AtomicRMWMode::ADDF:
    ok = element.isF16() || element.isBF16() || element.isF32() ||
         element.isF64();
    break;
  case AtomicRMWMode::XCHG:
    ok = isInt || element.isF32() || element.isF64();
    break;
  default:
    ok = isInt;
    break;
  }
  if (!ok)
    return op->emitOpError("atomic mode ")
           << stringifyAtomicRMWMode(mode) << " does not support element type "
           << element;
  return success();
}

LogicalResult AtomicRMWTkoOp::verify() {
  if (failed(verifyAtomicOrdering(*this, getMemoryOrderingSemantics())) ||
      failed(verifyPointerAccess(*this, getPointers().getType(),
                                 getArg().getType(), getMask())))
    return failure();
  return verifyRMWMode(*this, getMode(),
                       cast<TileType>(getArg().getType()).getElementType());
}

void AtomicRMWTkoOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "result");
  setNameFn(getResultToken(), "result_token");
}

LogicalResult OffsetOp::verify() {
  if (cast<TileType>(getPtr().getType()).getShape() !=
      cast<TileType>(getOffset().getType()).getShape())
    return emitOpError("expected pointer and offset tiles of the same shape");
  return success();
}

//===----------------------------------------------------------------------===//
// MakeTensorViewOp:
//   `%base, shape = [%d, 32], strides = [%s, 1] : tile<i64> -> tensor_view<..>`
//===----------------------------------------------------------------------===//

/// `[%a, 4, %b]`: SSA values for the `?` entries, integers for static ones.
static ParseResult
parseMixedList(OpAsmParser &parser,
               SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dynamicValues,
               SmallVectorImpl<int64_t> &staticValues) {
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult hasOperand = parser.parseOptionalOperand(operand);
    if (hasOperand.has_value()) {
      if (failed(*hasOperand))
        return failure();
      dynamicValues.push_back(operand);
      staticValues.push_back(ShapedType::kDynamic);
      return success();
    }
    return parser.parseInteger(staticValues.emplace_back());
  });
}

static void printMixedList(OpAsmPrinter &printer, ArrayRef<int64_t> staticValues,
                           ValueRange dynamicValues) {
  printer << '[';
  unsigned next = 0;
  llvm::interleaveComma(staticValues, printer, [&](int64_t v) {
    if (ShapedType::isDynamic(v) && next < dynamicValues.size())
      printer << dynamicValues[next++];
    else
      printer << v;
  });
  printer << ']';
}

ParseResult MakeTensorViewOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand base;
  SmallVector<OpAsmParser::UnresolvedOperand> shapeValues, strideValues;
  SmallVector<int64_t> staticShape, staticStrides;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperand(base) || parser.parseComma() ||
      parser.parseKeyword("shape") || parser.parseEqual() ||
      parseMixedList(parser, shapeValues, staticShape) || parser.parseComma() ||
      parser.parseKeyword("strides") || parser.parseEqual() ||
      parseMixedList(parser, strideValues, staticStrides) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  Type indexType;
  if (!shapeValues.empty() || !strideValues.empty()) {
    if (parseCudaTileType(parser, indexType) || parser.parseArrow())
      return failure();
  }
  Type resultType;
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parseCudaTileType(parser, resultType))
    return failure();
  auto view = dyn_cast<TensorViewType>(resultType);
  if (!view)
    return parser.emitError(typeLoc, "expected a tensor_view type");
  if (ArrayRef<int64_t>(staticShape) != view.getShape() ||
      ArrayRef<int64_t>(staticStrides) != view.getStrides())
    return parser.emitError(loc, "shape and strides do not match the result "
                                 "type ")
           << resultType;
  Type baseType = TileType::get(parser.getContext(), {},
                                PointerType::get(view.getElementType()));
  if (parser.resolveOperand(base, baseType, result.operands) ||
      parser.resolveOperands(shapeValues, indexType, result.operands) ||
      parser.resolveOperands(strideValues, indexType, result.operands))
    return failure();
  result.addAttribute(getOperandSegmentSizesAttrName(result.name),
                      parser.getBuilder().getDenseI32ArrayAttr(
                          {1, static_cast<int32_t>(shapeValues.size()),
                           static_cast<int32_t>(strideValues.size())}));
  result.addTypes(resultType);
  return success();
}

void MakeTensorViewOp::print(OpAsmPrinter &printer) {
  auto view = cast<TensorViewType>(getResult().getType());
  printer << ' ' << getBase() << ", shape = ";
  printMixedList(printer, view.getShape(), getDynamicShape());
  printer << ", strides = ";
  printMixedList(printer, view.getStrides(), getDynamicStrides());
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getOperandSegmentSizesAttrName()});
  printer << " : ";
  if (!getDynamicShape().empty() || !getDynamicStrides().empty()) {
    Type indexType = !getDynamicShape().empty()
                         ? getDynamicShape().front().getType()
                         : getDynamicStrides().front().getType();
    printCudaTileType(printer, indexType);
    printer << " -> ";
  }
  printCudaTileType(printer, view);
}

LogicalResult MakeTensorViewOp::verify() {
  auto view = cast<TensorViewType>(getResult().getType());
  if (getPointeeOfPtrTile(getBase().getType()) != view.getElementType())
    return emitOpError("expected a base pointer to ")
           << view.getElementType();
  if (getDynamicShape().size() != view.getNumDynamicShape())
    return emitOpError("expected ") << view.getNumDynamicShape()
                                    << " dynamic shape operands, got "
                                    << getDynamicShape().size();
  if (getDynamicStrides().size() != view.getNumDynamicStrides())
    return emitOpError("expected ") << view.getNumDynamicStrides()
                                    << " dynamic stride operands, got "
                                    << getDynamicStrides().size();
  SmallVector<Value> dynamic(getDynamicShape());
  llvm::append_range(dynamic, getDynamicStrides());
  for (Value v : dynamic)
    if (v.getType() != dynamic.front().getType())
      return emitOpError("expected all dynamic shape and stride operands to "
                         "have the same type");
  return success();
}

void MakeTensorViewOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "tview");
}

void MakePartitionViewOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "pview");
}

void MakeStridedViewOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "sview");
}

void MakeGatherScatterViewOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "gsview");
}

//===----------------------------------------------------------------------===//
// Shape queries: `%0:2 = get_tensor_shape %tv : tensor_view<..> -> tile<i64>`
//===----------------------------------------------------------------------===//

/// Parses `%src : srcType -> resultType` and adds `count` results of
/// `resultType`, where `count` comes from the source type.
static ParseResult
parseShapeQuery(OpAsmParser &parser, OperationState &result,
                llvm::function_ref<std::optional<unsigned>(Type)> rankOf) {
  OpAsmParser::UnresolvedOperand src;
  Type srcType, resultType;
  SMLoc typeLoc;
  if (parser.parseOperand(src) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon())
    return failure();
  typeLoc = parser.getCurrentLocation();
  if (parseCudaTileType(parser, srcType) || parser.parseArrow() ||
      parseCudaTileType(parser, resultType) ||
      parser.resolveOperand(src, srcType, result.operands))
    return failure();
  std::optional<unsigned> rank = rankOf(srcType);
  if (!rank)
    return parser.emitError(typeLoc, "unexpected source type ") << srcType;
  result.addTypes(SmallVector<Type>(*rank, resultType));
  return success();
}

static void printShapeQuery(OpAsmPrinter &printer, Operation *op) {
  printer << ' ' << op->getOperand(0);
  printer.printOptionalAttrDict(op->getAttrs());
  printer << " : ";
  printCudaTileType(printer, op->getOperand(0).getType());
  printer << " -> ";
  if (op->getNumResults())
    printCudaTileType(printer, op->getResult(0).getType());
  else
    printer << "tile<i32>";
}

static LogicalResult verifyShapeQuery(Operation *op, unsigned rank) {
  if (op->getNumResults() != rank)
    return op->emitOpError("expected ")
           << rank << " results, got " << op->getNumResults();
  for (Type type : op->getResultTypes())
    if (type != op->getResult(0).getType())
      return op->emitOpError("expected all results to have the same type");
  return success();
}

ParseResult GetTensorShapeOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseShapeQuery(parser, result, [](Type type) -> std::optional<unsigned> {
    if (auto view = dyn_cast<TensorViewType>(type))
      return view.getShape().size();
    return std::nullopt;
  });
}

void GetTensorShapeOp::print(OpAsmPrinter &printer) {
  printShapeQuery(printer, *this);
}

LogicalResult GetTensorShapeOp::verify() {
  return verifyShapeQuery(*this, getSrc().getType().getShape().size());
}

ParseResult GetIndexSpaceShapeOp::parse(OpAsmParser &parser,
                                        OperationState &result) {
  return parseShapeQuery(parser, result, [](Type type) -> std::optional<unsigned> {
    if (std::optional<ViewInfo> info = getViewInfo(type))
      return info->indexRank;
    return std::nullopt;
  });
}

void GetIndexSpaceShapeOp::print(OpAsmPrinter &printer) {
  printShapeQuery(printer, *this);
}

LogicalResult GetIndexSpaceShapeOp::verify() {
  return verifyShapeQuery(*this, getViewInfo(getSrc().getType())->indexRank);
}

//===----------------------------------------------------------------------===//
// View memory ops
//===----------------------------------------------------------------------===//

LogicalResult LoadViewTkoOp::verify() {
  if (failed(verifyOrderingAndScope(*this, getMemoryOrderingSemantics(),
                                    getMemoryScope(), /*isLoad=*/true)))
    return failure();
  if (failed(verifyViewAccess(*this, getView().getType(), getIndex(),
                              cast<TileType>(getTile().getType()))))
    return failure();
  return verifyOptimizationHints(*this);
}

void LoadViewTkoOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getTile(), "tile");
  setNameFn(getResultToken(), "result_token");
}

LogicalResult StoreViewTkoOp::verify() {
  if (failed(verifyOrderingAndScope(*this, getMemoryOrderingSemantics(),
                                    getMemoryScope(), /*isLoad=*/false)))
    return failure();
  if (failed(verifyViewAccess(*this, getView().getType(), getIndex(),
                              cast<TileType>(getTile().getType()))))
    return failure();
  return verifyOptimizationHints(*this);
}

LogicalResult AtomicRedViewTkoOp::verify() {
  if (failed(verifyAtomicOrdering(*this, getMemoryOrderingSemantics())))
    return failure();
  if (isa<GatherScatterViewType>(getView().getType()))
    return emitOpError("gather_scatter_view is not supported; use partition_view instead");
  auto tile = cast<TileType>(getValue().getType());
  if (failed(verifyViewAccess(*this, getView().getType(), getIndex(), tile)))
    return failure();
  if (getMode() == AtomicRMWMode::XCHG)
    return emitOpError("xchg is not a reduction");
  return verifyRMWMode(*this, getMode(), tile.getElementType());
}

//===----------------------------------------------------------------------===//
// Grid queries
//===----------------------------------------------------------------------===//

void GetTileBlockIdOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getBlockIdX(), "blockId_x");
  setNameFn(getBlockIdY(), "blockId_y");
  setNameFn(getBlockIdZ(), "blockId_z");
}

void GetNumTileBlocksOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getGridSizeX(), "gridSize_x");
  setNameFn(getGridSizeY(), "gridSize_y");
  setNameFn(getGridSizeZ(), "gridSize_z");
}

//===----------------------------------------------------------------------===//
// IfOp: `if %c [-> (types)] {..} [else {..}]`
//===----------------------------------------------------------------------===//

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand condition;
  Type conditionType = TileType::get(parser.getContext(), {},
                                     parser.getBuilder().getI1Type());
  if (parser.parseOperand(condition) ||
      parser.resolveOperand(condition, conditionType, result.operands))
    return failure();
  if (succeeded(parser.parseOptionalArrow()) &&
      parseParenTypeList(parser, result.types))
    return failure();
  Region *thenRegion = result.addRegion();
  Region *elseRegion = result.addRegion();
  if (parser.parseRegion(*thenRegion))
    return failure();
  OpBuilder builder(parser.getContext());
  ensureImplicitTerminator<YieldOp>(*thenRegion, builder, result.location);
  if (succeeded(parser.parseOptionalKeyword("else"))) {
    if (parser.parseRegion(*elseRegion))
      return failure();
    ensureImplicitTerminator<YieldOp>(*elseRegion, builder, result.location);
  }
  return parser.parseOptionalAttrDict(result.attributes);
}

void IfOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getCondition();
  if (getNumResults()) {
    printer << " -> (";
    printTypeList(printer, getResultTypes());
    printer << ')';
  }
  printer << ' ';
  printer.printRegion(getThenRegion(), /*printEntryBlockArgs=*/false,
                      !isElidedTerminator<YieldOp>(getThenRegion()));
  if (!getElseRegion().empty()) {
    printer << " else ";
    printer.printRegion(getElseRegion(), /*printEntryBlockArgs=*/false,
                        !isElidedTerminator<YieldOp>(getElseRegion()));
  }
  printer.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult IfOp::verify() {
  if (getNumResults() && getElseRegion().empty())
    return emitOpError("must have an else block if defining values");
  for (Region *region : {&getThenRegion(), &getElseRegion()}) {
    if (region->empty())
      continue;
    if (!region->hasOneBlock())
      return emitOpError("expected single-block regions");
    Operation &terminator = region->front().back();
    if (!terminator.hasTrait<OpTrait::IsTerminator>())
      return emitOpError("expected regions to end with a terminator");
    if (isa<YieldOp>(terminator) &&
        failed(verifyYieldedTypes(&terminator, getResultTypes(), "if result")))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  if (succeeded(parser.parseOptionalKeyword("unsigned")))
    result.addAttribute(getUnsignedCmpAttrName(result.name),
                        parser.getBuilder().getUnitAttr());
  OpAsmParser::Argument inductionVar;
  OpAsmParser::UnresolvedOperand lb, ub, step;
  Type boundType;
  if (parser.parseArgument(inductionVar) || parser.parseKeyword("in") ||
      parser.parseLParen() || parser.parseOperand(lb) ||
      parser.parseKeyword("to") || parser.parseOperand(ub) ||
      parser.parseComma() || parser.parseKeyword("step") ||
      parser.parseOperand(step) || parser.parseRParen() ||
      parser.parseColon() || parseCudaTileType(parser, boundType))
    return failure();
  inductionVar.type = boundType;
  SmallVector<OpAsmParser::Argument> regionArgs{inductionVar};
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  if (succeeded(parser.parseOptionalKeyword("iter_values"))) {
    if (parseIterValues(parser, regionArgs, inits) || parser.parseArrow() ||
        parseParenTypeList(parser, result.types))
      return failure();
  }
  if (result.types.size() != inits.size())
    return parser.emitError(parser.getNameLoc(), "expected ")
           << inits.size() << " result types, got " << result.types.size();
  for (auto [arg, type] : llvm::zip(llvm::drop_begin(regionArgs), result.types))
    arg.type = type;
  if (parser.resolveOperand(lb, boundType, result.operands) ||
      parser.resolveOperand(ub, boundType, result.operands) ||
      parser.resolveOperand(step, boundType, result.operands) ||
      parser.resolveOperands(inits, result.types, parser.getNameLoc(),
                             result.operands))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, regionArgs))
    return failure();
  OpBuilder builder(parser.getContext());
  ensureImplicitTerminator<ContinueOp>(*body, builder, result.location);
  return parser.parseOptionalAttrDict(result.attributes);
}

void ForOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  if (getUnsignedCmp())
    printer << "unsigned ";
  printer << getInductionVar() << " in (" << getLowerBound() << " to "
          << getUpperBound() << ", step " << getStep() << ") : ";
  printCudaTileType(printer, getLowerBound().getType());
  if (!getInitValues().empty()) {
    printer << ' ';
    printIterValues(printer, getRegionIterValues(), getInitValues());
    printer << " -> (";
    printTypeList(printer, getResultTypes());
    printer << ')';
  }
  printer << ' ';
  printer.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                      !isElidedTerminator<ContinueOp>(getRegion()));
  printer.printOptionalAttrDict((*this)->getAttrs(), {getUnsignedCmpAttrName()});
}

LogicalResult ForOp::verify() {
  Block *body = getBody();
  if (body->getNumArguments() == 0 ||
      getInductionVar().getType() != getLowerBound().getType())
    return emitOpError("expected induction variable to be same type as bounds");
  auto iterValues = getRegionIterValues();
  if (iterValues.size() != getInitValues().size())
    return emitOpError("mismatch in number of region iterator values and loop "
                       "iterator inits: ")
           << iterValues.size() << " vs " << getInitValues().size();
  for (auto [i, init, iter] :
       llvm::enumerate(getInitValues(), ValueRange(iterValues)))
    if (init.getType() != iter.getType())
      return emitOpError("init value ")
             << i << " and region iter_value " << i
             << " have different type: " << init.getType()
             << " != " << iter.getType();
  if (getInitValues().getTypes() != getResultTypes())
    return emitOpError("expected initial values to match the result types");
  if (body->empty() || !isa<ContinueOp>(body->back()))
    return emitOpError("expected the body to end with continue");
  return success();
}

void ForOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (getNumResults())
    setNameFn(getResult(0), "for");
}

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  if (region.empty())
    return;
  setNameFn(getInductionVar(), "loopIdx");
  for (auto [i, arg] : llvm::enumerate(getRegionIterValues()))
    setNameFn(arg, ("iterArg" + Twine(i)).str());
}

//===----------------------------------------------------------------------===//
// LoopOp: `loop [iter_values(%a = %x) : initTypes] [-> | :] resultTypes {..}`
//===----------------------------------------------------------------------===//

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> regionArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> initTypes;
  if (succeeded(parser.parseOptionalKeyword("iter_values"))) {
    if (parseIterValues(parser, regionArgs, inits) || parser.parseColon() ||
        parseCudaTileType(parser, initTypes))
      return failure();
    if (initTypes.size() != inits.size())
      return parser.emitError(parser.getNameLoc(), "expected ")
             << inits.size() << " iter_values types, got " << initTypes.size();
    if (succeeded(parser.parseOptionalArrow()) &&
        parseCudaTileType(parser, result.types))
      return failure();
  } else if (succeeded(parser.parseOptionalColon())) {
    if (parseCudaTileType(parser, result.types))
      return failure();
  }
  for (auto [arg, type] : llvm::zip(regionArgs, initTypes))
    arg.type = type;
  if (parser.resolveOperands(inits, initTypes, parser.getNameLoc(),
                             result.operands))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, regionArgs))
    return failure();
  // A body without terminator continues with no values (printed elided).
  OpBuilder builder(parser.getContext());
  ensureImplicitTerminator<ContinueOp>(*body, builder, result.location);
  return parser.parseOptionalAttrDict(result.attributes);
}

void LoopOp::print(OpAsmPrinter &printer) {
  Block &body = getRegion().front();
  if (!getInitValues().empty()) {
    printer << ' ';
    printIterValues(printer, body.getArguments(), getInitValues());
    printer << " : ";
    printTypeList(printer, getInitValues().getTypes());
    if (getNumResults()) {
      printer << " -> ";
      printTypeList(printer, getResultTypes());
    }
  } else if (getNumResults()) {
    printer << " : ";
    printTypeList(printer, getResultTypes());
  }
  printer << ' ';
  printer.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                      !isElidedTerminator<ContinueOp>(getRegion()));
  printer.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult LoopOp::verify() {
  Block &body = getRegion().front();
  if (TypeRange(body.getArgumentTypes()) != getInitValues().getTypes())
    return emitOpError("expected body arguments to match the iter_values");
  if (body.empty() || !body.back().hasTrait<OpTrait::IsTerminator>())
    return emitOpError("expected the body to end with break or continue");
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp / ScanOp:
//   `reduce %a dim=1 identities=[0.0 : f32] : tile<8x4xf32> -> tile<8xf32>`
//   `(%lhs: tile<f32>, %rhs: tile<f32>) { ... yield %x : tile<f32> }`
//===----------------------------------------------------------------------===//

static ParseResult parseAggregate(OpAsmParser &parser, OperationState &result,
                                  bool isScan) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> operandTypes;
  int32_t dim = 0;
  ArrayAttr identities;
  Builder &builder = parser.getBuilder();
  if (parser.parseOperandList(operands) || parser.parseKeyword("dim") ||
      parser.parseEqual() || parser.parseInteger(dim))
    return failure();
  result.addAttribute("dim", builder.getI32IntegerAttr(dim));
  if (isScan) {
    bool reverse = false;
    if (parser.parseKeyword("reverse") || parser.parseEqual())
      return failure();
    if (succeeded(parser.parseOptionalKeyword("true")))
      reverse = true;
    else if (parser.parseKeyword("false"))
      return failure();
    result.addAttribute("reverse", builder.getBoolAttr(reverse));
  }
  if (parser.parseKeyword("identities") || parser.parseEqual() ||
      parser.parseAttribute(identities))
    return failure();
  result.addAttribute("identities", identities);
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parseCudaTileType(parser, operandTypes) || parser.parseArrow() ||
      parseCudaTileType(parser, result.types) ||
      parser.resolveOperands(operands, operandTypes, parser.getNameLoc(),
                             result.operands))
    return failure();
  SmallVector<OpAsmParser::Argument> regionArgs;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
            OpAsmParser::Argument &arg = regionArgs.emplace_back();
            return failure(parser.parseArgument(arg) || parser.parseColon() ||
                           parseCudaTileType(parser, arg.type));
          }))
    return failure();
  return parser.parseRegion(*result.addRegion(), regionArgs);
}

static void printAggregate(OpAsmPrinter &printer, Operation *op,
                           ArrayRef<StringRef> leadingAttrs) {
  printer << ' ';
  printer.printOperands(op->getOperands());
  printer << " dim=" << cast<IntegerAttr>(op->getAttr("dim")).getInt();
  if (auto reverse = op->getAttrOfType<BoolAttr>("reverse"))
    printer << " reverse=" << (reverse.getValue() ? "true" : "false");
  printer << " identities=";
  printer.printAttribute(op->getAttr("identities"));
  printer.printOptionalAttrDict(op->getAttrs(), leadingAttrs);
  printer << " : ";
  printTypeList(printer, op->getOperandTypes());
  printer << " -> ";
  printTypeList(printer, op->getResultTypes());
  // NVIDIA prints the block arguments on their own line after a space.
  printer << ' ';
  printer.printNewline();
  Region &body = op->getRegion(0);
  printer << '(';
  llvm::interleaveComma(body.getArguments(), printer, [&](BlockArgument arg) {
    printer << arg << ": ";
    printCudaTileType(printer, arg.getType());
  });
  printer << ") ";
  printer.printRegion(body, /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

/// Checks one reduce/scan: per-operand identity, body signature and yield.
static LogicalResult verifyAggregate(Operation *op, int64_t dim,
                                     ArrayAttr identities, bool keepsShape) {
  if (op->getNumOperands() == 0)
    return op->emitOpError("expected at least one operand");
  if (op->getNumResults() != op->getNumOperands())
    return op->emitOpError("expected one result per operand");
  if (identities.size() != op->getNumOperands())
    return op->emitOpError("expected one identity per operand, got ")
           << identities.size();
  auto firstShape = cast<TileType>(op->getOperand(0).getType()).getShape();
  int64_t rank = firstShape.size();
  if (dim < 0 || dim >= rank)
    return op->emitOpError("dimension ")
           << dim << " is out of range for rank " << rank;
  Block &body = op->getRegion(0).front();
  unsigned n = op->getNumOperands();
  if (body.getNumArguments() != 2 * n)
    return op->emitOpError("expected the body to take ")
           << 2 * n << " arguments, got " << body.getNumArguments();
  SmallVector<Type> elementTiles;
  for (unsigned i = 0; i < n; ++i) {
    auto operand = cast<TileType>(op->getOperand(i).getType());
    auto res = cast<TileType>(op->getResult(i).getType());
    if (operand.getShape() != firstShape)
      return op->emitOpError("expected all operands to have the same shape");
    SmallVector<int64_t> expected(operand.getShape());
    if (!keepsShape)
      expected.erase(expected.begin() + dim);
    if (res.getShape() != ArrayRef<int64_t>(expected) ||
        res.getElementType() != operand.getElementType())
      return op->emitOpError("unexpected result type ") << res;
    auto identity = dyn_cast<TypedAttr>(identities[i]);
    if (!identity || identity.getType() != operand.getElementType())
      return op->emitOpError("expected identity ")
             << i << " to be a " << operand.getElementType() << " value";
    elementTiles.push_back(
        TileType::get(op->getContext(), {}, operand.getElementType()));
  }
  for (unsigned i = 0; i < 2 * n; ++i)
    if (body.getArgument(i).getType() != elementTiles[i % n])
      return op->emitOpError("expected body argument ")
             << i << " of type " << elementTiles[i % n];
  auto yield = dyn_cast<YieldOp>(body.back());
  if (!yield)
    return op->emitOpError("expected the body to end with yield");
  return verifyYieldedTypes(yield, elementTiles, "combined value");
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseAggregate(parser, result, /*isScan=*/false);
}

void ReduceOp::print(OpAsmPrinter &printer) {
  printAggregate(printer, *this, {"dim", "identities"});
}

LogicalResult ReduceOp::verify() {
  return verifyAggregate(*this, getDim(), getIdentities(), /*keepsShape=*/false);
}

void ReduceOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (getNumResults())
    setNameFn(getResult(0), "reduce");
}

ParseResult ScanOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseAggregate(parser, result, /*isScan=*/true);
}

void ScanOp::print(OpAsmPrinter &printer) {
  printAggregate(printer, *this, {"dim", "reverse", "identities"});
}

LogicalResult ScanOp::verify() {
  return verifyAggregate(*this, getDim(), getIdentities(), /*keepsShape=*/true);
}

void ScanOp::getAsmResultNames(OpAsmSetValueNameFn) {}

//===----------------------------------------------------------------------===//
// Matrix multiply-accumulate
//===----------------------------------------------------------------------===//

/// `lhs` M x K, `rhs` K x N, `acc` M x N, optionally with a leading batch.
static LogicalResult verifyMatmulShapes(Operation *op, Type lhsType, Type rhsType,
                                        Type accType) {
  auto lhs = cast<TileType>(lhsType).getShape();
  auto rhs = cast<TileType>(rhsType).getShape();
  auto acc = cast<TileType>(accType).getShape();
  if (lhs.size() != rhs.size() || lhs.size() != acc.size())
    return op->emitOpError("failed to verify that all of {lhs, rhs, acc} have "
                           "same rank");
  if (lhs.size() != 2 && lhs.size() != 3)
    return op->emitOpError("expected 2-d or 3-d (batched) operands, got rank ")
           << lhs.size();
  auto shapeText = [](ArrayRef<int64_t> shape) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << '(';
    llvm::interleaveComma(shape, os);
    os << ')';
    return text;
  };
  // Each check: (operand a, dim i) must equal (operand b, dim j).
  struct DimPair {
    StringRef aName;
    ArrayRef<int64_t> a;
    size_t i;
    StringRef bName;
    ArrayRef<int64_t> b;
    size_t j;
  };
  size_t m = lhs.size() - 2;
  SmallVector<DimPair> checks;
  if (m == 1) {
    checks.push_back({"lhs", lhs, 0, "rhs", rhs, 0});
    checks.push_back({"lhs", lhs, 0, "acc", acc, 0});
  }
  checks.push_back({"lhs", lhs, m + 1, "rhs", rhs, m});
  checks.push_back({"lhs", lhs, m, "acc", acc, m});
  checks.push_back({"rhs", rhs, m + 1, "acc", acc, m + 1});
  for (const DimPair &c : checks)
    if (c.a[c.i] != c.b[c.j])
      return op->emitOpError("dim ")
             << c.i << " of " << c.aName << " (" << c.a[c.i] << ") and dim "
             << c.j << " of " << c.bName << " (" << c.b[c.j]
             << ") must match, but got " << c.aName << " shape "
             << shapeText(c.a) << " and " << c.bName << " shape "
             << shapeText(c.b);
  return success();
}

static Type elementOf(Value value) {
  return cast<TileType>(value.getType()).getElementType();
}

LogicalResult MmaFOp::verify() {
  Type in = elementOf(getLhs()), out = elementOf(getAcc());
  if (elementOf(getRhs()) != in)
    return emitOpError("failed to verify that all of {lhs, rhs} have the same "
                       "element type");
  bool ok = false;
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float16Type>(in))
    ok = out.isF16() || out.isF32();
  else if (isa<BFloat16Type, FloatTF32Type, Float32Type>(in))
    ok = out.isF32();
  else if (in.isF64())
    ok = out.isF64();
  if (!ok)
    return emitOpError("unsupported element types: ")
           << in << " inputs with " << out << " accumulator";
  return verifyMatmulShapes(*this, getLhs().getType(), getRhs().getType(),
                            getAcc().getType());
}

LogicalResult MmaIOp::verify() {
  if (!elementOf(getLhs()).isInteger(8) || !elementOf(getRhs()).isInteger(8) ||
      !elementOf(getAcc()).isInteger(32))
    return emitOpError("expected i8 inputs and an i32 accumulator");
  return verifyMatmulShapes(*this, getLhs().getType(), getRhs().getType(),
                            getAcc().getType());
}

LogicalResult MmaFScaledOp::verify() {
  if (!elementOf(getAcc()).isF32())
    return emitOpError("expected an f32 accumulator");
  return verifyMatmulShapes(*this, getLhs().getType(), getRhs().getType(),
                            getAcc().getType());
}

//===----------------------------------------------------------------------===//
// insert
//===----------------------------------------------------------------------===//

LogicalResult InsertOp::verify() {
  TileType source = getSource().getType();
  TileType destination = getDestination().getType();
  if (source.getElementType() != destination.getElementType())
    return emitOpError("source and destination element type do not match");
  // The destination is a grid of source-shaped blocks.
  for (auto [sourceDim, destinationDim] :
       llvm::zip_equal(source.getShape(), destination.getShape()))
    if (destinationDim % sourceDim != 0)
      return emitOpError(
          "source dim size must divide destination dim size evenly");
  if (static_cast<int64_t>(getIndices().size()) != destination.getRank())
    return emitOpError("incorrect number of indices, expected ")
           << destination.getRank() << ", but found " << getIndices().size();
  return success();
}
