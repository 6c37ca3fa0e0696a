//===- TileASLayouts.cpp - Register mapping of tile_as layouts ------------===//
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileShapeChecks.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe::tile_as;

unsigned tilepipe::tile_as::getElementBytes(Type type) {
  if (isa<PtrType>(type))
    return 8;
  if (isa<FloatTF32Type>(type)) // stored as 32-bit f32
    return 4;
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

int64_t tilepipe::tile_as::getLayoutExtent(BlockedAttr layout, unsigned dim) {
  return int64_t(layout.getSizePerThread()[dim]) *
         layout.getThreadsPerWarp()[dim] * layout.getWarpsPerCTA()[dim];
}

unsigned tilepipe::tile_as::getWarpsInLayout(BlockedAttr layout) {
  unsigned numWarps = 1;
  for (unsigned warps : layout.getWarpsPerCTA())
    numWarps *= warps;
  return numWarps;
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

unsigned tilepipe::tile_as::getContiguousRegisters(BlockedAttr layout,
                                                  ArrayRef<int64_t> shape) {
  unsigned innermost = shape.size() - 1;
  SmallVector<int64_t> regs = getRegsPerDim(layout, shape);
  // Registers are numbered with the order's first dimension fastest
  // (linearizeRegister): a faster dimension of more than one register puts
  // its registers between the innermost dimension's.
  for (unsigned dim : layout.getOrder()) {
    if (dim == innermost)
      return layout.getSizePerThread()[innermost];
    if (regs[dim] != 1)
      return 1;
  }
  return 1;
}

unsigned tilepipe::tile_as::getRegisterRunDim(BlockedAttr layout, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> regs = getRegsPerDim(layout, shape);
  for (unsigned dim : layout.getOrder())
    if (regs[dim] > 1)
      return dim;
  return layout.getOrder().front();
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

/// Whether warpsM x warpsN warps tile the M x N accumulator in m16n8 blocks:
/// every warp holds whole 16-row fragments (pairs of its 8-row blocks); along
/// N the warps may also wrap around a narrow tile (replicated columns).
/// A warp covers `span` columns (8, or 16 with paired columns).
static bool tilesWithMma(ArrayRef<int64_t> shape, int64_t warpsM, int64_t warpsN,
                         int64_t span = 8) {
  int64_t m = shape[shape.size() - 2], n = shape[shape.size() - 1];
  return m % (16 * warpsM) == 0 && n % span == 0 &&
         (n % (span * warpsN) == 0 || (span * warpsN) % n == 0);
}

BlockedAttr tilepipe::tile_as::getMmaAccumulatorLayout(MLIRContext *context,
                                                       ArrayRef<int64_t> shape,
                                                       unsigned numWarps, bool pairedColumns) {
  unsigned rank = shape.size();
  if ((rank != 2 && rank != 3) || !llvm::isPowerOf2_32(numWarps))
    return {};
  const int64_t span = pairedColumns ? 16 : 8;
  // Per k step a warp loads one A fragment per 16 rows and one B fragment
  // per 8 columns it covers: the grid with the smallest warp tile perimeter
  // loads least.
  int64_t m = shape[rank - 2], n = shape[rank - 1];
  int64_t bestM = 0, bestCost = 0;
  for (int64_t warpsM = 1; warpsM <= numWarps; warpsM *= 2) {
    int64_t warpsN = numWarps / warpsM;
    if (!tilesWithMma(shape, warpsM, warpsN, span))
      continue;
    // Warps wrapping around a narrow N repeat others' work.
    int64_t cost = m / warpsM + n / std::min(warpsN, n / span);
    if (!bestM || cost < bestCost)
      bestM = warpsM, bestCost = cost;
  }
  if (!bestM)
    return {};
  SmallVector<unsigned> sizePerThread(rank, 1), threads(rank, 1), warps(rank, 1),
      order;
  sizePerThread[rank - 1] = span / 4;
  threads[rank - 2] = 8;
  threads[rank - 1] = 4;
  warps[rank - 2] = bestM;
  warps[rank - 1] = numWarps / bestM;
  for (int dim = rank - 1; dim >= 0; --dim)
    order.push_back(dim);
  return BlockedAttr::get(context, sizePerThread, threads, warps, order);
}

bool tilepipe::tile_as::isMmaAccumulatorLayout(BlockedAttr layout,
                                               ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  if (!layout || (rank != 2 && rank != 3))
    return false;
  for (unsigned dim = 0; dim + 2 < rank; ++dim)
    if (layout.getSizePerThread()[dim] != 1 || layout.getThreadsPerWarp()[dim] != 1 ||
        layout.getWarpsPerCTA()[dim] != 1)
      return false;
  for (unsigned i = 0; i < rank; ++i)
    if (layout.getOrder()[i] != rank - 1 - i)
      return false;
  unsigned columns = layout.getSizePerThread()[rank - 1];
  return layout.getSizePerThread()[rank - 2] == 1 && (columns == 2 || columns == 4) &&
         layout.getThreadsPerWarp()[rank - 2] == 8 &&
         layout.getThreadsPerWarp()[rank - 1] == 4 &&
         tilesWithMma(shape, layout.getWarpsPerCTA()[rank - 2],
                      layout.getWarpsPerCTA()[rank - 1], 4 * columns);
}

bool tilepipe::tile_as::hasPairedMmaColumns(BlockedAttr layout) {
  if (!layout || layout.getSizePerThread().size() < 2)
    return false;
  unsigned rank = layout.getSizePerThread().size();
  return layout.getSizePerThread()[rank - 1] == 4 && layout.getSizePerThread()[rank - 2] == 1 &&
         layout.getThreadsPerWarp()[rank - 1] == 4 && layout.getThreadsPerWarp()[rank - 2] == 8;
}

bool tilepipe::tile_as::stagesMmaSyncBTransposed(const MmaSyncForm &form, BlockedAttr acc) {
  // 16-bit B: ldmatrix .trans; tf32 B: one ld.shared.b32 per register.
  if (form.elementBytes == 2 || form.elementBytes == 4)
    return false;
  return !(form.elementBytes == 1 && hasPairedMmaColumns(acc));
}

/// The target the module around `op` names (tile_as.target), or null.
static StringAttr getTargetAttr(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  return module ? module->getAttrOfType<StringAttr>(TileASDialect::kTargetAttrName) : nullptr;
}

bool tilepipe::tile_as::targetsWgmma(Operation *op) {
  StringAttr target = getTargetAttr(op);
  // wgmma needs the arch-specific target; tilepipe-select-wgmma-target
  // restamps a plain sm_90 module sm_90a where a multiply gains from it.
  return target && target.getValue() == "sm_90a";
}

BlockedAttr tilepipe::tile_as::getWgmmaAccumulatorLayout(MLIRContext *context,
                                                         ArrayRef<int64_t> shape,
                                                         unsigned numWarps) {
  unsigned rank = shape.size();
  if ((rank != 2 && rank != 3) || numWarps % 4 != 0)
    return {};
  // Every warp holds whole 16-row wgmma slices and 8-column blocks; or,
  // in a 32-row tile of one warpgroup, half of one: the other half
  // multiplies padding rows, whose D registers the lowering drops
  // (getWgmmaStagedRows). (The padding doubles the accumulator registers, so
  // larger tiles of 8 rows per warp are left to mma.sync's warp grids.)
  int64_t m = shape[rank - 2], n = shape[rank - 1];
  bool halfSlices = numWarps == 4 && m == 8 * numWarps;
  if ((m % (16 * numWarps) != 0 && !halfSlices) || n % 8 != 0)
    return {};
  SmallVector<unsigned> sizePerThread(rank, 1), threads(rank, 1), warps(rank, 1), order;
  sizePerThread[rank - 1] = 2;
  threads[rank - 2] = 8;
  threads[rank - 1] = 4;
  warps[rank - 2] = numWarps;
  for (int dim = rank - 1; dim >= 0; --dim)
    order.push_back(dim);
  return BlockedAttr::get(context, sizePerThread, threads, warps, order);
}

bool tilepipe::tile_as::isWgmmaAccumulatorLayout(BlockedAttr layout, ArrayRef<int64_t> shape) {
  if (!layout || layout.getWarpsPerCTA().size() != shape.size())
    return false;
  return layout ==
         getWgmmaAccumulatorLayout(layout.getContext(), shape, getWarpsInLayout(layout));
}

int64_t tilepipe::tile_as::getWgmmaStagedRows(int64_t m, int64_t warpsM) {
  // Per warpgroup and row pair one 64-row block (16 rows per warp).
  return llvm::alignTo(m, 16 * warpsM);
}

unsigned tilepipe::tile_as::getTargetComputeCapability(Operation *op) {
  StringAttr target = getTargetAttr(op);
  if (!target)
    return 0;
  StringRef digits = target.getValue();
  if (!digits.consume_front("sm_"))
    return 0;
  unsigned capability = 0;
  digits = digits.take_while([](char c) { return llvm::isDigit(c); });
  return digits.getAsInteger(10, capability) ? 0 : capability;
}

bool tilepipe::tile_as::hasMmaSyncTensorMaps(Operation *op) {
  StringAttr target = getTargetAttr(op);
  unsigned capability = getTargetComputeCapability(op);
  return target && (capability == 120 || capability == 121) &&
         (target.getValue().ends_with("a") || target.getValue().ends_with("f"));
}

std::optional<MmaSyncForm> tilepipe::tile_as::getMmaSyncForm(Operation *op) {
  if (!isa<MmaFOp, MmaIOp, MmaFScaledOp>(op))
    return std::nullopt;
  auto lhs = cast<RankedTensorType>(op->getOperand(0).getType());
  Type a = lhs.getElementType();
  Type b = getElementTypeOrSelf(op->getOperand(1).getType());
  Type acc = getElementTypeOrSelf(op->getOperand(2).getType());
  int64_t k = lhs.getShape().back();
  std::optional<MmaSyncForm> form;
  if (isa<MmaFScaledOp>(op)) {
    // Block-scaled mma.sync (m16n8k32 kind::mxf8f6f4 for fp8, m16n8k64
    // kind::mxf4 / mxf4nvf4 for e2m1, staged a byte per element): the op
    // exists only for targets that have it, in the form its verifier checks.
    form = isa<Float4E2M1FNType>(a) ? MmaSyncForm{64, 1} : MmaSyncForm{32, 1};
  } else if (isa<MmaIOp>(op)) {
    if (a.isInteger(8) && b.isInteger(8) && acc.isInteger(32))
      form = MmaSyncForm{32, 1};
  } else {
    form = getMmaFSyncForm(a, b, acc, getTargetComputeCapability(op));
  }
  if (!form || k % form->k != 0)
    return std::nullopt;
  return form;
}

std::optional<MmaSyncForm> tilepipe::tile_as::getMmaFSyncForm(Type a, Type b, Type acc,
                                                              unsigned capability) {
  auto isFloat8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  if (a == b && (a.isF16() || a.isBF16()) && (acc.isF32() || acc.isF16()))
    return MmaSyncForm{16, 2};
  if (isa<FloatTF32Type>(a) && isa<FloatTF32Type>(b) && acc.isF32())
    return MmaSyncForm{8, 4};
  if (isFloat8(a) && isFloat8(b) && (acc.isF32() || acc.isF16()) && capability >= 89)
    return MmaSyncForm{32, 1};
  return std::nullopt;
}

bool tilepipe::tile_as::hasMmaSyncForm(MmaFOp op) {
  std::optional<MmaSyncForm> form = getMmaSyncForm(op);
  return form && form->elementBytes == 2;
}

bool tilepipe::tile_as::hasWgmmaKind(MmaFOp op) {
  // wgmma multiplies f16/bf16 (k16), tf32 (k8) and e4m3/e5m2 (k32) into f32
  // or f16: the mma.sync forms of mmaf, with K 32 bytes of elements.
  return getMmaSyncForm(op).has_value();
}

bool tilepipe::tile_as::hasWgmmaAccumulator(Operation *op, Type acc) {
  if (!targetsWgmma(op))
    return false;
  auto tensor = cast<RankedTensorType>(acc);
  auto layout = dyn_cast_or_null<BlockedAttr>(tensor.getEncoding());
  return layout && isWgmmaAccumulatorLayout(layout, tensor.getShape());
}

bool tilepipe::tile_as::hasWgmmaForm(MmaFOp op) {
  return hasWgmmaKind(op) && hasWgmmaAccumulator(op, op.getAcc().getType());
}

bool tilepipe::tile_as::targetsTcgen05(Operation *op) {
  StringAttr target = getTargetAttr(op);
  if (!target)
    return false;
  llvm::StringRef name = target.getValue();
  // Plain sm_100 takes it too (unlike sm_90 and wgmma): tcgen05 is the
  // tensor-core path these GPUs are built around, and tile-ptx then emits
  // the arch-specific target. The family targets have it as they are.
  for (llvm::StringRef base : {"sm_100", "sm_103", "sm_110"})
    if (name == base || name == (base + "a").str() || name == (base + "f").str())
      return true;
  return false;
}

/// Rows of D one cta_group::1 tcgen05.mma covers and the tensor-memory
/// lanes (rows) one warp may read; the rows of the tile that takes an
/// M = 64 multiply instead.
static constexpr int64_t kTcgen05Rows = 128, kTmemLanesPerWarp = 32, kHalfTcgen05Rows = 32;

BlockedAttr tilepipe::tile_as::getTcgen05AccumulatorLayout(MLIRContext *context,
                                                           ArrayRef<int64_t> shape,
                                                           unsigned numWarps) {
  unsigned rank = shape.size();
  if ((rank != 2 && rank != 3) || numWarps % 4 != 0)
    return {};
  int64_t m = shape[rank - 2], n = shape[rank - 1];
  // A 32-row tile of one warpgroup: one M = 64 multiply with A's rows
  // spread over its four 16-row slices (Tcgen05RowBlocks), read back with
  // tcgen05.ld.16x256b, whose registers are the wgmma D fragment's.
  if (m == kHalfTcgen05Rows && numWarps == 4)
    return getWgmmaAccumulatorLayout(context, shape, numWarps);
  int64_t warpsN = numWarps / 4;
  if (m % kTcgen05Rows != 0 || n % 16 != 0 || n % (8 * warpsN) != 0)
    return {};
  SmallVector<unsigned> sizePerThread(rank, 1), threads(rank, 1), warps(rank, 1), order;
  sizePerThread[rank - 1] = n / warpsN;
  threads[rank - 2] = kTmemLanesPerWarp;
  warps[rank - 2] = 4;
  warps[rank - 1] = warpsN;
  order.push_back(rank - 2);
  order.push_back(rank - 1);
  if (rank == 3)
    order.push_back(0);
  return BlockedAttr::get(context, sizePerThread, threads, warps, order);
}

bool tilepipe::tile_as::isTcgen05AccumulatorLayout(BlockedAttr layout,
                                                   ArrayRef<int64_t> shape) {
  if (!layout || layout.getWarpsPerCTA().empty())
    return false;
  return layout ==
         getTcgen05AccumulatorLayout(layout.getContext(), shape, getWarpsInLayout(layout));
}

bool tilepipe::tile_as::hasTcgen05Accumulator(Operation *op, Type acc) {
  if (!targetsTcgen05(op))
    return false;
  auto tensor = cast<RankedTensorType>(acc);
  auto layout = dyn_cast_or_null<BlockedAttr>(tensor.getEncoding());
  return layout && isTcgen05AccumulatorLayout(layout, tensor.getShape());
}

int64_t tilepipe::tile_as::getTcgen05ScaleColumns(int64_t batch, int64_t m, int64_t n,
                                                  int64_t k, int64_t block) {
  constexpr int64_t kBlocksPerWord = 4;
  int64_t words = llvm::divideCeil(k / block, kBlocksPerWord);
  int64_t aColumns = words * kTcgen05Rows / kTmemLanesPerWarp;
  int64_t bColumns = words * llvm::divideCeil(n, kTmemLanesPerWarp);
  return batch * (m / kTcgen05Rows * aColumns + bColumns);
}

int64_t tilepipe::tile_as::getTcgen05TmemColumns(ArrayRef<int64_t> acc, int64_t k,
                                                 int64_t scaleBlock) {
  size_t rank = acc.size();
  int64_t batch = rank == 3 ? acc[0] : 1, m = acc[rank - 2], n = acc[rank - 1];
  int64_t columns = batch * llvm::divideCeil(m, kTcgen05Rows) * n;
  return scaleBlock ? columns + getTcgen05ScaleColumns(batch, m, n, k, scaleBlock) : columns;
}

std::string tilepipe::tile_as::describeTcgen05BlockScale(Operation *mma) {
  bool fp4 = isa<Float4E2M1FNType>(getElementTypeOrSelf(mma->getOperand(0).getType()));
  int64_t block = getTcgen05ScaleBlock(mma);
  if (!fp4)
    return "kind::mxf8f6f4.block_scale (scale_vec::1X: one ue8m0 scale per row and k step of 32)";
  if (block == kScaledMmaBlock)
    return "kind::mxf4.block_scale (scale_vec::2X: two ue8m0 scales per row and k step of 64, "
           "e2m1 packed in shared memory)";
  return "kind::mxf4nvf4.block_scale.block16 (scale_vec::4X: four ue4m3 scales per row and k "
         "step of 64, e2m1 packed in shared memory)";
}

int64_t tilepipe::tile_as::getTcgen05ScaleBlock(Operation *mma) {
  auto scaled = dyn_cast<MmaFScaledOp>(mma);
  if (!scaled)
    return 0;
  return getScaledMmaBlock(getElementTypeOrSelf(scaled.getLhs().getType()),
                           getElementTypeOrSelf(scaled.getLhsScale().getType()));
}

bool tilepipe::tile_as::hasTcgen05Kind(MmaFOp op) {
  // The mma.sync forms of mmaf are kind::f16 (f16/bf16), kind::tf32 and
  // kind::f8f6f4 (e4m3/e5m2) multiplies, with an f32 (or f16) accumulator.
  return getMmaSyncForm(op) && targetsTcgen05(op);
}

bool tilepipe::tile_as::hasTcgen05Form(MmaFOp op) {
  return hasTcgen05Kind(op) && hasTcgen05Accumulator(op, op.getAcc().getType());
}

BlockedAttr tilepipe::tile_as::permuteLayout(BlockedAttr layout,
                                            ArrayRef<int32_t> permutation) {
  unsigned rank = permutation.size();
  SmallVector<unsigned> size(rank), threads(rank), warps(rank), order, resultDim(rank);
  for (auto [i, d] : llvm::enumerate(permutation)) {
    size[i] = layout.getSizePerThread()[d];
    threads[i] = layout.getThreadsPerWarp()[d];
    warps[i] = layout.getWarpsPerCTA()[d];
    resultDim[d] = i;
  }
  // The same dimensions fastest first, under their result numbers.
  for (unsigned d : layout.getOrder())
    order.push_back(resultDim[d]);
  return BlockedAttr::get(layout.getContext(), size, threads, warps, order);
}

BlockedAttr tilepipe::tile_as::dropLeadingUnitDims(BlockedAttr layout, unsigned count) {
  unsigned rank = layout.getOrder().size();
  for (unsigned d = 0; d < count; ++d)
    if (layout.getSizePerThread()[d] != 1 || layout.getThreadsPerWarp()[d] != 1 ||
        layout.getWarpsPerCTA()[d] != 1 || layout.getOrder()[rank - 1 - d] != d)
      return nullptr;
  SmallVector<unsigned> order;
  for (unsigned d : layout.getOrder().drop_back(count))
    order.push_back(d - count);
  return BlockedAttr::get(layout.getContext(), layout.getSizePerThread().drop_front(count),
                          layout.getThreadsPerWarp().drop_front(count),
                          layout.getWarpsPerCTA().drop_front(count), order);
}

BlockedAttr tilepipe::tile_as::addLeadingUnitDims(BlockedAttr layout, unsigned count) {
  SmallVector<unsigned> ones(count, 1);
  auto prefixed = [&](ArrayRef<unsigned> values) {
    SmallVector<unsigned> result(ones);
    llvm::append_range(result, values);
    return result;
  };
  SmallVector<unsigned> order;
  for (unsigned d : layout.getOrder())
    order.push_back(d + count);
  for (unsigned d = count; d-- > 0;)
    order.push_back(d);
  return BlockedAttr::get(layout.getContext(), prefixed(layout.getSizePerThread()),
                          prefixed(layout.getThreadsPerWarp()),
                          prefixed(layout.getWarpsPerCTA()), order);
}
