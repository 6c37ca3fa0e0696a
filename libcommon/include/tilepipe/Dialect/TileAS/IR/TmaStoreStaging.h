//===- TmaStoreStaging.h - Column chunks of a tile stored by TMA ----------===//
//
// tile_as.store_tma (tile-sched's tilepipe-store-tiles-by-tma, the lowering
// in TmaStoreToLLVM.cpp) writes a [rows][cols] tile of 2-byte elements into
// shared memory in the canonical swizzled layout (SwizzledArrayGeometry:
// blocks of W = 128, 64 or 32 bytes of columns, each holding every row) and
// stores each block as one TMA box of W / 2 columns by `rows` rows. A box
// always moves W / 2 columns, so the tile's columns must fill whole blocks
// (else a box would overwrite the neighbouring tile), and TMA boxes have at
// most 256 rows. cuTile launches with the 48 KiB of static shared memory
// only, and a 128x256 f16 tile takes 64 KiB, so the blocks go through in
// chunks of at most kTmaStoreChunkBytes, one after the other; each thread
// stores only the registers of the chunk at hand, so a register's chunk must
// follow from its register index alone: the layout's extent along the
// columns divides the chunk's columns. Both the pass and the lowering use
// this one geometry.
//
// Where the register layout holds stmatrix's fragments (StmatrixStores),
// each warp writes four 8x8 matrices per stmatrix.sync.aligned.m8n8.x4
// instead of one 4-byte st.shared per register pair: the wgmma (and
// mma.sync) accumulator layouts do. Lane l names the shared-memory row of
// row l % 8 of matrix l / 8; the 16 bytes of a matrix row stay whole under
// the swizzle (they start at a multiple of 8 columns). The tile is stored
// row-major, and the fragments pair adjacent columns, so .trans (pairs
// along the rows) is never needed.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_TMASTORESTAGING_H
#define TILEPIPE_DIALECT_TILEAS_IR_TMASTORESTAGING_H

#include "tilepipe/Dialect/TileAS/IR/MmaStaging.h"
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>
#include <string>

namespace tilepipe::tile_as {

/// Shared memory one chunk of a TMA-stored tile may take: two 16 KiB blocks
/// of a 128-row tile (the K loop's TMA staging of the corpus MatMul is 24
/// KiB, so the kernel's shared memory grows to 32 KiB, not to all 48).
constexpr uint64_t kTmaStoreChunkBytes = 32 * 1024;

/// The most rows (and columns) one TMA box moves.
constexpr int64_t kTmaMaxBoxExtent = 256;

struct TmaStoreChunks {
  /// The whole tile's blocks; `chunkBlocks` of them per chunk.
  SwizzledArrayGeometry tile;
  int64_t chunkBlocks = 0;

  /// The chunks of a rows x cols tile of 2-byte elements whose registers
  /// are laid out `layoutCols` columns apart (the layout's extent along the
  /// columns), or why TMA cannot store it that way.
  static std::optional<TmaStoreChunks> get(int64_t rows, int64_t cols, int64_t layoutCols,
                                           std::string &why) {
    TmaStoreChunks c{SwizzledArrayGeometry(rows, cols, 2)};
    if (rows > kTmaMaxBoxExtent) {
      why = "its " + std::to_string(rows) + " rows exceed a TMA box's 256";
      return std::nullopt;
    }
    if (cols * 2 % c.tile.width != 0) {
      why = "its rows of " + std::to_string(cols * 2) + " bytes are no whole " +
            std::to_string(c.tile.width) + "-byte swizzle blocks";
      return std::nullopt;
    }
    c.chunkBlocks = std::max<int64_t>(1, int64_t(kTmaStoreChunkBytes) / c.tile.blockBytes());
    c.chunkBlocks = std::min(c.chunkBlocks, c.tile.blocks);
    if (c.chunks() > 1 && (layoutCols > cols || c.chunkCols() % layoutCols != 0)) {
      why = "its layout spans " + std::to_string(layoutCols) +
            " columns, which do not divide a chunk of " + std::to_string(c.chunkCols());
      return std::nullopt;
    }
    return c;
  }
  int64_t chunks() const { return llvm::divideCeil(tile.blocks, chunkBlocks); }
  int64_t chunkCols() const { return chunkBlocks * tile.perBlock(); }
  /// Shared memory of one chunk (the staging, reused chunk after chunk).
  uint64_t bytes() const { return chunkBlocks * tile.blockBytes(); }
};

/// The stmatrix.sync.aligned.m8n8.x<count>.shared.b16 stores of a
/// TMA-stored tile's registers, decided from the register layout as a
/// LinearLayout (toLinearLayout). stmatrix gives lane (g, t) = (l / 4, l %
/// 4) elements (g, 2t) and (g, 2t + 1) of each matrix in one 32-bit
/// register, so the layout must map register bit 0 to column 1 and lane
/// bits 0-1 to columns 2 and 4; every other register, lane and warp bit
/// moves whole matrices (columns by multiples of 8). Instruction q stores
/// the `count` words (register pairs) count * q .. count * q + count - 1,
/// matrix j being word count * q + j. Coordinates are (row, column).
struct StmatrixStores {
  using RowCol = std::array<int64_t, 2>;
  /// Matrices per instruction (4, 2 or 1) and instructions per thread.
  int64_t count = 0, groups = 0;
  /// What bit i of lane l's address lane part contributes (XOR) to the row
  /// lane l names: bits 0-2 (the matrix row: lane bits 2-4 of the
  /// fragment's layout), then log2(count) bits of the matrix (register bits
  /// 1.. of the instruction's words); the warp's bits add `warpBases`.
  llvm::SmallVector<RowCol> laneBases, warpBases;
  /// What bit i of the instruction index q contributes to every row it
  /// stores: the register bits above the instruction's words. These never
  /// share a set bit with the lane and warp parts (checked), so the
  /// instruction's offset adds to the thread's address part.
  llvm::SmallVector<RowCol> groupBases;

  /// The (row, column) offset of instruction `q`.
  RowCol groupOffset(int64_t q) const {
    RowCol offset{0, 0};
    for (unsigned bit = 0; bit < groupBases.size(); ++bit)
      if (q >> bit & 1)
        for (unsigned d = 0; d < 2; ++d)
          offset[d] ^= groupBases[bit][d];
    return offset;
  }

  /// The stores of a `shape` tile (rank 2, or more with leading unit
  /// dimensions) in `layout` whose TMA staging takes `chunkCols` columns at
  /// a time, or why stmatrix cannot store it (`why`).
  static std::optional<StmatrixStores> get(BlockedAttr layout, llvm::ArrayRef<int64_t> shape,
                                           int64_t chunkCols, std::string &why);
};

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_TMASTORESTAGING_H
