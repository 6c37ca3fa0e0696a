//===- TensorCopy.cpp - cp.async.bulk.tensor in tile mode ------------------===//
//
// PTX ISA "cp.async.bulk.tensor" and "Tensor Map": the box at the signed
// coordinates (c0, ..., cN-1) covers box_dim[d] elements of dimension d, of
// which every element_stride[d]-th is transferred, i.e. ceil(box_dim /
// element_stride) of them. In shared memory the transferred elements are
// packed in row-major order (dimension 0 innermost) from the destination
// address, each byte at the address the map's swizzle mode moves it to
// (Swizzle.h). Loads (global -> shared) fill elements outside the tensor
// with zeros, or with NaN under OOB-NaN fill, and count the whole box in
// the mbarrier's complete-tx; stores (shared -> global) skip them.
//
//===----------------------------------------------------------------------===//
#include "BulkCopy.h"

#include "MBarrier.h"
#include "Runtime.h"
#include "TensorMap.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstring>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

enum class TensorDirection : uint32_t { GlobalToCluster, GlobalToCta, SharedToGlobal };

std::string hex(uint64_t value) { return "0x" + llvm::utohexstr(value); }

/// The map at `address`, checked; fails the launch on an unusable map.
TensorMap loadTensorMap(Runtime &rt, uintptr_t address, unsigned rank) {
  rt.checkAccess(address, kTensorMapBytes, 64, 0);
  TensorMapLayout layout;
  std::memcpy(&layout, reinterpret_cast<const void *>(address), sizeof(layout));
  if (layout.magic == kTensorMapMagic && layout.rankMinusOne + 1u != rank)
    rt.fail("cp.async.bulk.tensor." + std::to_string(rank) + "d with the rank-" +
            std::to_string(layout.rankMinusOne + 1u) + " tensor map at " + hex(address));
  std::string error;
  std::optional<TensorMap> map = decodeTensorMap(layout, error);
  if (!map)
    rt.fail("cp.async.bulk.tensor: invalid tensor map at " + hex(address) + ": " + error);
  return *map;
}

/// The bit pattern OOB-NaN fill writes: the canonical NaN of the element size.
void fillElement(uint8_t *to, const TensorMap &map) {
  std::memset(to, 0, map.elementBytes);
  if (map.fill != TensorFillMode::NaN)
    return;
  uint64_t nan = map.elementBytes == 2 ? 0x7fff
                 : map.elementBytes == 4 ? 0x7fffffffu
                                         : 0x7fffffffffffffffull;
  std::memcpy(to, &nan, map.elementBytes);
}

/// Moves the box at `coord` between the tensor and the shared memory at
/// `shared` (in address space `space`); returns the box's bytes.
uint64_t transferBox(Runtime &rt, const TensorMap &map, const int64_t *coord, unsigned rank,
                     uintptr_t shared, bool load, unsigned space) {
  // The shared side is 128-byte aligned, swizzled boxes to the repeat of
  // their pattern so that it starts at the box (CUDA Programming Guide, TMA
  // swizzle).
  uint64_t alignment = std::max(128u, swizzleAlignment(map.swizzle));
  if (shared % alignment)
    rt.fail(std::string("cp.async.bulk.tensor: shared memory ") + (load ? "destination " : "source ") +
            hex(shared) + " is not " + std::to_string(alignment) + "-byte aligned");
  uint64_t boxBytes = map.boxBytes();
  // A swizzle permutes the 16-byte chunks of each 128-byte row.
  uint64_t touched = map.swizzle == SwizzleMode::None ? boxBytes : (boxBytes + 127) / 128 * 128;
  rt.checkAccess(shared, touched, 16,
                 (load ? uint32_t(kAccessWrite) : 0u) | space << kAccessAddrSpaceShift);

  // Walk the box row by row in shared-memory order. Dimension 0 has no
  // traversal stride (TensorMap.cpp), so each row's in-bounds elements are
  // one contiguous run of global memory, checked once.
  unsigned elementBytes = map.elementBytes;
  uint32_t rowElements = map.transferred(0);
  uint64_t rowBytes = uint64_t(rowElements) * elementBytes;
  int64_t first = std::max<int64_t>(coord[0], 0);
  int64_t last = std::min<int64_t>(coord[0] + rowElements, map.globalDim[0]);
  uint32_t globalFlags = (load ? 0u : uint32_t(kAccessWrite)) | 1u << kAccessAddrSpaceShift;
  uint32_t index[kTensorMapMaxRank] = {};
  for (uint64_t rowOffset = 0; rowOffset < boxBytes; rowOffset += rowBytes) {
    bool inside = first < last;
    uint64_t row = map.globalAddress;
    for (unsigned d = 1; d < rank; ++d) {
      int64_t x = coord[d] + int64_t(index[d]) * map.elementStride[d];
      inside &= x >= 0 && x < int64_t(map.globalDim[d]);
      row += uint64_t(x) * map.globalStride[d];
    }
    if (inside)
      rt.checkAccess(row + uint64_t(first) * elementBytes, uint64_t(last - first) * elementBytes,
                     elementBytes, globalFlags);
    for (uint32_t i = 0; i < rowElements; ++i) {
      int64_t x = coord[0] + i;
      auto *element = reinterpret_cast<uint8_t *>(
          swizzleAddress(shared + rowOffset + uint64_t(i) * elementBytes, map.swizzle));
      if (inside && x >= first && x < last) {
        auto *memory = reinterpret_cast<uint8_t *>(row + uint64_t(x) * elementBytes);
        std::memcpy(load ? element : memory, load ? memory : element, elementBytes);
      } else if (load) {
        fillElement(element, map);
      }
    }
    for (unsigned d = 1; d < rank && ++index[d] == map.transferred(d); ++d)
      index[d] = 0;
  }
  return boxBytes;
}

void tensorCopyHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *) {
  Runtime &rt = Runtime::active();
  auto direction = TensorDirection(h.op);
  unsigned rank = h.aux;
  bool load = direction != TensorDirection::SharedToGlobal;
  // g2s: (dst, mbar, map, coords...); s2g: (src, map, coords...).
  auto shared = h.arg<uintptr_t>(args, 0);
  unsigned mapIndex = load ? 2 : 1;
  TensorMap map = loadTensorMap(rt, h.arg<uintptr_t>(args, mapIndex), rank);
  int64_t coord[kTensorMapMaxRank] = {};
  for (unsigned d = 0; d < rank; ++d)
    coord[d] = h.arg<int32_t>(args, mapIndex + 1 + d);
  // The box's rows start at 16-byte boundaries of the tensor's rows: an H100
  // raises an illegal-instruction error for any other coordinate of
  // dimension 0 (seen for f32 boxes, in and out of bounds).
  if (coord[0] * int64_t(map.elementBytes) % 16)
    rt.fail("cp.async.bulk.tensor: coordinate " + std::to_string(coord[0]) +
            " of dimension 0 starts the box " + std::to_string(coord[0] * map.elementBytes) +
            " bytes into a row, not at a multiple of 16 bytes");
  if (!load) {
    transferBox(rt, map, coord, rank, shared, false, 3);
    return;
  }
  auto mbar = h.arg<uintptr_t>(args, 1);
  if (direction == TensorDirection::GlobalToCluster && (h.arg<uint8_t>(args, rank + 5) & 1)) {
    // .multicast::cluster: the box and its complete-tx land at the same
    // CTA-relative offsets in every CTA of the mask.
    for (uint32_t cta : rt.multicastRanks(h.arg<uint16_t>(args, rank + 3), "cp.async.bulk.tensor")) {
      uint64_t bytes = transferBox(rt, map, coord, rank,
                                   rt.mapShared(shared, cta, "cp.async.bulk.tensor"), true, 7);
      completeMBarrierTx(rt.mapShared(mbar, cta, "cp.async.bulk.tensor"), uint32_t(bytes));
    }
    return;
  }
  unsigned space = direction == TensorDirection::GlobalToCluster ? 7 : 3;
  uint64_t bytes = transferBox(rt, map, coord, rank, shared, true, space);
  completeMBarrierTx(mbar, uint32_t(bytes));
}

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupTensorCopyIntrinsic(StringRef n) {
  if (!n.consume_front("cp.async.bulk.tensor."))
    return std::nullopt;
  TensorDirection direction;
  if (n.consume_front("g2s.cta.tile."))
    direction = TensorDirection::GlobalToCta;
  else if (n.consume_front("g2s.tile."))
    direction = TensorDirection::GlobalToCluster;
  else if (n.consume_front("s2g.tile."))
    direction = TensorDirection::SharedToGlobal;
  else
    return std::nullopt; // im2col, gather4/scatter4 and reductions are not emulated
  unsigned rank;
  if (!n.consume_back("d") || n.getAsInteger(10, rank) || rank < 1 || rank > kTensorMapMaxRank)
    return std::nullopt;
  IntrinsicHandler h;
  h.fn = tensorCopyHandler;
  h.op = uint32_t(direction);
  h.aux = rank;
  return h;
}
