//===- TileASMemoryOps.td - memory ops: atomics, barriers, print/assert ---===//
//
// Included from TileAS.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//

// Atomics: tile_aa.atomic_rmw/atomic_cas at the assembler level (same
// operands and attributes; see TileAAMemoryOps.td).
def TileAS_AtomicRMWOp : TileAS_Op<"atomic_rmw", [
    AllTypesMatch<["value", "result"]>,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "masked atomic read-modify-write through pointers";
  let arguments = (ins TileAS_PtrLike:$ptrs, AnyType:$value,
                       Optional<AnyType>:$mask, StrAttr:$mode,
                       StrAttr:$ordering, StrAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $mode $ptrs `,` $value (`,` $mask^)? attr-dict
    `:` type($ptrs) `,` type($value) (`,` type($mask)^)?
  }];
}

def TileAS_AtomicCASOp : TileAS_Op<"atomic_cas", [
    AllTypesMatch<["cmp", "value", "result"]>,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "masked atomic compare-and-swap through pointers";
  let arguments = (ins TileAS_PtrLike:$ptrs, AnyType:$cmp, AnyType:$value,
                       Optional<AnyType>:$mask, StrAttr:$ordering,
                       StrAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $ptrs `,` $cmp `,` $value (`,` $mask^)? attr-dict
    `:` type($ptrs) `,` type($value) (`,` type($mask)^)?
  }];
}

// A tile store through shared memory and the tensor memory accelerator
// (tile-sched's tilepipe-store-tiles-by-tma replaces a tile_as.store whose
// pointers and mask are a tiled view's): the lowering writes the registers
// into swizzled shared memory and one thread stores it with
// cp.async.bulk.tensor, which drops what lies outside the view.
def TileAS_StoreTmaOp : TileAS_Op<"store_tma", [MemoryEffects<[MemWrite]>]> {
  let summary = "store of a 16-bit float tile into a strided view by TMA";
  let description = [{
    Writes `value`, a tile of f16 or bf16 of rank 2 or more whose dimensions
    before the last two are 1, to the view `base[view]` of a rank-r tile (r
    from the value's rank to 5; the value is that tile with leading unit
    dimensions dropped, as cuTile's batched views give): element t goes to
    base + sum_d (start_d + t_d) * stride_d where every start_d + t_d <
    size_d (unsigned), and nowhere otherwise. `view` lists size_0..size_{r-1},
    stride_0..stride_{r-2} in elements (the innermost stride is 1), then
    start_0..start_{r-1}, outermost dimension first, as tile_as.mmaf_global's
    views do. The base is 16-byte aligned, the strides multiples of 16 bytes
    (the tile_as.store it replaced proved 16-byte runs).

    Shared memory is free again when the op returns (the lowering waits for
    the bulk group's reads of it, then a CTA barrier). With `await_writes`
    the global writes are complete too (a later access of the CTA may read
    them); without it they complete asynchronously, which is right where
    nothing after the op may read memory (a kernel's epilogue).
  }];
  let arguments = (ins AnyRankedTensor:$value, TileAS_PtrType:$base,
                       Variadic<AnySignlessInteger>:$view, UnitAttr:$await_writes);
  let assemblyFormat = [{
    $value `,` $base `[` $view `]` attr-dict `:` type($value) `,` qualified(type($base))
    `[` type($view) `]`
  }];
  let hasVerifier = 1;
}
