//===- TileAAMemoryOps.td - memory ops: atomics, barriers, print/assert ---===//
//
// Included from TileAA.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//

// Atomics. `ptrs` is one pointer (executed once per CTA, the result seen by
// every thread) or a tensor of pointers (once per element). `mode`,
// `ordering` and `scope` keep cuda_tile's keywords (add, addf, ..., xchg;
// relaxed, acquire, release, acq_rel; tl_blk, device, sys). Memory order
// between ops stays program order, so no token is carried.
def TileAA_AtomicRMWOp : TileAA_Op<"atomic_rmw", [
    AllTypesMatch<["value", "result"]>,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "masked atomic read-modify-write through pointers";
  let arguments = (ins TileAA_PtrLike:$ptrs, AnyType:$value,
                       Optional<AnyType>:$mask, StrAttr:$mode,
                       StrAttr:$ordering, StrAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $mode $ptrs `,` $value (`,` $mask^)? attr-dict
    `:` type($ptrs) `,` type($value) (`,` type($mask)^)?
  }];
}

def TileAA_AtomicCASOp : TileAA_Op<"atomic_cas", [
    AllTypesMatch<["cmp", "value", "result"]>,
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "masked atomic compare-and-swap through pointers";
  let arguments = (ins TileAA_PtrLike:$ptrs, AnyType:$cmp, AnyType:$value,
                       Optional<AnyType>:$mask, StrAttr:$ordering,
                       StrAttr:$scope);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $ptrs `,` $cmp `,` $value (`,` $mask^)? attr-dict
    `:` type($ptrs) `,` type($value) (`,` type($mask)^)?
  }];
}
