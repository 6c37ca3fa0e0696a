//===- TileASArithOps.td - arithmetic and conversion ops with no upstream equivalent ---===//
//
// Included from TileAS.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//

def TileAS_FloatLike : AnyTypeOf<[F16, BF16, F32, F64,
                                 RankedTensorOf<[F16, BF16, F32, F64]>]>;

// cuda_tile's addf/subf/mulf/divf/fma/sqrt with rounding<zero>,
// rounding<negative_inf> or rounding<positive_inf>: upstream arith only rounds
// to nearest even, and PTX has the directed forms for f32 and f64 alone.
def TileAS_DirectedArithOp : TileAS_Op<"directed_arith", [Pure, Elementwise,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "float arithmetic rounded toward zero, -inf or +inf";
  let description = [{
    `kind` is one of add, sub, mul, div, fma (operands a, b, c: a * b + c)
    and sqrt; `rounding` one of zero, negative_inf, positive_inf. The
    result is the exact result rounded once in that direction.
    `flush_to_zero` (f32 only) flushes subnormal operands and results to
    zero of the same sign, as PTX's .ftz.
  }];
  let arguments = (ins StrAttr:$kind, StrAttr:$rounding, UnitAttr:$flush_to_zero,
                       Variadic<TileAS_FloatLike>:$operands);
  let results = (outs TileAS_FloatLike:$result);
  let assemblyFormat = "$kind $rounding (`flush_to_zero` $flush_to_zero^)? $operands attr-dict `:` type($operands) `->` type($result)";
  let hasVerifier = 1;
}
