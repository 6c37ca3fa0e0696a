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
