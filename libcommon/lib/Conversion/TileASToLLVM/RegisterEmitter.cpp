//===- RegisterEmitter.cpp - Per-thread registers of a laid-out tensor ----===//
#include "RegisterEmitter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe::tile_as;

static constexpr unsigned kWarpSize = 32;

Value RegisterEmitter::i32(int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(),
                                  builder.getI32IntegerAttr(value));
}

Value RegisterEmitter::i64(int64_t value) {
  return LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                  builder.getI64IntegerAttr(value));
}

Value RegisterEmitter::extract(Value vector, int64_t index) {
  return LLVM::ExtractElementOp::create(builder, loc, vector, i32(index));
}

Value RegisterEmitter::insert(Value vector, Value element, int64_t index) {
  return LLVM::InsertElementOp::create(builder, loc, vector, element, i32(index));
}

Value RegisterEmitter::buildVector(VectorType type, ArrayRef<Value> elements) {
  Value vector = LLVM::PoisonOp::create(builder, loc, type);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = insert(vector, element, i);
  return vector;
}

Value RegisterEmitter::shuffle(Value value, Value lane, NVVM::ShflKind kind) {
  Type wordType = builder.getI32Type();
  Value everyLane = i32(-1);
  // c operand: the last lane a shuffle may read (0 for `up`: the first).
  Value clamp = i32(kind == NVVM::ShflKind::up ? 0 : kWarpSize - 1);
  auto kindAttr = NVVM::ShflKindAttr::get(builder.getContext(), kind);
  auto word = [&](Value x) -> Value {
    return NVVM::ShflOp::create(builder, loc, x.getType(), everyLane, x, lane, clamp,
                                kindAttr, UnitAttr());
  };
  Type type = value.getType();
  if (type.isF32() || type.isInteger(32))
    return word(value);
  unsigned bits = type.getIntOrFloatBitWidth();
  Type intType = builder.getIntegerType(bits);
  Value bitsValue =
      type.isInteger() ? value : LLVM::BitcastOp::create(builder, loc, intType, value);
  Value result;
  if (bits < 32) {
    Value wide = LLVM::ZExtOp::create(builder, loc, wordType, bitsValue);
    result = LLVM::TruncOp::create(builder, loc, intType, word(wide));
  } else {
    auto pairType = VectorType::get({2}, wordType);
    Value pair = LLVM::BitcastOp::create(builder, loc, pairType, bitsValue);
    Value lo = word(extract(pair, 0));
    Value hi = word(extract(pair, 1));
    result = LLVM::BitcastOp::create(builder, loc, intType, buildVector(pairType, {lo, hi}));
  }
  return type.isInteger() ? result : LLVM::BitcastOp::create(builder, loc, type, result);
}

/// (id / below) % count for the thread or warp id split over dimensions.
static Value digit(RegisterEmitter &e, Value id, unsigned below, unsigned count) {
  Value value = id;
  if (below > 1)
    value = LLVM::UDivOp::create(e.builder, e.loc, value, e.i32(below));
  return LLVM::URemOp::create(e.builder, e.loc, value, e.i32(count));
}

void RegisterEmitter::makeThreadIdUnhoistable() {
  threadId = unhoistable(NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type()));
}

Value RegisterEmitter::unhoistable(Value value) {
  return LLVM::InlineAsmOp::create(builder, loc, builder.getI32Type(), ValueRange{value},
                                   "{ add.u32 $0, $1, 0; }", "=r,r", /*has_side_effects=*/true,
                                   /*is_align_stack=*/false,
                                   LLVM::tailcallkind::TailCallKind::None,
                                   LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

Value RegisterEmitter::threadBase(BlockedAttr layout, unsigned dim) {
  Value tid = threadId ? threadId : NVVM::ThreadIdXOp::create(builder, loc, builder.getI32Type());
  Value lane = LLVM::URemOp::create(builder, loc, tid, i32(kWarpSize));
  Value warp = LLVM::UDivOp::create(builder, loc, tid, i32(kWarpSize));
  unsigned lanesBelow = 1, warpsBelow = 1;
  for (unsigned d : layout.getOrder()) {
    if (d == dim)
      break;
    lanesBelow *= layout.getThreadsPerWarp()[d];
    warpsBelow *= layout.getWarpsPerCTA()[d];
  }
  unsigned size = layout.getSizePerThread()[dim];
  unsigned threads = layout.getThreadsPerWarp()[dim];
  Value laneInDim = digit(*this, lane, lanesBelow, threads);
  Value warpInDim = digit(*this, warp, warpsBelow, layout.getWarpsPerCTA()[dim]);
  Value fromWarp = LLVM::MulOp::create(builder, loc, warpInDim, i32(size * threads));
  Value fromLane = LLVM::MulOp::create(builder, loc, laneInDim, i32(size));
  return LLVM::AddOp::create(builder, loc, fromWarp, fromLane);
}

SmallVector<Value> RegisterEmitter::coordinates(BlockedAttr layout,
                                                ArrayRef<int64_t> shape,
                                                unsigned dim) {
  Value base = threadBase(layout, dim);
  // A layout tile larger than the tensor wraps around (replication).
  bool wraps = getLayoutExtent(layout, dim) > shape[dim];
  int64_t count = getElemsPerThread(layout, shape);
  SmallVector<Value> coords;
  for (int64_t reg = 0; reg < count; ++reg) {
    int64_t regInDim = delinearizeRegister(layout, shape, reg)[dim];
    Value coord = LLVM::AddOp::create(
        builder, loc, base, i32(getRegisterCoordinate(layout, dim, regInDim)));
    if (wraps)
      coord = LLVM::URemOp::create(builder, loc, coord, i32(shape[dim]));
    coords.push_back(coord);
  }
  return coords;
}

Value RegisterEmitter::coordinateVector(BlockedAttr layout, ArrayRef<int64_t> shape,
                                        unsigned dim) {
  int64_t count = getElemsPerThread(layout, shape);
  auto type = VectorType::get({count}, builder.getI32Type());
  SmallVector<int32_t> offsets;
  for (int64_t reg = 0; reg < count; ++reg)
    offsets.push_back(getRegisterCoordinate(
        layout, dim, delinearizeRegister(layout, shape, reg)[dim]));
  auto splat = [&](Value scalar) {
    Value single = insert(LLVM::PoisonOp::create(builder, loc, type), scalar, 0);
    return LLVM::ShuffleVectorOp::create(builder, loc, single, single,
                                         SmallVector<int32_t>(count, 0));
  };
  Value constants = LLVM::ConstantOp::create(
      builder, loc, type, DenseElementsAttr::get(type, ArrayRef<int32_t>(offsets)));
  Value coords = LLVM::AddOp::create(builder, loc, splat(threadBase(layout, dim)),
                                     constants);
  // A layout tile larger than the tensor wraps around (replication).
  if (getLayoutExtent(layout, dim) > shape[dim])
    coords = LLVM::URemOp::create(builder, loc, coords, splat(i32(shape[dim])));
  return coords;
}

SmallVector<Value> RegisterEmitter::firstCopy(BlockedAttr layout,
                                              ArrayRef<int64_t> shape) {
  int64_t count = getElemsPerThread(layout, shape);
  SmallVector<Value> first;
  for (unsigned dim = 0; dim < shape.size(); ++dim) {
    if (getLayoutExtent(layout, dim) <= shape[dim])
      continue;
    // The coordinate before wrapping: below the extent only in the first copy.
    Value base = threadBase(layout, dim);
    for (int64_t reg = 0; reg < count; ++reg) {
      int64_t regInDim = delinearizeRegister(layout, shape, reg)[dim];
      Value coord = LLVM::AddOp::create(
          builder, loc, base, i32(getRegisterCoordinate(layout, dim, regInDim)));
      Value inside = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult,
                                          coord, i32(shape[dim]));
      if (first.size() <= size_t(reg))
        first.push_back(inside);
      else
        first[reg] = LLVM::AndOp::create(builder, loc, first[reg], inside);
    }
  }
  return first;
}
