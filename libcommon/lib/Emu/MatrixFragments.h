//===- MatrixFragments.h - Element types and fragment layouts of mma -------===//
//
// What mma.sync and wgmma.mma_async share: the operand element types, how
// elements are packed into 32-bit registers, and the per-warp fragment
// layouts of the PTX ISA ("Matrix Fragments for mma.m16n8k*"). With
// groupID = lane / 4 and tig = lane % 4, element i of a lane's A, B and
// C/D fragments sits at the (row, column) computed below; wgmma's register
// fragments are the same per warp, warp w of the warpgroup holding rows
// 16w..16w+15 ("Register Fragments" of wgmma).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_MATRIXFRAGMENTS_H
#define TILEPIPE_LIB_EMU_MATRIXFRAGMENTS_H

#include <cstdint>
#include <utility>

namespace tilepipe::emu {

enum class ElemType : uint8_t { F16, BF16, TF32, F32, S8, U8, S32, E4M3, E5M2 };

unsigned elemBits(ElemType type);
/// The exact value of an element's bits.
double decodeElement(ElemType type, uint32_t bits);
inline bool isByteType(ElemType type) {
  return type == ElemType::S8 || type == ElemType::U8 || type == ElemType::E4M3 ||
         type == ElemType::E5M2;
}

/// Reads element `i` (of `bits` bits) from a lane's packed registers.
inline uint32_t extractElement(const uint32_t *regs, unsigned i, unsigned bits) {
  unsigned perReg = 32 / bits;
  uint32_t reg = regs[i / perReg];
  if (bits == 32)
    return reg;
  return (reg >> ((i % perReg) * bits)) & ((1u << bits) - 1);
}

inline void insertElement(uint32_t *regs, unsigned i, unsigned bits, uint32_t value) {
  unsigned perReg = 32 / bits;
  if (bits == 32) {
    regs[i] = value;
    return;
  }
  unsigned shift = (i % perReg) * bits;
  uint32_t mask = ((1u << bits) - 1) << shift;
  regs[i / perReg] = (regs[i / perReg] & ~mask) | ((value << shift) & mask);
}

using RowCol = std::pair<unsigned, unsigned>;

/// Element i of the A fragment (16 x K) of lane (g, t) for elements of
/// 16, 8 or 4 bits, `perReg` = 32 / bits to a register. Each register holds
/// consecutive K of one row; registers alternate rows g and g + 8, then step
/// K by 4 * perReg (f16 k16: a0..a7, 8-bit k32: a0..a15, 4-bit k64: a0..a31).
inline RowCol aPackedFragmentPosition(unsigned perReg, unsigned g, unsigned t, unsigned i) {
  return {g + 8 * ((i / perReg) % 2), perReg * t + i % perReg + 4 * perReg * (i / (2 * perReg))};
}

/// Element i of the B fragment (K x 8) of lane (g, t), as above: register j
/// holds perReg consecutive K of column g, K stepping by 4 * perReg.
inline RowCol bPackedFragmentPosition(unsigned perReg, unsigned g, unsigned t, unsigned i) {
  return {perReg * t + i % perReg + 4 * perReg * (i / perReg), g};
}

/// Element i of the A fragment (16 x K) of lane (g, t).
inline RowCol aFragmentPosition(ElemType type, unsigned g, unsigned t, unsigned i) {
  if (type == ElemType::TF32) // m16n8k8: a0..a3
    return {g + 8 * (i % 2), t + 4 * (i / 2)};
  return aPackedFragmentPosition(isByteType(type) ? 4 : 2, g, t, i);
}

/// Element i of the B fragment (K x 8) of lane (g, t).
inline RowCol bFragmentPosition(ElemType type, unsigned g, unsigned t, unsigned i) {
  if (type == ElemType::TF32)
    return {t + 4 * i, g};
  return bPackedFragmentPosition(isByteType(type) ? 4 : 2, g, t, i);
}

/// Element i of the C/D fragment (16 x 8, or 16 x N for wgmma where every
/// further four elements are the next 8 columns) of lane (g, t).
inline RowCol accumulatorPosition(unsigned g, unsigned t, unsigned i) {
  return {g + 8 * ((i / 2) % 2), 2 * t + i % 2 + 8 * (i / 4)};
}

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_MATRIXFRAGMENTS_H
