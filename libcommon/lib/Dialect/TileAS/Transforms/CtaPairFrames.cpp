//===- CtaPairFrames.cpp - tensors a CTA-pair split halves together -------===//
//
// The frame of each op tilepipe-split-tile-blocks-across-cta-pair knows; any
// other op with tensors gets an opaque frame (its tensors stay whole).
//
//===----------------------------------------------------------------------===//
#include "CtaPairFrames.h"

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tilepipe::tile_as;
using namespace tilepipe::tile_as::cta_pair;

/// A tensor made from scalars by one op (splat, splat constant, iota).
bool cta_pair::isLeaf(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isTensor(value))
    return false;
  if (isa<SplatOp, IotaOp>(def))
    return true;
  DenseElementsAttr dense;
  return matchPattern(value, m_Constant(&dense)) && dense.isSplat();
}

/// Ops that compute each element from the operands' same element alone.
bool cta_pair::isElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() ||
         isa<IntToPtrOp, PtrToIntOp, PtrToPtrOp, ConvertLayoutOp>(op);
}

/// The op whose frames cover `user`'s operands: a loop's or if's yield
/// belongs to the loop or if.
Operation *cta_pair::getFrameOwner(Operation *user) {
  if (isa<scf::YieldOp>(user) && isa<scf::ForOp, scf::IfOp>(user->getParentOp()))
    return user->getParentOp();
  return user;
}

/// A multiply's frame: [batch,] M, N, K and the scales' K blocks; A is
/// [b,] M x K, B [b,] K x N, C and the result [b,] M x N, the scales
/// [b,] M x Kb and [b,] Kb x N.
static void collectMmaFrame(Operation *op, Frame &frame) {
  int64_t rank = Frame::getRank(op->getResult(0));
  int64_t m = rank - 2, n = rank - 1, k = rank, kBlocks = rank + 1;
  auto dims = [&](int64_t row, int64_t column) {
    SmallVector<int64_t> d;
    if (rank == 3)
      d.push_back(0);
    d.append({row, column});
    return d;
  };
  frame.add(op->getOperand(0), &op->getOpOperand(0), dims(m, k));
  frame.add(op->getOperand(1), &op->getOpOperand(1), dims(k, n));
  frame.add(op->getOperand(2), &op->getOpOperand(2), dims(m, n));
  frame.add(op->getResult(0), nullptr, dims(m, n));
  if (isa<MmaFScaledOp>(op)) {
    frame.add(op->getOperand(3), &op->getOpOperand(3), dims(m, kBlocks));
    frame.add(op->getOperand(4), &op->getOpOperand(4), dims(kBlocks, n));
  }
  frame.fixed = {{k, "sums along the split dimension (K)"},
                 {kBlocks, "sums along the split dimension (K)"}};
}

/// A reshape's frame is its result; a source dimension maps onto a result
/// dimension when the dimensions before each hold as many elements and so do
/// each with those after it (2x4x32 rows and 256 rows): then the first half
/// of one, in row-major order, is the first half of the other.
static void collectReshapeFrame(ReshapeOp op, Frame &frame) {
  ArrayRef<int64_t> from = op.getSrc().getType().getShape();
  ArrayRef<int64_t> to = op.getResult().getType().getShape();
  auto key = [](ArrayRef<int64_t> shape, size_t d) {
    int64_t before = 1, through = 1;
    for (size_t i = 0; i < shape.size(); ++i)
      (i < d ? before : through) *= shape[i];
    return std::make_pair(before, through);
  };
  SmallVector<int64_t> dims(from.size(), kWhole);
  SmallVector<bool> mapped(to.size(), false);
  for (size_t s = 0; s < from.size(); ++s)
    for (size_t r = 0; r < to.size(); ++r)
      if (from[s] % kPair == 0 && to[r] % kPair == 0 && key(from, s) == key(to, r)) {
        dims[s] = r;
        mapped[r] = true;
        break;
      }
  frame.add(op.getSrc(), &op->getOpOperand(0), dims);
  frame.addSame(op.getResult(), nullptr);
  for (size_t r = 0; r < to.size(); ++r)
    if (!mapped[r])
      frame.fixed.push_back({int64_t(r), "reshapes the split dimension"});
}

/// The frames of `op` (none for an op without tensors, or for a yield whose
/// loop or if holds its frames).
void cta_pair::collectFrames(Operation *op, SmallVectorImpl<Frame> &frames) {
  if (getFrameOwner(op) != op)
    return;
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    Operation *yield = loop.getBody()->getTerminator();
    for (auto [i, result] : llvm::enumerate(loop.getResults())) {
      if (!isTensor(result))
        continue;
      Frame frame{op};
      OpOperand &init = loop.getInitArgsMutable()[i];
      frame.addSame(init.get(), &init);
      frame.addSame(loop.getRegionIterArg(i), nullptr);
      frame.addSame(yield->getOperand(i), &yield->getOpOperand(i));
      frame.addSame(result, nullptr);
      frames.push_back(std::move(frame));
    }
    return;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    for (auto [i, result] : llvm::enumerate(branch.getResults())) {
      if (!isTensor(result))
        continue;
      Frame frame{op};
      frame.addSame(result, nullptr);
      for (Operation *yield : {branch.thenYield(), branch.elseYield()})
        frame.addSame(yield->getOperand(i), &yield->getOpOperand(i));
      frames.push_back(std::move(frame));
    }
    return;
  }
  if (llvm::none_of(op->getOperands(), isTensor) && llvm::none_of(op->getResults(), isTensor))
    return;
  Frame frame{op};
  auto addAllSame = [&] {
    for (OpOperand &operand : op->getOpOperands())
      if (isTensor(operand.get()))
        frame.addSame(operand.get(), &operand);
    for (Value result : op->getResults())
      if (isTensor(result))
        frame.addSame(result, nullptr);
  };
  if (isElementwise(op) || isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op)) {
    addAllSame();
  } else if (isa<MmaFOp, MmaIOp, MmaFScaledOp>(op)) {
    collectMmaFrame(op, frame);
  } else if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    ArrayRef<int64_t> from = broadcast.getSrc().getType().getShape();
    ArrayRef<int64_t> to = broadcast.getResult().getType().getShape();
    SmallVector<int64_t> dims;
    for (size_t d = 0; d < from.size(); ++d)
      dims.push_back(from[d] == to[d] ? int64_t(d) : kWhole);
    frame.add(broadcast.getSrc(), &op->getOpOperand(0), dims);
    frame.addSame(broadcast.getResult(), nullptr);
  } else if (auto permute = dyn_cast<PermuteOp>(op)) {
    SmallVector<int64_t> dims(permute.getPermutation().size());
    for (auto [to, from] : llvm::enumerate(permute.getPermutation()))
      dims[from] = to;
    frame.add(permute.getSrc(), &op->getOpOperand(0), dims);
    frame.addSame(permute.getResult(), nullptr);
  } else if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    collectReshapeFrame(reshape, frame);
  } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
    int64_t axis = reduce.getAxis();
    for (OpOperand &operand : op->getOpOperands())
      frame.addSame(operand.get(), &operand);
    for (Value result : reduce.getResults())
      if (isTensor(result)) {
        SmallVector<int64_t> dims;
        for (int64_t d = 0; d < Frame::getRank(result); ++d)
          dims.push_back(d < axis ? d : d + 1);
        frame.add(result, nullptr, dims);
      }
    frame.fixed.push_back({axis, "reduces along the split dimension"});
  } else if (auto scan = dyn_cast<ScanOp>(op)) {
    addAllSame();
    frame.fixed.push_back({int64_t(scan.getAxis()), "scans along the split dimension"});
  } else {
    addAllSame();
    frame.opaque = true;
  }
  frames.push_back(std::move(frame));
}

