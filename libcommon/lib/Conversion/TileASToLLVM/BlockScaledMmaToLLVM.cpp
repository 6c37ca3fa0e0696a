//===- BlockScaledMmaToLLVM.cpp - mmaf_scaled on block-scaled mma.sync ----===//
//
// tile_as.mmaf_scaled on sm_120/121 (plain, a, f) as block-scaled mma.sync via
// the LLVM intrinsics llvm.nvvm.mma.block.scale.*: fp8 operands with one
// e8m0 scale per 32 k as m16n8k32 kind::mxf8f6f4 scale_vec::1X; e2m1
// operands with e8m0 scales per 32 k (MX-FP4) as m16n8k64 kind::mxf4
// scale_vec::2X, with e4m3 scales per 16 k (NVFP4) as m16n8k64
// kind::mxf4nvf4 scale_vec::4X ue4m3. A and B take the 8-bit mma.sync path
// (lowerMmaSyncWith: staged through the shared scratch, fragments read with
// ldmatrix, e2m1 packed from bytes); this file adds the scales.
//
// With scale_vec::1X one scale covers a fragment row of A (or column of B)
// for the whole k step of 32, and the instruction reads it from a lane's
// scale register (PTX ISA, "Block Scaling for mma.sync"; the emulator's
// BlockScaledMma.cpp): with thread-id-a 0 the scale of A row m comes from
// lane 4 * (m % 8) + m / 8, with thread-id-b 0 the scale of B column n from
// lane 4 * n, byte byte-id (0 here) of the register. So lane l supplies A
// row l / 4 + 8 * (l % 2) of the fragment (lanes with l % 4 > 1 are not
// read) and B column l / 4. Fragment rows 8-15 are accumulator rows
// 8 * warpsM further down (getMmaAccumulatorLayout), which is exactly where
// the lane's own second accumulator row lies; the lane's B column is its
// own first accumulator column moved to the fragment's column l / 4.
//
// With scale_vec::2X and 4X the lane and register are the same, and the
// step's two or four k blocks are bytes 0-1 or 0-3 of the register (byte-id
// 0): a step of 64 k starts at a multiple of its block count, so the
// shifted word below holds them in order.
//
// Before the multiply the scale tiles go through the shared scratch once
// (as [batch][M][blocks] and [batch][N][blocks] bytes, each row padded to
// whole words) and every lane loads the words of its rows and columns:
// four k blocks per i32. Per k step the scale register is that word
// shifted right by 8 * (block % 4), so byte 0 holds the block's scale. The
// multiply's own staging then starts with a barrier, so it may reuse the
// scratch.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"
#include "SharedScratch.h"
#include "tilepipe/Dialect/TileShapeChecks.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

#include <map>

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// k blocks whose scales share one i32 scale word.
constexpr int64_t kBlocksPerWord = 4;

/// Where the scale tiles are staged: [batch][rows][pitch] bytes, A then B.
struct ScaleStaging {
  int64_t words = 0, pitch = 0;
  uint64_t bOffset = 0, bytes = 0;
  ScaleStaging(const MmaShape &s, int64_t block) {
    int64_t blocks = s.k / block;
    words = llvm::divideCeil(blocks, kBlocksPerWord);
    pitch = words * 4;
    bOffset = s.batch * s.m * pitch;
    bytes = bOffset + s.batch * s.n * pitch;
  }
};

/// The scale words one lane holds for one fragment: A's for its row, B's
/// for its column, one per four k blocks.
struct LaneScales {
  SmallVector<Value> a, b;
};

/// The scale register of the k step starting at K index `k` (a multiple of
/// the step) from the words `words` of a row or column, k blocks of `block`:
/// byte 0 is the step's first scale, the step's others (two with
/// scale_vec::2X, four with 4X) follow it, since a step starts at a multiple
/// of its scale count of blocks.
Value selectScale(IndexMath &m, ArrayRef<Value> words, Value k, int64_t block) {
  RegisterEmitter &e = m.e;
  Value blockIndex = m.div(k, block);
  Value word = words.front();
  if (words.size() > 1) {
    Value index = m.div(blockIndex, kBlocksPerWord);
    for (int64_t w = 1, count = words.size(); w < count; ++w) {
      Value is = LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::eq, index, e.i32(w));
      word = LLVM::SelectOp::create(e.builder, e.loc, is, words[w], word);
    }
  }
  Value shift = m.mul(m.rem(blockIndex, kBlocksPerWord), 8);
  return LLVM::LShrOp::create(e.builder, e.loc, word, shift);
}

/// The intrinsic of the block-scaled mma.sync kind of A and B elements `a`,
/// `b` with `scale` scales (tile types; getScaledMmaBlock's kinds): fp8 are
/// m16n8k32 kind::mxf8f6f4 with one ue8m0 per 32 k (scale_vec::1X), e2m1
/// m16n8k64 kind::mxf4 with two ue8m0 per step (2X) or, with e4m3 scales
/// per 16 k (NVFP4), kind::mxf4nvf4 with four ue4m3 (4X).
std::string getBlockScaledMmaIntrinsic(Type a, Type b, Type scale) {
  if (!isa<Float4E2M1FNType>(a))
    return ("llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32." +
            getFloat8Name(a) + "." + getFloat8Name(b) + ".f32.ue8m0")
        .str();
  if (isa<Float8E8M0FNUType>(scale))
    return "llvm.nvvm.mma.block.scale.m16n8k64.row.col.mxf4.scale.2x.f32.e2m1.e2m1.f32.ue8m0";
  return "llvm.nvvm.mma.block.scale.m16n8k64.row.col.mxf4nvf4.scale.4x.f32.e2m1.e2m1.f32.ue4m3";
}

struct MmaFScaledLowering : ConvertOpToLLVMPattern<MmaFScaledOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(MmaFScaledOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<MmaSyncForm> form = getMmaSyncForm(op);
    if (!form || !canLowerToMmaSync(op))
      return op.emitOpError("needs the mma.sync accumulator layout and staging that fits the "
                            "shared scratch (block-scaled mma.sync is its only lowering)");
    Location loc = op.getLoc();
    auto accTensor = cast<RankedTensorType>(op.getAcc().getType());
    FailureOr<Laid> accLaid = Laid::of(op, accTensor);
    FailureOr<Laid> saLaid = Laid::of(op, op.getLhsScale().getType());
    FailureOr<Laid> sbLaid = Laid::of(op, op.getRhsScale().getType());
    FailureOr<MmaShape> shape =
        getMmaShape(cast<RankedTensorType>(op.getLhs().getType()).getShape(), accTensor.getShape());
    if (failed(accLaid) || failed(saLaid) || failed(sbLaid) || failed(shape))
      return failure();
    const MmaShape &s = *shape;
    unsigned rank = accTensor.getRank(), mDim = rank - 2, nDim = rank - 1;
    Type a = getElementTypeOrSelf(op.getLhs().getType());
    Type b = getElementTypeOrSelf(op.getRhs().getType());
    Type scale = getElementTypeOrSelf(op.getLhsScale().getType());
    int64_t block = getScaledMmaBlock(a, scale);
    ScaleStaging staging(s, block);

    RegisterEmitter e(rewriter, loc);
    IndexMath m{e};
    FailureOr<OperandStaging> scratch =
        getOperandStaging(rewriter, loc, op, staging.bytes, staging.bOffset);
    if (failed(scratch))
      return failure();
    auto batchOf = [&](const OperandRegs &regs, size_t i) {
      return s.batched ? regs.coords[0][i] : e.i32(0);
    };
    Type i32 = rewriter.getI32Type();
    auto at = [&](Value base, Type type, Value index) {
      return LLVM::GEPOp::create(rewriter, loc, base.getType(), type, base,
                                 ArrayRef<LLVM::GEPArg>{index});
    };

    // The scale tiles into the scratch ([batch][rows][pitch] bytes).
    stageScaleBytes(e, rewriter, s, adaptor.getLhsScale(), *saLaid, adaptor.getRhsScale(),
                    *sbLaid, scratch->aBase, scratch->bBase, staging.pitch);

    // Each fragment's scale words, keyed by its first accumulator register
    // (the site's regs[0]): the registers of even row and column index.
    BlockedAttr layout = accLaid->layout;
    OperandRegs c = unpackOperand(e, adaptor.getAcc(), *accLaid);
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    Value lane = m.bits(tid, 0, 31);
    Value secondHalf = LLVM::TruncOp::create(rewriter, loc, rewriter.getI1Type(), lane);
    Value columnShift = m.sub(m.bits(lane, 2, 7), m.mul(m.bits(lane, 0, 3), 2));
    auto loadWords = [&](Value base, Value line) {
      SmallVector<Value> words;
      for (int64_t w = 0; w < staging.words; ++w)
        words.push_back(LLVM::LoadOp::create(
            rewriter, loc, i32, at(base, i32, m.add(m.mul(line, staging.words), w)), 4));
      return words;
    };
    std::map<int64_t, LaneScales> scales;
    for (int64_t reg = 0, count = c.values.size(); reg < count; ++reg) {
      SmallVector<int64_t> perDim = delinearizeRegister(layout, accLaid->shape, reg);
      if (perDim[mDim] % 2 || perDim[nDim] % 2)
        continue;
      SmallVector<int64_t> secondRow(perDim);
      ++secondRow[mDim];
      int64_t lower = linearizeRegister(layout, accLaid->shape, secondRow);
      Value row = LLVM::SelectOp::create(rewriter, loc, secondHalf, c.coords[mDim][lower],
                                         c.coords[mDim][reg]);
      Value column = m.add(c.coords[nDim][reg], columnShift);
      Value batch = batchOf(c, reg);
      scales[reg] = LaneScales{loadWords(scratch->aBase, m.add(m.mul(batch, s.m), row)),
                               loadWords(scratch->bBase, m.add(m.mul(batch, s.n), column))};
    }

    std::string name = getBlockScaledMmaIntrinsic(a, b, scale);
    Type f32 = rewriter.getF32Type();
    Type resultType =
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), SmallVector<Type>(4, f32));
    auto issue = [&](RegisterEmitter &e, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                     ArrayRef<Value> cRegs, const MmaFragmentSite &site) {
      IndexMath m{e};
      const LaneScales &lane = scales.at(site.regs[0]);
      Value zero = LLVM::ConstantOp::create(e.builder, e.loc, e.builder.getI16Type(),
                                            e.builder.getI16IntegerAttr(0));
      SmallVector<Value> operands;
      llvm::append_range(operands, aRegs);
      llvm::append_range(operands, bRegs);
      llvm::append_range(operands, cRegs);
      // Scale register, byte-id 0, thread-id 0 for A, then for B.
      operands.append({selectScale(m, lane.a, site.k, block), zero, zero});
      operands.append({selectScale(m, lane.b, site.k, block), zero, zero});
      Value d = LLVM::CallIntrinsicOp::create(e.builder, e.loc, resultType,
                                              e.builder.getStringAttr(name), operands)
                    .getResult(0);
      SmallVector<Value> results;
      for (int64_t i = 0; i < 4; ++i)
        results.push_back(LLVM::ExtractValueOp::create(e.builder, e.loc, d, i));
      return results;
    };
    return lowerMmaSyncWith(op, adaptor.getLhs(), adaptor.getRhs(), adaptor.getAcc(), *form,
                            getMmaSyncArithmetic(op), issue, *getTypeConverter(), rewriter);
  }
};

} // namespace

void populateBlockScaledMmaToLLVMPatterns(TileLLVMTypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<MmaFScaledLowering>(converter);
}

} // namespace tilepipe::tile_as
