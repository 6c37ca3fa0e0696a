//===- TileASAggregateOps.td - reductions and scans ---===//
//
// Included from TileAS.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//

// Reductions and scans keep cuda_tile's combiner region: its block takes the
// accumulated values (one per operand) then the incoming ones, and yields the
// combination. The lowering to registers clones the region's body once per
// combine step. `identities` (one typed attribute per operand) fill positions
// that hold no element, such as replicated copies of a small tile.

def TileAS_ReduceOp : TileAS_Op<"reduce", [Pure]> {
  let summary = "reduce tensors along one axis with a combiner region";
  let description = [{
    Every result drops `axis` from the operands' common shape; a rank-1
    reduction yields scalars.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$operands,
                       I32Attr:$axis, ArrayAttr:$identities);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $operands `axis` `=` $axis `identities` `=` $identities attr-dict
    `:` type($operands) `->` type($results) $combiner
  }];
}

def TileAS_ScanOp : TileAS_Op<"scan", [Pure]> {
  let summary = "inclusive prefix scan of tensors along one axis";
  let description = [{
    Element i of each result combines the operands' elements 0..i along
    `axis` (i..n-1 when `reverse`), in that order.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$operands,
                       I32Attr:$axis, BoolAttr:$reverse, ArrayAttr:$identities);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $operands `axis` `=` $axis `reverse` `=` $reverse `identities` `=` $identities
    attr-dict `:` type($operands) `->` type($results) $combiner
  }];
}

def TileAS_CombineYieldOp : TileAS_Op<"combine_yield", [Pure, Terminator,
    ParentOneOf<["ReduceOp", "ScanOp"]>]> {
  let summary = "the combined values of a reduce/scan combiner";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
}
