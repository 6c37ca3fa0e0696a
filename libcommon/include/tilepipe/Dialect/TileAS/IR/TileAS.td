//===- TileAS.td - The assembler-level tile dialect (tile_as) -------------===//
//
// tile_as is the last tile level before LLVM (the role of NVIDIA's nv_tileas
// and of Triton's TTGIR). Tensors carry a layout encoding that says which
// thread holds which element; memory ops carry their vectorization facts;
// ordering tokens are gone (program order within a thread is the order).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_TILEAS_TD
#define TILEPIPE_TILEAS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileAS_Dialect : Dialect {
  let name = "tile_as";
  let cppNamespace = "::tilepipe::tile_as";
  let summary = "assembler-level tile dialect: layouts, vectorized memory ops";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Module attributes stamped by tile-lower.
    static constexpr ::llvm::StringLiteral kTargetAttrName = "tile_as.target";
    static constexpr ::llvm::StringLiteral kNumWarpsAttrName = "tile_as.num_warps";
    static constexpr ::llvm::StringLiteral kOptLevelAttrName = "tile_as.opt_level";
    static constexpr ::llvm::StringLiteral kThreadsPerWarp = "tile_as.threads_per_warp";
    /// On a tcgen05 multiply whose accumulator operand and result live in
    /// tensor memory (between tile_as.acc_to_tmem and tile_as.acc_from_tmem;
    /// tilepipe-keep-accumulators-in-tmem sets it).
    static constexpr ::llvm::StringLiteral kTmemAccumulatorAttrName =
        "tile_as.tmem_accumulator";
    /// On a kernel function: the CTAs per cluster cuTile asked for
    /// (num_cta_in_cga; tilepipe-stamp-target records it, and
    /// tilepipe-split-tile-blocks-across-cta-pair consumes it).
    static constexpr ::llvm::StringLiteral kRequestedCtasPerClusterAttrName =
        "tile_as.requested_ctas_per_cluster";
    /// On a kernel function whose tile blocks each run on a cluster of this
    /// many CTAs, each computing its part of the tile program
    /// (tilepipe-split-tile-blocks-across-cta-pair sets it): its tile block
    /// id and count are the cluster's, and its PTX declares the cluster shape.
    static constexpr ::llvm::StringLiteral kCtasPerClusterAttrName =
        "tile_as.ctas_per_cluster";
    /// On such a function split along M (each CTA of the pair computes
    /// rows [r * M/2, (r + 1) * M/2) of every multiply, with the whole B;
    /// tilepipe-split-tile-blocks-across-cta-pair sets it).
    static constexpr ::llvm::StringLiteral kCtaPairRowsAttrName = "tile_as.cta_pair_rows";
    /// On such a function whose tcgen05 multiplies the pair issues together
    /// (tcgen05.mma.cta_group::2, M = 256: tilepipe-pair-tcgen05-mmas sets
    /// it): every tcgen05 instruction of the kernel is cta_group::2, the
    /// even CTA issues the MMAs and each CTA loads half of B's columns.
    static constexpr ::llvm::StringLiteral kTcgen05CtaPairAttrName = "tile_as.tcgen05_cta_pair";
  }];
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

// Layouts are tensor encodings. `blocked` is the first; the layout helpers
// (TileASLayouts.h) dispatch on the attribute kind so shared/MMA layouts can
// join without touching the lowering of elementwise code.
def TileAS_BlockedAttr : AttrDef<TileAS_Dialect, "Blocked"> {
  let mnemonic = "blocked";
  let summary = "each thread holds sizePerThread adjacent elements per tile";
  let description = [{
    Threads of a warp and warps of the CTA tile the tensor dimension by
    dimension; `order` lists dimensions fastest first. A shape larger than one
    tile of the layout repeats it (more registers per thread); a smaller one
    wraps (replicated elements).
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat = [{
    `<` `sizePerThread` `=` `[` $sizePerThread `]` `,`
        `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,`
        `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,`
        `order` `=` `[` $order `]` `>`
  }];
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def TileAS_PtrType : TypeDef<TileAS_Dialect, "Ptr"> {
  let mnemonic = "ptr";
  let summary = "typed pointer in an address space";
  let parameters = (ins "::mlir::Type":$pointeeType, "unsigned":$addressSpace);
  let assemblyFormat = "`<` $pointeeType `,` $addressSpace `>`";
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class TileAS_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileAS_Dialect, mnemonic, traits>;

def TileAS_PtrLike : AnyTypeOf<[TileAS_PtrType, RankedTensorOf<[TileAS_PtrType]>]>;
def TileAS_IntLike : AnyTypeOf<[AnySignlessInteger, RankedTensorOf<[AnySignlessInteger]>]>;
def TileAS_PtrTensor : RankedTensorOf<[TileAS_PtrType]>;
def TileAS_MaskTensor : RankedTensorOf<[I1]>;

def TileAS_BlockIdOp : TileAS_Op<"block_id", [Pure]> {
  let summary = "index of this CTA along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

def TileAS_NumBlocksOp : TileAS_Op<"num_blocks", [Pure]> {
  let summary = "number of CTAs along a grid axis";
  let arguments = (ins ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
}

// In a function with tile_as.ctas_per_cluster, the tile block is a cluster
// and this CTA computes the part of the tile program its rank selects.
def TileAS_ClusterCtaRankOp : TileAS_Op<"cluster_cta_rank", [Pure]> {
  let summary = "rank of this CTA within its cluster (%cluster_ctarank)";
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict";
}

def TileAS_SplatOp : TileAS_Op<"splat", [Pure,
    TypesMatchWith<"element type matches the scalar", "result", "src",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "a tensor with every element equal to a scalar";
  let arguments = (ins AnyType:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
}

def TileAS_BroadcastOp : TileAS_Op<"broadcast", [Pure]> {
  let summary = "repeat size-1 dimensions (same layout on both sides)";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TileAS_IotaOp : TileAS_Op<"iota", [Pure]> {
  let summary = "each element's coordinate along one axis";
  let arguments = (ins I32Attr:$axis);
  let results = (outs RankedTensorOf<[I32, I64]>:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TileAS_AddPtrOp : TileAS_Op<"addptr", [Pure, Elementwise,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by signed element offsets";
  let arguments = (ins TileAS_PtrLike:$ptr, TileAS_IntLike:$offset);
  let results = (outs TileAS_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
}

def TileAS_ConvertLayoutOp : TileAS_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "move a tensor to another layout";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

// `contiguity`, `transposed_contiguity` and `view_alignment` as in
// tile_aa.load; tile-sched
// turns `contiguity` into the layout's sizePerThread, which the LLVM
// lowering emits as one vector access.
def TileAS_LoadOp : TileAS_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead]>]> {
  let summary = "masked vectorized load through a tensor of pointers";
  let arguments = (ins TileAS_PtrTensor:$ptrs,
                       Optional<TileAS_MaskTensor>:$mask,
                       Optional<AnyRankedTensor>:$other,
                       DefaultValuedAttr<I64Attr, "1">:$contiguity,
                       DefaultValuedAttr<I64Attr, "1">:$transposed_contiguity,
                       DefaultValuedAttr<I64Attr, "1">:$view_alignment);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $ptrs (`,` $mask^)? (`,` $other^)? attr-dict
    `:` type($ptrs) (`,` type($mask)^)? (`,` type($other)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def TileAS_StoreOp : TileAS_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "masked vectorized store through a tensor of pointers";
  let arguments = (ins TileAS_PtrTensor:$ptrs, AnyRankedTensor:$value,
                       Optional<TileAS_MaskTensor>:$mask,
                       DefaultValuedAttr<I64Attr, "1">:$contiguity);
  let assemblyFormat = [{
    $ptrs `,` $value (`,` $mask^)? attr-dict
    `:` type($ptrs) `,` type($value) (`,` type($mask)^)?
  }];
  let hasVerifier = 1;
}

// Op families, one file each.
include "tilepipe/Dialect/TileAS/IR/TileASDataMovementOps.td"
include "tilepipe/Dialect/TileAS/IR/TileASAggregateOps.td"
include "tilepipe/Dialect/TileAS/IR/TileASArithOps.td"
include "tilepipe/Dialect/TileAS/IR/TileASControlOps.td"
include "tilepipe/Dialect/TileAS/IR/TileASMemoryOps.td"
include "tilepipe/Dialect/TileAS/IR/TileASMatrixOps.td"
include "tilepipe/Dialect/TileAS/IR/TileASPipelineOps.td"
include "tilepipe/Dialect/TileAS/IR/TileASMiscOps.td"

#endif // TILEPIPE_TILEAS_TD
