//===- BulkCopy.h - cp.async.bulk and cp.async.bulk.tensor ----------------===//
//
// The bulk copies of the Tensor Memory Accelerator (PTX ISA "Data Movement
// and Conversion Instructions: cp.async.bulk, cp.async.bulk.tensor") run to
// completion in the issuing thread: the data is in place when the
// instruction returns and the mbarrier's complete-tx follows at once, which
// is one legal ordering of the asynchronous copy (a kernel that reads the
// destination before waiting is racy on hardware and is not detected here).
// bulk commit_group/wait_group therefore have nothing to wait for.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_BULKCOPY_H
#define TILEPIPE_LIB_EMU_BULKCOPY_H

#include "Intrinsics.h"

namespace tilepipe::emu {

/// cp.async.bulk.{global.to.shared.*, shared.cta.to.*} (BulkCopy.cpp).
std::optional<IntrinsicHandler> lookupBulkCopyIntrinsic(llvm::StringRef name);

/// cp.async.bulk.tensor.{g2s,g2s.cta,s2g}.tile.<N>d (TensorCopy.cpp).
std::optional<IntrinsicHandler> lookupTensorCopyIntrinsic(llvm::StringRef name);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_BULKCOPY_H
