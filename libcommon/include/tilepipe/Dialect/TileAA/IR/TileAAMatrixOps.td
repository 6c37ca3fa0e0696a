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

// Block-scaled multiply-accumulate, the forms block-scaled mma.sync runs
// (sm_120a/121a): result = (lhs * lhs_scale) x (rhs * rhs_scale) + acc with
// an f32 accumulator and fp8 (e4m3/e5m2) operands with f8E8M0FNU (power of
// two) scales per 32 k, or f4E2M1FN operands with f8E8M0FNU scales per 32 k
// (MX-FP4) or f8E4M3FN scales per 16 k (NVFP4) (getScaledMmaBlock). lhs
// [B x] M x K has scales [B x] M x (K/block), rhs [B x] K x N has
// [B x] (K/block) x N: each run of `block` consecutive k shares one scale.
// CudaTileToTileAA emits it only for targets with that instruction; other
// cuda_tile.mmaf_scaled forms are decomposed into widening and mmaf.
def TileAA_MmaFScaledOp : TileAA_Op<"mmaf_scaled",
    [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "block-scaled fp8 or fp4 matrix multiply-accumulate";
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       AnyRankedTensor:$acc, AnyRankedTensor:$lhs_scale,
                       AnyRankedTensor:$rhs_scale);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc `scales` `(` $lhs_scale `,` $rhs_scale `)` attr-dict `:`
    type($lhs) `,` type($rhs) `,` type($acc) `,` type($lhs_scale) `,` type($rhs_scale)
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::tilepipe::verifyScaledMmaShapes(
          *this, getLhs().getType(), getRhs().getType(), getAcc().getType(),
          getLhsScale().getType(), getRhsScale().getType());
    }
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
