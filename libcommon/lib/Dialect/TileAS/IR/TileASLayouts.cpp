//===- TileASLayouts.cpp - Register mapping of tile_as layouts ------------===//
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe::tile_as;

int64_t tilepipe::tile_as::getLayoutExtent(BlockedAttr layout, unsigned dim) {
  return int64_t(layout.getSizePerThread()[dim]) *
         layout.getThreadsPerWarp()[dim] * layout.getWarpsPerCTA()[dim];
}

SmallVector<int64_t>
tilepipe::tile_as::getRegsPerDim(BlockedAttr layout, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> regs;
  for (unsigned dim = 0; dim < shape.size(); ++dim) {
    int64_t reps = llvm::divideCeil(shape[dim], getLayoutExtent(layout, dim));
    regs.push_back(reps * layout.getSizePerThread()[dim]);
  }
  return regs;
}

int64_t tilepipe::tile_as::getElemsPerThread(BlockedAttr layout,
                                             ArrayRef<int64_t> shape) {
  int64_t total = 1;
  for (int64_t regs : getRegsPerDim(layout, shape))
    total *= regs;
  return total;
}

SmallVector<int64_t>
tilepipe::tile_as::delinearizeRegister(BlockedAttr layout,
                                       ArrayRef<int64_t> shape, int64_t reg) {
  SmallVector<int64_t> regs = getRegsPerDim(layout, shape);
  SmallVector<int64_t> perDim(shape.size(), 0);
  for (unsigned dim : layout.getOrder()) {
    perDim[dim] = reg % regs[dim];
    reg /= regs[dim];
  }
  return perDim;
}

int64_t tilepipe::tile_as::linearizeRegister(BlockedAttr layout,
                                             ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> regPerDim) {
  SmallVector<int64_t> regs = getRegsPerDim(layout, shape);
  int64_t linear = 0;
  for (unsigned dim : llvm::reverse(layout.getOrder()))
    linear = linear * regs[dim] + regPerDim[dim];
  return linear;
}

int64_t tilepipe::tile_as::getRegisterCoordinate(BlockedAttr layout,
                                                 unsigned dim,
                                                 int64_t regInDim) {
  int64_t size = layout.getSizePerThread()[dim];
  return (regInDim / size) * getLayoutExtent(layout, dim) + regInDim % size;
}

unsigned tilepipe::tile_as::getContiguousRegisters(BlockedAttr layout) {
  return layout.getSizePerThread()[layout.getOrder().front()];
}

/// Spreads `count` units over the dimensions innermost first, each taking at
/// most what is left of its extent; the rest goes to the innermost dimension.
static SmallVector<unsigned> distribute(unsigned count,
                                        SmallVectorImpl<int64_t> &remaining) {
  unsigned rank = remaining.size();
  SmallVector<unsigned> result(rank, 1);
  for (int dim = rank - 1; dim >= 0 && count > 1; --dim) {
    unsigned take = 1;
    while (take < count && take * 2 <= remaining[dim])
      take *= 2;
    result[dim] = take;
    remaining[dim] = std::max<int64_t>(1, remaining[dim] / take);
    count /= take;
  }
  result[rank - 1] *= count;
  return result;
}

BlockedAttr tilepipe::tile_as::getDefaultBlockedLayout(MLIRContext *context,
                                                       ArrayRef<int64_t> shape,
                                                       unsigned vectorWidth,
                                                       unsigned numWarps,
                                                       unsigned threadsPerWarp) {
  unsigned rank = shape.size();
  SmallVector<unsigned> sizePerThread(rank, 1);
  SmallVector<int64_t> remaining(shape);
  unsigned vec = std::max<unsigned>(1, vectorWidth);
  while (vec > 1 && remaining[rank - 1] % vec)
    vec /= 2;
  sizePerThread[rank - 1] = vec;
  remaining[rank - 1] /= vec;
  SmallVector<unsigned> threads = distribute(threadsPerWarp, remaining);
  SmallVector<unsigned> warps = distribute(numWarps, remaining);
  SmallVector<unsigned> order;
  for (int dim = rank - 1; dim >= 0; --dim)
    order.push_back(dim);
  return BlockedAttr::get(context, sizePerThread, threads, warps, order);
}
