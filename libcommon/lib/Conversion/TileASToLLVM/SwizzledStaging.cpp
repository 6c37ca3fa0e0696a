//===- SwizzledStaging.cpp - A and B in the swizzled shared-memory layouts -===//
//
// See SwizzledStaging.h.
//
//===----------------------------------------------------------------------===//
#include "SwizzledStaging.h"

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

SwizzledStaging::SwizzledStaging(const MmaShape &s, int64_t chunk, unsigned elementBytes,
                                 bool stageA, bool bKMajor)
    : chunk(chunk), buffers(chunk < s.k ? 2 : 1), n(s.n), bKMajor(bKMajor),
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

int64_t SwizzledStaging::bRowOffset(int64_t batch, int64_t n0) const {
  if (bKMajor) // rows W bytes apart, the first block along K
    return (batch * n + n0) * b.width;
  return n0 / b.perBlock() * b.blockBytes() + batch * chunk * b.width;
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
  // A K-major B takes its registers one at a time: their runs go along N,
  // its staged rows along K.
  if (failed(stageRuns(
          e, b, bytesAt(staging.bStart(buffer)), element, /*transposed=*/staging.bKMajor,
          rank - 2, k0, len, needsCheck, /*trash=*/0,
          [&](size_t i, Value kLocal) {
            Value batch = s.batched ? b.regs.coords[0][i] : e.i32(0);
            Value n = b.regs.coords[rank - 1][i];
            if (staging.bKMajor)
              return staging.b.slot(m, m.add(m.mul(batch, s.n), n), kLocal);
            return staging.b.slot(m, m.add(m.mul(batch, staging.chunk), kLocal), n);
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
