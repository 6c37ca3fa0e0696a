//===- TileAADataMovementOps.td - shape and data-movement ops ------*- tablegen -*-===//
//
// Included from TileAA.td. Ops that move elements between positions of a
// tensor: permute, reshape, extract, cat. They carry no layout; tile-lower's
// tile_aa -> tile_as step mirrors each onto the tile_as op of the same name.
//
//===----------------------------------------------------------------------===//

def TileAA_PermuteOp : TileAA_Op<"permute", [Pure]> {
  let summary = "reorder the dimensions of a tensor";
  let description = [{
    Result dimension i is source dimension `permutation[i]`: the element at
    result coordinate r is the source element at s with s[permutation[i]] = r[i].
  }];
  let arguments = (ins AnyRankedTensor:$src, DenseI32ArrayAttr:$permutation);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src $permutation attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::tilepipe::verifyPermuteShapes(*this, getSrc().getType(),
                                             getResult().getType(),
                                             getPermutation());
    }
  }];
}

def TileAA_ReshapeOp : TileAA_Op<"reshape", [Pure]> {
  let summary = "the same elements in row-major order under another shape";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::tilepipe::verifyReshapeShapes(*this, getSrc().getType(),
                                             getResult().getType());
    }
  }];
}

def TileAA_ExtractOp : TileAA_Op<"extract", [Pure]> {
  let summary = "one result-shaped block of a tensor";
  let description = [{
    The source is split into blocks of the result's shape; `indices` (one
    i32 per dimension, in blocks) select the block.
  }];
  let arguments = (ins AnyRankedTensor:$src, Variadic<I32>:$indices);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::tilepipe::verifyExtractShapes(*this, getSrc().getType(),
                                             getResult().getType(),
                                             getIndices().size());
    }
  }];
}

def TileAA_CatOp : TileAA_Op<"cat", [Pure]> {
  let summary = "two tensors joined along one dimension";
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs, I64Attr:$dim);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `dim` `=` $dim attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::tilepipe::verifyCatShapes(*this, getLhs().getType(),
                                         getRhs().getType(),
                                         getResult().getType(), getDim());
    }
  }];
}
