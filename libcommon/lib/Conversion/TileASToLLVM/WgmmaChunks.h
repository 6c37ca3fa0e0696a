//===- WgmmaChunks.h - the wgmmas and TMA boxes of one staged K chunk -----===//
//
// The parts of the wgmma lowering (WgmmaToLLVM.cpp) that work one K chunk
// at a time, shared by mmaf/mmaf_global (which stage and multiply every
// chunk of their K in one op) and the TMA ring (WgmmaRingToLLVM.cpp, whose
// ops load and multiply one chunk each, in ring slots laid out as one
// SwizzledStaging buffer).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_WGMMACHUNKS_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_WGMMACHUNKS_H

#include "SwizzledStaging.h"

namespace tilepipe::tile_as {

/// Issues the wgmmas of one K chunk staged as `staging` describes onto the
/// f32 sums of an accumulator in the wgmma layout (`layout`, `accShape`):
/// per warpgroup one wgmma per (k step, batch, row pair, at most 256
/// columns) between a wgmma.fence and a commit_group (no wait). Where a
/// thread has an odd number of row registers (a 32-row tile of one
/// warpgroup), the last pair's second half is padding: the issuer keeps
/// its D registers from one chunk to the next, so that nothing but a wgmma
/// writes a register of a D fragment in flight.
class WgmmaChunkIssuer {
public:
  /// `aRegs`: A comes from registers (the accumulator's layout) rather
  /// than from the staging; `bKMajor`: B is staged K-major.
  WgmmaChunkIssuer(mlir::ConversionPatternRewriter &rewriter, RegisterEmitter &e, const MmaShape &s, BlockedAttr layout,
                   ArrayRef<int64_t> accShape, const SwizzledStaging &staging, Type aElement,
                   Type bElement, bool bKMajor, const StagedOperand *aRegs = nullptr);

  /// The chunk of K from `k0` (`len` of it) whose A and B start at the i64
  /// shared addresses `aAddress` and `bAddress`; the sums after it (the
  /// accumulator's registers, without the padding rows').
  mlir::FailureOr<SmallVector<Value>> issue(Value aAddress, Value bAddress, int64_t k0,
                                            int64_t len, ArrayRef<Value> sums);

private:
  struct Issue {
    int64_t batch, pair, n0, width;
  };
  SmallVector<Value> step(Value k, int64_t staticK, int64_t k0, Value aAddress, Value bAddress,
                          ValueRange carried, bool &emitted);
  int64_t regOf(int64_t batch, int64_t row, int64_t col) const;

  mlir::ConversionPatternRewriter &rewriter;
  RegisterEmitter &e;
  MmaShape s;
  BlockedAttr layout;
  SmallVector<int64_t> accShape;
  const SwizzledStaging &staging;
  Type aElement, bElement;
  bool bKMajor;
  const StagedOperand *aRegs;
  int64_t warpgroups = 0, rowPairs = 0;
  /// Row and column registers per thread; the accumulator's registers.
  int64_t rowRegs = 0, colRegs = 0, realRegs = 0;
  /// The padding rows' D registers (row register rowRegs where that is
  /// odd), as the last chunk left them.
  SmallVector<Value> padding;
  Value warpgroup;
  uint64_t aLayoutBits = 0, bLayoutBits = 0;
  SmallVector<Issue> issues;
};

/// The TMA operands (views and boxes) that fill one chunk of `staging`: A
/// (unless null: in registers or staged by the threads) in its rows' wgmma
/// order, in boxes of 8 rows, then B: its chunk rows in order (into the
/// landing array where a tf32/fp8 B lands N-major), or from a transposed
/// view (`bTransposed`, K-major) its N rows, in boxes of up to 256.
SmallVector<TmaOperand, 2> getWgmmaTmaOperands(const SwizzledStaging &staging, const MmaShape &s,
                                               int64_t warps, const TmaView *aView,
                                               const TmaView &bView, bool bTransposed);

/// The TMA operands that fill one chunk of `staging` with A's and B's rows
/// in order (the mma.sync consumer of the TMA ring, whose ldmatrix names
/// each row's address): A's M rows and B's chunk rows, in boxes of up to
/// 256 rows.
SmallVector<TmaOperand, 2> getInOrderTmaOperands(const SwizzledStaging &staging,
                                                 const MmaShape &s, const TmaView &aView,
                                                 const TmaView &bView);

/// The shape of one chunk of an unbatched [M, N] multiply (K the chunk),
/// and its staging as one buffer (the TMA ring's slot).
MmaShape getChunkShape(ArrayRef<int64_t> accShape, int64_t chunk);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_WGMMACHUNKS_H
