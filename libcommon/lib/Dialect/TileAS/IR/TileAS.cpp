//===- TileAS.cpp - The assembler-level tile dialect (tile_as) ------------===//
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileShapeChecks.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::tile_as;

#include "tilepipe/Dialect/TileAS/IR/TileASDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilepipe/Dialect/TileAS/IR/TileASAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilepipe/Dialect/TileAS/IR/TileASTypes.cpp.inc"

void TileASDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilepipe/Dialect/TileAS/IR/TileASAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilepipe/Dialect/TileAS/IR/TileASTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilepipe/Dialect/TileAS/IR/TileASOps.cpp.inc"
      >();
}

static bool allPowersOfTwo(ArrayRef<unsigned> values) {
  return llvm::all_of(values, [](unsigned v) { return llvm::isPowerOf2_32(v); });
}

LogicalResult
BlockedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                    ArrayRef<unsigned> sizePerThread,
                    ArrayRef<unsigned> threadsPerWarp,
                    ArrayRef<unsigned> warpsPerCTA, ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank == 0 || threadsPerWarp.size() != rank ||
      warpsPerCTA.size() != rank || order.size() != rank)
    return emitError() << "blocked layout parameters must have one rank >= 1";
  if (!allPowersOfTwo(sizePerThread) || !allPowersOfTwo(threadsPerWarp) ||
      !allPowersOfTwo(warpsPerCTA))
    return emitError() << "blocked layout sizes must be powers of two";
  SmallVector<bool> seen(rank, false);
  for (unsigned dim : order) {
    if (dim >= rank || seen[dim])
      return emitError() << "blocked layout order must be a permutation";
    seen[dim] = true;
  }
  return success();
}

LogicalResult BroadcastOp::verify() {
  return verifyBroadcastShapes(*this, getSrc().getType(), getResult().getType());
}

LogicalResult DirectedArithOp::verify() {
  return verifyDirectedArith(*this, getKind(), getRounding(), getFlushToZero(),
                             getType(), getOperands().size());
}

LogicalResult IotaOp::verify() {
  return verifyIotaAxis(*this, getAxis(), getResult().getType());
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  return {};
}

LogicalResult LoadOp::verify() {
  return verifyMemoryAccess(*this, getPtrs().getType(), getResult().getType(),
                            getMask(), getOther(), getContiguity(),
                            getTransposedContiguity(), getViewAlignment());
}

LogicalResult StoreOp::verify() {
  return verifyMemoryAccess(*this, getPtrs().getType(), getValue().getType(),
                            getMask(), Value(), getContiguity());
}

LogicalResult StoreTmaOp::verify() {
  auto type = cast<RankedTensorType>(getValue().getType());
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  if (!element.isF16() && !element.isBF16())
    return emitOpError("stores f16 or bf16 tiles only, not ") << element;
  if (cast<PtrType>(getBase().getType()).getPointeeType() != element)
    return emitOpError("base points to ")
           << cast<PtrType>(getBase().getType()).getPointeeType() << ", the tile holds " << element;
  // The view lists 3r - 1 values for a rank-r tile (r from the value's
  // rank, which may drop leading unit dimensions, to 5).
  int64_t viewRank = (int64_t(getView().size()) + 1) / 3;
  if (rank < 2 || int64_t(getView().size()) != 3 * viewRank - 1 || viewRank < rank ||
      viewRank > 5)
    return emitOpError("needs a tile of rank 2 or more and 3r - 1 view values for r from its "
                       "rank to 5, has rank ")
           << rank << " and " << getView().size() << " values";
  if (llvm::any_of(type.getShape().drop_back(2), [](int64_t d) { return d != 1; }))
    return emitOpError("tile dimensions before the last two must be 1");
  return success();
}

LogicalResult MmaFGlobalOp::verify() {
  // A mask pads a read; an operand in registers has nothing to pad.
  if (getLhsMask() && !isGlobal(getLhs()))
    return emitOpError("lhs mask without lhs pointers");
  if (getRhsMask() && !isGlobal(getRhs()))
    return emitOpError("rhs mask without rhs pointers");
  if (!isGlobal(getLhs()) && !isGlobal(getRhs()))
    return emitOpError("needs lhs or rhs as global pointers (else it is a tile_as.mmaf)");
  // Only a copied f32 tile can be rounded to tf32 after the copy.
  auto checkTF32 = [&](StringRef name, Value operand, bool toTF32) -> LogicalResult {
    if (toTF32 && (!isGlobal(operand) ||
                   !cast<PtrType>(cast<RankedTensorType>(operand.getType()).getElementType())
                        .getPointeeType()
                        .isF32()))
      return emitOpError() << name << "_tf32 needs " << name << " as pointers to f32";
    return success();
  };
  if (failed(checkTF32("lhs", getLhs(), getLhsTf32())) ||
      failed(checkTF32("rhs", getRhs(), getRhsTf32())))
    return failure();
  // A shortened run is a positive run length of a pointer operand.
  auto checkRun = [&](StringRef name, Value operand,
                      std::optional<uint64_t> run) -> LogicalResult {
    if (run && (!isGlobal(operand) || int64_t(*run) < 1))
      return emitOpError() << name << "_run needs " << name
                           << " as pointers and a positive length";
    return success();
  };
  if (failed(checkRun("lhs", getLhs(), getLhsRun())) ||
      failed(checkRun("rhs", getRhs(), getRhsRun())))
    return failure();
  if (getRhsKRuns() && !isGlobal(getRhs()))
    return emitOpError("rhs_k_runs needs rhs as pointers");
  // A view lists r sizes, r - 1 strides and r starts of a rank-r tile whose
  // leading unit dimensions the operand dropped.
  auto checkView = [&](StringRef name, Value operand, Value base,
                       ValueRange view) -> LogicalResult {
    if (!base && view.empty())
      return success();
    if (!base || !isGlobal(operand))
      return emitOpError() << name << " view without " << name << " pointers and base";
    int64_t rank = (int64_t(view.size()) + 1) / 3;
    if (int64_t(view.size()) != 3 * rank - 1 || rank > 5 ||
        rank < cast<RankedTensorType>(operand.getType()).getRank())
      return emitOpError() << name << " view has " << view.size()
                           << " values, not 3r - 1 for a tile of rank r (operand rank to 5)";
    return success();
  };
  if (failed(checkView("lhs", getLhs(), getLhsBase(), getLhsView())))
    return failure();
  if (getRhsViewTransposed() && !getRhsBase())
    return emitOpError("rhs_view_transposed without an rhs view");
  return checkView("rhs", getRhs(), getRhsBase(), getRhsView());
}

LogicalResult MmaStageCopyOp::verify() {
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  int64_t rank = lhs.getRank();
  if ((rank != 2 && rank != 3) || rhs.getRank() != rank ||
      lhs.getShape().back() != rhs.getShape()[rank - 2])
    return emitOpError("operands are not [M, K] and [K, N] (or batched)");
  // The attributes are signless i64; their getters return them unsigned.
  int64_t k = lhs.getShape().back(), offset = getKOffset(), len = getKLen(),
          chunk = getChunk(), stages = getStages();
  if (offset < 0 || len <= 0 || offset + len > k || len > chunk || stages < 1)
    return emitOpError("K range [") << offset << ", " << offset + len << ") does not fit K " << k
                                    << " and the ring's chunk " << chunk;
  return success();
}

/// The ring attributes of the TMA ring ops: an [M, N] accumulator type and
/// a ring of at least two slots of a positive chunk.
static LogicalResult verifyTmaRing(Operation *op, Type accType, int64_t chunk, int64_t stages) {
  auto acc = dyn_cast<RankedTensorType>(accType);
  if (!acc || acc.getRank() != 2)
    return op->emitOpError("acc_type is not a rank-2 tensor type");
  if (chunk <= 0 || stages < 2)
    return op->emitOpError("ring of ") << stages << " slots of " << chunk
                                       << " K (at least 2 slots, a positive chunk)";
  return success();
}

LogicalResult TmaRingBeginOp::verify() {
  for (size_t size : {getLhsView().size(), getRhsView().size()})
    if (size % 3 != 2 || size < 5 || size > 14)
      return emitOpError("view has ") << size << " values, not 3r - 1 for a rank r from 2 to 5";
  return verifyTmaRing(*this, getAccType(), getChunk(), getStages());
}

LogicalResult TmaStageLoadOp::verify() {
  for (size_t rank : {getLhsStarts().size(), getRhsStarts().size()})
    if (rank < 2 || rank > 5)
      return emitOpError("has ") << rank << " starts, not a rank from 2 to 5";
  return verifyTmaRing(*this, getAccType(), getChunk(), getStages());
}

LogicalResult TmaRingLeaveOp::verify() {
  return verifyTmaRing(*this, getAccType(), getChunk(), getStages());
}

LogicalResult TmaRingCloseOp::verify() {
  return verifyTmaRing(*this, getAccType(), getChunk(), getStages());
}

LogicalResult ProducerWarpgroupOp::verify() {
  // Whole warpgroups before the producer (the wgmma accumulator's warps).
  if (getConsumerThreads() <= 0 || getConsumerThreads() % 128 != 0 ||
      getConsumerThreads() + 128 > 1024)
    return emitOpError("consumer_threads ")
           << getConsumerThreads()
           << " is not a positive multiple of 128 leaving room for a producer warpgroup "
              "in a 1024-thread CTA";
  return success();
}

LogicalResult SetMaxNRegOp::verify() {
  // The PTX ISA's range for setmaxnreg's imm-reg-count.
  if (getCount() < 24 || getCount() > 256 || getCount() % 8 != 0)
    return emitOpError("count ") << getCount() << " is not a multiple of 8 from 24 to 256";
  return success();
}

#define GET_OP_CLASSES
#include "tilepipe/Dialect/TileAS/IR/TileASOps.cpp.inc"
