//===- CudaTileAttrs.td - cuda_tile enums and attributes ------------------===//
//
// Enums (C++ enum class in ::tilepipe::cuda_tile; value numbers are the
// bytecode wire values) and their attributes:
//   RoundingMode            CudaTile_RoundingModeAttr        #cuda_tile.rounding<zero>
//   IntegerOverflow         CudaTile_IntegerOverflowAttr     #cuda_tile.overflow<no_wrap>
//   Signedness              CudaTile_SignednessAttr          #cuda_tile.signedness<signed>
//   ComparisonPredicate     CudaTile_ComparisonPredicateAttr #cuda_tile.comparison_predicate<equal>
//   ComparisonOrdering      CudaTile_ComparisonOrderingAttr  #cuda_tile.comparison_ordering<ordered>
//   MemoryOrderingSemantics CudaTile_MemoryOrderingSemanticsAttr (bare keyword: weak)
//   MemoryScope             CudaTile_MemoryScopeAttr         (bare keyword: device)
//   AtomicRMWMode           CudaTile_AtomicRMWModeAttr       (bare keyword: addf)
//   PaddingValue            CudaTile_PaddingValueAttr        (bare keyword: nan)
//   SymbolVisibility        CudaTile_SymbolVisibilityAttr    (bare keyword: private)
// The first five print `<value>` after their mnemonic (as NVIDIA's do); the
// last five print the bare keyword, so `$attr` in an op format prints `weak`.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_CUDATILE_ATTRS_TD
#define TILEPIPE_CUDATILE_ATTRS_TD

include "tilepipe/Dialect/CudaTile/IR/CudaTileBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class CudaTile_I32Enum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tilepipe::cuda_tile";
}

/// An enum attribute printed as `mnemonic<value>`.
class CudaTile_BracketedEnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<CudaTile_Dialect, info, mnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

/// An enum attribute printed as the bare keyword inside ops.
class CudaTile_KeywordEnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<CudaTile_Dialect, info, mnemonic>;

def CudaTile_RoundingMode : CudaTile_I32Enum<"RoundingMode", "rounding mode", [
    I32EnumAttrCase<"NEAREST_EVEN", 0, "nearest_even">,
    I32EnumAttrCase<"ZERO", 1, "zero">,
    I32EnumAttrCase<"NEGATIVE_INF", 2, "negative_inf">,
    I32EnumAttrCase<"POSITIVE_INF", 3, "positive_inf">,
    I32EnumAttrCase<"APPROX", 4, "approx">,
    I32EnumAttrCase<"FULL", 5, "full">,
    I32EnumAttrCase<"NEAREST_INT_TO_ZERO", 6, "nearest_int_to_zero">]>;
def CudaTile_RoundingModeAttr
    : CudaTile_BracketedEnumAttr<CudaTile_RoundingMode, "rounding">;

def CudaTile_IntegerOverflow : CudaTile_I32Enum<"IntegerOverflow", "integer overflow", [
    I32EnumAttrCase<"NONE", 0, "none">,
    I32EnumAttrCase<"NSW", 1, "no_signed_wrap">,
    I32EnumAttrCase<"NUW", 2, "no_unsigned_wrap">,
    I32EnumAttrCase<"NW", 3, "no_wrap">]>;
def CudaTile_IntegerOverflowAttr
    : CudaTile_BracketedEnumAttr<CudaTile_IntegerOverflow, "overflow">;

def CudaTile_Signedness : CudaTile_I32Enum<"Signedness", "signedness", [
    I32EnumAttrCase<"Unsigned", 0, "unsigned">,
    I32EnumAttrCase<"Signed", 1, "signed">]>;
def CudaTile_SignednessAttr
    : CudaTile_BracketedEnumAttr<CudaTile_Signedness, "signedness">;

def CudaTile_ComparisonPredicate
    : CudaTile_I32Enum<"ComparisonPredicate", "comparison predicate", [
    I32EnumAttrCase<"EQUAL", 0, "equal">,
    I32EnumAttrCase<"NOT_EQUAL", 1, "not_equal">,
    I32EnumAttrCase<"LESS_THAN", 2, "less_than">,
    I32EnumAttrCase<"LESS_THAN_OR_EQUAL", 3, "less_than_or_equal">,
    I32EnumAttrCase<"GREATER_THAN", 4, "greater_than">,
    I32EnumAttrCase<"GREATER_THAN_OR_EQUAL", 5, "greater_than_or_equal">]>;
def CudaTile_ComparisonPredicateAttr
    : CudaTile_BracketedEnumAttr<CudaTile_ComparisonPredicate, "comparison_predicate">;

def CudaTile_ComparisonOrdering
    : CudaTile_I32Enum<"ComparisonOrdering", "comparison ordering", [
    I32EnumAttrCase<"UNORDERED", 0, "unordered">,
    I32EnumAttrCase<"ORDERED", 1, "ordered">]>;
def CudaTile_ComparisonOrderingAttr
    : CudaTile_BracketedEnumAttr<CudaTile_ComparisonOrdering, "comparison_ordering">;

def CudaTile_MemoryOrderingSemantics
    : CudaTile_I32Enum<"MemoryOrderingSemantics", "memory ordering semantics", [
    I32EnumAttrCase<"WEAK", 0, "weak">,
    I32EnumAttrCase<"RELAXED", 1, "relaxed">,
    I32EnumAttrCase<"ACQUIRE", 2, "acquire">,
    I32EnumAttrCase<"RELEASE", 3, "release">,
    I32EnumAttrCase<"ACQ_REL", 4, "acq_rel">]>;
def CudaTile_MemoryOrderingSemanticsAttr
    : CudaTile_KeywordEnumAttr<CudaTile_MemoryOrderingSemantics,
                               "memory_ordering_semantics">;

def CudaTile_MemoryScope : CudaTile_I32Enum<"MemoryScope", "memory scope", [
    I32EnumAttrCase<"TL_BLK", 0, "tl_blk">,
    I32EnumAttrCase<"DEVICE", 1, "device">,
    I32EnumAttrCase<"SYS", 2, "sys">]>;
def CudaTile_MemoryScopeAttr
    : CudaTile_KeywordEnumAttr<CudaTile_MemoryScope, "memory_scope">;

def CudaTile_AtomicRMWMode : CudaTile_I32Enum<"AtomicRMWMode", "atomic read-modify-write mode", [
    I32EnumAttrCase<"AND", 0, "and">,
    I32EnumAttrCase<"OR", 1, "or">,
    I32EnumAttrCase<"XOR", 2, "xor">,
    I32EnumAttrCase<"ADD", 3, "add">,
    I32EnumAttrCase<"ADDF", 4, "addf">,
    I32EnumAttrCase<"MAX", 5, "max">,
    I32EnumAttrCase<"MIN", 6, "min">,
    I32EnumAttrCase<"UMAX", 7, "umax">,
    I32EnumAttrCase<"UMIN", 8, "umin">,
    I32EnumAttrCase<"XCHG", 9, "xchg">]>;
def CudaTile_AtomicRMWModeAttr
    : CudaTile_KeywordEnumAttr<CudaTile_AtomicRMWMode, "atomic_rmw_mode">;

def CudaTile_PaddingValue : CudaTile_I32Enum<"PaddingValue", "out-of-bounds load value", [
    I32EnumAttrCase<"zero", 0, "zero">,
    I32EnumAttrCase<"neg_zero", 1, "neg_zero">,
    I32EnumAttrCase<"nan", 2, "nan">,
    I32EnumAttrCase<"pos_inf", 3, "pos_inf">,
    I32EnumAttrCase<"neg_inf", 4, "neg_inf">]>;
def CudaTile_PaddingValueAttr
    : CudaTile_KeywordEnumAttr<CudaTile_PaddingValue, "padding_value">;

def CudaTile_SymbolVisibility : CudaTile_I32Enum<"SymbolVisibility", "symbol visibility", [
    I32EnumAttrCase<"PUBLIC", 0, "public">,
    I32EnumAttrCase<"PRIVATE", 1, "private">]>;
def CudaTile_SymbolVisibilityAttr
    : CudaTile_KeywordEnumAttr<CudaTile_SymbolVisibility, "symbol_visibility">;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

class CudaTile_Attr<string name, string attrMnemonic, list<Trait> traits = [],
                    string baseCppClass = "::mlir::Attribute">
    : AttrDef<CudaTile_Dialect, name, traits, baseCppClass> {
  let mnemonic = attrMnemonic;
}

// Predicates of `assume`.
def CudaTile_DivByAttr : CudaTile_Attr<"DivBy", "div_by"> {
  let summary = "values (or the base address) are divisible by a power of two";
  let parameters = (ins "uint64_t":$divisor,
                        OptionalParameter<"std::optional<int64_t>">:$every,
                        OptionalParameter<"std::optional<int64_t>">:$along);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def CudaTile_SameElementsAttr : CudaTile_Attr<"SameElements", "same_elements"> {
  let summary = "groups of this size along each dimension hold equal values";
  let parameters = (ins "::mlir::DenseI64ArrayAttr":$values);
  let assemblyFormat = "`<` $values `>`";
}

def CudaTile_BoundedAttr : CudaTile_Attr<"Bounded", "bounded"> {
  let summary = "inclusive signed bounds of every element";
  let parameters = (ins OptionalParameter<"std::optional<int64_t>">:$lb,
                        OptionalParameter<"std::optional<int64_t>">:$ub);
  let assemblyFormat = "`<` ($lb^) : (`?`)? `,` ($ub^) : (`?`)? `>`";
  let genVerifyDecl = 1;
}

def CudaTile_AssumePredicateAttr
    : AnyAttrOf<[CudaTile_DivByAttr, CudaTile_SameElementsAttr, CudaTile_BoundedAttr]>;

// Per-architecture compiler hints: `<sm_100 = {latency = 2}, ...>`.
def CudaTile_OptimizationHintsAttr
    : CudaTile_Attr<"OptimizationHints", "optimization_hints"> {
  let summary = "per-architecture optimization hints";
  let parameters = (ins "::mlir::DictionaryAttr":$value);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Checks the hints against what `op` accepts (entry: num_cta_in_cga,
    /// num_worker_warps_per_cta, occupancy; loads/stores: latency; view
    /// loads/stores also allow_tma) and their value ranges. Reports as the
    /// dialect's hint diagnostics say; fails only with -Werr-hints.
    ::mlir::LogicalResult verifyWithOp(::mlir::Operation *op) const;
  }];
}

// Debug information (printed by NVIDIA's tools as #cuda_tile.di_*).
class CudaTile_DIScopeAttr<string name, string attrMnemonic>
    : CudaTile_Attr<name, attrMnemonic>;

def CudaTile_DIFileAttr : CudaTile_DIScopeAttr<"DIFile", "di_file"> {
  let parameters = (ins "::mlir::StringAttr":$name, "::mlir::StringAttr":$directory);
  let assemblyFormat = "`<` $name `in` $directory `>`";
}

def CudaTile_DICompileUnitAttr
    : CudaTile_DIScopeAttr<"DICompileUnit", "di_compile_unit"> {
  let parameters = (ins "DIFileAttr":$file);
  let assemblyFormat = "`<` struct(params) `>`";
}

def CudaTile_DISubprogramAttr
    : CudaTile_DIScopeAttr<"DISubprogram", "di_subprogram"> {
  let parameters = (ins "DIFileAttr":$file, "unsigned":$line,
                        "::mlir::StringAttr":$name,
                        "::mlir::StringAttr":$linkageName,
                        "DICompileUnitAttr":$compileUnit,
                        OptionalParameter<"unsigned">:$scopeLine);
  let assemblyFormat = "`<` struct(params) `>`";
}

def CudaTile_DILexicalBlockAttr
    : CudaTile_DIScopeAttr<"DILexicalBlock", "di_lexical_block"> {
  let parameters = (ins "::mlir::Attribute":$scope, "DIFileAttr":$file,
                        "unsigned":$line, OptionalParameter<"unsigned">:$column);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def CudaTile_DILocAttr : LocationAttrDef<CudaTile_Dialect, "DILoc"> {
  let summary = "a source location inside a debug-info scope";
  let mnemonic = "di_loc";
  let parameters = (ins "::mlir::FileLineColLoc":$sourceLoc,
                        "::mlir::Attribute":$scope);
  let assemblyFormat = "`<` $sourceLoc `in` $scope `>`";
  let genVerifyDecl = 1;
}

#endif // TILEPIPE_CUDATILE_ATTRS_TD
