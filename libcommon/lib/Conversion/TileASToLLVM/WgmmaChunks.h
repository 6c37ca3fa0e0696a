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

#include <array>

namespace tilepipe::tile_as {

/// Issues the wgmmas of one K chunk staged as `staging` describes onto the
/// f32 sums of an accumulator in the wgmma layout (`layout`, `accShape`):
/// per warpgroup one wgmma per (k step, batch, row pair, at most 256
/// columns) between a wgmma.fence and a commit_group (no wait). Where a
/// thread has an odd number of row registers (a 32-row tile of one
/// warpgroup), the last pair's second half is padding: the issuer keeps
/// its D registers from one chunk to the next, so that nothing but a wgmma
/// writes a register of a D fragment in flight.
///
/// Promoted fp8 accumulation (promoteEvery; tilepipe-promote-fp8-accumulation
/// has why): the wgmmas do not accumulate into the accumulator. Per
/// interval of at most `steps` k steps within the chunk and per N piece of
/// each (batch, row pair) wgmma, one group between fence and commit sums
/// the interval into a temporary D fragment, the first wgmma with scale-d
/// 0 (so the temporary starts undefined: no register is written before the
/// fence). After each commit, wgmma.wait_group 1 with the previous piece's
/// temporary tied through it (nothing reads it before the wait) lets that
/// piece be added into the accumulator's registers by add.f32 while this
/// piece's wgmmas run: two temporaries live, which bounds the pieces' width
/// (a register budget, see WgmmaToLLVM.cpp). The last piece stays in
/// flight after issue(); wait(0, ...) adds it. Padding rows are dropped.
/// The two temporaries are slots the pieces take in turn, across intervals
/// and chunks: a piece's first wgmma takes as its D (unread at scale-d 0)
/// the values its slot's last piece was added from, so the tied asm
/// operands put it in the same PTX registers (the adds come first), as
/// CUTLASS's reused accumulator array does. ptxas (13.0) does not merge
/// the fresh D registers of separate pieces well: with a fresh temporary
/// per piece cuTile's fp8 BatchMatMul took 255 registers and spilled 816
/// bytes (a piece a wgmma waited for at once, 16 registers: still 308),
/// with the two slots 240 and no spills.
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

  /// Sums fp8 K in temporaries of at most `steps` k steps each, added into
  /// the accumulator (see the class comment); 0 does not promote.
  void promoteEvery(int64_t steps);
  bool promotes() const { return promotion > 0; }
  /// wgmma.wait_group `groups` after issue(); the sums after it (promoted:
  /// the pending piece added once no group is left in flight).
  SmallVector<Value> wait(int64_t groups, ArrayRef<Value> sums);

private:
  struct Issue {
    int64_t batch, pair, n0, width;
  };
  /// The A and B address offsets of k step `k` (an i32).
  struct StepOffsets {
    Value a, b;
  };
  StepOffsets offsetsOf(Value k);
  SmallVector<Value> step(Value k, int64_t staticK, int64_t k0, Value aAddress, Value bAddress,
                          ValueRange carried, bool &emitted);
  /// One wgmma of `issue` at k step `k` (`staticK` where known, else -1)
  /// onto the D fragment `d` (its registers fragmentRegs(issue)); `scaleD`
  /// false: D = A * B, `d` unread. The D registers after it.
  mlir::FailureOr<SmallVector<Value>> emitWgmma(const Issue &issue, const StepOffsets &offsets,
                                                int64_t staticK, int64_t k0, Value aAddress,
                                                Value bAddress, ArrayRef<Value> d, bool scaleD);
  mlir::FailureOr<SmallVector<Value>> issuePromoted(Value aAddress, Value bAddress, int64_t k0,
                                                    int64_t len, ArrayRef<Value> sums);
  /// Adds the pending piece's temporary, tied through wgmma.wait_group
  /// `groups`, into `sums`.
  void addPending(int64_t groups, SmallVector<Value> &sums);
  /// wgmma.wait_group `groups` with `values` and the sums of the last adds
  /// (`added`) tied through it; `values` after it. The adds then stay
  /// before it: LLVM would otherwise sink them to their users in later
  /// blocks (the next chunk's), keeping every piece's temporary live
  /// (ptxas spilled 920 bytes at 255 registers).
  SmallVector<Value> tieAdded(int64_t groups, ArrayRef<Value> values, SmallVector<Value> &sums);
  SmallVector<int64_t> fragmentRegs(const Issue &issue) const;
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
  /// Promoted accumulation: k steps per interval (0: none), the issues cut
  /// into N pieces, and the piece still in flight (its temporary's values
  /// and their accumulator registers).
  int64_t promotion = 0;
  SmallVector<Issue> pieces;
  SmallVector<Value> pendingTemp;
  SmallVector<int64_t> pendingRegs;
  /// The temporaries' slots (see the class comment): each one's values
  /// after its last piece's adds, empty while a piece of it is in flight;
  /// the pending piece's slot; pieces issued so far.
  static constexpr int64_t kTemporaries = 2;
  std::array<SmallVector<Value>, kTemporaries> slots;
  int64_t pendingSlot = 0, issuedPieces = 0;
  /// The accumulator registers the last adds wrote (tieAdded).
  SmallVector<int64_t> added;
};

/// wgmma.wait_group `groups` as inline PTX that passes f32 registers
/// (`values`) through, tied: the values after it are its results, so
/// nothing that reads them is scheduled before the wait, which NVVM's op
/// (no operands) would allow.
SmallVector<Value> emitTiedWaitGroup(RegisterEmitter &e, int64_t groups, ArrayRef<Value> values);

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
