//===- TileAAMiscOps.td - pointer casts, globals, print and assert -------===//
//
// Included from TileAA.td. The ops carry no tokens: each keeps its place in
// program order, which is what orders it against the memory ops around it.
// tile-lower's tile_aa -> tile_as step mirrors each onto the tile_as op of
// the same name.
//
//===----------------------------------------------------------------------===//

class TileAA_CastOp<string mnemonic, Type sourceType, Type resultType>
    : TileAA_Op<mnemonic, [Pure]> {
  let arguments = (ins sourceType:$src);
  let results = (outs resultType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TileAA_IntToPtrOp : TileAA_CastOp<"int_to_ptr", TileAA_IntLike, TileAA_PtrLike> {
  let summary = "i64 addresses as pointers";
}
def TileAA_PtrToIntOp : TileAA_CastOp<"ptr_to_int", TileAA_PtrLike, TileAA_IntLike> {
  let summary = "pointers as i64 addresses";
}
def TileAA_PtrToPtrOp : TileAA_CastOp<"ptr_to_ptr", TileAA_PtrLike, TileAA_PtrLike> {
  let summary = "the same addresses as pointers to another element type or address space";
}

def TileAA_ToScalarOp : TileAA_Op<"to_scalar", [Pure,
    TypesMatchWith<"result is the element type", "src", "result",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "the element of a one-element tensor as a scalar";
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      if (getSrc().getType().getNumElements() != 1)
        return emitOpError("source must have exactly one element");
      return ::mlir::success();
    }
  }];
}

def TileAA_GlobalOp : TileAA_Op<"global"> {
  let summary = "a module-level array in global memory with its initializer";
  let description = [{
    `value` holds the elements in row-major order; `constant` globals are
    never written; `internal` ones are not visible outside the module.
  }];
  let arguments = (ins StrAttr:$sym_name, ElementsAttr:$value,
                       OptionalAttr<I64Attr>:$alignment, UnitAttr:$constant,
                       UnitAttr:$internal);
  let assemblyFormat = "$sym_name attr-dict `=` $value";
}

def TileAA_AllocaOp : TileAA_Op<"alloca", [MemoryEffects<[MemAlloc]>]> {
  let summary = "a tile block's private scratch buffer";
  let description = [{
    `num_elem` elements of the result's pointee, aligned to `alignment`
    bytes, for the life of the kernel (one buffer per op: a cuda_tile
    alloca's lifetime ends with its block, so reusing the buffer on each
    execution is what it allows).

    Without `global` the buffer is in the CTA's shared memory and the result
    is its generic address (address space 0). With `global` it is in global
    memory, where other tile blocks may reach it: the grid size is a launch
    parameter, so no static allocation can hold a buffer per tile block, and
    the buffer comes from the device heap (`malloc` by one thread at kernel
    entry, its address shared through shared memory, `free` at each return;
    an exhausted heap traps). The result is then a global pointer.
  }];
  let arguments = (ins I64Attr:$num_elem, I64Attr:$alignment, UnitAttr:$global);
  let results = (outs TileAA_PtrType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileAA_GetGlobalOp : TileAA_Op<"get_global", [Pure]> {
  let summary = "the address of a global";
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs TileAA_PtrType:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

def TileAA_PrintOp : TileAA_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "printf once per tile block; a tensor prints as a nested list";
  let description = [{
    Each conversion of `format` takes one argument. A tensor argument prints
    as `[e0, e1, ...]` (nested per dimension), the conversion applied to each
    element.
  }];
  let arguments = (ins StrAttr:$format, Variadic<AnyType>:$args);
  let assemblyFormat = "$format (`,` $args^ `:` type($args))? attr-dict";
}

def TileAA_AssertOp : TileAA_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "traps with `message` when any element of the condition is false";
  let arguments = (ins AnyTypeOf<[I1, TileAA_MaskTensor]>:$condition,
                       StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}
