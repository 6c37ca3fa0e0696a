//===- TensorMap.h - The emulator's encoding of the 128-byte CUtensorMap ---===//
//
// On hardware the tensor map (PTX ISA "Tensor Map"; CUDA's CUtensorMap) is an
// opaque, 64-byte aligned 128-byte object whose layout NVIDIA does not
// publish. The emulator defines its own layout, below, and produces it in
// exactly one way: the device-side tensormap.replace instruction
// (TensorMap.cpp), which is how tilepipe's Hopper lowering builds maps from
// the pointers, shapes and strides cuTile's launcher passes.
//
// Byte offsets (little endian):
//     0  u64     global_address
//     8  u64[4]  global_stride[0..3]: bytes between consecutive indices of
//                dimension 1..4 (dimension 0 is packed: the element size)
//    40  u32[5]  global_dim[0..4]: elements per dimension
//    60  u16[5]  box_dim[0..4]: elements per dimension of the box
//    70  u8[5]   element_stride[0..4]: traversal strides (0 reads as 1)
//    75  u8      rank - 1 (the value tensormap.replace.rank writes)
//    76  u8      elemtype           (the new_val encodings of the PTX ISA
//    77  u8      interleave_layout   table "Tensormap new_val validity":
//    78  u8      swizzle_mode        0 = u8 / none / none / 16B / zero fill,
//    79  u8      swizzle_atomicity   ...)
//    80  u8      fill_mode
//    81  -       reserved, zero
//   120  u64     kTensorMapMagic, stamped by every tensormap.replace
//
// What is and is not verified:
//  * In the emulator, a map built by tensormap.replace from a zeroed 128-byte
//    buffer is valid: every field a map needs is one tensormap.replace
//    writes, zero is the encoding of the defaults (rank 1, u8, no
//    interleave, no swizzle, 16-byte atomicity, zero fill, element strides
//    1), and the first replace stamps the magic. A buffer no tensormap.replace
//    has touched (e.g. a host cuTensorMapEncodeTiled map, whose layout the
//    emulator cannot read) is refused with an error when a copy uses it.
//  * On hardware, tensormap.replace only modifies fields of an existing
//    map: the CUDA Programming Guide builds device-side maps from a
//    template made by cuTensorMapEncodeTiled. That a zeroed buffer does as a
//    template is not documented by NVIDIA; it worked on an H100 for the
//    cases below, which is evidence, not a guarantee: the Hopper lowering
//    should start from a valid template where it can.
//  * Seen on an H100 (driver 580; tests/emu/kernels/tma.ll and tma-nvvm.mlir
//    built by llc for sm_90a and run with tests/gpu/launch-cubin.py, 2-D f32
//    maps, the checks of tests/emu/tma.bats): maps built by tensormap.replace
//    from zeroed global buffers worked, as did maps built from a
//    cuTensorMapEncodeTiled template, with the same results as the emulator
//    for ragged out-of-bounds boxes (zero and NaN fill, clipped stores), the
//    32/64/128-byte swizzles and a traversal stride along dimension 1. A box whose
//    dimension-0 coordinate is not at a 16-byte multiple raised an
//    illegal-instruction error, and a traversal stride along dimension 0
//    wrote unstrided rows while completing the strided byte count: the
//    emulator refuses both. What NVIDIA documents for device-side creation
//    is still the template path.
//  * The field values and their validity rules (16-byte multiple strides,
//    box_dim <= 256, element strides 1-8, the swizzle span limit, the
//    alignment of addresses) follow the PTX ISA and cuTensorMapEncodeTiled's
//    documented requirements and are checked when a copy uses the map.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_TENSORMAP_H
#define TILEPIPE_LIB_EMU_TENSORMAP_H

#include "Intrinsics.h"
#include "Swizzle.h"

#include <cstdint>
#include <string>

namespace tilepipe::emu {

/// "TPEMUMAP": marks a map that tensormap.replace wrote.
constexpr uint64_t kTensorMapMagic = 0x50414d554d455054ull;
constexpr unsigned kTensorMapBytes = 128;
constexpr unsigned kTensorMapMaxRank = 5;

/// The tensor map's byte layout (see the file comment); 64-byte aligned
/// like CUtensorMap.
struct alignas(64) TensorMapLayout {
  uint64_t globalAddress;
  uint64_t globalStride[4];
  uint32_t globalDim[5];
  uint16_t boxDim[5];
  uint8_t elementStride[5];
  uint8_t rankMinusOne;
  uint8_t elemType;
  uint8_t interleave;
  uint8_t swizzle;
  uint8_t swizzleAtomicity;
  uint8_t fillMode;
  uint8_t reserved[39];
  uint64_t magic;
};
static_assert(sizeof(TensorMapLayout) == kTensorMapBytes, "CUtensorMap is 128 bytes");

/// tensormap.replace's .elemtype values (PTX ISA "Tensormap new_val validity").
enum class TensorElemType : uint8_t { U8, U16, U32, S32, U64, S64, F16, F32, F32Ftz, F64,
                                      BF16, TF32, TF32Ftz, B4x16, B4x16P64, B6x16P32 };
enum class TensorFillMode : uint8_t { Zero, NaN };

/// A tensor map as the copies use it, checked for a tile-mode copy.
struct TensorMap {
  unsigned rank = 0;
  uint64_t globalAddress = 0;
  uint64_t globalDim[5] = {};
  /// Bytes between consecutive indices of each dimension (elementBytes for 0).
  uint64_t globalStride[5] = {};
  uint32_t boxDim[5] = {};
  uint32_t elementStride[5] = {};
  unsigned elementBytes = 0;
  bool isFloat = false;
  SwizzleMode swizzle = SwizzleMode::None;
  TensorFillMode fill = TensorFillMode::Zero;

  /// Elements of the box along `dim` that a copy transfers:
  /// ceil(boxDim / elementStride) (PTX ISA "Tensor Copy: traversal stride").
  uint32_t transferred(unsigned dim) const {
    return (boxDim[dim] + elementStride[dim] - 1) / elementStride[dim];
  }
  /// Bytes the box occupies in shared memory, out-of-bounds elements included.
  uint64_t boxBytes() const;
};

/// Reads and checks the map at `address`; on an invalid map returns
/// std::nullopt and says why in `error`.
std::optional<TensorMap> decodeTensorMap(const TensorMapLayout &layout, std::string &error);

/// tensormap.replace.* ("tensormap.replace.box.dim.p1", without "llvm.nvvm.").
std::optional<IntrinsicHandler> lookupTensorMapIntrinsic(llvm::StringRef name);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_TENSORMAP_H
