//===- SharedScratch.h - The CTA's shared-memory scratch buffer -----------===//
//
// Ops that move data between threads (layout conversions, permutes,
// reductions, the simple matrix multiply) stage it through one module-wide
// buffer of static shared memory, `@__tile_scratch`. Each use asks for the
// bytes it needs; the buffer is as large as the largest request. Uses are
// separated by CTA barriers, so they may all start at offset 0.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SHAREDSCRATCH_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SHAREDSCRATCH_H

#include "tilepipe/Dialect/TileAS/IR/MmaStaging.h" // kMaxStaticSharedBytes

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace tilepipe::tile_as {

/// A !llvm.ptr<3> to the start of the scratch buffer, grown to at least
/// `bytes` and aligned to at least `alignment` bytes (swizzled layouts need
/// their pattern's alignment). `anchor` is any op inside the module. Fails
/// (with a diagnostic on `anchor`) when `bytes` exceeds kMaxStaticSharedBytes.
mlir::FailureOr<mlir::Value> getSharedScratch(mlir::OpBuilder &builder,
                                              mlir::Location loc,
                                              mlir::Operation *anchor,
                                              uint64_t bytes, uint64_t alignment = 16);

/// Which threads of a warp-specialized kernel (tile_as.producer_warps, see
/// WarpSpecializeRings.cpp) reach a CTA barrier.
enum class BarrierReach {
  /// The tile code's own barriers (staging, exchanges, reductions, ordered
  /// accesses): only the consumers run tile code, as the producer's body is
  /// ring ops and scalar arithmetic, and the producer leaves after its loops.
  Consumers,
  /// Kernel entry and exit (the device-heap buffers of global allocas),
  /// which the producer passes too.
  AllThreads,
};

/// A barrier across the CTA: every thread's shared-memory writes before it
/// are visible to every thread after it. bar.sync 0 of every thread, except
/// in a warp-specialized kernel: there barrier 0 counts the consumers, and a
/// barrier of all threads is the rings' named barrier (both roles meet
/// their barriers in one order: entry, each ring's begin and end, exit).
void emitCTABarrier(mlir::OpBuilder &builder, mlir::Location loc,
                    BarrierReach reach = BarrierReach::Consumers);

/// Whether `op`'s module is warp-specialized, so that a plain nvvm.barrier0
/// (made before the roles were, by tile-lower) must become the consumers'.
bool isInWarpSpecializedModule(mlir::Operation *op);

/// nvvm.barrier0 in a warp-specialized module -> emitCTABarrier.
void populateCTABarrierToLLVMPatterns(mlir::RewritePatternSet &patterns);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SHAREDSCRATCH_H
