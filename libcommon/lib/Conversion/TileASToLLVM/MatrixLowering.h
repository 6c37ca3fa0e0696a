//===- MatrixLowering.h - Pieces shared by the matrix multiply lowerings --===//
//
// The mmaf/mmai lowerings (the FMA path in MatrixToLLVM.cpp, the mma.sync
// path in MmaSyncToLLVM.cpp, the wgmma path in WgmmaToLLVM.cpp) stage A and
// B through shared memory a chunk of K at a time and carry the accumulator
// through a counted loop; these are the pieces they share.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_MATRIXLOWERING_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_MATRIXLOWERING_H

#include "LoweringCommon.h"
#include "RegisterEmitter.h"
#include "SharedScratch.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

namespace tilepipe::tile_as {

using mlir::ArrayRef;
using mlir::SmallVector;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;
namespace LLVM = mlir::LLVM;

/// The problem shape of one multiply: [batch x] M x K times K x N.
struct MmaShape {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  bool batched = false;
};

/// The shape of the multiply from A's and the accumulator's shapes (2-D, or
/// 3-D with a leading batch dimension); fails for other ranks.
mlir::FailureOr<MmaShape> getMmaShape(ArrayRef<int64_t> lhs, ArrayRef<int64_t> acc);

/// The shape of an mmaf's multiply (getMmaShape of its operand types).
mlir::FailureOr<MmaShape> getMmaShape(MmaFOp op);

/// The K chunk staged at a time: the largest multiple of `step` not above K
/// whose staging (`bytesOf(chunk)`) fits `limit`, then evened out over the
/// chunks it takes (still a multiple of `step`); 0 when not even `step` fits.
inline int64_t chooseKChunk(int64_t k, int64_t step, uint64_t limit,
                            llvm::function_ref<uint64_t(int64_t)> bytesOf) {
  int64_t chunk = llvm::alignTo(k, step);
  while (chunk > step && bytesOf(chunk) > limit)
    chunk -= step;
  if (bytesOf(chunk) > limit)
    return 0;
  int64_t numChunks = llvm::divideCeil(k, chunk);
  return llvm::alignTo(llvm::divideCeil(k, numChunks), step);
}

/// i32 index arithmetic of the staging addresses (all values non-negative).
struct IndexMath {
  RegisterEmitter &e;
  Value add(Value a, Value b) const { return LLVM::AddOp::create(e.builder, e.loc, a, b); }
  Value add(Value a, int64_t b) const { return b ? add(a, e.i32(b)) : a; }
  Value mul(Value a, int64_t b) const {
    return b == 1 ? a : LLVM::MulOp::create(e.builder, e.loc, a, e.i32(b)).getResult();
  }
  Value div(Value a, int64_t b) const {
    return b == 1 ? a : LLVM::UDivOp::create(e.builder, e.loc, a, e.i32(b)).getResult();
  }
  Value rem(Value a, int64_t b) const { return LLVM::URemOp::create(e.builder, e.loc, a, e.i32(b)); }
  Value sub(Value a, Value b) const { return LLVM::SubOp::create(e.builder, e.loc, a, b); }
  /// (a >> shift) & mask: a bit field of a lane or thread id.
  Value bits(Value a, unsigned shift, unsigned mask) const {
    Value shifted = shift ? LLVM::LShrOp::create(e.builder, e.loc, a, e.i32(shift)).getResult() : a;
    return LLVM::AndOp::create(e.builder, e.loc, shifted, e.i32(mask));
  }
};

/// Registers of one operand with the coordinates each holds.
struct OperandRegs {
  SmallVector<Value> values;
  /// coords[d][reg]: coordinate along dimension d of register reg.
  SmallVector<SmallVector<Value>> coords;
};

/// Extracts the registers of `vector` (laid out as `laid`) with the
/// coordinates each holds.
OperandRegs unpackOperand(RegisterEmitter &e, Value vector, const Laid &laid);

/// Stores the registers of `regs` whose K coordinate (dimension `kDim`) lies
/// in [k0, k0 + len) at `slotOf(coords, kLocal)`; the others go to `trash`.
template <typename SlotFn>
inline void stageOperand(RegisterEmitter &e, const OperandRegs &regs, Value base,
                         Type type, unsigned kDim, int64_t k0, int64_t len,
                         bool needsCheck, int64_t trash, SlotFn slotOf) {
  for (auto [i, value] : llvm::enumerate(regs.values)) {
    Value kLocal = regs.coords[kDim][i];
    if (k0)
      kLocal = LLVM::SubOp::create(e.builder, e.loc, kLocal, e.i32(k0));
    Value slot = slotOf(i, kLocal);
    if (needsCheck) {
      Value inside = LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::ult,
                                          kLocal, e.i32(len));
      slot = LLVM::SelectOp::create(e.builder, e.loc, inside, slot, e.i32(trash));
    }
    Value address = LLVM::GEPOp::create(e.builder, e.loc, base.getType(), type,
                                        base, ArrayRef<LLVM::GEPArg>{slot});
    LLVM::StoreOp::create(e.builder, e.loc, value, address);
  }
}

/// How the element values enter and leave the accumulation.
struct Arithmetic {
  bool isFloat;
  bool lhsSigned = true, rhsSigned = true;
  Type computeType;

  /// `v` (an element of tile element type `element`) in the compute type.
  Value widen(RegisterEmitter &e, Value v, Type element, bool isSigned) const {
    if (mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(element))
      v = decodeFloat8(e.builder, e.loc, v, element);
    if (v.getType() == computeType)
      return v;
    if (isFloat)
      return LLVM::FPExtOp::create(e.builder, e.loc, computeType, v);
    if (isSigned)
      return LLVM::SExtOp::create(e.builder, e.loc, computeType, v);
    return LLVM::ZExtOp::create(e.builder, e.loc, computeType, v);
  }
  Value narrow(RegisterEmitter &e, Value v, Type type) const {
    if (v.getType() == type)
      return v;
    if (isFloat)
      return LLVM::FPTruncOp::create(e.builder, e.loc, type, v);
    return LLVM::TruncOp::create(e.builder, e.loc, type, v);
  }
  Value multiplyAdd(RegisterEmitter &e, Value a, Value b, Value acc) const {
    if (isFloat)
      return LLVM::FMAOp::create(e.builder, e.loc, a, b, acc);
    Value product = LLVM::MulOp::create(e.builder, e.loc, a, b);
    return LLVM::AddOp::create(e.builder, e.loc, product, acc);
  }
};

/// The accumulator registers widened to `arith`'s compute type: the sums a
/// multiply's k loop starts from.
SmallVector<Value> widenAccumulator(RegisterEmitter &e, const OperandRegs &acc,
                                    Type accElement, const Arithmetic &arith);

/// Replaces `op` by the k loop's `sums`, narrowed to `accType`, as the
/// register vector of type `accVector` (the converted accumulator's type).
mlir::LogicalResult replaceWithSums(mlir::ConversionPatternRewriter &rewriter,
                                    mlir::Operation *op, RegisterEmitter &e,
                                    ArrayRef<Value> sums, const Arithmetic &arith,
                                    Type accType, Type accVector);

/// Where A and B are staged: the shared scratch buffer grown to `bytes`,
/// A at its start, B at byte `bOffset`.
struct OperandStaging {
  Value aBase, bBase;
};
mlir::FailureOr<OperandStaging> getOperandStaging(mlir::OpBuilder &builder,
                                                  mlir::Location loc, mlir::Operation *op,
                                                  uint64_t bytes, uint64_t bOffset);

/// Emits `for (k = 0; k < count; ++k) carried = body(k, carried)` at the
/// insertion point as a loop of LLVM blocks rather than unrolled, so the code
/// (and its compile and emulation time) does not grow with K. Returns the
/// carried values after the loop; the insertion point is then after it.
SmallVector<Value>
emitCountedLoop(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc,
                int64_t count, ValueRange init,
                llvm::function_ref<SmallVector<Value>(Value, ValueRange)> body);

/// Emits a PTX-builder NVVM op (one without an LLVM intrinsic, such as
/// wgmma.mma_async or mbarrier.try_wait.parity) as the inline PTX
/// convert-nvvm-to-llvm gives it (tile-emu decodes this form), erases it and
/// returns the inline asm's result (null when it has none).
mlir::FailureOr<Value> emitAsInlinePtx(mlir::ConversionPatternRewriter &rewriter,
                                       mlir::Operation *op);

/// The canonical K-major layout without swizzling that the asynchronous
/// tensor-core instructions read through shared-memory descriptors (PTX ISA,
/// wgmma "Shared Memory Matrix Layout" and tcgen05 "Shared Memory Layout"):
/// 8x16-byte core matrices of 16-bit elements, the core matrices of one
/// 8-row group adjacent along K (leading byte offset 128), 8-row groups
/// `chunk` elements of K (chunk * 2 bytes) apart (stride byte offset).
struct CanonicalKMajor {
  static constexpr unsigned kElementBytes = 2;
  static constexpr int64_t kCoreRows = 8, kCoreElements = 8, kCoreBytes = 128;
  /// The k of one wgmma / tcgen05.mma for 16-bit operands: two core
  /// matrices along K.
  static constexpr int64_t kStepK = 16;
  int64_t chunk;

  /// Bytes between 8-row groups.
  int64_t strideBytes() const { return chunk / kCoreElements * kCoreBytes; }
  /// Element index of (row, k) in an array of `chunk` columns.
  Value slot(const IndexMath &m, Value row, Value k) const {
    Value core = m.add(m.mul(m.div(row, kCoreRows), chunk / kCoreElements),
                       m.div(k, kCoreElements));
    Value inCore = m.add(m.mul(m.rem(row, kCoreRows), kCoreElements), m.rem(k, kCoreElements));
    return m.add(m.mul(core, kCoreRows * kCoreElements), inCore);
  }
  /// The leading (bits 16-29) and stride (bits 32-45) byte offsets of a
  /// descriptor, in 16-byte units as both descriptor formats take them.
  uint64_t offsetBits() const {
    return (uint64_t(kCoreBytes) >> 4) << 16 | (uint64_t(strideBytes()) >> 4) << 32;
  }
  /// The descriptor of the matrix at shared address `address` (i64): its
  /// start address (bits 0-13, 16-byte units) or-ed with `fixedBits`.
  static Value descriptor(RegisterEmitter &e, Value address, uint64_t fixedBits);
};

/// Where one K chunk of A (as [batch * M][chunk]) and B (transposed, as
/// [batch * N][chunk]) lives in the scratch buffer, both in the canonical
/// K-major layout, each followed by a few bytes that out-of-chunk registers
/// are stored to.
struct CanonicalStaging {
  static constexpr int64_t kTrashBytes = 16;
  CanonicalKMajor layout;
  uint64_t bOffset = 0, bytes = 0;

  CanonicalStaging() : layout{0} {}
  CanonicalStaging(const MmaShape &s, int64_t chunk) : layout{chunk} {
    bOffset = llvm::alignTo(aElements(s) * CanonicalKMajor::kElementBytes + kTrashBytes,
                            CanonicalKMajor::kCoreBytes);
    bytes = bOffset + bElements(s) * CanonicalKMajor::kElementBytes + kTrashBytes;
  }
  int64_t chunk() const { return layout.chunk; }
  int64_t aElements(const MmaShape &s) const { return s.batch * s.m * layout.chunk; }
  int64_t bElements(const MmaShape &s) const { return s.batch * s.n * layout.chunk; }

  /// The K chunk staged at a time (chooseKChunk within static shared
  /// memory); 0 when not even one k step fits.
  static int64_t chooseChunk(const MmaShape &s) {
    return chooseKChunk(s.k, CanonicalKMajor::kStepK, kMaxStaticSharedBytes,
                        [&](int64_t chunk) { return CanonicalStaging(s, chunk).bytes; });
  }
};

/// What the descriptor-fed tensor-core lowerings (wgmma, tcgen05) of an
/// f16/bf16 mmaf start from: A's, B's and the accumulator's registers, the
/// accumulator widened to f32 sums, and the canonical K-major staging of A
/// and B in the scratch buffer.
struct CanonicalMma {
  MmaShape shape;
  Laid accLaid;
  Type element, accElement, accType;
  OperandRegs a, b, c;
  Arithmetic arith{/*isFloat=*/true};
  SmallVector<Value> sums;
  CanonicalStaging staging;
  Value aBase, bBase;

  /// Whether the staging of `op`'s A and B fits (at least one k step).
  static bool fits(MmaFOp op) {
    mlir::FailureOr<MmaShape> shape = getMmaShape(op);
    return mlir::succeeded(shape) && CanonicalStaging::chooseChunk(*shape) > 0;
  }

  /// Unpacks the operands (`lhs`, `rhs`, `acc` converted) of `op`; fails
  /// (with a diagnostic) where a type has no layout or LLVM form or the
  /// staging does not fit.
  static mlir::FailureOr<CanonicalMma> prepare(MmaFOp op, Value lhs, Value rhs, Value acc,
                                               const mlir::TypeConverter &converter,
                                               RegisterEmitter &e);

  /// Stages A and B for k in [k0, k0 + len) between CTA barriers (the first
  /// waits for the scratch's earlier readers), fenced for the async proxy
  /// that reads them: B transposed, its column n of batch b at row
  /// b * N + n; A's register i at row `aRowOf(i)`.
  void stageChunk(RegisterEmitter &e, int64_t k0, int64_t len,
                  llvm::function_ref<Value(size_t)> aRowOf) const;

  /// The shared address (i64) `bytes` (i32) after `address` (i64).
  static Value addBytes(RegisterEmitter &e, Value address, Value bytes) {
    Value wide = LLVM::ZExtOp::create(e.builder, e.loc, e.builder.getI64Type(), bytes);
    return LLVM::AddOp::create(e.builder, e.loc, address, wide);
  }

  /// The batch coordinate of register `i` of `regs` (0 when unbatched).
  Value batchOf(RegisterEmitter &e, const OperandRegs &regs, size_t i) const {
    return shape.batched ? regs.coords[0][i] : e.i32(0);
  }
};

/// Whether `op` (an mmaf) can take the mma.sync path: it has an mma.sync form
/// (hasMmaSyncForm) and its accumulator got the mma.sync layout.
bool canLowerToMmaSync(MmaFOp op);

/// Lowers an mmaf for which canLowerToMmaSync holds to ldmatrix + mma.sync.
mlir::LogicalResult lowerMmaSync(MmaFOp op, Value lhs, Value rhs, Value acc,
                                 const mlir::TypeConverter &converter,
                                 mlir::ConversionPatternRewriter &rewriter);

/// Whether `op` (an mmaf) can take the wgmma path: it has an mma.sync form,
/// the module targets Hopper and its accumulator got the wgmma layout
/// (getWgmmaAccumulatorLayout).
bool canLowerToWgmma(MmaFOp op);

/// Lowers an mmaf for which canLowerToWgmma holds to wgmma.mma_async.
mlir::LogicalResult lowerWgmma(MmaFOp op, Value lhs, Value rhs, Value acc,
                               const mlir::TypeConverter &converter,
                               mlir::ConversionPatternRewriter &rewriter);

/// Whether `op` (an mmaf) can take the tcgen05 path: hasTcgen05Form, and
/// its staging fits shared memory and its accumulator tensor memory.
bool canLowerToTcgen05(MmaFOp op);

/// Lowers an mmaf for which canLowerToTcgen05 holds to tcgen05.mma with the
/// accumulator in tensor memory.
mlir::LogicalResult lowerTcgen05(MmaFOp op, Value lhs, Value rhs, Value acc,
                                 const mlir::TypeConverter &converter,
                                 mlir::ConversionPatternRewriter &rewriter);

/// Allocates the tensor memory the tcgen05 lowerings of each kernel asked for
/// (allocateTensorMemory): warp 0 allocates it on entry and frees it before
/// each return. Fails with the autotuners' `allocated tmem out of resource`
/// diagnostic when a kernel needs more than the 512 columns there are.
mlir::LogicalResult finishTensorMemory(mlir::ModuleOp module);

/// The lowering of tile_as.mmaf_global (the mma.sync path fed by cp.async).
void populateMmaFGlobalToLLVMPatterns(TileLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_MATRIXLOWERING_H
