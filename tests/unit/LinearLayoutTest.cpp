//===- LinearLayoutTest.cpp - Units of tile_as::LinearLayout ---------------===//
#include "tilepipe/Dialect/TileAS/IR/LinearLayout.h"

#include <gtest/gtest.h>

using namespace tilepipe::tile_as;
using llvm::StringRef;

namespace {

/// `expected` unwrapped; a failure reports its message.
LinearLayout unwrap(llvm::Expected<LinearLayout> expected) {
  if (!expected) {
    ADD_FAILURE() << llvm::toString(expected.takeError());
    return LinearLayout();
  }
  return std::move(*expected);
}

/// The message of a failed `expected` ("" when it succeeded).
std::string failure(llvm::Expected<LinearLayout> expected) {
  if (expected)
    return "";
  return llvm::toString(expected.takeError());
}

/// The m16n8 accumulator fragment of one warp as explicit bases: register
/// bit 0 -> column + 1, bit 1 -> row + 8; lane bits 0-1 -> columns 2, 4,
/// bits 2-4 -> rows 1, 2, 4 (outputs dim0 = row, dim1 = column).
LinearLayout accumulator() {
  return unwrap(LinearLayout::get(
      {{"register", {{0, 1}, {8, 0}}}, {"lane", {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}}},
      {{"dim0", 16}, {"dim1", 8}}));
}

TEST(LinearLayout, GetRejectsMalformedInput) {
  EXPECT_NE(failure(LinearLayout::get({}, {{"x", 6}})).find("not a power of two"),
            std::string::npos);
  EXPECT_NE(failure(LinearLayout::get({}, {{"x", 4}, {"x", 4}})).find("repeats"),
            std::string::npos);
  EXPECT_NE(failure(LinearLayout::get({{"a", {}}, {"a", {}}}, {{"x", 4}})).find("repeats"),
            std::string::npos);
  EXPECT_NE(failure(LinearLayout::get({{"a", {{1, 2}}}}, {{"x", 4}})).find("coordinates"),
            std::string::npos);
  EXPECT_NE(failure(LinearLayout::get({{"a", {{4}}}}, {{"x", 4}})).find("size 4"),
            std::string::npos);
  EXPECT_NE(failure(LinearLayout::get({{"a", {{-1}}}}, {{"x", 4}})).find("is -1"),
            std::string::npos);
  EXPECT_NE(failure(LinearLayout::get({}, {{"x", 1 << 30}, {"y", 1 << 30}, {"z", 16}}))
                .find("over 62"),
            std::string::npos);
  EXPECT_EQ(failure(LinearLayout::get({{"a", {{3}}}}, {{"x", 4}})), "");
}

TEST(LinearLayout, ApplyXorsTheBasesOfSetBits) {
  LinearLayout layout = accumulator();
  // Lane 5 (group 1, thread 1), register 3: row 1 + 8, column 2 + 1.
  EXPECT_EQ(layout.apply({3, 5}), (llvm::SmallVector<int32_t>{9, 3}));
  EXPECT_EQ(layout.apply({0, 0}), (llvm::SmallVector<int32_t>{0, 0}));
  // Inputs wrap modulo their size.
  EXPECT_EQ(layout.apply({4 + 1, 32}), layout.apply({1, 0}));
  auto named = layout.applyNamed({{"lane", 31}, {"warp", 3}});
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(named[0], (std::pair<std::string, int32_t>("dim0", 7)));
  EXPECT_EQ(named[1], (std::pair<std::string, int32_t>("dim1", 6)));
  // Sizes and bases.
  EXPECT_EQ(layout.getInDimSize("lane"), 32);
  EXPECT_EQ(layout.getInDimSize("warp"), 1);
  EXPECT_EQ(layout.getOutDimSize("dim0"), 16);
  EXPECT_EQ(layout.getTotalInBits(), 7u);
  EXPECT_EQ(layout.getTotalOutBits(), 7u);
  EXPECT_EQ(layout.getBasis("register", 1, "dim0"), 8);
  EXPECT_EQ(layout.getBasis("register", 1, "dim9"), 0);
}

TEST(LinearLayout, IdentityZerosAndStrided) {
  LinearLayout id = LinearLayout::identity1D(8, "offset", "x");
  for (int32_t x = 0; x < 8; ++x)
    EXPECT_EQ(id.apply({x})[0], x);
  LinearLayout zeros = LinearLayout::zeros1D(4, "lane", "x", 8);
  EXPECT_EQ(zeros.apply({3})[0], 0);
  EXPECT_EQ(zeros.getOutDimSize("x"), 8);
  // Strides wrap modulo the output size (a layout wider than the tensor).
  LinearLayout strided = LinearLayout::strided1D({2, 4, 8}, "register", "x", 8);
  EXPECT_EQ(strided.apply({7})[0], 6);
}

TEST(LinearLayout, ProductNestsTheOuterAboveTheInner) {
  // 2 registers along x, then 4 lanes along x: lane l register r -> 2l + r.
  LinearLayout inner = LinearLayout::identity1D(2, "register", "x");
  LinearLayout outer = LinearLayout::identity1D(4, "lane", "x");
  LinearLayout product = inner * outer;
  EXPECT_EQ(product.getOutDimSize("x"), 8);
  for (int32_t lane = 0; lane < 4; ++lane)
    for (int32_t reg = 0; reg < 2; ++reg)
      EXPECT_EQ(product.apply({reg, lane})[0], 2 * lane + reg);
  // A shared input dimension: the outer's bits above the inner's.
  LinearLayout rows = LinearLayout::identity1D(2, "register", "y");
  LinearLayout twoD = inner * rows;
  EXPECT_EQ(twoD.getInDimSize("register"), 4);
  EXPECT_EQ(twoD.apply({3}), (llvm::SmallVector<int32_t>{1, 1}));
  EXPECT_EQ(twoD.apply({2}), (llvm::SmallVector<int32_t>{0, 1}));
  // The empty layout is the unit.
  EXPECT_EQ(LinearLayout() * inner, inner);
  EXPECT_EQ(inner * LinearLayout(), inner);
}

TEST(LinearLayout, ConcatInsAndOuts) {
  LinearLayout regs = LinearLayout::identity1D(4, "register", "x");
  LinearLayout lanes = LinearLayout::strided1D({1, 2}, "lane", "x", 4);
  LinearLayout both = unwrap(regs.concatIns(lanes));
  EXPECT_EQ(both.apply({1, 3})[0], 2); // 1 ^ 3
  EXPECT_NE(failure(regs.concatIns(regs)).find("in both"), std::string::npos);
  EXPECT_NE(failure(regs.concatIns(LinearLayout::identity1D(8, "lane", "x"))).find("sizes"),
            std::string::npos);
  EXPECT_NE(failure(regs.concatIns(LinearLayout::identity1D(4, "lane", "y"))).find("same output"),
            std::string::npos);

  LinearLayout xy = unwrap(regs.concatOuts(LinearLayout::zeros1D(4, "register", "y", 2)));
  EXPECT_EQ(xy.getOutDimNames(), (llvm::SmallVector<StringRef>{"x", "y"}));
  EXPECT_EQ(xy.apply({3}), (llvm::SmallVector<int32_t>{3, 0}));
  EXPECT_NE(failure(regs.concatOuts(regs)).find("in both"), std::string::npos);
  EXPECT_NE(failure(regs.concatOuts(LinearLayout::identity1D(4, "lane", "y"))).find("same input"),
            std::string::npos);
  EXPECT_NE(failure(regs.concatOuts(LinearLayout::identity1D(8, "register", "y"))).find("sizes"),
            std::string::npos);
}

TEST(LinearLayout, ComposeAppliesTheOuterAfter) {
  // offset -> (row, col), then (row, col) -> the XOR swizzle of col by row.
  LinearLayout rowCol = unwrap(LinearLayout::get(
      {{"offset", {{0, 1}, {0, 2}, {1, 0}, {2, 0}}}}, {{"row", 4}, {"col", 4}}));
  LinearLayout swizzle = unwrap(LinearLayout::get(
      {{"row", {{1, 1}, {2, 2}}}, {"col", {{0, 1}, {0, 2}}}}, {{"r", 4}, {"c", 4}}));
  LinearLayout composed = unwrap(rowCol.compose(swizzle));
  for (int32_t offset = 0; offset < 16; ++offset) {
    int32_t row = offset >> 2, col = offset & 3;
    EXPECT_EQ(composed.apply({offset}), (llvm::SmallVector<int32_t>{row, col ^ row}));
  }
  EXPECT_NE(failure(rowCol.compose(LinearLayout::identity1D(4, "row", "r"))).find("outputs feed"),
            std::string::npos);
  LinearLayout small = unwrap(
      LinearLayout::get({{"row", {{1}}}, {"col", {{1}, {2}}}}, {{"r", 4}}));
  EXPECT_NE(failure(rowCol.compose(small)).find("exceeds"), std::string::npos);
  LinearLayout other = unwrap(
      LinearLayout::get({{"row", {{1}, {2}}}, {"k", {{1}, {2}}}}, {{"r", 4}}));
  EXPECT_NE(failure(rowCol.compose(other)).find("no input"), std::string::npos);
}

TEST(LinearLayout, InvertABijection) {
  LinearLayout layout = accumulator();
  EXPECT_TRUE(layout.isInvertible());
  LinearLayout inverse = unwrap(layout.invert());
  EXPECT_EQ(inverse.getInDimNames(), (llvm::SmallVector<StringRef>{"dim0", "dim1"}));
  EXPECT_EQ(inverse.getOutDimNames(), (llvm::SmallVector<StringRef>{"register", "lane"}));
  for (int32_t reg = 0; reg < 4; ++reg)
    for (int32_t lane = 0; lane < 32; ++lane) {
      llvm::SmallVector<int32_t> coords = layout.apply({reg, lane});
      EXPECT_EQ(inverse.apply(coords), (llvm::SmallVector<int32_t>{reg, lane}));
    }
  // Inverting twice gives the layout back.
  EXPECT_EQ(unwrap(inverse.invert()), layout);
}

TEST(LinearLayout, InvertRejectsNonBijections) {
  // A broadcast (zero basis): not injective.
  LinearLayout copies = unwrap(LinearLayout::identity1D(4, "register", "x")
                                   .concatIns(LinearLayout::zeros1D(2, "lane", "x", 4)));
  EXPECT_FALSE(copies.isInjective());
  EXPECT_TRUE(copies.isSurjective());
  EXPECT_NE(failure(copies.invert()).find("not bijective"), std::string::npos);
  // Too few inputs: not surjective.
  LinearLayout half = LinearLayout::strided1D({2}, "register", "x", 4);
  EXPECT_FALSE(half.isSurjective());
  EXPECT_NE(failure(half.invert()).find("not bijective"), std::string::npos);
  EXPECT_NE(failure(half.pseudoinvert()).find("not surjective"), std::string::npos);
  // Square but singular.
  LinearLayout singular = LinearLayout::strided1D({1, 1}, "register", "x", 4);
  EXPECT_NE(failure(singular.invert()).find("not bijective"), std::string::npos);
}

TEST(LinearLayout, PseudoinversePrefersEarlyInputs) {
  // Registers and lanes both reach x bit 0; the inverse takes the register.
  LinearLayout layout = unwrap(LinearLayout::get(
      {{"register", {{1}}}, {"lane", {{1}, {2}}}}, {{"x", 4}}));
  LinearLayout inverse = unwrap(layout.pseudoinvert());
  EXPECT_EQ(inverse.apply({1}), (llvm::SmallVector<int32_t>{1, 0}));
  EXPECT_EQ(inverse.apply({2}), (llvm::SmallVector<int32_t>{0, 2}));
  for (int32_t x = 0; x < 4; ++x)
    EXPECT_EQ(layout.apply(inverse.apply({x})), (llvm::SmallVector<int32_t>{x}));
}

TEST(LinearLayout, InvertAndComposeFindsTheSameElement) {
  // Where, in the accumulator, does (register, lane) of a transposed-lane
  // layout find its element? outer(C(x)) must equal this(x).
  LinearLayout acc = accumulator();
  LinearLayout other = unwrap(LinearLayout::get(
      {{"register", {{8, 0}, {0, 1}}}, {"lane", {{1, 0}, {2, 0}, {4, 0}, {0, 2}, {0, 4}}}},
      {{"dim0", 16}, {"dim1", 8}}));
  LinearLayout c = unwrap(other.invertAndCompose(acc));
  for (int32_t reg = 0; reg < 4; ++reg)
    for (int32_t lane = 0; lane < 32; ++lane)
      EXPECT_EQ(acc.apply(c.apply({reg, lane})), other.apply({reg, lane}));
  // An element the outer layout does not hold.
  LinearLayout half = unwrap(LinearLayout::get({{"register", {{0, 1}}}, {"lane", {}}},
                                               {{"dim0", 16}, {"dim1", 8}}));
  EXPECT_EQ(failure(half.invertAndCompose(acc)), "");
  EXPECT_NE(failure(acc.invertAndCompose(half)).find("is no image"), std::string::npos);
  EXPECT_NE(failure(acc.invertAndCompose(LinearLayout::identity1D(16, "register", "dim0")))
                .find("same output"),
            std::string::npos);
}

TEST(LinearLayout, SublayoutQueries) {
  LinearLayout acc = accumulator();
  LinearLayout lanes = acc.sublayout({"lane"}, {"dim0"});
  EXPECT_EQ(lanes.getInDimNames(), (llvm::SmallVector<StringRef>{"lane"}));
  EXPECT_EQ(lanes.apply({31})[0], 7);
  EXPECT_TRUE(acc.sublayoutIsZero({"register"}, {}));
  EXPECT_FALSE(acc.sublayoutIsZero({"register"}, {"dim0"}));
  EXPECT_TRUE(acc.sublayoutIsZero({"warp"}, {"dim0", "dim1"}));
  // The lane part of a layout with different registers is the same.
  LinearLayout swapped = unwrap(LinearLayout::get(
      {{"register", {{8, 0}, {0, 1}}}, {"lane", {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}}},
      {{"dim0", 16}, {"dim1", 8}}));
  EXPECT_TRUE(acc.sameSublayout(swapped, {"lane"}));
  EXPECT_TRUE(acc.sameSublayout(swapped, {"warp"}));
  EXPECT_FALSE(acc.sameSublayout(swapped, {"register"}));
  EXPECT_FALSE(acc.sameSublayout(unwrap(acc.transposeOuts({"dim1", "dim0"})), {"lane"}));
}

TEST(LinearLayout, FlattenAndTranspose) {
  LinearLayout acc = accumulator();
  LinearLayout flat = acc.flattenOuts("offset");
  EXPECT_EQ(flat.getOutDimSize("offset"), 128);
  // dim0 is the low field: offset = row + 16 * column.
  for (int32_t reg = 0; reg < 4; ++reg)
    for (int32_t lane = 0; lane < 32; ++lane) {
      llvm::SmallVector<int32_t> coords = acc.apply({reg, lane});
      EXPECT_EQ(flat.apply({reg, lane})[0], coords[0] + 16 * coords[1]);
    }
  LinearLayout thread = acc.flattenIns("thread");
  EXPECT_EQ(thread.getInDimSize("thread"), 128);
  EXPECT_EQ(thread.apply({1 + 4 * 3}), acc.apply({1, 3}));
  LinearLayout transposed = unwrap(acc.transposeOuts({"dim1", "dim0"}));
  EXPECT_EQ(transposed.apply({3, 5}), (llvm::SmallVector<int32_t>{3, 9}));
  EXPECT_NE(failure(acc.transposeOuts({"dim1"})).find("permutation"), std::string::npos);
  EXPECT_NE(failure(acc.transposeOuts({"dim1", "dim1"})).find("permutation"), std::string::npos);
  EXPECT_NE(failure(acc.transposeOuts({"dim1", "x"})).find("permutation"), std::string::npos);
}

TEST(LinearLayout, EqualityAndPrinting) {
  EXPECT_EQ(accumulator(), accumulator());
  EXPECT_NE(accumulator(), unwrap(accumulator().transposeOuts({"dim1", "dim0"})));
  EXPECT_NE(LinearLayout::identity1D(4, "a", "x"), LinearLayout::identity1D(4, "b", "x"));
  EXPECT_NE(LinearLayout::identity1D(4, "a", "x"), LinearLayout::zeros1D(4, "a", "x", 4));
  EXPECT_EQ(LinearLayout::strided1D({1, 2}, "register", "x", 4).toString(),
            "register: [[1], [2]] -> x: 4");
  std::string text;
  llvm::raw_string_ostream os(text);
  os << accumulator();
  EXPECT_EQ(text, "register: [[0, 1], [8, 0]], lane: [[0, 2], [0, 4], [1, 0], [2, 0], "
                  "[4, 0]] -> dim0: 16, dim1: 8");
}

} // namespace
