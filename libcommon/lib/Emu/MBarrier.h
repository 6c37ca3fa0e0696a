//===- MBarrier.h - The mbarrier object and its transaction count ----------===//
//
// PTX ISA "Parallel Synchronization and Communication Instructions: mbarrier":
// an mbarrier is an opaque 8-byte object in shared memory holding the
// current phase, the pending and expected arrival counts and the tx-count.
// The emulator's encoding is its own (MBarrier.cpp); asynchronous copies
// (BulkCopy.cpp, TensorCopy.cpp) signal the bytes they have written through
// completeMBarrierTx, as the async proxy's complete-tx operation;
// tcgen05.commit arrives through arriveOnMBarrier.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_MBARRIER_H
#define TILEPIPE_LIB_EMU_MBARRIER_H

#include "Intrinsics.h"

namespace tilepipe::emu {

/// The complete-tx operation of a copy that wrote `bytes` bytes and signals
/// the mbarrier at `address` (a shared::cta address of the running CTA).
void completeMBarrierTx(uintptr_t address, uint32_t bytes);

/// One arrive-on operation with a count of 1 on the mbarrier at `address`
/// (a shared::cta address), as tcgen05.commit's .mbarrier::arrive::one
/// performs it when the committed operations have completed.
void arriveOnMBarrier(uintptr_t address);

/// mbarrier.* intrinsics ("mbarrier.arrive.expect.tx.scope.cta.space.cta",
/// without the "llvm.nvvm." prefix).
std::optional<IntrinsicHandler> lookupMBarrierIntrinsic(llvm::StringRef name);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_MBARRIER_H
