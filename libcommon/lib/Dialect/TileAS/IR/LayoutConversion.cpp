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
