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

//===----------------------------------------------------------------------===//
// The TMA ring of the wgmma path (sm_90a), of mma.sync on sm_120a/121a
// and of tcgen05.mma on sm_100a/103a/110a
//===----------------------------------------------------------------------===//
//
// The same modulo schedule over K chunks for a K loop whose mmaf_global
// takes the wgmma path with both operands' views, or (sm_120a/121a) the
// mma.sync path with them: TMA fills the slots and
// mbarriers order the slots' reuse instead of cp.async groups and CTA
// barriers. Each slot holds one K chunk of A and B in the swizzled layouts
// wgmma reads (SwizzledStaging.h), one after the other from offset 0 of the
// shared scratch, followed by two mbarriers per slot: full[s] (one arrival,
// the producer's arrive.expect_tx, plus the chunk's bytes by TMA) and
// empty[s] (one arrival per warp, once the wgmmas, or on sm_120a/121a the
// ldmatrix reads of tile_as.mmaf_tma_stage, that read the slot have
// completed). Use u of slot s (chunk t = u * stages + s) completes phase u
// of both, so a wait names the parity u % 2 (`phase`): consumers wait on
// full[s] with `phase`, the producer refilling s for chunk t waits on
// empty[s] for the release of chunk t - stages, parity `phase` ^ 1, which a
// fresh mbarrier (phase 0 not complete) already passes for u = 0.
// M, N and the warps are the accumulator's (`acc_type`); its layout says
// which consumer reads the slots: wgmma (all warps along M, A's rows in
// wgmma fragment order), mma.sync or tcgen05.mma (A's rows in order). The
// tcgen05 ring's empty[s] takes one arrival, tcgen05.commit's once the MMAs
// that read the slot have completed (tile_as.tcgen05_stage).

def TileAS_TmaRingBeginOp : TileAS_Op<"tma_ring_begin", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "tensor maps and mbarriers of a TMA ring";
  let description = [{
    Builds the tensor maps of A's and B's views (as tile_as.mmaf_global
    lists them; the starts are not read) for boxes of the ring's slots and
    returns their generic addresses, initializes the ring's 2 x `stages`
    mbarriers and meets the CTA at a barrier (earlier users of the shared
    scratch are done with it).
    With `warp_specialized` it runs in the producer warpgroup only (see
    "Warp specialization" below): the producer's first thread builds the
    maps and initializes the mbarriers, and the barrier is the ring's named
    barrier, which tile_as.tma_ring_enter meets in the consumers.
  }];
  let arguments = (ins TileAS_PtrType:$lhs_base, Variadic<AnySignlessInteger>:$lhs_view,
                       TileAS_PtrType:$rhs_base, Variadic<AnySignlessInteger>:$rhs_view,
                       TypeAttr:$acc_type, I64Attr:$chunk, I64Attr:$stages,
                       UnitAttr:$warp_specialized);
  let results = (outs I64:$lhs_map, I64:$rhs_map);
  let assemblyFormat = [{
    $lhs_base `[` $lhs_view `]` `,` $rhs_base `[` $rhs_view `]` attr-dict
    `:` type($lhs_base) `[` type($lhs_view) `]` `,` type($rhs_base) `[` type($rhs_view) `]`
  }];
  let hasVerifier = 1;
}

def TileAS_TmaStageLoadOp : TileAS_Op<"tma_stage_load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "TMA loads of one K chunk of A and B into a ring slot";
  let description = [{
    Where `pred` holds, one thread waits until slot `slot` is free (empty,
    parity `phase` ^ 1), arrives on its full mbarrier expecting the chunk's
    bytes and issues the TMA boxes of the K range [k_offset, k_offset +
    chunk) of the tiles of A and B that start at `lhs_starts` and
    `rhs_starts` (outermost dimension first) through the maps of
    tile_as.tma_ring_begin. Elements outside the views land as +0.0.
    Nothing happens where `pred` is false. The thread is the CTA's first,
    or with `warp_specialized` the producer warpgroup's first.
  }];
  let arguments = (ins I64:$lhs_map, I64:$rhs_map, Variadic<AnySignlessInteger>:$lhs_starts,
                       Variadic<AnySignlessInteger>:$rhs_starts, I32:$slot, I32:$phase,
                       I1:$pred, TypeAttr:$acc_type, TypeAttr:$operand_type,
                       I64Attr:$k_offset, I64Attr:$chunk, I64Attr:$stages,
                       UnitAttr:$warp_specialized);
  let assemblyFormat = [{
    $lhs_map `[` $lhs_starts `]` `,` $rhs_map `[` $rhs_starts `]` `slot` $slot `phase` $phase
    `if` $pred attr-dict `:` `[` type($lhs_starts) `]` `,` `[` type($rhs_starts) `]`
  }];
  let hasVerifier = 1;
}

def TileAS_WgmmaStageOp : TileAS_Op<"wgmma_stage", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "wgmma of one K chunk in a ring slot, one group left in flight";
  let description = [{
    Every thread waits for slot `slot`'s full mbarrier (parity `phase`),
    then each warpgroup issues the wgmmas of the chunk onto `acc` (an f32
    accumulator in the wgmma layout) between a wgmma.fence and a
    commit_group, and waits until at most this group is in flight: the
    previous chunk's wgmmas have completed, so where `release` holds each
    warp then arrives on the empty mbarrier of `release_slot` (the previous
    chunk's slot). The result's registers are defined only after a later
    wgmma.wait_group 0 (tile_as.tma_ring_end), so the result may feed only
    another wgmma_stage (the loop's carried accumulator) or the ring's end.
  }];
  let arguments = (ins AnyRankedTensor:$acc, I32:$slot, I32:$phase, I32:$release_slot,
                       I1:$release, TypeAttr:$operand_type, I64Attr:$chunk, I64Attr:$stages);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $acc `slot` $slot `phase` $phase `release` $release_slot `if` $release attr-dict `:` type($acc)
  }];
}

def TileAS_MmaFTmaStageOp : TileAS_Op<"mmaf_tma_stage", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "ldmatrix + mma.sync of one K chunk in a TMA ring slot, then its release";
  let description = [{
    The mma.sync consumer of a TMA ring (sm_120a/121a: an accumulator in
    the mma.sync layout rather than wgmma's). Every thread waits for slot
    `slot`'s full mbarrier (parity `phase`), then the warps read the
    chunk's fragments from the swizzled A and B with ldmatrix (the 16-byte
    pieces of a row XOR-ed with its place in the 8-row pattern, as TMA
    wrote them) and issue the mma.syncs onto `acc`. mma.sync consumes its
    fragments before it completes, so each warp then arrives on the slot's
    own empty mbarrier: the result is defined at once (unlike
    tile_as.wgmma_stage's). `operand_type` is f16 or bf16 (m16n8k16), tf32
    (m16n8k8: the slots hold f32 as TMA moved it, B is read by
    ld.shared.b32 and every fragment register rounded to tf32) or
    f8E4M3FN/f8E5M2 (m16n8k32 into the paired-column accumulator, B by
    ldmatrix .trans and prmt); `acc` is an [M, N] f32 tile in the mma.sync
    layout.
  }];
  let arguments = (ins AnyRankedTensor:$acc, I32:$slot, I32:$phase, TypeAttr:$operand_type,
                       I64Attr:$chunk, I64Attr:$stages);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc `slot` $slot `phase` $phase attr-dict `:` type($acc)";
}
def TileAS_Tcgen05StageOp : TileAS_Op<"tcgen05_stage", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "tcgen05.mma of one K chunk in a TMA ring slot, released by its commit";
  let description = [{
    The tcgen05 consumer of a TMA ring (sm_100a/103a/110a: an accumulator
    in the tcgen05 layout, A's rows in order in the slots). `acc` names the
    accumulator's tensor-memory copy (tile_as.acc_to_tmem before the loop):
    it has no registers. The CTA's first thread waits for slot `slot`'s
    full mbarrier (parity `phase`), issues the chunk's tcgen05.mmas onto D
    in tensor memory and makes tcgen05.commit arrive on the slot's empty
    mbarrier once they have completed (its only arrival): the MMAs run on
    while the thread issues the next loads. The other threads do nothing,
    except for tf32 (`operand_type` f32): the tensor maps move raw f32 and
    the tensor cores truncate, so every thread first waits for the slot,
    rounds its part of it to tf32 in place (round to nearest even, as
    cuTile's ftof), fences and meets a CTA barrier before the first thread
    issues. The result is the same tensor-memory copy, complete only once
    tile_as.tma_ring_end has waited for the last MMAs.
  }];
  let arguments = (ins AnyRankedTensor:$acc, I32:$slot, I32:$phase, TypeAttr:$operand_type,
                       I64Attr:$chunk, I64Attr:$stages);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc `slot` $slot `phase` $phase attr-dict `:` type($acc)";
}

def TileAS_TmaRingEndOp : TileAS_Op<"tma_ring_end", [MemoryEffects<[MemRead, MemWrite]>,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "drain a TMA ring: the last wgmmas complete, the mbarriers go";
  let description = [{
    Waits for every wgmma in flight (wgmma.wait_group 0: `acc`'s registers
    are defined again and returned; a tcgen05 ring's first thread commits
    its MMAs to one more mbarrier and waits for it, and a tensor-memory
    barrier hands their completion to every thread), meets the CTA at a barrier (nobody
    reads the ring any more) and invalidates the ring's mbarriers, so that
    the scratch may be reused. With `warp_specialized` (in the consumer
    warpgroups) the barrier is the ring's named barrier, which
    tile_as.tma_ring_leave meets in the producer, and the producer
    invalidates the mbarriers. With `carried` (a ring carried across the
    iterations of an enclosing loop, see below) it only waits for the
    wgmmas: the ring goes on in the next iteration, and
    tile_as.tma_ring_close ends it after the loop.
  }];
  let arguments = (ins AnyRankedTensor:$acc, TypeAttr:$operand_type, I64Attr:$chunk,
                       I64Attr:$stages, UnitAttr:$warp_specialized, UnitAttr:$carried);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc attr-dict `:` type($acc)";
}

//===----------------------------------------------------------------------===//
// A TMA ring carried across the iterations of an enclosing loop
//===----------------------------------------------------------------------===//
//
// Where a ring's K loop runs once per iteration of an enclosing scf.for (the
// persistent matmul's tile loop) and the views' bases, sizes and strides
// are defined outside it, tilepipe-pipeline-mma-loops sets the ring up once:
// tile_as.tma_ring_begin before the enclosing loop, which carries the index
// of the next chunk (an i32 iter_arg) so that slots and parities go on from
// one iteration to the next instead of starting over with fresh mbarriers.
// Each iteration begins with tile_as.tma_ring_resume and ends its K loop
// with a `carried` tile_as.tma_ring_end; tile_as.tma_ring_close after the
// loop ends the ring. The previous chunk's slot, which each wgmma_stage
// releases, is then also the previous iteration's last.

def TileAS_TmaRingResumeOp : TileAS_Op<"tma_ring_resume", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "a carried TMA ring's next run: the scratch's other users are done";
  let description = [{
    Meets the CTA at a barrier (with `warp_specialized`: the ring's named
    barrier of both roles) before the producer refills the slots in this
    iteration of the enclosing loop: whatever else used the shared scratch
    since the ring's previous run (the epilogue's TMA-store staging) is
    done with it. The mbarriers keep their phases.
  }];
  let arguments = (ins TypeAttr:$acc_type, UnitAttr:$warp_specialized);
  let assemblyFormat = "attr-dict";
}

def TileAS_TmaRingCloseOp : TileAS_Op<"tma_ring_close", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "end a TMA ring carried across a loop: barrier, mbarriers invalidated";
  let description = [{
    After the enclosing loop of a carried ring: meets the CTA at a barrier
    (nobody waits on the ring's mbarriers any more) and the CTA's first
    thread invalidates them. With `warp_specialized` (in the consumer
    warpgroups) it meets the producer's tile_as.tma_ring_leave at the
    ring's named barrier, and the producer invalidates them.
  }];
  let arguments = (ins TypeAttr:$acc_type, TypeAttr:$operand_type, I64Attr:$chunk,
                       I64Attr:$stages, UnitAttr:$warp_specialized);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Warp specialization of the TMA ring (sm_90a)
//===----------------------------------------------------------------------===//
//
// tilepipe-warp-specialize-rings gives a CTA whose K loops run TMA rings one
// more warpgroup, the producer, after the accumulator's warps (the
// consumers, whose thread ids and layouts stay as they were). The kernel
// body splits at its start on tile_as.producer_warpgroup: the producer
// lowers its registers (tile_as.setmaxnreg), walks the same loops computing
// only the ring's coordinates and issues the TMA loads (tma_ring_begin,
// tma_stage_load with `warp_specialized`, tma_ring_leave); the consumers
// raise theirs, meet it (tma_ring_enter), wait on the full mbarriers,
// multiply, release slots and run everything else (tma_ring_end with
// `warp_specialized`). The ring's begin and end meet both roles at named
// barrier kTmaRingNamedBarrier of all the CTA's threads; every other CTA
// barrier of such a kernel counts the consumers only (the producer has
// left), see TileASToLLVM.cpp.

def TileAS_TmaRingEnterOp : TileAS_Op<"tma_ring_enter", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "consumers meet the producer once a ring's mbarriers are set up";
  let description = [{
    The consumer side of a warp-specialized tile_as.tma_ring_begin: waits
    at the ring's named barrier (all the CTA's threads: the accumulator's
    warps of `acc_type` and the producer warpgroup) until the producer has
    initialized the mbarriers; the consumers are done with the scratch.
  }];
  let arguments = (ins TypeAttr:$acc_type);
  let assemblyFormat = "attr-dict";
}

def TileAS_TmaRingLeaveOp : TileAS_Op<"tma_ring_leave", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the producer's end of a ring: meet the consumers, drop the mbarriers";
  let description = [{
    The producer side of a warp-specialized tile_as.tma_ring_end: waits at
    the ring's named barrier until the consumers have drained the ring,
    then the producer's first thread invalidates its mbarriers.
  }];
  let arguments = (ins TypeAttr:$acc_type, I64Attr:$chunk, I64Attr:$stages);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TileAS_ProducerWarpgroupOp : TileAS_Op<"producer_warpgroup", [Pure]> {
  let summary = "whether this thread is in the producer warpgroup";
  let description = [{
    True in the warpgroup after the first `consumer_threads` threads of the
    CTA (thread ids consumer_threads .. consumer_threads + 127).
  }];
  let arguments = (ins I64Attr:$consumer_threads);
  let results = (outs I1:$result);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TileAS_SetMaxNRegOp : TileAS_Op<"setmaxnreg", [MemoryEffects<[MemWrite]>]> {
  let summary = "raise or lower the warpgroup's per-thread register limit";
  let description = [{
    setmaxnreg.{inc,dec}.sync.aligned.u32 `count` (sm_90a): every warp of
    the executing warpgroup runs it; `count` is 24 to 256, a multiple of 8.
  }];
  let arguments = (ins I64Attr:$count, BoolAttr:$increase);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}
