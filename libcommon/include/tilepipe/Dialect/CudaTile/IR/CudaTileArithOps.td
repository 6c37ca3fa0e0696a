//===- CudaTileArithOps.td - cuda_tile elementwise, conversion, shape ops -===//
//
// The elementwise arithmetic and math ops, the conversions and the shape ops
// of NVIDIA's cuda_tile dialect. Text reads and prints exactly as NVIDIA's
// cuda-tile-opt does: rounding modes equal to the op's default are elided,
// integer overflow flags print as `overflow<no_wrap>`, signedness and
// comparison predicates as bare keywords.
//
// Ops are grouped in families sharing one TableGen class each; the C++ side
// holds the custom directives (CudaTileArithOps.cpp), the verifiers with
// NVIDIA's diagnostics (CudaTileArithVerifiers.cpp) and the folds
// (CudaTileArithFolders.cpp).
//
// Versions: atan2 is 13.2, pack/unpack 13.3, powi 13.4 (cuTile's `FPowI`;
// no NVIDIA printer exists for it yet, so its spelling `powi %x, %n :
// tile<..xf32>, tile<..xi32>` is ours). negi's `overflow` and tanh's
// `rounding_mode` are 13.2 additions and exp's `rounding_mode` is 13.3; the
// dialect always carries them, with the defaults an older file implies.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_CUDATILE_ARITHOPS_TD
#define TILEPIPE_CUDATILE_ARITHOPS_TD

include "tilepipe/Dialect/CudaTile/IR/CudaTileBase.td"
include "tilepipe/Dialect/CudaTile/IR/CudaTileTypes.td"
include "tilepipe/Dialect/CudaTile/IR/CudaTileAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Element and tile constraints
//===----------------------------------------------------------------------===//

// Element types named as NVIDIA's verifier messages name them ("tile of f16
// or bf16 or f32 or f64 values"), not with MLIR's builtin summaries.
class CudaTileArith_Elem<string pred, string name> : Type<CPred<pred>, name>;

def CudaTileArith_I1 : CudaTileArith_Elem<"$_self.isSignlessInteger(1)", "i1">;
def CudaTileArith_I4 : CudaTileArith_Elem<"$_self.isSignlessInteger(4)", "i4">;
def CudaTileArith_I8 : CudaTileArith_Elem<"$_self.isSignlessInteger(8)", "i8">;
def CudaTileArith_I16 : CudaTileArith_Elem<"$_self.isSignlessInteger(16)", "i16">;
def CudaTileArith_I32 : CudaTileArith_Elem<"$_self.isSignlessInteger(32)", "i32">;
def CudaTileArith_I64 : CudaTileArith_Elem<"$_self.isSignlessInteger(64)", "i64">;
def CudaTileArith_F16 : CudaTileArith_Elem<"$_self.isF16()", "f16">;
def CudaTileArith_BF16 : CudaTileArith_Elem<"$_self.isBF16()", "bf16">;
def CudaTileArith_F32 : CudaTileArith_Elem<"$_self.isF32()", "f32">;
def CudaTileArith_F64 : CudaTileArith_Elem<"$_self.isF64()", "f64">;
def CudaTileArith_TF32 : CudaTileArith_Elem<"$_self.isTF32()", "tf32">;
def CudaTileArith_F8E4M3FN
    : CudaTileArith_Elem<"::llvm::isa<::mlir::Float8E4M3FNType>($_self)", "f8E4M3FN">;
def CudaTileArith_F8E5M2
    : CudaTileArith_Elem<"::llvm::isa<::mlir::Float8E5M2Type>($_self)", "f8E5M2">;
def CudaTileArith_F8E8M0FNU
    : CudaTileArith_Elem<"::llvm::isa<::mlir::Float8E8M0FNUType>($_self)", "f8E8M0FNU">;
def CudaTileArith_F4E2M1FN
    : CudaTileArith_Elem<"::llvm::isa<::mlir::Float4E2M1FNType>($_self)", "f4E2M1FN">;
def CudaTileArith_Ptr
    : CudaTileArith_Elem<"::llvm::isa<::tilepipe::cuda_tile::PointerType>($_self)",
                         "Pointer type">;

defvar CudaTileArith_ArithInts = [CudaTileArith_I1, CudaTileArith_I8,
    CudaTileArith_I16, CudaTileArith_I32, CudaTileArith_I64];
// Conversions and byte packing also accept the sub-byte i4 (13.3).
defvar CudaTileArith_AllInts = [CudaTileArith_I1, CudaTileArith_I4,
    CudaTileArith_I8, CudaTileArith_I16, CudaTileArith_I32, CudaTileArith_I64];
defvar CudaTileArith_BaseFloats = [CudaTileArith_F16, CudaTileArith_BF16,
    CudaTileArith_F32, CudaTileArith_F64];
defvar CudaTileArith_AllFloats = [CudaTileArith_F16, CudaTileArith_BF16,
    CudaTileArith_F32, CudaTileArith_F64, CudaTileArith_TF32,
    CudaTileArith_F8E4M3FN, CudaTileArith_F8E5M2, CudaTileArith_F8E8M0FNU,
    CudaTileArith_F4E2M1FN];

def CudaTileArith_IntTile : CudaTile_TileOf<CudaTileArith_ArithInts>;
def CudaTileArith_AnyIntTile : CudaTile_TileOf<CudaTileArith_AllInts>;
def CudaTileArith_I64Tile : CudaTile_TileOf<[CudaTileArith_I64]>;
def CudaTileArith_I1Tile : CudaTile_TileOf<[CudaTileArith_I1]>;
def CudaTileArith_I8Tile : CudaTile_TileOf<[CudaTileArith_I8]>;
def CudaTileArith_BaseFloatTile : CudaTile_TileOf<CudaTileArith_BaseFloats>;
def CudaTileArith_FloatTile : CudaTile_TileOf<CudaTileArith_AllFloats>;
def CudaTileArith_NumberTile
    : CudaTile_TileOf<!listconcat(CudaTileArith_AllInts, CudaTileArith_AllFloats)>;
def CudaTileArith_PtrTile : CudaTile_TileOf<[CudaTileArith_Ptr]>;
def CudaTileArith_AnyTile : CudaTile_TileOf<!listconcat(CudaTileArith_AllFloats,
    CudaTileArith_AllInts, [CudaTileArith_Ptr])>;

//===----------------------------------------------------------------------===//
// Modifier attributes and their text
//===----------------------------------------------------------------------===//

class CudaTileArith_Rounding<string defaultMode>
    : DefaultValuedAttr<CudaTile_RoundingModeAttr,
                        "::tilepipe::cuda_tile::RoundingMode::" # defaultMode>;

def CudaTileArith_Overflow
    : DefaultValuedAttr<CudaTile_IntegerOverflowAttr,
                        "::tilepipe::cuda_tile::IntegerOverflow::NONE">;

// `rounding<mode>` after the operands; the op's default mode is elided.
// Each directive accepts only the modes NVIDIA's parser accepts for the op.
defvar IEEERoundingFormat = "custom<IEEERoundingMode>($rounding_mode)";
defvar FtzFormat = "(`flush_to_zero` $flush_to_zero^)?";
defvar OverflowFormat = "(`overflow` `` $overflow^)?";
defvar SignednessFormat = "custom<Signedness>($signedness)";

defvar IEEERoundingArgs = (ins CudaTileArith_Rounding<"NEAREST_EVEN">:$rounding_mode,
                               UnitAttr:$flush_to_zero);
defvar FtzArgs = (ins UnitAttr:$flush_to_zero);
defvar OverflowArgs = (ins CudaTileArith_Overflow:$overflow);
defvar SignednessArgs = (ins CudaTile_SignednessAttr:$signedness);

//===----------------------------------------------------------------------===//
// Op families
//===----------------------------------------------------------------------===//

/// One tile operand and a result of the same type; `modifiers` are the
/// op's attributes, printed by `modifierFormat` between operand and type.
class CudaTileArith_UnaryOp<string mnemonic, Type tileType,
                            dag modifiers = (ins), string modifierFormat = "",
                            list<Trait> traits = []>
    : CudaTile_Op<mnemonic, !listconcat([Pure,
          AllTypesMatch<["source", "result"]>], traits)> {
  let arguments = !con((ins tileType:$source), modifiers);
  let results = (outs tileType:$result);
  let assemblyFormat = "$source " # modifierFormat #
                       " attr-dict `:` custom<CudaTileType>(type($result))";
}

/// Two tile operands and a result, all of the same type.
class CudaTileArith_BinaryOp<string mnemonic, Type tileType,
                             dag modifiers = (ins), string modifierFormat = "",
                             list<Trait> traits = [],
                             string lhsName = "lhs", string rhsName = "rhs">
    : CudaTile_Op<mnemonic, !listconcat([Pure,
          AllTypesMatch<[lhsName, rhsName, "result"]>], traits)> {
  let arguments = !con(!dag(ins, [tileType, tileType], [lhsName, rhsName]),
                       modifiers);
  let results = (outs tileType:$result);
  let assemblyFormat = "$" # lhsName # " `,` $" # rhsName # " " #
      modifierFormat # " attr-dict `:` custom<CudaTileType>(type($result))";
}

class CudaTileArith_FloatUnaryOp<string mnemonic, dag modifiers = (ins),
                                 string modifierFormat = "">
    : CudaTileArith_UnaryOp<mnemonic, CudaTileArith_BaseFloatTile, modifiers,
                            modifierFormat>;

class CudaTileArith_FloatBinaryOp<string mnemonic, dag modifiers = (ins),
                                  string modifierFormat = "",
                                  string lhsName = "lhs", string rhsName = "rhs">
    : CudaTileArith_BinaryOp<mnemonic, CudaTileArith_BaseFloatTile, modifiers,
                             modifierFormat, [], lhsName, rhsName>;

class CudaTileArith_IntBinaryOp<string mnemonic, dag modifiers = (ins),
                                string modifierFormat = "",
                                string lhsName = "lhs", string rhsName = "rhs">
    : CudaTileArith_BinaryOp<mnemonic, CudaTileArith_IntTile, modifiers,
                             modifierFormat, [], lhsName, rhsName>;

/// A conversion `op %x : tile<A> -> tile<B>` between tiles of one shape.
class CudaTileArith_ConvertOp<string mnemonic, Type sourceType, Type resultType,
                              dag modifiers = (ins), string modifierFormat = "",
                              string sourceName = "source",
                              string resultName = "result">
    : CudaTile_Op<mnemonic, [Pure, AllShapesMatch<[sourceName, resultName]>]> {
  let arguments = !con(!dag(ins, [sourceType], [sourceName]), modifiers);
  let results = !dag(outs, [resultType], [resultName]);
  let assemblyFormat = "$" # sourceName # " " # modifierFormat #
      " attr-dict `:` custom<CudaTileType>(type($" # sourceName # "))" #
      " `->` custom<CudaTileType>(type($" # resultName # "))";
}

/// An op `op %x : tile<A> -> tile<B>` that reshapes or reinterprets a tile.
class CudaTileArith_ShapeOp<string mnemonic, Type sourceType, Type resultType,
                            list<Trait> traits = []>
    : CudaTile_Op<mnemonic, !listconcat([Pure], traits)> {
  let arguments = (ins sourceType:$source);
  let results = (outs resultType:$result);
  let assemblyFormat = "$source attr-dict `:` custom<CudaTileType>(type($source))"
                       " `->` custom<CudaTileType>(type($result))";
}

//===----------------------------------------------------------------------===//
// Floating-point arithmetic and math
//===----------------------------------------------------------------------===//

def CudaTile_AbsFOp : CudaTileArith_FloatUnaryOp<"absf">;
def CudaTile_CeilOp : CudaTileArith_FloatUnaryOp<"ceil">;
def CudaTile_CosOp : CudaTileArith_FloatUnaryOp<"cos">;
def CudaTile_CosHOp : CudaTileArith_FloatUnaryOp<"cosh">;
def CudaTile_FloorOp : CudaTileArith_FloatUnaryOp<"floor">;
def CudaTile_LogOp : CudaTileArith_FloatUnaryOp<"log">;
def CudaTile_Log2Op : CudaTileArith_FloatUnaryOp<"log2">;
def CudaTile_NegFOp : CudaTileArith_FloatUnaryOp<"negf">;
def CudaTile_SinOp : CudaTileArith_FloatUnaryOp<"sin">;
def CudaTile_SinHOp : CudaTileArith_FloatUnaryOp<"sinh">;
def CudaTile_TanOp : CudaTileArith_FloatUnaryOp<"tan">;

def CudaTile_Exp2Op : CudaTileArith_FloatUnaryOp<"exp2", FtzArgs, FtzFormat> {
  let hasVerifier = 1;
}
def CudaTile_RsqrtOp : CudaTileArith_FloatUnaryOp<"rsqrt", FtzArgs, FtzFormat> {
  let hasVerifier = 1;
}
def CudaTile_SqrtOp : CudaTileArith_FloatUnaryOp<"sqrt",
    (ins CudaTileArith_Rounding<"NEAREST_EVEN">:$rounding_mode,
         UnitAttr:$flush_to_zero),
    !strconcat("custom<SqrtRoundingMode>($rounding_mode) ", FtzFormat)> {
  let hasVerifier = 1;
}
// `exp` gained its rounding mode in 13.3 and `tanh` in 13.2; both default
// to `full` and also accept `approx`.
def CudaTile_ExpOp : CudaTileArith_FloatUnaryOp<"exp",
    (ins CudaTileArith_Rounding<"FULL">:$rounding_mode),
    "custom<ApproxOrFullRoundingMode>($rounding_mode)"> {
  let hasVerifier = 1;
}
def CudaTile_TanHOp : CudaTileArith_FloatUnaryOp<"tanh",
    (ins CudaTileArith_Rounding<"FULL">:$rounding_mode),
    "custom<ApproxOrFullRoundingMode>($rounding_mode)"> {
  let hasVerifier = 1;
}

def CudaTile_AddFOp : CudaTileArith_FloatBinaryOp<"addf", IEEERoundingArgs,
    !strconcat(IEEERoundingFormat, " ", FtzFormat)> {
  let hasVerifier = 1;
  // Puts a `mulf` operand on the left, where FMA fusion looks for it.
  let hasCanonicalizeMethod = 1;
  // Adds two finite constants.
  let hasFolder = 1;
}
def CudaTile_SubFOp : CudaTileArith_FloatBinaryOp<"subf", IEEERoundingArgs,
    !strconcat(IEEERoundingFormat, " ", FtzFormat)> {
  let hasVerifier = 1;
}
def CudaTile_MulFOp : CudaTileArith_FloatBinaryOp<"mulf", IEEERoundingArgs,
    !strconcat(IEEERoundingFormat, " ", FtzFormat)> {
  let hasVerifier = 1;
}
def CudaTile_DivFOp : CudaTileArith_FloatBinaryOp<"divf", IEEERoundingArgs,
    !strconcat("custom<DivFRoundingMode>($rounding_mode) ", FtzFormat)> {
  let hasVerifier = 1;
}
def CudaTile_RemFOp : CudaTileArith_FloatBinaryOp<"remf">;
def CudaTile_PowOp : CudaTileArith_FloatBinaryOp<"pow", (ins), "",
                                                 "source", "exponent">;
// 13.2.
def CudaTile_Atan2Op : CudaTileArith_FloatBinaryOp<"atan2">;

defvar MinMaxFArgs = (ins UnitAttr:$propagate_nan, UnitAttr:$flush_to_zero);
defvar MinMaxFFormat =
    "oilist(`flush_to_zero` $flush_to_zero | `propagate_nan` $propagate_nan)";
def CudaTile_MaxFOp : CudaTileArith_FloatBinaryOp<"maxf", MinMaxFArgs,
                                                  MinMaxFFormat> {
  let hasVerifier = 1;
}
def CudaTile_MinFOp : CudaTileArith_FloatBinaryOp<"minf", MinMaxFArgs,
                                                  MinMaxFFormat> {
  let hasVerifier = 1;
}

def CudaTile_FmaOp : CudaTile_Op<"fma", [Pure,
    AllTypesMatch<["lhs", "rhs", "acc", "result"]>]> {
  let arguments = !con((ins CudaTileArith_BaseFloatTile:$lhs,
                            CudaTileArith_BaseFloatTile:$rhs,
                            CudaTileArith_BaseFloatTile:$acc), IEEERoundingArgs);
  let results = (outs CudaTileArith_BaseFloatTile:$result);
  let assemblyFormat = !strconcat("$lhs `,` $rhs `,` $acc ", IEEERoundingFormat,
      " ", FtzFormat, " attr-dict `:` custom<CudaTileType>(type($result))");
  let hasVerifier = 1;
}

def CudaTile_CmpFOp : CudaTile_Op<"cmpf", [Pure, AllTypesMatch<["lhs", "rhs"]>,
    TypesMatchWith<"Result type has i1 element type and same shape as operands",
                   "lhs", "result", "::tilepipe::cuda_tile::getI1SameShape($_self)">]> {
  let arguments = (ins CudaTile_ComparisonPredicateAttr:$comparison_predicate,
                       CudaTile_ComparisonOrderingAttr:$comparison_ordering,
                       CudaTileArith_BaseFloatTile:$lhs,
                       CudaTileArith_BaseFloatTile:$rhs);
  let results = (outs CudaTileArith_I1Tile:$result);
  let assemblyFormat = [{
    custom<ComparisonPredicate>($comparison_predicate)
    custom<ComparisonOrdering>($comparison_ordering) $lhs `,` $rhs attr-dict
    `:` custom<CudaTileType>(type($lhs)) `->` custom<CudaTileType>(type($result))
  }];
}

// 13.4 (cuTile's `FPowI`): a float tile raised to an integer tile.
def CudaTile_PowIOp : CudaTile_Op<"powi", [Pure,
    AllTypesMatch<["source", "result"]>, AllShapesMatch<["source", "exponent"]>]> {
  let arguments = (ins CudaTileArith_BaseFloatTile:$source,
                       CudaTileArith_IntTile:$exponent);
  let results = (outs CudaTileArith_BaseFloatTile:$result);
  let assemblyFormat = [{
    $source `,` $exponent attr-dict `:` custom<CudaTileType>(type($source))
    `,` custom<CudaTileType>(type($exponent))
  }];
}

//===----------------------------------------------------------------------===//
// Integer arithmetic, logic and shifts
//===----------------------------------------------------------------------===//

def CudaTile_AbsIOp : CudaTileArith_UnaryOp<"absi", CudaTileArith_IntTile>;
// `overflow` since 13.2; the op is signed, so `no_unsigned_wrap` is rejected.
def CudaTile_NegIOp : CudaTileArith_UnaryOp<"negi", CudaTileArith_IntTile,
                                            OverflowArgs, OverflowFormat> {
  let hasVerifier = 1;
}

def CudaTile_AddIOp : CudaTileArith_IntBinaryOp<"addi", OverflowArgs, OverflowFormat>;
def CudaTile_SubIOp : CudaTileArith_IntBinaryOp<"subi", OverflowArgs, OverflowFormat>;
def CudaTile_MulIOp : CudaTileArith_IntBinaryOp<"muli", OverflowArgs, OverflowFormat>;
def CudaTile_ShLIOp : CudaTileArith_IntBinaryOp<"shli", OverflowArgs, OverflowFormat>;

def CudaTile_MaxIOp : CudaTileArith_IntBinaryOp<"maxi", SignednessArgs, SignednessFormat>;
def CudaTile_MinIOp : CudaTileArith_IntBinaryOp<"mini", SignednessArgs, SignednessFormat>;
def CudaTile_RemIOp : CudaTileArith_IntBinaryOp<"remi", SignednessArgs, SignednessFormat>;
def CudaTile_ShRIOp : CudaTileArith_IntBinaryOp<"shri", SignednessArgs, SignednessFormat>;
def CudaTile_DivIOp : CudaTileArith_IntBinaryOp<"divi",
    !con(SignednessArgs, (ins CudaTileArith_Rounding<"ZERO">:$rounding)),
    !strconcat(SignednessFormat, " (`rounding` `` $rounding^)?")> {
  let hasVerifier = 1;
}

def CudaTile_MulhiIOp : CudaTileArith_IntBinaryOp<"mulhii", (ins), "", "x", "y">;
def CudaTile_AndIOp : CudaTileArith_IntBinaryOp<"andi">;
def CudaTile_OrIOp : CudaTileArith_IntBinaryOp<"ori">;
def CudaTile_XOrIOp : CudaTileArith_IntBinaryOp<"xori">;

def CudaTile_CmpIOp : CudaTile_Op<"cmpi", [Pure, AllTypesMatch<["lhs", "rhs"]>,
    TypesMatchWith<"Result type has i1 element type and same shape as operands",
                   "lhs", "result", "::tilepipe::cuda_tile::getI1SameShape($_self)">]> {
  let arguments = (ins CudaTile_ComparisonPredicateAttr:$comparison_predicate,
                       CudaTileArith_IntTile:$lhs, CudaTileArith_IntTile:$rhs,
                       CudaTile_SignednessAttr:$signedness);
  let results = (outs CudaTileArith_I1Tile:$result);
  let assemblyFormat = [{
    custom<ComparisonPredicate>($comparison_predicate) $lhs `,` $rhs `,`
    custom<Signedness>($signedness) attr-dict
    `:` custom<CudaTileType>(type($lhs)) `->` custom<CudaTileType>(type($result))
  }];
}

def CudaTile_SelectOp : CudaTile_Op<"select", [Pure,
    AllTypesMatch<["val_if_true", "val_if_false", "result"]>,
    AllShapesMatch<["cond", "val_if_true", "val_if_false", "result"]>]> {
  let arguments = (ins CudaTileArith_I1Tile:$cond,
                       CudaTileArith_AnyTile:$val_if_true,
                       CudaTileArith_AnyTile:$val_if_false);
  let results = (outs CudaTileArith_AnyTile:$result);
  let assemblyFormat = [{
    $cond `,` $val_if_true `,` $val_if_false attr-dict `:`
    custom<CudaTileType>(type($cond)) `,` custom<CudaTileType>(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

def CudaTile_BitcastOp : CudaTileArith_ConvertOp<"bitcast",
    CudaTileArith_NumberTile, CudaTileArith_NumberTile> {
  let hasVerifier = 1;
}
def CudaTile_ExtIOp : CudaTileArith_ConvertOp<"exti", CudaTileArith_AnyIntTile,
    CudaTileArith_AnyIntTile, SignednessArgs, SignednessFormat, "from", "to"> {
  let hasVerifier = 1;
}
def CudaTile_TruncIOp : CudaTileArith_ConvertOp<"trunci", CudaTileArith_AnyIntTile,
    CudaTileArith_AnyIntTile, OverflowArgs, OverflowFormat, "from", "to"> {
  let hasVerifier = 1;
}
def CudaTile_FToFOp : CudaTileArith_ConvertOp<"ftof", CudaTileArith_FloatTile,
    CudaTileArith_FloatTile,
    (ins CudaTileArith_Rounding<"NEAREST_EVEN">:$rounding_mode),
    IEEERoundingFormat, "from", "to"> {
  let hasVerifier = 1;
}
def CudaTile_FToIOp : CudaTileArith_ConvertOp<"ftoi", CudaTileArith_FloatTile,
    CudaTileArith_AnyIntTile,
    !con(SignednessArgs,
         (ins CudaTileArith_Rounding<"NEAREST_INT_TO_ZERO">:$rounding_mode)),
    !strconcat(SignednessFormat, " custom<IntegerRoundingMode>($rounding_mode)"),
    "from", "to"> {
  let hasVerifier = 1;
}
def CudaTile_IToFOp : CudaTileArith_ConvertOp<"itof", CudaTileArith_AnyIntTile,
    CudaTileArith_FloatTile,
    !con(SignednessArgs,
         (ins CudaTileArith_Rounding<"NEAREST_EVEN">:$rounding_mode)),
    !strconcat(SignednessFormat, " ", IEEERoundingFormat), "from", "to"> {
  let hasVerifier = 1;
}
def CudaTile_IntToPtrOp : CudaTileArith_ConvertOp<"int_to_ptr",
    CudaTileArith_I64Tile, CudaTileArith_PtrTile>;
def CudaTile_PtrToIntOp : CudaTileArith_ConvertOp<"ptr_to_int",
    CudaTileArith_PtrTile, CudaTileArith_I64Tile>;
def CudaTile_PtrToPtrOp : CudaTileArith_ConvertOp<"ptr_to_ptr",
    CudaTileArith_PtrTile, CudaTileArith_PtrTile>;

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def CudaTile_BroadcastOp : CudaTileArith_ShapeOp<"broadcast",
    CudaTileArith_AnyTile, CudaTileArith_AnyTile,
    [SameOperandsAndResultElementType, AllRanksMatch<["source", "result"]>,
     DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let hasVerifier = 1;
}
def CudaTile_ReshapeOp : CudaTileArith_ShapeOp<"reshape",
    CudaTileArith_AnyTile, CudaTileArith_AnyTile,
    [SameOperandsAndResultElementType,
     DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let hasVerifier = 1;
}
// 13.3: reinterpret a tile of numbers as bytes and back.
def CudaTile_PackOp : CudaTileArith_ShapeOp<"pack",
    CudaTileArith_NumberTile, CudaTileArith_I8Tile> {
  let hasVerifier = 1;
}
def CudaTile_UnpackOp : CudaTileArith_ShapeOp<"unpack",
    CudaTileArith_I8Tile, CudaTileArith_NumberTile> {
  let hasVerifier = 1;
}

def CudaTile_CatOp : CudaTile_Op<"cat", [Pure,
    AllRanksMatch<["lhs", "rhs", "result"]>,
    AllElementTypesMatch<["lhs", "rhs", "result"]>]> {
  let arguments = (ins CudaTileArith_AnyTile:$lhs, CudaTileArith_AnyTile:$rhs,
                       I64Attr:$dim);
  let results = (outs CudaTileArith_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `dim` `=` $dim attr-dict `:` custom<CudaTileType>(type($lhs))
    `,` custom<CudaTileType>(type($rhs)) `->` custom<CudaTileType>(type($result))
  }];
  let hasVerifier = 1;
}

def CudaTile_ExtractOp : CudaTile_Op<"extract", [Pure,
    AllRanksMatch<["source", "result"]>]> {
  let arguments = (ins CudaTileArith_AnyTile:$source,
                       Variadic<CudaTile_ScalarI32Tile>:$indices);
  let results = (outs CudaTileArith_AnyTile:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` custom<CudaTileType>(type($source))
    `->` custom<CudaTileType>(type($result))
  }];
  let hasVerifier = 1;
}

def CudaTile_IotaOp : CudaTile_Op<"iota", [Pure]> {
  let results = (outs CudaTileArith_IntTile:$result);
  let assemblyFormat = "attr-dict `:` custom<CudaTileType>(type($result))";
  let hasVerifier = 1;
}

def CudaTile_PermuteOp : CudaTile_Op<"permute", [Pure,
    AllElementTypesMatch<["source", "result"]>,
    AllRanksMatch<["source", "result"]>]> {
  let arguments = (ins CudaTileArith_AnyTile:$source,
                       DenseI32ArrayAttr:$permutation);
  let results = (outs CudaTileArith_AnyTile:$result);
  let assemblyFormat = [{
    $source $permutation attr-dict `:` custom<CudaTileType>(type($source))
    `->` custom<CudaTileType>(type($result))
  }];
  let hasVerifier = 1;
}

#endif // TILEPIPE_CUDATILE_ARITHOPS_TD
