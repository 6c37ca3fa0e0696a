//===- LayoutConversion.cpp - Plan a change of register layout -------------===//
//
// See LayoutConversion.h. Both plans rest on the same question: for each
// location (register, lane) of the result, which location of the source
// holds the same element? invertAndCompose answers it as a linear map, so
// the answer for every register and lane is the XOR of the answers for
// their bits.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/LayoutConversion.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLinearLayouts.h"

#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace tilepipe::tile_as;

bool LayoutConversionPlan::lanesMapToThemselves() const {
  for (auto [bit, basis] : enumerate(laneBases))
    if (basis != int32_t(1) << bit)
      return false;
  return true;
}

/// The source location of each result location restricted to the inputs
/// `dims`, if the source's `dims` hold every element the result's do.
static std::optional<LinearLayout> findSources(const LinearLayout &from, const LinearLayout &to,
                                               ArrayRef<StringRef> dims) {
  Expected<LinearLayout> sources = to.sublayout(dims).invertAndCompose(from.sublayout(dims));
  if (!sources) {
    consumeError(sources.takeError());
    return std::nullopt;
  }
  return std::move(*sources);
}

LayoutConversionPlan tilepipe::tile_as::planLayoutConversion(const LinearLayout &from,
                                                             const LinearLayout &to) {
  LayoutConversionPlan plan;
  if (from.getOutDimNames() != to.getOutDimNames() ||
      from.getInDimSize(kLaneDim) != to.getInDimSize(kLaneDim) ||
      from.getInDimSize(kWarpDim) != to.getInDimSize(kWarpDim))
    return plan;
  int32_t registers = to.getInDimSize(kRegisterDim);
  // Same lanes and warps: each thread holds the same set of elements
  // (XOR-shifted by its lane and warp alike in both), so only registers
  // move if the source registers span the result's.
  if (from.sameSublayout(to, {kLaneDim, kWarpDim}))
    if (std::optional<LinearLayout> sources = findSources(from, to, {kRegisterDim})) {
      plan.kind = LayoutConversionPlan::Kind::Registers;
      for (int32_t reg = 0; reg < registers; ++reg)
        plan.sourceRegister.push_back(sources->apply({reg})[0]);
      return plan;
    }
  // Same warps: what a warp holds differs from the source only within the
  // warp. A shuffle sends one register per lane, so the source register
  // must not depend on the reading lane.
  if (!from.sameSublayout(to, {kWarpDim}))
    return plan;
  std::optional<LinearLayout> sources = findSources(from, to, {kRegisterDim, kLaneDim});
  if (!sources || !sources->sublayoutIsZero({kLaneDim}, {kRegisterDim}))
    return plan;
  plan.kind = LayoutConversionPlan::Kind::WarpShuffles;
  for (int32_t reg = 0; reg < registers; ++reg) {
    SmallVector<int32_t> source = sources->apply({reg, 0});
    plan.sourceRegister.push_back(source[0]);
    plan.laneOffset.push_back(source[1]);
  }
  for (unsigned bit = 0, e = sources->getInDimSizeLog2(kLaneDim); bit < e; ++bit)
    plan.laneBases.push_back(sources->getBasis(kLaneDim, bit, kLaneDim));
  return plan;
}

//===----------------------------------------------------------------------===//
// Shared-memory exchange slots
//===----------------------------------------------------------------------===//
//
// Shared memory serves a warp's request in phases: 32 lanes of 4-byte
// accesses at once, 16 lanes of 8 bytes, 8 lanes of 16; within a phase a
// unit (the bytes one lane accesses) takes a group of 128 / unit-bytes
// consecutive banks, and lanes conflict when they touch different units of
// one group. A thread's registers that are adjacent in the slots (a run
// along the last dimension, up to 16 bytes) are one vector access once LLVM
// merges them, so the unit of a side is that run (at least a 4-byte word).
// With linear layouts the units one phase touches for one register are a
// coset of the span U of its lanes' unit images, so the replays are
// 2^(rank U - rank group(U)), the same for every register and phase.
//
// Row-major slots put every lane image whose coordinates lie above the
// first 128 bytes in group 0 (a column of a row-major tile: 32-way). The
// swizzle XORs bits above the bank window into the group bits above both
// sides' units (so runs stay whole), which keeps the map a bijection (it
// only adds to lower bits) and each slot in range; it is chosen greedily
// bit by bit, each high bit taking the pattern that most lowers the
// stores' plus the loads' replays.

namespace {
constexpr unsigned kBankWindowBytes = 128, kWordBytes = 4, kMaxAccessBytes = 16;

/// The rank over F2 of `vectors`.
unsigned rankOf(SmallVector<uint64_t> vectors) {
  unsigned rank = 0;
  for (unsigned bit = 64; bit-- > 0;) {
    auto pivot = llvm::find_if(vectors, [&](uint64_t v) { return v >> bit & 1; });
    if (pivot == vectors.end())
      continue;
    uint64_t p = *pivot;
    *pivot = 0;
    for (uint64_t &v : vectors)
      if (v >> bit & 1)
        v ^= p;
    ++rank;
  }
  return rank;
}

/// The row-major slot of `coords` of `layout`'s outputs (coordinates as bit
/// fields, the last dimension least significant).
uint64_t rowMajor(const LinearLayout &layout, ArrayRef<int32_t> coords) {
  uint64_t slot = 0;
  for (auto [coord, out] : llvm::zip(coords, layout.getOutDims()))
    slot = slot * out.size | uint64_t(coord);
  return slot;
}

/// One side of the exchange: its lanes' slot images and log2 of the
/// elements of one lane's access (its run of adjacent slots, a word at
/// least).
struct Side {
  SmallVector<uint64_t> lanes;
  unsigned unitShift = 0;
};

/// `layout` under `slotOf` (tensor coordinates -> slot, linear).
Side makeSide(const LinearLayout &layout, unsigned elementBytes,
              function_ref<uint64_t(ArrayRef<int32_t>)> slotOf) {
  Side side;
  for (unsigned bit = 0, e = layout.getInDimSizeLog2(kLaneDim); bit < e; ++bit)
    side.lanes.push_back(slotOf(layout.getBasis(kLaneDim, bit)));
  // Register bit i continues the run when it lands on slot bit i.
  unsigned run = 0;
  while (run < layout.getInDimSizeLog2(kRegisterDim) &&
         (elementBytes << (run + 1)) <= kMaxAccessBytes &&
         slotOf(layout.getBasis(kRegisterDim, run)) == uint64_t(1) << run)
    ++run;
  side.unitShift = std::max(run, Log2_32(kWordBytes / std::min(elementBytes, kWordBytes)));
  return side;
}

/// Replays of one side's request whose lanes' slots are `lanes`.
unsigned replays(ArrayRef<uint64_t> lanes, unsigned unitShift, unsigned elementBytes) {
  unsigned unitBytes = elementBytes << unitShift;
  unsigned groupBits = Log2_32(kBankWindowBytes / unitBytes);
  SmallVector<uint64_t> units, groups;
  // One phase: the lanes below 2^groupBits.
  for (uint64_t slot : ArrayRef(lanes).take_front(groupBits)) {
    units.push_back(slot >> unitShift);
    groups.push_back(units.back() & ((uint64_t(1) << groupBits) - 1));
  }
  return 1u << (rankOf(units) - rankOf(groups));
}

/// `slot` with the patterns of its set high bits XORed in.
uint64_t swizzle(uint64_t slot, ArrayRef<uint64_t> patterns, unsigned firstHighBit) {
  for (auto [index, pattern] : llvm::enumerate(patterns))
    if (slot >> (firstHighBit + index) & 1)
      slot ^= pattern;
  return slot;
}
} // namespace

unsigned tilepipe::tile_as::countBankReplays(const LinearLayout &layout,
                                             const LinearLayout &slots,
                                             unsigned elementBytes) {
  Side side = makeSide(layout, elementBytes, [&](ArrayRef<int32_t> coords) {
    return uint64_t(slots.apply(coords)[0]);
  });
  return replays(side.lanes, side.unitShift, elementBytes);
}

std::optional<LinearLayout> tilepipe::tile_as::exchangeSlotLayout(const LinearLayout &from,
                                                                  const LinearLayout &to,
                                                                  unsigned elementBytes) {
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4)
    return std::nullopt;
  unsigned slotBits = from.getTotalOutBits();
  auto plain = [&](ArrayRef<int32_t> coords) { return rowMajor(from, coords); };
  Side stores = makeSide(from, elementBytes, plain), loads = makeSide(to, elementBytes, plain);
  // Patterns go to the bank-window bits above both sides' units; the bits
  // above the window are the ones that choose them.
  unsigned lowBit = std::max(stores.unitShift, loads.unitShift);
  unsigned firstHighBit = Log2_32(kBankWindowBytes / elementBytes);
  unsigned patternBits = firstHighBit > lowBit ? std::min(firstHighBit, slotBits) - lowBit : 0;
  if (slotBits <= firstHighBit || !patternBits)
    return std::nullopt;
  SmallVector<uint64_t> patterns;
  auto cost = [&]() {
    unsigned total = 0;
    for (const Side *side : {&stores, &loads}) {
      SmallVector<uint64_t> swizzled;
      for (uint64_t slot : side->lanes)
        swizzled.push_back(swizzle(slot, patterns, firstHighBit));
      total += replays(swizzled, side->unitShift, elementBytes);
    }
    return total;
  };
  unsigned plainCost = cost();
  for (unsigned bit = firstHighBit; bit < slotBits; ++bit) {
    uint64_t best = 0;
    patterns.push_back(0);
    unsigned bestCost = cost();
    for (uint64_t pattern = 1; pattern < (uint64_t(1) << patternBits); ++pattern) {
      patterns.back() = pattern << lowBit;
      if (unsigned c = cost(); c < bestCost)
        best = patterns.back(), bestCost = c;
    }
    patterns.back() = best;
  }
  if (cost() >= plainCost)
    return std::nullopt;
  // The slots as a layout: each coordinate bit's row-major slot, swizzled.
  SmallVector<LinearLayout::InDim> ins;
  uint64_t stride = uint64_t(1) << slotBits;
  for (const LinearLayout::OutDim &out : from.getOutDims()) {
    stride /= out.size;
    LinearLayout::InDim in{out.name, {}};
    for (uint64_t bit = 1; bit < uint64_t(out.size); bit <<= 1)
      in.bases.push_back({int32_t(swizzle(bit * stride, patterns, firstHighBit))});
    ins.push_back(std::move(in));
  }
  return cantFail(LinearLayout::get(ins, {{kOffsetDim.str(), int32_t(1) << slotBits}}));
}

LinearLayout tilepipe::tile_as::rowMajorSlotLayout(const LinearLayout &layout) {
  SmallVector<LinearLayout::InDim> ins;
  uint64_t stride = uint64_t(1) << layout.getTotalOutBits();
  for (const LinearLayout::OutDim &out : layout.getOutDims()) {
    stride /= out.size;
    LinearLayout::InDim in{out.name, {}};
    for (uint64_t bit = 1; bit < uint64_t(out.size); bit <<= 1)
      in.bases.push_back({int32_t(bit * stride)});
    ins.push_back(std::move(in));
  }
  return cantFail(LinearLayout::get(
      ins, {{kOffsetDim.str(), int32_t(1) << layout.getTotalOutBits()}}));
}
