//===- PackedBits.cpp - numbers as the bits they occupy in memory ---------===//
#include "PackedBits.h"

#include "tilepipe/Dialect/TileAA/IR/TileAA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/bit.h"

#include <numeric>

using namespace mlir;

namespace tilepipe {

/// tf32 keeps the f32 pattern's top 19 bits; the low 13 are dropped.
static constexpr unsigned kTF32DroppedBits = 13;

unsigned getPackedBits(Type element) { return element.getIntOrFloatBitWidth(); }

bool isSubByteElement(Type element) {
  return element.isIntOrFloat() && !element.isInteger(1) && !isa<FloatTF32Type>(element) &&
         element.getIntOrFloatBitWidth() < 8;
}

static RankedTensorType withElement(Value value, Type element) {
  return cast<RankedTensorType>(value.getType()).clone(element);
}

Value ByteView::reshape(Value value, ArrayRef<int64_t> shape) const {
  auto type = RankedTensorType::get(shape, cast<RankedTensorType>(value.getType()).getElementType());
  if (value.getType() == type)
    return value;
  return tile_aa::ReshapeOp::create(b, loc, type, value);
}

/// iota along dimension 1 of [n, parts], times partBits: each part's bit
/// offset in its number.
Value ByteView::bitOffsets(int64_t n, int64_t parts, IntegerType type, unsigned partBits) const {
  auto offsets = RankedTensorType::get({n, parts}, type);
  Value index = tile_aa::IotaOp::create(b, loc, offsets.clone(b.getI32Type()), 1);
  if (type.getWidth() > 32)
    index = arith::ExtUIOp::create(b, loc, offsets, index);
  else if (type.getWidth() < 32)
    index = arith::TruncIOp::create(b, loc, offsets, index);
  Value scale = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(offsets, b.getIntegerAttr(type, partBits)));
  return arith::MulIOp::create(b, loc, index, scale);
}

Value ByteView::split(Value numbers, int64_t parts, unsigned partBits) const {
  auto type = cast<RankedTensorType>(numbers.getType());
  auto intType = cast<IntegerType>(type.getElementType());
  int64_t n = type.getNumElements();
  Value column = reshape(numbers, {n, 1});
  auto rows = RankedTensorType::get({n, parts}, intType);
  Value spread = tile_aa::BroadcastOp::create(b, loc, rows, column);
  Value shifted =
      arith::ShRUIOp::create(b, loc, spread, bitOffsets(n, parts, intType, partBits));
  return arith::TruncIOp::create(b, loc, rows.clone(b.getIntegerType(partBits)), shifted);
}

Value ByteView::join(Value partRows, unsigned partBits) const {
  auto type = cast<RankedTensorType>(partRows.getType());
  int64_t n = type.getDimSize(0), parts = type.getDimSize(1);
  auto intType = b.getIntegerType(parts * partBits);
  Value wide = arith::ExtUIOp::create(b, loc, type.clone(intType), partRows);
  Value placed = arith::ShLIOp::create(b, loc, wide, bitOffsets(n, parts, intType, partBits));
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value number;
  for (int64_t k = 0; k < parts; ++k) {
    Value index = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(k));
    Value column = tile_aa::ExtractOp::create(b, loc, RankedTensorType::get({n, 1}, intType),
                                              placed, ValueRange{zero, index});
    Value part = reshape(column, {n});
    number = number ? arith::OrIOp::create(b, loc, number, part).getResult() : part;
  }
  return number;
}

Value ByteView::asBitFields(Value value) const {
  Type element = cast<RankedTensorType>(value.getType()).getElementType();
  if (element.isInteger())
    return value;
  if (isa<FloatTF32Type>(element)) {
    Value wide = arith::ExtFOp::create(b, loc, withElement(value, b.getF32Type()), value);
    Value bits = arith::BitcastOp::create(b, loc, withElement(value, b.getI32Type()), wide);
    Value shift = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(withElement(value, b.getI32Type()),
                                       b.getI32IntegerAttr(kTF32DroppedBits)));
    Value top = arith::ShRUIOp::create(b, loc, bits, shift);
    return arith::TruncIOp::create(
        b, loc, withElement(value, b.getIntegerType(getPackedBits(element))), top);
  }
  return arith::BitcastOp::create(
      b, loc, withElement(value, b.getIntegerType(element.getIntOrFloatBitWidth())), value);
}

Value ByteView::asElements(Value fields, Type element) const {
  if (cast<RankedTensorType>(fields.getType()).getElementType() == element)
    return fields;
  if (isa<FloatTF32Type>(element)) {
    // The dropped bits come back as zeros, so the truncation is exact.
    auto i32 = withElement(fields, b.getI32Type());
    Value bits = arith::ExtUIOp::create(b, loc, i32, fields);
    Value shift = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i32, b.getI32IntegerAttr(kTF32DroppedBits)));
    Value placed = arith::ShLIOp::create(b, loc, bits, shift);
    Value wide = arith::BitcastOp::create(b, loc, withElement(fields, b.getF32Type()), placed);
    return arith::TruncFOp::create(b, loc, withElement(fields, element), wide);
  }
  return arith::BitcastOp::create(b, loc, withElement(fields, element), fields);
}

/// A group of `numbers` numbers of `bits` fills `bytes` whole bytes.
static void groupSize(unsigned bits, int64_t &numbers, int64_t &bytes) {
  unsigned groupBits = std::lcm(bits, 8u);
  numbers = groupBits / bits;
  bytes = groupBits / 8;
}

Value ByteView::toBytes(Value numbers, unsigned bits) const {
  int64_t n = cast<RankedTensorType>(numbers.getType()).getNumElements();
  int64_t perGroup, bytesPerGroup;
  groupSize(bits, perGroup, bytesPerGroup);
  int64_t groups = n / perGroup;
  Value grouped = perGroup > 1 ? join(reshape(numbers, {groups, perGroup}), bits)
                               : reshape(numbers, {groups});
  Value bytes = grouped;
  if (bytesPerGroup > 1)
    bytes = split(grouped, bytesPerGroup, 8);
  return reshape(bytes, {groups * bytesPerGroup});
}

Value ByteView::fromBytes(Value bytes, unsigned bits) const {
  int64_t m = cast<RankedTensorType>(bytes.getType()).getNumElements();
  int64_t perGroup, bytesPerGroup;
  groupSize(bits, perGroup, bytesPerGroup);
  int64_t groups = m / bytesPerGroup;
  Value grouped = bytesPerGroup > 1 ? join(reshape(bytes, {groups, bytesPerGroup}), 8)
                                    : reshape(bytes, {groups});
  Value numbers = grouped;
  if (perGroup > 1)
    numbers = split(grouped, perGroup, bits);
  return reshape(numbers, {groups * perGroup});
}

} // namespace tilepipe
