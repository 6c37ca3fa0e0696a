//===- SwizzledStaging.h - A and B in the swizzled shared-memory layouts --===//
//
// The staging that wgmma (WgmmaToLLVM.cpp) and tcgen05.mma
// (Tcgen05ToLLVM.cpp) read through shared-memory descriptors: A (as
// [batch * M][chunk], K-major) and B (as [batch * chunk][N], N-major) in
// the canonical swizzled layouts of "Shared Memory Matrix Layout" (the same
// for both families; only the descriptor's swizzle field differs). wgmma
// reads an N-major B only for f16/bf16 (imm-trans-b); for tf32 and fp8 B is
// staged K-major like A, as [batch * N][chunk]: registers are stored there
// an element at a time, while a global B (N-contiguous, which cp.async
// cannot scatter below 4 bytes) is copied N-major into a landing array and
// transposed from there by all threads, 4 x 4 elements at a time (four
// 4-element loads along N, four stores along K: 16-byte accesses for tf32,
// 4-byte ones with byte permutes for fp8). That costs the landing space
// and one more CTA barrier per chunk, but keeps the operands out of
// registers (cp.async) and their global reads coalesced and vectorized.
// Where B has a view, TMA fills the landing array instead (it cannot
// transpose either) and finishLandedChunk does the rest after the wait.
//
// An operand's contiguous dimension (K for A, N for B) is cut into blocks
// of W bytes, W the 128-, 64- or 32-byte swizzle mode that covers it; a
// block holds every row W bytes apart, and the 16-byte pieces of each row
// are permuted by the swizzle: piece p of row r lands at piece
// p ^ (r % (W / 16)) (address bits 4-6 XOR bits 7-9, as TMA writes them).
// Eight rows (an 8 x W atom) repeat the pattern, so every block starts at a
// multiple of 1024 bytes. A descriptor's stride byte offset is the 8-row
// step (8 W); for N-major B its leading byte offset is the step between N
// blocks (for K-major A it is unused). Each thread's registers (or cp.async
// copies) go to shared memory in runs of up to 16 bytes, which stay whole
// under the swizzle.
//
// When K takes several chunks, two buffers alternate, so that one chunk is
// staged while the tensor cores read the other.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SWIZZLEDSTAGING_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SWIZZLEDSTAGING_H

#include "MatrixLowering.h"
#include "tilepipe/Dialect/TileAS/IR/MmaStaging.h"

namespace tilepipe::tile_as {


/// One operand's chunk in a canonical swizzled layout (see the header):
/// `rows` rows of `extent` elements of `elementBytes` bytes along the
/// contiguous dimension.
struct SwizzledArray : SwizzledArrayGeometry {
  using SwizzledArrayGeometry::SwizzledArrayGeometry;
  /// The element slot of (row, c) (c along the contiguous dimension; i32
  /// values): the block of c and the row (multiples of the width), plus c
  /// within the row with its 16-byte piece XOR-ed with the row's place in
  /// the 8-row pattern (bits 7-9 of the row's byte offset, as TMA writes
  /// it; blocks are multiples of 1024 bytes and the buffer is aligned to
  /// them). The constant part of `row` (a register's offset from its
  /// thread's first coordinate) is split at a multiple of 8 and its
  /// multiple-of-8 part added last: the registers of a thread along the rows
  /// then share the swizzled parts of their row modulo 8 and differ by
  /// constants, which LLVM folds into the stores' offsets (swizzling each
  /// whole offset gave every register an address register of its own).
  Value slot(const IndexMath &m, Value row, Value c) const;
  /// The byte offset (i32) of the k step of `kBytes` bytes (a multiple of
  /// 32) along a K-major array's rows, which continue from block to block.
  Value kStepOffset(const IndexMath &m, Value kBytes) const {
    return m.add(m.mul(m.div(kBytes, width), blockBytes()), m.rem(kBytes, width));
  }
};

/// The two descriptor formats: wgmma's ("Matrix Descriptor Format": the
/// swizzle mode at bits 62-63, 1, 2, 3 for 128, 64, 32 bytes) and
/// tcgen05's ("Shared Memory Descriptor": bits 61-63, 2, 4, 6 for 128, 64,
/// 32 bytes, and the fixed version 0b001 at bits 46-48).
enum class DescriptorFormat { Wgmma, Tcgen05 };

/// The layout bits of a descriptor of `array`: leading byte offset (bits
/// 16-29) and stride byte offset (bits 32-45), both in 16-byte units, the
/// swizzle mode and (tcgen05) the version; the start address (bits 0-13)
/// is or-ed in per use (emitMatrixDescriptor). A K-major swizzled operand
/// has no leading offset (1 by convention).
uint64_t getDescriptorLayoutBits(const SwizzledArray &array, bool kMajor,
                                 DescriptorFormat format);

/// Where the chunks of A and B live in the scratch buffer: one or (when K
/// takes several chunks) two buffers of A then B, each 1024-byte aligned.
/// Registers outside a chunk are not stored (no trash slot: the buffers of
/// typical tiles fill the 48 KiB exactly).
struct SwizzledStaging {
  int64_t chunk = 0, buffers = 1, n = 0;
  /// B as [batch * N][chunk] (K-major) instead of [batch * chunk][N];
  /// with `bLands`, a global B is first copied into `landing`, N-major.
  bool bKMajor = false, bLands = false;
  SwizzledArray a, b, landing;
  uint64_t bOffset = 0, landingOffset = 0, bufferBytes = 0, bytes = 0;

  /// `stageA` false: A comes from elsewhere (registers) and takes no space.
  SwizzledStaging(const MmaShape &s, int64_t chunk, unsigned elementBytes, bool stageA = true,
                  bool bKMajor = false, bool bLands = false);
  /// Byte offsets of buffer `buffer`'s A, B and landing array.
  uint64_t aStart(int64_t buffer) const { return buffer * bufferBytes; }
  uint64_t bStart(int64_t buffer) const { return aStart(buffer) + bOffset; }
  uint64_t landingStart(int64_t buffer) const { return aStart(buffer) + landingOffset; }

  /// The K chunk staged at a time (chooseKChunk within `limit` bytes, by
  /// default all of static shared memory, a multiple of the 32-byte k
  /// step); 0 when not even one k step fits.
  static int64_t chooseChunk(const MmaShape &s, unsigned elementBytes, bool stageA = true,
                             uint64_t limit = kMaxStaticSharedBytes, bool bKMajor = false,
                             bool bLands = false);

  /// The byte offset (i32) in buffer 0's B of B's row that holds (batch,
  /// n) when K-major, (batch, k) otherwise (the row a B descriptor of that
  /// batch starts at, plus the n0 of its block: `n0` a multiple of the
  /// block's elements when N-major).
  int64_t bRowOffset(int64_t batch, int64_t n0) const;
};

/// TMA boxes of one swizzled array: a box per block and per run of
/// `boxRows` rows, run g staged at stagedRows[g] (TmaToLLVM.cpp).
TmaBoxes getTmaBoxes(const SwizzledArray &array, int64_t boxRows,
                     SmallVector<int64_t> stagedRows);

/// TMA boxes of the first `rows` rows of `array`, staged in order, in boxes
/// of at most 256 rows (TMA's largest box extent; `rows` a multiple of 8:
/// M, N, or a K chunk).
TmaBoxes getRowBoxes(const SwizzledArray &array, int64_t rows);

/// Stages the chunk k in [k0, k0 + len) of A and B (each unless null) into
/// buffer `buffer` of `staging` at the start of `scratch`, between CTA
/// barriers (the first, unless `freeBarrier` is false because the caller
/// had one, waits for earlier readers of the buffer), fenced for the async
/// proxy the tensor cores read through; cp.async copies have landed
/// before. A's register (or copy) i goes to row `aRowOf(i)`; B's row of
/// batch b and k is b * chunk + k (K-major: of batch b and n, b * N + n, an
/// element at a time, or through the landing array). `roundToTf32`: global
/// operands are f32 to round to tf32 once landed (A and an N-major B in
/// place, a K-major B as it is transposed; rounding is exact on values
/// already tf32); registers come rounded.
mlir::LogicalResult stageSwizzledChunk(RegisterEmitter &e,
                                       mlir::ConversionPatternRewriter &rewriter,
                                       const SwizzledStaging &staging, int64_t buffer,
                                       Value scratch, const StagedOperand *a,
                                       const StagedOperand *b, Type element, const MmaShape &s,
                                       int64_t k0, int64_t len,
                                       llvm::function_ref<Value(size_t)> aRowOf,
                                       bool roundToTf32 = false, bool freeBarrier = true);

/// Completes buffer `buffer`'s chunk once its copies (cp.async or TMA) have
/// landed and are visible to every thread: with `transposeB`, transposes
/// the landing array into the K-major B (rounding f32 to tf32 on the way
/// with `roundB`), with `roundA` rounds A to tf32 in place (with
/// `aRowsPadded` only the first 8 of every 16 rows: the tcgen05 M = 64 form
/// of a 32-row tile, whose padding rows nothing fills), with
/// `roundBInPlace` an N-major B (tcgen05 reads tf32 B so), `threads`
/// threads sharing the work; then emitStagedChunkFence.
void finishLandedChunk(RegisterEmitter &e, mlir::ConversionPatternRewriter &rewriter,
                       const SwizzledStaging &staging, int64_t buffer, Value scratch,
                       Type element, int64_t threads, bool transposeB, bool roundA,
                       bool roundB, bool roundBInPlace = false, bool aRowsPadded = false);

/// Orders this thread's generic-proxy writes of a staged chunk before the
/// tensor cores' async-proxy reads (fence.proxy.async.shared::cta,
/// "Memory Consistency Model: Proxies"), then a CTA barrier publishes it.
void emitStagedChunkFence(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_SWIZZLEDSTAGING_H
