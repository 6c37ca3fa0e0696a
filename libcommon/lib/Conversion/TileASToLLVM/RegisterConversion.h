//===- RegisterConversion.h - Layout changes without shared memory --------===//
//
// convert_layout between two register layouts of one shape, carried out as
// planLayoutConversion (LayoutConversion.h) plans it on their linear
// layouts: a register permutation (shufflevector) where the lanes and
// warps hold the same elements, warp shuffles (shfl.sync.idx) where only
// lanes of a warp trade elements. Other changes go through shared memory
// (SharedExchange.h).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_REGISTERCONVERSION_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_REGISTERCONVERSION_H

#include "LoweringCommon.h"
#include "RegisterEmitter.h"

namespace tilepipe::tile_as {

/// The registers of `source` (laid out as `from`) laid out as `to` (the
/// same shape), of LLVM type `type`, computed without shared memory; null
/// where the plan needs it (or a layout is no linear layout). `op` names
/// the module whose tile_as.num_warps counts the warps.
mlir::Value convertInRegisters(RegisterEmitter &e, mlir::Operation *op, mlir::Value source,
                               const Laid &from, const Laid &to, mlir::VectorType type);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_REGISTERCONVERSION_H
