//===- CudaTileTypes.td - cuda_tile types and type constraints ------------===//
//
// Names other ODS files rely on (keep them stable):
//   Types:        CudaTile_TileType (C++ TileType: getShape, getElementType,
//                 getRank), CudaTile_PointerType (PointerType:
//                 getPointeeType), CudaTile_TokenType, CudaTile_TensorViewType,
//                 CudaTile_PartitionViewType, CudaTile_StridedViewType,
//                 CudaTile_GatherScatterViewType.
//   Elements:     CudaTile_AnyInt, CudaTile_AnyFloat, CudaTile_NumberType,
//                 CudaTile_TileElementType (number or pointer).
//   Tiles:        CudaTile_AnyTile, CudaTile_IntTile, CudaTile_FloatTile (every
//                 float element type), CudaTile_BaseFloatTile (f16 bf16 f32
//                 f64), CudaTile_IntOrFloatTile, CudaTile_PtrTile,
//                 CudaTile_BoolTile (i1), CudaTile_I64Tile,
//                 CudaTile_ScalarTileOf<T> (rank 0), CudaTile_TileOf<[T...]>.
//   Views:        CudaTile_AnyTileView (partition/strided/gather_scatter).
//
// Types print without the `!cuda_tile.` prefix inside ops; use the custom
// directive `custom<CudaTileType>(type($x))` in op assembly formats (declared
// in CudaTile.h) so that `tile<...>`, `ptr<...>`, `token` read and print bare.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_CUDATILE_TYPES_TD
#define TILEPIPE_CUDATILE_TYPES_TD

include "tilepipe/Dialect/CudaTile/IR/CudaTileBase.td"
include "tilepipe/Dialect/CudaTile/IR/CudaTileAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

class CudaTile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<CudaTile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

def CudaTile_AnyInt : AnyTypeOf<[I1, I<4>, I8, I16, I32, I64]>;
def CudaTile_AnyFloat : AnyTypeOf<[F16, BF16, F32, TF32, F64, F8E4M3FN, F8E5M2,
                                   F8E8M0FNU, F4E2M1FN]>;
def CudaTile_NumberType : AnyTypeOf<[CudaTile_AnyFloat, CudaTile_AnyInt]> {
  string cppType = "::mlir::Type";
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def CudaTile_PointerType : CudaTile_Type<"Pointer", "ptr"> {
  let summary = "typed pointer into global device memory";
  let parameters = (ins "::mlir::Type":$pointeeType);
  let builders = [TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
    return $_get(pointeeType.getContext(), pointeeType);
  }]>];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def CudaTile_TileType : CudaTile_Type<"Tile", "tile", [ShapedTypeInterface]> {
  let summary = "statically shaped tile of numbers or pointers";
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType);
  let builders = [TypeBuilderWithInferredContext<(ins
      "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType), [{
    return $_get(elementType.getContext(), shape, elementType);
  }]>];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasRank() const { return true; }
    TileType cloneWith(std::optional<::llvm::ArrayRef<int64_t>> shape,
                       ::mlir::Type elementType) const;
    /// Number of elements of the tile.
    int64_t getNumElements() const;
  }];
}

def CudaTile_TokenType : CudaTile_Type<"Token", "token"> {
  let summary = "ordering token between memory operations (no runtime value)";
}

def CudaTile_TensorViewType : CudaTile_Type<"TensorView", "tensor_view"> {
  let summary = "shaped and strided reference to a tensor in global memory";
  let parameters = (ins "::mlir::Type":$elementType,
                        ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$strides);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Marker of a dynamic size or stride (printed `?`).
    static constexpr int64_t kDynamic = ::mlir::ShapedType::kDynamic;
    int64_t getRank() const { return getShape().size(); }
    unsigned getNumDynamicShape() const;
    unsigned getNumDynamicStrides() const;
  }];
}

// The three tile views share: a tile shape, the viewed tensor_view, an
// optional padding value; partition and strided views add a dimension map.
def CudaTile_PartitionViewType : CudaTile_Type<"PartitionView", "partition_view"> {
  let summary = "grid of equally sized tiles over a tensor_view";
  let parameters = (ins ArrayRefParameter<"int32_t">:$tileShape,
                        CudaTile_TensorViewType:$tensorView,
                        ArrayRefParameter<"int32_t">:$dimMap,
                        OptionalParameter<"::tilepipe::cuda_tile::PaddingValueAttr">:$paddingValue);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def CudaTile_StridedViewType : CudaTile_Type<"StridedView", "strided_view"> {
  let summary = "tiles at strided positions over a tensor_view";
  let parameters = (ins ArrayRefParameter<"int32_t">:$tileShape,
                        ArrayRefParameter<"int64_t">:$traversalStrides,
                        CudaTile_TensorViewType:$tensorView,
                        ArrayRefParameter<"int32_t">:$dimMap,
                        OptionalParameter<"::tilepipe::cuda_tile::PaddingValueAttr">:$paddingValue);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def CudaTile_GatherScatterViewType
    : CudaTile_Type<"GatherScatterView", "gather_scatter_view"> {
  let summary = "tiles gathered along one sparse dimension of a tensor_view";
  let parameters = (ins ArrayRefParameter<"int32_t">:$tileShape,
                        CudaTile_TensorViewType:$tensorView,
                        "uint32_t":$sparseDim,
                        OptionalParameter<"::tilepipe::cuda_tile::PaddingValueAttr">:$paddingValue);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Constraints
//===----------------------------------------------------------------------===//

def CudaTile_IsTileTypePred
    : CPred<"::llvm::isa<::tilepipe::cuda_tile::TileType>($_self)">;

class CudaTile_TileOf<list<Type> allowedTypes, list<Pred> preds = [],
                      string summary = "tile">
    : ShapedContainerType<allowedTypes,
        And<!listconcat([CudaTile_IsTileTypePred], preds)>,
        summary, "::tilepipe::cuda_tile::TileType">;

class CudaTile_RankedTileOf<list<Type> allowedTypes, list<int> ranks>
    : CudaTile_TileOf<allowedTypes, [HasAnyRankOfPred<ranks>],
        !interleave(!foreach(rank, ranks, rank # "D"), "/") # " tile">;

class CudaTile_ScalarTileOf<Type elementType>
    : CudaTile_RankedTileOf<[elementType], [0]>,
      BuildableType<!if(!eq(elementType.builderCall, ""), "",
        "::tilepipe::cuda_tile::TileType::get(::llvm::ArrayRef<int64_t>(), " #
        elementType.builderCall # ")")>;

def CudaTile_TileElementType : AnyTypeOf<[CudaTile_NumberType, CudaTile_PointerType]>;

def CudaTile_AnyTile : CudaTile_TileOf<[CudaTile_TileElementType]>;
def CudaTile_IntTile : CudaTile_TileOf<[CudaTile_AnyInt]>;
def CudaTile_I64Tile : CudaTile_TileOf<[I64]>;
def CudaTile_FloatTile : CudaTile_TileOf<[CudaTile_AnyFloat]>;
def CudaTile_BaseFloatTile : CudaTile_TileOf<[F16, BF16, F32, F64]>;
def CudaTile_IntOrFloatTile : CudaTile_TileOf<[CudaTile_NumberType]>;
def CudaTile_PtrTile : CudaTile_TileOf<[CudaTile_PointerType]>;
def CudaTile_BoolTile : CudaTile_TileOf<[I1]>;
def CudaTile_ScalarIntTile : CudaTile_RankedTileOf<[CudaTile_AnyInt], [0]>;
def CudaTile_ScalarI1Tile : CudaTile_ScalarTileOf<I1>;
def CudaTile_ScalarI32Tile : CudaTile_ScalarTileOf<I32>;

def CudaTile_AnyTileView : AnyTypeOf<[CudaTile_PartitionViewType,
                                      CudaTile_StridedViewType,
                                      CudaTile_GatherScatterViewType]>;

#endif // TILEPIPE_CUDATILE_TYPES_TD
