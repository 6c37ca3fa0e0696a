//===- SubByteAccess.cpp - view loads and stores of i4 / f4 tiles ---------===//
//
// Sub-byte elements (i4, f4E2M1FN) lie two to a byte in memory, element 2k
// in the low nibble of byte k, as the bytecode contract lays out its 4-bit
// types and pack writes them. A view's element offsets count elements, so
// element e is nibble e & 1 of byte e >> 1 past the view's base pointer.
//
// A load reads each element's byte (a byte two elements share is read
// twice) and shifts the element's nibble out. A store cannot write a nibble
// alone: where the access pairs the two elements of every byte in one tile
// row (contiguity >= 2 proves that their offsets are 2k and 2k + 1 and that
// the mask is the same for both) the tile is packed into bytes and stored
// as bytes; elsewhere each element clears and sets its nibble with an
// atomic and/or on the aligned 32-bit word holding it (the smallest
// atomically writable unit), so that the other nibble, which another thread
// or tile block may be writing, survives.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "PackedBits.h"
#include "ViewLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace tilepipe {

namespace {
/// Element-wise integer math on tensors of one shape.
struct NibbleMath {
  OpBuilder &b;
  Location loc;

  Value splat(Value like, int64_t value, Type element = {}) const {
    auto type = llvm::cast<RankedTensorType>(like.getType());
    if (element)
      type = type.clone(element);
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getIntegerAttr(type.getElementType(), value)));
  }
  /// Integers zero-extended or truncated to `element`.
  Value resize(Value value, Type element) const {
    auto type = llvm::cast<RankedTensorType>(value.getType());
    unsigned from = type.getElementType().getIntOrFloatBitWidth();
    unsigned to = element.getIntOrFloatBitWidth();
    if (from == to)
      return value;
    if (from < to)
      return arith::ExtUIOp::create(b, loc, type.clone(element), value);
    return arith::TruncIOp::create(b, loc, type.clone(element), value);
  }
};
} // namespace

/// The view's base pointer as a pointer to bytes, and the byte pointers and
/// nibble indices (0 low, 1 high) of `offsets`.
static std::pair<Value, Value> bytePointers(OpBuilder &b, Location loc, const TileAccess &access,
                                            Value offsets) {
  NibbleMath m{b, loc};
  auto ptrType = cast<tile_aa::PtrType>(access.base.getType());
  auto bytePtr = tile_aa::PtrType::get(b.getContext(), b.getI8Type(), ptrType.getAddressSpace());
  Value bits = tile_aa::PtrToIntOp::create(b, loc, b.getI64Type(), access.base);
  Value base = tile_aa::IntToPtrOp::create(b, loc, bytePtr, bits);
  auto shape = cast<RankedTensorType>(offsets.getType()).getShape();
  auto ptrsType = RankedTensorType::get(shape, bytePtr);
  Value byteOffsets = arith::ShRSIOp::create(b, loc, offsets, m.splat(offsets, 1));
  Value ptrs = tile_aa::AddPtrOp::create(b, loc, ptrsType,
                                         tile_aa::SplatOp::create(b, loc, ptrsType, base),
                                         byteOffsets);
  Value nibble = arith::AndIOp::create(b, loc, offsets, m.splat(offsets, 1));
  return {ptrs, nibble};
}

std::pair<Value, Value> loadSubByteTile(ConversionPatternRewriter &rewriter, Operation *op,
                                        const TileAccess &access, RankedTensorType type,
                                        Value padding, Value token) {
  Location loc = op->getLoc();
  NibbleMath m{rewriter, loc};
  auto [ptrs, nibble] = bytePointers(rewriter, loc, access, access.offsets);
  auto bytesType = type.clone(rewriter.getI8Type());
  Value zeros;
  if (access.mask)
    zeros = arith::ConstantOp::create(rewriter, loc, bytesType, rewriter.getZeroAttr(bytesType));
  auto load = tile_aa::LoadOp::create(rewriter, loc, bytesType,
                                      tile_aa::TokenType::get(op->getContext()),
                                      accessPointers(rewriter, op, ptrs), access.mask, zeros,
                                      token, rewriter.getI64IntegerAttr(1), IntegerAttr());
  Value bytes = load.getResult();
  Value shift = arith::ShLIOp::create(rewriter, loc, m.resize(nibble, rewriter.getI8Type()),
                                      m.splat(bytes, 2));
  Value fields = m.resize(arith::ShRUIOp::create(rewriter, loc, bytes, shift),
                        rewriter.getIntegerType(getPackedBits(type.getElementType())));
  ByteView v{rewriter, loc};
  Value tile = v.asElements(fields, type.getElementType());
  if (access.mask && padding)
    tile = arith::SelectOp::create(rewriter, loc, access.mask, tile, padding);
  return {tile, load.getResultToken()};
}

/// The even-numbered elements of `value` along its last dimension (which
/// has an even size): the first element of each byte.
static Value firstOfEachPair(ByteView &v, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t n = type.getNumElements();
  Value pairs = v.reshape(value, {n / 2, 2});
  Value zero = arith::ConstantOp::create(v.b, v.loc, v.b.getI32IntegerAttr(0));
  Value first = tile_aa::ExtractOp::create(
      v.b, v.loc, RankedTensorType::get({n / 2, 1}, type.getElementType()), pairs,
      ValueRange{zero, zero});
  SmallVector<int64_t> shape(type.getShape());
  shape.back() /= 2;
  return v.reshape(first, shape);
}

Value storeSubByteTile(ConversionPatternRewriter &rewriter, Operation *op,
                       const TileAccess &access, Value tile, Value token) {
  Location loc = op->getLoc();
  NibbleMath m{rewriter, loc};
  ByteView v{rewriter, loc};
  auto type = cast<RankedTensorType>(tile.getType());
  Value fields = v.asBitFields(tile);
  Type tokenType = tile_aa::TokenType::get(op->getContext());

  if (access.contiguity >= 2) {
    // Whole bytes: each row's elements 2k and 2k + 1 make byte k.
    SmallVector<int64_t> shape(type.getShape());
    shape.back() /= 2;
    Value bytes = v.reshape(v.toBytes(v.reshape(fields, {type.getNumElements()}),
                                      getPackedBits(type.getElementType())),
                            shape);
    Value offsets = firstOfEachPair(v, access.offsets);
    Value mask = access.mask ? firstOfEachPair(v, access.mask) : Value();
    Value ptrs = bytePointers(rewriter, loc, access, offsets).first;
    return tile_aa::StoreOp::create(rewriter, loc, tokenType, accessPointers(rewriter, op, ptrs),
                                    bytes, mask, token,
                                    rewriter.getI64IntegerAttr(access.contiguity / 2));
  }

  // Nibble by nibble: clear it, then set it, in its aligned 32-bit word.
  auto [ptrs, nibble] = bytePointers(rewriter, loc, access, access.offsets);
  Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
  Value addresses = tile_aa::PtrToIntOp::create(rewriter, loc, type.clone(i64), ptrs);
  Value words = arith::AndIOp::create(rewriter, loc, addresses, m.splat(addresses, ~int64_t(3)));
  auto ptrType = cast<tile_aa::PtrType>(access.base.getType());
  auto wordPtrs = type.clone(tile_aa::PtrType::get(op->getContext(), i32,
                                                   ptrType.getAddressSpace()));
  Value wordPointers =
      accessPointers(rewriter, op, tile_aa::IntToPtrOp::create(rewriter, loc, wordPtrs, words));
  // Bit position: 8 * (byte within the word) + 4 * nibble.
  Value byteInWord = m.resize(arith::AndIOp::create(rewriter, loc, addresses, m.splat(addresses, 3)),
                            i32);
  Value shift = arith::AddIOp::create(
      rewriter, loc, arith::ShLIOp::create(rewriter, loc, byteInWord, m.splat(byteInWord, 3)),
      arith::ShLIOp::create(rewriter, loc, m.resize(nibble, i32), m.splat(byteInWord, 2)));
  Value placed = arith::ShLIOp::create(rewriter, loc, m.resize(fields, i32), shift);
  Value keep = arith::XOrIOp::create(
      rewriter, loc, arith::ShLIOp::create(rewriter, loc, m.splat(shift, 0xF), shift),
      m.splat(shift, -1));
  auto atomic = [&](StringRef mode, Value value) {
    tile_aa::AtomicRMWOp::create(rewriter, loc, value.getType(), wordPointers, value, access.mask,
                                 rewriter.getStringAttr(mode), rewriter.getStringAttr("relaxed"),
                                 rewriter.getStringAttr("device"));
  };
  atomic("and", keep);
  atomic("or", placed);
  if (token)
    return token;
  return tile_aa::MakeTokenOp::create(rewriter, loc, tokenType);
}

} // namespace tilepipe
