//===- LayoutConversionToLLVM.h - convert_layout as its plan says ---------===//
//
// convert_layout between two register layouts of one shape, carried out as
// planLayoutConversion (LayoutConversion.h) plans it on their linear
// layouts: a register permutation (shufflevector) where the lanes and
// warps hold the same elements, warp shuffles (shfl.sync.idx) where only
// lanes of a warp trade elements, and otherwise the shared-memory exchange
// (SharedExchange.h) in the slots exchangeSlotLayout picks against bank
// conflicts, each register's slot a constant XOR one per-thread term.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_LAYOUTCONVERSIONTOLLVM_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_LAYOUTCONVERSIONTOLLVM_H

#include "LoweringCommon.h"
#include "RegisterEmitter.h"

namespace tilepipe::tile_as {

/// The registers of `source` (laid out as `from`) laid out as `to` (the
/// same shape), of LLVM type `type`; null where a layout is no linear
/// layout (the caller exchanges row-major), failure where the exchange
/// does not fit (diagnosed on `op`). `op` names the module whose
/// tile_as.num_warps counts the warps.
mlir::FailureOr<mlir::Value> lowerLayoutConversion(RegisterEmitter &e, mlir::Operation *op,
                                                   mlir::Value source, const Laid &from,
                                                   const Laid &to, mlir::VectorType type);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_LAYOUTCONVERSIONTOLLVM_H
