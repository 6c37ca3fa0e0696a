//===- TileASMiscOps.td - pointer casts, globals, print and assert -------===//
//
// Included from TileAS.td. The tile_aa ops of the same names, mirrored; they
// lower to LLVM in tile-llvm (TileASToLLVM/MiscToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

class TileAS_CastOp<string mnemonic, Type sourceType, Type resultType>
    : TileAS_Op<mnemonic, [Pure]> {
  let arguments = (ins sourceType:$src);
  let results = (outs resultType:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def TileAS_IntToPtrOp : TileAS_CastOp<"int_to_ptr", TileAS_IntLike, TileAS_PtrLike> {
  let summary = "i64 addresses as pointers";
}
def TileAS_PtrToIntOp : TileAS_CastOp<"ptr_to_int", TileAS_PtrLike, TileAS_IntLike> {
  let summary = "pointers as i64 addresses";
}
def TileAS_PtrToPtrOp : TileAS_CastOp<"ptr_to_ptr", TileAS_PtrLike, TileAS_PtrLike> {
  let summary = "the same addresses as pointers to another element type or address space";
}

def TileAS_ToScalarOp : TileAS_Op<"to_scalar", [Pure,
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

def TileAS_GlobalOp : TileAS_Op<"global"> {
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

def TileAS_AllocaOp : TileAS_Op<"alloca", [MemoryEffects<[MemAlloc]>]> {
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
  let results = (outs TileAS_PtrType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileAS_GetGlobalOp : TileAS_Op<"get_global", [Pure]> {
  let summary = "the address of a global";
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs TileAS_PtrType:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

def TileAS_PrintOp : TileAS_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "printf once per tile block; a tensor prints as a nested list";
  let description = [{
    Each conversion of `format` takes one argument. A tensor argument prints
    as `[e0, e1, ...]` (nested per dimension), the conversion applied to each
    element.
  }];
  let arguments = (ins StrAttr:$format, Variadic<AnyType>:$args);
  let assemblyFormat = "$format (`,` $args^ `:` type($args))? attr-dict";
}

def TileAS_AssertOp : TileAS_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "traps with `message` when any element of the condition is false";
  let arguments = (ins AnyTypeOf<[I1, TileAS_MaskTensor]>:$condition,
                       StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}
