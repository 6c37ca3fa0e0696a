//===- TensorMap.cpp - tensormap.replace and the checks of a tile-mode map -===//
//
// PTX ISA "tensormap.replace": replaces one field of the 1024-bit tensor map
// at [addr] (in global or shared::cta memory) with new_val; box_dim,
// global_dim, global_stride and element_stride take the ordinal of the
// dimension. The encoding is the emulator's own (TensorMap.h).
//
//===----------------------------------------------------------------------===//
#include "TensorMap.h"

#include "Runtime.h"

#include "llvm/ADT/StringSwitch.h"

#include <cstddef>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

enum class MapField : uint32_t { GlobalAddress, Rank, BoxDim, GlobalDim, GlobalStride,
                                 ElementStride, ElemType, Interleave, Swizzle,
                                 SwizzleAtomicity, FillMode };

const char *fieldName(MapField field) {
  static const char *names[] = {"global_address", "rank", "box_dim", "global_dim",
                                "global_stride", "element_stride", "elemtype",
                                "interleave_layout", "swizzle_mode", "swizzle_atomicity",
                                "fill_mode"};
  return names[unsigned(field)];
}

bool hasOrdinal(MapField field) {
  return field == MapField::BoxDim || field == MapField::GlobalDim ||
         field == MapField::GlobalStride || field == MapField::ElementStride;
}

/// The largest new_val of each enumerated field (PTX ISA "Tensormap new_val
/// validity"); rank's new_val is rank - 1.
uint64_t largestValue(MapField field) {
  switch (field) {
  case MapField::Rank: return kTensorMapMaxRank - 1;
  case MapField::ElemType: return uint64_t(TensorElemType::B6x16P32);
  case MapField::Interleave: return 2;
  case MapField::Swizzle: return 4;
  case MapField::SwizzleAtomicity: return 3;
  case MapField::FillMode: return 1;
  case MapField::BoxDim: return 256;
  case MapField::ElementStride: return 8;
  case MapField::GlobalDim: return UINT32_MAX;
  default: return UINT64_MAX;
  }
}

void replaceHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *) {
  Runtime &rt = Runtime::active();
  auto field = MapField(h.op);
  auto address = h.arg<uintptr_t>(args, 0);
  uint32_t ordinal = hasOrdinal(field) ? h.arg<uint32_t>(args, 1) : 0;
  unsigned valueIndex = hasOrdinal(field) ? 2 : 1;
  bool wide = field == MapField::GlobalAddress || field == MapField::GlobalStride;
  uint64_t value = wide ? h.arg<uint64_t>(args, valueIndex) : h.arg<uint32_t>(args, valueIndex);
  std::string what = std::string("tensormap.replace.tile.") + fieldName(field);
  unsigned ordinals = field == MapField::GlobalStride ? kTensorMapMaxRank - 1 : kTensorMapMaxRank;
  if (hasOrdinal(field) && ordinal >= ordinals)
    rt.fail(what + " with ordinal " + std::to_string(ordinal) + " (valid: 0 to " +
            std::to_string(ordinals - 1) + ")");
  if (value > largestValue(field))
    rt.fail(what + " with new_val " + std::to_string(value) +
            (field == MapField::Rank ? " (rank - 1: valid 0 to 4)" : " (out of range)"));
  // The map is 128 bytes at a 64-byte boundary (CUtensorMap's alignment).
  rt.checkAccess(address, kTensorMapBytes, 64, kAccessWrite | h.aux << kAccessAddrSpaceShift);
  TensorMapLayout map;
  std::memcpy(&map, reinterpret_cast<const void *>(address), sizeof(map));
  switch (field) {
  case MapField::GlobalAddress: map.globalAddress = value; break;
  case MapField::Rank: map.rankMinusOne = uint8_t(value); break;
  case MapField::BoxDim: map.boxDim[ordinal] = uint16_t(value); break;
  case MapField::GlobalDim: map.globalDim[ordinal] = uint32_t(value); break;
  case MapField::GlobalStride: map.globalStride[ordinal] = value; break;
  case MapField::ElementStride: map.elementStride[ordinal] = uint8_t(value); break;
  case MapField::ElemType: map.elemType = uint8_t(value); break;
  case MapField::Interleave: map.interleave = uint8_t(value); break;
  case MapField::Swizzle: map.swizzle = uint8_t(value); break;
  case MapField::SwizzleAtomicity: map.swizzleAtomicity = uint8_t(value); break;
  case MapField::FillMode: map.fillMode = uint8_t(value); break;
  }
  map.magic = kTensorMapMagic;
  std::memcpy(reinterpret_cast<void *>(address), &map, sizeof(map));
}

/// Element size in bytes; 0 for the packed sub-byte types.
unsigned elementBytes(TensorElemType type) {
  switch (type) {
  case TensorElemType::U8: return 1;
  case TensorElemType::U16: case TensorElemType::F16: case TensorElemType::BF16: return 2;
  case TensorElemType::U64: case TensorElemType::S64: case TensorElemType::F64: return 8;
  case TensorElemType::B4x16: case TensorElemType::B4x16P64: case TensorElemType::B6x16P32:
    return 0;
  default: return 4;
  }
}

bool isFloatType(TensorElemType type) {
  switch (type) {
  case TensorElemType::F16: case TensorElemType::F32: case TensorElemType::F32Ftz:
  case TensorElemType::F64: case TensorElemType::BF16: case TensorElemType::TF32:
  case TensorElemType::TF32Ftz:
    return true;
  default:
    return false;
  }
}

} // namespace

uint64_t TensorMap::boxBytes() const {
  uint64_t elements = 1;
  for (unsigned d = 0; d < rank; ++d)
    elements *= transferred(d);
  return elements * elementBytes;
}

std::optional<TensorMap> tilepipe::emu::decodeTensorMap(const TensorMapLayout &layout,
                                                       std::string &error) {
  auto invalid = [&](const std::string &why) -> std::optional<TensorMap> {
    error = why;
    return std::nullopt;
  };
  if (layout.magic != kTensorMapMagic)
    return invalid("not a tensor map built by tensormap.replace (the emulator cannot read "
                   "host-encoded CUtensorMap objects)");
  TensorMap map;
  map.rank = layout.rankMinusOne + 1u;
  if (map.rank > kTensorMapMaxRank)
    return invalid("rank " + std::to_string(map.rank) + " (valid: 1 to 5)");
  auto type = TensorElemType(layout.elemType);
  map.elementBytes = elementBytes(type);
  if (layout.elemType > uint8_t(TensorElemType::B6x16P32) || map.elementBytes == 0)
    return invalid("elemtype " + std::to_string(layout.elemType) + " is not emulated");
  map.isFloat = isFloatType(type);
  if (layout.interleave != 0)
    return invalid("interleave_layout " + std::to_string(layout.interleave) +
                   " is not emulated (only no interleave)");
  if (layout.swizzle > 3 || layout.swizzleAtomicity != 0)
    return invalid("swizzle_mode " + std::to_string(layout.swizzle) + " with swizzle_atomicity " +
                   std::to_string(layout.swizzleAtomicity) +
                   " is not emulated (none/32B/64B/128B with 16-byte atomicity)");
  map.swizzle = SwizzleMode(layout.swizzle);
  map.fill = TensorFillMode(layout.fillMode);
  if (map.fill == TensorFillMode::NaN && !map.isFloat)
    return invalid("OOB-NaN fill needs a floating-point elemtype");
  map.globalAddress = layout.globalAddress;
  if (map.globalAddress % 16)
    return invalid("global_address " + std::to_string(map.globalAddress) +
                   " is not 16-byte aligned");
  for (unsigned d = 0; d < map.rank; ++d) {
    std::string dim = "[" + std::to_string(d) + "]";
    map.globalDim[d] = layout.globalDim[d];
    map.boxDim[d] = layout.boxDim[d];
    map.elementStride[d] = layout.elementStride[d] ? layout.elementStride[d] : 1;
    map.globalStride[d] = d == 0 ? map.elementBytes : layout.globalStride[d - 1];
    if (map.globalDim[d] == 0)
      return invalid("global_dim" + dim + " is 0");
    if (map.boxDim[d] == 0 || map.boxDim[d] > 256)
      return invalid("box_dim" + dim + " is " + std::to_string(map.boxDim[d]) +
                     " (valid: 1 to 256)");
    if (map.elementStride[d] > 8)
      return invalid("element_stride" + dim + " is " + std::to_string(map.elementStride[d]) +
                     " (valid: 1 to 8)");
    // An H100 given a traversal stride along dimension 0 writes the box's
    // rows unstrided while its complete-tx counts the strided elements; the
    // emulator does not guess which is meant.
    if (d == 0 && map.elementStride[0] != 1)
      return invalid("element_stride[0] is " + std::to_string(map.elementStride[0]) +
                     ": traversal strides along dimension 0 are not emulated");
    if (d > 0 && (map.globalStride[d] % 16 || map.globalStride[d] >= (uint64_t(1) << 40)))
      return invalid("global_stride[" + std::to_string(d - 1) + "] is " +
                     std::to_string(map.globalStride[d]) +
                     " (must be a multiple of 16 below 2^40)");
  }
  uint64_t innerBytes = uint64_t(map.boxDim[0]) * map.elementBytes;
  if (innerBytes % 16)
    return invalid("the box's inner dimension is " + std::to_string(innerBytes) +
                   " bytes (must be a multiple of 16)");
  if (map.swizzle != SwizzleMode::None) {
    unsigned span = 16u << unsigned(map.swizzle); // 32, 64, 128 bytes
    if (innerBytes > span)
      return invalid("the box's inner dimension is " + std::to_string(innerBytes) +
                     " bytes, more than the " + std::to_string(span) + "-byte swizzle span");
  }
  return map;
}

std::optional<IntrinsicHandler> tilepipe::emu::lookupTensorMapIntrinsic(StringRef n) {
  if (!n.consume_front("tensormap.replace."))
    return std::nullopt;
  // Overloaded on the map's address space: ".p0", ".p1" or ".p3".
  uint32_t addrSpace = 0;
  if (n.consume_back(".p1"))
    addrSpace = 1;
  else if (n.consume_back(".p3"))
    addrSpace = 3;
  else if (!n.consume_back(".p0"))
    return std::nullopt;
  auto field = llvm::StringSwitch<std::optional<MapField>>(n)
                   .Case("global.address", MapField::GlobalAddress)
                   .Case("rank", MapField::Rank)
                   .Case("box.dim", MapField::BoxDim)
                   .Case("global.dim", MapField::GlobalDim)
                   .Case("global.stride", MapField::GlobalStride)
                   .Case("element.stride", MapField::ElementStride)
                   .Case("elemtype", MapField::ElemType)
                   .Case("interleave.layout", MapField::Interleave)
                   .Case("swizzle.mode", MapField::Swizzle)
                   .Case("swizzle.atomicity", MapField::SwizzleAtomicity)
                   .Case("fill.mode", MapField::FillMode)
                   .Default(std::nullopt);
  if (!field)
    return std::nullopt;
  IntrinsicHandler h;
  h.fn = replaceHandler;
  h.op = uint32_t(*field);
  h.aux = addrSpace;
  return h;
}
