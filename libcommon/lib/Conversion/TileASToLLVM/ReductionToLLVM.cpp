//===- ReductionToLLVM.cpp - tile_as reduce/scan -> LLVM/NVVM ---------------===//
//
// Reductions and scans along one axis of a blocked layout, in three levels:
// the registers of one thread, then the lanes of a warp (nvvm.shfl.sync),
// then the warps of the CTA through the shared scratch buffer with barriers.
// Each combine step is a fresh clone of the op's combiner region body, so
// any combiner (several operands, argmax-style selects) lowers alike; the
// cloned arith ops are legalized by the ordinary arith patterns afterwards.
//
// Positions a thread holds only as a replicated copy (a layout tile wider
// than the tensor along the axis) enter the combination as the identity.
// Results reach their own layout through the scratch buffer: every thread
// writes what it computed, every thread reads what its layout asks for.
//
// ConvertTileASToLLVMPass registers these through
// populateReductionToLLVMPatterns.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "RegisterEmitter.h"
#include "SharedScratch.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

#include <map>

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

static constexpr unsigned kWarpSize = 32;

/// One value per operand of a reduce/scan, at one tensor position.
using Pack = SmallVector<Value>;

/// Builds combine steps from a combiner region and the identities.
class Combiner {
public:
  Combiner(Region &region, ArrayAttr identities, RegisterEmitter &e)
      : region(region), identityAttrs(identities), e(e) {}

  /// combine(earlier, later): one clone of the region's body.
  Pack combine(const Pack &earlier, const Pack &later) const {
    Block &body = region.front();
    unsigned n = earlier.size();
    IRMapping mapping;
    for (unsigned i = 0; i < n; ++i) {
      mapping.map(body.getArgument(i), earlier[i]);
      mapping.map(body.getArgument(n + i), later[i]);
    }
    for (Operation &op : body.without_terminator())
      e.builder.clone(op, mapping);
    Pack result;
    for (Value value : body.getTerminator()->getOperands())
      result.push_back(mapping.lookupOrDefault(value));
    return result;
  }

  Pack identities() const {
    Pack values;
    for (Attribute attr : identityAttrs) {
      auto typed = cast<TypedAttr>(attr);
      values.push_back(LLVM::ConstantOp::create(e.builder, e.loc, typed.getType(), typed));
    }
    return values;
  }

  /// `condition ? a : b`, operand by operand.
  Pack select(Value condition, const Pack &a, const Pack &b) const {
    Pack result;
    for (auto [x, y] : llvm::zip(a, b))
      result.push_back(LLVM::SelectOp::create(e.builder, e.loc, condition, x, y));
    return result;
  }

private:
  Region &region;
  ArrayAttr identityAttrs;
  RegisterEmitter &e;
};

static Pack shufflePack(RegisterEmitter &e, const Pack &values, Value offset,
                        NVVM::ShflKind kind) {
  Pack result;
  for (Value value : values)
    result.push_back(e.shuffle(value, offset, kind));
  return result;
}

/// How a blocked layout spreads one axis over registers, lanes and warps,
/// and where this thread sits along it.
struct AxisGeometry {
  BlockedAttr layout;
  SmallVector<int64_t> shape;
  unsigned axis;
  unsigned perThread, lanes, warps; // sizePerThread, threadsPerWarp, warpsPerCTA
  unsigned lanesBelow = 1, warpsBelow = 1; // lane/warp id stride of the axis
  int64_t extent;       // elements per layout tile along the axis
  int64_t regsAlong;    // registers per thread along the axis
  Value laneInAxis, warpInAxis, lane;

  AxisGeometry(RegisterEmitter &e, BlockedAttr layout, ArrayRef<int64_t> shape,
               unsigned axis)
      : layout(layout), shape(shape), axis(axis) {
    perThread = layout.getSizePerThread()[axis];
    lanes = layout.getThreadsPerWarp()[axis];
    warps = layout.getWarpsPerCTA()[axis];
    for (unsigned d : layout.getOrder()) {
      if (d == axis)
        break;
      lanesBelow *= layout.getThreadsPerWarp()[d];
      warpsBelow *= layout.getWarpsPerCTA()[d];
    }
    extent = getLayoutExtent(layout, axis);
    regsAlong = getRegsPerDim(layout, shape)[axis];
    OpBuilder &b = e.builder;
    Value tid = NVVM::ThreadIdXOp::create(b, e.loc, b.getI32Type());
    lane = LLVM::URemOp::create(b, e.loc, tid, e.i32(kWarpSize));
    Value warp = LLVM::UDivOp::create(b, e.loc, tid, e.i32(kWarpSize));
    laneInAxis = digit(e, lane, lanesBelow, lanes);
    warpInAxis = digit(e, warp, warpsBelow, warps);
  }

  /// Replicated copies exist along the axis (a layout tile wider than it).
  bool wraps() const { return extent > shape[axis]; }

  /// This thread's unwrapped coordinate along the axis for register index
  /// `regInAxis` (>= shape[axis] for a replicated copy).
  Value rawCoordinate(RegisterEmitter &e, int64_t regInAxis) const {
    OpBuilder &b = e.builder;
    Value fromWarp = LLVM::MulOp::create(b, e.loc, warpInAxis, e.i32(perThread * lanes));
    Value fromLane = LLVM::MulOp::create(b, e.loc, laneInAxis, e.i32(perThread));
    Value base = LLVM::AddOp::create(b, e.loc, fromWarp, fromLane);
    return LLVM::AddOp::create(
        b, e.loc, base, e.i32(getRegisterCoordinate(layout, axis, regInAxis)));
  }

  /// True where register index `regInAxis` holds a real (not replicated)
  /// element; null when every register does.
  Value isOwner(RegisterEmitter &e, int64_t regInAxis) const {
    if (!wraps())
      return {};
    return LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::ult,
                                rawCoordinate(e, regInAxis), e.i32(shape[axis]));
  }

private:
  static Value digit(RegisterEmitter &e, Value id, unsigned below, unsigned count) {
    Value value = id;
    if (below > 1)
      value = LLVM::UDivOp::create(e.builder, e.loc, value, e.i32(below));
    return LLVM::URemOp::create(e.builder, e.loc, value, e.i32(count));
  }
};

/// Row-major linear index (i32) of per-dimension coordinates in `shape`.
static Value linearIndex(RegisterEmitter &e, ArrayRef<Value> coords,
                         ArrayRef<int64_t> shape) {
  Value linear = e.i32(0);
  for (auto [coord, size] : llvm::zip(coords, shape)) {
    linear = LLVM::MulOp::create(e.builder, e.loc, linear, e.i32(size));
    linear = LLVM::AddOp::create(e.builder, e.loc, linear, coord);
  }
  return linear;
}

/// The scratch buffer as one array per operand, each `slots` elements plus
/// one trash slot that predicated-off writers store to (so no branches).
class ScratchArrays {
public:
  static FailureOr<ScratchArrays> get(RegisterEmitter &e, Operation *op,
                                      TypeRange elementTypes, int64_t slots) {
    ScratchArrays arrays;
    arrays.slots = slots;
    uint64_t bytes = 0;
    for (Type type : elementTypes) {
      bytes = llvm::alignTo(bytes, 8);
      arrays.offsets.push_back(bytes);
      arrays.types.push_back(type);
      bytes += (slots + 1) * getByteSize(type);
    }
    FailureOr<Value> base = getSharedScratch(e.builder, e.loc, op, bytes);
    if (failed(base))
      return failure();
    arrays.base = *base;
    return arrays;
  }

  /// Stores `values` at `slot`, or into the trash slot where `enabled` is false.
  void store(RegisterEmitter &e, const Pack &values, Value slot, Value enabled = {}) const {
    if (enabled)
      slot = LLVM::SelectOp::create(e.builder, e.loc, enabled, slot, e.i32(slots));
    for (unsigned i = 0; i < values.size(); ++i)
      LLVM::StoreOp::create(e.builder, e.loc, values[i], address(e, i, slot));
  }

  Pack load(RegisterEmitter &e, Value slot) const {
    Pack values;
    for (unsigned i = 0; i < types.size(); ++i)
      values.push_back(LLVM::LoadOp::create(e.builder, e.loc, types[i], address(e, i, slot)));
    return values;
  }

private:
  Value address(RegisterEmitter &e, unsigned operand, Value slot) const {
    Type i8 = e.builder.getI8Type();
    Value bytes = LLVM::MulOp::create(e.builder, e.loc, slot,
                                      e.i32(getByteSize(types[operand])));
    bytes = LLVM::AddOp::create(e.builder, e.loc, bytes, e.i32(offsets[operand]));
    return LLVM::GEPOp::create(e.builder, e.loc, base.getType(), i8, base,
                               ArrayRef<LLVM::GEPArg>{bytes});
  }

  Value base;
  int64_t slots = 0;
  SmallVector<uint64_t> offsets;
  SmallVector<Type> types;
};

/// The operands' registers as packs, indexed by register.
static SmallVector<Pack> unpackRegisters(RegisterEmitter &e, ValueRange vectors,
                                         int64_t count) {
  SmallVector<Pack> packs(count);
  for (int64_t reg = 0; reg < count; ++reg)
    for (Value vector : vectors)
      packs[reg].push_back(e.extract(vector, reg));
  return packs;
}

/// Per-register packs -> one vector per operand.
static SmallVector<Value> packRegisters(RegisterEmitter &e, TypeRange vectorTypes,
                                        ArrayRef<Pack> packs) {
  SmallVector<Value> vectors;
  for (auto [i, type] : llvm::enumerate(vectorTypes)) {
    SmallVector<Value> elements;
    for (const Pack &pack : packs)
      elements.push_back(pack[i]);
    vectors.push_back(e.buildVector(cast<VectorType>(type), elements));
  }
  return vectors;
}

/// The register standing for the line of register `reg` (its index along
/// the axis set to 0).
static int64_t lineOf(const AxisGeometry &g, int64_t reg) {
  SmallVector<int64_t> perDim = delinearizeRegister(g.layout, g.shape, reg);
  perDim[g.axis] = 0;
  return linearizeRegister(g.layout, g.shape, perDim);
}

/// Linear index, in the shape without the axis, of the line of register
/// `lineReg` (coordinates as RegisterEmitter::coordinates gives them).
static Value lineIndex(RegisterEmitter &e, const AxisGeometry &g,
                       ArrayRef<SmallVector<Value>> coords, int64_t lineReg) {
  SmallVector<Value> lineCoords;
  SmallVector<int64_t> lineShape;
  for (unsigned dim = 0; dim < g.shape.size(); ++dim) {
    if (dim == g.axis)
      continue;
    lineCoords.push_back(coords[dim][lineReg]);
    lineShape.push_back(g.shape[dim]);
  }
  return linearIndex(e, lineCoords, lineShape);
}

static SmallVector<SmallVector<Value>> allCoordinates(RegisterEmitter &e,
                                                      BlockedAttr layout,
                                                      ArrayRef<int64_t> shape) {
  SmallVector<SmallVector<Value>> coords;
  for (unsigned dim = 0; dim < shape.size(); ++dim)
    coords.push_back(e.coordinates(layout, shape, dim));
  return coords;
}

static int64_t product(ArrayRef<int64_t> values) {
  int64_t total = 1;
  for (int64_t v : values)
    total *= v;
  return total;
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

struct ReduceLowering : ConvertOpToLLVMPattern<ReduceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> laid = Laid::of(op, op.getOperands()[0].getType());
    if (failed(laid))
      return failure();
    if (llvm::any_of(op.getOperands().getTypes(), [&](Type t) {
          return cast<RankedTensorType>(t).getEncoding() != laid->layout;
        }))
      return op.emitOpError("operands with different layouts are not lowered");
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    Combiner combiner(op.getCombiner(), op.getIdentities(), e);
    AxisGeometry g(e, laid->layout, laid->shape, op.getAxis());

    // 1. Within the thread: one accumulator per line along the axis.
    int64_t count = getElemsPerThread(g.layout, g.shape);
    SmallVector<Pack> regs = unpackRegisters(e, adaptor.getOperands(), count);
    Pack identity = g.wraps() ? combiner.identities() : Pack();
    std::map<int64_t, Pack> lines;
    for (int64_t reg = 0; reg < count; ++reg) {
      Pack value = regs[reg];
      if (Value owner = g.isOwner(e, delinearizeRegister(g.layout, g.shape, reg)[g.axis]))
        value = combiner.select(owner, value, identity);
      auto [it, fresh] = lines.try_emplace(lineOf(g, reg), value);
      if (!fresh)
        it->second = combiner.combine(it->second, value);
    }

    // 2. Across the lanes of the warp: a butterfly over the axis' lane bits.
    for (unsigned step = 1; step < g.lanes; step *= 2) {
      Value offset = e.i32(step * g.lanesBelow);
      for (auto &[line, acc] : lines)
        acc = combiner.combine(acc, shufflePack(e, acc, offset, NVVM::ShflKind::bfly));
    }

    // 3. Across warps, and into the result layout, through shared memory.
    SmallVector<Value> results;
    if (failed(finish(op, adaptor, rewriter, e, combiner, g, lines, results)))
      return failure();
    rewriter.replaceOp(op, results);
    return success();
  }

  /// Each warp writes its partial of every line ([warp][line] slots); every
  /// thread then combines the partials of the lines its result layout holds.
  LogicalResult finish(ReduceOp op, OpAdaptor adaptor,
                       ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                       const Combiner &combiner, const AxisGeometry &g,
                       std::map<int64_t, Pack> &lines,
                       SmallVector<Value> &results) const {
    bool scalar = !isa<RankedTensorType>(op.getResult(0).getType());
    if (scalar && g.warps == 1) {
      results.assign(lines.begin()->second.begin(), lines.begin()->second.end());
      return success();
    }
    SmallVector<int64_t> lineShape(g.shape);
    lineShape.erase(lineShape.begin() + g.axis);
    int64_t numLines = product(lineShape);
    SmallVector<Type> elementTypes;
    for (Value value : lines.begin()->second)
      elementTypes.push_back(value.getType());
    FailureOr<ScratchArrays> scratch =
        ScratchArrays::get(e, op, elementTypes, g.warps * numLines);
    if (failed(scratch))
      return failure();

    SmallVector<SmallVector<Value>> coords = allCoordinates(e, g.layout, g.shape);
    Value warpBase = LLVM::MulOp::create(rewriter, e.loc, g.warpInAxis, e.i32(numLines));
    for (auto &[line, acc] : lines) {
      Value slot = LLVM::AddOp::create(rewriter, e.loc, warpBase,
                                       lineIndex(e, g, coords, line));
      scratch->store(e, acc, slot);
    }
    emitCTABarrier(rewriter, e.loc);

    auto gather = [&](Value lineValue) {
      Pack acc = scratch->load(e, lineValue);
      for (unsigned w = 1; w < g.warps; ++w) {
        Value slot = LLVM::AddOp::create(rewriter, e.loc, lineValue, e.i32(w * numLines));
        acc = combiner.combine(acc, scratch->load(e, slot));
      }
      return acc;
    };
    if (scalar) {
      Pack acc = gather(e.i32(0));
      results.assign(acc.begin(), acc.end());
    } else {
      FailureOr<Laid> out = Laid::of(op, op.getResult(0).getType());
      if (failed(out))
        return failure();
      SmallVector<SmallVector<Value>> outCoords =
          allCoordinates(e, out->layout, out->shape);
      int64_t outCount = getElemsPerThread(out->layout, out->shape);
      SmallVector<Pack> packs;
      for (int64_t reg = 0; reg < outCount; ++reg) {
        SmallVector<Value> regCoords;
        for (auto &dimCoords : outCoords)
          regCoords.push_back(dimCoords[reg]);
        packs.push_back(gather(linearIndex(e, regCoords, out->shape)));
      }
      SmallVector<Type> vectorTypes;
      for (Type type : op.getResultTypes())
        vectorTypes.push_back(getTypeConverter()->convertType(type));
      results = packRegisters(e, vectorTypes, packs);
    }
    // The scratch buffer is free again only once every thread has read.
    emitCTABarrier(rewriter, e.loc);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

struct ScanLowering : ConvertOpToLLVMPattern<ScanOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> laid = Laid::of(op, op.getOperands()[0].getType());
    if (failed(laid))
      return failure();
    auto sameLayout = [&](Type t) {
      return cast<RankedTensorType>(t).getEncoding() == laid->layout;
    };
    if (!llvm::all_of(op.getOperands().getTypes(), sameLayout) ||
        !llvm::all_of(op.getResultTypes(), sameLayout))
      return op.emitOpError("operands and results with different layouts are not lowered");
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    Combiner combiner(op.getCombiner(), op.getIdentities(), e);
    AxisGeometry g(e, laid->layout, laid->shape, op.getAxis());
    bool reverse = op.getReverse();
    Pack identity = combiner.identities();

    int64_t count = getElemsPerThread(g.layout, g.shape);
    SmallVector<Pack> regs = unpackRegisters(e, adaptor.getOperands(), count);
    for (int64_t reg = 0; reg < count; ++reg)
      if (Value owner = g.isOwner(e, delinearizeRegister(g.layout, g.shape, reg)[g.axis]))
        regs[reg] = combiner.select(owner, regs[reg], identity);

    // Registers of one line along the axis come in chunks of sizePerThread
    // adjacent elements; chunk c of every thread precedes chunk c+1.
    int64_t chunks = g.regsAlong / g.perThread;
    auto regAt = [&](int64_t line, int64_t chunk, int64_t j) {
      SmallVector<int64_t> perDim = delinearizeRegister(g.layout, g.shape, line);
      perDim[g.axis] = chunk * g.perThread + j;
      return linearizeRegister(g.layout, g.shape, perDim);
    };
    auto inOrder = [&](int64_t n, int64_t i) { return reverse ? n - 1 - i : i; };
    SmallVector<int64_t> lineRegs;
    for (int64_t reg = 0; reg < count; ++reg)
      if (lineOf(g, reg) == reg)
        lineRegs.push_back(reg);

    // 1. Within the thread: inclusive scan of each chunk.
    std::map<int64_t, SmallVector<Pack>> totals; // line -> per-chunk total
    for (int64_t line : lineRegs)
      for (int64_t c = 0; c < chunks; ++c) {
        Pack acc;
        for (int64_t i = 0; i < g.perThread; ++i) {
          int64_t reg = regAt(line, c, inOrder(g.perThread, i));
          acc = i ? combiner.combine(acc, regs[reg]) : regs[reg];
          regs[reg] = acc;
        }
        totals[line].push_back(acc);
      }

    // 2. Across lanes: Hillis-Steele scan of the chunk totals, then each
    // lane's exclusive prefix (the identity for the first lane in order).
    NVVM::ShflKind toward = reverse ? NVVM::ShflKind::down : NVVM::ShflKind::up;
    auto lanesBefore = [&](unsigned distance) -> Value {
      // Whether `distance` lanes before this one (in scan order) exist.
      if (!reverse)
        return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge,
                                    g.laneInAxis, e.i32(distance));
      return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                  g.laneInAxis, e.i32(g.lanes - distance));
    };
    std::map<int64_t, SmallVector<Pack>> prefixes; // exclusive lane prefixes
    for (auto &[line, lineTotals] : totals)
      for (Pack &total : lineTotals) {
        for (unsigned step = 1; step < g.lanes; step *= 2) {
          Pack earlier = shufflePack(e, total, e.i32(step * g.lanesBelow), toward);
          total = combiner.select(lanesBefore(step), combiner.combine(earlier, total), total);
        }
        Pack prefix = identity;
        if (g.lanes > 1)
          prefix = combiner.select(lanesBefore(1),
                                   shufflePack(e, total, e.i32(g.lanesBelow), toward),
                                   identity);
        prefixes[line].push_back(prefix);
      }

    // 3. Across warps and chunks: the last lane of each warp publishes its
    // chunk totals; each thread folds those that precede it.
    if (g.warps > 1 || chunks > 1) {
      if (failed(carryAcrossWarps(op, rewriter, e, combiner, g, reverse, chunks,
                                  totals, prefixes)))
        return failure();
    }

    for (int64_t line : lineRegs)
      for (int64_t c = 0; c < chunks; ++c)
        for (int64_t j = 0; j < g.perThread; ++j) {
          int64_t reg = regAt(line, c, j);
          regs[reg] = combiner.combine(prefixes[line][c], regs[reg]);
        }

    // 4. Replicated copies computed with identities: take the real values.
    if (g.wraps() && failed(fetchOwnedValues(op, rewriter, e, g, regs)))
      return failure();

    SmallVector<Type> vectorTypes;
    for (Value v : adaptor.getOperands())
      vectorTypes.push_back(v.getType());
    rewriter.replaceOp(op, packRegisters(e, vectorTypes, regs));
    return success();
  }

  /// Slots [line][chunk][warp]; `prefixes` gain everything before this
  /// thread's warp and chunk.
  LogicalResult carryAcrossWarps(ScanOp op, ConversionPatternRewriter &rewriter,
                                 RegisterEmitter &e, const Combiner &combiner,
                                 const AxisGeometry &g, bool reverse, int64_t chunks,
                                 std::map<int64_t, SmallVector<Pack>> &totals,
                                 std::map<int64_t, SmallVector<Pack>> &prefixes) const {
    Location loc = e.loc;
    SmallVector<int64_t> lineShape(g.shape);
    lineShape.erase(lineShape.begin() + g.axis);
    int64_t perLine = chunks * g.warps;
    SmallVector<Type> elementTypes;
    for (Value value : totals.begin()->second.front())
      elementTypes.push_back(value.getType());
    FailureOr<ScratchArrays> scratch =
        ScratchArrays::get(e, op, elementTypes, product(lineShape) * perLine);
    if (failed(scratch))
      return failure();
    SmallVector<SmallVector<Value>> coords = allCoordinates(e, g.layout, g.shape);
    Value lastLane = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                          g.laneInAxis,
                                          e.i32(reverse ? 0 : g.lanes - 1));
    std::map<int64_t, Value> lineBase;
    for (auto &[line, lineTotals] : totals) {
      lineBase[line] = LLVM::MulOp::create(rewriter, loc,
                                           lineIndex(e, g, coords, line), e.i32(perLine));
      for (int64_t c = 0; c < chunks; ++c) {
        Value slot = LLVM::AddOp::create(rewriter, loc, lineBase[line],
                                         e.i32(c * g.warps));
        slot = LLVM::AddOp::create(rewriter, loc, slot, g.warpInAxis);
        scratch->store(e, lineTotals[c], slot, lastLane);
      }
    }
    emitCTABarrier(rewriter, loc);

    for (auto &[line, linePrefixes] : prefixes) {
      // carry: all slots of the chunks before c, then the warps before ours.
      Pack carry = combiner.identities();
      for (int64_t k = 0; k < chunks; ++k) {
        int64_t c = reverse ? chunks - 1 - k : k;
        Pack chunkCarry = carry;
        for (int64_t i = 0; i < g.warps; ++i) {
          int64_t w = reverse ? g.warps - 1 - i : i;
          Value slot = LLVM::AddOp::create(rewriter, loc, lineBase[line],
                                           e.i32(c * g.warps + w));
          Pack next = combiner.combine(chunkCarry, scratch->load(e, slot));
          Value before = LLVM::ICmpOp::create(
              rewriter, loc,
              reverse ? LLVM::ICmpPredicate::ugt : LLVM::ICmpPredicate::ult,
              e.i32(w), g.warpInAxis);
          carry = combiner.select(before, next, carry);
          chunkCarry = next;
        }
        linePrefixes[c] = combiner.combine(carry, linePrefixes[c]);
        carry = chunkCarry;
      }
    }
    emitCTABarrier(rewriter, loc);
    return success();
  }

  /// Owners write their results by element index; every register reads back
  /// the value of the element it holds.
  LogicalResult fetchOwnedValues(ScanOp op, ConversionPatternRewriter &rewriter,
                                 RegisterEmitter &e, const AxisGeometry &g,
                                 SmallVector<Pack> &regs) const {
    SmallVector<Type> elementTypes;
    for (Value value : regs.front())
      elementTypes.push_back(value.getType());
    FailureOr<ScratchArrays> scratch =
        ScratchArrays::get(e, op, elementTypes, product(g.shape));
    if (failed(scratch))
      return failure();
    SmallVector<SmallVector<Value>> coords = allCoordinates(e, g.layout, g.shape);
    SmallVector<Value> slots;
    for (int64_t reg = 0; reg < (int64_t)regs.size(); ++reg) {
      SmallVector<Value> regCoords;
      for (auto &dimCoords : coords)
        regCoords.push_back(dimCoords[reg]);
      slots.push_back(linearIndex(e, regCoords, g.shape));
      Value owner = g.isOwner(e, delinearizeRegister(g.layout, g.shape, reg)[g.axis]);
      scratch->store(e, regs[reg], slots.back(), owner);
    }
    emitCTABarrier(rewriter, e.loc);
    for (int64_t reg = 0; reg < (int64_t)regs.size(); ++reg)
      regs[reg] = scratch->load(e, slots[reg]);
    emitCTABarrier(rewriter, e.loc);
    return success();
  }
};

} // namespace

void populateReductionToLLVMPatterns(TileLLVMTypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ScanLowering>(converter);
}

} // namespace tilepipe::tile_as
