//===- SwizzledStaging.cpp - A and B in the swizzled shared-memory layouts -===//
//
// See SwizzledStaging.h.
//
//===----------------------------------------------------------------------===//
#include "SwizzledStaging.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace tilepipe::tile_as {

uint64_t getDescriptorLayoutBits(const SwizzledArray &array, bool kMajor,
                                 DescriptorFormat format) {
  uint64_t leading = kMajor ? 1 : uint64_t(array.blockBytes()) >> 4;
  uint64_t bits = leading << 16 | (uint64_t(array.atomBytes()) >> 4) << 32;
  if (format == DescriptorFormat::Wgmma)
    return bits | uint64_t(array.width == 128 ? 1 : array.width == 64 ? 2 : 3) << 62;
  return bits | uint64_t(1) << 46 |
         uint64_t(array.width == 128 ? 2 : array.width == 64 ? 4 : 6) << 61;
}

namespace {

/// `value` (i32) as x + c with c constant, looking through the adds,
/// subtractions and multiplications by constants of index arithmetic; x is
/// null when all of `value` is constant, and built anew (from `value`'s
/// non-constant leaves) where the constants sit inside it.
std::pair<Value, int64_t> splitConstant(const IndexMath &m, Value value) {
  llvm::APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return {Value(), constant.getSExtValue()};
  Operation *op = value.getDefiningOp();
  if (isa_and_nonnull<LLVM::AddOp, LLVM::SubOp>(op)) {
    auto [x, cx] = splitConstant(m, op->getOperand(0));
    auto [y, cy] = splitConstant(m, op->getOperand(1));
    bool sub = isa<LLVM::SubOp>(op);
    if (sub && y)
      return {value, 0};
    Value rest = !x ? y : !y ? x : m.add(x, y);
    return {rest, sub ? cx - cy : cx + cy};
  }
  if (isa_and_nonnull<LLVM::MulOp>(op) &&
      matchPattern(op->getOperand(1), m_ConstantInt(&constant))) {
    int64_t factor = constant.getSExtValue();
    auto [x, cx] = splitConstant(m, op->getOperand(0));
    return {x ? m.mul(x, factor) : x, cx * factor};
  }
  return {value, 0};
}

} // namespace

Value SwizzledArray::slot(const IndexMath &m, Value row, Value c) const {
  auto [variable, constant] = splitConstant(m, row);
  // row = (variable + low) + high, high a multiple of 8.
  int64_t low = (constant % kAtomRows + kAtomRows) % kAtomRows, high = constant - low;
  Value patternRow = variable ? m.add(variable, low) : m.e.i32(low);
  Value pattern = m.shl(m.bits(m.mul(patternRow, width), 7, width / 16 - 1), 4);
  Value permuted = m.bitXor(m.mul(m.rem(c, perBlock()), elementBytes), pattern);
  int64_t perRow = width / elementBytes;
  Value slot = m.add(m.add(m.mul(m.div(c, perBlock()), blockBytes() / elementBytes),
                           m.mul(patternRow, perRow)),
                     m.div(permuted, elementBytes));
  return m.add(slot, high * perRow);
}

SwizzledStaging::SwizzledStaging(const MmaShape &s, int64_t chunk, unsigned elementBytes,
                                 bool stageA, bool bKMajor)
    : chunk(chunk), buffers(chunk < s.k ? 2 : 1), bKMajor(bKMajor),
      a(stageA ? s.batch * s.m : 0, chunk, elementBytes),
      b(bKMajor ? SwizzledArray(s.batch * s.n, chunk, elementBytes)
                : SwizzledArray(s.batch * chunk, s.n, elementBytes)) {
  bOffset = llvm::alignTo(a.bytes(), kSwizzleAlignment);
  bufferBytes = llvm::alignTo(bOffset + b.bytes(), kSwizzleAlignment);
  bytes = buffers * bufferBytes;
}

int64_t SwizzledStaging::chooseChunk(const MmaShape &s, unsigned elementBytes, bool stageA,
                                     uint64_t limit, bool bKMajor) {
  return chooseKChunk(s.k, kMmaStepBytes / elementBytes, limit,
                      [&](int64_t chunk) {
                        return SwizzledStaging(s, chunk, elementBytes, stageA, bKMajor).bytes;
                      });
}

LogicalResult stageSwizzledChunk(RegisterEmitter &e, ConversionPatternRewriter &rewriter,
                                 const SwizzledStaging &staging, int64_t buffer, Value scratch,
                                 const StagedOperand *a, const StagedOperand &b, Type element,
                                 const MmaShape &s, int64_t k0, int64_t len,
                                 llvm::function_ref<Value(size_t)> aRowOf) {
  Location loc = e.loc;
  IndexMath m{e};
  unsigned rank = b.laid.shape.size();
  bool needsCheck = s.k > staging.chunk;
  auto bytesAt = [&](uint64_t offset) -> Value {
    return LLVM::GEPOp::create(rewriter, loc, scratch.getType(), rewriter.getI8Type(), scratch,
                               ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  };
  // Earlier readers of the scratch, and of this buffer the multiplies of
  // two chunks before, are done.
  emitCTABarrier(rewriter, loc);
  if (a && failed(stageRuns(
               e, *a, bytesAt(staging.aStart(buffer)), element, /*transposed=*/false, rank - 1,
               k0, len, needsCheck, /*trash=*/0,
               [&](size_t i, Value kLocal) { return staging.a.slot(m, aRowOf(i), kLocal); },
               &rewriter)))
    return failure();
  if (failed(stageRuns(
          e, b, bytesAt(staging.bStart(buffer)), element, /*transposed=*/false, rank - 2, k0, len,
          needsCheck, /*trash=*/0,
          [&](size_t i, Value kLocal) {
            Value batch = s.batched ? b.regs.coords[0][i] : e.i32(0);
            Value row = m.add(m.mul(batch, staging.chunk), kLocal);
            return staging.b.slot(m, row, b.regs.coords[rank - 1][i]);
          },
          &rewriter)))
    return failure();
  if ((a && a->global) || b.global) {
    // This thread's copies have landed (in the generic proxy, which the
    // fence below orders before the tensor cores' async-proxy reads).
    NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
  }
  MLIRContext *context = rewriter.getContext();
  NVVM::FenceProxyOp::create(rewriter, loc,
                             NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
                             NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
  emitCTABarrier(rewriter, loc); // the chunk is complete
  return success();
}

} // namespace tilepipe::tile_as
