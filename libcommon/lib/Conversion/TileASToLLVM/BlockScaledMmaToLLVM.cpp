//===- BlockScaledMmaToLLVM.cpp - mmaf_scaled on block-scaled mma.sync ----===//
//
// tile_as.mmaf_scaled (fp8 operands, one e8m0 scale per 32 k) on sm_120a /
// sm_121a as mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale
// .scale_vec::1X.f32.<a>.<b>.f32.ue8m0, through the LLVM intrinsic
// llvm.nvvm.mma.block.scale.*. A and B take the fp8 mma.sync path
// (lowerMmaSyncWith: staged through the shared scratch, fragments read with
// ldmatrix); this file adds the scales.
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
  ScaleStaging(const MmaShape &s) {
    int64_t blocks = s.k / kScaledMmaBlock;
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
/// 32) from the words `words` of a row or column: byte 0 is the step's scale.
Value selectScale(IndexMath &m, ArrayRef<Value> words, Value k) {
  RegisterEmitter &e = m.e;
  Value block = m.div(k, kScaledMmaBlock);
  Value word = words.front();
  if (words.size() > 1) {
    Value index = m.div(block, kBlocksPerWord);
    for (int64_t w = 1, count = words.size(); w < count; ++w) {
      Value is = LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::eq, index, e.i32(w));
      word = LLVM::SelectOp::create(e.builder, e.loc, is, words[w], word);
    }
  }
  Value shift = m.mul(m.rem(block, kBlocksPerWord), 8);
  return LLVM::LShrOp::create(e.builder, e.loc, word, shift);
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
    ScaleStaging staging(s);

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

    Type a = getElementTypeOrSelf(op.getLhs().getType());
    Type b = getElementTypeOrSelf(op.getRhs().getType());
    std::string name = ("llvm.nvvm.mma.block.scale.m16n8k32.row.col.mxf8f6f4.scale.1x.f32." +
                        getFloat8Name(a) + "." + getFloat8Name(b) + ".f32.ue8m0")
                           .str();
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
      operands.append({selectScale(m, lane.a, site.k), zero, zero});
      operands.append({selectScale(m, lane.b, site.k), zero, zero});
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
