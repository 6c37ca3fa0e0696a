//===- LoweringCommon.h - Shared pieces of the tile_as -> LLVM lowering ---===//
//
// The type converter (a laid-out tensor is the LLVM vector of the registers
// one thread holds), the layout view of a tensor value, and the entry points
// through which each op family adds its patterns to the one conversion.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_LOWERINGCOMMON_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_LOWERINGCOMMON_H

#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace tilepipe::tile_as {

/// NVPTX address spaces of the pointers the lowering makes (0 is generic).
inline constexpr unsigned kGlobalAddressSpace = 1;
inline constexpr unsigned kSharedAddressSpace = 3;

/// On a tile_as.load/store whose cuda_tile access was ordered (relaxed,
/// acquire, release): the PTX semantics and scope it takes, "acquire.gpu".
/// Set by the cuda_tile lowering (CudaTileToTileAA's kMemoryOrderAttrName).
inline constexpr llvm::StringLiteral kMemoryOrderAttrName = "memory_order";

/// Builtin/tile_as types -> LLVM types: tensors with a blocked layout become
/// vector<registers x element>; pointer tensors vectors of i64 addresses.
class TileLLVMTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit TileLLVMTypeConverter(mlir::MLIRContext *context);
};

/// The layout and shape of a laid-out tensor value.
struct Laid {
  BlockedAttr layout;
  llvm::ArrayRef<int64_t> shape;
  /// Fails with a diagnostic on `op` when `type` has no blocked layout.
  static mlir::FailureOr<Laid> of(mlir::Operation *op, mlir::Type type);
};

/// Bytes of one element in memory (pointers: 8; i1: 1).
unsigned getByteSize(mlir::Type type);

/// f32 (a scalar or vector of f32) rounded to tf32, to nearest even (the
/// one rounding ftof allows for tf32; a carry into the exponent is the
/// right answer, up to infinity), NaN staying a quiet NaN: tf32 values live
/// in f32 registers and memory, and the tensor cores ignore the low 13
/// mantissa bits (truncating), so the rounding is explicit. Defined in
/// ArithmeticToLLVM.cpp.
mlir::Value roundToTF32(mlir::OpBuilder &builder, mlir::Location loc, mlir::Value value);

/// Runs what `thenBody` builds only where `condition` (i1) holds: the block
/// is split at the insertion point, and the insertion point ends up at the
/// start of the continuation. Defined in ControlFlowToLLVM.cpp.
void emitIf(mlir::RewriterBase &rewriter, mlir::Location loc, mlir::Value condition,
            llvm::function_ref<void()> thenBody);
/// The same for a body computing a value: the value where `condition`
/// holds, `otherwise` elsewhere.
mlir::Value emitIfElse(mlir::RewriterBase &rewriter, mlir::Location loc,
                       mlir::Value condition, mlir::Value otherwise,
                       llvm::function_ref<mlir::Value()> thenBody);

/// The f32 value of 8-bit float bits `bits` (i8, or a vector of i8) of
/// `type` (f8E4M3FN or f8E5M2), exactly; a vector gives a vector. Defined in
/// ArithmeticToLLVM.cpp with the fp8 conversions.
mlir::Value decodeFloat8(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value bits, mlir::Type type);

/// The outermost module: where globals and function declarations live.
/// Defined in MiscToLLVM.cpp.
mlir::ModuleOp getTopModule(mlir::Operation *op);
/// The declaration of external function `name` (vprintf, malloc, ...) in
/// the top module, added on first use. Defined in MiscToLLVM.cpp.
mlir::LLVM::LLVMFuncOp getRuntimeFunction(mlir::OpBuilder &builder, mlir::Operation *anchor,
                                          llvm::StringRef name,
                                          mlir::LLVM::LLVMFunctionType type);

/// Replaces each `tile_as.alloca {global}` of `module` by a buffer from the
/// device heap, one per CTA, allocated when the kernel starts and freed at
/// its returns. Runs before the conversion, on functions whose control flow
/// is already cf branches. Defined in GlobalAllocaToLLVM.cpp.
void materializeGlobalAllocas(mlir::ModuleOp module);

// Each op family's patterns, defined in the file of the same name.
// (One line per family in ConvertTileASToLLVMPass registers them.)
void populateDataMovementToLLVMPatterns(TileLLVMTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns);
void populateReductionToLLVMPatterns(TileLLVMTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
void populateMatrixToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateAtomicToLLVMPatterns(TileLLVMTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
void populateControlFlowToLLVMPatterns(TileLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
void populateArithmeticToLLVMPatterns(TileLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
void populateDirectedArithToLLVMPatterns(TileLLVMTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
void populateTensorConstantToLLVMPatterns(TileLLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);
/// tile_as.mmaf_scaled on block-scaled mma.sync (BlockScaledMmaToLLVM.cpp).
void populateBlockScaledMmaToLLVMPatterns(TileLLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);
/// tile_as.mmaf_scaled on tcgen05 targets: tcgen05.mma kind::mxf8f6f4,
/// mxf4 or mxf4nvf4 block_scale (BlockScaledTcgen05ToLLVM.cpp; before the
/// mma.sync one).
void populateBlockScaledTcgen05ToLLVMPatterns(TileLLVMTypeConverter &converter,
                                              mlir::RewritePatternSet &patterns);
/// tile_as.acc_to_tmem / acc_from_tmem: a K loop's tcgen05 accumulator
/// into and out of tensor memory (Tcgen05AccumulatorToLLVM.cpp).
void populateTcgen05AccumulatorToLLVMPatterns(TileLLVMTypeConverter &converter,
                                              mlir::RewritePatternSet &patterns);
void populateMiscToLLVMPatterns(TileLLVMTypeConverter &converter,
                                mlir::RewritePatternSet &patterns);
/// tile_as.store_tma: through swizzled shared memory by TMA (TmaStoreToLLVM.cpp).
void populateTmaStoreToLLVMPatterns(TileLLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_LOWERINGCOMMON_H
