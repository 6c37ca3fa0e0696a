//===- TileAA.td - The alias-aware tile dialect (tile_aa) -----------------===//
//
// tile_aa is the first internal level below cuda_tile (the role of NVIDIA's
// nv_tileaa). Views are gone: memory is reached through tensors of typed
// pointers built with explicit address arithmetic, and every load/store says
// what is known about its access pattern (contiguity) and its ordering
// (memory tokens). Values are builtin ranked tensors (no layout yet) and
// scalars; elementwise math lives in upstream arith/math on tensors.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_TILEAA_TD
#define TILEPIPE_TILEAA_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileAA_Dialect : Dialect {
  let name = "tile_aa";
  let cppNamespace = "::tilepipe::tile_aa";
  let summary = "alias-aware tile dialect: pointer tensors, masked memory ops";
  let useDefaultTypePrinterParser = 1;
}

class TileAA_Type<string name, string typeMnemonic> : TypeDef<TileAA_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def TileAA_PtrType : TileAA_Type<"Ptr", "ptr"> {
  let summary = "typed pointer in an address space";
  let parameters = (ins "::mlir::Type":$pointeeType, "unsigned":$addressSpace);
  let assemblyFormat = "`<` $pointeeType `,` $addressSpace `>`";
}

def TileAA_TokenType : TileAA_Type<"Token", "token"> {
  let summary = "ordering token between memory operations";
}

class TileAA_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileAA_Dialect, mnemonic, traits>;

def TileAA_PtrLike : AnyTypeOf<[TileAA_PtrType, RankedTensorOf<[TileAA_PtrType]>]>;
def TileAA_IntLike : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>]>;
def TileAA_PtrTensor : RankedTensorOf<[TileAA_PtrType]>;
def TileAA_MaskTensor : RankedTensorOf<[I1]>;

def TileAA_BlockIdOp : TileAA_Op<"block_id", [Pure]> {
  let summary = "index of this tile block along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def TileAA_NumBlocksOp : TileAA_Op<"num_blocks", [Pure]> {
  let summary = "number of tile blocks along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def TileAA_SplatOp : TileAA_Op<"splat", [Pure,
    TypesMatchWith<"element type matches the scalar", "result", "src",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "a tensor with every element equal to a scalar";
  let arguments = (ins AnyType:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
}

def TileAA_BroadcastOp : TileAA_Op<"broadcast", [Pure]> {
  let summary = "repeat size-1 dimensions of a tensor";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TileAA_IotaOp : TileAA_Op<"iota", [Pure]> {
  let summary = "each element's coordinate along one axis (make_range in N-D)";
  let arguments = (ins I32Attr:$axis);
  let results = (outs RankedTensorOf<[I32, I64]>:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TileAA_AddPtrOp : TileAA_Op<"addptr", [Pure, Elementwise,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by signed element offsets";
  let arguments = (ins TileAA_PtrLike:$ptr, TileAA_IntLike:$offset);
  let results = (outs TileAA_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
}

def TileAA_MakeTokenOp : TileAA_Op<"make_token", [Pure]> {
  let summary = "a fresh memory-ordering token";
  let results = (outs TileAA_TokenType:$result);
  let assemblyFormat = "attr-dict";
}

def TileAA_JoinTokensOp : TileAA_Op<"join_tokens", [Pure]> {
  let summary = "a token ordered after all of its operands";
  let arguments = (ins Variadic<TileAA_TokenType>:$tokens);
  let results = (outs TileAA_TokenType:$result);
  let assemblyFormat = "$tokens attr-dict";
}

// `contiguity` is the alias/access fact the vectorizer needs: the elements
// come in groups of this many along the innermost dimension that are adjacent
// in memory, start at an address aligned to the group's byte size and share
// one mask bit. `transposed_contiguity` is the same fact along the
// next-innermost dimension, for a tile whose innermost dimension is not the
// unit-stride one but that dimension is (a dim_map'd view such as FMHA's
// K^T); 1 otherwise. TMA loads of such a tile need it (aligned base and
// strides). `view_alignment` is, for a tile whose innermost dimension is
// the view's unit-stride one, the largest power of two (in elements, at
// most 16) dividing the view's base address and every other stride; 1
// otherwise. Unlike `contiguity` it leaves out the extents and the tile's
// start, which TMA's per-element bounds check and coordinates do not need:
// a view whose extents have no divisor (a non-multiple MatMul) has runs of
// one element for cp.async but may still be read by TMA.
def TileAA_LoadOp : TileAA_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead]>]> {
  let summary = "masked gather through a tensor of pointers";
  let arguments = (ins TileAA_PtrTensor:$ptrs,
                       Optional<TileAA_MaskTensor>:$mask,
                       Optional<AnyRankedTensor>:$other,
                       Optional<TileAA_TokenType>:$token,
                       DefaultValuedAttr<I64Attr, "1">:$contiguity,
                       DefaultValuedAttr<I64Attr, "1">:$transposed_contiguity,
                       DefaultValuedAttr<I64Attr, "1">:$view_alignment);
  let results = (outs AnyRankedTensor:$result, TileAA_TokenType:$result_token);
  let assemblyFormat = [{
    $ptrs (`,` $mask^)? (`,` $other^)? (`token` `=` $token^)? attr-dict
    `:` type($ptrs) (`,` type($mask)^)? (`,` type($other)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def TileAA_StoreOp : TileAA_Op<"store", [AttrSizedOperandSegments,
    MemoryEffects<[MemWrite]>]> {
  let summary = "masked scatter through a tensor of pointers";
  let arguments = (ins TileAA_PtrTensor:$ptrs, AnyRankedTensor:$value,
                       Optional<TileAA_MaskTensor>:$mask,
                       Optional<TileAA_TokenType>:$token,
                       DefaultValuedAttr<I64Attr, "1">:$contiguity);
  let results = (outs TileAA_TokenType:$result_token);
  let assemblyFormat = [{
    $ptrs `,` $value (`,` $mask^)? (`token` `=` $token^)? attr-dict
    `:` type($ptrs) `,` type($value) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

// Op families, one file each.
include "tilepipe/Dialect/TileAA/IR/TileAADataMovementOps.td"
include "tilepipe/Dialect/TileAA/IR/TileAAAggregateOps.td"
include "tilepipe/Dialect/TileAA/IR/TileAAArithOps.td"
include "tilepipe/Dialect/TileAA/IR/TileAAControlOps.td"
include "tilepipe/Dialect/TileAA/IR/TileAAMemoryOps.td"
include "tilepipe/Dialect/TileAA/IR/TileAAMatrixOps.td"
include "tilepipe/Dialect/TileAA/IR/TileAAMiscOps.td"

#endif // TILEPIPE_TILEAA_TD
