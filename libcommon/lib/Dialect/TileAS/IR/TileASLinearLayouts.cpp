//===- TileASLinearLayouts.cpp - The lowering's layouts as linear layouts -===//
//
// See TileASLinearLayouts.h. Each builder lists the image of every input
// bit; the unit tests (tests/unit/TileASLinearLayoutsTest.cpp) check them
// against the coordinate and address functions the lowering emits.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileASLinearLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"

#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace tilepipe::tile_as;

namespace {
constexpr unsigned kWarpSize = 32;
using Basis = SmallVector<int32_t>;
using Bases = SmallVector<Basis>;

/// LinearLayout::get for bases valid by construction.
LinearLayout build(ArrayRef<LinearLayout::InDim> ins, ArrayRef<LinearLayout::OutDim> outs) {
  Expected<LinearLayout> layout = LinearLayout::get(ins, outs);
  if (!layout)
    report_fatal_error(layout.takeError());
  return std::move(*layout);
}

/// Zero bases up to `bits` input bits (inputs that hold copies).
void padBases(Bases &bases, unsigned bits, unsigned rank) {
  while (bases.size() < bits)
    bases.push_back(Basis(rank, 0));
}
} // namespace

std::string tilepipe::tile_as::getTensorDimName(unsigned dim) {
  return "dim" + std::to_string(dim);
}

std::optional<LinearLayout> tilepipe::tile_as::toLinearLayout(BlockedAttr layout,
                                                              ArrayRef<int64_t> shape,
                                                              unsigned numWarps) {
  unsigned rank = shape.size();
  if (!layout || layout.getOrder().size() != rank)
    return std::nullopt;
  for (int64_t extent : shape)
    if (extent < 1 || extent > (int64_t(1) << 30) || !isPowerOf2_64(extent))
      return std::nullopt;
  unsigned threads = 1, layoutWarps = 1;
  for (unsigned dim = 0; dim < rank; ++dim) {
    threads *= layout.getThreadsPerWarp()[dim];
    layoutWarps *= layout.getWarpsPerCTA()[dim];
  }
  if (!numWarps)
    numWarps = layoutWarps;
  if (threads > kWarpSize || !isPowerOf2_32(numWarps) || layoutWarps > numWarps)
    return std::nullopt;

  // A coordinate along `dim`, reduced modulo the extent as the lowering
  // wraps a layout larger than the tensor (a mask for a power of two).
  auto along = [&](unsigned dim, int64_t coord) {
    Basis basis(rank, 0);
    basis[dim] = int32_t(coord & (shape[dim] - 1));
    return basis;
  };
  // Register bits: the fastest dimension of `order` first, each dimension's
  // register index split as getRegisterCoordinate does (sizePerThread
  // adjacent elements, then repetitions a layout extent apart).
  SmallVector<int64_t> regs = getRegsPerDim(layout, shape);
  Bases registerBases, laneBases, warpBases;
  for (unsigned dim : layout.getOrder())
    for (int64_t bit = 1; bit < regs[dim]; bit <<= 1)
      registerBases.push_back(along(dim, getRegisterCoordinate(layout, dim, bit)));
  // Lane and warp ids split over the dimensions fastest first (the digits
  // RegisterEmitter's threadBase takes): a lane digit steps sizePerThread
  // elements, a warp digit sizePerThread * threadsPerWarp.
  for (unsigned dim : layout.getOrder()) {
    int64_t size = layout.getSizePerThread()[dim];
    int64_t laneCount = layout.getThreadsPerWarp()[dim];
    for (int64_t bit = 1; bit < laneCount; bit <<= 1)
      laneBases.push_back(along(dim, bit * size));
    for (int64_t bit = 1; bit < layout.getWarpsPerCTA()[dim]; bit <<= 1)
      warpBases.push_back(along(dim, bit * size * laneCount));
  }
  padBases(laneBases, Log2_32(kWarpSize), rank);
  padBases(warpBases, Log2_32(numWarps), rank);
  SmallVector<LinearLayout::OutDim> outs;
  for (unsigned dim = 0; dim < rank; ++dim)
    outs.push_back({getTensorDimName(dim), int32_t(shape[dim])});
  return build({{kRegisterDim.str(), registerBases},
                {kLaneDim.str(), laneBases},
                {kWarpDim.str(), warpBases}},
               outs);
}

LinearLayout tilepipe::tile_as::getMmaSyncFragmentLayout(MmaOperand operand,
                                                         unsigned elementBytes) {
  assert((elementBytes == 1 || elementBytes == 2 || elementBytes == 4) &&
         "mma.sync operands take 1, 2 or 4 bytes");
  // Every kind places 32-bit registers alike (k counted in 4-byte units):
  // a register holds `perRegister` elements adjacent along k.
  int32_t perRegister = 4 / elementBytes, k = 8 * perRegister;
  // Lane bits 0-1 are threadID_in_group, bits 2-4 groupID.
  Bases registers, lanes;
  switch (operand) {
  case MmaOperand::A: // 16 x k: a_i at row groupID (+8), k 4-byte unit tig (+4)
    for (int32_t bit = 1; bit < perRegister; bit <<= 1)
      registers.push_back({0, bit});
    registers.push_back({8, 0});
    registers.push_back({0, 4 * perRegister});
    lanes = {{0, perRegister}, {0, 2 * perRegister}, {1, 0}, {2, 0}, {4, 0}};
    return build({{kRegisterDim.str(), registers}, {kLaneDim.str(), lanes}},
                 {{getTensorDimName(0), 16}, {getTensorDimName(1), k}});
  case MmaOperand::B: // k x 8: b_i at k 4-byte unit tig (+4), column groupID
    for (int32_t bit = 1; bit < perRegister; bit <<= 1)
      registers.push_back({bit, 0});
    registers.push_back({4 * perRegister, 0});
    lanes = {{perRegister, 0}, {2 * perRegister, 0}, {0, 1}, {0, 2}, {0, 4}};
    return build({{kRegisterDim.str(), registers}, {kLaneDim.str(), lanes}},
                 {{getTensorDimName(0), k}, {getTensorDimName(1), 8}});
  case MmaOperand::Accumulator: // 16 x 8: c_i at row groupID (+8), column 2 tig + i % 2
    registers = {{0, 1}, {8, 0}};
    lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
    return build({{kRegisterDim.str(), registers}, {kLaneDim.str(), lanes}},
                 {{getTensorDimName(0), 16}, {getTensorDimName(1), 8}});
  }
  llvm_unreachable("unknown mma operand");
}

LinearLayout tilepipe::tile_as::getLdmatrixLayout(unsigned count, bool transpose) {
  assert((count == 1 || count == 2 || count == 4) && "ldmatrix reads 1, 2 or 4 matrices");
  // (row, column, matrix); without .trans lane l holds row l / 4 and the
  // two columns 2 (l % 4) + {0, 1}, .trans swaps row and column.
  auto at = [&](int32_t row, int32_t column, int32_t matrix) {
    return transpose ? Basis{column, row, matrix} : Basis{row, column, matrix};
  };
  Bases registers = {at(0, 1, 0)};
  for (int32_t matrix = 1; matrix < int32_t(count); matrix <<= 1)
    registers.push_back(at(0, 0, matrix));
  Bases lanes = {at(0, 2, 0), at(0, 4, 0), at(1, 0, 0), at(2, 0, 0), at(4, 0, 0)};
  return build({{kRegisterDim.str(), registers}, {kLaneDim.str(), lanes}},
               {{getTensorDimName(0), 8}, {getTensorDimName(1), 8}, {"matrix", int32_t(count)}});
}

LinearLayout tilepipe::tile_as::getLdmatrixAddressLayout(unsigned count) {
  assert((count == 1 || count == 2 || count == 4) && "ldmatrix reads 1, 2 or 4 matrices");
  Bases lanes = {{1, 0}, {2, 0}, {4, 0}};
  for (int32_t matrix = 1; matrix < 4; matrix <<= 1)
    lanes.push_back({0, matrix < int32_t(count) ? matrix : 0});
  return build({{kLaneDim.str(), lanes}},
               {{getTensorDimName(0), 8}, {"matrix", int32_t(count)}});
}

std::optional<LinearLayout>
tilepipe::tile_as::getSwizzledSharedLayout(int64_t rows, int64_t extent, unsigned elementBytes,
                                           int64_t width) {
  int64_t extentBytes = extent * elementBytes;
  if (width != 32 && width != 64 && width != 128)
    return std::nullopt;
  if (rows < 8 || !isPowerOf2_64(rows) || !isPowerOf2_64(extentBytes) ||
      extentBytes < width || !isPowerOf2_32(elementBytes) || elementBytes > 16 ||
      rows * extent > (int64_t(1) << 30))
    return std::nullopt;
  // The forward map (row, column) -> byte: columns cut into blocks of
  // `width` bytes, each block `rows` rows of `width` bytes; then the 16-byte
  // piece (bits 4..) XORed with the row in the 8-row pattern (bits 7..).
  int64_t perBlock = width / elementBytes, blockBytes = rows * width;
  auto swizzle = [&](int64_t byte) {
    return byte ^ (((byte >> 7) & (width / 16 - 1)) << 4);
  };
  auto slot = [&](int64_t row, int64_t column) {
    int64_t plain = column / perBlock * blockBytes + row * width +
                    column % perBlock * elementBytes;
    return Basis{int32_t(swizzle(plain) / elementBytes)};
  };
  Bases rowBases, columnBases;
  for (int64_t bit = 1; bit < rows; bit <<= 1)
    rowBases.push_back(slot(bit, 0));
  for (int64_t bit = 1; bit < extent; bit <<= 1)
    columnBases.push_back(slot(0, bit));
  LinearLayout forward = build(
      {{getTensorDimName(0), rowBases}, {getTensorDimName(1), columnBases}},
      {{kOffsetDim.str(), int32_t(rows * extent)}});
  Expected<LinearLayout> inverse = forward.invert();
  if (!inverse) {
    consumeError(inverse.takeError());
    return std::nullopt;
  }
  return std::move(*inverse);
}
