//===- CudaTileAttrs.cpp - cuda_tile enums and attributes -----------------===//
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe::cuda_tile;

#include "tilepipe/Dialect/CudaTile/IR/CudaTileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilepipe/Dialect/CudaTile/IR/CudaTileAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// DivByAttr: `<divisor[, every E along A]>`
//===----------------------------------------------------------------------===//

Attribute DivByAttr::parse(AsmParser &parser, Type) {
  uint64_t divisor = 0;
  std::optional<int64_t> every, along;
  if (parser.parseLess() || parser.parseInteger(divisor))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    int64_t e = 0, a = 0;
    if (parser.parseKeyword("every") || parser.parseInteger(e) ||
        parser.parseKeyword("along") || parser.parseInteger(a))
      return {};
    every = e;
    along = a;
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), divisor, every, along);
}

void DivByAttr::print(AsmPrinter &printer) const {
  printer << '<' << getDivisor();
  if (getEvery() && getAlong())
    printer << ", every " << *getEvery() << " along " << *getAlong();
  printer << '>';
}

LogicalResult DivByAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                uint64_t divisor, std::optional<int64_t> every,
                                std::optional<int64_t> along) {
  if (divisor == 0 || !llvm::isPowerOf2_64(divisor))
    return emitError() << "divisor must be a positive power of 2, got "
                       << divisor;
  if (divisor > (uint64_t(1) << 62))
    return emitError() << "divisor must be at most 2^62, got " << divisor;
  if (every.has_value() != along.has_value())
    return emitError() << "'every' and 'along' must be used together";
  if (every && *every <= 0)
    return emitError() << "'every' must be positive, got " << *every;
  if (along && *along < 0)
    return emitError() << "'along' must be non-negative, got " << *along;
  return success();
}

//===----------------------------------------------------------------------===//
// BoundedAttr
//===----------------------------------------------------------------------===//

LogicalResult BoundedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  std::optional<int64_t> lb,
                                  std::optional<int64_t> ub) {
  if (lb && ub && *lb > *ub)
    return emitError() << "lower bound " << *lb
                       << " must be less than or equal to upper bound " << *ub;
  return success();
}

//===----------------------------------------------------------------------===//
// OptimizationHintsAttr: `<sm_100 = {latency = 2}, default = {}>`
//===----------------------------------------------------------------------===//

Attribute OptimizationHintsAttr::parse(AsmParser &parser, Type) {
  SmallVector<NamedAttribute> entries;
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          std::string key;
          DictionaryAttr hints;
          if (parser.parseKeywordOrString(&key) || parser.parseEqual() ||
              parser.parseAttribute(hints))
            return failure();
          entries.emplace_back(StringAttr::get(parser.getContext(), key), hints);
          return success();
        }) ||
        parser.parseGreater())
      return {};
  }
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(),
                    DictionaryAttr::get(parser.getContext(), entries));
}

void OptimizationHintsAttr::print(AsmPrinter &printer) const {
  printer << '<';
  llvm::interleaveComma(getValue(), printer, [&](NamedAttribute entry) {
    printer.printKeywordOrString(entry.getName().getValue());
    printer << " =";
    // Integer hints print bare (`{occupancy = 2}`) whatever their width, as
    // NVIDIA's printer does for the i32 values cuTile's bytecode carries.
    printer << " {";
    llvm::interleaveComma(
        cast<DictionaryAttr>(entry.getValue()), printer, [&](NamedAttribute hint) {
          printer.printKeywordOrString(hint.getName().getValue());
          printer << " = ";
          auto integer = dyn_cast<IntegerAttr>(hint.getValue());
          if (integer && integer.getType().isSignlessInteger() &&
              !integer.getType().isSignlessInteger(1))
            printer << integer.getInt();
          else
            printer.printAttribute(hint.getValue());
        });
    printer << '}';
  });
  printer << '>';
}

LogicalResult
OptimizationHintsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              DictionaryAttr value) {
  for (NamedAttribute entry : value)
    if (!isa<DictionaryAttr>(entry.getValue()))
      return emitError() << "optimization hints for '"
                         << entry.getName().getValue()
                         << "' must be a dictionary";
  return success();
}

//===----------------------------------------------------------------------===//
// Debug info
//===----------------------------------------------------------------------===//

static bool isDILocalScope(Attribute scope) {
  return isa<DISubprogramAttr, DILexicalBlockAttr>(scope);
}

LogicalResult
DILexicalBlockAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           Attribute scope, DIFileAttr, unsigned,
                           unsigned) {
  if (!isDILocalScope(scope))
    return emitError() << "lexical block scope must be a subprogram or a "
                          "lexical block";
  return success();
}

LogicalResult DILocAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                FileLineColLoc, Attribute scope) {
  if (!isDILocalScope(scope))
    return emitError() << "di_loc scope must be a subprogram or a lexical block";
  return success();
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void CudaTileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilepipe/Dialect/CudaTile/IR/CudaTileAttrs.cpp.inc"
      >();
}
