//===- MmaStaging.h - Shared-memory geometry of mma.sync operands ---------===//
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
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_MMASTAGING_H
#define TILEPIPE_DIALECT_TILEAS_IR_MMASTAGING_H

#include "llvm/Support/MathExtras.h"

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

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_MMASTAGING_H
