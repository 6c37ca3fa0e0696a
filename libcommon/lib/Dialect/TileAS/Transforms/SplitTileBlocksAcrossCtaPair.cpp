//===- SplitTileBlocksAcrossCtaPair.cpp - one tile block on two CTAs ------===//
//
// cuTile asks for clusters of two CTAs (num_cta_in_cga = 2) on sm_100
// matmuls, yet launches one block of blockDim (1,1,1) per tile block: under
// .blocksareclusters each of those blocks is a whole cluster, so both CTAs of
// the pair run the same tile block and the program must give each its half
// of the work. The tile program is still Triton-like here (iota, splat,
// elementwise arithmetic, loads and stores through tensors of pointers,
// multiplies, loops carrying tensors), so halving one dimension of the right
// tensors and offsetting the iotas that index it by the CTA's rank is the
// whole rewrite; finding the right tensors, and giving up cleanly where the
// program does something a half cannot do alone, is this file.
//
// Tensors are tied together by frames (CtaPairFrames.h).
// Tensors built from scalars alone (splats, splat constants, iotas and pure
// elementwise ops over them: the coordinates, offsets, pointers and masks of
// a tile's loads) tie nothing: every use that needs them split gets its own
// halved copy, so a coordinate that CSE shared between A (whole) and B
// (split) serves both.
//
//===----------------------------------------------------------------------===//
#include "CtaPairFrames.h"

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"
#include "tilepipe/Support/GpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tilepipe::tile_as {
#define GEN_PASS_DEF_SPLITTILEBLOCKSACROSSCTAPAIR
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h.inc"
} // namespace tilepipe::tile_as

using namespace mlir;
using namespace tilepipe::tile_as;
using namespace tilepipe::tile_as::cta_pair;

/// The smallest multiplies worth sharing: an M split halves a 256-row tile
/// into the 128 rows one tcgen05.mma takes (tried first: cuTile's 256x256
/// block-scaled tile split by N kept two 128-row MMAs per CTA and a 256x128
/// read-back, and ptxas spilled 244 bytes; by M, none); an N split keeps
/// M = 128 and halves N (128x256 becomes 128x128 per CTA).
static constexpr int64_t kMinSplitN = 128;
static constexpr int64_t kMinSplitM = 256;

namespace {
enum class Role { N, M };
} // namespace

static RankedTensorType halve(Type type, int64_t dim) {
  auto tensor = cast<RankedTensorType>(type);
  SmallVector<int64_t> shape(tensor.getShape());
  shape[dim] /= kPair;
  return tensor.clone(shape);
}

/// The kernel argument a tensor of pointers is offset from (through
/// addptr, splat and the shape ops), or null.
static Value getPointerRoot(Value ptrs) {
  while (Operation *def = ptrs.getDefiningOp()) {
    if (auto addPtr = dyn_cast<AddPtrOp>(def))
      ptrs = addPtr.getPtr();
    else if (isa<SplatOp, BroadcastOp, PermuteOp, ReshapeOp, ConvertLayoutOp>(def))
      ptrs = def->getOperand(0);
    else
      return {};
  }
  return isa<BlockArgument>(ptrs) && isa<func::FuncOp>(ptrs.getParentBlock()->getParentOp())
             ? ptrs
             : Value();
}

namespace {
/// Finds which tensors of a function a split halves, and halves them.
class PairSplit {
public:
  explicit PairSplit(func::FuncOp func) : func(func) {}

  /// Splits every multiply by `role` and spreads the split; fails, with
  /// getCulprit() and getReason() set, where the program cannot run halved.
  LogicalResult plan(Role role);
  /// Rewrites the function as planned.
  void apply();

  Operation *getCulprit() const { return culprit; }
  StringRef getReason() const { return reason; }
  /// The first multiply and the frame dimension it splits.
  std::pair<Operation *, int64_t> getFirstSplit() const { return firstSplit; }

private:
  LogicalResult fail(Operation *op, const Twine &why) {
    culprit = op;
    reason = why.str();
    return failure();
  }
  LogicalResult assign(Value value, int64_t state, Operation *by);
  FailureOr<std::optional<int64_t>> getFrameState(const Frame &frame);
  LogicalResult applyFrame(const Frame &frame, std::optional<int64_t> forced);
  LogicalResult visit(Value value);
  LogicalResult checkEffects();
  bool isBuilt(Value value);
  std::optional<int64_t> getOpState(Operation *op);
  Value getOffset(int64_t half, Type type);
  Value splitBuilt(Value value, int64_t dim);

  func::FuncOp func;
  /// kWhole, or the dimension a value is split along; leaves are not here.
  DenseMap<Value, int64_t> states;
  SmallVector<Value> worklist;
  Operation *culprit = nullptr;
  std::string reason;
  std::pair<Operation *, int64_t> firstSplit{nullptr, kWhole};
  Value rank;
  Operation *entryCursor = nullptr;
  DenseMap<std::pair<int64_t, Type>, Value> offsets;
  DenseMap<Value, bool> built;
  DenseMap<std::pair<Value, int64_t>, Value> copies;
};
} // namespace

/// Whether `value` is built from scalars alone: a leaf, or a pure
/// elementwise op over such tensors.
bool PairSplit::isBuilt(Value value) {
  auto known = built.find(value);
  if (known != built.end())
    return known->second;
  Operation *def = value.getDefiningOp();
  bool result = isLeaf(value) ||
                (def && isTensor(value) && def->getNumResults() == 1 &&
                 def->getNumRegions() == 0 && isElementwise(def) && isPure(def) &&
                 llvm::all_of(def->getOperands(),
                              [&](Value operand) { return !isTensor(operand) || isBuilt(operand); }));
  return built[value] = result;
}

/// The state of `op`'s (first) frame, nullopt where it has none or the
/// frame none known.
std::optional<int64_t> PairSplit::getOpState(Operation *op) {
  SmallVector<Frame> frames;
  collectFrames(op, frames);
  if (frames.empty())
    return std::nullopt;
  FailureOr<std::optional<int64_t>> state = getFrameState(frames.front());
  return succeeded(state) ? *state : std::nullopt;
}

LogicalResult PairSplit::assign(Value value, int64_t state, Operation *by) {
  if (isBuilt(value))
    return success();
  auto [it, inserted] = states.try_emplace(value, state);
  if (inserted) {
    worklist.push_back(value);
    return success();
  }
  if (it->second != state)
    return fail(by, it->second == kWhole || state == kWhole
                        ? "needs a tensor both split and whole"
                        : "needs a tensor split along two dimensions");
  return success();
}

/// The frame dimension the split takes (kWhole: none) as the members whose
/// state is known say, nullopt while they leave it open: a split member
/// fixes it; a whole member rules out the dimensions it has, and all of them
/// where it has every dimension a split could take (a multiply's A, whole,
/// still allows N).
FailureOr<std::optional<int64_t>> PairSplit::getFrameState(const Frame &frame) {
  std::optional<int64_t> state;
  for (const Frame::Member &member : frame.members) {
    auto it = states.find(member.value);
    if (it == states.end() || it->second == kWhole)
      continue;
    int64_t mapped = member.dims[it->second];
    if (mapped == kWhole)
      return fail(frame.op, "cannot carry the split dimension");
    if (state && *state != mapped)
      return fail(frame.op, "needs a tensor split along two dimensions");
    state = mapped;
  }
  bool whole = false;
  for (const Frame::Member &member : frame.members) {
    auto it = states.find(member.value);
    if (it == states.end() || it->second != kWhole)
      continue;
    if (state && Frame::dimOf(member, *state) != kWhole)
      return fail(frame.op, "needs a tensor both split and whole");
    whole |= frame.isCoveredBy(member);
  }
  if (!state && whole)
    state = kWhole;
  return state;
}

LogicalResult PairSplit::applyFrame(const Frame &frame, std::optional<int64_t> forced) {
  std::optional<int64_t> state = forced;
  if (!state) {
    FailureOr<std::optional<int64_t>> known = getFrameState(frame);
    if (failed(known))
      return failure();
    state = *known;
  }
  if (!state)
    return success();
  if (*state != kWhole) {
    if (frame.opaque)
      return fail(frame.op, "cannot take a split tensor");
    for (auto [dim, why] : frame.fixed)
      if (dim == *state)
        return fail(frame.op, why);
  }
  for (const Frame::Member &member : frame.members) {
    int64_t dim = Frame::dimOf(member, *state);
    if (dim != kWhole && cast<RankedTensorType>(member.value.getType()).getDimSize(dim) % kPair)
      return fail(frame.op, "has a split dimension of odd size");
    if (failed(assign(member.value, dim, frame.op)))
      return failure();
  }
  return success();
}

LogicalResult PairSplit::visit(Value value) {
  SmallVector<Operation *> related;
  if (Operation *def = value.getDefiningOp())
    related.push_back(def);
  else
    related.push_back(value.getParentBlock()->getParentOp());
  for (Operation *user : value.getUsers())
    related.push_back(getFrameOwner(user));
  for (Operation *op : related) {
    SmallVector<Frame> frames;
    collectFrames(op, frames);
    for (const Frame &frame : frames)
      if (failed(applyFrame(frame, std::nullopt)))
        return failure();
  }
  return success();
}

/// Ops that write memory: a store or atomic of a split tile writes each
/// CTA's half; anything else would run twice. Loads may not read what the
/// kernel writes: nothing orders one CTA's stores before the other's loads.
LogicalResult PairSplit::checkEffects() {
  auto isSplit = [&](Operation *op) {
    std::optional<int64_t> state = getOpState(op);
    return state && *state != kWhole;
  };
  auto stop = [&](Operation *op, const Twine &why) {
    (void)fail(op, why);
    return WalkResult::interrupt();
  };
  SmallVector<Value> written;
  SmallVector<LoadOp> loads;
  WalkResult walk = func.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op)) {
      loads.push_back(load);
      return WalkResult::advance();
    }
    if (isa<StoreOp, AtomicRMWOp, AtomicCASOp>(op)) {
      if (!isSplit(op))
        return stop(op, "writes a whole tile or scalar, which both CTAs would write");
      Value root = getPointerRoot(op->getOperand(0));
      if (!root)
        return stop(op, "writes through pointers that are no kernel argument's");
      written.push_back(root);
      return WalkResult::advance();
    }
    if (isa<PrintOp>(op))
      return stop(op, "prints, which both CTAs would do");
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (effects && effects.hasEffect<MemoryEffects::Write>() && !isa<AssertOp>(op))
      return stop(op, "writes memory, which both CTAs would do");
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  for (LoadOp load : loads) {
    Value root = getPointerRoot(load.getPtrs());
    if (!root || llvm::is_contained(written, root))
      return fail(load, "reads memory the kernel may also write; the pair's CTAs do not "
                        "wait for each other's stores");
  }
  // A split along the dimension a load's or store's runs go along must keep
  // each CTA's half starting on a run.
  walk = func.walk([&](Operation *op) {
    if (!isa<LoadOp, StoreOp>(op) || !isSplit(op))
      return WalkResult::advance();
    auto type = cast<RankedTensorType>(op->getOperand(0).getType());
    int64_t dim = *getOpState(op);
    int64_t half = type.getDimSize(dim) / kPair, run = 1;
    if (dim == type.getRank() - 1)
      run = isa<LoadOp>(op) ? cast<LoadOp>(op).getContiguity() : cast<StoreOp>(op).getContiguity();
    else if (dim == type.getRank() - 2 && isa<LoadOp>(op))
      run = cast<LoadOp>(op).getTransposedContiguity();
    if (half % run)
      return stop(op, "accesses runs of " + Twine(run) + " elements that the halves would cut");
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult PairSplit::plan(Role role) {
  SmallVector<Operation *> mmas;
  func.walk([&](Operation *op) {
    if (isa<MmaFOp, MmaIOp, MmaFScaledOp>(op))
      mmas.push_back(op);
  });
  if (mmas.empty())
    return fail(func, "it has no matrix multiply to share");
  for (Operation *mma : mmas) {
    auto acc = cast<RankedTensorType>(mma->getResult(0).getType());
    if (acc.getRank() != 2 && acc.getRank() != 3)
      return fail(mma, "has no [batch x] M x N result");
    int64_t dim = role == Role::N ? acc.getRank() - 1 : acc.getRank() - 2;
    int64_t least = role == Role::N ? kMinSplitN : kMinSplitM;
    if (acc.getDimSize(dim) < least)
      return fail(mma, Twine(role == Role::N ? "N = " : "M = ") + Twine(acc.getDimSize(dim)) +
                           " is under " + Twine(least));
    if (!firstSplit.first)
      firstSplit = {mma, dim};
    SmallVector<Frame> frames;
    collectFrames(mma, frames);
    if (failed(applyFrame(frames.front(), dim)))
      return failure();
  }
  while (!worklist.empty())
    if (failed(visit(worklist.pop_back_val())))
      return failure();
  return checkEffects();
}

/// rank * half as a scalar of `type`, built once at the function's entry.
Value PairSplit::getOffset(int64_t half, Type type) {
  Value &offset = offsets[{half, type}];
  if (offset)
    return offset;
  OpBuilder b(func.getContext());
  b.setInsertionPointAfter(entryCursor);
  Location loc = func.getLoc();
  Value value = arith::MulIOp::create(
      b, loc, rank, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(half)));
  if (type != value.getType())
    value = arith::ExtUIOp::create(b, loc, type, value);
  entryCursor = value.getDefiningOp();
  return offset = value;
}

/// The integer constant a splat constant repeats.
static std::optional<APInt> getSplatConstant(Value value) {
  DenseIntElementsAttr dense;
  if (!matchPattern(value, m_Constant(&dense)) || !dense.isSplat())
    return std::nullopt;
  return dense.getSplatValue<APInt>();
}

/// Whether `value` repeats one integer scalar (a splat or splat constant).
static bool isIntegerSplat(Value value) {
  if (auto splat = value.getDefiningOp<SplatOp>())
    return isa<IntegerType>(splat.getSrc().getType());
  return getSplatConstant(value).has_value();
}

/// The scalar the integer splat `value` repeats (a constant's built by `b`).
static Value getSplatScalar(OpBuilder &b, Value value) {
  if (auto splat = value.getDefiningOp<SplatOp>())
    return splat.getSrc();
  Type type = cast<RankedTensorType>(value.getType()).getElementType();
  return arith::ConstantOp::create(b, value.getLoc(), type,
                                   b.getIntegerAttr(type, *getSplatConstant(value)));
}

/// The built tensor `value` in its `dim`-halved shape, made once right after
/// it: an iota along `dim` counts from the CTA's first element, which joins
/// the start a coordinate adds to it ((start + rank * half) + iota, the form
/// the view matchers read).
Value PairSplit::splitBuilt(Value value, int64_t dim) {
  if (Value copy = copies.lookup({value, dim}))
    return copy;
  Operation *def = value.getDefiningOp();
  RankedTensorType type = halve(value.getType(), dim);
  int64_t half = type.getDimSize(dim);
  OpBuilder b(def->getContext());
  b.setInsertionPointAfter(def);
  Location loc = def->getLoc();
  Value copy;
  auto isIotaAlong = [&](Value v) {
    auto iota = v.getDefiningOp<IotaOp>();
    return iota && iota.getAxis() == dim;
  };
  if (auto splat = dyn_cast<SplatOp>(def)) {
    copy = SplatOp::create(b, loc, type, splat.getSrc());
  } else if (auto iota = dyn_cast<IotaOp>(def)) {
    copy = IotaOp::create(b, loc, type, iota.getAxis());
    if (iota.getAxis() == dim)
      copy = arith::AddIOp::create(
          b, loc, copy, SplatOp::create(b, loc, type, getOffset(half, type.getElementType())));
  } else if (auto dense = dyn_cast<arith::ConstantOp>(def)) {
    copy = arith::ConstantOp::create(
        b, loc, type, cast<DenseElementsAttr>(dense.getValue()).resizeSplat(type));
  } else if (isa<arith::AddIOp>(def) && llvm::any_of(def->getOperands(), isIotaAlong) &&
             isIntegerSplat(def->getOperand(isIotaAlong(def->getOperand(0)) ? 1 : 0))) {
    Value start = getSplatScalar(b, def->getOperand(isIotaAlong(def->getOperand(0)) ? 1 : 0));
    Value shifted = arith::AddIOp::create(b, loc, start, getOffset(half, start.getType()));
    copy = arith::AddIOp::create(b, loc, SplatOp::create(b, loc, type, shifted),
                                 IotaOp::create(b, loc, type, dim));
  } else {
    IRMapping mapping;
    for (Value operand : def->getOperands())
      if (isTensor(operand))
        mapping.map(operand, splitBuilt(operand, dim));
    Operation *clone = b.clone(*def, mapping);
    clone->getResult(0).setType(type);
    copy = clone->getResult(0);
  }
  copies[{value, dim}] = copy;
  return copy;
}

void PairSplit::apply() {
  // The dimension each use of a built tensor needs, read from the frames
  // before any type changes.
  SmallVector<std::pair<OpOperand *, int64_t>> builtUses;
  func.walk([&](Operation *op) {
    SmallVector<Frame> frames;
    collectFrames(op, frames);
    for (const Frame &frame : frames) {
      FailureOr<std::optional<int64_t>> state = getFrameState(frame);
      if (failed(state) || !*state || **state == kWhole)
        continue;
      for (const Frame::Member &member : frame.members)
        if (member.use && isBuilt(member.value))
          if (int64_t dim = Frame::dimOf(member, **state); dim != kWhole)
            builtUses.push_back({member.use, dim});
    }
  });

  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  rank = ClusterCtaRankOp::create(b, func.getLoc(), b.getI32Type());
  entryCursor = rank.getDefiningOp();
  for (auto [value, dim] : states)
    if (dim != kWhole)
      value.setType(halve(value.getType(), dim));
  for (auto [use, dim] : builtUses)
    use->set(splitBuilt(use->get(), dim));

  // The whole tensors no use needs any more go, users first.
  SmallVector<Operation *> dead;
  func.walk([&](Operation *op) {
    if (op->getNumResults() == 1 && isBuilt(op->getResult(0)))
      dead.push_back(op);
  });
  for (Operation *op : llvm::reverse(dead))
    if (op->use_empty())
      op->erase();
}

/// What the remark calls the split: "columns [r*128, r*128+128) of the
/// 128x256 result".
static std::string describeSplit(Operation *mma, int64_t dim) {
  auto type = cast<RankedTensorType>(mma->getResult(0).getType());
  int64_t half = type.getDimSize(dim) / kPair;
  std::string shape;
  llvm::raw_string_ostream os(shape);
  llvm::interleave(type.getShape(), os, "x");
  return ((dim == type.getRank() - 1 ? "columns" : "rows") + Twine(" [r*") + Twine(half) +
          ", r*" + Twine(half) + "+" + Twine(half) + ") of the " + shape + " result")
      .str();
}

namespace {
struct SplitTileBlocksAcrossCtaPairPass
    : public tilepipe::tile_as::impl::SplitTileBlocksAcrossCtaPairBase<
          SplitTileBlocksAcrossCtaPairPass> {
  using SplitTileBlocksAcrossCtaPairBase::SplitTileBlocksAcrossCtaPairBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned sm = 0;
    std::string target = "?";
    if (auto name = module->getAttrOfType<StringAttr>(TileASDialect::kTargetAttrName)) {
      target = name.getValue().str();
      if (auto gpu = tilepipe::parseGpuTarget(target))
        sm = gpu->sm;
      else
        llvm::consumeError(gpu.takeError());
    }
    for (auto func : module.getOps<func::FuncOp>()) {
      auto requested =
          func->getAttrOfType<IntegerAttr>(TileASDialect::kRequestedCtasPerClusterAttrName);
      func->removeAttr(TileASDialect::kRequestedCtasPerClusterAttrName);
      if (func->hasAttr(TileASDialect::kCtasPerClusterAttrName))
        continue;
      int64_t ctas = forceCtas ? int64_t(forceCtas) : requested ? requested.getInt() : 1;
      if (ctas <= 1)
        continue;
      std::string asked = forceCtas ? "force-ctas=" + std::to_string(ctas)
                                    : target + ": num_cta_in_cga = " + std::to_string(ctas);
      auto unused = [&](const Twine &why) {
        return emitRemark(func.getLoc())
               << asked
               << " not used: the kernel runs clusters of one CTA (.reqnctapercluster 1, 1, 1): "
               << why;
      };
      if (ctas != kPair) {
        unused("only clusters of 2 CTAs are formed");
        continue;
      }
      if (sm < 90) {
        unused("clusters need sm_90 or newer");
        continue;
      }
      splitFunction(func, asked, unused);
    }
  }

  template <typename Unused>
  void splitFunction(func::FuncOp func, StringRef asked, Unused &unused) {
    std::string why;
    SmallVector<std::pair<Operation *, Role>> culprits;
    for (Role role : {Role::M, Role::N}) {
      PairSplit split(func);
      if (succeeded(split.plan(role))) {
        auto [mma, dim] = split.getFirstSplit();
        std::string what = describeSplit(mma, dim);
        split.apply();
        func->setAttr(TileASDialect::kCtasPerClusterAttrName,
                      Builder(func.getContext()).getI32IntegerAttr(kPair));
        // The M split is the form of tcgen05.mma.cta_group::2 (each CTA's
        // 128 rows times the whole B): tilepipe-pair-tcgen05-mmas may issue
        // the pair's multiplies together.
        if (role == Role::M)
          func->setAttr(TileASDialect::kCtaPairRowsAttrName, UnitAttr::get(func.getContext()));
        emitRemark(func.getLoc()) << asked
                                  << ": each tile block runs on a CTA pair (.reqnctapercluster "
                                     "2, 1, 1); CTA rank r computes "
                                  << what;
        return;
      }
      Operation *op = split.getCulprit();
      std::string which = op == func.getOperation()
                              ? std::string()
                              : ("'" + op->getName().getStringRef() + "' ").str();
      why += (why.empty() ? "" : "; ") + std::string(role == Role::N ? "splitting N: " : "splitting M: ") +
             which + split.getReason().str();
      if (op != func.getOperation())
        culprits.push_back({op, role});
    }
    InFlightDiagnostic remark = unused(why);
    for (auto [op, role] : culprits)
      remark.attachNote(op->getLoc()) << (role == Role::N ? "splitting N" : "splitting M")
                                      << " stops here";
  }
};
} // namespace
