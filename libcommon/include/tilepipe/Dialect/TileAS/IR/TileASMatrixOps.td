//===- TileASMatrixOps.td - matrix-multiply ops ---===//
//
// Included from TileAS.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//

// Matrix multiply-accumulate: result = lhs x rhs + acc over the last two
// dimensions ([M, K] x [K, N] + [M, N]); a leading third dimension is a batch.
// Accumulation is in f32 (mmaf) or i32 (mmai) whatever the acc element type.

def TileAS_MmaFOp : TileAS_Op<"mmaf", [Pure, AllTypesMatch<["acc", "result"]>]> {
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
def TileAS_MmaFScaledOp : TileAS_Op<"mmaf_scaled",
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

def TileAS_MmaIOp : TileAS_Op<"mmai", [Pure, AllTypesMatch<["acc", "result"]>]> {
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

// An mmaf whose A or B tile (or both) comes straight from global memory
// (tile-sched's tilepipe-async-copy-mma-operands fuses a tile_as.load into
// the multiply): the lowering copies such a tile into the shared staging
// buffer with cp.async rather than through registers.
def TileAS_MmaFGlobalOp : TileAS_Op<"mmaf_global", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "mmaf of A and B, either read through a tensor of global pointers";
  let description = [{
    result = A x B + acc. `lhs` and `rhs` are each either the tile itself
    (registers, as tile_as.mmaf takes it) or a tensor of global pointers to
    it, read as tile_as.load would read it; at least one is pointers. An
    element of a pointer operand whose mask bit is false reads as +0.0 (the
    load's zero padding); only pointer operands take a mask. The pointer
    tensors keep the loads' layouts: every thread's pointers come in runs
    (its sizePerThread along the innermost dimension) of adjacent, contiguous
    elements, 4, 8 or 16 bytes long and aligned to that, that share one mask
    bit (the loads' contiguity promised that).
    The reads happen where the op stands.

    A pointer operand whose runs are 8 elements (16 bytes) may also carry its
    view (`view` base[...]): the load
    it came from read a rank-r tile (r from 2 to 5; the operand is that tile
    with leading unit dimensions dropped) whose element t is at
    base + sum_d (start_d + t_d) * stride_d and in bounds when every
    start_d + t_d < size_d (unsigned). The list is size_0..size_{r-1}, then
    stride_0..stride_{r-2} in elements (the innermost stride is 1), then
    start_0..start_{r-1}, outermost dimension first. It names the same
    elements as the pointers and the mask, so a lowering may read the tile
    either way; the wgmma path reads it with TMA (cp.async.bulk.tensor).

    `lhs_tf32` (`rhs_tf32`) marks a pointer operand to f32 that the multiply
    takes as tf32: the load it came from fed an arith.truncf f32 -> tf32
    (cuTile's ftof), which the lowering applies after the copy, rounding
    each element to nearest even exactly as that truncf does (the mma.sync
    path rounds the fragment registers between ldmatrix and mma.sync), so
    the raw f32 tile is what is copied. The element is then 4 bytes and the
    runs 1, 2 or 4 elements long. (The wgmma path instead takes any f32
    pointer operand as tf32 and rounds it in shared memory once landed; it
    has no use for the marks, which only the mma.sync path accepts.)

    `lhs_run` (`rhs_run`) shortens the runs of a pointer operand to that many
    elements (a divisor of the layout's run, at least 4 bytes), each with its
    own mask bit, where the load proved less than its layout's runs (cuTile's
    non-multiple f32 MatMul: single elements); the mma.sync and wgmma paths
    copy such runs.

    `rhs_view_transposed`: B's view lists its dimensions in memory order
    with B's last two swapped (B's innermost dimension N is the view's
    next-innermost one and B's K the unit-stride one: a K-major B such as
    FMHA's K^T, read from a dim_map'd view). Its pointers keep no runs (the
    load's `transposed_contiguity` proved base and strides 16-byte
    aligned), so such a B is read only by TMA.

    `rhs_k_runs`: B's pointer operand has its runs along K (dimension r - 2)
    instead of N: its layout's registers go along K and the load's
    `transposed_contiguity` proved the runs adjacent, aligned and under one
    mask bit. B is then copied K-major, which only the tcgen05 path reads
    (the fused MoE kernel's expert weights, read from a transposed view).
  }];
  let arguments = (ins AnyRankedTensor:$lhs, Optional<TileAS_MaskTensor>:$lhs_mask,
                       AnyRankedTensor:$rhs, Optional<TileAS_MaskTensor>:$rhs_mask,
                       AnyRankedTensor:$acc,
                       Optional<TileAS_PtrType>:$lhs_base, Variadic<AnySignlessInteger>:$lhs_view,
                       Optional<TileAS_PtrType>:$rhs_base, Variadic<AnySignlessInteger>:$rhs_view,
                       UnitAttr:$lhs_tf32, UnitAttr:$rhs_tf32,
                       OptionalAttr<I64Attr>:$lhs_run, OptionalAttr<I64Attr>:$rhs_run,
                       UnitAttr:$rhs_view_transposed, UnitAttr:$rhs_k_runs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs (`mask` $lhs_mask^)? (`view` $lhs_base^ `[` $lhs_view `]`)? `,`
    $rhs (`mask` $rhs_mask^)? (`view` $rhs_base^ `[` $rhs_view `]`)? `,` $acc attr-dict
    `:` type($lhs) (`mask` type($lhs_mask)^)?
    (`view` type($lhs_base)^ `[` type($lhs_view) `]`)? `,` type($rhs)
    (`mask` type($rhs_mask)^)? (`view` type($rhs_base)^ `[` type($rhs_view) `]`)? `,` type($acc)
  }];
  let builders = [
    // Without views: the cp.async form.
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$lhs, "::mlir::Value":$lhs_mask,
                   "::mlir::Value":$rhs, "::mlir::Value":$rhs_mask, "::mlir::Value":$acc), [{
      build($_builder, $_state, result, lhs, lhs_mask, rhs, rhs_mask, acc, ::mlir::Value(),
            ::mlir::ValueRange(), ::mlir::Value(), ::mlir::ValueRange(), /*lhs_tf32=*/false,
            /*rhs_tf32=*/false, ::mlir::IntegerAttr(), ::mlir::IntegerAttr(),
            /*rhs_view_transposed=*/false, /*rhs_k_runs=*/false);
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether `operand` (lhs or rhs) is a tensor of pointers.
    static bool isGlobal(::mlir::Value operand) {
      return ::llvm::isa<PtrType>(
          ::llvm::cast<::mlir::RankedTensorType>(operand.getType()).getElementType());
    }
    /// The element type the multiply takes `operand` (lhs or rhs) as: a
    /// register operand's element type, a pointer operand's pointee, or tf32
    /// where `toTF32` (lhs_tf32 / rhs_tf32) rounds its f32 elements.
    static ::mlir::Type getMultipliedType(::mlir::Value operand, bool toTF32) {
      if (toTF32)
        return ::mlir::FloatTF32Type::get(operand.getContext());
      ::mlir::Type element =
          ::llvm::cast<::mlir::RankedTensorType>(operand.getType()).getElementType();
      if (auto ptr = ::llvm::dyn_cast<PtrType>(element))
        return ptr.getPointeeType();
      return element;
    }
    ::mlir::Type getLhsMultipliedType() { return getMultipliedType(getLhs(), getLhsTf32()); }
    ::mlir::Type getRhsMultipliedType() { return getMultipliedType(getRhs(), getRhsTf32()); }
  }];
}

// A tcgen05 K loop's accumulator kept in tensor memory for the whole loop
// (tile-sched's tilepipe-keep-accumulators-in-tmem): acc_to_tmem moves the
// accumulator there before the loop, the multiplies inside carry the unit
// attribute `tile_as.tmem_accumulator` (their acc operand and result are the
// tensor-memory copy, not registers) and acc_from_tmem reads the sum back
// after the loop. In value terms both ops are the identity; they write and
// read the kernel's tensor memory, hence the effects (no two may be merged
// or reordered).
def TileAS_AccToTmemOp : TileAS_Op<"acc_to_tmem", [MemoryEffects<[MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "store a tcgen05 accumulator into tensor memory";
  let description = [{
    The accumulator (the tcgen05 accumulator layout, tcgen05.st.32x32b's)
    goes to the columns the tcgen05.mma D regions take (one region of N
    columns per batch and 128-row block, from column 0 of the kernel's
    tensor memory); the result names that copy, which only multiplies with
    `tile_as.tmem_accumulator` and acc_from_tmem may use.
  }];
  let arguments = (ins AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}

def TileAS_AccFromTmemOp : TileAS_Op<"acc_from_tmem", [MemoryEffects<[MemRead]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "load a tcgen05 accumulator from tensor memory into registers";
  let description = [{
    Reads the accumulator that acc_to_tmem placed and the multiplies since
    added to (tcgen05.ld.32x32b) into registers of its layout.
  }];
  let arguments = (ins AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}
