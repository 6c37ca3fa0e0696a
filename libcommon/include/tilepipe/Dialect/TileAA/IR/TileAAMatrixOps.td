//===- TileAAMatrixOps.td - matrix-multiply ops ---===//
//
// Included from TileAA.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//

// Matrix multiply-accumulate: result = lhs x rhs + acc over the last two
// dimensions ([M, K] x [K, N] + [M, N]); a leading third dimension is a batch.
// Accumulation is in f32 (mmaf) or i32 (mmai) whatever the acc element type.

def TileAA_MmaFOp : TileAA_Op<"mmaf", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "floating-point matrix multiply-accumulate";
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)
  }];
}

def TileAA_MmaIOp : TileAA_Op<"mmai", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "integer (i8 x i8 + i32) matrix multiply-accumulate";
  let description = [{
    `lhs_signed` / `rhs_signed` say whether the i8 operands sign- or
    zero-extend.
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       AnyRankedTensor:$acc, BoolAttr:$lhs_signed,
                       BoolAttr:$rhs_signed);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)
  }];
}
