//===- TileASLayouts.h - Register mapping of tile_as layouts --------------===//
//
// What a layout means, in one place: how many elements each thread holds,
// how its register index splits into dimensions, and which tensor coordinate
// a register holds (a thread-dependent base plus a constant). The LLVM
// lowering and the layout assignment use only these functions.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_TILEASLAYOUTS_H
#define TILEPIPE_DIALECT_TILEAS_IR_TILEASLAYOUTS_H

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include "llvm/ADT/SmallVector.h"

namespace tilepipe::tile_as {

/// Registers per thread along each dimension (repetitions x sizePerThread).
llvm::SmallVector<int64_t> getRegsPerDim(BlockedAttr layout,
                                         llvm::ArrayRef<int64_t> shape);

/// Registers per thread for a tensor of `shape`.
int64_t getElemsPerThread(BlockedAttr layout, llvm::ArrayRef<int64_t> shape);

/// Register index <-> per-dimension register indices. Registers are numbered
/// with the fastest dimension of `order` least significant, so the
/// sizePerThread elements of the fastest dimension are adjacent registers.
llvm::SmallVector<int64_t> delinearizeRegister(BlockedAttr layout,
                                               llvm::ArrayRef<int64_t> shape,
                                               int64_t reg);
int64_t linearizeRegister(BlockedAttr layout, llvm::ArrayRef<int64_t> shape,
                          llvm::ArrayRef<int64_t> regPerDim);

/// The thread-independent part of the coordinate held by register index
/// `regInDim` along dimension `dim`.
int64_t getRegisterCoordinate(BlockedAttr layout, unsigned dim,
                              int64_t regInDim);

/// `layout` without its leading `count` dimensions, where each is a single
/// element held by every thread (as a leading unit dimension is), so that
/// the result lays out the remaining dimensions in the same registers; null
/// otherwise.
BlockedAttr dropLeadingUnitDims(BlockedAttr layout, unsigned count);

/// Elements per CTA tile of the layout along `dim` (before repetition).
int64_t getLayoutExtent(BlockedAttr layout, unsigned dim);

/// Adjacent registers along the fastest dimension (the widest vector access).
unsigned getContiguousRegisters(BlockedAttr layout);

/// The default register layout of a tensor: `vectorWidth` adjacent elements
/// per thread along the innermost dimension, threads then warps filling the
/// dimensions innermost first; leftovers replicate.
BlockedAttr getDefaultBlockedLayout(mlir::MLIRContext *context,
                                    llvm::ArrayRef<int64_t> shape,
                                    unsigned vectorWidth, unsigned numWarps,
                                    unsigned threadsPerWarp = 32);

/// The accumulator layout of the mma.sync path: the m16n8 accumulator
/// fragment of the PTX ISA as a blocked layout. Lane l holds row l / 4 and
/// the two adjacent columns 2 * (l % 4) of an 8x8 block (sizePerThread
/// [1, 2], threadsPerWarp [8, 4], columns fastest); warps tile the 8x8 blocks
/// warpsM x warpsN; repetitions along M pair up into the 16 rows of one
/// m16n8 fragment (rows r and r + 8 * warpsM). A leading batch dimension, if
/// any, is held whole by every thread. Null when the shape cannot be tiled
/// this way by `numWarps` warps (M a multiple of 16 * warpsM, N of 8 * warpsN).
BlockedAttr getMmaAccumulatorLayout(mlir::MLIRContext *context,
                                    llvm::ArrayRef<int64_t> shape,
                                    unsigned numWarps);

/// Whether `layout` has the form getMmaAccumulatorLayout builds and tiles
/// `shape` (for any warp grid).
bool isMmaAccumulatorLayout(BlockedAttr layout, llvm::ArrayRef<int64_t> shape);

/// Whether the module around `op` targets sm_90a, the one target with wgmma
/// (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate
/// Instructions"). Plain sm_90 takes the mma.sync path, which is faster today
/// (see TileASLayouts.cpp).
bool targetsWgmma(mlir::Operation *op);

/// The accumulator layout of the wgmma path: getMmaAccumulatorLayout's form
/// with every warp along M (warpsPerCTA [numWarps, 1]), so that the four
/// warps of a warpgroup hold the same columns, as the four 16-row slices of
/// one wgmma D fragment do. Null unless `numWarps` is a multiple of 4 (whole
/// warpgroups) and the shape tiles this way (M a multiple of 16 * numWarps,
/// N of 8).
BlockedAttr getWgmmaAccumulatorLayout(mlir::MLIRContext *context,
                                      llvm::ArrayRef<int64_t> shape,
                                      unsigned numWarps);

/// Whether `layout` has the form getWgmmaAccumulatorLayout builds for `shape`.
bool isWgmmaAccumulatorLayout(BlockedAttr layout, llvm::ArrayRef<int64_t> shape);

/// Whether an mmaf belongs to the wgmma path: it has an mma.sync form
/// (hasMmaSyncForm), targets wgmma and its accumulator got the wgmma layout.
/// (The lowering still falls back to mma.sync when its staging does not fit.)
bool hasWgmmaForm(MmaFOp op);

/// Whether an mmaf has a form the mma.sync path implements: f16 x f16 or
/// bf16 x bf16 operands, an f32 or f16 accumulator, K a multiple of 16 (the
/// k of m16n8k16). Its accumulator then gets getMmaAccumulatorLayout.
bool hasMmaSyncForm(MmaFOp op);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_TILEASLAYOUTS_H
