//===- Tcgen05Lowering.h - Pieces shared by the tcgen05.mma lowerings -----===//
//
// The tcgen05 lowerings of mmaf (Tcgen05ToLLVM.cpp, kind::f16; its MMA
// issue, Tcgen05ChunkMmas, also serves the TMA ring's tcgen05_stage in
// Tcgen05RingToLLVM.cpp) and of
// mmaf_scaled (BlockScaledTcgen05ToLLVM.cpp, kind::mxf8f6f4 / mxf4 /
// mxf4nvf4 .block_scale)
// share the kernel's one tensor-memory allocation, its mbarrier pair and
// the tensor-memory barrier (defined in Tcgen05ToLLVM.cpp); the block-scaled
// one stages A and B in the canonical K-major layout, a K chunk at a time,
// issues through Tcgen05Issuer and reads D back with tcgen05.ld
// (Tcgen05Canonical.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_TCGEN05LOWERING_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_TCGEN05LOWERING_H

#include "MatrixLowering.h"
#include "SwizzledStaging.h"

namespace tilepipe::tile_as {

/// Rows of D one cta_group::1 tcgen05.mma covers, and its largest N.
constexpr int64_t kTcgen05Rows = 128, kTcgen05MaxN = 256;
/// Tensor-memory lanes one warp may access, and the columns there are.
constexpr int64_t kTmemLanesPerWarp = 32, kTmemColumns = 512;
/// Bits 46-48 of a tcgen05 shared-memory descriptor: the fixed 0b001.
constexpr uint64_t kTcgen05DescriptorVersion = uint64_t(1) << 46;

/// The cta_group::1 multiplies of an accumulator of M rows in the tcgen05
/// layout (getTcgen05AccumulatorLayout): one M = 128 tcgen05.mma per
/// 128-row block, D row i in lane i, each warp moving its 32 lanes with
/// tcgen05.ld/st.32x32b; or, for a 32-row tile of 4 warps, one M = 64
/// multiply. Its D row r lives in lane 32 * (r / 16) + r % 16 (PTX ISA,
/// tcgen05 "Data path layout", M = 64: each warp's lanes 0-15), so A is
/// staged with the tile's rows 8w..8w+7 as rows 16w..16w+7 of the 64, and
/// rows 16w+8..16w+15 are padding that nothing writes: their D rows, lanes
/// 8-15 of warp w, are never read (rows are independent in A * B, so
/// whatever the padding holds reaches no other row). tcgen05.ld/st.16x256b
/// give thread l of warp w lane l / 4 + 8 ((r / 2) % 2) and column
/// 8 (r / 4) + 2 (l % 4) + r % 2 for register r: registers 4q and 4q + 1
/// are the tile's row 8w + l / 4, the wgmma D fragment's first half, and
/// 4q + 2, 4q + 3 padding.
struct Tcgen05RowBlocks {
  int64_t mmaRows = kTcgen05Rows, blocks = 0;

  static Tcgen05RowBlocks of(int64_t m) {
    if (m % kTcgen05Rows == 0)
      return {kTcgen05Rows, m / kTcgen05Rows};
    return {kPaddedMmaRows, 1};
  }
  /// Whether this is the M = 64 form with padding rows.
  bool padded() const { return mmaRows == kPaddedMmaRows; }
  /// Rows of A the staging holds per batch.
  int64_t stagedRows() const { return blocks * mmaRows; }
  /// The staged row (i32, within its batch) of tile row `t`.
  Value stagedRow(const IndexMath &m, Value t) const;
  /// The staged row of tile row `t`, a constant.
  int64_t stagedRow(int64_t t) const {
    return padded() ? t / kCoreRows * 2 * kCoreRows + t % kCoreRows : t;
  }

  static constexpr int64_t kPaddedMmaRows = 64, kCoreRows = 8;
};

/// The TMA operands (views and boxes) that fill one K chunk of a tcgen05
/// staging (`s` the multiply's shape, `staging` its staged one): A (unless
/// null: it sits in tensor memory) as its rows are staged, in boxes of up to
/// 256 rows in order, or for the M = 64 form of a 32-row tile
/// (Tcgen05RowBlocks) a box of 8 rows into each 16-row slice, the padding
/// rows between left untouched; then B's chunk rows in order (N-major).
/// The unpipelined staging and the TMA ring's slots both fill so.
SmallVector<TmaOperand, 2> getTcgen05TmaOperands(const SwizzledStaging &staging,
                                                 const MmaShape &s, const TmaView *aView,
                                                 const TmaView &bView);

/// The tcgen05.mma kind of `a` times `b` (tile element types) and the
/// bytes of their elements: kind::f16 for f16/bf16, kind::tf32,
/// kind::f8f6f4 for e4m3/e5m2 (either mixed with the other); nullopt for
/// others.
struct Tcgen05Kind {
  mlir::NVVM::Tcgen05MMAKind kind;
  unsigned elementBytes;

  static std::optional<Tcgen05Kind> of(Type a, Type b) {
    auto isFloat8 = [](Type t) {
      return mlir::isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(t);
    };
    if (a == b && (a.isF16() || a.isBF16()))
      return Tcgen05Kind{mlir::NVVM::Tcgen05MMAKind::F16, 2};
    if (mlir::isa<mlir::FloatTF32Type>(a) && mlir::isa<mlir::FloatTF32Type>(b))
      return Tcgen05Kind{mlir::NVVM::Tcgen05MMAKind::TF32, 4};
    if (isFloat8(a) && isFloat8(b))
      return Tcgen05Kind{mlir::NVVM::Tcgen05MMAKind::F8F6F4, 1};
    return std::nullopt;
  }

  /// The atype/btype code of `type` in this kind: f16 0, bf16 1; tf32 2;
  /// e4m3 0, e5m2 1.
  static uint32_t typeCode(Type type) {
    if (mlir::isa<mlir::FloatTF32Type>(type))
      return 2;
    return type.isBF16() || mlir::isa<mlir::Float8E5M2Type>(type) ? 1 : 0;
  }

  /// The instruction descriptor ("Instruction descriptor") of a multiply of
  /// `a` by `b` with N = `n`: f32 D (bits 4-5 = 1), A and B types (bits 7-9,
  /// 10-12), A K-major (bit 15 = 0), B MN-major (bit 16 = 1) unless
  /// `bKMajor` (as SwizzledStaging stages it), N >> 3 (bits 17-22), M >> 4
  /// (bits 24-28); dense, no negation or saturation.
  static uint32_t instructionDescriptor(Type a, Type b, int64_t m, int64_t n, bool bKMajor) {
    return 1u << 4 | typeCode(a) << 7 | typeCode(b) << 10 | uint32_t(!bKMajor) << 16 |
           uint32_t(n >> 3) << 17 | uint32_t(m >> 4) << 24;
  }
};

/// The tcgen05.mmas of a multiply whose B (and A, unless it is in tensor
/// memory) is staged one K chunk at a time in the swizzled layouts of
/// SwizzledStaging.h: one per (k step of 32 bytes, batch, row block, at most
/// 256 columns) onto the D regions from `tmem` (Tcgen05ToLLVM.cpp), read
/// from shared-memory descriptors and a 32-bit instruction descriptor. Both
/// the two-buffer staging of mmaf / mmaf_global and the TMA ring's slots
/// (tile_as.tcgen05_stage) issue through it.
struct Tcgen05ChunkMmas {
  const SwizzledStaging *staging = nullptr;
  /// The multiply's shape and its row blocks (A's staged rows: padded).
  MmaShape s;
  Tcgen05RowBlocks blocks;
  Type aElement, bElement;
  Tcgen05Kind kind;
  /// B staged K-major (else N-major).
  bool bKMajor = false;
  /// D's tensor-memory address (i32), and A's where it sits there
  /// (`aPerWord` elements per column; 0: A is staged).
  Value tmem, aTmem;
  int64_t aPerWord = 0;
  /// The CTA pair's MMAs (tcgen05.mma.cta_group::2): the staging holds
  /// this CTA's N / 2 columns of B, each MMA is M = 256 by the whole N (N
  /// at most 256) and the commit arrives on `barrier`'s offset in both
  /// CTAs (.multicast::cluster). Only the even CTA issues.
  bool pair = false;

  /// The calling thread (the issuer) orders itself after the thread sync
  /// that published the chunk (tcgen05.fence::after_thread_sync), issues the
  /// MMAs of the chunk from K offset `k0` (`len` of it) whose staged A and B
  /// start at the shared addresses (i64) `aAddress` and `bAddress`, and
  /// makes tcgen05.commit arrive on `barrier` once they have completed.
  void issue(mlir::ConversionPatternRewriter &rewriter, RegisterEmitter &e, Value aAddress,
             Value bAddress, int64_t k0, int64_t len, Value barrier) const;
};

/// The canonical K-major layout without swizzling that tcgen05.mma reads
/// through shared-memory descriptors (PTX ISA, tcgen05 "Shared Memory
/// Layout"; wgmma's is the same): core matrices of 8 rows of 16 bytes, the
/// core matrices of one 8-row group adjacent along K (leading byte offset
/// 128), 8-row groups `chunk` elements of K apart (stride byte offset).
struct CanonicalKMajor {
  static constexpr int64_t kCoreRows = 8, kCoreRowBytes = 16, kCoreBytes = 128;
  int64_t elementBytes = 2;
  int64_t chunk = 0;

  /// Elements in one 16-byte row of a core matrix.
  int64_t coreElements() const { return kCoreRowBytes / elementBytes; }
  /// The k of one tcgen05.mma: 32 bytes of K, two core matrices.
  int64_t stepK() const { return 2 * coreElements(); }
  /// Bytes between 8-row groups.
  int64_t strideBytes() const { return chunk / coreElements() * kCoreBytes; }
  /// Element index of (row, k) in an array of `chunk` columns.
  Value slot(const IndexMath &m, Value row, Value k) const;
  /// The leading (bits 16-29) and stride (bits 32-45) byte offsets of a
  /// descriptor, in 16-byte units.
  uint64_t offsetBits() const {
    return (uint64_t(kCoreBytes) >> 4) << 16 | (uint64_t(strideBytes()) >> 4) << 32;
  }
};

/// Where one K chunk of A (as [batch * M][chunk]) and B (transposed, as
/// [batch * N][chunk]) lives in the scratch buffer, both in the canonical
/// K-major layout, each followed by a few bytes that out-of-chunk registers
/// are stored to.
///
/// Dense fp4 operands (tcgen05.mma kind::mxf4 / mxf4nvf4: e2m1 packed two
/// to a byte, the even k in the low nibble) are staged a byte per element
/// like fp8 and then packed into a second pair of arrays, A's and B's
/// chunk / 2 bytes per row in the canonical K-major layout of bytes
/// (`packed`), which the descriptors address: registers hold one element
/// each, and pairing nibbles of different threads' registers needs shared
/// memory anyway.
struct CanonicalStaging {
  static constexpr int64_t kTrashBytes = 16;
  CanonicalKMajor layout;
  uint64_t bOffset = 0, bytes = 0;
  bool denseFp4 = false;
  CanonicalKMajor packed;
  uint64_t aPackedOffset = 0, bPackedOffset = 0;

  CanonicalStaging() = default;
  CanonicalStaging(const MmaShape &s, int64_t elementBytes, int64_t chunk, bool denseFp4 = false);
  int64_t chunk() const { return layout.chunk; }
  int64_t aElements(const MmaShape &s) const { return s.batch * s.m * layout.chunk; }
  int64_t bElements(const MmaShape &s) const { return s.batch * s.n * layout.chunk; }
  /// The layout the instruction reads through the descriptors.
  const CanonicalKMajor &mmaLayout() const { return denseFp4 ? packed : layout; }
  /// The k (elements) of one tcgen05.mma: 32 bytes of K, 64 packed fp4.
  int64_t stepK() const { return denseFp4 ? 2 * packed.stepK() : layout.stepK(); }

  /// The K chunk staged at a time (chooseKChunk within static shared
  /// memory); 0 when not even one k step fits.
  static int64_t chooseChunk(const MmaShape &s, int64_t elementBytes, bool denseFp4 = false);
};

/// What a tcgen05 lowering starts from: A's, B's and the accumulator's
/// registers (operands 0, 1 and 2 of an mmaf or mmaf_scaled), the
/// accumulator widened to f32 sums, and the canonical K-major staging of A
/// and B in the scratch buffer.
struct CanonicalMma {
  MmaShape shape;
  Laid accLaid;
  Type element, accElement, accType;
  /// The LLVM type A and B are stored as (i8 for fp8 elements).
  Type storage;
  OperandRegs a, b, c;
  /// Registers of A and B adjacent along K that one vector store stages
  /// (within a 16-byte row of a core matrix; 1: one store per element).
  int64_t aRun = 1, bRun = 1;
  Arithmetic arith{/*isFloat=*/true};
  SmallVector<Value> sums;
  CanonicalStaging staging;
  Value aBase, bBase;
  /// What the descriptors address: aBase / bBase, or the packed arrays of
  /// dense fp4 operands.
  Value aMma, bMma;

  /// Whether the staging of `op`'s A and B fits (at least one k step).
  static bool fits(mlir::Operation *op);

  /// Unpacks the operands (`lhs`, `rhs`, `acc` converted) of `op`; fails
  /// (with a diagnostic) where a type has no layout or LLVM form or the
  /// staging does not fit. The scratch buffer (from aBase) grows to at
  /// least `minBytes` too, for the caller's own staging before the chunks'.
  /// Without `withAccumulator` (an accumulator kept in tensor memory) `c`
  /// and `sums` stay empty.
  static mlir::FailureOr<CanonicalMma> prepare(mlir::Operation *op, Value lhs, Value rhs,
                                               Value acc, const mlir::TypeConverter &converter,
                                               RegisterEmitter &e, uint64_t minBytes = 0,
                                               bool withAccumulator = true);

  /// Stages A and B for k in [k0, k0 + len) between CTA barriers (the first
  /// waits for the scratch's earlier readers), fenced for the async proxy
  /// that reads them: B transposed, its column n of batch b at row
  /// b * N + n; A's register i at row `aRowOf(i)`. Dense fp4 operands are
  /// then packed (after a barrier) by all threads.
  void stageChunk(RegisterEmitter &e, mlir::ConversionPatternRewriter &rewriter, int64_t k0,
                  int64_t len, llvm::function_ref<Value(size_t)> aRowOf) const;

  /// The shared address (i64) `bytes` (i32) after `address` (i64).
  static Value addBytes(RegisterEmitter &e, Value address, Value bytes);

  /// The batch coordinate of register `i` of `regs` (0 when unbatched).
  Value batchOf(RegisterEmitter &e, const OperandRegs &regs, size_t i) const {
    return shape.batched ? regs.coords[0][i] : e.i32(0);
  }

  /// The shared-memory descriptors of A's rows from `aRow` and B's rows
  /// (B's columns) from `bRow` of k step `k` (i32) of the staged chunk.
  std::pair<Value, Value> descriptors(RegisterEmitter &e, Value k, int64_t aRow,
                                      int64_t bRow) const;

  /// Adds D as tcgen05.ld reads it from tensor memory to `sums`: each warp
  /// reads its 32 lanes of the (batch, 128-row block) regions for which
  /// `regionColumn` gives a column of `tmem` (and skips the others),
  /// waiting for each load before it uses it.
  void addProducts(RegisterEmitter &e, Value tmem,
                   llvm::function_ref<std::optional<int64_t>(int64_t batch, int64_t block)>
                       regionColumn);
};

/// Stores the f32 `sums` (registers of `accLaid`) into the D regions from
/// `tmem` and waits for the stores, fenced before the thread sync that
/// orders them before the multiplies.
void storeAccumulator(RegisterEmitter &e, const Laid &accLaid, const MmaShape &s, Value tmem,
                      ArrayRef<Value> sums);

/// Loads the D regions from `tmem` into the f32 `sums`, each piece waited
/// for before its values are used.
void loadAccumulator(RegisterEmitter &e, const Laid &accLaid, const MmaShape &s, Value tmem,
                     mlir::SmallVectorImpl<Value> &sums);

/// Replaces such a multiply: its result is the tensor-memory copy, which
/// has no registers (a poison vector of type `accVector`).
mlir::LogicalResult replaceWithTmemAccumulator(mlir::ConversionPatternRewriter &rewriter,
                                               mlir::Operation *op, Type accVector);

/// The columns allocated for `columns`: a power of two, at least 32.
int64_t getTmemAllocationColumns(int64_t columns);

/// The tensor-memory address (i32: lane << 16 | column) of the kernel's
/// allocation, which grows to at least `columns` (finishTensorMemory
/// allocates it).
Value getTensorMemory(mlir::OpBuilder &builder, mlir::Location loc, mlir::Operation *anchor,
                      int64_t columns);

/// `address` (i32) as the !llvm.ptr<6> the tcgen05 ops take.
Value getTensorPointer(RegisterEmitter &e, Value address);

/// mbarrier `index` (0 or 1) of the kernel's pair that tcgen05.commit
/// signals (a shared [2 x i64]).
Value getTcgen05MBarrier(RegisterEmitter &e, mlir::Operation *anchor, int64_t index);

/// A barrier that orders tensor-memory accesses on both sides of it
/// ("Memory Consistency Model for tcgen05": fence::before_thread_sync,
/// the thread sync, fence::after_thread_sync).
void emitTensorMemoryBarrier(mlir::OpBuilder &builder, mlir::Location loc);

/// The multiplies of one K chunk as thread 0 (`leader`) issues them:
/// `issue` runs in thread 0 after the fence that orders it after the
/// chunk's staging, then tcgen05.commit makes mbarrier 0 of the kernel's
/// pair track them and every thread waits for its phase `phase` % 2. The mbarrier is
/// initialized on first use (`init`: before the first chunk's staging,
/// whose barrier publishes it) and invalidated by emitTcgen05MBarrierInval.
struct Tcgen05Issuer {
  Value barrier, leader;

  static Tcgen05Issuer create(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc,
                              mlir::Operation *anchor, RegisterEmitter &e);
  mlir::LogicalResult issueAndWait(mlir::ConversionPatternRewriter &rewriter,
                                   mlir::Location loc, int64_t phase,
                                   llvm::function_ref<void()> issue) const;
  /// After every thread is past its last wait.
  void invalidate(mlir::ConversionPatternRewriter &rewriter, mlir::Location loc) const;
};

//===----------------------------------------------------------------------===//
// A CTA pair's tcgen05.mma.cta_group::2 (Tcgen05PairSync.cpp)
//===----------------------------------------------------------------------===//

/// Whether `op` is, or is in, a kernel whose tcgen05 multiplies its CTA pair
/// issues together (tile_as.tcgen05_cta_pair).
bool isTcgen05CtaPair(mlir::Operation *op);
/// The .cta_group of every tcgen05 instruction of `op`'s kernel.
mlir::NVVM::CTAGroupKind getTcgen05CtaGroup(mlir::Operation *op);
/// The calling CTA's rank in its cluster (%cluster_ctarank, i32).
Value getPairRank(RegisterEmitter &e);
/// Whether the calling CTA is the even one of its pair (i1), which issues
/// the pair's MMAs.
Value isEvenCta(RegisterEmitter &e);
/// The multicast mask (i16) of both CTAs of the pair.
Value getPairMulticastMask(RegisterEmitter &e);
/// Every thread of the cluster meets (barrier.cluster.arrive.aligned, with
/// its default release, then wait.aligned, acquire).
void emitClusterBarrier(RegisterEmitter &e);
/// A blocking wait for the phase of parity `parity` (i32) of `bar` (this
/// CTA's) with acquire at cluster scope: the peer CTA's release arrivals on
/// it are ordered before what follows.
void emitClusterParityWait(mlir::ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                           Value bar, Value parity);
/// Arrives (release at cluster scope) on the mbarrier at `bar`'s offset in
/// the even CTA of the calling CTA's pair.
void arriveOnEvenCta(RegisterEmitter &e, Value bar);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_TCGEN05LOWERING_H
