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

#include <optional>
#include <string>

namespace tilepipe::tile_as {

/// Bytes one element of type `type` takes in registers and memory: 8 for a
/// pointer, 4 for tf32 (stored as f32), at least 1 (sub-byte types pack).
unsigned getElementBytes(mlir::Type type);

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

/// The inverse of dropLeadingUnitDims: `layout` under `count` more leading
/// dimensions, each one element held by every thread, slowest in `order`.
/// A tensor with a leading unit dimension added holds every element in the
/// thread and register it had.
BlockedAttr addLeadingUnitDims(BlockedAttr layout, unsigned count);

/// `layout` with its dimensions permuted as tile_as.permute permutes a
/// tensor's (result dimension i is source dimension permutation[i]): the
/// result's threads and registers hold what they held in the source, so a
/// permute between the two moves no data.
BlockedAttr permuteLayout(BlockedAttr layout, llvm::ArrayRef<int32_t> permutation);

/// Elements per CTA tile of the layout along `dim` (before repetition).
int64_t getLayoutExtent(BlockedAttr layout, unsigned dim);

/// The warps the layout spreads a tile over (the product of warpsPerCTA).
unsigned getWarpsInLayout(BlockedAttr layout);

/// Adjacent registers of a `shape` tile that hold adjacent elements along
/// the innermost dimension (the widest vector access, which a load's or
/// store's `contiguity` is counted along): that dimension's sizePerThread
/// where it is the fastest of the register order, or where every dimension
/// before it in the order holds one register per thread (the tcgen05
/// accumulator layout: order [0, 1], one row of columns per thread); 1
/// otherwise.
unsigned getContiguousRegisters(BlockedAttr layout, llvm::ArrayRef<int64_t> shape);

/// The dimension along which a thread's consecutive registers of a tensor
/// of `shape` go: the first of the layout's order along which the thread
/// holds more than one register (the order's first where it holds one).
/// A dimension ahead of it in the order with one register per thread does
/// not separate its registers: the tcgen05 accumulator layout (order M
/// first, one row per thread) holds runs along N.
unsigned getRegisterRunDim(BlockedAttr layout, llvm::ArrayRef<int64_t> shape);

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
///
/// With `pairedColumns` (the 1-byte operand multiplies; see
/// getMmaColumnsPerThread) lane l holds four adjacent columns 4 * (l % 4)
/// of a 16-column span instead (sizePerThread [1, 4]): two m16n8 blocks
/// whose D columns interleave, the even columns of the span in one mma and
/// the odd ones in the other, and N a multiple of 16 * warpsN.
BlockedAttr getMmaAccumulatorLayout(mlir::MLIRContext *context,
                                    llvm::ArrayRef<int64_t> shape,
                                    unsigned numWarps, bool pairedColumns = false);

/// Whether `layout` has the form getMmaAccumulatorLayout builds (either
/// column form) and tiles `shape` (for any warp grid).
bool isMmaAccumulatorLayout(BlockedAttr layout, llvm::ArrayRef<int64_t> shape);

/// Whether the mma.sync accumulator layout `layout` is the paired-column
/// form (four adjacent columns per lane).
bool hasPairedMmaColumns(BlockedAttr layout);

/// Whether the module around `op` targets sm_90a, the one target with wgmma
/// (PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate
/// Instructions"). A plain sm_90 module becomes sm_90a in tile-sched where a
/// multiply gains from wgmma (tilepipe-select-wgmma-target); which mmafs
/// take it is takesWgmma (WgmmaChoice.h).
bool targetsWgmma(mlir::Operation *op);

/// The accumulator layout of the wgmma path: getMmaAccumulatorLayout's form
/// with every warp along M (warpsPerCTA [numWarps, 1]), so that the four
/// warps of a warpgroup hold the same columns, as the four 16-row slices of
/// one wgmma D fragment do. Null unless `numWarps` is a multiple of 4 (whole
/// warpgroups) and the shape tiles this way (M a multiple of 16 * numWarps,
/// N of 8), or M is 32 with 4 warps: then each warp's 8 rows fill only the
/// first half of its 16 rows of a wgmma, the other half multiplies padding
/// rows of A and its D registers are dropped (getWgmmaStagedRows).
BlockedAttr getWgmmaAccumulatorLayout(mlir::MLIRContext *context,
                                      llvm::ArrayRef<int64_t> shape,
                                      unsigned numWarps);

/// Whether `layout` has the form getWgmmaAccumulatorLayout builds for `shape`.
bool isWgmmaAccumulatorLayout(BlockedAttr layout, llvm::ArrayRef<int64_t> shape);

/// The rows of A the wgmma staging holds per batch for an M-row tile whose
/// accumulator has `warpsM` warps along M: one 64-row block per warpgroup
/// and pair of the warps' 8-row blocks, M rounded up to 16 * warpsM (the
/// rows past M are padding that no accumulator register reads).
int64_t getWgmmaStagedRows(int64_t m, int64_t warpsM);

/// Whether `op` (an mmaf or mmaf_global) targets wgmma and its accumulator,
/// of type `acc`, got the wgmma layout: the mmaf_global's test for the
/// wgmma path, and half of hasWgmmaForm.
bool hasWgmmaAccumulator(mlir::Operation *op, mlir::Type acc);

/// Whether an mmaf has a wgmma.mma_async form ("Asynchronous Warpgroup
/// Level Matrix Multiply-Accumulate Instructions", "Data types"): f16/bf16
/// (k16), tf32 (k8) or e4m3/e5m2 (k32) operands, the types getMmaSyncForm
/// takes, with an f32 (or f16) accumulator. tf32 and fp8 read B K-major
/// only, which the lowering stages so (SwizzledStaging.h).
bool hasWgmmaKind(MmaFOp op);

/// Whether an mmaf belongs to the wgmma path: hasWgmmaKind and
/// hasWgmmaAccumulator.
/// (The lowering still falls back to mma.sync when its staging does not fit.)
bool hasWgmmaForm(MmaFOp op);

/// Whether the module around `op` targets a GPU with tcgen05 and tensor
/// memory (PTX ISA, "TensorCore 5th Generation Family Instructions"):
/// sm_100, sm_103 and sm_110, plain, arch- or family-specific. Plain PTX
/// has no tcgen05, so tile-ptx then picks the arch-specific target; the
/// family targets have every tcgen05 instruction the lowering emits (kinds
/// f16, tf32, f8f6f4 and the block-scaled ones, ld/st/cp/alloc/commit:
/// ptxas 13 assembles them for sm_100f/103f/110f; only kind::i8, which
/// mmai never takes here, is arch-specific).
bool targetsTcgen05(mlir::Operation *op);

/// The accumulator layout of the tcgen05 path: what `tcgen05.ld.32x32b`
/// gives. The D of an M=128 tcgen05.mma has row i in tensor-memory lane i
/// and column j in column j; warp w may only read lanes 32 * (w % 4) to
/// 32 * (w % 4) + 31, so lane l of warp w holds row 32 * (w % 4) + l and a
/// run of columns: threadsPerWarp [32, 1], warpsPerCTA [4, W / 4],
/// sizePerThread [1, N / (W / 4)], M fastest in the order so that warp w
/// is the (w % 4)-th along M. M beyond 128 repeats (one tcgen05.mma per 128
/// rows); a leading batch dimension is held whole by every thread. Null
/// unless W is a multiple of 4, M of 128 and N of 16 and of 8 * W / 4,
/// except for a 32-row tile of 4 warps (N a multiple of 8): that takes one
/// M = 64 tcgen05.mma, whose D row r is in lane 32 * (r / 16) + r % 16, A
/// staged with tile rows 8w..8w+7 in rows 16w..16w+7 and padding after
/// them, so that warp w's lanes 0-7 hold the tile's rows 8w..8w+7; read with
/// tcgen05.ld.16x256b, they are getWgmmaAccumulatorLayout's layout.
BlockedAttr getTcgen05AccumulatorLayout(mlir::MLIRContext *context,
                                        llvm::ArrayRef<int64_t> shape,
                                        unsigned numWarps);

/// Whether `layout` has the form getTcgen05AccumulatorLayout builds for `shape`.
bool isTcgen05AccumulatorLayout(BlockedAttr layout, llvm::ArrayRef<int64_t> shape);

/// Whether `op` (an mmaf or mmaf_global) targets tcgen05 and its
/// accumulator, of type `acc`, got the tcgen05 layout: the mmaf_global's
/// test for the tcgen05 path, and half of hasTcgen05Form.
bool hasTcgen05Accumulator(mlir::Operation *op, mlir::Type acc);

/// The tensor-memory columns a cta_group::1 tcgen05 multiply takes: its
/// f32 accumulator `acc` ([batch x] M x N, M a multiple of 128 or 32) one
/// region of N columns per (batch, 128-row block), and with a `scaleBlock` (k per
/// scale; 0: not block-scaled) the scales of its K too
/// (getTcgen05ScaleColumns). At most 512 fit.
int64_t getTcgen05TmemColumns(llvm::ArrayRef<int64_t> acc, int64_t k, int64_t scaleBlock);

/// The k one scale of block-scaled multiply `mma` covers (32 for e8m0
/// scales, 16 for NVFP4's e4m3: getScaledMmaBlock); 0 for other multiplies.
int64_t getTcgen05ScaleBlock(mlir::Operation *mma);

/// The block-scaled tcgen05.mma of `mma` (an mmaf_scaled), as -v says it:
/// "kind::mxf8f6f4.block_scale (scale_vec::1X: one ue8m0 scale per row and
/// k step of 32)", kind::mxf4 (2X, two ue8m0 per k step of 64) or
/// kind::mxf4nvf4.block16 (4X, four ue4m3 per k step of 64).
std::string describeTcgen05BlockScale(mlir::Operation *mma);

/// The columns a block-scaled tcgen05 multiply's scales take (the layout
/// BlockScaledTcgen05ToLLVM.cpp copies them in): one 32-bit word holds the
/// scales of four k blocks of `block`; A's words take 4 columns per (batch,
/// 128-row block), B's one column per 32 columns of N, per batch.
int64_t getTcgen05ScaleColumns(int64_t batch, int64_t m, int64_t n, int64_t k,
                               int64_t block = 32);

/// Whether an mmaf targets tcgen05 and has one of its kinds: f16/bf16
/// (kind::f16), tf32 (kind::tf32) or e4m3/e5m2 (kind::f8f6f4) operands, the
/// types that have an mma.sync form (getMmaSyncForm).
bool hasTcgen05Kind(MmaFOp op);

/// Whether an mmaf belongs to the tcgen05 path: hasTcgen05Kind, and its
/// accumulator got the tcgen05 layout.
bool hasTcgen05Form(MmaFOp op);

/// The mma.sync instruction (m16n8k<k>.row.col) an mmaf or mmai maps to.
struct MmaSyncForm {
  /// The k of the instruction: 32 bytes of operand elements.
  int64_t k = 0;
  /// Bytes of one operand element in registers and shared memory.
  unsigned elementBytes = 0;
  /// Whether the instruction takes packed 4-bit elements (e2m1, eight to a
  /// register, k 64) that are staged a byte each: the one form whose k step
  /// is 64 bytes of staging rather than 32 (MmaSyncToLLVM.cpp).
  bool nibbles() const { return k == 64 && elementBytes == 1; }
};

/// The mma.sync form of an mmaf or mmai on the module's target (PTX ISA,
/// "Warp Level Matrix Multiply-Accumulate Instructions": mma):
///   - f16 x f16 or bf16 x bf16 -> f32 or f16: m16n8k16 (sm_80 and later),
///   - tf32 x tf32 -> f32: m16n8k8 (f32 operands are not tf32 and keep the
///     FMA path, which is exact in f32),
///   - e4m3/e5m2 x e4m3/e5m2 -> f32 or f16: m16n8k32 (sm_89 and later),
///   - s8/u8 x s8/u8 -> i32 (mmai): m16n8k32 (sm_80 and later),
///   - mmaf_scaled (fp8 with e8m0 scales): m16n8k32 block-scaled; (e2m1
///     with e8m0 or e4m3 scales): m16n8k64 block-scaled (sm_120a/121a, the
///     only targets it is emitted for),
/// with K a multiple of k. f16 accumulators accumulate in f32. None for
/// other types, and for fp8 where the module names no target from sm_89 on.
/// The accumulator of an op with a form gets getMmaAccumulatorLayout.
std::optional<MmaSyncForm> getMmaSyncForm(mlir::Operation *op);

/// The mma.sync form of A and B elements `a` and `b` (tile types) into
/// accumulator elements `acc` for mmaf on a target of compute capability
/// `capability` (getMmaSyncForm's rules for mmaf, K aside).
std::optional<MmaSyncForm> getMmaFSyncForm(mlir::Type a, mlir::Type b, mlir::Type acc,
                                           unsigned capability);

/// Whether the mma.sync path of `form` with accumulator layout `acc` stages B
/// transposed, as [batch][N][chunk] rows with K contiguous: 8-bit B
/// fragments hold four consecutive k per register ("col"), which ldmatrix
/// .trans (16-bit elements only) cannot gather from [K][N] rows. With the
/// paired-column accumulator 1-byte B stays [batch][chunk][N] (as global
/// memory has it, so cp.async can copy it) and ldmatrix.trans of byte
/// pairs plus byte permutes builds the fragments (MmaSyncToLLVM.cpp).
/// 16-bit B stays [batch][chunk][N] (ldmatrix .trans), tf32 B too: a tf32
/// element fills a register, read by one ld.shared.b32 each.
bool stagesMmaSyncBTransposed(const MmaSyncForm &form, BlockedAttr acc);

/// The compute capability the module around `op` targets (90 for sm_90a,
/// 100 for sm_100f); 0 when it names none.
unsigned getTargetComputeCapability(mlir::Operation *op);

/// Whether the module around `op` targets consumer Blackwell (sm_120/121)
/// arch- or family-specifically (sm_120a, sm_121a, sm_120f, sm_121f): TMA
/// loads (cp.async.bulk.tensor) are baseline sm_90 PTX, but the kernel
/// builds its tensor maps with tensormap.replace, which ptxas 13 rejects
/// on plain sm_120. There the mma.sync path's K-loop ring may take TMA.
bool hasMmaSyncTensorMaps(mlir::Operation *op);

/// Whether an mmaf has a 16-bit mma.sync form: f16 x f16 or bf16 x bf16
/// operands, an f32 or f16 accumulator, K a multiple of 16 (m16n8k16). The
/// wgmma path takes only these.
bool hasMmaSyncForm(MmaFOp op);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_TILEASLAYOUTS_H
