//===- TileASDataMovementOps.td - shape and data-movement ops ------*- tablegen -*-===//
//
// Included from TileAS.td. Ops that move elements between positions of a
// tensor: permute, reshape, extract, cat. In LLVM each moves its registers
// through the CTA's shared-memory scratch buffer (DataMovementToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

def TileAS_PermuteOp : TileAS_Op<"permute", [Pure]> {
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

def TileAS_ReshapeOp : TileAS_Op<"reshape", [Pure]> {
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

def TileAS_ExtractOp : TileAS_Op<"extract", [Pure]> {
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

def TileAS_CatOp : TileAS_Op<"cat", [Pure]> {
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
