//===- MmaSyncToLLVM.cpp - mmaf/mmai on tensor cores: ldmatrix + mma.sync ===//
//
// The mma.sync path of mmaf and mmai (getMmaSyncForm says which operand
// types take it; MmaSyncKinds.cpp issues the instruction of each kind). The
// comments below describe f16/bf16 (m16n8k16); the other kinds differ only
// in element size, with every distance in bytes the same: a k step is 32
// bytes of K (k16 of f16, k32 of fp8/s8, k8 of tf32), and B is staged
// transposed (see below).
//
// The accumulator arrives in the m16n8 fragment layout (AssignLayouts gave
// its shape getMmaAccumulatorLayout), so its registers already are the C/D
// fragments of mma.sync.m16n8k16 (PTX ISA, "Matrix Fragments for
// mma.m16n8k16"; m16n8k8 and m16n8k32 place C/D alike): lane l holds row l / 4 and columns 2 * (l % 4) + {0, 1} of
// each 8x8 block its warp covers, and two blocks 8 * warpsM rows apart form
// the 16 rows of one fragment. Nothing moves for the accumulator.
//
// A and B are staged through the shared scratch a chunk of K at a time, as
// on the FMA path: A as [batch][M][chunk], B as [batch][chunk][N], each row
// padded by 16 bytes so that the eight 16-byte rows one ldmatrix reads fall
// into eight different bank groups. Per k step of 16 a warp loads each A
// fragment (16 rows) with ldmatrix.x4, each B fragment (8 columns) with
// ldmatrix.x2.trans (B is row-major, mma wants it column-major), and issues
// one mma.sync per 16x8 block. The fragment rows an ldmatrix reads need not
// be adjacent in A: each lane supplies the address of the row it names.
//
// 8-bit and tf32 B fragments are "col" too (lane l holds k 4 * (l % 4)... of
// column l / 4 for 8-bit, k l % 4 for tf32), but ldmatrix .trans moves only
// 16-bit elements, so 8-bit B is staged transposed, as [batch][N][chunk]
// rows (K contiguous), and each B fragment read with a plain ldmatrix.x2:
// its two 8x16-byte matrices are the first and second 16 bytes of K of the
// fragment's 8 columns, which is the B fragment exactly. A tf32 element
// fills a register, so tf32 B stays [batch][chunk][N] (copied in runs along
// N like A) and each of a fragment's two registers is one ld.shared.b32,
// k l % 4 and l % 4 + 4 of column l / 4 (MmaStaging.h pads those rows for
// distinct banks). A's ldmatrix.x4 likewise yields the 8-bit and tf32 A
// fragments unchanged. fp8 mmafs
// instead get the paired-column accumulator (four adjacent columns per lane,
// two m16n8 blocks per 16-column span: its even and its odd columns), which
// lets B stay [batch][chunk][N], as global memory holds it and cp.async
// copies it, its fragments built by ldmatrix.x4.trans and prmt
// (PairedByteFragments).
// f16 accumulators accumulate in f32 (as on the FMA path) and are rounded
// once at the end.
//
// Block-scaled e2m1 (m16n8k64, MmaSyncForm::nibbles) packs eight elements
// to a register, which no staging cp.async or st.shared of register runs
// can produce without pairing nibbles across threads. So each element is
// staged as a byte (as the 8-bit kinds, B transposed), K permuted within
// each 32 (getNibbleStagingK), and a k step of 64 is read as two 32-byte
// halves by the 8-bit ldmatrix reads, each pair of registers packed into
// one e2m1 register by two shifts, two ors and a prmt (NibbleFragments).
//
// A tile_as.mmaf_global (AsyncCopyMmaOperands fused the global load of A,
// of B or of both into it; any mma.sync form) fills the same staging with cp.async straight
// from global memory, 16 bytes per copy (cp.async.cg; 8 or 4 by cp.async.ca
// where only shorter runs are proven), masked-off bytes zero-filled by the
// copy's source size, while an operand in registers is stored as above;
// each chunk's copies are committed and waited for before the barrier that
// publishes the chunk. The copied tiles then never occupy registers. An
// operand marked lhs_tf32/rhs_tf32 is copied as the raw f32 tile, and each
// of its fragment registers is rounded to tf32 between ldmatrix and
// mma.sync (roundToTF32, the rounding of the ftof it replaces): a handful
// of integer ops per register against a tile of registers and st.shared the
// rounding in registers needed. On sm_90a an mmaf_global whose accumulator
// has the wgmma layout takes the wgmma path instead (emitWgmma), whose
// staging cp.async fills the same way.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"
#include "SharedScratch.h"
#include "TmaRing.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// Accumulator registers per thread up to which LLVM may unroll the k steps
/// of a chunk (see emitMmaSync).
constexpr int64_t kMaxUnrolledAccumulatorRegs = 64;

/// The staging (MmaStaging.h) of one chunk of `chunk` K of the multiply `s`.
/// (B transposed where `bTransposed`: stagesBTransposed.)
MmaSyncStaging getStaging(const MmaShape &s, int64_t chunk, const MmaSyncForm &form,
                          bool bTransposed) {
  return MmaSyncStaging(s.batch, s.m, s.n, chunk, form.elementBytes, bTransposed);
}

/// The largest multiple of k of K whose staging fits the scratch limit,
/// evened out over the chunks; 0 when not even one k step fits.
int64_t chooseChunk(const MmaShape &s, const MmaSyncForm &form, bool bTransposed) {
  return chooseKChunk(s.k, form.k, kMaxStaticSharedBytes, [&](int64_t chunk) {
    return getStaging(s, chunk, form, bTransposed).bytes;
  });
}

FailureOr<MmaShape> getShape(Type lhs, Type acc) {
  return getMmaShape(cast<RankedTensorType>(lhs).getShape(),
                     cast<RankedTensorType>(acc).getShape());
}

/// Whether the accumulator `acc` has the mma.sync layout and the staging of
/// A (typed like `lhs`) and B fits the scratch limit.
bool hasMmaSyncStaging(Type lhs, Type acc, const MmaSyncForm &form) {
  auto accTensor = cast<RankedTensorType>(acc);
  auto layout = dyn_cast_or_null<BlockedAttr>(accTensor.getEncoding());
  if (!layout || !isMmaAccumulatorLayout(layout, accTensor.getShape()))
    return false;
  // Paired columns are read from 1-byte B only (emitMmaSync).
  if (hasPairedMmaColumns(layout) && form.elementBytes != 1)
    return false;
  FailureOr<MmaShape> shape = getShape(lhs, acc);
  return succeeded(shape) && chooseChunk(*shape, form, stagesBTransposed(form, acc)) > 0;
}

/// The i32 registers of `count` 8x8 b16 matrices ldmatrix reads at `address`
/// (`transpose`: .trans).
SmallVector<Value> loadMatrices(RegisterEmitter &e, Value address, unsigned count,
                                bool transpose) {
  MLIRContext *context = e.builder.getContext();
  Type i32 = e.builder.getI32Type();
  Type resultType = LLVM::LLVMStructType::getLiteral(context, SmallVector<Type>(count, i32));
  Value loaded = NVVM::LdMatrixOp::create(
      e.builder, e.loc, resultType, address, count,
      transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(context, 8, 8), NVVM::LdStMatrixEltType::B16);
  SmallVector<Value> regs;
  for (unsigned i = 0; i < count; ++i)
    regs.push_back(LLVM::ExtractValueOp::create(e.builder, e.loc, loaded, i));
  return regs;
}

/// The i32 words at the shared `addresses` (ld.shared.b32 each).
SmallVector<Value> loadWords(RegisterEmitter &e, ArrayRef<Value> addresses) {
  SmallVector<Value> words;
  for (Value address : addresses)
    words.push_back(LLVM::LoadOp::create(e.builder, e.loc, e.builder.getI32Type(), address, 4));
  return words;
}

/// prmt: the bytes of (`a`, `b`) that `selector` names, one per result byte.
Value permuteBytes(RegisterEmitter &e, Value a, Value b, int64_t selector) {
  Type i32 = e.builder.getI32Type();
  return LLVM::CallIntrinsicOp::create(e.builder, e.loc, i32,
                                       e.builder.getStringAttr("llvm.nvvm.prmt"),
                                       ValueRange{a, b, e.i32(selector)})
      .getResult(0);
}

/// The B fragments of two m16n8k32 blocks of 1-byte elements, the even and
/// the odd columns of a 16-column span (the paired-column accumulator
/// layout), read from B staged as [k][n] rows, the way global memory holds
/// it and cp.async copies it.
///
/// The B fragment of lane (g = lane / 4, t = lane % 4) is column g with k
/// 4t..4t+3 in its first register and 16 + 4t.. in its second (PTX ISA,
/// "Matrix Fragments for mma.m16n8k32"): four k per register, which no
/// ldmatrix of [k][n] rows yields. ldmatrix.x4.trans of b16 elements gives
/// lane (g, t), from matrix j, the byte pairs of columns 2g and 2g + 1 in
/// rows 2t and 2t + 1 of the eight rows lanes 8j..8j+7 name. Naming rows so
/// that matrices 0 and 1 bring lane t the k rows 4t, 4t + 1 and 4t + 2,
/// 4t + 3, and matrices 2 and 3 the same 16 k further, every lane ends up
/// with k 4t..4t+3 and 16 + 4t.. of columns 2g and 2g + 1: column g of the
/// block of even columns and of the block of odd columns, whose D columns
/// 2t, 2t + 1 are the span's 4t..4t+3 the lane holds. Two prmt per
/// register (constant selectors) then sort the bytes by column. So one
/// ldmatrix.x4 and four prmt read the fragments of two blocks, and B needs
/// no transposed staging, which cp.async cannot fill (ld.shared.b32 of a
/// 4x4 byte block plus prmt would read four times the bytes a lane keeps).
///
/// The eight rows of matrix 0, {0, 1, 4, 5, 8, 9, 12, 13}, hold k and k + 8,
/// which fall into the same bank group at any 16-byte row pitch: a two-way
/// conflict on B's ldmatrix (one in five of a k step's ldmatrix on
/// BatchMatMul's tile). The conflict-free order ({0, 1, 4, 5, 10, 11, 14,
/// 15}) gives lanes t = 2, 3 their high pair first, and the per-lane swap
/// it needs (a select per register, or per-lane prmt selectors) pushed
/// BatchMatMul's fp8 tile past 255 registers on sm_90 (8 to 12 bytes of
/// spills).
struct PairedByteFragments {
  /// The k row (from the k step's first) lane `lane` names: lane 8j + r
  /// names row r of matrix j, 16 * (j / 2) + 2 * (j % 2) + 4 * (r / 2) +
  /// (r % 2).
  static Value laneRow(IndexMath &m, Value lane) {
    return m.add(m.add(m.mul(m.bits(lane, 4, 1), 16), m.mul(m.bits(lane, 3, 1), 2)),
                 m.add(m.mul(m.bits(lane, 1, 3), 4), m.bits(lane, 0, 1)));
  }

  /// The even block's two registers, then the odd block's, read from the
  /// span whose rows the lanes name at `address`.
  static SmallVector<SmallVector<Value>> load(RegisterEmitter &e, Value address) {
    SmallVector<Value> matrices = loadMatrices(e, address, 4, /*transpose=*/true);
    // Matrix 2r + 0 holds (k, column 2g), (k, 2g + 1), (k + 1, 2g),
    // (k + 1, 2g + 1) of k = 4t (+ 16r); matrix 2r + 1 the same of k + 2:
    // the even columns are bytes 0, 2, 4, 6 of the pair, the odd ones 1, 3,
    // 5, 7.
    SmallVector<SmallVector<Value>> fragments;
    for (int64_t selector : {0x6420, 0x7531})
      fragments.push_back({permuteBytes(e, matrices[0], matrices[1], selector),
                           permuteBytes(e, matrices[2], matrices[3], selector)});
    return fragments;
  }
};

/// The fragments of packed 4-bit operands (MmaSyncForm::nibbles: e2m1 of
/// the block-scaled m16n8k64) from their staging, one byte per element
/// (its low nibble) with K permuted by getNibbleStagingK. A k step is 64
/// staged bytes; each 32-byte half is read as the 8-bit kinds read a k
/// step, with ldmatrix.x4 for A and plain ldmatrix.x2 for the transposed B,
/// which gives lane (g, t) the bytes at 4t..4t+3 and 16 + 4t.. of the half,
/// elements 8t..8t+7 after the permutation. Packed, they are the e2m1
/// register of k 8t..8t+7 (PTX ISA, "Matrix Fragments for mma.m16n8k64":
/// a0/a1 rows g and g + 8, a2/a3 the same 32 k further; b0, b1 column g),
/// the lowest k in the lowest nibble.
struct NibbleFragments {
  static Value pack(RegisterEmitter &e, Value low, Value high) {
    return packNibbles(e, low, high);
  }
  /// a0..a3 from the halves at `first` and `second`.
  static SmallVector<Value> loadA(RegisterEmitter &e, Value first, Value second) {
    SmallVector<Value> lo = loadMatrices(e, first, 4, false);
    SmallVector<Value> hi = loadMatrices(e, second, 4, false);
    return {pack(e, lo[0], lo[2]), pack(e, lo[1], lo[3]), pack(e, hi[0], hi[2]),
            pack(e, hi[1], hi[3])};
  }
  /// b0, b1 from the halves at `first` and `second`.
  static SmallVector<Value> loadB(RegisterEmitter &e, Value first, Value second) {
    SmallVector<Value> lo = loadMatrices(e, first, 2, false);
    SmallVector<Value> hi = loadMatrices(e, second, 2, false);
    return {pack(e, lo[0], lo[1]), pack(e, hi[0], hi[1])};
  }
};

/// Where the element at K index `k` of a chunk of packed 4-bit operands
/// (MmaSyncForm::nibbles; K contiguous: A, transposed B) is staged. An
/// e2m1 fragment register holds eight consecutive k (8t..8t+7 of lane t in
/// each 32 k), a byte-per-element ldmatrix register four (4t..4t+3 of each
/// 16-byte half). Staging k = 8t + i at 4t + i (i < 4) and 16 + 4t + i - 4
/// (i >= 4) within its 32 makes the two registers ldmatrix gives lane t for
/// the halves of a 32 k its eight k in order (NibbleFragments). Runs of four
/// aligned k stay contiguous.
Value getNibbleStagingK(IndexMath &m, Value k) {
  Value base = m.mul(m.div(k, 32), 32);
  Value upper = m.mul(m.bits(k, 2, 1), 16);
  return m.add(m.add(base, upper), m.add(m.bits(k, 1, 12), m.bits(k, 0, 3)));
}

/// Stages the K chunk [k0, k0 + len) of `a` and `b` (of the multiply `s`,
/// laid out as `staging`; B transposed where `bTransposed`; K permuted by
/// getNibbleStagingK where `nibbles`) at `aBase` and `bBase`; `needsCheck`:
/// some runs may lie outside the chunk. A register
/// run outside goes to the trash slot; a copied (global) run outside is
/// skipped by a branch around its cp.async (`rewriter`), so that its shared
/// address is one thread base plus a constant in every chunk rather than a
/// per-chunk select: LLVM hoists the staging addresses of all chunks out of
/// the enclosing K loop, and the selects kept one 64-bit register per run
/// and chunk live next to the accumulator.
LogicalResult stageChunk(RegisterEmitter &e, RewriterBase &rewriter, const MmaShape &s,
                         const MmaSyncStaging &staging, const StagedOperand &a,
                         const StagedOperand &b, Type element, bool bTransposed, Value aBase,
                         Value bBase, int64_t k0, int64_t len, bool needsCheck,
                         bool nibbles = false) {
  IndexMath m{e};
  auto stagedK = [&](Value kLocal) { return nibbles ? getNibbleStagingK(m, kLocal) : kLocal; };
  unsigned rank = a.laid.shape.size(), mDim = rank - 2, nDim = rank - 1;
  auto batchOf = [&](const OperandRegs &regs, size_t i) {
    return s.batched ? regs.coords[0][i] : e.i32(0);
  };
  if (failed(stageRuns(e, a, aBase, element, /*transposed=*/false, rank - 1, k0, len,
                       needsCheck, staging.aTrash(), [&](size_t i, Value kLocal) {
                         Value row = m.add(m.mul(batchOf(a.regs, i), s.m),
                                           a.regs.coords[mDim][i]);
                         return m.add(m.mul(row, staging.aPitch), stagedK(kLocal));
                       }, a.global ? &rewriter : nullptr)))
    return failure();
  return stageRuns(e, b, bBase, element, bTransposed, rank - 2, k0, len, needsCheck,
                   staging.bTrash(), [&](size_t i, Value kLocal) {
                     Value column = b.regs.coords[nDim][i];
                     if (bTransposed) {
                       Value row = m.add(m.mul(batchOf(b.regs, i), s.n), column);
                       return m.add(m.mul(row, staging.bPitch), stagedK(kLocal));
                     }
                     Value row = m.add(m.mul(batchOf(b.regs, i), staging.chunk), kLocal);
                     return m.add(m.mul(row, staging.bPitch), column);
                   }, b.global ? &rewriter : nullptr);
}

/// Which operands' fragments are rounded from f32 to tf32 after ldmatrix:
/// those an mmaf_global copied as raw f32 (lhs_tf32, rhs_tf32).
struct FragmentRounding {
  bool a = false, b = false;
};

/// `regs` (fragment registers of f32 bit patterns) rounded to tf32 where
/// `round`.
SmallVector<Value> roundFragment(RegisterEmitter &e, SmallVector<Value> regs, bool round) {
  if (round)
    for (Value &reg : regs)
      reg = LLVM::BitcastOp::create(
          e.builder, e.loc, e.builder.getI32Type(),
          roundToTF32(e.builder, e.loc,
                      LLVM::BitcastOp::create(e.builder, e.loc, e.builder.getF32Type(), reg)));
  return regs;
}

/// Where one staged chunk of A and B starts.
struct ChunkBases {
  Value a, b;
};
/// Makes the chunk [k0, k0 + len) of A and B ready in shared memory for
/// every thread and says where it is.
using PrepareChunkFn = llvm::function_ref<FailureOr<ChunkBases>(int64_t k0, int64_t len)>;

/// The ldmatrix (or ld.shared) addresses of the fragments in the swizzled
/// slots of a TMA ring (TmaRing.h; unbatched: A [M][chunk], B [chunk][N],
/// each in blocks of W bytes along its contiguous dimension; 16-bit, tf32
/// or fp8 elements, a k step 32 bytes of K).
/// The swizzle XORs a row's 16-byte pieces with the row's place in the
/// 8-row pattern (SwizzledStaging.h), which changes only the address bits
/// below the row's W bytes: an address is the unswizzled one with its
/// in-row offset XOR-ed with the pattern of the row its lane names.
///
/// A's fragments of a thread lie 16 rows or more apart, so they share the
/// lane's pattern and differ by constants. B's (ldmatrix.x2.trans: lanes
/// name k rows, the fragment's 8 columns are one 16-byte piece) differ in
/// their columns, which the pattern permutes; fragments whose column
/// offsets agree modulo a block's W / 2 share one swizzled base and differ
/// by whole blocks. So a k step computes one A address and one B address
/// per such group (MatMul's 128x256 tile: 2), and every fragment is a
/// constant away, which ldmatrix's [reg+imm] absorbs.
///
/// The other widths read B as the padded staging does: fp8 (the
/// paired-column accumulator) by ldmatrix.x4.trans whose lanes name k rows
/// of one 16-column (16-byte) piece, tf32 by one ld.shared.b32 per
/// register, lane (g, t) reading column g of k rows t and t + 4. A lane's
/// second word lies 4 rows further, whose pattern is the lane's XOR-ed with
/// row 4's (the lane's row is below 4: adding 4 sets a bit it lacks), so it
/// is a second swizzled base per group (bStep with laterRows 4). The 8
/// words of a k row are two 16-byte pieces, which rows t and t ^ 1 (same
/// pattern bits above the lowest) swap: a 2-way bank conflict on each
/// tf32 B load.
struct SwizzledFragments {
  /// Rows per repetition of the swizzle pattern.
  static constexpr int64_t kPatternRows = 8;
  const SwizzledStaging &staging;
  IndexMath m;
  int64_t kStep;
  /// The byte offsets of the lane's row of A and of k row of B in their
  /// block (row * W), their patterns (bits 4-6 at most), A's lane's K
  /// offset in bytes.
  Value aRowBytes, aPattern, aLaneBytes, bRowBytes;
  /// Per group of B fragments: the swizzled offset of its first column.
  SmallVector<Value> bColumns;
  /// Per A fragment its byte offset from the step's A address; per B
  /// fragment its group and byte offset from that group's address.
  SmallVector<int64_t> aOffsets;
  SmallVector<std::pair<unsigned, int64_t>> bOffsets;

  /// ((row * W) >> 7) mod (W / 16), the row's place in its 8 x W atom
  /// (SwizzledArray::slot), shifted to the 16-byte piece bits.
  Value pattern(const SwizzledArray &array, Value row) const {
    return m.shl(m.bits(m.mul(row, array.width), 7, array.width / 16 - 1), 4);
  }
  static int64_t pattern(const SwizzledArray &array, int64_t row) {
    return ((row * array.width) >> 7 & (array.width / 16 - 1)) << 4;
  }

  /// `aRow`: the row the lane names for the thread's first A fragment,
  /// `aLaneK`: its K offset in elements; `bLaneK`: the k row it names for
  /// B; `firstColumn`: the column the lane names in the thread's first B
  /// fragment;
  /// `aRowOffsets` and `bColumnOffsets`: each fragment's rows or columns
  /// from the first. Fails where an A fragment is not a multiple of 8 rows
  /// away (it would not share the pattern).
  static FailureOr<SwizzledFragments> get(Operation *op, RegisterEmitter &e,
                                          const SwizzledStaging &staging, int64_t kStep,
                                          Value aRow, Value aLaneK, Value bLaneK,
                                          Value firstColumn, ArrayRef<int64_t> aRowOffsets,
                                          ArrayRef<int64_t> bColumnOffsets) {
    SwizzledFragments f{staging, IndexMath{e}, kStep, {}, {}, {}, {}, {}, {}, {}};
    const IndexMath &m = f.m;
    const SwizzledArray &a = staging.a, &b = staging.b;
    unsigned bytes = a.elementBytes;
    f.aRowBytes = m.mul(aRow, a.width);
    f.aPattern = f.pattern(a, aRow);
    f.aLaneBytes = m.mul(aLaneK, bytes);
    // k steps are multiples of 8 rows: the lane's k row alone sets B's
    // pattern.
    f.bRowBytes = m.mul(bLaneK, b.width);
    Value bPattern = f.pattern(b, bLaneK);
    for (int64_t rows : aRowOffsets) {
      if (rows % kPatternRows != 0)
        return op->emitOpError("has A fragments ") << rows << " rows apart, which the swizzled "
                                                     "ring slots cannot reach by constants";
      f.aOffsets.push_back(rows * a.width);
    }
    int64_t perBlock = b.perBlock();
    SmallVector<int64_t> groups;
    for (int64_t columns : bColumnOffsets) {
      int64_t group = columns % perBlock;
      auto it = llvm::find(groups, group);
      if (it == groups.end()) {
        groups.push_back(group);
        Value column = m.add(firstColumn, group);
        f.bColumns.push_back(
            m.add(m.mul(m.div(column, perBlock), b.blockBytes()),
                  m.bitXor(m.mul(m.rem(column, perBlock), bytes), bPattern)));
        it = std::prev(groups.end());
      }
      f.bOffsets.push_back({unsigned(it - groups.begin()),
                            (columns - group) / perBlock * b.blockBytes()});
    }
    return f;
  }

  Value at(Value base, Value bytes) const {
    return LLVM::GEPOp::create(m.e.builder, m.e.loc, base.getType(), m.e.builder.getI8Type(),
                               base, ArrayRef<LLVM::GEPArg>{bytes});
  }
  Value at(Value base, int64_t bytes) const {
    return LLVM::GEPOp::create(m.e.builder, m.e.loc, base.getType(), m.e.builder.getI8Type(),
                               base, ArrayRef<LLVM::GEPArg>{int32_t(bytes)});
  }
  /// A's address of k step `k` (an i32) of the chunk at `aBase`.
  Value aStep(Value aBase, Value k) const {
    const SwizzledArray &a = staging.a;
    Value kBytes = m.add(m.mul(k, kStep * a.elementBytes), aLaneBytes);
    Value inRow = m.bitXor(m.rem(kBytes, a.width), aPattern);
    return at(aBase, m.add(m.add(m.mul(m.div(kBytes, a.width), a.blockBytes()), aRowBytes),
                           inRow));
  }
  /// B's address per group of k step `k` of the chunk at `bBase`, or of
  /// the k row `laterRows` (a power of 2 above the lane's row within its 8)
  /// below the lane's.
  SmallVector<Value> bStep(Value bBase, Value k, int64_t laterRows = 0) const {
    const SwizzledArray &b = staging.b;
    Value rows = m.add(m.mul(k, kStep * b.width), bRowBytes);
    if (laterRows)
      rows = m.add(rows, laterRows * b.width);
    return llvm::map_to_vector(bColumns, [&](Value column) {
      if (laterRows)
        column = m.bitXor(column, m.e.i32(pattern(b, laterRows)));
      return at(bBase, m.add(rows, column));
    });
  }
};

/// Lowers the multiply `op` of shape `s` (operand element type `element`
/// converted to LLVM) onto the accumulator `acc` (converted; tensor type
/// `accTensorType`, in the mma.sync layout) in `arith`'s compute type,
/// reading A and B a chunk at a time, laid out as `staging` for `form`, from
/// where `prepareChunk` puts them, their fragments rounded as `rounding`
/// says; `issue` emits each mma.sync. With `swizzled` the chunks are
/// staged so (a TMA ring's slots; 16-bit B N-major, unbatched) rather than
/// in `staging`'s padded rows, whose `chunk` still applies.
LogicalResult emitMmaSync(Operation *op, const MmaShape &s, const MmaSyncStaging &staging,
                          Type element, Value acc, Type accTensorType, const MmaSyncForm &form,
                          const Arithmetic &arith, MmaInstructionFn issue,
                          const TypeConverter &converter, ConversionPatternRewriter &rewriter,
                          PrepareChunkFn prepareChunk, FragmentRounding rounding = {},
                          const SwizzledStaging *swizzled = nullptr) {
  Location loc = op->getLoc();
  FailureOr<Laid> accLaid = Laid::of(op, accTensorType);
  if (failed(accLaid))
    return failure();
  unsigned rank = accLaid->shape.size();
  unsigned mDim = rank - 2, nDim = rank - 1;
  Type accElement = getElementTypeOrSelf(accTensorType);
  Type accType = converter.convertType(accElement);
  if (!accType)
    return op->emitOpError("accumulator element type has no LLVM form");
  const int64_t kStep = form.k;
  bool bTransposed = stagesBTransposed(form, accTensorType);
  // tf32 B from [chunk][N] rows: a word per fragment register.
  bool bWords = !bTransposed && form.elementBytes == 4;

  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  OperandRegs c = unpackOperand(e, acc, *accLaid);
  SmallVector<Value> sums = widenAccumulator(e, c, accElement, arith);

  auto batchOf = [&](const OperandRegs &regs, size_t i) {
    return s.batched ? regs.coords[0][i] : e.i32(0);
  };

  // The accumulator registers as [batch][row block][column]: rows r and
  // r + 1 (an even r) of a thread are the two halves of one m16n8 fragment.
  // A column block is the two columns of one m16n8 block or, paired, the
  // four of two blocks (even and odd columns of a 16-column span).
  BlockedAttr layout = accLaid->layout;
  const bool paired = hasPairedMmaColumns(layout);
  const int64_t blockColumns = paired ? 4 : 2;
  SmallVector<int64_t> regsPerDim = getRegsPerDim(layout, accLaid->shape);
  int64_t batchRegs = s.batched ? regsPerDim[0] : 1;
  int64_t rowRegs = regsPerDim[mDim], colBlocks = regsPerDim[nDim] / blockColumns;
  int64_t warpsM = layout.getWarpsPerCTA()[mDim];
  auto regOf = [&](int64_t batch, int64_t row, int64_t col) {
    SmallVector<int64_t> perDim{row, col};
    if (s.batched)
      perDim.insert(perDim.begin(), batch);
    return linearizeRegister(layout, accLaid->shape, perDim);
  };

  // ldmatrix.x4 of A: lanes 8j..8j+7 name the rows of matrix j, which holds
  // rows 0-7 (j even) or 8-15 (j odd) of the fragment and the first (j < 2)
  // or second 16 bytes of the k step. Fragment row i of the lane's group
  // g = lane / 4 is accumulator row origin - g + i, rows 8-15 lying
  // 8 * warpsM further.
  // Packed 4-bit k steps are 64 staged bytes, read in two 32-byte groups
  // (NibbleFragments); every other k step is one group of 32 bytes.
  const bool nibbles = form.nibbles();
  const int64_t groupK = nibbles ? 32 : kStep;
  const int64_t half = groupK / 2; // 16 bytes of elements
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  Value lane = m.bits(tid, 0, 31);
  Value group = m.bits(lane, 2, 7);
  Value aLaneRow = m.add(m.sub(m.bits(lane, 0, 7), group),
                       m.mul(m.bits(lane, 3, 1), 8 * warpsM));
  Value aLaneK = m.mul(m.bits(lane, 4, 1), half);
  // ldmatrix.x2.trans of B: lanes 0-15 name k rows 0-15 of the 8 columns
  // starting at the fragment's first column, origin - 2 * (lane % 4).
  // Transposed B (plain ldmatrix.x2): lanes 8j..8j+7 name columns 0-7 at the
  // j-th 16 bytes of the k step. Paired 1-byte B: see PairedByteFragments.
  // Word reads of tf32 B: lane l names k l % 4 of column l / 4.
  Value bLaneK = bTransposed ? m.mul(m.bits(lane, 3, 1), half)
                 : paired    ? PairedByteFragments::laneRow(m, lane)
                 : bWords    ? m.bits(lane, 0, 3)
                             : m.bits(lane, 0, 15);
  Value bLaneColumn = bWords ? group : m.bits(lane, 0, 7);
  Value columnInPair = m.mul(m.bits(lane, 0, 3), blockColumns);

  // A thread's fragments lie at fixed distances from its first one: the
  // accumulator layout repeats a thread's blocks at constant strides (along
  // N a wrapping layout gives a thread one block only). So each k step
  // computes one A and one B address for the thread and reaches every
  // fragment at a constant element offset from it, which ldmatrix's
  // [reg+imm] addressing absorbs. Per-fragment addresses were invariants of
  // the K loop around the multiply that LLVM hoisted out of it, a 64-bit
  // register each live next to the accumulator (BatchMatMul's 128x256 tile
  // spilled).
  int64_t first = regOf(0, 0, 0);
  auto staticOffset = [&](unsigned dim, int64_t reg) {
    SmallVector<int64_t> perDim = delinearizeRegister(layout, accLaid->shape, reg);
    SmallVector<int64_t> firstPerDim = delinearizeRegister(layout, accLaid->shape, first);
    return getRegisterCoordinate(layout, dim, perDim[dim]) -
           getRegisterCoordinate(layout, dim, firstPerDim[dim]);
  };
  Value firstBatch = batchOf(c, first);
  Value firstColumn = m.sub(c.coords[nDim][first], columnInPair);
  Value aThread = m.add(
      m.mul(m.add(m.add(m.mul(firstBatch, s.m), c.coords[mDim][first]), aLaneRow),
            staging.aPitch),
      aLaneK);
  Value bThread =
      bTransposed
          ? m.add(m.mul(m.add(m.add(m.mul(firstBatch, s.n), firstColumn), bLaneColumn),
                        staging.bPitch),
                  bLaneK)
          : m.add(m.mul(m.add(m.mul(firstBatch, staging.chunk), bLaneK), staging.bPitch),
                  bWords ? m.add(firstColumn, bLaneColumn) : firstColumn);
  SmallVector<int64_t> aFragmentOffset, bFragmentOffset; // from aThread, bThread
  SmallVector<int64_t> aRowOffsets, bColumnOffsets;      // unbatched, in rows and columns
  for (int64_t batch = 0; batch < batchRegs; ++batch) {
    int64_t reg = regOf(batch, 0, 0);
    int64_t batchOffset = s.batched ? staticOffset(0, reg) : 0;
    for (int64_t row = 0; row < rowRegs; row += 2) {
      int64_t rows = staticOffset(mDim, regOf(batch, row, 0));
      aRowOffsets.push_back(rows);
      aFragmentOffset.push_back((batchOffset * s.m + rows) * staging.aPitch);
    }
    for (int64_t col = 0; col < colBlocks; ++col) {
      int64_t column = staticOffset(nDim, regOf(batch, 0, blockColumns * col));
      bColumnOffsets.push_back(column);
      bFragmentOffset.push_back(bTransposed
                                    ? (batchOffset * s.n + column) * staging.bPitch
                                    : batchOffset * staging.chunk * staging.bPitch + column);
    }
  }
  std::optional<SwizzledFragments> swizzledFragments;
  if (swizzled) {
    if (s.batched || nibbles || bTransposed)
      return op->emitOpError("reads a swizzled TMA ring slot, which holds unbatched operands "
                             "with B N-major only");
    FailureOr<SwizzledFragments> fragments = SwizzledFragments::get(
        op, e, *swizzled, kStep, m.add(c.coords[mDim][first], aLaneRow), aLaneK, bLaneK,
        bWords ? m.add(firstColumn, bLaneColumn) : firstColumn, aRowOffsets, bColumnOffsets);
    if (failed(fragments))
      return failure();
    swizzledFragments.emplace(*fragments);
  }

  auto elementAt = [&](Value base, Value index) {
    return LLVM::GEPOp::create(rewriter, loc, base.getType(), element, base,
                               ArrayRef<LLVM::GEPArg>{index});
  };
  auto fragmentAt = [&](Value stepBase, int64_t offset) {
    return LLVM::GEPOp::create(rewriter, loc, stepBase.getType(), element, stepBase,
                               ArrayRef<LLVM::GEPArg>{int32_t(offset)});
  };

  // Unrolled, the k steps' fragment addresses are invariants of the K loop
  // around the multiply, which LLVM hoists out of it and keeps live; next to
  // an accumulator of more than kMaxUnrolledAccumulatorRegs registers a
  // thread that spills (BatchMatMul's 128x256 f32 tile on 8 warps: 128 per
  // thread). Smaller ones keep the unrolled steps, which ptxas schedules
  // better (FMHA spills rolled).
  bool keepRolled = int64_t(sums.size()) > kMaxUnrolledAccumulatorRegs;
  for (int64_t k0 = 0; k0 < s.k; k0 += staging.chunk) {
    int64_t len = std::min(staging.chunk, s.k - k0);
    FailureOr<ChunkBases> bases = prepareChunk(k0, len);
    if (failed(bases))
      return failure();
    Value aBase = bases->a, bBase = bases->b;
    sums = emitCountedLoop(rewriter, loc, len / kStep, sums, [&](Value k, ValueRange carried) {
      Value aStep = m.mul(k, kStep);
      Value bStep = m.mul(k, bTransposed ? kStep : kStep * staging.bPitch);
      // All A fragments first, then per column block its B fragment and the
      // mma.syncs using it: a B fragment lives for one column only.
      const SwizzledFragments *swz = swizzledFragments ? &*swizzledFragments : nullptr;
      Value aStepBase = swz ? swz->aStep(aBase, k) : elementAt(aBase, m.add(aThread, aStep));
      Value bStepBase = swz ? Value() : elementAt(bBase, m.add(bThread, bStep));
      SmallVector<Value> bGroupBases = swz ? swz->bStep(bBase, k) : SmallVector<Value>();
      // A tf32 B fragment's second words: 4 k rows further.
      constexpr int64_t kSecondWordRows = 4;
      SmallVector<Value> bSecondWordBases =
          swz && bWords ? swz->bStep(bBase, k, kSecondWordRows) : SmallVector<Value>();
      SmallVector<SmallVector<Value>> aFragments;
      for (auto [i, offset] : llvm::enumerate(aFragmentOffset))
        aFragments.push_back(
            nibbles ? NibbleFragments::loadA(e, fragmentAt(aStepBase, offset),
                                             fragmentAt(aStepBase, offset + groupK))
                    : roundFragment(e,
                                    loadMatrices(e,
                                                 swz ? swz->at(aStepBase, swz->aOffsets[i])
                                                     : fragmentAt(aStepBase, offset),
                                                 4, false),
                                    rounding.a));
      SmallVector<Value> next(carried);
      int64_t rowPairs = rowRegs / 2;
      for (int64_t batch = 0; batch < batchRegs; ++batch)
        for (int64_t col = 0; col < colBlocks; ++col) {
          int64_t fragment = batch * colBlocks + col;
          int64_t bOffset = bFragmentOffset[fragment];
          Value bAddress = swz ? swz->at(bGroupBases[swz->bOffsets[fragment].first],
                                         swz->bOffsets[fragment].second)
                               : fragmentAt(bStepBase, bOffset);
          // One B fragment per m16n8 block: plain columns c, c + 1 of the
          // thread, paired the even (c, c + 2) and odd (c + 1, c + 3) ones.
          SmallVector<SmallVector<Value>> bFragments;
          if (paired)
            bFragments = PairedByteFragments::load(e, bAddress);
          else if (bWords)
            bFragments.push_back(roundFragment(
                e,
                loadWords(e, {bAddress,
                              swz ? swz->at(bSecondWordBases[swz->bOffsets[fragment].first],
                                            swz->bOffsets[fragment].second)
                                  : fragmentAt(bStepBase,
                                               bOffset + kSecondWordRows * staging.bPitch)}),
                rounding.b));
          else if (nibbles)
            bFragments.push_back(
                NibbleFragments::loadB(e, bAddress, fragmentAt(bStepBase, bOffset + groupK)));
          else
            bFragments.push_back(loadMatrices(e, bAddress, 2, !bTransposed));
          for (auto [block, bRegs] : llvm::enumerate(bFragments)) {
            int64_t c0 = blockColumns * col + int64_t(block);
            int64_t c1 = c0 + (paired ? 2 : 1);
            for (int64_t pair = 0; pair < rowPairs; ++pair) {
              std::array<int64_t, 4> regs = {
                  regOf(batch, 2 * pair, c0), regOf(batch, 2 * pair, c1),
                  regOf(batch, 2 * pair + 1, c0), regOf(batch, 2 * pair + 1, c1)};
              SmallVector<Value> cRegs;
              for (int64_t reg : regs)
                cRegs.push_back(next[reg]);
              SmallVector<Value> d = issue(e, aFragments[batch * rowPairs + pair], bRegs, cRegs,
                                           MmaFragmentSite{regs, m.add(aStep, k0)});
              for (auto [i, reg] : llvm::enumerate(regs))
                next[reg] = d[i];
            }
          }
        }
      return next;
    }, keepRolled);
  }
  return replaceWithSums(rewriter, op, e, sums, arith, accType, acc.getType());
}

/// Lowers the multiply `op` of `a` and `b` (element type `element`
/// converted to LLVM, `a` typed like `lhsType`) onto `acc` (converted;
/// tensor type `accTensorType`), for which hasMmaSyncStaging holds with
/// `form`, staging them a chunk at a time in the shared scratch and rounding
/// their fragments as `rounding` says.
LogicalResult emitStagedMmaSync(Operation *op, const StagedOperand &a, const StagedOperand &b,
                                Type element, Type lhsType, Value acc, Type accTensorType,
                                const MmaSyncForm &form, const Arithmetic &arith,
                                MmaInstructionFn issue, const TypeConverter &converter,
                                ConversionPatternRewriter &rewriter,
                                FragmentRounding rounding = {}) {
  Location loc = op->getLoc();
  FailureOr<MmaShape> shape = getShape(lhsType, accTensorType);
  if (failed(shape))
    return failure();
  const MmaShape &s = *shape;
  bool bTransposed = stagesBTransposed(form, accTensorType);
  MmaSyncStaging staging = getStaging(s, chooseChunk(s, form, bTransposed), form, bTransposed);
  FailureOr<OperandStaging> staged =
      getOperandStaging(rewriter, loc, op, staging.bytes, staging.bOffset);
  if (failed(staged))
    return failure();
  RegisterEmitter e(rewriter, loc);
  auto prepare = [&](int64_t k0, int64_t len) -> FailureOr<ChunkBases> {
    emitCTABarrier(rewriter, loc); // earlier readers of the scratch are done
    if (failed(stageChunk(e, rewriter, s, staging, a, b, element, bTransposed, staged->aBase,
                          staged->bBase, k0, len, /*needsCheck=*/s.k > staging.chunk,
                          form.nibbles())))
      return failure();
    if (a.global || b.global) {
      // This thread's copies have landed; the barrier then publishes them.
      NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
      NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, 0);
    }
    emitCTABarrier(rewriter, loc); // the chunk is complete
    return ChunkBases{staged->aBase, staged->bBase};
  };
  if (failed(emitMmaSync(op, s, staging, element, acc, accTensorType, form, arith, issue,
                         converter, rewriter, prepare, rounding)))
    return failure();
  emitCTABarrier(rewriter, loc); // later users of the scratch may overwrite it
  return success();
}

struct MmaFGlobalLowering : ConvertOpToLLVMPattern<MmaFGlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaFGlobalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type lhsType = op.getLhs().getType();
    // AsyncCopyMmaOperands fuses the operands of mma.sync mmafs (tf32 ones
    // as f32 rounded after the copy: lhs_tf32/rhs_tf32), of wgmma ones (an
    // f32 pointer operand there is tf32, rounded in shared memory) and of
    // tcgen05 ones (tf32 ones marked as on mma.sync, rounded in shared
    // memory as on wgmma). The multiply's element types are the tile types
    // (a pointer operand's pointee where unmarked).
    Type element = op.getLhsMultipliedType(), rhsElement = op.getRhsMultipliedType();
    auto accType = cast<RankedTensorType>(op.getAcc().getType());
    std::optional<MmaSyncForm> form = getMmaFSyncForm(element, rhsElement, accType.getElementType(),
                                                      getTargetComputeCapability(op));
    bool wgmma = canLowerToWgmma(op), tcgen05 = canLowerToTcgen05(op, element, rhsElement);
    FragmentRounding rounding{op.getLhsTf32(), op.getRhsTf32()};
    if (wgmma && (rounding.a || rounding.b))
      return op.emitOpError("marks an operand for rounding to tf32, which the wgmma path "
                            "does for every f32 pointer operand");
    if (!tcgen05 && hasTmemAccumulator(op))
      return op.emitOpError("keeps its accumulator in tensor memory but does not take the "
                            "tcgen05 path");
    if (!wgmma && !tcgen05 && (!form || !hasMmaSyncStaging(lhsType, accType, *form)))
      return op.emitOpError("has no mma.sync staging (accumulator layout or scratch size)");
    RegisterEmitter e(rewriter, op.getLoc());
    // In a K loop (see makeThreadIdUnhoistable).
    if (tcgen05 && hasTmemAccumulator(op))
      e.makeThreadIdUnhoistable();
    FailureOr<StagedOperand> a =
        getStagedOperand(e, op, op.getLhs(), adaptor.getLhs(), adaptor.getLhsMask());
    FailureOr<StagedOperand> b =
        getStagedOperand(e, op, op.getRhs(), adaptor.getRhs(), adaptor.getRhsMask());
    if (failed(a) || failed(b))
      return failure();
    a->maxRun = op.getLhsRun().value_or(0);
    b->maxRun = op.getRhsRun().value_or(0);
    b->kRuns = op.getRhsKRuns();
    if (b->kRuns && !tcgen05)
      return op.emitOpError("copies B in runs along K, which only the tcgen05 path stages");
    if (wgmma)
      // Views known: TMA loads (TmaToLLVM.cpp).
      return emitWgmma(op, *a, *b, element, lhsType, adaptor.getAcc(), op.getAcc().getType(),
                       *getTypeConverter(), rewriter,
                       getTmaView(adaptor.getLhsBase(), adaptor.getLhsView()),
                       getTmaView(adaptor.getRhsBase(), adaptor.getRhsView(),
                                  op.getRhsViewTransposed()));
    if (op.getRhsViewTransposed())
      return op.emitOpError("has a K-major (transposed view) B, which only the wgmma path reads");
    if (tcgen05)
      // Views known: TMA loads there too.
      return emitTcgen05(op, *a, *b, element, rhsElement, lhsType, adaptor.getAcc(),
                         op.getAcc().getType(), *getTypeConverter(), rewriter,
                         /*roundToTf32=*/rounding.a || rounding.b,
                         getTmaView(adaptor.getLhsBase(), adaptor.getLhsView()),
                         getTmaView(adaptor.getRhsBase(), adaptor.getRhsView()));
    auto issue = [&](RegisterEmitter &e, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                     ArrayRef<Value> cRegs, const MmaFragmentSite &) {
      return emitMmaSyncInstruction(e, element, rhsElement, aRegs, bRegs, cRegs);
    };
    // The staging's element type in LLVM (tf32 is f32 there, fp8 i8).
    Type staged = getTypeConverter()->convertType(element);
    return emitStagedMmaSync(op, *a, *b, staged, lhsType, adaptor.getAcc(), accType, *form,
                             getMmaSyncArithmetic(op), issue, *getTypeConverter(), rewriter,
                             rounding);
  }
};

/// The A and B bases of ring slot `slot` (an i32) of a ring of `stages`
/// slots laid out as `staging`, at the start of the shared scratch.
FailureOr<ChunkBases> getRingSlot(RegisterEmitter &e, Operation *op,
                                  const MmaSyncStaging &staging, int64_t stages, Value slot) {
  FailureOr<Value> ring = getSharedScratch(e.builder, e.loc, op, stages * staging.slotBytes());
  if (failed(ring))
    return failure();
  IndexMath m{e};
  Type i8 = e.builder.getI8Type();
  Value a = LLVM::GEPOp::create(e.builder, e.loc, ring->getType(), i8, *ring,
                                ArrayRef<LLVM::GEPArg>{m.mul(slot, staging.slotBytes())});
  Value b = LLVM::GEPOp::create(e.builder, e.loc, a.getType(), i8, a,
                                ArrayRef<LLVM::GEPArg>{(int32_t)staging.bOffset});
  return ChunkBases{a, b};
}

/// The form of the cp.async ring's multiplies: mmaf_global's f16/bf16 operands.
constexpr MmaSyncForm kRingForm{16, 2};

/// The copies of one chunk into a ring slot, then one commit_group.
struct MmaStageCopyLowering : ConvertOpToLLVMPattern<MmaStageCopyOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaStageCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    FailureOr<StagedOperand> a = getStagedOperand(e, op, op.getLhs(), adaptor.getLhs(),
                                                  adaptor.getLhsMask(), adaptor.getPred());
    FailureOr<StagedOperand> b = getStagedOperand(e, op, op.getRhs(), adaptor.getRhs(),
                                                  adaptor.getRhsMask(), adaptor.getPred());
    if (failed(a) || failed(b))
      return failure();
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    // The accumulator A x B would have: A's shape with B's N.
    SmallVector<int64_t> accShape(lhsType.getShape());
    accShape.back() = cast<RankedTensorType>(op.getRhs().getType()).getShape().back();
    FailureOr<MmaShape> shape = getMmaShape(lhsType.getShape(), accShape);
    if (failed(shape))
      return op.emitOpError("operands are not [M, K] x [K, N] or batched");
    MmaSyncStaging staging = getStaging(*shape, op.getChunk(), kRingForm, /*bTransposed=*/false);
    FailureOr<ChunkBases> slot = getRingSlot(e, op, staging, op.getStages(), adaptor.getSlot());
    if (failed(slot))
      return failure();
    Type element = cast<PtrType>(lhsType.getElementType()).getPointeeType();
    if (failed(stageChunk(e, rewriter, *shape, staging, *a, *b, element, /*bTransposed=*/false, slot->a,
                          slot->b, op.getKOffset(), op.getKLen(), /*needsCheck=*/true)))
      return failure();
    // One group per slot, also where nothing was copied: async_wait counts
    // groups.
    NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitLowering : ConvertOpToLLVMPattern<AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getPending());
    emitCTABarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// ldmatrix + mma.sync over one chunk already in a ring slot.
struct MmaFStageLowering : ConvertOpToLLVMPattern<MmaFStageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaFStageOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto accType = cast<RankedTensorType>(op.getAcc().getType());
    SmallVector<int64_t> lhs(accType.getShape());
    lhs.back() = op.getKLen();
    FailureOr<MmaShape> shape = getMmaShape(lhs, accType.getShape());
    if (failed(shape))
      return op.emitOpError("accumulator is not [M, N] or [batch, M, N]");
    MmaSyncStaging staging = getStaging(*shape, op.getChunk(), kRingForm, /*bTransposed=*/false);
    RegisterEmitter e(rewriter, op.getLoc());
    FailureOr<ChunkBases> slot = getRingSlot(e, op, staging, op.getStages(), adaptor.getSlot());
    if (failed(slot))
      return failure();
    Type element = op.getOperandType();
    auto issue = [&](RegisterEmitter &e, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                     ArrayRef<Value> cRegs, const MmaFragmentSite &) {
      return emitMmaSyncInstruction(e, element, element, aRegs, bRegs, cRegs);
    };
    return emitMmaSync(op, *shape, staging, element, adaptor.getAcc(), accType, kRingForm,
                       getMmaSyncArithmetic(op), issue, *getTypeConverter(), rewriter,
                       [&](int64_t, int64_t) -> FailureOr<ChunkBases> { return *slot; });
  }
};

/// ldmatrix + mma.sync over one chunk in a TMA ring slot (sm_120a/121a):
/// wait until it has landed, multiply, release the slot (lane 0 of each
/// warp, once the warp's mma.syncs have consumed their fragments). f16/bf16,
/// tf32 (f32 as TMA moved it, each fragment register rounded as the
/// cp.async path rounds lhs_tf32/rhs_tf32 operands) and fp8 (B N-major:
/// the paired-column accumulator) read the slots as emitMmaSync reads them.
struct MmaFTmaStageLowering : ConvertOpToLLVMPattern<MmaFTmaStageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(MmaFTmaStageOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto accType = cast<RankedTensorType>(op.getAcc().getType());
    auto layout = dyn_cast_or_null<BlockedAttr>(accType.getEncoding());
    if (accType.getRank() != 2 || !layout || !isMmaAccumulatorLayout(layout, accType.getShape()))
      return op.emitOpError("accumulator is not an [M, N] tile in the mma.sync layout");
    Type element = op.getOperandType();
    std::optional<MmaSyncForm> form = getMmaFSyncForm(element, element, accType.getElementType(),
                                                      getTargetComputeCapability(op));
    if (!form || stagesMmaSyncBTransposed(*form, layout) ||
        (hasPairedMmaColumns(layout) && form->elementBytes != 1))
      return op.emitOpError("has no mma.sync form reading ")
             << element << " from a TMA ring slot (B N-major) into " << accType;
    FailureOr<TmaRing> ring = TmaRing::locate(rewriter, op, accType);
    RegisterEmitter e(rewriter, loc);
    if (failed(ring))
      return failure();
    Value slot = adaptor.getSlot();
    if (failed(emitParityWait(rewriter, e, ring->barrier(e, slot, false), adaptor.getPhase())))
      return failure();
    MmaSyncStaging staging = getStaging(ring->s, op.getChunk(), *form, /*bTransposed=*/false);
    auto issue = [&](RegisterEmitter &e, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                     ArrayRef<Value> cRegs, const MmaFragmentSite &) {
      return emitMmaSyncInstruction(e, element, element, aRegs, bRegs, cRegs);
    };
    bool tf32 = isa<FloatTF32Type>(element);
    ChunkBases bases{ring->slotA(e, slot), ring->slotB(e, slot)};
    if (failed(emitMmaSync(op, ring->s, staging, getTypeConverter()->convertType(element),
                           adaptor.getAcc(), accType, *form, getMmaSyncArithmetic(op), issue,
                           *getTypeConverter(), rewriter,
                           [&](int64_t, int64_t) -> FailureOr<ChunkBases> { return bases; },
                           FragmentRounding{tf32, tf32}, &ring->staging)))
      return failure();
    IndexMath m{e};
    Value lane = m.bits(NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type()), 0, 31);
    Value laneZero = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, lane, e.i32(0));
    emitIf(rewriter, loc, laneZero, [&] {
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), ring->barrier(e, slot, true),
                                     Value());
    });
    return success();
  }
};

} // namespace

Value packNibbles(RegisterEmitter &e, Value low, Value high) {
  // Or-ing each word with itself shifted by a nibble puts two elements in
  // its bytes 0 and 2, which one prmt gathers.
  auto fold = [&](Value word) {
    Value shifted = LLVM::LShrOp::create(e.builder, e.loc, word, e.i32(4));
    return LLVM::OrOp::create(e.builder, e.loc, word, shifted).getResult();
  };
  return permuteBytes(e, fold(low), fold(high), 0x6420);
}

/// mmaf_global's `view` (base and its sizes, strides, starts), converted;
/// nullopt without one.
std::optional<TmaView> getTmaView(Value base, ValueRange view, bool transposed) {
  if (!base)
    return std::nullopt;
  size_t rank = (view.size() + 1) / 3;
  TmaView result;
  result.base = base;
  result.transposed = transposed;
  llvm::append_range(result.sizes, view.take_front(rank));
  llvm::append_range(result.strides, view.slice(rank, rank - 1));
  llvm::append_range(result.starts, view.drop_front(2 * rank - 1));
  return result;
}

bool canLowerToMmaSync(Operation *op) {
  std::optional<MmaSyncForm> form = getMmaSyncForm(op);
  return form && hasMmaSyncStaging(op->getOperand(0).getType(), op->getOperand(2).getType(),
                                   *form);
}

LogicalResult lowerMmaSyncWith(Operation *op, Value lhs, Value rhs, Value acc,
                               const MmaSyncForm &form, const Arithmetic &arith,
                               MmaInstructionFn issue, const TypeConverter &converter,
                               ConversionPatternRewriter &rewriter) {
  Type lhsType = op->getOperand(0).getType(), accType = op->getOperand(2).getType();
  if (!hasMmaSyncStaging(lhsType, accType, form))
    return op->emitOpError("has no mma.sync staging (accumulator layout or scratch size)");
  FailureOr<Laid> lhsLaid = Laid::of(op, lhsType);
  FailureOr<Laid> rhsLaid = Laid::of(op, op->getOperand(1).getType());
  // Packed 4-bit elements are staged a byte each (NibbleFragments).
  Type element = form.nibbles() ? Type(rewriter.getI8Type())
                                : converter.convertType(getElementTypeOrSelf(lhsType));
  if (failed(lhsLaid) || failed(rhsLaid) || !element)
    return failure();
  RegisterEmitter e(rewriter, op->getLoc());
  if (form.nibbles()) {
    // The 4-bit registers widened as whole vectors: NVPTX legalizes an
    // element of a vector of i4 through a stack slot.
    auto widen = [&](Value vector) -> Value {
      auto type = cast<VectorType>(vector.getType());
      return LLVM::ZExtOp::create(rewriter, op->getLoc(), type.clone(element), vector);
    };
    lhs = widen(lhs);
    rhs = widen(rhs);
  }
  StagedOperand a{*lhsLaid, unpackOperand(e, lhs, *lhsLaid)};
  StagedOperand b{*rhsLaid, unpackOperand(e, rhs, *rhsLaid)};
  // Runs of at most the four k that getNibbleStagingK keeps together.
  if (form.nibbles())
    a.maxRun = b.maxRun = 4;
  return emitStagedMmaSync(op, a, b, element, lhsType, acc, accType, form, arith, issue,
                           converter, rewriter);
}

LogicalResult lowerMmaSync(Operation *op, Value lhs, Value rhs, Value acc,
                           const TypeConverter &converter,
                           ConversionPatternRewriter &rewriter) {
  std::optional<MmaSyncForm> form = getMmaSyncForm(op);
  if (!form)
    return op->emitOpError("has no mma.sync form");
  Type a = getElementTypeOrSelf(op->getOperand(0).getType());
  Type b = getElementTypeOrSelf(op->getOperand(1).getType());
  Arithmetic arith = getMmaSyncArithmetic(op);
  auto issue = [&](RegisterEmitter &e, ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                   ArrayRef<Value> cRegs, const MmaFragmentSite &) {
    return emitMmaSyncInstruction(e, a, b, aRegs, bRegs, cRegs, arith.lhsSigned,
                                  arith.rhsSigned);
  };
  return lowerMmaSyncWith(op, lhs, rhs, acc, *form, arith, issue, converter, rewriter);
}

void populateMmaFGlobalToLLVMPatterns(TileLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns) {
  patterns.add<MmaFGlobalLowering, MmaStageCopyLowering, AsyncWaitLowering, MmaFStageLowering,
               MmaFTmaStageLowering>(converter);
}

} // namespace tilepipe::tile_as
