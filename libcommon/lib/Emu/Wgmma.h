//===- Wgmma.h - wgmma.mma_async, the sm_90a warpgroup matrix multiply -----===//
//
// A warpgroup (4 warps, 128 threads) computes D (64 x N) = A (64 x K) *
// B (K x N) + D. A comes from registers or, like B, from shared memory
// described by a 64-bit matrix descriptor (PTX ISA "Matrix Descriptor
// Format"): start address, leading and stride dimension byte offsets and a
// swizzle mode. The emulator computes at issue, which is a legal order: the
// accumulators may only be read after wgmma.wait_group anyway.
//
// MLIR lowers nvvm.wgmma.mma_async to inline PTX, so that is the form parsed
// here (WgmmaAsm.cpp); the arithmetic is in WgmmaOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_WGMMA_H
#define TILEPIPE_LIB_EMU_WGMMA_H

#include "Intrinsics.h"
#include "MatrixFragments.h"
#include "Swizzle.h"

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class FunctionType;
}

namespace tilepipe::emu {

/// .m64nNkK with its element types (PTX ISA "Matrix Shape", "Data types").
struct WgmmaShape {
  unsigned n = 8, k = 16;
  ElemType a = ElemType::F16, b = ElemType::F16, d = ElemType::F32;
  bool satfinite = false;

  /// Registers per thread of the accumulator and of A (when in registers).
  unsigned dRegs() const { return d == ElemType::F16 ? n / 4 : n / 2; }
  unsigned aRegs() const { return 4; }
  /// "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16" and so on; the
  /// validity check of the combination (an error message, or empty).
  std::string name() const;
  std::string validate() const;
};

/// A decoded matrix descriptor; addresses and offsets in bytes.
struct MatrixDescriptor {
  uint32_t start = 0, leadingOffset = 0, strideOffset = 0, baseOffset = 0;
  SwizzleMode swizzle = SwizzleMode::None;

  static MatrixDescriptor decode(uint64_t bits);
  /// The shared address of element (mn, k) of an operand whose rows of the
  /// M (or N) dimension are contiguous when `mnMajor`, else those of K (the
  /// canonical layouts of "Shared Memory Matrix Layout").
  uint32_t elementAddress(bool mnMajor, unsigned elemBytes, unsigned mn, unsigned k) const;
};

/// The CTA's shared memory as the descriptors address it.
struct SharedWindow {
  const uint8_t *base = nullptr;
  uint64_t bytes = 0;
};

/// Reads a shared-memory operand of `rows` (its M or N extent) x `k`
/// elements placed as `desc` describes into `out[row * k + kk]`; `what`
/// names the operand in the message of an access outside `shared`.
llvm::Error loadSharedOperand(const MatrixDescriptor &desc, bool mnMajor, ElemType type,
                              unsigned rows, unsigned k, SharedWindow shared,
                              std::vector<double> &out, const llvm::Twine &what);

/// The per-instruction (warpgroup-uniform) operands.
struct WgmmaOperands {
  uint64_t descA = 0, descB = 0;
  bool aInRegisters = false;
  bool scaleD = true;        // false: D = A * B
  int scaleA = 1, scaleB = 1; // -1 negates the operand
  bool transA = false, transB = false;
};

/// One wgmma.mma_async: `d[thread]` holds the accumulator registers of
/// warpgroup thread 0..127 (read as C unless !scaleD, overwritten with D),
/// `a[thread]` its A registers when ops.aInRegisters. Fails (with a message)
/// on descriptors that reach outside `shared`.
llvm::Error computeWgmma(const WgmmaShape &shape, const WgmmaOperands &ops,
                         const std::array<uint32_t *, 128> &d,
                         const std::array<const uint32_t *, 128> &a, SharedWindow shared);

/// The handler of an inline asm call that is a wgmma.mma_async (MLIR's
/// "{ .reg .pred p; setp.ne.b32 p, $N, 0; wgmma... }" block or a bare
/// instruction); std::nullopt when the asm is no wgmma, an error when it is
/// one the emulator does not support.
llvm::Expected<std::optional<IntrinsicHandler>>
lookupWgmmaAsm(llvm::StringRef asmText, llvm::StringRef constraints, llvm::FunctionType *type);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_WGMMA_H
