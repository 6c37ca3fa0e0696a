//===- Intrinsics.h - Host implementations of NVVM intrinsics -------------===//
//
// Every NVVM intrinsic the rewrite does not turn into plain IR becomes a call
// to tp_emu_intrinsic(handler, args, ret): the arguments are spilled into a
// byte buffer at the offsets the handler records, so one C++ signature
// serves every intrinsic type (vectors of half, {i32, i1} pairs, ...).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_INTRINSICS_H
#define TILEPIPE_LIB_EMU_INTRINSICS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

namespace tilepipe::emu {

struct IntrinsicHandler;
class WarpMatrixOp;
class WarpgroupOp;
using IntrinsicFn = void (*)(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret);

struct IntrinsicHandler {
  IntrinsicFn fn = nullptr;
  std::string name;
  /// Byte offset of every argument in the argument buffer.
  llvm::SmallVector<uint32_t, 4> argOffsets;
  /// Byte offset and size of the result (of every struct element).
  llvm::SmallVector<uint32_t, 2> retOffsets;
  llvm::SmallVector<uint32_t, 2> retSizes;
  /// Family-specific parameters decoded from the name.
  uint32_t op = 0;
  uint32_t aux = 0;
  uint8_t rounding = 0; // tilepipe::emu::Rounding
  bool ftz = false;
  /// mma.sync / ldmatrix: the fragment layout and arithmetic.
  std::shared_ptr<const WarpMatrixOp> matrixOp;
  /// wgmma.mma_async: the warpgroup collective.
  std::shared_ptr<const WarpgroupOp> warpgroupOp;
  /// Inline PTX: where its operands are (the family's own type, e.g.
  /// Tcgen05Asm.cpp's).
  std::shared_ptr<const void> asmOperands;

  template <class T> T arg(const uint8_t *args, unsigned i) const {
    T value;
    std::memcpy(&value, args + argOffsets[i], sizeof(T));
    return value;
  }
  /// Stores `value` as result element `i`, truncated to its IR size.
  template <class T> void result(uint8_t *ret, T value, unsigned i = 0) const {
    uint8_t bytes[sizeof(T) < 8 ? 8 : sizeof(T)] = {};
    std::memcpy(bytes, &value, sizeof(T));
    std::memcpy(ret + retOffsets[i], bytes, std::min<uint32_t>(retSizes[i], sizeof(bytes)));
  }
};

/// Decodes an intrinsic name ("llvm.nvvm.shfl.sync.down.f32", ...) into a
/// handler without offsets, or std::nullopt when the emulator lacks it.
std::optional<IntrinsicHandler> lookupIntrinsic(llvm::StringRef name);

/// mma.sync and ldmatrix ("mma.m16n8k16.row.col.f32.f32", without the
/// "llvm.nvvm." prefix); defined in MatrixOps.cpp.
std::optional<IntrinsicHandler> lookupMatrixIntrinsic(llvm::StringRef name);

/// Block-scaled mma.sync ("mma.block.scale.m16n8k32.row.col.mxf8f6f4...");
/// defined in BlockScaledMma.cpp.
std::optional<IntrinsicHandler> lookupBlockScaledMma(llvm::StringRef name);
/// The intrinsic name (without "llvm.nvvm.") of a block-scaled mma.sync PTX
/// opcode ("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale
/// .scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0"); std::nullopt for other opcodes.
std::optional<std::string> blockScaledMmaIntrinsicName(llvm::StringRef opcode);

/// cp.async.{ca,cg}.shared.global.*, commit_group, wait_group, wait_all;
/// defined in AsyncCopy.cpp.
std::optional<IntrinsicHandler> lookupAsyncCopyIntrinsic(llvm::StringRef name);

/// The e4m3x2/e5m2x2 conversions ("ff.to.e4m3x2.rn", ...); defined in
/// Fp8Conversions.cpp.
std::optional<IntrinsicHandler> lookupFp8Conversion(llvm::StringRef name);

/// The fp4/fp6/ue8m0 pair conversions ("ff.to.e2m1x2.rn.satfinite", ...);
/// defined in NarrowConversions.cpp.
std::optional<IntrinsicHandler> lookupNarrowConversion(llvm::StringRef name);

/// Maps "llvm.nvvm.read.ptx.sreg.tid.x" and friends to a SpecialReg value.
std::optional<uint32_t> lookupSpecialRegister(llvm::StringRef name);

/// The intrinsic equivalent to a single-instruction inline PTX asm string
/// ("rcp.approx.ftz.f32 $0,$1;" -> "llvm.nvvm.rcp.approx.ftz.f32"), as
/// libdevice and the CUDA headers use them; std::nullopt otherwise.
std::optional<std::string> inlineAsmAsIntrinsic(llvm::StringRef text);

/// NVVM intrinsics that need no run-time work on a sequential host (fences,
/// prefetches).
bool isNoOpIntrinsic(llvm::StringRef name);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_INTRINSICS_H
