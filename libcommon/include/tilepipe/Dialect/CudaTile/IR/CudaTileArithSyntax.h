//===- CudaTileArithSyntax.h - Custom directives of the cuda_tile ops -----===//
//
// The `custom<...>` assembly-format directives of the elementwise ops, with
// NVIDIA's spelling and parse diagnostics: enum modifiers as bare keywords
// (`signed`, `less_than`, `ordered`) and rounding modes as `rounding<mode>`,
// elided when equal to the op's default. They are declared here so that other
// cuda_tile op files (e.g. `mmai`'s signedness) can use them too.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_CUDATILE_IR_CUDATILEARITHSYNTAX_H
#define TILEPIPE_DIALECT_CUDATILE_IR_CUDATILEARITHSYNTAX_H

#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

namespace tilepipe::cuda_tile {

/// The type `tile<shape x i1>` with the shape of `type` (a tile type); the
/// result type of comparisons.
mlir::Type getI1SameShape(mlir::Type type);

// custom<Signedness>: `signed` | `unsigned`.
mlir::ParseResult parseSignedness(mlir::OpAsmParser &parser,
                                  SignednessAttr &attr);
void printSignedness(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                     SignednessAttr attr);

// custom<ComparisonPredicate>: `equal` | `not_equal` | `less_than` | ...
mlir::ParseResult parseComparisonPredicate(mlir::OpAsmParser &parser,
                                           ComparisonPredicateAttr &attr);
void printComparisonPredicate(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                              ComparisonPredicateAttr attr);

// custom<ComparisonOrdering>: `ordered` | `unordered`.
mlir::ParseResult parseComparisonOrdering(mlir::OpAsmParser &parser,
                                          ComparisonOrderingAttr &attr);
void printComparisonOrdering(mlir::OpAsmPrinter &printer, mlir::Operation *op,
                             ComparisonOrderingAttr attr);

// Optional `rounding<mode>`; each directive accepts its op family's modes and
// elides its default:
//   IEEERoundingMode         nearest_even zero negative_inf positive_inf
//                            (default nearest_even: addf subf mulf fma ftof itof)
//   DivFRoundingMode         the IEEE modes, approx, full (default nearest_even)
//   SqrtRoundingMode         the IEEE modes, approx (default nearest_even)
//   ApproxOrFullRoundingMode approx, full (default full: exp tanh)
//   IntegerRoundingMode      nearest_int_to_zero (default, ftoi)
#define TILEPIPE_DECLARE_ROUNDING_DIRECTIVE(Name)                              \
  mlir::ParseResult parse##Name(mlir::OpAsmParser &parser,                     \
                                RoundingModeAttr &attr);                       \
  void print##Name(mlir::OpAsmPrinter &printer, mlir::Operation *op,           \
                   RoundingModeAttr attr);
TILEPIPE_DECLARE_ROUNDING_DIRECTIVE(IEEERoundingMode)
TILEPIPE_DECLARE_ROUNDING_DIRECTIVE(DivFRoundingMode)
TILEPIPE_DECLARE_ROUNDING_DIRECTIVE(SqrtRoundingMode)
TILEPIPE_DECLARE_ROUNDING_DIRECTIVE(ApproxOrFullRoundingMode)
TILEPIPE_DECLARE_ROUNDING_DIRECTIVE(IntegerRoundingMode)
#undef TILEPIPE_DECLARE_ROUNDING_DIRECTIVE

} // namespace tilepipe::cuda_tile

#endif // TILEPIPE_DIALECT_CUDATILE_IR_CUDATILEARITHSYNTAX_H
