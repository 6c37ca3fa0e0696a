//===- Tcgen05.h - Blackwell tensor memory and tcgen05 instructions --------===//
//
// PTX ISA 9.7.16 "TensorCore 5th Generation Family Instructions": each CTA
// owns a Tensor Memory of 128 lanes x 512 columns of 32-bit cells, addressed
// by a 32-bit value with the lane in bits 31..16 and the column in 15..0.
// Warps allocate columns (tcgen05.alloc), move data between registers and
// tensor memory (tcgen05.ld / tcgen05.st) and issue matrix multiplies whose
// accumulator lives there (tcgen05.mma), whose completion tcgen05.commit
// signals on an mbarrier.
//
// The emulator computes the asynchronous operations (mma, cp) at issue, which
// is a legal order: their results may only be observed after a commit's
// mbarrier phase completed, and the commit arrives at once. The allocator and
// the fragment layouts are in Tcgen05Memory.cpp, the multiply in
// Tcgen05Mma.cpp, the NVVM intrinsics in Tcgen05Ops.cpp and the inline PTX
// forms in Tcgen05Asm.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_TCGEN05_H
#define TILEPIPE_LIB_EMU_TCGEN05_H

#include "FloatBits.h"
#include "Intrinsics.h"
#include "TensorMemory.h"
#include "Wgmma.h"

#include "llvm/Support/Error.h"

#include <array>

#include <cstdint>

namespace llvm {
class FunctionType;
}

namespace tilepipe::emu {

/// The data movement shapes of tcgen05.ld / tcgen05.st.
enum class TmemShape : uint8_t { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };

/// Registers per thread of `shape` repeated `num` times (.x1 ... .x128).
unsigned tmemRegisters(TmemShape shape, unsigned num);
/// Lanes a warp's access covers (32 or 16).
inline unsigned tmemShapeLanes(TmemShape shape) { return shape == TmemShape::S32x32b ? 32 : 16; }

/// The cell (lane offset from the base lane, column offset from the base
/// column) register `reg` of warp thread `thread` moves ("Matrix fragments
/// for tcgen05.ld/st"). For 16x32bx2 the column is within its half: threads
/// 16..31 add the instruction's immHalfSplitoff.
struct TmemCellOffset {
  unsigned lane, column;
};
TmemCellOffset tmemFragmentCell(TmemShape shape, unsigned thread, unsigned reg);

/// Columns covered from the base column by one warp's access (.pack::16b
/// and .unpack::16b double it: a register holds two 16-bit cells).
unsigned tmemShapeColumns(TmemShape shape, unsigned num, unsigned halfSplit, bool packed);

/// tcgen05.ld (load) or tcgen05.st of one thread: `regs` has
/// tmemRegisters(shape, num) registers. `warp` is the CTA warp index, whose
/// warp id % 4 selects the 32 lanes it may access. Fails with a message.
llvm::Error tmemLoadStore(TensorMemory &tmem, bool load, TmemShape shape, unsigned num,
                          bool packed, uint32_t address, unsigned halfSplit, unsigned warp,
                          unsigned laneInWarp, uint32_t *regs);

/// The shapes of tcgen05.cp (shared memory -> tensor memory).
enum class TmemCopyShape : uint8_t {
  S128x256b, S4x256b, S128x128b, S64x128bWarpx2_02_13, S64x128bWarpx2_01_23, S32x128bWarpx4
};

/// "128x256b", "64x128b.warpx2::02_13" (PTX) or "64x128b_warpx2_02_13"
/// (intrinsic names) and the like.
std::optional<TmemCopyShape> parseTmemCopyShape(llvm::StringRef name);

/// tcgen05.cp of the rows x 128/256-bit matrix that the shared memory
/// descriptor `sdesc` describes (K-major, bytes as its elements) to tensor
/// memory at `address`: row r to lane r with its 32-bit words in
/// consecutive columns; the .warpx2 and .warpx4 forms copy each 32 rows to
/// two or four of the 32-lane sub-partitions. Fails with a message.
llvm::Error tmemCopyFromShared(TensorMemory &tmem, TmemCopyShape shape, uint32_t address,
                               uint64_t sdesc, SharedWindow shared);

/// tcgen05.shift.down: the 32-byte elements (8 columns from the address's
/// column) of the 32 lanes from the address's lane (a multiple of 32) move
/// down one lane, all but the last; the first lane keeps its contents.
llvm::Error tmemShiftDown(TensorMemory &tmem, uint32_t address);

//===----------------------------------------------------------------------===//
// tcgen05.mma
//===----------------------------------------------------------------------===//

/// .kind of tcgen05.mma (F16 ... I8 are the values of LLVM's Tcgen05MMAKind
/// immediate; the block-scaled kinds are named by their intrinsics instead).
enum class Tcgen05Kind : uint8_t { F16 = 0, TF32 = 1, F8F6F4 = 2, I8 = 3, MXF8F6F4 = 4 };

/// The instruction descriptor of the kinds f16, tf32, f8f6f4 and i8
/// ("Instruction descriptor", Table "Instruction descriptor format") and
/// of the block-scaled kind::mxf8f6f4 (Table "Instruction descriptor format
/// for .kind::mxf8f6f4": the same types, negations, transposes and N, the
/// scale factor ids in bits 4-5 (B) and 29-30 (A), the ue8m0 scale type in
/// bit 23 and M >> 7 in bits 27-28; D is always f32).
struct Tcgen05InstrDesc {
  unsigned m = 128, n = 8;
  ElemType a = ElemType::F16, b = ElemType::F16, d = ElemType::F32;
  bool negateA = false, negateB = false;
  bool transposeA = false, transposeB = false; // MN-major operands
  bool saturate = false;
  /// kind::f8f6f4 with e2m3, e3m2 or e2m1 (`a` / `b` is then E4M3 for the
  /// sizes): 16 elements packed at the start of each 16-byte chunk of shared
  /// memory, the rest padding (the ISA's padded fp6/fp4 formats).
  std::optional<NarrowFloat> narrowA, narrowB;
  /// Block-scaled kinds: the byte of each scale factor tensor-memory word
  /// (SFA_ID / SFB_ID) that holds this instruction's scales.
  bool blockScaled = false;
  unsigned scaleIdA = 0, scaleIdB = 0;

  /// Decodes and validates `bits` for `kind` (cta_group::1, dense).
  static llvm::Expected<Tcgen05InstrDesc> decode(uint32_t bits, Tcgen05Kind kind);
  /// K of one instruction: 32 bytes of the input type.
  unsigned k() const { return 256 / elemBits(a); }
};

/// Decodes a tcgen05 shared memory descriptor ("Shared Memory Descriptor":
/// start, LBO and SBO as in wgmma, the fixed version 0b001 in bits 46..48,
/// base offset in 49..51, the swizzle mode in 61..63).
llvm::Expected<MatrixDescriptor> decodeTcgen05SmemDescriptor(uint64_t bits);

/// One tcgen05.mma.cta_group::1 as issued.
struct Tcgen05MmaOp {
  Tcgen05Kind kind = Tcgen05Kind::F16;
  uint32_t d = 0;     // tensor memory address of D
  uint32_t aTmem = 0; // A in tensor memory (when aInTmem)
  uint64_t aDesc = 0, bDesc = 0;
  bool aInTmem = false;
  uint32_t idesc = 0;
  bool enableInputD = true;
  unsigned scaleInputD = 0; // .scale_d: D = A*B + D * 2^-scaleInputD
  /// disable-output-lane: bit l (of word l / 32) keeps D's lane l as it is.
  std::array<uint32_t, 4> disabledLanes = {};
  /// Block-scaled kinds: the tensor memory addresses of scale_A and scale_B.
  uint32_t scaleA = 0, scaleB = 0;
};

/// Runs `op` on `tmem` with shared operands from `shared` (B from `bShared`
/// when given: a CTA pair's B half in the peer CTA); fails with a message on
/// bad descriptors or unallocated tensor memory.
llvm::Error computeTcgen05Mma(const Tcgen05MmaOp &op, TensorMemory &tmem, SharedWindow shared,
                              std::optional<SharedWindow> bShared = std::nullopt);

/// The e8m0 scale factor of row `row` of A (or column `row` of B) of a
/// block-scaled tcgen05.mma with scale_vec::1X ("Block Scaling", "Layout of
/// the Scale Factor A/B Matrix for scale_vec::1X"): byte `scaleId` of the
/// word in lane row % 32, column row / 32 from `address`, which the ISA
/// requires in all four 32-lane partitions; a copy that differs fails.
llvm::Expected<uint8_t> tcgen05ScaleFactor(TensorMemory &tmem, uint32_t address,
                                           unsigned row, unsigned scaleId);

/// The lane of D row `row` for an M of `m` (cta_group::1, "Data path layout
/// organization": M = 128 uses lane i for row i, M = 64 lanes 0..15 of each
/// 32-lane sub-partition).
unsigned tcgen05DataPathLane(unsigned m, unsigned row);

/// The tcgen05 instructions as the calling emulated thread executes them on
/// the active Runtime's CTA (Tcgen05Ops.cpp), whichever form (intrinsic or
/// inline PTX) named them. Errors end the launch.
namespace tcgen05 {
/// Warp-collective: the warp's lowest lane allocates, waiting while too few
/// columns are free, and writes the address to `dst` (a shared::cta
/// pointer when `sharedPointer`, else generic).
void alloc(uintptr_t dst, uint32_t columns, bool sharedPointer);
void dealloc(uint32_t address, uint32_t columns);
void relinquishAllocPermit();
/// Once the warp has arrived, moves this lane's `regs`.
void loadStore(bool load, TmemShape shape, unsigned num, bool packed, uint32_t address,
               unsigned halfSplit, uint32_t *regs);
void mma(const Tcgen05MmaOp &op);
void copy(TmemCopyShape shape, uint32_t address, uint64_t sdesc);
void shiftDown(uint32_t address);
/// .mbarrier::arrive::one on the mbarrier at the host address `mbarrier`;
/// `ctaMask` is .multicast::cluster's mask of the CTAs to signal, each at
/// the mbarrier's offset in its shared memory.
void commit(uintptr_t mbarrier, std::optional<uint16_t> ctaMask = std::nullopt);
/// The cluster rank of the calling CTA's peer for .cta_group::2 (rank ^ 1);
/// fails naming `what` when the cluster has no such CTA (Tcgen05Pair.cpp).
uint32_t peerRank(const char *what);
/// tcgen05.mma.cta_group::2, issued by one thread of the pair
/// (Tcgen05Pair.cpp).
void pairMma(const Tcgen05MmaOp &op);
} // namespace tcgen05

/// tcgen05.* intrinsics ("tcgen05.ld.32x32b.x4", without "llvm.nvvm.").
std::optional<IntrinsicHandler> lookupTcgen05Intrinsic(llvm::StringRef name);

/// The handler of inline PTX that is one tcgen05 instruction (std::nullopt
/// when it is none, an error when it is one the emulator lacks).
llvm::Expected<std::optional<IntrinsicHandler>>
lookupTcgen05Asm(llvm::StringRef asmText, llvm::StringRef constraints, llvm::FunctionType *type);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_TCGEN05_H
