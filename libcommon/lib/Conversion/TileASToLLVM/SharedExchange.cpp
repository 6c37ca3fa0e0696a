//===- SharedExchange.cpp - Move tensor elements between threads ----------===//
#include "SharedExchange.h"
#include "SharedScratch.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe::tile_as;

Value tilepipe::tile_as::rowMajorSlot(RegisterEmitter &e, ArrayRef<Value> coords,
                                      ArrayRef<int64_t> shape) {
  Value slot;
  for (auto [coord, extent] : llvm::zip(coords, shape)) {
    if (!slot) {
      slot = coord;
      continue;
    }
    slot = LLVM::MulOp::create(e.builder, e.loc, slot, e.i32(extent));
    slot = LLVM::AddOp::create(e.builder, e.loc, slot, coord);
  }
  return slot ? slot : e.i32(0);
}

namespace {
/// Per-register slots of one laid-out tensor, computed once for all chunks.
SmallVector<Value> registerSlots(RegisterEmitter &e, Laid laid, SlotFunction slot) {
  SmallVector<SmallVector<Value>> perDim;
  for (unsigned dim = 0; dim < laid.shape.size(); ++dim)
    perDim.push_back(e.coordinates(laid.layout, laid.shape, dim));
  SmallVector<Value> slots;
  for (int64_t reg = 0, n = getElemsPerThread(laid.layout, laid.shape); reg < n; ++reg) {
    SmallVector<Value> coords;
    for (auto &dimCoords : perDim)
      coords.push_back(dimCoords[reg]);
    slots.push_back(slot(e, coords));
  }
  return slots;
}

/// The slots [first, first + size) of the exchange, held in the scratch
/// buffer at `base`; with `sink`, accesses outside the chunk go to slot
/// `size` of the buffer.
struct Chunk {
  Value base;
  Type storage;
  int64_t first;
  int64_t size;
  bool sink;

  /// Address of `slot` and whether it lies in this chunk (null if always).
  std::pair<Value, Value> address(RegisterEmitter &e, Value slot) const {
    Value local = first ? LLVM::SubOp::create(e.builder, e.loc, slot, e.i32(first))
                               .getResult()
                        : slot;
    Value inChunk;
    if (sink) {
      inChunk = LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::ult,
                                     local, e.i32(size));
      local = LLVM::SelectOp::create(e.builder, e.loc, inChunk, local, e.i32(size));
    }
    Value address = LLVM::GEPOp::create(e.builder, e.loc, base.getType(), storage,
                                        base, ArrayRef<LLVM::GEPArg>{local});
    return {address, inChunk};
  }
};

/// Memory type of one element: at least a byte (i1 masks are stored as i8).
Type storageType(Type element) {
  if (element.isInteger() && element.getIntOrFloatBitWidth() < 8)
    return IntegerType::get(element.getContext(), 8);
  return element;
}
} // namespace

FailureOr<Value> tilepipe::tile_as::exchangeThroughShared(
    OpBuilder &builder, Operation *op, ArrayRef<ExchangeSource> sources,
    Laid result, VectorType resultType, SlotFunction resultSlot, int64_t numSlots) {
  RegisterEmitter e(builder, op->getLoc());
  SmallVector<SlottedRegisters> slotted;
  for (const ExchangeSource &source : sources)
    slotted.push_back({source.registers, registerSlots(e, source.laid, source.slot)});
  return exchangeSlots(builder, op, slotted, {Value(), registerSlots(e, result, resultSlot)},
                       resultType, numSlots);
}

FailureOr<Value> tilepipe::tile_as::exchangeSlots(OpBuilder &builder, Operation *op,
                                                  ArrayRef<SlottedRegisters> sources,
                                                  const SlottedRegisters &reads,
                                                  VectorType resultType, int64_t numSlots) {
  ArrayRef<Value> readSlots = reads.slots;
  Location loc = op->getLoc();
  RegisterEmitter e(builder, loc);
  Type element = resultType.getElementType();
  Type storage = storageType(element);
  unsigned bytes = getByteSize(storage);

  // Whole exchange in one go if it fits; otherwise power-of-two chunks that
  // leave room for the sink slot.
  int64_t capacity = kMaxStaticSharedBytes / bytes;
  bool chunked = numSlots > capacity;
  int64_t chunkSize = chunked ? int64_t(llvm::bit_floor(uint64_t(capacity - 1))) : numSlots;
  FailureOr<Value> base =
      getSharedScratch(builder, loc, op, (chunkSize + (chunked ? 1 : 0)) * bytes);
  if (failed(base))
    return failure();

  // The known alignment of a register's address (the buffer is 16-byte
  // aligned; chunks move addresses to the sink): 0 for the element's own.
  auto alignment = [&](const SlottedRegisters &slotted, size_t reg) -> unsigned {
    return chunked || slotted.alignments.empty() ? 0 : slotted.alignments[reg];
  };
  SmallVector<Value> values(readSlots.size());
  for (int64_t first = 0; first < numSlots; first += chunkSize) {
    Chunk chunk{*base, storage, first, chunkSize, chunked};
    // Earlier readers of the scratch buffer are done before it is overwritten.
    emitCTABarrier(builder, loc);
    for (const SlottedRegisters &source : sources)
      for (auto [reg, slot] : llvm::enumerate(source.slots)) {
        Value value = e.extract(source.registers, reg);
        if (storage != element)
          value = LLVM::ZExtOp::create(builder, loc, storage, value);
        LLVM::StoreOp::create(builder, loc, value, chunk.address(e, slot).first,
                              alignment(source, reg));
      }
    emitCTABarrier(builder, loc);
    for (auto [reg, slot] : llvm::enumerate(readSlots)) {
      auto [address, inChunk] = chunk.address(e, slot);
      Value value = LLVM::LoadOp::create(builder, loc, storage, address, alignment(reads, reg));
      if (storage != element)
        value = LLVM::TruncOp::create(builder, loc, element, value);
      // Each slot lies in one chunk: the first chunk fills every register,
      // later ones replace those whose slot they hold.
      if (inChunk && first)
        value = LLVM::SelectOp::create(builder, loc, inChunk, value, values[reg]);
      values[reg] = value;
    }
  }
  // Later users of the scratch buffer wait until every thread has read.
  emitCTABarrier(builder, loc);
  return e.buildVector(resultType, values);
}
