//===- SharedExchange.h - Move tensor elements between threads ------------===//
//
// Ops that change which thread holds which element (layout conversions,
// permute, reshape, extract, cat, broadcast across layouts) go through the
// CTA's shared-memory scratch buffer: every thread writes each register of
// the source(s) to the slot of its element, a CTA barrier, then every thread
// reads each result register from the slot its element comes from. The op
// only says where elements go (slot functions of the coordinates).
//
// Exchanges larger than the static shared-memory limit run in chunks of
// slots separated by barriers; in a chunk, accesses to slots outside it go
// to one sink slot past the chunk and their loaded values are dropped, so
// the code stays branch-free.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SHAREDEXCHANGE_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SHAREDEXCHANGE_H

#include "LoweringCommon.h"
#include "RegisterEmitter.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilepipe::tile_as {

/// The slot (i32) of the element at `coords` (i32, one per dimension).
using SlotFunction =
    llvm::function_ref<mlir::Value(RegisterEmitter &, llvm::ArrayRef<mlir::Value>)>;

/// One tensor written into the exchange buffer.
struct ExchangeSource {
  mlir::Value registers; ///< the LLVM vector of this thread's registers
  Laid laid;
  SlotFunction slot;
};

/// The row-major index of `coords` in `shape` (i32).
mlir::Value rowMajorSlot(RegisterEmitter &e, llvm::ArrayRef<mlir::Value> coords,
                         llvm::ArrayRef<int64_t> shape);

/// Writes `sources` into slots [0, numSlots) of shared memory and reads the
/// registers of a `resultType` vector laid out as `result` from
/// `resultSlot`. Fails with a diagnostic on `op` when no chunk fits.
mlir::FailureOr<mlir::Value>
exchangeThroughShared(mlir::OpBuilder &builder, mlir::Operation *op,
                      llvm::ArrayRef<ExchangeSource> sources, Laid result,
                      mlir::VectorType resultType, SlotFunction resultSlot,
                      int64_t numSlots);

/// One tensor's registers with the slot (i32) of each, for exchangeSlots,
/// and optionally the byte alignment each slot's address is known to have
/// (which lets LLVM merge a thread's adjacent accesses into vectors).
struct SlottedRegisters {
  mlir::Value registers;
  llvm::SmallVector<mlir::Value> slots;
  llvm::SmallVector<unsigned> alignments = {};
};

/// exchangeThroughShared with the slots given per register: each source
/// register goes to its slot, result register i is read from
/// `reads.slots[i]` (`reads.registers` unused).
mlir::FailureOr<mlir::Value>
exchangeSlots(mlir::OpBuilder &builder, mlir::Operation *op,
              llvm::ArrayRef<SlottedRegisters> sources, const SlottedRegisters &reads,
              mlir::VectorType resultType, int64_t numSlots);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SHAREDEXCHANGE_H
