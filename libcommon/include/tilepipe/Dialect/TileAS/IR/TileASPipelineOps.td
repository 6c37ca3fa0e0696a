//===- TileASPipelineOps.td - multi-stage shared-memory ring ops ---===//
//
// Included from TileAS.td. The ops tile-sched's tilepipe-pipeline-mma-loops
// leaves in a K loop it software-pipelines: the multiply's A and B tiles
// pass through a ring of `stages` slots of shared memory, one K chunk per
// slot, so that the copies of chunk t + stages - 1 are in flight while chunk
// t is multiplied. The ring starts at offset 0 of the CTA's shared scratch
// buffer (no other op uses the scratch inside such a loop); a slot holds A
// as [batch][M][chunk] and B as [batch][chunk][N], rows padded as the
// mma.sync staging pads them (MmaStaging.h).
//
// The ring discipline is split from the copy mechanism: a producer fills a
// slot and closes one async group per slot (mma_stage_copy: cp.async),
// async_wait waits until at most `pending` groups are open and then
// publishes the landed slots with a CTA barrier, a consumer reads a slot
// (mmaf_stage: ldmatrix + mma.sync). A producer with another mechanism
// (TMA) needs only its own copy op that closes one group per slot.
//
//===----------------------------------------------------------------------===//

def TileAS_MmaStageCopyOp : TileAS_Op<"mma_stage_copy", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "start async copies of one K chunk of A and B into a ring slot";
  let description = [{
    Copies the elements of A ([M, K] or [batch, M, K], read through `lhs` as
    tile_as.mmaf_global reads its pointer operands) whose K lies in
    [k_offset, k_offset + k_len), and the same rows of B, into ring slot
    `slot` (an i32 in [0, stages)) of a ring with slots of `chunk` K, then
    closes the thread's async group, also where it copied nothing. A
    masked-off element lands as +0.0; where `pred` is false nothing is read
    (the slot's bytes become +0.0), which lets the copies for iterations past
    the loop's end stay in the code. The copies complete at a later
    tile_as.async_wait.
  }];
  let arguments = (ins TileAS_PtrTensor:$lhs, Optional<TileAS_MaskTensor>:$lhs_mask,
                       TileAS_PtrTensor:$rhs, Optional<TileAS_MaskTensor>:$rhs_mask,
                       I32:$slot, I1:$pred,
                       I64Attr:$k_offset, I64Attr:$k_len, I64Attr:$chunk,
                       I64Attr:$stages);
  let assemblyFormat = [{
    $lhs (`mask` $lhs_mask^)? `,` $rhs (`mask` $rhs_mask^)? `slot` $slot `if` $pred attr-dict
    `:` type($lhs) (`mask` type($lhs_mask)^)? `,` type($rhs) (`mask` type($rhs_mask)^)?
  }];
  let hasVerifier = 1;
}

def TileAS_AsyncWaitOp : TileAS_Op<"async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for all but the newest `pending` async groups, then a CTA barrier";
  let description = [{
    Every thread waits until at most `pending` of its async copy groups are
    still in flight, then the CTA meets at a barrier: the slots the completed
    groups filled are visible to every thread, and every thread has finished
    reading whatever it read before (so a slot read before may be refilled
    after). `pending = 0` drains the ring.
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "attr-dict";
}

def TileAS_MmaFStageOp : TileAS_Op<"mmaf_stage", [MemoryEffects<[MemRead]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "mmaf of one K chunk of A and B held in a ring slot";
  let description = [{
    result = A x B + acc for the `k_len` (a multiple of 16) K of the A and B
    that tile_as.mma_stage_copy put into ring slot `slot` (ring slots of
    `chunk` K, `stages` slots), of element type `operand_type` (f16 or bf16);
    M and N (and the batch) are the accumulator's. The slot must have been
    published by a tile_as.async_wait.
  }];
  let arguments = (ins AnyRankedTensor:$acc, I32:$slot, TypeAttr:$operand_type,
                       I64Attr:$k_len, I64Attr:$chunk, I64Attr:$stages);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc `slot` $slot attr-dict `:` type($acc)";
}
