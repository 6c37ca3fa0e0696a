//===- CudaTileOps.td - cuda_tile structure, memory and control ops -------===//
//
// Module/entry/global, constants and assumptions, token-ordered memory ops,
// views, structured control flow, reductions and matrix multiply-accumulate.
// Text forms follow what NVIDIA's cuda-tile-opt prints (see the corpus).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_CUDATILE_OPS_TD
#define TILEPIPE_CUDATILE_OPS_TD

include "tilepipe/Dialect/CudaTile/IR/CudaTileBase.td"
include "tilepipe/Dialect/CudaTile/IR/CudaTileAttrs.td"
include "tilepipe/Dialect/CudaTile/IR/CudaTileTypes.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Ops whose bodies print without the `cuda_tile.` prefix.
defvar CudaTile_DefaultDialectDecl = [{
  static ::llvm::StringRef getDefaultDialect() { return "cuda_tile"; }
}];

def CudaTile_TokenOrTile : AnyTypeOf<[CudaTile_TokenType, CudaTile_AnyTile]>;
def CudaTile_AnyValue : AnyTypeOf<[CudaTile_AnyTile, CudaTile_TokenType,
                                   CudaTile_TensorViewType, CudaTile_AnyTileView]>;

//===----------------------------------------------------------------------===//
// Structure: module, entry, global, return
//===----------------------------------------------------------------------===//

def CudaTile_ModuleOp : CudaTile_Op<"module", [
    IsolatedFromAbove, NoTerminator, SingleBlock, SymbolTable, Symbol,
    OpAsmOpInterface]> {
  let summary = "a self-contained set of kernels and globals";
  let arguments = (ins SymbolNameAttr:$sym_name, OptionalAttr<StrAttr>:$producer);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let extraClassDeclaration = CudaTile_DefaultDialectDecl;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
}

def CudaTile_EntryOp : CudaTile_Op<"entry", [
    IsolatedFromAbove, AutomaticAllocationScope, FunctionOpInterface,
    HasParent<"ModuleOp">, OpAsmOpInterface]> {
  let summary = "a kernel: scalar tile arguments, no results";
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<CudaTile_OptimizationHintsAttr>:$optimization_hints);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = CudaTile_DefaultDialectDecl # [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
  }];
}

def CudaTile_GlobalOp : CudaTile_Op<"global", [Symbol, HasParent<"ModuleOp">]> {
  let summary = "a module-level tile in global memory";
  let arguments = (ins SymbolNameAttr:$sym_name,
                       Builtin_DenseIntOrFPElementsAttr:$value,
                       OptionalAttr<I64Attr>:$alignment,
                       UnitAttr:$constant,
                       DefaultValuedAttr<CudaTile_SymbolVisibilityAttr,
                           "::tilepipe::cuda_tile::SymbolVisibility::PUBLIC">:$symbol_visibility);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def CudaTile_GetGlobalOp : CudaTile_Op<"get_global", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "pointer to a global";
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs CudaTile_ScalarTileOf<CudaTile_PointerType>:$result);
  let assemblyFormat = "$name attr-dict `:` custom<CudaTileType>(type($result))";
}

def CudaTile_ReturnOp : CudaTile_Op<"return", [ReturnLike, Terminator]> {
  let summary = "return from a kernel";
  let arguments = (ins Variadic<CudaTile_AnyValue>:$operands);
  let builders = [OpBuilder<(ins), [{ // No operands.
  }]>];
  let assemblyFormat =
      "attr-dict ($operands^ `:` custom<CudaTileType>(type($operands)))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Constants, assumptions, diagnostics
//===----------------------------------------------------------------------===//

def CudaTile_ConstantOp : CudaTile_Op<"constant", [
    ConstantLike, Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a constant tile: `<f32: [1.0, 2.0]> : tile<2xf32>`";
  let arguments = (ins Builtin_DenseIntOrFPElementsAttr:$value);
  let results = (outs CudaTile_IntOrFloatTile:$result);
  let assemblyFormat = "custom<TileConstant>($value, type($result)) attr-dict";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def CudaTile_AssumeOp : CudaTile_Op<"assume", [
    Pure, AllTypesMatch<["value", "result"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "attach a predicate (div_by, same_elements, bounded) to a value";
  let arguments = (ins CudaTile_AnyValue:$value, CudaTile_AssumePredicateAttr:$predicate);
  let results = (outs CudaTile_AnyValue:$result);
  let assemblyFormat = "custom<AssumePredicate>($predicate) `,` $value attr-dict "
                       "`:` custom<CudaTileType>(type($value))";
  let hasVerifier = 1;
}

def CudaTile_AssertOp : CudaTile_Op<"assert"> {
  let summary = "report an error for every false element";
  let arguments = (ins CudaTile_BoolTile:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` "
                       "custom<CudaTileType>(type($condition))";
}

def CudaTile_PrintTkoOp : CudaTile_Op<"print_tko", [AttrSizedOperandSegments]> {
  let summary = "printf-style print of tiles, ordered by tokens";
  let arguments = (ins StrAttr:$str, Variadic<CudaTile_AnyTile>:$args,
                       Optional<CudaTile_TokenType>:$token);
  let results = (outs CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    $str (`,` $args^)? (`token` `` `=` `` $token^)? attr-dict
    (`:` custom<CudaTileType>(type($args))^)?
    `->` custom<CudaTileType>(type($result_token))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

def CudaTile_MakeTokenOp : CudaTile_Op<"make_token"> {
  let summary = "a fresh token with no ordering dependence";
  let results = (outs CudaTile_TokenType:$result);
  let assemblyFormat = "attr-dict `:` custom<CudaTileType>(type($result))";
}

def CudaTile_JoinTokensOp : CudaTile_Op<"join_tokens", [Pure]> {
  let summary = "a token ordered after all of its operands";
  let arguments = (ins Variadic<CudaTile_TokenType>:$tokens);
  let results = (outs CudaTile_TokenType:$result);
  let assemblyFormat = "$tokens attr-dict `:` custom<CudaTileType>(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointer memory ops
//===----------------------------------------------------------------------===//

def CudaTile_LoadPtrTkoOp : CudaTile_Op<"load_ptr_tko", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "gather load through a tile of pointers";
  let arguments = (ins CudaTile_MemoryOrderingSemanticsAttr:$memory_ordering_semantics,
                       OptionalAttr<CudaTile_MemoryScopeAttr>:$memory_scope,
                       CudaTile_PtrTile:$source,
                       Optional<CudaTile_BoolTile>:$mask,
                       Optional<CudaTile_IntOrFloatTile>:$paddingValue,
                       Optional<CudaTile_TokenType>:$token,
                       OptionalAttr<CudaTile_OptimizationHintsAttr>:$optimization_hints);
  let results = (outs CudaTile_IntOrFloatTile:$result, CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    custom<OrderingAndScope>($memory_ordering_semantics, $memory_scope) $source
    (`,` $mask^)? (`,` $paddingValue^)?
    (`token` `` `=` `` $token^)?
    (`optimization_hints` `=` $optimization_hints^)? attr-dict
    `:` custom<CudaTileType>(type($source))
    (`,` custom<CudaTileType>(type($mask))^)?
    (`,` custom<CudaTileType>(type($paddingValue))^)?
    `->` custom<CudaTileType>(type($result)) `,` custom<CudaTileType>(type($result_token))
  }];
  let hasVerifier = 1;
}

def CudaTile_StorePtrTkoOp : CudaTile_Op<"store_ptr_tko", [AttrSizedOperandSegments]> {
  let summary = "scatter store through a tile of pointers";
  let arguments = (ins CudaTile_MemoryOrderingSemanticsAttr:$memory_ordering_semantics,
                       OptionalAttr<CudaTile_MemoryScopeAttr>:$memory_scope,
                       CudaTile_PtrTile:$destination,
                       CudaTile_IntOrFloatTile:$value,
                       Optional<CudaTile_BoolTile>:$mask,
                       Optional<CudaTile_TokenType>:$token,
                       OptionalAttr<CudaTile_OptimizationHintsAttr>:$optimization_hints);
  let results = (outs CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    custom<OrderingAndScope>($memory_ordering_semantics, $memory_scope) $destination `,` $value
    (`,` $mask^)?
    (`token` `` `=` `` $token^)?
    (`optimization_hints` `=` $optimization_hints^)? attr-dict
    `:` custom<CudaTileType>(type($destination)) `,` custom<CudaTileType>(type($value))
    (`,` custom<CudaTileType>(type($mask))^)?
    `->` custom<CudaTileType>(type($result_token))
  }];
  let hasVerifier = 1;
}

def CudaTile_AtomicCASTkoOp : CudaTile_Op<"atomic_cas_tko", [
    AttrSizedOperandSegments, AllTypesMatch<["cmp", "val", "result"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "atomic compare-and-swap through a tile of pointers";
  let arguments = (ins CudaTile_MemoryOrderingSemanticsAttr:$memory_ordering_semantics,
                       CudaTile_MemoryScopeAttr:$memory_scope,
                       CudaTile_PtrTile:$pointers,
                       CudaTile_IntOrFloatTile:$cmp,
                       CudaTile_IntOrFloatTile:$val,
                       Optional<CudaTile_BoolTile>:$mask,
                       Optional<CudaTile_TokenType>:$token);
  let results = (outs CudaTile_IntOrFloatTile:$result, CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    custom<KeywordEnum>($memory_ordering_semantics) custom<KeywordEnum>($memory_scope) $pointers `,` $cmp `,` $val
    (`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict
    `:` custom<CudaTileType>(type($pointers)) `,` custom<CudaTileType>(type($val))
    (`,` custom<CudaTileType>(type($mask))^)?
    `->` custom<CudaTileType>(type($result)) `,` custom<CudaTileType>(type($result_token))
  }];
  let hasVerifier = 1;
}

def CudaTile_AtomicRMWTkoOp : CudaTile_Op<"atomic_rmw_tko", [
    AttrSizedOperandSegments, AllTypesMatch<["arg", "result"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "atomic read-modify-write through a tile of pointers";
  let arguments = (ins CudaTile_MemoryOrderingSemanticsAttr:$memory_ordering_semantics,
                       CudaTile_MemoryScopeAttr:$memory_scope,
                       CudaTile_PtrTile:$pointers,
                       CudaTile_AtomicRMWModeAttr:$mode,
                       CudaTile_IntOrFloatTile:$arg,
                       Optional<CudaTile_BoolTile>:$mask,
                       Optional<CudaTile_TokenType>:$token);
  let results = (outs CudaTile_IntOrFloatTile:$result, CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    custom<KeywordEnum>($memory_ordering_semantics) custom<KeywordEnum>($memory_scope) $pointers `,` custom<KeywordEnum>($mode) `,` $arg
    (`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict
    `:` custom<CudaTileType>(type($pointers)) `,` custom<CudaTileType>(type($arg))
    (`,` custom<CudaTileType>(type($mask))^)?
    `->` custom<CudaTileType>(type($result)) `,` custom<CudaTileType>(type($result_token))
  }];
  let hasVerifier = 1;
}

def CudaTile_OffsetOp : CudaTile_Op<"offset", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by element offsets";
  let arguments = (ins CudaTile_PtrTile:$ptr, CudaTile_IntTile:$offset);
  let results = (outs CudaTile_PtrTile:$result);
  let assemblyFormat = [{
    $ptr `,` $offset attr-dict `:` custom<CudaTileType>(type($ptr)) `,`
    custom<CudaTileType>(type($offset)) `->` custom<CudaTileType>(type($result))
  }];
  let hasVerifier = 1;
}

def CudaTile_AllocaOp : CudaTile_Op<"alloca", [MemoryEffects<[MemAlloc]>]> {
  let summary = "scratch memory for the tile block (or global scratch)";
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$num_elem,
                       ConfinedAttr<I64Attr, [IntPositive, IntPowerOf2]>:$alignment,
                       UnitAttr:$global);
  let results = (outs CudaTile_ScalarTileOf<CudaTile_PointerType>:$result);
  let assemblyFormat = [{
    `num_elem` `=` $num_elem `,` `alignment` `=` $alignment (`global` $global^)?
    attr-dict `:` custom<CudaTileType>(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

def CudaTile_MakeTensorViewOp : CudaTile_Op<"make_tensor_view", [
    Pure, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a tensor_view over a base pointer with (dynamic) shape and strides";
  let arguments = (ins CudaTile_ScalarTileOf<CudaTile_PointerType>:$base,
                       Variadic<CudaTile_ScalarIntTile>:$dynamicShape,
                       Variadic<CudaTile_ScalarIntTile>:$dynamicStrides);
  let results = (outs CudaTile_TensorViewType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

class CudaTile_MakeViewOp<string mnemonic, Type viewType>
    : CudaTile_Op<mnemonic, [Pure,
        TypesMatchWith<"the operand is the view's tensor_view", "result",
                       "tensor_view", "::llvm::cast<" # viewType.cppType #
                       ">($_self).getTensorView()">,
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let arguments = (ins CudaTile_TensorViewType:$tensor_view);
  let results = (outs viewType:$result);
  let assemblyFormat = "$tensor_view attr-dict `:` custom<CudaTileType>(type($result))";
}

def CudaTile_MakePartitionViewOp
    : CudaTile_MakeViewOp<"make_partition_view", CudaTile_PartitionViewType> {
  let summary = "a partition_view over a tensor_view";
}
def CudaTile_MakeStridedViewOp
    : CudaTile_MakeViewOp<"make_strided_view", CudaTile_StridedViewType> {
  let summary = "a strided_view over a tensor_view";
}
def CudaTile_MakeGatherScatterViewOp
    : CudaTile_MakeViewOp<"make_gather_scatter_view", CudaTile_GatherScatterViewType> {
  let summary = "a gather_scatter_view over a tensor_view";
}

def CudaTile_GetTensorShapeOp : CudaTile_Op<"get_tensor_shape", [Pure]> {
  let summary = "the sizes of a tensor_view";
  let arguments = (ins CudaTile_TensorViewType:$src);
  let results = (outs Variadic<CudaTile_ScalarIntTile>:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def CudaTile_GetIndexSpaceShapeOp : CudaTile_Op<"get_index_space_shape", [Pure]> {
  let summary = "the number of tiles of a view along each index dimension";
  let arguments = (ins CudaTile_AnyTileView:$src);
  let results = (outs Variadic<CudaTile_ScalarIntTile>:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

// A view index: a scalar, or along a gather_scatter_view's sparse dimension
// a 1-d tile of element indices (verifyViewAccess checks which is where).
def CudaTile_ViewIndexTile : CudaTile_RankedTileOf<[CudaTile_AnyInt], [0, 1]>;

def CudaTile_LoadViewTkoOp : CudaTile_Op<"load_view_tko", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "load one tile of a view";
  let arguments = (ins CudaTile_MemoryOrderingSemanticsAttr:$memory_ordering_semantics,
                       OptionalAttr<CudaTile_MemoryScopeAttr>:$memory_scope,
                       CudaTile_AnyTileView:$view,
                       Variadic<CudaTile_ViewIndexTile>:$index,
                       Optional<CudaTile_TokenType>:$token,
                       OptionalAttr<CudaTile_OptimizationHintsAttr>:$optimization_hints);
  let results = (outs CudaTile_AnyTile:$tile, CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    custom<OrderingAndScope>($memory_ordering_semantics, $memory_scope) $view `[` $index `]`
    (`token` `=` $token^)?
    (`optimization_hints` `=` $optimization_hints^)? attr-dict
    `:` custom<CudaTileType>(type($view)) `` custom<IndexTypes>(ref($index), type($index))
    `->` custom<CudaTileType>(type($tile)) `,` custom<CudaTileType>(type($result_token))
  }];
  let hasVerifier = 1;
}

def CudaTile_StoreViewTkoOp : CudaTile_Op<"store_view_tko", [AttrSizedOperandSegments]> {
  let summary = "store one tile into a view";
  let arguments = (ins CudaTile_MemoryOrderingSemanticsAttr:$memory_ordering_semantics,
                       OptionalAttr<CudaTile_MemoryScopeAttr>:$memory_scope,
                       CudaTile_AnyTile:$tile,
                       CudaTile_AnyTileView:$view,
                       Variadic<CudaTile_ViewIndexTile>:$index,
                       Optional<CudaTile_TokenType>:$token,
                       OptionalAttr<CudaTile_OptimizationHintsAttr>:$optimization_hints);
  let results = (outs CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    custom<OrderingAndScope>($memory_ordering_semantics, $memory_scope) $tile `,` $view `[` $index `]`
    (`token` `=` $token^)?
    (`optimization_hints` `=` $optimization_hints^)? attr-dict
    `:` custom<CudaTileType>(type($tile)) `,` custom<CudaTileType>(type($view))
    `` custom<IndexTypes>(ref($index), type($index))
    `->` custom<CudaTileType>(type($result_token))
  }];
  let hasVerifier = 1;
}

def CudaTile_AtomicRedViewTkoOp : CudaTile_Op<"atomic_red_view_tko", [
    AttrSizedOperandSegments]> {
  let summary = "atomic reduction of a tile into a view";
  let arguments = (ins CudaTile_MemoryOrderingSemanticsAttr:$memory_ordering_semantics,
                       CudaTile_MemoryScopeAttr:$memory_scope,
                       CudaTile_AnyTileView:$view,
                       Variadic<CudaTile_ScalarIntTile>:$index,
                       CudaTile_AtomicRMWModeAttr:$mode,
                       CudaTile_IntOrFloatTile:$value,
                       Optional<CudaTile_TokenType>:$token);
  let results = (outs CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    custom<KeywordEnum>($memory_ordering_semantics) custom<KeywordEnum>($memory_scope) $view `[` $index `]` `,` custom<KeywordEnum>($mode) `,` $value
    (`token` `=` $token^)? attr-dict
    `:` custom<CudaTileType>(type($value)) `,` custom<CudaTileType>(type($view))
    `` custom<IndexTypes>(ref($index), type($index))
    `->` custom<CudaTileType>(type($result_token))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Grid queries
//===----------------------------------------------------------------------===//

def CudaTile_GetTileBlockIdOp : CudaTile_Op<"get_tile_block_id", [Pure,
    AllTypesMatch<["blockId_x", "blockId_y", "blockId_z"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "the coordinates of this tile block in the grid";
  let results = (outs CudaTile_ScalarI32Tile:$blockId_x,
                      CudaTile_ScalarI32Tile:$blockId_y,
                      CudaTile_ScalarI32Tile:$blockId_z);
  let assemblyFormat = "attr-dict `:` custom<CudaTileType>(type($blockId_x))";
}

def CudaTile_GetNumTileBlocksOp : CudaTile_Op<"get_num_tile_blocks", [Pure,
    AllTypesMatch<["gridSize_x", "gridSize_y", "gridSize_z"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "the size of the grid of tile blocks";
  let results = (outs CudaTile_ScalarI32Tile:$gridSize_x,
                      CudaTile_ScalarI32Tile:$gridSize_y,
                      CudaTile_ScalarI32Tile:$gridSize_z);
  let assemblyFormat = "attr-dict `:` custom<CudaTileType>(type($gridSize_x))";
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def CudaTile_IfOp : CudaTile_Op<"if", [RecursiveMemoryEffects, NoRegionArguments,
                                      OpAsmOpInterface]> {
  let extraClassDeclaration = CudaTile_DefaultDialectDecl;
  let summary = "two-way branch on a scalar i1";
  let arguments = (ins CudaTile_ScalarI1Tile:$condition);
  let results = (outs Variadic<CudaTile_AnyValue>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, AnyRegion:$elseRegion);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  // The seed's structural patterns (CudaTileIfCanonicalization.cpp).
  let hasCanonicalizer = 1;
}

def CudaTile_ForOp : CudaTile_Op<"for", [
    RecursiveMemoryEffects, AllTypesMatch<["lowerBound", "upperBound", "step"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames",
                                                 "getAsmBlockArgumentNames"]>]> {
  let summary = "counted loop with loop-carried values";
  let arguments = (ins CudaTile_ScalarIntTile:$lowerBound,
                       CudaTile_ScalarIntTile:$upperBound,
                       CudaTile_ScalarIntTile:$step,
                       Variadic<CudaTile_AnyValue>:$initValues,
                       UnitAttr:$unsignedCmp);
  let results = (outs Variadic<CudaTile_AnyValue>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = CudaTile_DefaultDialectDecl # [{
    ::mlir::Block *getBody() { return &getRegion().front(); }
    ::mlir::BlockArgument getInductionVar() { return getBody()->getArgument(0); }
    ::mlir::Block::BlockArgListType getRegionIterValues() {
      return getBody()->getArguments().drop_front();
    }
  }];
}

def CudaTile_LoopOp : CudaTile_Op<"loop", [RecursiveMemoryEffects, OpAsmOpInterface]> {
  let extraClassDeclaration = CudaTile_DefaultDialectDecl;
  let summary = "unbounded loop left by break";
  let arguments = (ins Variadic<CudaTile_AnyValue>:$initValues);
  let results = (outs Variadic<CudaTile_AnyValue>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

// Terminators that leave a region early (break, continue, return) are not
// Pure: an `if` whose branch only holds one still changes control flow, and a
// Pure terminator would let DCE erase that `if` as effect-free.
class CudaTile_TerminatorOp<string mnemonic, list<Trait> traits = [],
                            bit pure = 1>
    : CudaTile_Op<mnemonic, !listconcat(!if(pure, [Pure], []), [Terminator], traits)> {
  let arguments = (ins Variadic<CudaTile_AnyValue>:$operands);
  let builders = [OpBuilder<(ins), [{ // No operands.
  }]>];
  let assemblyFormat =
      "attr-dict ($operands^ `:` custom<CudaTileType>(type($operands)))?";
  let hasVerifier = 1;
}

def CudaTile_YieldOp : CudaTile_TerminatorOp<"yield", [ReturnLike]> {
  let summary = "end of an if branch or a reduce/scan body";
}
def CudaTile_BreakOp : CudaTile_TerminatorOp<"break", [], /*pure=*/0> {
  let summary = "leave the innermost loop";
}
def CudaTile_ContinueOp : CudaTile_TerminatorOp<"continue", [], /*pure=*/0> {
  let summary = "next iteration of the innermost loop";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class CudaTile_AggregateOp<string mnemonic> : CudaTile_Op<mnemonic, [
    Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let arguments = (ins Variadic<CudaTile_AnyTile>:$operands,
                       I32Attr:$dim, ArrayAttr:$identities);
  let results = (outs Variadic<CudaTile_AnyTile>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = CudaTile_DefaultDialectDecl;
}

def CudaTile_ReduceOp : CudaTile_AggregateOp<"reduce"> {
  let summary = "reduce tiles along one dimension with a combiner region";
}

def CudaTile_ScanOp : CudaTile_Op<"scan", [
    Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "inclusive prefix scan along one dimension";
  let arguments = (ins Variadic<CudaTile_AnyTile>:$operands,
                       I32Attr:$dim, BoolAttr:$reverse, ArrayAttr:$identities);
  let results = (outs Variadic<CudaTile_AnyTile>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = CudaTile_DefaultDialectDecl;
}

//===----------------------------------------------------------------------===//
// Matrix multiply-accumulate
//===----------------------------------------------------------------------===//

def CudaTile_MmaFOp : CudaTile_Op<"mmaf", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "floating-point matrix multiply-accumulate (2-D or batched 3-D)";
  let arguments = (ins CudaTile_FloatTile:$lhs, CudaTile_FloatTile:$rhs,
                       CudaTile_FloatTile:$acc, UnitAttr:$fast_acc);
  let results = (outs CudaTile_FloatTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc (`fast_acc` $fast_acc^)? attr-dict `:`
    custom<CudaTileType>(type($lhs)) `,` custom<CudaTileType>(type($rhs)) `,`
    custom<CudaTileType>(type($acc))
  }];
  let hasVerifier = 1;
}

def CudaTile_MmaIOp : CudaTile_Op<"mmai", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "i8 x i8 + i32 matrix multiply-accumulate";
  let arguments = (ins CudaTile_IntTile:$lhs, CudaTile_IntTile:$rhs,
                       CudaTile_IntTile:$acc,
                       CudaTile_SignednessAttr:$signedness_lhs,
                       CudaTile_SignednessAttr:$signedness_rhs);
  let results = (outs CudaTile_IntTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc custom<SignednessKeyword>($signedness_lhs)
    custom<SignednessKeyword>($signedness_rhs) attr-dict `:`
    custom<CudaTileType>(type($lhs)) `,` custom<CudaTileType>(type($rhs)) `,`
    custom<CudaTileType>(type($acc))
  }];
  let hasVerifier = 1;
}

def CudaTile_MmaFScaledOp : CudaTile_Op<"mmaf_scaled", [Pure,
    AllTypesMatch<["acc", "result"]>]> {
  let summary = "block-scaled floating-point matrix multiply-accumulate";
  let arguments = (ins CudaTile_FloatTile:$lhs, CudaTile_FloatTile:$rhs,
                       CudaTile_FloatTile:$acc, CudaTile_FloatTile:$lhs_scale,
                       CudaTile_FloatTile:$rhs_scale);
  let results = (outs CudaTile_FloatTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc `,` $lhs_scale `,` $rhs_scale attr-dict `:`
    custom<CudaTileType>(type($lhs)) `,` custom<CudaTileType>(type($rhs)) `,`
    custom<CudaTileType>(type($acc)) `,` custom<CudaTileType>(type($lhs_scale)) `,`
    custom<CudaTileType>(type($rhs_scale))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Bytecode 13.4 ops (cuTile Python's writer): insert, grid dependency control
// and the alias memory fence.
//===----------------------------------------------------------------------===//

def CudaTile_InsertOp : CudaTile_Op<"insert", [Pure,
    AllTypesMatch<["destination", "result"]>,
    AllRanksMatch<["source", "destination"]>]> {
  let summary = "a copy of `destination` with `source` written at a block index";
  let description = [{
    The inverse of `extract`: `destination` is viewed as a grid of blocks of
    the source's shape, and `indices` (one per dimension) select the block
    that `source` replaces.
  }];
  let arguments = (ins CudaTile_AnyTile:$source, CudaTile_AnyTile:$destination,
                       Variadic<CudaTile_ScalarI32Tile>:$indices);
  let results = (outs CudaTile_AnyTile:$result);
  let assemblyFormat = [{
    $source `into` $destination `[` $indices `]` attr-dict
    `:` custom<CudaTileType>(type($source)) `->` custom<CudaTileType>(type($result))
  }];
  let hasVerifier = 1;
}

/// Grid dependency control (programmatic dependent launch): an optional input
/// token orders the op after earlier memory ops; the result token orders
/// later ones after it.
class CudaTile_GdcTkoOp<string mnemonic, string summaryText>
    : CudaTile_Op<mnemonic> {
  let summary = summaryText;
  let arguments = (ins Optional<CudaTile_TokenType>:$token);
  let results = (outs CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    (`token` `` `=` `` $token^)? attr-dict
    `:` custom<CudaTileType>(type($result_token))
  }];
}

def CudaTile_GdcLaunchDependentsTkoOp
    : CudaTile_GdcTkoOp<"gdc_launch_dependents_tko",
                        "allow the grids that depend on this one to launch">;
def CudaTile_GdcWaitTkoOp
    : CudaTile_GdcTkoOp<"gdc_wait_tko",
                        "wait until the grids this one depends on have completed">;

def CudaTile_MemoryFenceAliasTkoOp : CudaTile_Op<"memory_fence_alias_tko"> {
  let summary = "order memory ops through aliasing views after `token`";
  let arguments = (ins CudaTile_TokenType:$token);
  let results = (outs CudaTile_TokenType:$result_token);
  let assemblyFormat = [{
    `token` `` `=` `` $token attr-dict `:` custom<CudaTileType>(type($result_token))
  }];
}

#endif // TILEPIPE_CUDATILE_OPS_TD
