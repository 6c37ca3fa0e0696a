//===- TileASLinearLayoutsTest.cpp - The lowering's layouts as linear maps -===//
//
// Each linear layout against what the lowering computes today: a blocked
// layout against the coordinates RegisterEmitter emits for every thread
// and register (evaluating the emitted LLVM dialect ops), the swizzled
// shared-memory layouts against SwizzledArray::slot, the mma.sync
// fragments against the PTX ISA's formulas, and ldmatrix against the way
// MmaSyncToLLVM.cpp assembles fragments from it.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/TileASLinearLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/LayoutConversion.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"
#include "tilepipe/Dialect/TileAS/IR/TmaStoreStaging.h"

#include "RegisterEmitter.h"
#include "SwizzledStaging.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

using namespace mlir;
using namespace tilepipe::tile_as;

namespace tilepipe::tile_as {
/// GoogleTest prints layouts in failed comparisons this way.
void PrintTo(const LinearLayout &layout, std::ostream *os) { *os << layout.toString(); }
} // namespace tilepipe::tile_as

namespace {

/// Evaluates the i32 index arithmetic the lowering emits (constants, the
/// thread id and integer ops) for one thread.
struct Evaluator {
  uint32_t tid = 0;
  llvm::DenseMap<Value, uint32_t> known;

  uint32_t operator()(Value value) {
    if (auto it = known.find(value); it != known.end())
      return it->second;
    Operation *op = value.getDefiningOp();
    uint32_t result = 0;
    if (auto constant = dyn_cast<LLVM::ConstantOp>(op)) {
      result = uint32_t(cast<IntegerAttr>(constant.getValue()).getInt());
    } else if (isa<NVVM::ThreadIdXOp>(op)) {
      result = tid;
    } else {
      uint32_t a = (*this)(op->getOperand(0)), b = (*this)(op->getOperand(1));
      if (isa<LLVM::AddOp>(op))
        result = a + b;
      else if (isa<LLVM::SubOp>(op))
        result = a - b;
      else if (isa<LLVM::MulOp>(op))
        result = a * b;
      else if (isa<LLVM::UDivOp>(op))
        result = a / b;
      else if (isa<LLVM::URemOp>(op))
        result = a % b;
      else if (isa<LLVM::XOrOp>(op))
        result = a ^ b;
      else if (isa<LLVM::AndOp>(op))
        result = a & b;
      else if (isa<LLVM::ShlOp>(op))
        result = a << b;
      else if (isa<LLVM::LShrOp>(op))
        result = a >> b;
      else
        ADD_FAILURE() << "cannot evaluate " << op->getName().getStringRef().str();
    }
    known[value] = result;
    return result;
  }
};

class TileASLinearLayouts : public ::testing::Test {
protected:
  TileASLinearLayouts() : builder(&context) {
    context.loadDialect<TileASDialect, LLVM::LLVMDialect, NVVM::NVVMDialect>();
    module = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// Every register of every thread of `layout` on `shape` (numWarps
  /// warps) holds what the linear layout says.
  void checkBlocked(BlockedAttr layout, ArrayRef<int64_t> shape, unsigned numWarps) {
    std::optional<LinearLayout> linear = toLinearLayout(layout, shape, numWarps);
    ASSERT_TRUE(linear.has_value());
    ASSERT_EQ(linear->getInDimSize(kRegisterDim), getElemsPerThread(layout, shape));
    ASSERT_EQ(linear->getInDimSize(kWarpDim), int32_t(numWarps));
    RegisterEmitter e(builder, builder.getUnknownLoc());
    SmallVector<SmallVector<Value>> coords;
    for (unsigned dim = 0; dim < shape.size(); ++dim)
      coords.push_back(e.coordinates(layout, shape, dim));
    for (uint32_t tid = 0; tid < 32 * numWarps; ++tid) {
      Evaluator eval;
      eval.tid = tid;
      for (int32_t reg = 0, n = linear->getInDimSize(kRegisterDim); reg < n; ++reg) {
        SmallVector<int32_t> expected;
        for (auto &dimCoords : coords)
          expected.push_back(int32_t(eval(dimCoords[reg])));
        ASSERT_EQ(linear->apply({reg, int32_t(tid % 32), int32_t(tid / 32)}), expected)
            << "register " << reg << " of thread " << tid << " in " << linear->toString();
      }
    }
  }

  MLIRContext context;
  OpBuilder builder;
  OwningOpRef<ModuleOp> module;
};

TEST_F(TileASLinearLayouts, BlockedMatchesTheEmittedCoordinates) {
  std::mt19937 random(8);
  auto pick = [&](unsigned bound) { return unsigned(random() % bound); };
  // Splits 2^log2 over `rank` dimensions at random.
  auto split = [&](unsigned log2, unsigned rank) {
    SmallVector<unsigned> parts(rank, 1);
    for (unsigned bit = 0; bit < log2; ++bit)
      parts[pick(rank)] *= 2;
    return parts;
  };
  for (unsigned round = 0; round < 120; ++round) {
    unsigned rank = 1 + pick(3);
    unsigned warpsLog2 = pick(4);
    SmallVector<unsigned> sizePerThread = split(pick(4), rank);
    // Fewer than 32 threads per warp sometimes: the upper lanes copy.
    SmallVector<unsigned> threads = split(pick(4) ? 5 : 4, rank);
    // Fewer warps than the CTA has sometimes: the upper warps copy.
    SmallVector<unsigned> warps = split(warpsLog2 - (warpsLog2 && !pick(3)), rank);
    SmallVector<unsigned> order;
    for (unsigned dim = 0; dim < rank; ++dim)
      order.push_back(dim);
    std::shuffle(order.begin(), order.end(), random);
    SmallVector<int64_t> shape;
    for (unsigned dim = 0; dim < rank; ++dim)
      shape.push_back(int64_t(1) << pick(7 - rank));
    auto layout = BlockedAttr::get(&context, sizePerThread, threads, warps, order);
    SCOPED_TRACE(::testing::Message() << "round " << round);
    checkBlocked(layout, shape, 1u << warpsLog2);
  }
}

TEST_F(TileASLinearLayouts, LayoutsTheLoweringAssigns) {
  SmallVector<SmallVector<int64_t>> shapes = {{64, 64}, {2, 32, 16}, {128}};
  for (unsigned numWarps : {1u, 2u, 4u, 8u})
    for (ArrayRef<int64_t> shape : shapes) {
      checkBlocked(getDefaultBlockedLayout(&context, shape, 4, numWarps), shape, numWarps);
      if (BlockedAttr acc = getMmaAccumulatorLayout(&context, shape, numWarps))
        checkBlocked(acc, shape, numWarps);
    }
}

TEST_F(TileASLinearLayouts, BlockedNeedsPowersOfTwo) {
  auto layout = BlockedAttr::get(&context, {1, 2}, {8, 4}, {2, 2}, {1, 0});
  EXPECT_FALSE(toLinearLayout(layout, {48, 64}, 4).has_value());
  EXPECT_FALSE(toLinearLayout(layout, {64, 64}, 3).has_value());
  EXPECT_FALSE(toLinearLayout(layout, {64, 64}, 2).has_value()); // the layout takes 4 warps
  EXPECT_FALSE(toLinearLayout(layout, {64}, 4).has_value());     // rank mismatch
  EXPECT_TRUE(toLinearLayout(layout, {64, 64}, 8).has_value());
}

/// Random power-of-two blocked layouts of rank 2 or 3 with their shapes.
struct RandomBlocked {
  std::mt19937 random{21};
  unsigned pick(unsigned bound) { return unsigned(random() % bound); }
  SmallVector<unsigned> split(unsigned log2, unsigned rank) {
    SmallVector<unsigned> parts(rank, 1);
    for (unsigned bit = 0; bit < log2; ++bit)
      parts[pick(rank)] *= 2;
    return parts;
  }
  std::pair<BlockedAttr, SmallVector<int64_t>> next(MLIRContext &context, unsigned warpsLog2) {
    unsigned rank = 2 + pick(2);
    SmallVector<unsigned> order;
    for (unsigned dim = 0; dim < rank; ++dim)
      order.push_back(dim);
    std::shuffle(order.begin(), order.end(), random);
    SmallVector<int64_t> shape;
    for (unsigned dim = 0; dim < rank; ++dim)
      shape.push_back(int64_t(1) << (2 + pick(4)));
    auto layout = BlockedAttr::get(&context, split(pick(5), rank), split(5, rank),
                                   split(warpsLog2, rank), order);
    return {layout, shape};
  }
};

// A permute between a layout and permuteLayout of it moves no data (the
// lowering passes the registers through): every thread and register holds,
// at result coordinate i, the source's coordinate permutation[i].
TEST_F(TileASLinearLayouts, PermutedLayoutKeepsEveryElementInPlace) {
  RandomBlocked gen;
  for (unsigned round = 0; round < 60; ++round) {
    auto [layout, shape] = gen.next(context, 2);
    unsigned rank = shape.size();
    SmallVector<int32_t> permutation;
    for (unsigned dim = 0; dim < rank; ++dim)
      permutation.push_back(dim);
    std::shuffle(permutation.begin(), permutation.end(), gen.random);
    SmallVector<int64_t> permutedShape;
    for (int32_t d : permutation)
      permutedShape.push_back(shape[d]);
    BlockedAttr permuted = permuteLayout(layout, permutation);
    std::optional<LinearLayout> from = toLinearLayout(layout, shape, 4);
    std::optional<LinearLayout> to = toLinearLayout(permuted, permutedShape, 4);
    ASSERT_TRUE(from && to);
    ASSERT_EQ(from->getInDimSize(kRegisterDim), to->getInDimSize(kRegisterDim));
    for (int32_t reg = 0, n = from->getInDimSize(kRegisterDim); reg < n; ++reg)
      for (int32_t lane = 0; lane < 32; ++lane)
        for (int32_t warp = 0; warp < 4; ++warp) {
          SmallVector<int32_t> source = from->apply({reg, lane, warp});
          SmallVector<int32_t> result = to->apply({reg, lane, warp});
          for (auto [i, d] : llvm::enumerate(permutation))
            ASSERT_EQ(result[i], source[d]) << "round " << round << ", register " << reg;
        }
  }
}

// A reshape adding leading unit dimensions between a layout and
// addLeadingUnitDims of it moves no data: every thread and register holds
// the same element (coordinate 0 in the new dimensions), and
// dropLeadingUnitDims gives the layout back.
TEST_F(TileASLinearLayouts, AddedLeadingUnitDimsKeepEveryElementInPlace) {
  RandomBlocked gen;
  for (unsigned round = 0; round < 40; ++round) {
    auto [layout, shape] = gen.next(context, 2);
    unsigned added = 1 + round % 2;
    SmallVector<int64_t> expandedShape(added, 1);
    llvm::append_range(expandedShape, shape);
    BlockedAttr expanded = addLeadingUnitDims(layout, added);
    EXPECT_EQ(dropLeadingUnitDims(expanded, added), layout);
    std::optional<LinearLayout> from = toLinearLayout(layout, shape, 4);
    std::optional<LinearLayout> to = toLinearLayout(expanded, expandedShape, 4);
    ASSERT_TRUE(from && to);
    ASSERT_EQ(from->getInDimSize(kRegisterDim), to->getInDimSize(kRegisterDim));
    for (int32_t reg = 0, n = from->getInDimSize(kRegisterDim); reg < n; ++reg)
      for (int32_t lane = 0; lane < 32; ++lane)
        for (int32_t warp = 0; warp < 4; ++warp) {
          SmallVector<int32_t> source = from->apply({reg, lane, warp});
          SmallVector<int32_t> result = to->apply({reg, lane, warp});
          for (unsigned d = 0; d < added; ++d)
            ASSERT_EQ(result[d], 0) << "round " << round;
          for (auto [i, coordinate] : llvm::enumerate(source))
            ASSERT_EQ(result[added + i], coordinate) << "round " << round << ", register " << reg;
        }
  }
}

// getContiguousRegisters (the vector width of loads and stores, counted
// along the innermost dimension): each run of that many registers holds
// adjacent elements along the innermost dimension, also where another
// dimension comes first in the order but holds one register per thread
// (the tcgen05 accumulator layout, whose rows of columns were stored one
// element at a time before).
TEST_F(TileASLinearLayouts, ContiguousRegistersRunAlongTheInnermostDimension) {
  RandomBlocked gen;
  for (unsigned round = 0; round < 80; ++round) {
    auto [layout, shape] = gen.next(context, 2);
    unsigned innermost = shape.size() - 1;
    int64_t run = getContiguousRegisters(layout, shape);
    std::optional<LinearLayout> linear = toLinearLayout(layout, shape, 4);
    ASSERT_TRUE(linear);
    int32_t regs = linear->getInDimSize(kRegisterDim);
    ASSERT_EQ(regs % run, 0);
    for (int32_t first = 0; first < regs; first += run) {
      SmallVector<int32_t> start = linear->apply({first, 0, 0});
      for (int32_t j = 1; j < run; ++j) {
        SmallVector<int32_t> expected = start;
        expected[innermost] = (start[innermost] + j) % shape[innermost];
        ASSERT_EQ(linear->apply({first + j, 0, 0}), expected) << "round " << round;
      }
    }
  }
  BlockedAttr tcgen05 = getTcgen05AccumulatorLayout(&context, {128, 256}, 8);
  EXPECT_EQ(getContiguousRegisters(tcgen05, {128, 256}), 128u);
}

TEST_F(TileASLinearLayouts, MmaAccumulatorLayoutIsTheFragment) {
  BlockedAttr acc = getMmaAccumulatorLayout(&context, {16, 8}, 1);
  std::optional<LinearLayout> linear = toLinearLayout(acc, {16, 8});
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->sublayout({kRegisterDim, kLaneDim}),
            getMmaSyncFragmentLayout(MmaOperand::Accumulator, 2));
}

/// The PTX ISA's fragment formulas ("Matrix Fragments for mma.m16n8k16 /
/// m16n8k8 / m16n8k32"), written out per element as the ISA states them.
std::pair<int32_t, int32_t> isaFragment(MmaOperand operand, unsigned bytes, int32_t i,
                                        int32_t lane) {
  int32_t group = lane >> 2, tig = lane % 4;
  switch (bytes) {
  case 2: // m16n8k16 .f16/.bf16
    if (operand == MmaOperand::A)
      return {group + ((i < 2 || (i >= 4 && i < 6)) ? 0 : 8), tig * 2 + (i & 1) + (i < 4 ? 0 : 8)};
    if (operand == MmaOperand::B)
      return {tig * 2 + (i & 1) + (i < 2 ? 0 : 8), group};
    break;
  case 4: // m16n8k8 .tf32
    if (operand == MmaOperand::A)
      return {group + ((i == 0 || i == 2) ? 0 : 8), tig + (i < 2 ? 0 : 4)};
    if (operand == MmaOperand::B)
      return {tig + (i == 0 ? 0 : 4), group};
    break;
  case 1: // m16n8k32 .s8/.u8/.e4m3/.e5m2
    if (operand == MmaOperand::A)
      return {group + ((i < 4 || (i >= 8 && i < 12)) ? 0 : 8),
              tig * 4 + (i & 3) + (i < 8 ? 0 : 16)};
    if (operand == MmaOperand::B)
      return {tig * 4 + (i & 3) + (i < 4 ? 0 : 16), group};
    break;
  }
  // The accumulator (every kind): c0, c1 row groupID, c2, c3 row + 8.
  return {group + (i < 2 ? 0 : 8), tig * 2 + (i & 1)};
}

TEST(TileASLinearLayoutsMma, FragmentsFollowThePtxIsa) {
  for (unsigned bytes : {1u, 2u, 4u})
    for (MmaOperand operand : {MmaOperand::A, MmaOperand::B, MmaOperand::Accumulator}) {
      LinearLayout layout = getMmaSyncFragmentLayout(operand, bytes);
      EXPECT_TRUE(layout.isInvertible()) << layout.toString();
      int32_t k = 32 / bytes;
      int32_t registers = operand == MmaOperand::A   ? 16 * k / 32
                          : operand == MmaOperand::B ? 8 * k / 32
                                                     : 4;
      ASSERT_EQ(layout.getInDimSize(kRegisterDim), registers);
      for (int32_t i = 0; i < registers; ++i)
        for (int32_t lane = 0; lane < 32; ++lane) {
          auto [row, column] = isaFragment(operand, bytes, i, lane);
          EXPECT_EQ(layout.apply({i, lane}), (SmallVector<int32_t>{row, column}))
              << "element " << i << " lane " << lane << " bytes " << bytes;
        }
    }
}

/// (row, column, matrix) -> (row, k) of a 16-row fragment: matrix j holds
/// rows 8 (j % 2) on and columns 8 (j / 2) on (ldmatrix.x4 of A in
/// MmaSyncToLLVM.cpp); with `kOnly`, matrix j is k 8j on (B's x2.trans).
LinearLayout placeMatrices(bool kOnly) {
  using Bases = SmallVector<SmallVector<int32_t>>;
  Bases rows = {{1, 0}, {2, 0}, {4, 0}}, columns = {{0, 1}, {0, 2}, {0, 4}};
  Bases matrices = kOnly ? Bases{{8, 0}} : Bases{{8, 0}, {0, 8}};
  return cantFail(LinearLayout::get(
      {{"dim0", rows}, {"dim1", columns}, {"matrix", matrices}},
      {{"dim0", 16}, {"dim1", kOnly ? 8 : 16}}));
}

TEST(TileASLinearLayoutsMma, LdmatrixBuildsTheF16Fragments) {
  // ldmatrix.x4 of A's four 8x8 matrices is the A fragment.
  LinearLayout a = cantFail(getLdmatrixLayout(4, false).compose(placeMatrices(false)));
  EXPECT_EQ(a, getMmaSyncFragmentLayout(MmaOperand::A, 2));
  // ldmatrix.x2.trans of B's two 8x8 (k x n) matrices is the B fragment.
  LinearLayout b = cantFail(getLdmatrixLayout(2, true).compose(placeMatrices(true)));
  EXPECT_EQ(b, getMmaSyncFragmentLayout(MmaOperand::B, 2));
  // The addresses: lane l names row (l % 8) + 8 ((l / 8) % 2) and k
  // 8 (l / 16) of the fragment, MmaSyncToLLVM's aLaneRow and aLaneK.
  LinearLayout lanes = cantFail(
      getLdmatrixAddressLayout(4).concatOuts(LinearLayout::zeros1D(32, "lane", "dim1", 8)));
  lanes = cantFail(lanes.transposeOuts({"dim0", "dim1", "matrix"}));
  LinearLayout addressed = cantFail(lanes.compose(placeMatrices(false)));
  for (int32_t lane = 0; lane < 32; ++lane)
    EXPECT_EQ(addressed.apply({lane}),
              (SmallVector<int32_t>{(lane & 7) + 8 * ((lane >> 3) & 1), 8 * (lane >> 4)}));
  // x1 and x2 leave the upper lanes' addresses unused.
  EXPECT_EQ(getLdmatrixAddressLayout(2).apply({31}), (SmallVector<int32_t>{7, 1}));
  EXPECT_EQ(getLdmatrixAddressLayout(1).apply({31}), (SmallVector<int32_t>{7, 0}));
}

TEST_F(TileASLinearLayouts, SwizzledLayoutsMatchTheStagingAddresses) {
  RegisterEmitter e(builder, builder.getUnknownLoc());
  IndexMath m{e};
  unsigned checked = 0;
  for (int64_t rows : {8, 16, 64})
    for (unsigned bytes : {1u, 2u, 4u})
      for (int64_t extentBytes : {32, 64, 128, 256}) {
        int64_t extent = extentBytes / bytes;
        SwizzledArray array(rows, extent, bytes);
        std::optional<LinearLayout> layout =
            getSwizzledSharedLayout(rows, extent, bytes, array.width);
        ASSERT_TRUE(layout) << rows << "x" << extent;
        ASSERT_EQ(layout->getInDimSize(kOffsetDim), rows * extent);
        Evaluator eval;
        for (int32_t row = 0; row < rows; ++row)
          for (int32_t column = 0; column < extent; ++column) {
            int32_t slot = int32_t(eval(array.slot(m, e.i32(row), e.i32(column))));
            ASSERT_EQ(layout->apply({slot}), (SmallVector<int32_t>{row, column}))
                << "slot " << slot << " of " << rows << "x" << extent << " (" << bytes
                << " bytes, width " << array.width << ")";
          }
        ++checked;
      }
  EXPECT_EQ(checked, 36u);
  // Fewer rows than an atom, or a partial block: not a bijection.
  EXPECT_FALSE(getSwizzledSharedLayout(4, 64, 2, 128).has_value());
  EXPECT_FALSE(getSwizzledSharedLayout(8, 48, 2, 128).has_value());
  EXPECT_FALSE(getSwizzledSharedLayout(8, 16, 2, 64).has_value());
  EXPECT_FALSE(getSwizzledSharedLayout(8, 64, 2, 48).has_value());
}

/// Every result location gets its element from where `plan` says.
void checkPlan(const LinearLayout &from, const LinearLayout &to,
               const LayoutConversionPlan &plan) {
  ASSERT_NE(plan.kind, LayoutConversionPlan::Kind::SharedMemory);
  bool shuffles = plan.kind == LayoutConversionPlan::Kind::WarpShuffles;
  for (int32_t warp = 0; warp < to.getInDimSize(kWarpDim); ++warp)
    for (int32_t lane = 0; lane < 32; ++lane) {
      int32_t sourceLane = lane;
      if (shuffles) {
        sourceLane = 0;
        for (auto [bit, basis] : llvm::enumerate(plan.laneBases))
          if (lane >> bit & 1)
            sourceLane ^= basis;
      }
      for (int32_t reg = 0; reg < to.getInDimSize(kRegisterDim); ++reg) {
        int32_t fromLane = shuffles ? sourceLane ^ plan.laneOffset[reg] : lane;
        ASSERT_EQ(from.apply({plan.sourceRegister[reg], fromLane, warp}),
                  to.apply({reg, lane, warp}))
            << "register " << reg << " lane " << lane << " warp " << warp;
      }
    }
}

TEST_F(TileASLinearLayouts, PlansConversionsByWhatMoves) {
  auto plan = [&](BlockedAttr from, BlockedAttr to, ArrayRef<int64_t> shape) {
    std::optional<LinearLayout> a = toLinearLayout(from, shape, 4);
    std::optional<LinearLayout> b = toLinearLayout(to, shape, 4);
    EXPECT_TRUE(a && b);
    LayoutConversionPlan result = planLayoutConversion(*a, *b);
    if (result.kind != LayoutConversionPlan::Kind::SharedMemory)
      checkPlan(*a, *b, result);
    return result.kind;
  };
  using Kind = LayoutConversionPlan::Kind;
  // Register order only (convert_registers.mlir).
  EXPECT_EQ(plan(BlockedAttr::get(&context, {1, 1}, {1, 32}, {4, 1}, {1, 0}),
                 BlockedAttr::get(&context, {1, 1}, {1, 32}, {4, 1}, {0, 1}), {8, 64}),
            Kind::Registers);
  // Lanes permuted within each warp (convert_shuffle.mlir).
  EXPECT_EQ(plan(BlockedAttr::get(&context, {1, 1}, {8, 4}, {4, 1}, {1, 0}),
                 BlockedAttr::get(&context, {1, 1}, {8, 4}, {4, 1}, {0, 1}), {64, 8}),
            Kind::WarpShuffles);
  // Warps along different dimensions (convert_layout.mlir).
  EXPECT_EQ(plan(BlockedAttr::get(&context, {1, 4}, {2, 16}, {4, 1}, {1, 0}),
                 BlockedAttr::get(&context, {2, 1}, {4, 8}, {1, 4}, {0, 1}), {8, 64}),
            Kind::SharedMemory);
  // A transpose within the warp: the register a lane needs depends on the
  // lane, which one shuffle per register cannot give.
  EXPECT_EQ(plan(BlockedAttr::get(&context, {1, 4}, {8, 4}, {4, 1}, {1, 0}),
                 BlockedAttr::get(&context, {1, 1}, {8, 4}, {4, 1}, {1, 0}), {32, 16}),
            Kind::SharedMemory);
}

TEST_F(TileASLinearLayouts, EveryPlanMovesEveryElement) {
  // Random pairs of layouts of one shape: whatever the plan, it is right.
  std::mt19937 random(21);
  auto pick = [&](unsigned bound) { return unsigned(random() % bound); };
  auto split = [&](unsigned log2) {
    SmallVector<unsigned> parts(2, 1);
    for (unsigned bit = 0; bit < log2; ++bit)
      parts[pick(2)] *= 2;
    return parts;
  };
  auto layout = [&]() {
    SmallVector<unsigned> order = {0, 1};
    if (pick(2))
      std::swap(order[0], order[1]);
    return BlockedAttr::get(&context, split(pick(3)), split(5), split(pick(3)), order);
  };
  unsigned planned[3] = {0, 0, 0};
  for (unsigned round = 0; round < 400; ++round) {
    SmallVector<int64_t> shape = {int64_t(1) << (1 + pick(5)), int64_t(1) << (1 + pick(5))};
    BlockedAttr from = layout(), to = layout();
    std::optional<LinearLayout> a = toLinearLayout(from, shape, 4);
    std::optional<LinearLayout> b = toLinearLayout(to, shape, 4);
    ASSERT_TRUE(a && b);
    LayoutConversionPlan result = planLayoutConversion(*a, *b);
    ++planned[unsigned(result.kind)];
    if (result.kind != LayoutConversionPlan::Kind::SharedMemory) {
      SCOPED_TRACE(::testing::Message() << "round " << round);
      checkPlan(*a, *b, result);
    }
  }
  // The sample reaches every kind.
  EXPECT_GT(planned[0], 0u);
  EXPECT_GT(planned[1], 0u);
  EXPECT_GT(planned[2], 0u);
}

/// Replays of each register's warp-0 request counted lane by lane, with
/// accesses of `unitBytes` (4, 8 or 16) per lane served 128 bytes a phase:
/// the most distinct units any bank group serves in one phase.
unsigned simulateReplays(const LinearLayout &layout, const LinearLayout &slots,
                         unsigned elementBytes, unsigned unitBytes) {
  LinearLayout placed = cantFail(layout.compose(slots));
  unsigned worst = 0, phaseLanes = 128 / unitBytes;
  for (int32_t reg = 0; reg < placed.getInDimSize(kRegisterDim); ++reg)
    for (unsigned phase = 0; phase < 32 / phaseLanes; ++phase) {
      std::map<int32_t, std::set<int32_t>> unitsOfGroup;
      for (int32_t lane = phase * phaseLanes; lane < int32_t((phase + 1) * phaseLanes); ++lane) {
        int32_t unit = placed.apply({reg, lane, 0})[0] * int32_t(elementBytes) / unitBytes;
        unitsOfGroup[unit % phaseLanes].insert(unit);
      }
      for (auto &[group, units] : unitsOfGroup)
        worst = std::max<unsigned>(worst, units.size());
    }
  return worst;
}

TEST_F(TileASLinearLayouts, ExchangeSlotsAvoidBankConflicts) {
  // convert_layout.mlir: rows of 64 i32 written by 16 lanes a row, four
  // adjacent elements a thread (one 16-byte store), read by columns.
  // Row-major slots conflict 4-way on the loads; the swizzled ones do
  // not, and keep each thread's four elements adjacent.
  LinearLayout from = *toLinearLayout(
      BlockedAttr::get(&context, {1, 4}, {2, 16}, {4, 1}, {1, 0}), {8, 64}, 4);
  LinearLayout to = *toLinearLayout(
      BlockedAttr::get(&context, {2, 1}, {4, 8}, {1, 4}, {0, 1}), {8, 64}, 4);
  LinearLayout rowMajor = rowMajorSlotLayout(from);
  for (int32_t row = 0; row < 8; ++row)
    for (int32_t column = 0; column < 64; ++column)
      ASSERT_EQ(rowMajor.apply({row, column})[0], row * 64 + column);
  EXPECT_EQ(countBankReplays(from, rowMajor, 4), 1u);
  EXPECT_EQ(simulateReplays(from, rowMajor, 4, 16), 1u);
  EXPECT_EQ(countBankReplays(to, rowMajor, 4), 4u);
  EXPECT_EQ(simulateReplays(to, rowMajor, 4, 4), 4u);
  std::optional<LinearLayout> slots = exchangeSlotLayout(from, to, 4);
  ASSERT_TRUE(slots.has_value());
  EXPECT_TRUE(slots->isInvertible());
  EXPECT_EQ(countBankReplays(from, *slots, 4), 1u);
  EXPECT_EQ(countBankReplays(to, *slots, 4), 1u);
  EXPECT_EQ(simulateReplays(from, *slots, 4, 16), 1u);
  EXPECT_EQ(simulateReplays(to, *slots, 4, 4), 1u);
  for (int32_t column = 0; column < 64; column += 4)
    for (int32_t i = 1; i < 4; ++i)
      EXPECT_EQ(slots->apply({5, column + i})[0], slots->apply({5, column})[0] + i);
  // 8-byte elements keep row-major slots.
  EXPECT_FALSE(exchangeSlotLayout(from, to, 8).has_value());
}

TEST_F(TileASLinearLayouts, ExchangeSlotsNeverConflictMore) {
  // Random pairs of 2-d layouts and element sizes: the slots are a
  // bijection onto the elements, the replay count matches a lane-by-lane
  // count (scalar accesses), and a swizzle is only chosen where it does
  // better than row-major.
  std::mt19937 random(5);
  auto pick = [&](unsigned bound) { return unsigned(random() % bound); };
  auto split = [&](unsigned log2) {
    SmallVector<unsigned> parts(2, 1);
    for (unsigned bit = 0; bit < log2; ++bit)
      parts[pick(2)] *= 2;
    return parts;
  };
  auto layout = [&]() {
    SmallVector<unsigned> order = {0, 1};
    if (pick(2))
      std::swap(order[0], order[1]);
    return BlockedAttr::get(&context, split(pick(3)), split(5), split(2), order);
  };
  unsigned swizzled = 0;
  for (unsigned round = 0; round < 200; ++round) {
    SCOPED_TRACE(::testing::Message() << "round " << round);
    SmallVector<int64_t> shape = {int64_t(1) << (2 + pick(5)), int64_t(1) << (2 + pick(5))};
    LinearLayout from = *toLinearLayout(layout(), shape, 4);
    LinearLayout to = *toLinearLayout(layout(), shape, 4);
    unsigned bytes = 1u << pick(3);
    LinearLayout rowMajor = rowMajorSlotLayout(from);
    std::optional<LinearLayout> slots = exchangeSlotLayout(from, to, bytes);
    if (bytes == 4) {
      for (const LinearLayout &side : {from, to}) {
        if (side.getInDimSize(kRegisterDim) == 1) {
          ASSERT_EQ(countBankReplays(side, rowMajor, bytes),
                    simulateReplays(side, rowMajor, bytes, 4));
        }
      }
    }
    if (!slots)
      continue;
    ++swizzled;
    ASSERT_TRUE(slots->isInvertible()) << slots->toString();
    ASSERT_EQ(slots->getOutDimSize(kOffsetDim), shape[0] * shape[1]);
    EXPECT_LT(countBankReplays(from, *slots, bytes) + countBankReplays(to, *slots, bytes),
              countBankReplays(from, rowMajor, bytes) + countBankReplays(to, rowMajor, bytes));
  }
  EXPECT_GT(swizzled, 0u);
}

} // namespace

// tilepipe-pipeline-mma-loops sizes the TMA ring with the IR-level
// getSwizzledChunkBytes; the lowering lays the slots out as one
// SwizzledStaging buffer each. They must agree, or the ring the pass chose
// would not fit at lowering.
TEST(SwizzledStaging, TmaRingSlotBytesMatchTheLowering) {
  using namespace tilepipe::tile_as;
  for (auto [m, n] : {std::pair<int64_t, int64_t>{128, 256}, {64, 128}, {128, 64}, {256, 128}})
    for (int64_t chunk : {16, 32, 48, 64}) {
      MmaShape s;
      s.m = m;
      s.n = n;
      s.k = chunk;
      EXPECT_EQ(SwizzledStaging(s, chunk, 2).bufferBytes, getSwizzledChunkBytes(m, n, chunk, 2))
          << m << "x" << n << " chunk " << chunk;
    }
  // MatMul's 128x256 tile: 4 KiB of A and 8 KiB of B per 16-deep chunk.
  EXPECT_EQ(getSwizzledChunkBytes(128, 256, 16, 2), 12288u);
}

/// stmatrix.sync.aligned.m8n8.x<count> as the plan drives it (the PTX ISA,
/// "Warp-level matrix store instruction: stmatrix"): lane (g, t) hands over
/// register pair count * q + j as matrix j of instruction q, whose row g
/// lane 8j + g names; elements (g, 2t) and (g, 2t + 1) go to columns 2t and
/// 2t + 1 of that row. Every register of every thread must land where the
/// layout says it holds, in the chunk the instruction is issued for.
using RowColPair = std::pair<int64_t, int64_t>;

void checkStmatrix(BlockedAttr layout, ArrayRef<int64_t> shape, int64_t chunkCols,
                   int64_t count) {
  std::string why;
  std::optional<StmatrixStores> stores = StmatrixStores::get(layout, shape, chunkCols, why);
  ASSERT_TRUE(stores) << why;
  EXPECT_EQ(stores->count, count);
  std::optional<LinearLayout> linear = toLinearLayout(layout, shape);
  ASSERT_TRUE(linear);
  ASSERT_EQ(2 * stores->count * stores->groups, linear->getInDimSize(kRegisterDim));
  unsigned rank = shape.size();
  // The (row, column) a lane names before the instruction's offset, as the
  // lowering computes it (XOR of the bases of the lane's and warp's bits).
  auto named = [&](int32_t lane, int32_t warp) {
    StmatrixStores::RowCol at{0, 0};
    for (auto [bases, id] : {std::pair{ArrayRef(stores->laneBases), lane},
                             std::pair{ArrayRef(stores->warpBases), warp}})
      for (auto [bit, basis] : llvm::enumerate(bases))
        if (id >> bit & 1)
          at = {at[0] ^ basis[0], at[1] ^ basis[1]};
    return at;
  };
  for (int32_t warp = 0; warp < linear->getInDimSize(kWarpDim); ++warp)
    for (int64_t q = 0; q < stores->groups; ++q) {
      StmatrixStores::RowCol offset = stores->groupOffset(q);
      for (int32_t lane = 0; lane < 32; ++lane)
        for (int64_t j = 0; j < stores->count; ++j)
          for (int32_t half = 0; half < 2; ++half) {
            int32_t reg = int32_t(2 * (stores->count * q + j) + half);
            SmallVector<int32_t> holds = linear->apply({reg, lane, warp});
            StmatrixStores::RowCol row = named(int32_t(8 * j + lane / 4), warp);
            int64_t r = row[0] + offset[0], c = row[1] + offset[1] + 2 * (lane % 4) + half;
            ASSERT_EQ(RowColPair(r, c), RowColPair(holds[rank - 2], holds[rank - 1]))
                << "register " << reg << " lane " << lane << " warp " << warp;
            ASSERT_EQ(c / chunkCols, offset[1] / chunkCols) << "instruction " << q;
            for (unsigned d = 0; d + 2 < rank; ++d)
              ASSERT_EQ(holds[d], 0);
          }
    }
}

// The accumulator layouts hold stmatrix's fragments: wgmma's (warps along
// M) at the shapes TMA stores (x4; one or two warpgroups; column chunks of
// 128), the mma.sync one (warps along N too), a leading unit dimension;
// fewer register pairs give x2 and x1.
TEST_F(TileASLinearLayouts, StmatrixStoresTheAccumulatorFragments) {
  for (auto [m, n, warps, chunk] :
       {std::array<int64_t, 4>{64, 16, 4, 16}, {64, 32, 4, 32}, {128, 128, 4, 128},
        {128, 256, 8, 128}, {256, 128, 8, 64}, {64, 512, 4, 128}}) {
    SCOPED_TRACE(::testing::Message() << m << "x" << n << ", " << warps << " warps");
    checkStmatrix(getWgmmaAccumulatorLayout(&context, {m, n}, warps), {m, n}, chunk, 4);
    checkStmatrix(getMmaAccumulatorLayout(&context, {m, n}, warps), {m, n}, chunk, 4);
  }
  checkStmatrix(getWgmmaAccumulatorLayout(&context, {1, 64, 64}, 4), {1, 64, 64}, 64, 4);
  checkStmatrix(getWgmmaAccumulatorLayout(&context, {64, 8}, 4), {64, 8}, 8, 2);
  checkStmatrix(BlockedAttr::get(&context, {1, 2}, {8, 4}, {1, 1}, {1, 0}), {8, 8}, 8, 1);
}

// Other layouts keep st.shared, and say why.
TEST_F(TileASLinearLayouts, StmatrixNeedsItsFragments) {
  auto why = [&](BlockedAttr layout, ArrayRef<int64_t> shape, int64_t chunkCols) {
    std::string reason;
    EXPECT_FALSE(StmatrixStores::get(layout, shape, chunkCols, reason));
    return reason;
  };
  // 8 adjacent columns per thread: lanes step 8 columns.
  EXPECT_EQ(why(getDefaultBlockedLayout(&context, {64, 64}, 8, 4), {64, 64}, 64),
            "four lanes do not share a row of 8 columns (stmatrix's fragment)");
  EXPECT_EQ(why(getDefaultBlockedLayout(&context, {64, 64}, 1, 4), {64, 64}, 64),
            "its threads hold no pairs of adjacent columns");
  // The paired-column mma.sync accumulator: four adjacent columns a lane.
  EXPECT_EQ(why(getMmaAccumulatorLayout(&context, {64, 64}, 4, true), {64, 64}, 64),
            "four lanes do not share a row of 8 columns (stmatrix's fragment)");
  EXPECT_EQ(why(getWgmmaAccumulatorLayout(&context, {192, 64}, 4), {192, 64}, 64),
            "its layout is no linear layout (a dimension is no power of two)");
  // Lanes 0-1 step 2 and 4 columns, but lanes 2-4 step 8 columns and rows
  // only after them: the matrices of a warp span 32 columns, two chunks of 16.
  EXPECT_EQ(why(BlockedAttr::get(&context, {1, 2}, {1, 32}, {4, 1}, {1, 0}), {64, 64}, 16),
            "a warp's matrices straddle the chunks of 16 columns");
}

// The tcgen05.ld accumulator layout holds a run of a row per thread: with
// 8 warps (or N above 128 with 4) a thread's columns are whole 128-column
// chunks of the TMA store (threadChunks), and TmaStoreToLLVM stores its
// register chunk i in the tile's chunk (its first column / 128) + i. Every
// register of every thread must land in that chunk.
TEST_F(TileASLinearLayouts, TmaStoreChunksOfTheTcgen05Accumulator) {
  for (auto [m, n, warps] : {std::array<int64_t, 3>{128, 256, 8}, {128, 256, 4},
                             {128, 512, 8}, {128, 512, 4}, {256, 256, 8}}) {
    SCOPED_TRACE(::testing::Message() << m << "x" << n << ", " << warps << " warps");
    BlockedAttr layout = getTcgen05AccumulatorLayout(&context, {m, n}, warps);
    ASSERT_TRUE(layout);
    std::string why;
    std::optional<TmaStoreChunks> chunks = TmaStoreChunks::get(
        m, n, getLayoutExtent(layout, 1), layout.getSizePerThread()[1], why);
    ASSERT_TRUE(chunks) << why;
    EXPECT_TRUE(chunks->threadChunks);
    std::optional<LinearLayout> linear = toLinearLayout(layout, {m, n});
    ASSERT_TRUE(linear);
    int64_t cols = chunks->chunkCols();
    for (int32_t warp = 0; warp < linear->getInDimSize(kWarpDim); ++warp)
      for (int32_t lane = 0; lane < 32; ++lane) {
        int64_t first = linear->apply({0, lane, warp})[1];
        ASSERT_EQ(first % cols, 0) << "lane " << lane << " warp " << warp;
        for (int32_t reg = 0; reg < linear->getInDimSize(kRegisterDim); ++reg) {
          int64_t regCol = getRegisterCoordinate(
              layout, 1, delinearizeRegister(layout, {m, n}, reg)[1]);
          ASSERT_EQ(linear->apply({reg, lane, warp})[1] / cols, first / cols + regCol / cols)
              << "register " << reg << " lane " << lane << " warp " << warp;
        }
      }
  }
  // A thread's 64 columns of a 256-column layout are no whole chunk of 128.
  std::string why;
  EXPECT_FALSE(TmaStoreChunks::get(128, 512, 256, 64, why));
  EXPECT_EQ(why, "its layout spans 256 columns, which do not divide a chunk of 128, and a "
                 "thread's 64 are no whole chunks");
}
