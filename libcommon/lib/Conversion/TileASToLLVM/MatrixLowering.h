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
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <numeric>

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
  Value bitXor(Value a, Value b) const { return LLVM::XOrOp::create(e.builder, e.loc, a, b); }
  Value shl(Value a, unsigned shift) const {
    return shift ? LLVM::ShlOp::create(e.builder, e.loc, a, e.i32(shift)).getResult() : a;
  }
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

/// Stores the scale tiles of a block-scaled multiply of shape `s` into
/// shared memory as bytes, between CTA barriers (the first waits for earlier
/// readers): A's scale of (batch, row, k block) at byte
/// (batch * M + row) * pitch + block of `aBase`, B's of (batch, k block,
/// column) at (batch * N + column) * pitch + block of `bBase`. Replicated
/// registers store the same byte twice.
void stageScaleBytes(RegisterEmitter &e, mlir::OpBuilder &builder, const MmaShape &s,
                     Value lhsScale, const Laid &lhsScaleLaid, Value rhsScale,
                     const Laid &rhsScaleLaid, Value aBase, Value bBase, int64_t pitch);

/// The e2m1 word of eight 4-bit elements staged one per byte (in the low
/// nibble, the high one zero) in the i32 words `low` then `high`: byte i of
/// them in nibble i, the first element in the lowest (MmaSyncToLLVM.cpp).
Value packNibbles(RegisterEmitter &e, Value low, Value high);

/// Elements a thread holds adjacent along dimension `dim` of `laid` and
/// aligned to the run: its registers come in such runs when `dim` is the
/// dimension its consecutive registers go along (getRegisterRunDim; a
/// blocked layout gives each thread sizePerThread adjacent elements there).
/// At most `maxRun`, 1 along another dimension.
inline int64_t getRegisterRun(const Laid &laid, unsigned dim, int64_t maxRun) {
  if (getRegisterRunDim(laid.layout, laid.shape) != dim)
    return 1;
  return std::gcd<int64_t>(laid.layout.getSizePerThread()[dim], maxRun);
}

/// Stores the registers of `regs` whose K coordinate (dimension `kDim`) lies
/// in [k0, k0 + len) at `slotOf(coords, kLocal)`; the others go to `trash`.
/// With `run` > 1 the registers come in runs of that many adjacent along K
/// (getRegisterRun), each starting at a multiple of `run` in K, whose slots
/// are adjacent too and aligned to the run's bytes, and `len` and `trash`
/// are multiples of it: each run is one vector store (st.shared.v4 for 16
/// bytes) instead of one store per element.
template <typename SlotFn>
inline void stageOperand(RegisterEmitter &e, const OperandRegs &regs, Value base,
                         Type type, unsigned kDim, int64_t k0, int64_t len,
                         bool needsCheck, int64_t trash, SlotFn slotOf, int64_t run = 1) {
  for (size_t i = 0; i < regs.values.size(); i += run) {
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
    if (run == 1) {
      LLVM::StoreOp::create(e.builder, e.loc, regs.values[i], address);
      continue;
    }
    Value vector = e.buildVector(mlir::VectorType::get({run}, type),
                                 ArrayRef<Value>(regs.values).slice(i, run));
    unsigned bytes = run * type.getIntOrFloatBitWidth() / 8;
    LLVM::StoreOp::create(e.builder, e.loc, vector, address, bytes);
  }
}

/// One operand of the mma.sync or wgmma multiply as it reaches shared
/// memory: registers to store, or (tile_as.mmaf_global) global addresses to
/// copy from with their mask bits.
struct StagedOperand {
  Laid laid;
  /// The registers, or the i64 addresses of the elements, with coordinates.
  OperandRegs regs;
  /// Per element of a global operand with a mask: whether it is read.
  SmallVector<Value> mask;
  bool global = false;
  /// An i1 that, when false, makes every copy of a global operand read
  /// nothing (null: always read; the ring's copies past a loop's end).
  Value enabled;
  /// Elements per copy of a global operand where shorter than its layout's
  /// runs (mmaf_global's lhs_run/rhs_run); 0: the layout's.
  int64_t maxRun = 0;
  /// A global operand's runs go along K (mmaf_global's rhs_k_runs): it is
  /// staged K-major, its runs whole.
  bool kRuns = false;
};

/// The staged form of operand `value` of `op` (converted: `converted`):
/// global addresses with their mask (`mask`, converted; null for none) where
/// `value` is a tensor of pointers (an mmaf_global operand fused from a
/// load), else registers.
mlir::FailureOr<StagedOperand> getStagedOperand(RegisterEmitter &e, mlir::Operation *op,
                                                Value value, Value converted, Value mask,
                                                Value enabled = {});

/// Bytes of one cp.async.cg or st.shared.v4: the longest run stageRuns moves
/// at once.
constexpr unsigned kMaxRunBytes = 16;
/// Bytes of the shortest cp.async (cp.async.ca copies 4, 8 or 16).
constexpr unsigned kMinCopyBytes = 4;

/// Puts an operand into its staged chunk, one 16-byte (at most) access per
/// run of elements adjacent along the innermost dimension (getRegisterRun;
/// when the staged rows run along K instead, `transposed`, along K where
/// the operand's runs go along K (registers, or a global operand's kRuns),
/// else one element at a time);
/// `slotOf(i, kLocal)` is the element index from `base` of the run starting
/// at register i, and the staged array must keep the run whole and 16-byte
/// aligned. Registers are stored; a global operand is copied with
/// cp.async (.cg for 16-byte runs, .ca for 8 and 4), which reads only the
/// run's unmasked bytes (one mask bit per
/// run, see mmaf_global) and zero-fills the rest. A run whose K coordinate
/// (dimension `kDim`) lies outside [k0, k0 + len) goes to the trash slot
/// (and a copy then reads nothing) or, with `skipOutside` (the pattern's
/// rewriter; for stagings without room for a trash slot), is skipped by a
/// branch around its access (which ptxas predicates). Runs never straddle a
/// chunk (chunks are multiples of 16, runs at most 8 elements).
template <typename SlotFn>
mlir::LogicalResult stageRuns(RegisterEmitter &e, const StagedOperand &operand, Value base,
                              Type element, bool transposed, unsigned kDim, int64_t k0, int64_t len,
                              bool needsCheck, int64_t trash, SlotFn slotOf,
                              mlir::RewriterBase *skipOutside = nullptr) {
  const Laid &laid = operand.laid;
  const OperandRegs &regs = operand.regs;
  unsigned innermost = laid.shape.size() - 1;
  unsigned elementBytes = getByteSize(element);
  int64_t maxRun = kMaxRunBytes / elementBytes;
  if (operand.kRuns && !transposed)
    return mlir::emitError(e.loc, "an operand with runs along K needs K-major staging");
  // Registers staged K-major keep their runs where they go along K (a B
  // loaded N x K and permuted keeps the load's layout, AssignLayouts): one
  // st.shared.v4 per 16 bytes instead of one st.shared.b8 per element. A
  // global operand's runs must be along K to be copied K-major (kRuns).
  bool kMajorRuns = operand.kRuns || (transposed && !operand.global);
  int64_t run = kMajorRuns    ? getRegisterRun(laid, kDim, maxRun)
                : transposed  ? 1
                              : getRegisterRun(laid, innermost, maxRun);
  if (operand.maxRun)
    run = std::gcd(run, operand.maxRun);
  unsigned runBytes = run * elementBytes;
  if (operand.global && runBytes < kMinCopyBytes)
    return mlir::emitError(e.loc, "cp.async staging needs runs of 4, 8 or 16 bytes");
  // cp.async.cg (L2 only) copies 16 bytes; shorter runs take cp.async.ca.
  auto cacheModifier = runBytes == kMaxRunBytes ? mlir::NVVM::LoadCacheModifierKind::CG
                                                : mlir::NVVM::LoadCacheModifierKind::CA;
  Type runType = run == 1 ? element : Type(mlir::VectorType::get({run}, element));
  auto globalPtr = LLVM::LLVMPointerType::get(e.builder.getContext(), 1);
  for (size_t i = 0; i < regs.values.size(); i += run) {
    Value kLocal = regs.coords[kDim][i];
    if (k0)
      kLocal = LLVM::SubOp::create(e.builder, e.loc, kLocal, e.i32(k0));
    Value slot = slotOf(i, kLocal);
    Value inside;
    if (needsCheck) {
      inside = LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::ult, kLocal,
                                    e.i32(len));
      if (!skipOutside)
        slot = LLVM::SelectOp::create(e.builder, e.loc, inside, slot, e.i32(trash));
    }
    auto access = [&] {
      Value address = LLVM::GEPOp::create(e.builder, e.loc, base.getType(), element, base,
                                          ArrayRef<LLVM::GEPArg>{slot});
      if (operand.global) {
        Value source = LLVM::IntToPtrOp::create(e.builder, e.loc, globalPtr, regs.values[i]);
        Value sourceBytes = e.i32(runBytes);
        if (!operand.mask.empty())
          sourceBytes = LLVM::SelectOp::create(e.builder, e.loc, operand.mask[i], sourceBytes,
                                               e.i32(0));
        if (inside && !skipOutside)
          sourceBytes = LLVM::SelectOp::create(e.builder, e.loc, inside, sourceBytes, e.i32(0));
        if (operand.enabled)
          sourceBytes =
              LLVM::SelectOp::create(e.builder, e.loc, operand.enabled, sourceBytes, e.i32(0));
        mlir::NVVM::CpAsyncOp::create(
            e.builder, e.loc, address, source, e.builder.getI32IntegerAttr(runBytes),
            mlir::NVVM::LoadCacheModifierKindAttr::get(e.builder.getContext(), cacheModifier),
            sourceBytes);
        return;
      }
      Value value = run == 1 ? regs.values[i]
                             : e.buildVector(mlir::cast<mlir::VectorType>(runType),
                                             ArrayRef<Value>(regs.values).slice(i, run));
      LLVM::StoreOp::create(e.builder, e.loc, value, address, runBytes);
    };
    if (inside && skipOutside)
      emitIf(*skipOutside, e.loc, inside, access);
    else
      access();
  }
  return mlir::success();
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
/// `keepRolled` asks LLVM not to unroll the loop: values that depend on k
/// then stay inside it rather than becoming invariants of an enclosing loop
/// that LICM hoists and keeps live across it.
SmallVector<Value>
emitCountedLoop(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc,
                int64_t count, ValueRange init,
                llvm::function_ref<SmallVector<Value>(Value, ValueRange)> body,
                bool keepRolled = false);

/// Emits a PTX-builder NVVM op (one without an LLVM intrinsic, such as
/// wgmma.mma_async or mbarrier.try_wait.parity) as the inline PTX
/// convert-nvvm-to-llvm gives it (tile-emu decodes this form), erases it and
/// returns the inline asm's result (null when it has none).
mlir::FailureOr<Value> emitAsInlinePtx(mlir::ConversionPatternRewriter &rewriter,
                                       mlir::Operation *op);

/// Whether `op` (an mmaf or mmai) can take the mma.sync path: it has an
/// mma.sync form (getMmaSyncForm), its accumulator got the mma.sync layout
/// and its staging fits the shared scratch.
bool canLowerToMmaSync(mlir::Operation *op);

/// Lowers an mmaf or mmai for which canLowerToMmaSync holds to ldmatrix +
/// mma.sync (the instruction of its form: emitMmaSyncInstruction).
mlir::LogicalResult lowerMmaSync(mlir::Operation *op, Value lhs, Value rhs, Value acc,
                                 const mlir::TypeConverter &converter,
                                 mlir::ConversionPatternRewriter &rewriter);

/// Whether the mma.sync path stages B transposed, as [batch][N][chunk] rows
/// with K contiguous, and reads its fragments with plain ldmatrix: for 8-bit
/// operands, whose "col" B fragments ldmatrix .trans (16-bit elements only)
/// cannot produce, except into a paired-column accumulator `acc`
/// (stagesMmaSyncBTransposed). 16-bit B stays [batch][chunk][N], read by
/// ldmatrix .trans; tf32 B too, each fragment register one ld.shared.b32 (a
/// tf32 element is a whole register), so that a global B is copied in runs
/// along N rather than an element at a time.
inline bool stagesBTransposed(const MmaSyncForm &form, mlir::Type acc) {
  auto tensor = mlir::cast<mlir::RankedTensorType>(acc);
  return stagesMmaSyncBTransposed(form,
                                  mlir::dyn_cast_or_null<BlockedAttr>(tensor.getEncoding()));
}

/// Where one mma.sync of the mma.sync path sits: the accumulator registers of
/// its C/D fragment (c0..c3: row g, columns 2t and 2t + 1, then row g + 8)
/// and the K index (i32) of the first element of its k step.
struct MmaFragmentSite {
  std::array<int64_t, 4> regs;
  Value k;
};

/// Issues one mma.sync on the A fragment (4 i32 registers from ldmatrix.x4),
/// the B fragment (2 i32) and the four accumulator values (in the compute
/// type); returns the four results.
using MmaInstructionFn = llvm::function_ref<SmallVector<Value>(
    RegisterEmitter &, ArrayRef<Value> a, ArrayRef<Value> b, ArrayRef<Value> c,
    const MmaFragmentSite &site)>;

/// The mma.sync path with the caller's instruction (`issue`), for kinds
/// lowerMmaSync does not issue itself (block-scaled ones, say): A and B of
/// `op` (its operands 0 and 1, `acc` its operand 2; all converted) staged
/// through the shared scratch a chunk of K at a time (A as [M][K] rows, B as
/// `form` says: stagesBTransposed), their fragments read with ldmatrix per
/// k step of `form`, and `issue` called per 16x8 block and k step, the
/// accumulator in `arith`'s compute type. The accumulator must have the
/// mma.sync layout (an error otherwise).
mlir::LogicalResult lowerMmaSyncWith(mlir::Operation *op, Value lhs, Value rhs, Value acc,
                                     const MmaSyncForm &form, const Arithmetic &arith,
                                     MmaInstructionFn issue,
                                     const mlir::TypeConverter &converter,
                                     mlir::ConversionPatternRewriter &rewriter);

/// How the mma.sync path accumulates for `op` (mmaf or mmai): in f32 for
/// float operands (f16 accumulators are rounded once at the end), in i32
/// with the operands' signedness for mmai (MmaSyncKinds.cpp).
Arithmetic getMmaSyncArithmetic(mlir::Operation *op);

/// The PTX name of an fp8 type (f8E4M3FN: e4m3, f8E5M2: e5m2), as the
/// mma intrinsics spell it.
llvm::StringRef getFloat8Name(Type type);

/// Issues one mma.sync.aligned.m16n8k<k>.row.col for operand element types
/// `a` and `b` (tile types: f16, bf16, tf32, f8E4M3FN, f8E5M2, i8 with
/// signedness `aSigned`/`bSigned`) accumulating in f32 (floats) or i32
/// (integers; wrapping, as mmai's adds do) on fragments `aRegs` (4 i32),
/// `bRegs` (2 i32) and `cRegs` (4); returns D's four values. (f16
/// accumulators too accumulate in f32: getMmaSyncArithmetic.)
SmallVector<Value> emitMmaSyncInstruction(RegisterEmitter &e, Type a, Type b,
                                          ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                                          ArrayRef<Value> cRegs, bool aSigned = true,
                                          bool bSigned = true);

/// Whether `op` (an mmaf) can take the wgmma path: it has an mma.sync form,
/// the module targets Hopper and its accumulator got the wgmma layout
/// (getWgmmaAccumulatorLayout).
bool canLowerToWgmma(MmaFOp op);

/// Lowers an mmaf for which canLowerToWgmma holds to wgmma.mma_async.
mlir::LogicalResult lowerWgmma(MmaFOp op, Value lhs, Value rhs, Value acc,
                               const mlir::TypeConverter &converter,
                               mlir::ConversionPatternRewriter &rewriter);

/// Whether a tile_as.mmaf_global takes the wgmma path: the module targets
/// sm_90a, its accumulator got the wgmma layout and the staging fits.
bool canLowerToWgmma(MmaFGlobalOp op);

/// The shared-memory matrix descriptor (i64) of wgmma and tcgen05.mma for
/// the matrix at shared address `address` (i64): its start address (bits
/// 0-13, in 16-byte units, of the address within the 256 KiB window) or-ed
/// with `fixedBits` (the offsets, swizzle mode and, for tcgen05, version).
inline Value emitMatrixDescriptor(RegisterEmitter &e, Value address, uint64_t fixedBits) {
  Value window = LLVM::AndOp::create(e.builder, e.loc, address, e.i64(0x3ffff));
  Value start = LLVM::LShrOp::create(e.builder, e.loc, window, e.i64(4));
  return LLVM::OrOp::create(e.builder, e.loc, start, e.i64(int64_t(fixedBits)));
}

/// An operand's view for TMA: mmaf_global's `view` operands (converted):
/// sizes, strides (the innermost, 1, left out) and starts of a rank-r tile,
/// outermost dimension first, in memory order (`transposed`: the operand's
/// last two dimensions are the view's swapped, rhs_view_transposed).
struct TmaView {
  Value base;
  SmallVector<Value> sizes, strides, starts;
  bool transposed = false;
};

/// mmaf_global's `view` (base and its sizes, strides, starts), converted;
/// nullopt without one.
std::optional<TmaView> getTmaView(Value base, ValueRange view, bool transposed = false);

/// How TMA boxes fill one operand's chunk of a swizzled staged array (blocks
/// of `width` bytes along the contiguous dimension, `blockBytes` apart, of
/// 1-, 2- or 4-byte elements): box g of a block covers rows g * boxRows
/// onwards (of the chunk) and lands at staged row stagedRows[g].
struct TmaBoxes {
  int64_t width = 0, blocks = 0, blockBytes = 0, boxRows = 0;
  unsigned elementBytes = 2;
  SmallVector<int64_t> stagedRows;
  /// Elements of the contiguous dimension per box: its inner extent, whose
  /// bytes are the swizzle width (TMA's limit for a swizzled box).
  int64_t perBlock() const { return width / elementBytes; }
  int64_t bytes() const { return blocks * int64_t(stagedRows.size()) * boxRows * width; }
};

/// One operand TmaLoads fills: its view, its boxes, and whether K runs
/// along the view's contiguous dimension (A, and a K-major B) or along its
/// rows (an N-major B).
struct TmaOperand {
  TmaView view;
  TmaBoxes boxes;
  bool kContiguous = true;
};

/// The tensor maps of `operands` (generic pointers; each its view, boxes of
/// boxes.perBlock() x boxes.boxRows `element`s of 1, 2 or 4 bytes,
/// boxes.width-byte swizzle), built by thread `issuer` (the one that will
/// issue the copies: only it fences the maps for the tensormap proxy) into
/// this CTA's slots: once per CTA at the function's start where the views'
/// bases, sizes and strides are known there, else at `op`. The builder is
/// left right before `op`. TMA loads, the K-loop ring and TMA stores share
/// them.
SmallVector<Value> buildTensorMaps(mlir::ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                                   mlir::Operation *op, ArrayRef<TmaOperand> operands,
                                   Type element, int64_t issuer = 0);

/// A view coordinate or extent (any integer width) as the i32 a TMA box or
/// tensor map takes (sign-extended or truncated).
Value toI32(RegisterEmitter &e, Value v);

/// Issues the boxes of `operand`'s chunk from K offset `k0` through `map`
/// into the staged array at `dst` (a !llvm.ptr<3>), completing on the
/// mbarrier `bar` (one thread issues them). The destination is named as
/// shared::cluster memory (this CTA's), or with `ctaDestination` as
/// shared::cta memory (PTX ISA 8.6): ptxas 13.0 gives a kernel with the
/// shared::cluster form an 8-byte stack frame on sm_120a/121a (none on
/// sm_90a/100a, whose PTX keeps that form).
void issueTmaBoxes(RegisterEmitter &e, Value map, const TmaOperand &operand, Value dst,
                   int64_t k0, Value bar, bool ctaDestination);

/// Whether this thread is thread `thread` (x) of the CTA (an i1).
Value isThread(RegisterEmitter &e, int64_t thread);
inline Value isThread0(RegisterEmitter &e) { return isThread(e, 0); }

/// The TMA loads of wgmma's staged operands (TmaToLLVM.cpp: A and B, or B
/// alone where A comes from registers or by cp.async). The constructor (thread 0) builds
/// one tensor map per operand and initializes one mbarrier per buffer at
/// `barriers` (a !llvm.ptr<3>); `load` fills a chunk and waits for it;
/// `finish` invalidates the mbarriers (after the last wait and a CTA
/// barrier).
class TmaLoads {
public:
  TmaLoads(mlir::ConversionPatternRewriter &rewriter, RegisterEmitter &e, mlir::Operation *op,
           SmallVector<TmaOperand, 2> operands, Type element, Value barriers, int64_t buffers);
  /// Chunk `chunk` (K from `k0`) into buffer chunk % buffers, where operand
  /// i starts at `dsts[i]`; every thread returns once it has landed.
  mlir::LogicalResult load(int64_t chunk, int64_t k0, ArrayRef<Value> dsts);
  /// The two halves of `load`: thread 0 issues the chunk's boxes, and every
  /// thread waits for them to land; the threads may stage another operand
  /// in between (a cp.async A, while TMA fills B).
  void start(int64_t chunk, int64_t k0, ArrayRef<Value> dsts);
  mlir::LogicalResult wait(int64_t chunk);
  /// `start` as thread 0 runs it, for a caller already in thread 0's
  /// branch (tcgen05, where thread 0 alone loads, waits and multiplies).
  void issue(int64_t chunk, int64_t k0, ArrayRef<Value> dsts);
  void finish();

private:
  Value barrier(int64_t buffer) const;

  mlir::ConversionPatternRewriter &rewriter;
  RegisterEmitter &e;
  SmallVector<TmaOperand, 2> operands;
  SmallVector<Value> maps;
  Value barriers, producer;
  int64_t buffers;
};

/// Bytes after the wgmma staging for TmaLoads' mbarriers (two buffers).
constexpr uint64_t kTmaBarrierBytes = 16;

/// Lowers the multiply of the staged operands `a` and `b` (element type
/// `element`, `a` typed like `lhsType`) onto the accumulator `acc`
/// (converted; tensor type `accTensorType`) with wgmma.mma_async, for an op
/// for which canLowerToWgmma holds.
/// Where B has a view and A one too, no staging (A from registers) or a
/// global source (copied by cp.async while TMA fills B), on unbatched
/// 16-bit multiplies, B (and A where it has a view) is loaded by TMA
/// (TmaLoads) rather than copied with cp.async; a transposed B view
/// (K-major) is read that way only, so elsewhere it is an error.
mlir::LogicalResult emitWgmma(mlir::Operation *op, const StagedOperand &a,
                              const StagedOperand &b, Type element, Type lhsType, Value acc,
                              Type accTensorType, const mlir::TypeConverter &converter,
                              mlir::ConversionPatternRewriter &rewriter,
                              const std::optional<TmaView> &aView = std::nullopt,
                              const std::optional<TmaView> &bView = std::nullopt);

/// Whether `op`, a tcgen05 multiply, has its accumulator in tensor memory
/// (`tile_as.tmem_accumulator`): it neither stores nor loads it.
bool hasTmemAccumulator(mlir::Operation *op);

/// Whether `op` (an mmaf) can take the tcgen05 path: hasTcgen05Form, and
/// its staging fits shared memory and its accumulator tensor memory.
bool canLowerToTcgen05(MmaFOp op);

/// Lowers an mmaf for which canLowerToTcgen05 holds to tcgen05.mma with the
/// accumulator in tensor memory.
mlir::LogicalResult lowerTcgen05(MmaFOp op, Value lhs, Value rhs, Value acc,
                                 const mlir::TypeConverter &converter,
                                 mlir::ConversionPatternRewriter &rewriter);

/// Whether a tile_as.mmaf_global of A and B elements `a` and `b` (tile
/// types) takes the tcgen05 path: the module targets sm_100/103/110, its
/// accumulator got the tcgen05 layout, the types have a tcgen05.mma kind
/// (f16/bf16, tf32, e4m3/e5m2) and the staging fits.
bool canLowerToTcgen05(MmaFGlobalOp op, Type a, Type b);

/// Lowers the multiply of the staged operands `a` and `b` (tile element
/// types `aElement` and `bElement`, `a` typed like `lhsType`) onto the
/// accumulator `acc` (converted; tensor type `accTensorType`) with
/// tcgen05.mma, for an op for which canLowerToTcgen05 holds.
/// `roundToTf32`: the global operands are f32 copies of tf32 operands,
/// rounded to nearest even in shared memory once landed.
/// Where B has a view (N-major) and A one too or goes to tensor memory, on
/// unbatched f16/bf16/fp8 multiplies, the operands with views are loaded by
/// TMA (TmaLoads; thread 0 loads, waits and issues) rather than copied
/// with cp.async.
mlir::LogicalResult emitTcgen05(mlir::Operation *op, const StagedOperand &a,
                                const StagedOperand &b, Type aElement, Type bElement,
                                Type lhsType, Value acc,
                                Type accTensorType, const mlir::TypeConverter &converter,
                                mlir::ConversionPatternRewriter &rewriter,
                                bool roundToTf32 = false,
                                const std::optional<TmaView> &aView = std::nullopt,
                                const std::optional<TmaView> &bView = std::nullopt);

/// Allocates the tensor memory the tcgen05 lowerings of each kernel asked for
/// (allocateTensorMemory): warp 0 allocates it on entry and frees it before
/// each return. Fails with the autotuners' `allocated tmem out of resource`
/// diagnostic when a kernel needs more than the 512 columns there are.
mlir::LogicalResult finishTensorMemory(mlir::ModuleOp module);

/// The lowering of tile_as.mmaf_global (the mma.sync path fed by cp.async).
/// The TMA ring's ops (WgmmaRingToLLVM.cpp).
void populateWgmmaRingToLLVMPatterns(TileLLVMTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns);
/// The tcgen05.mma consumer of the TMA ring (Tcgen05RingToLLVM.cpp).
void populateTcgen05RingToLLVMPatterns(TileLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);

void populateMmaFGlobalToLLVMPatterns(TileLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_MATRIXLOWERING_H
