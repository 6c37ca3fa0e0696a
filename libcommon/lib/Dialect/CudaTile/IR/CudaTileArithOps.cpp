//===- CudaTileArithOps.cpp - cuda_tile elementwise, conversion, shape ops ===//
//
// Registration and generated definitions of the ops of CudaTileArithOps.td,
// and the custom assembly directives they use. Verifiers live in
// CudaTileArithVerifiers.cpp, folders in CudaTileArithFolders.cpp.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/Dialect/CudaTile/IR/CudaTileArithSyntax.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace tilepipe::cuda_tile {

Type getI1SameShape(Type type) {
  auto tile = llvm::dyn_cast<TileType>(type);
  if (!tile)
    return {};
  return TileType::get(tile.getShape(),
                       IntegerType::get(type.getContext(), 1));
}

//===----------------------------------------------------------------------===//
// Keyword enums
//===----------------------------------------------------------------------===//

namespace {

/// Parses a bare enum keyword; on a missing or unknown keyword reports
/// `expected <what> to be one of: {'a', 'b', ...}` as NVIDIA's parser does.
template <typename EnumT, typename AttrT>
ParseResult parseEnumKeyword(OpAsmParser &parser, AttrT &attr,
                             llvm::StringRef what,
                             llvm::ArrayRef<llvm::StringRef> spellings) {
  SMLoc loc = parser.getCurrentLocation();
  llvm::StringRef keyword;
  std::optional<EnumT> value;
  // A missing keyword also gets MLIR's own "expected valid keyword" first.
  if (succeeded(parser.parseKeyword(&keyword)))
    value = symbolizeEnum<EnumT>(keyword);
  if (!value) {
    InFlightDiagnostic diag = parser.emitError(loc)
                              << "expected " << what << " to be one of: {";
    llvm::interleaveComma(spellings, diag, [&](llvm::StringRef spelling) {
      diag << "'" << spelling << "'";
    });
    return diag << "}";
  }
  attr = AttrT::get(parser.getContext(), *value);
  return success();
}

} // namespace

ParseResult parseSignedness(OpAsmParser &parser, SignednessAttr &attr) {
  return parseEnumKeyword<Signedness>(parser, attr, "signedness",
                                      {"signed", "unsigned"});
}

void printSignedness(OpAsmPrinter &printer, Operation *, SignednessAttr attr) {
  printer << stringifySignedness(attr.getValue());
}

ParseResult parseComparisonPredicate(OpAsmParser &parser,
                                     ComparisonPredicateAttr &attr) {
  return parseEnumKeyword<ComparisonPredicate>(
      parser, attr, "'comparison_predicate'",
      {"equal", "not_equal", "less_than", "less_than_or_equal", "greater_than",
       "greater_than_or_equal"});
}

void printComparisonPredicate(OpAsmPrinter &printer, Operation *,
                              ComparisonPredicateAttr attr) {
  printer << stringifyComparisonPredicate(attr.getValue());
}

ParseResult parseComparisonOrdering(OpAsmParser &parser,
                                    ComparisonOrderingAttr &attr) {
  return parseEnumKeyword<ComparisonOrdering>(
      parser, attr, "'comparison_ordering'", {"ordered", "unordered"});
}

void printComparisonOrdering(OpAsmPrinter &printer, Operation *,
                             ComparisonOrderingAttr attr) {
  printer << stringifyComparisonOrdering(attr.getValue());
}

//===----------------------------------------------------------------------===//
// Rounding modes
//===----------------------------------------------------------------------===//

namespace {

/// The rounding modes one op family accepts in text, and the mode that is
/// implied (and elided in print) when `rounding<...>` is absent.
struct RoundingSyntax {
  llvm::ArrayRef<RoundingMode> allowed;
  RoundingMode defaultMode;
};

constexpr RoundingMode kIEEEModes[] = {
    RoundingMode::NEAREST_EVEN, RoundingMode::ZERO, RoundingMode::NEGATIVE_INF,
    RoundingMode::POSITIVE_INF};
constexpr RoundingMode kDivFModes[] = {
    RoundingMode::NEAREST_EVEN, RoundingMode::ZERO, RoundingMode::NEGATIVE_INF,
    RoundingMode::POSITIVE_INF, RoundingMode::APPROX, RoundingMode::FULL};
constexpr RoundingMode kSqrtModes[] = {
    RoundingMode::NEAREST_EVEN, RoundingMode::ZERO, RoundingMode::NEGATIVE_INF,
    RoundingMode::POSITIVE_INF, RoundingMode::APPROX};
constexpr RoundingMode kApproxOrFullModes[] = {RoundingMode::APPROX,
                                               RoundingMode::FULL};
constexpr RoundingMode kIntegerModes[] = {RoundingMode::NEAREST_INT_TO_ZERO};

ParseResult parseRounding(OpAsmParser &parser, RoundingModeAttr &attr,
                          const RoundingSyntax &syntax) {
  if (failed(parser.parseOptionalKeyword("rounding"))) {
    attr = RoundingModeAttr::get(parser.getContext(), syntax.defaultMode);
    return success();
  }
  llvm::StringRef keyword;
  if (parser.parseLess() || parser.parseKeyword(&keyword) ||
      parser.parseGreater())
    return failure();
  std::optional<RoundingMode> mode = symbolizeRoundingMode(keyword);
  if (!mode || !llvm::is_contained(syntax.allowed, *mode)) {
    InFlightDiagnostic diag = parser.emitError(parser.getCurrentLocation())
                              << "expected rounding mode to be one of: ";
    llvm::interleaveComma(syntax.allowed, diag, [&](RoundingMode allowed) {
      diag << "'" << stringifyRoundingMode(allowed) << "'";
    });
    return diag << ", got: '" << keyword << "'";
  }
  attr = RoundingModeAttr::get(parser.getContext(), *mode);
  return success();
}

void printRounding(OpAsmPrinter &printer, RoundingModeAttr attr,
                   const RoundingSyntax &syntax) {
  if (!attr || attr.getValue() == syntax.defaultMode)
    return;
  printer << "rounding<" << stringifyRoundingMode(attr.getValue()) << ">";
}

} // namespace

#define TILEPIPE_DEFINE_ROUNDING_DIRECTIVE(Name, Modes, Default)               \
  ParseResult parse##Name(OpAsmParser &parser, RoundingModeAttr &attr) {       \
    return parseRounding(parser, attr, {Modes, RoundingMode::Default});        \
  }                                                                            \
  void print##Name(OpAsmPrinter &printer, Operation *, RoundingModeAttr attr) { \
    printRounding(printer, attr, {Modes, RoundingMode::Default});              \
  }
TILEPIPE_DEFINE_ROUNDING_DIRECTIVE(IEEERoundingMode, kIEEEModes, NEAREST_EVEN)
TILEPIPE_DEFINE_ROUNDING_DIRECTIVE(DivFRoundingMode, kDivFModes, NEAREST_EVEN)
TILEPIPE_DEFINE_ROUNDING_DIRECTIVE(SqrtRoundingMode, kSqrtModes, NEAREST_EVEN)
TILEPIPE_DEFINE_ROUNDING_DIRECTIVE(ApproxOrFullRoundingMode, kApproxOrFullModes,
                                   FULL)
TILEPIPE_DEFINE_ROUNDING_DIRECTIVE(IntegerRoundingMode, kIntegerModes,
                                   NEAREST_INT_TO_ZERO)
#undef TILEPIPE_DEFINE_ROUNDING_DIRECTIVE

//===----------------------------------------------------------------------===//
// Result names
//===----------------------------------------------------------------------===//

// NVIDIA's printer names these results `%bcast`, `%reshape`.
void BroadcastOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "bcast");
}

void ReshapeOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "reshape");
}

} // namespace tilepipe::cuda_tile

//===----------------------------------------------------------------------===//
// Generated op definitions and registration
//===----------------------------------------------------------------------===//

using namespace tilepipe::cuda_tile;

#define GET_OP_CLASSES
#include "tilepipe/Dialect/CudaTile/IR/CudaTileArithOps.cpp.inc"

void CudaTileDialect::registerArithOps() {
  addOperations<
#define GET_OP_LIST
#include "tilepipe/Dialect/CudaTile/IR/CudaTileArithOps.cpp.inc"
      >();
}
