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

/// Element i of the A fragment (16 x K) of lane (g, t).
inline RowCol aFragmentPosition(ElemType type, unsigned g, unsigned t, unsigned i) {
  if (type == ElemType::TF32) // m16n8k8: a0..a3
    return {g + 8 * (i % 2), t + 4 * (i / 2)};
  if (isByteType(type)) // k16: a0..a7, k32: a0..a15
    return {g + 8 * ((i / 4) % 2), 4 * t + i % 4 + 16 * (i / 8)};
  // f16 / bf16, k8: a0..a3, k16: a0..a7
  return {g + 8 * ((i / 2) % 2), 2 * t + i % 2 + 8 * (i / 4)};
}

/// Element i of the B fragment (K x 8) of lane (g, t).
inline RowCol bFragmentPosition(ElemType type, unsigned g, unsigned t, unsigned i) {
  if (type == ElemType::TF32)
    return {t + 4 * i, g};
  if (isByteType(type))
    return {4 * t + i % 4 + 16 * (i / 4), g};
  return {2 * t + i % 2 + 8 * (i / 2), g};
}

/// Element i of the C/D fragment (16 x 8, or 16 x N for wgmma where every
/// further four elements are the next 8 columns) of lane (g, t).
inline RowCol accumulatorPosition(unsigned g, unsigned t, unsigned i) {
  return {g + 8 * ((i / 2) % 2), 2 * t + i % 2 + 8 * (i / 4)};
}

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_MATRIXFRAGMENTS_H
