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

namespace tilepipe::tile_as {

/// A !llvm.ptr<3> to the start of the scratch buffer, grown to at least
/// `bytes` and aligned to at least `alignment` bytes (swizzled layouts need
/// their pattern's alignment). `anchor` is any op inside the module. Fails
/// (with a diagnostic on `anchor`) when `bytes` exceeds kMaxStaticSharedBytes.
mlir::FailureOr<mlir::Value> getSharedScratch(mlir::OpBuilder &builder,
                                              mlir::Location loc,
                                              mlir::Operation *anchor,
                                              uint64_t bytes, uint64_t alignment = 16);

/// bar.sync 0 across the CTA: every thread's shared-memory writes before it
/// are visible to every thread after it.
void emitCTABarrier(mlir::OpBuilder &builder, mlir::Location loc);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SHAREDSCRATCH_H
