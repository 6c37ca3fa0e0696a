//===- Passes.td - Passes over the tile_as level --------------------------===//
#ifndef TILEPIPE_TILEAS_PASSES_TD
#define TILEPIPE_TILEAS_PASSES_TD

include "mlir/Pass/PassBase.td"

def StampTarget : Pass<"tilepipe-stamp-target", "::mlir::ModuleOp"> {
  let summary = "Record the target and kernel-spec facts as module attributes";
  let description = [{
    tile-lower knows --gpu-name and -O; later stages run as separate
    processes and read them back from the IR: tile_as.target,
    tile_as.opt_level, tile_as.threads_per_warp and tile_as.num_warps (the
    entry's optimization hint `num_worker_warps` for the target, else its
    `default` entry, else 4, or 8 where a matrix multiply's accumulator would
    take more than 128 registers per thread on 4 warps). A kernel's
    num_cta_in_cga hint above 1 becomes its function attribute
    tile_as.requested_ctas_per_cluster.
  }];
  let options = [
    Option<"gpuName", "gpu-name", "std::string", "\"sm_100\"", "Target GPU (sm_NN)">,
    Option<"optLevel", "opt-level", "unsigned", "3", "Optimization level">,
  ];
}

def SplitTileBlocksAcrossCtaPair
    : Pass<"tilepipe-split-tile-blocks-across-cta-pair", "::mlir::ModuleOp"> {
  let summary = "Run each tile block on a cluster of two CTAs, each computing half of its tiles";
  let description = [{
    cuTile asks for clusters of two CTAs on sm_100 matmuls (num_cta_in_cga =
    2, recorded by tilepipe-stamp-target as tile_as.requested_ctas_per_cluster)
    but still launches one block per tile block with blockDim (1,1,1); under
    .blocksareclusters each block of that launch is then a cluster of two
    CTAs, so the compiled tile program must share its work between them.

    This pass halves one dimension of the tile program's tensors: M where
    every multiply has M >= 256 (each CTA keeps 128-row tcgen05.mmas; the
    form a later cta_group::2 MMA would take), else N (the last dimension of
    the multiplies' results) where every multiply has N >= 128 (a 128x256
    tile becomes 128x128 per CTA). The split spreads through the tensors
    whose elements correspond one to one (elementwise ops, loads, stores,
    loop-carried values, broadcasts, permutes, reshapes that keep the
    dimension, reductions along other dimensions) and through each multiply
    by role: an M split halves A and C, an N split B and C; the other operand
    is loaded whole by both CTAs. Tensors built from scalars alone (the
    coordinates, offsets, pointers and masks of loads) are copied per use, so
    CSE's sharing of one coordinate between A and B does not stop a split.
    iotas along the split dimension are offset by rank * (size / 2), the
    rank being tile_as.cluster_cta_rank; where such an iota is added to a
    splatted start, the offset joins the start, so the TMA view matchers
    still read start + iota. The function gets tile_as.ctas_per_cluster = 2: its tile block id and count
    become the cluster's and its PTX declares .reqnctapercluster 2, 1, 1.

    A kernel whose split would reach anything else (a reduction or scan
    along the split dimension, an op the pass cannot map, a value needed both
    split and whole, a store, atomic or print of a whole tile that both CTAs
    would repeat, a load from memory the kernel also writes, with no
    synchronization between the pair) stays as it is, with one CTA per
    cluster; -v says why. Runs first in tile-sched at every -O level: it
    changes the launch contract, not only speed.
  }];
  let options = [
    Option<"forceCtas", "force-ctas", "unsigned", /*default=*/"0",
           "Split every kernel across clusters of this many CTAs whatever its "
           "hints (2; 0: as num_cta_in_cga asks), on any sm_90+ target">,
  ];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect",
                           "::mlir::arith::ArithDialect"];
}

def SelectWgmmaTarget : Pass<"tilepipe-select-wgmma-target", "::mlir::ModuleOp"> {
  let summary = "On plain sm_90, target sm_90a where an mmaf pays on wgmma";
  let description = [{
    wgmma only exists on the arch-specific sm_90a. A module stamped sm_90
    is retargeted to sm_90a (tile_as.target; tile-ptx then prints .target
    sm_90a) when one of its mmafs would take the wgmma path there: an
    f16/bf16, tf32 or fp8 multiply whose accumulator tiles by whole warpgroups
    (getWgmmaAccumulatorLayout) and whose A and B are no gathers (contiguous
    or strided tile loads, or values in registers; see WgmmaChoice.h for the
    measurements behind the rule). A gather-fed mmaf stays on mma.sync, on
    sm_90 and on an explicit sm_90a alike. Each such mmaf on a Hopper
    target gets a remark saying which path it takes and why (tile-sched and
    tileiras print them under -v). Runs before tilepipe-assign-layouts.
  }];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect"];
}

def SplitMmaAccumulators : Pass<"tilepipe-split-mma-accumulators", "::mlir::ModuleOp"> {
  let summary = "Run a K loop whose accumulator cannot fit in registers once per output sub-tile";
  let description = [{
    Where an scf.for carries (as its one iteration argument) the accumulator
    of the one tile_as.mmaf / mmai / mmaf_scaled its body yields, the body
    writes no memory, the loop's result only reaches one tile_as.store
    (through single-use elementwise ops), and the accumulator would take
    more than max-acc-registers registers per thread on the module's
    tile_as.num_warps (cuTile's 256x256 f32 BlockScaledMatMul tile: 256 on
    8 warps, the whole register file; the 128x256 MatMul tiles, 128 on 8
    warps, stay), replaces the loop and the store by one loop and one store
    per sub-tile of the accumulator: M halved, then N, until the sub-tile
    takes at most sub-tile-registers (never below 32 rows or columns).
    Each loop reads only its rows of A and columns of B (and of their
    scales); the values it needs are rebuilt for the sub-tile from iota,
    splat, constant, elementwise, load, permute, broadcast and reshape ops
    (a part that cannot be is computed whole and extracted), and a loop
    with anything else stays as it is. On targets with tcgen05 the
    accumulator lives in tensor memory during the loop
    (tilepipe-keep-accumulators-in-tmem) and in registers only after it:
    there a loop splits where D (and a block-scaled multiply's scales) would
    take more than the 512 tensor-memory columns or the read-back sum more
    than max-acc-registers, M halved down to 128 rows, then N.
    A loop with no multiply that adds up tiles elementwise (tensor
    iteration arguments of one shape, a body that writes no memory, each
    result reaching its own store through single-use elementwise ops and at
    most one tile_as.reduce) splits the same way where its accumulators
    together take more than max-acc-registers: along the dimensions no
    reduce removes, outermost first, until each takes at most
    sub-tile-registers (cuTile's LayerNorm dW/dB sums: two 32x1024 f32
    tiles on 4 warps, 512 registers, become eight 32x128 column strips).
    Runs before tilepipe-assign-layouts.
    See SplitMmaAccumulators.cpp.
  }];
  let options = [
    Option<"maxAccRegisters", "max-acc-registers", "int64_t", /*default=*/"128",
           "Split accumulators taking more than this many registers per thread">,
    Option<"subTileRegisters", "sub-tile-registers", "int64_t", /*default=*/"32",
           "Registers per thread a split accumulator's sub-tile may take (32: "
           "BlockScaledMatMul's 64x256 sub-tiles, 64 per thread, still spilled "
           "312 bytes on sm_120a, its 32x256 ones none)">
  ];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def HoistElementwiseOverUnitReshapes
    : Pass<"tilepipe-hoist-elementwise-over-unit-reshapes", "::mlir::ModuleOp"> {
  let summary = "Apply elementwise ops before the reshapes that only add or drop unit dimensions";
  let description = [{
    Rewrites an elementwise op (one tensor result, no regions) whose tensor
    operands are tile_as.reshape ops of one source shape that only add or
    drop unit dimensions, each used only by that op, or splats (tile_as.splat,
    splat constants; rebuilt in the source shape), into the op applied to
    the reshapes' sources followed by one reshape of its result, where the
    result's elements are no wider than any reshaped operand's: a narrowing
    conversion after a reshape (FMHA's f32 output converted to f16 after the
    reshape to its 1 x 1 x M x N view) then converts the accumulator in its
    own layout, and the reshape relabels the narrow tile, which
    tilepipe-assign-layouts gives the accumulator's layout (nothing moves)
    and tilepipe-store-tiles-by-tma drops on sm_90a. Ops are visited in
    program order, so a chain of them moves over the reshape one by one.
    Widening ops (extf after a reshape) stay where they are. Runs before
    tilepipe-assign-layouts.
  }];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect",
                           "::mlir::arith::ArithDialect"];
}

def AssignLayouts : Pass<"tilepipe-assign-layouts", "::mlir::ModuleOp"> {
  let summary = "Give every tensor a blocked register layout";
  let description = [{
    Memory ops anchor the layout: each thread holds up to 16 bytes of adjacent
    elements (bounded by the access's proven contiguity), threads and warps
    fill the tile innermost first. Tensors of one shape that data flows
    between (elementwise operands and results, a load's pointers and value,
    loop-carried values) share one layout, the narrowest their memory ops
    allow, so elementwise code needs no conversions; unrelated tensors of
    the same shape (an fp8 operand tile and an f32 result tile) keep their
    own widths. The accumulator shape of an mmaf with an mma.sync form takes
    the m16n8 accumulator fragment layout instead (fp8: paired columns; the
    wgmma or tcgen05 layout where those paths apply), unless tensor cores
    are turned off. A reshape adding leading unit dimensions to an
    accumulator (cuTile's batched and 4-D views) gives its class the
    accumulator's layout under them where no load is in the class (not on
    tcgen05 targets); a store of it whose pointer and mask arithmetic CSE
    shares with a load at the same coordinates (FMHA's Out and Q) first
    gets its own copy of that arithmetic (StoreAddressSlice.h), so the
    accumulator is stored from its registers rather than exchanged through
    shared memory.
  }];
  let options = [
    Option<"tensorCores", "tensor-cores", "bool", /*default=*/"true",
           "Give mma.sync-capable accumulators the mma.sync fragment layout "
           "(off: every mmaf takes the FMA path)">
  ];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect"];
}

def AsyncCopyMmaOperands : Pass<"tilepipe-async-copy-mma-operands", "::mlir::ModuleOp"> {
  let summary = "Read mma.sync and wgmma operands from global memory into shared memory with cp.async";
  let description = [{
    Where A or B (or both) of an mmaf that takes the mma.sync path (or, on
    sm_90a, the wgmma path) is a tile_as.load from global memory used by
    nothing else (possibly through a tile_as.reshape dropping leading unit
    dimensions, as 3-D views of a batch of one and cuTile's 4-D attention
    views give), replaces the qualifying loads and the mmaf with one
    tile_as.mmaf_global, whose lowering copies those tiles into the shared
    staging buffer with cp.async instead of passing them through registers
    (fewer registers live across the multiply, no spills); an operand that
    does not qualify (FMHA's P, computed in registers) stays a register
    operand of the mmaf_global.
    A load qualifies where its masked-off elements are +0.0 (no `other`, or
    a splat of +0.0: cp.async zero-fills), each thread reads runs of 16, 8 or
    4 bytes its contiguity proves adjacent, aligned and under one mask bit
    (one copy each), the mma.sync path stages it as global memory holds it
    (not B where that path transposes it: fp8 into an accumulator without
    paired columns), it sits in the mmaf's block
    and nothing between it and the mmaf may write memory (the copy happens
    at the mmaf). On the wgmma path, and for f16/bf16 mma.sync multiplies
    on sm_120a/121a/120f (for the TMA ring of pipeline-mma-loops), a fused
    f16/bf16 operand also gets its `view` (base, sizes, strides, starts) where its pointers and mask are
    the arithmetic of a partition-view load (TiledViewMatch.h); the lowering
    then reads it with TMA. tf32 and fp8 operands fuse on the wgmma path
    (their B lands N-major and is transposed in shared memory) where that
    staging fits static shared memory; there an f32 load converted to tf32
    (arith.truncf, to nearest even) fuses as the f32 load, which the
    lowering rounds in shared memory. A tf32 mmaf on the mma.sync path
    fuses that truncf too: the mmaf_global copies the f32 tile and marks
    the operand lhs_tf32/rhs_tf32, and the lowering rounds its fragments
    after ldmatrix. A tf32 operand of either path may copy runs shorter
    than its layout's (down to single 4-byte elements, lhs_run/rhs_run)
    where its load proves no more. tcgen05, which would truncate, keeps the
    truncf. Runs after
    tilepipe-assign-layouts.
  }];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect"];
}

def StoreTilesByTma : Pass<"tilepipe-store-tiles-by-tma", "::mlir::ModuleOp"> {
  let summary = "On sm_90a, tcgen05 targets and sm_120a/121a/120f, store 16-bit tiles of partition views through shared memory by TMA";
  let description = [{
    cuTile's matmul epilogues store the converted accumulator through a
    partition view: after tile-lower a tile_as.store of a tensor of
    pointers, each thread writing its registers with st.global. On sm_90a
    (wgmma's target), and on the tcgen05 targets and sm_120a/121a/120f
    (hasMmaSyncTensorMaps) for tiles in their multiplies' accumulator
    layout (tcgen05.ld's; the mma.sync fragments), this pass replaces such a store by tile_as.store_tma,
    whose lowering writes the tile into swizzled shared memory and has one
    thread store it with cp.async.bulk.tensor (TMA clips what lies outside
    the view, so ragged edges need no mask). A store qualifies where its
    pointers and mask are a tiled view's arithmetic (TiledViewMatch.h; not
    transposed), its elements are f16 or bf16, it is unordered, its
    contiguity proves 16-byte runs (a 16-byte aligned base and strides, as
    TMA requires), its leading dimensions are 1, it has at most 256 rows and
    its rows fill whole 32-, 64- or 128-byte swizzle blocks
    (TmaStoreStaging.h, also for the column chunks a large tile is stored
    in). `await_writes` is set where a later op of the function (or the
    next iteration of an enclosing loop) may read memory. A reshape that
    only adds leading unit dimensions (cuTile's batched views) is dropped
    (FMHA's truncf after such a reshape came before it in
    tilepipe-hoist-elementwise-over-unit-reshapes). Each 16-bit
    global store of rank 2 or more on these targets gets a remark (tile-sched and
    tileiras -v) saying which way it went and why, and how the registers
    reach shared memory: stmatrix where their layout holds its fragments
    (StmatrixStores), st.shared otherwise. Runs after
    tilepipe-assign-layouts.
  }];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect"];
}

def PipelineMmaLoops : Pass<"tilepipe-pipeline-mma-loops", "::mlir::ModuleOp"> {
  let summary = "Stream a K loop's MMA operands through a ring of cp.async (mma.sync) or TMA (wgmma) stages";
  let description = [{
    Where an scf.for (constant positive step) carries the accumulator of one
    tile_as.mmaf_global with both operands global, and its body is nothing
    but that multiply and the register arithmetic computing its pointers
    and masks from the induction variable (cuTile's K loops after
    tilepipe-async-copy-mma-operands), replaces the multiply with a
    software pipeline over K chunks: a ring of S slots of shared memory
    (S = max-stages, 3, fewer where the ring would not fit the 48 KiB of
    static shared memory, which is all cuTile's launch gives a tile kernel;
    no change below 2), tile_as.mma_stage_copy starting the cp.async copies
    of chunk t + S - 1 while tile_as.mmaf_stage multiplies chunk t after a
    tile_as.async_wait {pending = S - 2}. The copies of the first S - 1
    chunks are peeled into a prologue before the loop; copies past the
    loop's end read nothing (no epilogue); an async_wait {pending = 0}
    after the loop drains the ring.

    On the wgmma path (sm_90a: the accumulator in the wgmma layout, f32,
    both operands with views, B not transposed) the ring is a TMA ring
    instead: tile_as.tma_ring_begin (tensor maps, full and empty mbarriers
    per slot), S - 1 tile_as.tma_stage_load in the prologue, per chunk
    tile_as.wgmma_stage (wait on full[t % S] with parity (t / S) % 2, the
    wgmmas, wgmma.wait_group 1, the warps release the previous chunk's
    slot on its empty mbarrier) then the tma_stage_load of chunk t + S - 1
    into that slot (one thread, after the slot's release), and
    tile_as.tma_ring_end after the loop (wait_group 0). Its slots are the
    swizzled wgmma staging; MatMul's 128x256 f16 tile takes 3 stages of
    16-deep chunks (36 KiB). No cost rule: TMA keeps no per-thread
    addresses. On sm_120a/121a/120f (hasMmaSyncTensorMaps) a loop on the
    mma.sync path with the same operands takes the same ring, its consumer
    tile_as.mmaf_tma_stage (ldmatrix from the swizzled slots, mma.sync,
    then the warps release the chunk's own slot); there the ring also
    takes tf32 (f32 loads) and e4m3/e5m2 operands of one type, in chunks
    of a multiple of 32 bytes of K. A TMA ring whose K loop
    runs once per iteration of an enclosing scf.for (the persistent
    matmul's tile loop) is carried across it (carry-rings): begun once
    before that loop, slots and parities going on from a chunk count the
    loop carries, a tile_as.tma_ring_resume barrier per iteration and
    tile_as.tma_ring_close after it.

    Cost rule: the ring keeps the accumulator and the addresses of the next
    copies (two registers per 16-byte cp.async run of one iteration's A and
    B tiles) live across the loop body; a loop where these add up to more
    than max-ring-registers per thread stays unpipelined, since ptxas
    spilled there. With 160 (ptxas 13.0, sm_80/89/90/120): cuTile's MatMul
    and persistent MatMul f16/bf16 (128 + 24) take the ring with no spills,
    BatchMatMul f16 (128 + 48) keeps its loop (through the ring it spilled
    24-64 bytes). Each matched loop gets a remark (tile-sched -v) saying
    which way it went and why. See PipelineMmaLoops.cpp.
  }];
  let options = [
    Option<"maxStages", "max-stages", "int64_t", /*default=*/"3",
           "Most ring slots (2 or more; the shared-memory budget may use fewer)">,
    Option<"maxRingRegisters", "max-ring-registers", "int64_t", /*default=*/"160",
           "Pipeline only loops whose accumulator plus next-copy addresses take "
           "at most this many registers per thread (the cost rule)">,
    Option<"carryRings", "carry-rings", "bool", /*default=*/"true",
           "Carry a TMA ring across the loop enclosing its K loop (false: one "
           "ring per iteration, its mbarriers set up and invalidated each time)">
  ];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect",
                           "::mlir::arith::ArithDialect"];
}

def WarpSpecializeRings : Pass<"tilepipe-warp-specialize-rings", "::mlir::ModuleOp"> {
  let summary = "Give the TMA rings of a kernel a producer warpgroup (sm_90a warp specialization)";
  let description = [{
    Runs after tilepipe-pipeline-mma-loops. A kernel whose K loops run TMA
    rings (tile_as.tma_ring_begin ... tma_ring_end) gets one more warpgroup
    of 128 threads after the accumulator's warps (module attribute
    tile_as.producer_warps = 4; tile_as.num_warps stays the consumers'
    count, so no layout sees the producer's thread ids). The body splits at
    its start on tile_as.producer_warpgroup:

    - producer: setmaxnreg.dec to producer-registers, then a copy of the
      body pruned to the loops and scalar arithmetic the ring's
      coordinates need, tma_ring_begin and tma_stage_load (one elected
      thread, `warp_specialized`) and tma_ring_leave; then it exits.
    - consumers: setmaxnreg.inc to what the producer gave back, the body
      with tma_ring_enter for each begin, no loads (the wgmma_stages wait
      on the full mbarriers and release slots on the empty ones as
      before), tma_ring_end `warp_specialized`.

    Registers: at launch every thread has R = 65536 / threads (a multiple
    of 8, at most 256: ptxas's budget for .reqntid with .minnctapersm 1);
    the producer frees R - producer-registers per thread, which the
    consumers share: R + (R - producer-registers) * 128 / consumer threads,
    rounded down to 8, at most 256. Cost rule: a kernel is specialized
    where that exceeds R (one consumer warpgroup gains nothing: 256
    threads already have 256 registers) and leaves the accumulator plus
    min-consumer-headroom registers per consumer thread (fragments,
    addresses, the epilogue). It also needs the body to be one block and
    the producer copy to keep only loops, ring ops and scalar arithmetic
    (no tensor, no memory). Each kernel with a ring gets a remark (tile-sched
    and tileiras -v) saying which way it went and why; warp-specialize=false
    keeps every ring single-role. producer-registers is 56: with 40 ptxas
    (13.0) spilled 32 bytes in the persistent matmul's producer (its tile
    loop and K loop coordinates), and 48 or 56 leave the consumers 224
    (168 + 56, in units of 8) all the same. A ring inside a loop around
    its K loop (the persistent matmul's tile loop: a carried ring or one
    begun per iteration) stays single-role unless specialize-tile-loops:
    on an H200 the warp-specialized persistent MatMul f16 took 0.038 ms
    and its single-role form 0.0205 ms, while the plain MatMul ran 0.019
    ms specialized and 0.038 ms single-role (bench/persistent-ab.py,
    docs/gpu-runs/2026-11-26-h200-persistent-ab.txt; the cause is not
    known yet). See WarpSpecializeRings.cpp.
  }];
  let options = [
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"true",
           "Specialize where the cost rule allows (false: single-role rings)">,
    Option<"specializeTileLoops", "specialize-tile-loops", "bool", /*default=*/"false",
           "Also specialize rings inside a loop around their K loop (persistent kernels)">,
    Option<"producerRegisters", "producer-registers", "int64_t", /*default=*/"56",
           "The producer warpgroup's registers per thread after setmaxnreg.dec "
           "(24 to 256, a multiple of 8)">,
    Option<"minConsumerHeadroom", "min-consumer-headroom", "int64_t", /*default=*/"64",
           "Registers per consumer thread the cost rule keeps beside the accumulator">
  ];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect",
                           "::mlir::scf::SCFDialect"];
}

def KeepAccumulatorsInTmem : Pass<"tilepipe-keep-accumulators-in-tmem", "::mlir::ModuleOp"> {
  let summary = "Keep a tcgen05 K loop's accumulator in tensor memory for the whole loop";
  let description = [{
    On its own, each tcgen05 multiply of a K loop stores the accumulator
    from registers into tensor memory, multiplies there and loads it back,
    so the whole accumulator is live in registers across the loop (ptxas
    spilled kilobytes on cuTile's block-scaled and tf32 tiles). Where an
    scf.for's iteration argument is only the accumulator operand of the one
    multiply in the loop (tile_as.mmaf, mmaf_global or mmaf_scaled that
    takes the tcgen05 path: a tcgen05 target and the tcgen05 accumulator
    layout) and that multiply's result is only yielded back to it, and the
    accumulator (and a block-scaled multiply's scales) fit the 512
    tensor-memory columns, this pass moves the initial value into tensor
    memory before the loop (tile_as.acc_to_tmem), marks the multiply
    `tile_as.tmem_accumulator` (its lowering neither loads nor stores the
    accumulator) and reads the sum back once after the loop
    (tile_as.acc_from_tmem). The loop body may hold no other multiply, as
    every tcgen05 multiply puts its D from column 0 of the kernel's tensor
    memory. A loop that does anything else with the accumulator keeps the
    per-multiply round trip. Runs after tilepipe-async-copy-mma-operands.
  }];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect"];
}

def PairTcgen05Mmas : Pass<"tilepipe-pair-tcgen05-mmas", "::mlir::ModuleOp"> {
  let summary = "Issue an M-split CTA pair's tcgen05 multiplies together (cta_group::2)";
  let description = [{
    A kernel that tilepipe-split-tile-blocks-across-cta-pair split along M
    (tile_as.cta_pair_rows: CTA r holds A's and C's rows [128 r, 128 r +
    128) and loads the whole B) multiplies in the form of
    tcgen05.mma.cta_group::2 with M = 256: one thread of the pair issues it,
    each CTA's A rows and D lanes at the same addresses, B split by columns
    (N / 2 in each CTA). This pass marks such a kernel
    tile_as.tcgen05_cta_pair when every one of its multiplies can run so:
    each is a TMA ring's tile_as.tcgen05_stage (not carried across a loop)
    of f16, bf16, tf32 or fp8 operands, with a 128-row accumulator per CTA and N a
    multiple of 64 up to 256 (the ISA wants one .cta_group for all the
    kernel's tcgen05 instructions, so one multiply that cannot keeps the
    kernel on cta_group::1). The TMA ring lowering then loads only the CTA's
    half of B, lets the even CTA issue every MMA once both CTAs' slots are
    full, releases the slots of both CTAs through a multicast commit and
    allocates tensor memory for the pair. Each such kernel gets a remark
    saying which form it runs and why. Runs after
    tilepipe-keep-accumulators-in-tmem.
  }];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect"];
}

def PromoteFp8Accumulation : Pass<"tilepipe-promote-fp8-accumulation", "::mlir::ModuleOp"> {
  let summary = "Sum an fp8 wgmma's K in f32 every few k steps (sm_90a two-level accumulation)";
  let description = [{
    Hopper's fp8 wgmma (e4m3/e5m2 into f32) does not keep a full f32 sum:
    DeepSeek-V3's report measures about 14 bits retained on H800, and an
    H200 running cuTile's fp8 BatchMatMul (K 256) missed numpy by 0.0156
    (atol = rtol = 0.01) at 10 of 2M outputs. CUTLASS's sm90 fp8 mainloops
    therefore accumulate `mma_promotion_interval` (4) wgmma k blocks into a
    temporary started from zero and add it into a separate f32 accumulator
    with ordinary f32 adds, unless a FastAccum schedule is chosen; cuBLASLt's
    CUBLASLT_MATMUL_DESC_FAST_ACCUM is off by default too.

    This pass marks each fp8 multiply on the wgmma path (tile_as.mmaf or
    mmaf_global with e4m3/e5m2 operands and the wgmma accumulator layout on
    sm_90a) with `tile_as.fp8_promotion_interval` = interval (k steps of 32
    elements). Its lowering (WgmmaChunks.h) then issues, per interval and
    per N piece of each warpgroup's D, the interval's wgmmas into a
    temporary (the first with scale-d 0), and after wgmma.wait_group adds
    the temporary into the accumulator by add.f32; two pieces in flight, so
    the adds of one overlap the wgmmas of the next, the pieces taking two
    temporaries' registers in turn. An interval ends at a staged chunk's
    end at the latest (cuTile's fp8 BatchMatMul stages chunks of one k
    step, so it promotes after every wgmma: a temporary carried across its
    chunks would be as large as the accumulator, 128 registers a thread,
    and two 64-deep chunks with B's landing arrays take 80 KiB of the 48 KiB
    of static shared memory). Cost
    there: ptxas (13.0) takes 240 registers, no spills, against 167
    unpromoted. fast-accumulation=true (or interval
    = 0) leaves the multiplies unmarked: the wgmmas accumulate into the
    accumulator itself, the old form. Each fp8 wgmma multiply gets a remark
    (tile-sched and tileiras -v) saying which.
  }];
  let options = [
    Option<"fastAccumulation", "fast-accumulation", "bool", /*default=*/"false",
           "Accumulate fp8 wgmmas into the accumulator directly (no promotion)">,
    Option<"interval", "interval", "int64_t", /*default=*/"4",
           "wgmma k steps (32 fp8 elements each) summed in a temporary before "
           "it is added into the f32 accumulator (0: no promotion)">
  ];
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect"];
}

#endif // TILEPIPE_TILEAS_PASSES_TD
