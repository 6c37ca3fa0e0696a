//===- MmaStaging.h - Shared-memory geometry of MMA operands -------------===//
//
// How the mma.sync path lays one K chunk of A and B out in shared memory,
// shared by the lowering (which stages and reads it) and by tile-sched's
// loop pipelining (which sizes a ring of such chunks before lowering).
// A is [batch][M][chunk], B [batch][chunk][N] or, transposed (8-bit
// elements into an accumulator without paired columns:
// stagesMmaSyncBTransposed), [batch][N][chunk]; each row is padded by 16 bytes so that
// the eight 16-byte rows one ldmatrix reads fall into eight different bank
// groups, and each array is followed by a 16-byte trash slot that
// out-of-chunk register runs (and copies) are sent to. tf32 B, read a word
// at a time (lanes 4j..4j+3 name k 0-3 of column j), has rows of N + pad
// words with the pitch 8 modulo 32 words instead: the four k rows of one
// read then start in banks 0, 8, 16 and 24, and its 32 words in 32 banks.
//
// The sizes of the swizzled wgmma/tcgen05 staging (SwizzledArrayGeometry)
// live here too, so that tile-sched decides what fits with the lowering's
// own geometry.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_MMASTAGING_H
#define TILEPIPE_DIALECT_TILEAS_IR_MMASTAGING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

namespace tilepipe::tile_as {

/// Static shared memory one CTA may declare (bytes); larger requests must be
/// split by the caller.
constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;

/// Where one chunk of A and B lives (in elements, except the byte offset of
/// B and the total bytes).
struct MmaSyncStaging {
  /// Padding after each staged row, and the most one store or copy moves.
  static constexpr unsigned kRowPaddingBytes = 16;
  /// Shared-memory banks (4 bytes each), and the word pitch of tf32 B rows
  /// modulo them.
  static constexpr int64_t kBanks = 32, kWordPitchResidue = 8;

  int64_t batch = 1, m = 0, chunk = 0, aPitch = 0, bPitch = 0, bRows = 0, padding = 0;
  uint64_t bOffset = 0, bytes = 0;

  MmaSyncStaging(int64_t batch, int64_t m, int64_t n, int64_t chunk, unsigned elementBytes = 2,
                 bool bTransposed = false)
      : batch(batch), m(m), chunk(chunk) {
    padding = kRowPaddingBytes / elementBytes;
    aPitch = chunk + padding;
    bPitch = (bTransposed ? chunk : n) + padding;
    if (!bTransposed && elementBytes == 4)
      bPitch = n + (kWordPitchResidue - n % kBanks + kBanks) % kBanks;
    bRows = batch * (bTransposed ? n : chunk);
    uint64_t aEnd = (batch * m * aPitch + padding) * elementBytes;
    bOffset = llvm::alignTo(aEnd, 16);
    bytes = bOffset + (bRows * bPitch + padding) * elementBytes;
  }
  int64_t aTrash() const { return batch * m * aPitch; }
  int64_t bTrash() const { return bRows * bPitch; }
  /// Bytes from one slot of a ring of such chunks to the next.
  uint64_t slotBytes() const { return llvm::alignTo(bytes, 16); }
};

/// Rows of a swizzle atom, and the alignment of the 128-byte pattern (the
/// narrower ones need less).
constexpr int64_t kAtomRows = 8, kSwizzleAlignment = 1024;
/// Bytes of K one wgmma or tcgen05.mma reads per row (16 f16, 8 tf32 or 32
/// fp8 elements).
constexpr int64_t kMmaStepBytes = 32;

/// The size of one operand chunk in a canonical swizzled layout of the
/// wgmma/tcgen05 staging (the lowering's SwizzledArray, SwizzledStaging.h,
/// adds its addressing): `rows` rows of `extent` elements of `elementBytes`
/// bytes along the contiguous dimension, cut into blocks of the 128-, 64-
/// or 32-byte swizzle width that covers it, each block holding every row.
struct SwizzledArrayGeometry {
  int64_t rows = 0, width = 0, blocks = 0;
  unsigned elementBytes = 2;

  SwizzledArrayGeometry(int64_t rows, int64_t extent, unsigned elementBytes)
      : rows(rows), elementBytes(elementBytes) {
    int64_t extentBytes = extent * elementBytes;
    width = extentBytes > 64 ? 128 : extentBytes > 32 ? 64 : 32;
    blocks = llvm::divideCeil(extentBytes, width);
  }
  /// Elements of the contiguous dimension per block.
  int64_t perBlock() const { return width / elementBytes; }
  int64_t blockBytes() const { return llvm::alignTo(rows, kAtomRows) * width; }
  int64_t bytes() const { return blocks * blockBytes(); }
  /// The 8-row step: the descriptor's stride byte offset.
  int64_t atomBytes() const { return kAtomRows * width; }
};

/// Bytes of one K chunk of an unbatched A ([M][chunk], K-major) and B
/// ([chunk][N], N-major) in the swizzled wgmma staging: A's blocks, B's
/// from the next 1024-byte boundary, the whole rounded up to one (the
/// lowering's SwizzledStaging lays a buffer out so).
inline uint64_t getSwizzledChunkBytes(int64_t m, int64_t n, int64_t chunk,
                                      unsigned elementBytes) {
  uint64_t a = SwizzledArrayGeometry(m, chunk, elementBytes).bytes();
  uint64_t b = SwizzledArrayGeometry(chunk, n, elementBytes).bytes();
  return llvm::alignTo(llvm::alignTo(a, kSwizzleAlignment) + b, kSwizzleAlignment);
}

/// Bytes per slot of a TMA ring (TileASPipelineOps.td) for its full and
/// empty mbarriers, which follow the slots.
constexpr uint64_t kTmaRingBarrierBytes = 16;

/// Warp specialization of a TMA ring (TileASPipelineOps.td): the producer
/// warpgroup's threads, the named barrier the ring's begin and end meet
/// both roles at (barrier 0 is the consumers' CTA barrier), and the module
/// attribute counting the producer's warps (the CTA's reqntid adds them to
/// tile_as.num_warps, which stays the consumers' count).
constexpr int64_t kProducerThreads = 128;
constexpr int32_t kTmaRingNamedBarrier = 1;
constexpr llvm::StringLiteral kProducerWarpsAttrName = "tile_as.producer_warps";

/// The registers per thread a CTA of `threads` threads starts with: ptxas's
/// budget for `.reqntid threads` with `.minnctapersm 1` (65536 per SM, in
/// units of 8 per thread, at most 256), which setmaxnreg redistributes.
inline int64_t getLaunchRegisters(int64_t threads) {
  return std::min<int64_t>(256, 65536 / threads / 8 * 8);
}

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_MMASTAGING_H
