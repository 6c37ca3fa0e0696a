//===- TmaStoreStaging.cpp - stmatrix stores of a TMA-stored tile ---------===//
//
// StmatrixStores::get reads stmatrix's fragment off the register layout as
// a LinearLayout (TileASLinearLayouts.h): the condition is on the layout's
// bases, not on which multiply produced the tile.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TmaStoreStaging.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLinearLayouts.h"

using namespace tilepipe::tile_as;
using RowCol = StmatrixStores::RowCol;
using llvm::ArrayRef;

std::optional<StmatrixStores> StmatrixStores::get(BlockedAttr layout,
                                                  llvm::ArrayRef<int64_t> shape,
                                                  int64_t chunkCols, std::string &why) {
  std::optional<LinearLayout> linear = toLinearLayout(layout, shape);
  if (!linear) {
    why = "its layout is no linear layout (a dimension is no power of two)";
    return std::nullopt;
  }
  unsigned rank = shape.size();
  std::string rowDim = getTensorDimName(rank - 2), colDim = getTensorDimName(rank - 1);
  auto basis = [&](llvm::StringRef in, unsigned bit) {
    return RowCol{linear->getBasis(in, bit, rowDim), linear->getBasis(in, bit, colDim)};
  };
  unsigned registerBits = linear->getInDimSizeLog2(kRegisterDim);
  auto isColumn = [](RowCol b, int64_t col) { return b == RowCol{0, col}; };
  if (registerBits < 1 || !isColumn(basis(kRegisterDim, 0), 1)) {
    why = "its threads hold no pairs of adjacent columns";
    return std::nullopt;
  }
  if (!isColumn(basis(kLaneDim, 0), 2) || !isColumn(basis(kLaneDim, 1), 4)) {
    why = "four lanes do not share a row of 8 columns (stmatrix's fragment)";
    return std::nullopt;
  }
  StmatrixStores stores;
  unsigned countBits = std::min(2u, registerBits - 1);
  stores.count = int64_t(1) << countBits;
  stores.groups = int64_t(1) << (registerBits - 1 - countBits);
  for (unsigned bit = 2; bit < 5; ++bit)
    stores.laneBases.push_back(basis(kLaneDim, bit));
  for (unsigned bit = 1; bit <= countBits; ++bit)
    stores.laneBases.push_back(basis(kRegisterDim, bit));
  for (unsigned bit = 0; bit < linear->getInDimSizeLog2(kWarpDim); ++bit)
    stores.warpBases.push_back(basis(kWarpDim, bit));
  for (unsigned bit = 1 + countBits; bit < registerBits; ++bit)
    stores.groupBases.push_back(basis(kRegisterDim, bit));

  // Every matrix starts at a multiple of 8 columns: its row is 16 whole
  // bytes of the swizzled staging, and the fragment's columns add to it.
  ArrayRef<RowCol> lanes = stores.laneBases, warps = stores.warpBases, groups = stores.groupBases;
  for (ArrayRef<RowCol> bases : {lanes, warps, groups})
    for (RowCol b : bases)
      if (b[1] % 8 != 0) {
        why = "its 8x8 matrices do not start at multiples of 8 columns";
        return std::nullopt;
      }
  RowCol threadBits{0, 0}, groupBits{0, 0};
  for (ArrayRef<RowCol> bases : {lanes, warps})
    for (RowCol b : bases)
      threadBits = {threadBits[0] | b[0], threadBits[1] | b[1]};
  for (RowCol b : groups)
    groupBits = {groupBits[0] | b[0], groupBits[1] | b[1]};
  // The instruction's offset then adds to the thread's part (XOR is
  // addition on disjoint bits), which LLVM folds into the addresses.
  if ((threadBits[0] & groupBits[0]) || (threadBits[1] & groupBits[1])) {
    why = "its threads' and registers' coordinates share bits";
    return std::nullopt;
  }
  // One instruction's matrices lie in one column chunk of the staging.
  for (int64_t q = 0; q < stores.groups; ++q)
    if (stores.groupOffset(q)[1] % chunkCols + threadBits[1] + 8 > chunkCols) {
      why = "a warp's matrices straddle the chunks of " + std::to_string(chunkCols) + " columns";
      return std::nullopt;
    }
  return stores;
}
