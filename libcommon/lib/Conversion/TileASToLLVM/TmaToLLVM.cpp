//===- TmaToLLVM.cpp - wgmma operands loaded by TMA -----------------------===//
//
// The TMA form of the wgmma staging (docs/hopper-tma.md): where the staged
// operands of an mmaf_global carry their views (both, or B alone where A
// comes from registers, as FMHA's Q and P do, or is copied by cp.async, as
// the fused MoE kernel's gathered rows are), the tiles go from global to
// shared memory with cp.async.bulk.tensor instead of per-thread cp.async.
//
// - Tensor maps. The launcher passes pointers, shapes and strides, not maps,
//   so the kernel builds them: thread 0 writes each field with
//   tensormap.replace into this CTA's slot of a zero-initialized global
//   array (one per op, kMapSlots slots of 128 bytes per map, the slot the
//   linear CTA id modulo kMapSlots), then fence.proxy.tensormap::generic
//   release and acquire make the map visible to its own TMA loads. Slots
//   are reused only by CTAs of the same launch, which write the same bytes
//   (concurrent launches of one kernel on several streams are unsupported).
//   A zeroed map written this way worked on an H100
//   (docs/gpu-runs/2026-11-25-h100-tma.log). Where the views' bases, sizes
//   and strides are known in the function's entry block (kernel arguments
//   and constants, as in cuTile's K loops) the maps are built there, once
//   per CTA; otherwise at every execution of the op.
// - Boxes. A box is one swizzle-width block of the staged array: W bytes
//   of the contiguous dimension (W / 2 f16, W / 4 tf32, W fp8 elements: a
//   swizzled box's inner extent is at most the swizzle width) and, for B,
//   the chunk's rows (its rows are staged in order; a K-major B, from a
//   transposed view such as FMHA's K^T, has N rows and K contiguous, so its
//   box is W bytes of the chunk's K by up to 256 N rows); A's rows are
//   staged in the order of the wgmma fragments (WgmmaToLLVM.cpp), which
//   keeps runs of 8 rows, so A is loaded as boxes of 8 rows. TMA writes a
//   box in the canonical swizzled layout the descriptors describe (bits 4-6
//   of the address XOR bits 7-9, for a 1024-byte aligned buffer) and fills
//   what lies outside the view with zero bytes: mmaf_global's +0.0 padding
//   for every element type. The map's elemtype only sizes the elements
//   (u8 for fp8, f32 for tf32, which is rounded after landing).
// - Completion. One mbarrier per staging buffer (after the staging in the
//   scratch), initialized by thread 0 when the op starts and invalidated when
//   it ends (the op may run again with the phases back at 0). Per chunk,
//   after the barrier that frees the buffer, thread 0 arrives with
//   expect_tx of the chunk's bytes and issues the boxes; every thread then
//   waits on the buffer's parity, which flips each time the buffer is
//   reused. TMA writes through the async proxy, which wgmma reads, so no
//   proxy fence is needed.
//
//===----------------------------------------------------------------------===//
#include "MatrixLowering.h"
#include "SharedScratch.h"
#include "SwizzledStaging.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// Slots per map array, and the bytes (and alignment) of one map.
constexpr int64_t kMapSlots = 1024, kMapBytes = 128;
constexpr unsigned kGlobalSpace = 1, kSharedClusterSpace = 7;
/// tensormap.replace's elemtype and swizzle_mode encodings (PTX ISA
/// "Tensormap"; the swizzle mode is 1, 2, 3 for 32, 64, 128 bytes).
constexpr int32_t kElemTypeU8 = 0, kElemTypeF16 = 6, kElemTypeF32 = 7, kElemTypeBF16 = 10;
/// The suspend-time hint of mbarrier.try_wait.parity, in nanoseconds.
constexpr int32_t kWaitTicks = 1000000;
/// The largest TMA box extent (boxDim of the tensor map), and the rows of
/// the 8-row swizzle pattern a box's row count stays a multiple of.
constexpr int64_t kMaxBoxRows = 256, kCoreRows = 8;

void callIntrinsic(RegisterEmitter &e, StringRef name, ValueRange args) {
  LLVM::CallIntrinsicOp::create(e.builder, e.loc, e.builder.getStringAttr(name), args);
}

/// Where this CTA's maps live: `count` consecutive maps in its slot of a
/// new zeroed global array (global pointers).
SmallVector<Value> getMapSlots(RegisterEmitter &e, Operation *op, unsigned count) {
  OpBuilder &b = e.builder;
  ModuleOp module = getTopModule(op);
  unsigned existing = llvm::count_if(module.getOps<LLVM::GlobalOp>(), [](LLVM::GlobalOp g) {
    return g.getSymName().starts_with("__tile_tma_maps");
  });
  int64_t slotBytes = count * kMapBytes;
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), kMapSlots * slotBytes);
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto zeros = DenseElementsAttr::get(
        RankedTensorType::get({kMapSlots * slotBytes}, b.getI8Type()), b.getI8IntegerAttr(0));
    global = LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                                    LLVM::Linkage::Internal,
                                    "__tile_tma_maps" + std::to_string(existing), zeros,
                                    kMapBytes, kGlobalSpace);
  }
  IndexMath m{e};
  Type i32 = b.getI32Type();
  Value x = NVVM::BlockIdXOp::create(b, e.loc, i32), y = NVVM::BlockIdYOp::create(b, e.loc, i32),
        z = NVVM::BlockIdZOp::create(b, e.loc, i32);
  Value nx = NVVM::GridDimXOp::create(b, e.loc, i32), ny = NVVM::GridDimYOp::create(b, e.loc, i32);
  Value cta = LLVM::AddOp::create(
      b, e.loc, x,
      LLVM::MulOp::create(b, e.loc, nx, LLVM::AddOp::create(b, e.loc, y,
                                                            LLVM::MulOp::create(b, e.loc, ny, z))));
  Value slot = m.mul(LLVM::URemOp::create(b, e.loc, cta, e.i32(kMapSlots)), slotBytes);
  Value base = LLVM::AddressOfOp::create(b, e.loc, global);
  SmallVector<Value> maps;
  for (unsigned i = 0; i < count; ++i)
    maps.push_back(LLVM::GEPOp::create(b, e.loc, base.getType(), b.getI8Type(), base,
                                       ArrayRef<LLVM::GEPArg>{m.add(slot, i * kMapBytes)}));
  return maps;
}

Value toI64(RegisterEmitter &e, Value v) {
  if (v.getType().getIntOrFloatBitWidth() == 64)
    return v;
  return LLVM::SExtOp::create(e.builder, e.loc, e.builder.getI64Type(), v);
}

/// The map's elemtype for operands of `element` held in `bytes` bytes. TMA
/// only moves bits (the zero fill is all-zero bytes for every type), so
/// fp8 maps are u8 and tf32 ones (f32 data, rounded once landed) f32.
int32_t getMapElementType(Type element, unsigned bytes) {
  if (bytes == 1)
    return kElemTypeU8;
  if (bytes == 4)
    return kElemTypeF32;
  return element.isBF16() ? kElemTypeBF16 : kElemTypeF16;
}

/// Writes every field of the map of `view` for `boxes` (box extents `box`,
/// innermost dimension first) of `element`s.
void emitMapFields(RegisterEmitter &e, Value map, const TmaView &view, Type element,
                   const TmaBoxes &boxes, ArrayRef<int64_t> box) {
  int64_t rank = view.sizes.size();
  Value address = LLVM::PtrToIntOp::create(e.builder, e.loc, e.builder.getI64Type(), view.base);
  callIntrinsic(e, "llvm.nvvm.tensormap.replace.global.address.p1", {map, address});
  callIntrinsic(e, "llvm.nvvm.tensormap.replace.rank.p1", {map, e.i32(rank - 1)});
  callIntrinsic(e, "llvm.nvvm.tensormap.replace.elemtype.p1",
                {map, e.i32(getMapElementType(element, boxes.elementBytes))});
  int32_t swizzle = boxes.width == 128 ? 3 : boxes.width == 64 ? 2 : 1;
  callIntrinsic(e, "llvm.nvvm.tensormap.replace.swizzle.mode.p1", {map, e.i32(swizzle)});
  for (int64_t i = 0; i < rank; ++i) {
    // Map dimension i is the view's dimension rank - 1 - i.
    callIntrinsic(e, "llvm.nvvm.tensormap.replace.global.dim.p1",
                  {map, e.i32(i), toI32(e, view.sizes[rank - 1 - i])});
    if (i + 1 < rank) {
      // The byte stride of map dimension i + 1.
      Value stride = LLVM::MulOp::create(e.builder, e.loc, toI64(e, view.strides[rank - 2 - i]),
                                         e.i64(boxes.elementBytes));
      callIntrinsic(e, "llvm.nvvm.tensormap.replace.global.stride.p1", {map, e.i32(i), stride});
    }
    callIntrinsic(e, "llvm.nvvm.tensormap.replace.box.dim.p1",
                  {map, e.i32(i), e.i32(i < int64_t(box.size()) ? box[i] : 1)});
    callIntrinsic(e, "llvm.nvvm.tensormap.replace.element.stride.p1", {map, e.i32(i), e.i32(1)});
  }
}

} // namespace

Value toI32(RegisterEmitter &e, Value v) {
  unsigned width = v.getType().getIntOrFloatBitWidth();
  if (width == 32)
    return v;
  return width > 32 ? LLVM::TruncOp::create(e.builder, e.loc, e.builder.getI32Type(), v).getResult()
                    : LLVM::SExtOp::create(e.builder, e.loc, e.builder.getI32Type(), v).getResult();
}

/// Where the maps of `operands`' views can be built once per CTA: in the
/// entry block of `op`'s function, after the last of their base, sizes and
/// strides defined there (its start when all are arguments). nullopt where
/// one is defined elsewhere (the maps are then built at `op`).
static std::optional<std::pair<Block *, Block::iterator>>
getEntryInsertionPoint(Operation *op, ArrayRef<TmaOperand> operands) {
  auto function = op->getParentOfType<FunctionOpInterface>();
  if (!function || function.getFunctionBody().empty())
    return std::nullopt;
  Block *entry = &function.getFunctionBody().front();
  Operation *last = nullptr;
  for (const TmaOperand &operand : operands) {
    const TmaView &view = operand.view;
    SmallVector<Value> values{view.base};
    llvm::append_range(values, view.sizes);
    llvm::append_range(values, view.strides);
    for (Value value : values) {
      if (auto argument = dyn_cast<BlockArgument>(value)) {
        if (argument.getOwner() != entry)
          return std::nullopt;
        continue;
      }
      Operation *def = value.getDefiningOp();
      if (def->getBlock() != entry)
        return std::nullopt;
      if (!last || last->isBeforeInBlock(def))
        last = def;
    }
  }
  return std::make_pair(entry, last ? std::next(last->getIterator()) : entry->begin());
}

SmallVector<Value> buildTensorMaps(ConversionPatternRewriter &rewriter, RegisterEmitter &e,
                                   Operation *op, ArrayRef<TmaOperand> operands, Type element,
                                   int64_t issuer) {
  OpBuilder &builder = e.builder;
  MLIRContext *context = builder.getContext();
  // The maps: once per CTA at the function's start where the views are
  // known there (a K loop then does not rebuild them), else here.
  std::optional<std::pair<Block *, Block::iterator>> entry = getEntryInsertionPoint(op, operands);
  if (entry)
    builder.setInsertionPoint(entry->first, entry->second);
  SmallVector<Value> slots = getMapSlots(e, op, operands.size());
  auto generic = LLVM::LLVMPointerType::get(context);
  SmallVector<Value> maps;
  for (Value slot : slots)
    maps.push_back(LLVM::AddrSpaceCastOp::create(builder, e.loc, generic, slot));
  emitIf(rewriter, e.loc, isThread(e, issuer), [&] {
    for (auto [slot, operand] : llvm::zip(slots, operands))
      emitMapFields(e, slot, operand.view, element, operand.boxes,
                    {operand.boxes.perBlock(), operand.boxes.boxRows});
    NVVM::FenceProxyReleaseOp::create(builder, e.loc, NVVM::MemScopeKind::GPU);
    for (Value map : maps)
      NVVM::FenceProxyAcquireOp::create(builder, e.loc, NVVM::MemScopeKind::GPU, map,
                                        e.i32(kMapBytes));
  });
  // emitIf moved `op` to the continuation block: continue right before it.
  builder.setInsertionPoint(op);
  return maps;
}

TmaBoxes getTmaBoxes(const SwizzledArray &array, int64_t boxRows,
                     SmallVector<int64_t> stagedRows) {
  TmaBoxes boxes;
  boxes.width = array.width;
  boxes.blocks = array.blocks;
  boxes.blockBytes = array.blockBytes();
  boxes.elementBytes = array.elementBytes;
  boxes.boxRows = boxRows;
  boxes.stagedRows = std::move(stagedRows);
  return boxes;
}

TmaBoxes getRowBoxes(const SwizzledArray &array, int64_t rows) {
  int64_t boxRows = std::min(rows, kMaxBoxRows);
  while (rows % boxRows)
    boxRows -= kCoreRows;
  SmallVector<int64_t> stagedRows;
  for (int64_t row = 0; row < rows; row += boxRows)
    stagedRows.push_back(row);
  return getTmaBoxes(array, boxRows, std::move(stagedRows));
}

Value isThread(RegisterEmitter &e, int64_t thread) {
  Value tid = NVVM::ThreadIdXOp::create(e.builder, e.loc, e.builder.getI32Type());
  return LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::eq, tid, e.i32(thread));
}

TmaLoads::TmaLoads(ConversionPatternRewriter &rewriter, RegisterEmitter &e, Operation *op,
                   SmallVector<TmaOperand, 2> operandList, Type element, Value barriers,
                   int64_t buffers)
    : rewriter(rewriter), e(e), operands(std::move(operandList)), barriers(barriers),
      buffers(buffers) {
  maps = buildTensorMaps(rewriter, e, op, operands, element);
  producer = isThread0(e);
  emitIf(rewriter, e.loc, producer, [&] {
    for (int64_t i = 0; i < buffers; ++i)
      NVVM::MBarrierInitOp::create(e.builder, e.loc, barrier(i), e.i32(1), Value());
  });
}

Value TmaLoads::barrier(int64_t buffer) const {
  return LLVM::GEPOp::create(e.builder, e.loc, barriers.getType(), e.builder.getI64Type(),
                             barriers, ArrayRef<LLVM::GEPArg>{int32_t(buffer)});
}

void TmaLoads::start(int64_t chunk, int64_t k0, ArrayRef<Value> dsts) {
  emitIf(rewriter, e.loc, producer, [&] { issue(chunk, k0, dsts); });
}

void TmaLoads::issue(int64_t chunk, int64_t k0, ArrayRef<Value> dsts) {
  Value bar = barrier(chunk % buffers);
  int64_t bytes = 0;
  for (const TmaOperand &operand : operands)
    bytes += operand.boxes.bytes();
  NVVM::MBarrierArriveExpectTxOp::create(e.builder, e.loc, TypeRange(), bar, e.i32(bytes),
                                         NVVM::MemScopeKind::CTA, false, Value());
  for (auto [map, operand, dst] : llvm::zip(maps, operands, dsts))
    issueTmaBoxes(e, map, operand, dst, k0, bar, /*ctaDestination=*/false);
}

LogicalResult TmaLoads::wait(int64_t chunk) {
  // NVVM's blocking wait (a try_wait loop) exists only as PTX.
  auto wait = NVVM::MBarrierTryWaitParityOp::create(e.builder, e.loc, barrier(chunk % buffers),
                                                    e.i32((chunk / buffers) % 2),
                                                    e.i32(kWaitTicks));
  return emitAsInlinePtx(rewriter, wait.getOperation());
}

LogicalResult TmaLoads::load(int64_t chunk, int64_t k0, ArrayRef<Value> dsts) {
  start(chunk, k0, dsts);
  return wait(chunk);
}

void issueTmaBoxes(RegisterEmitter &e, Value map, const TmaOperand &operand, Value dst,
                   int64_t k0, Value bar, bool ctaDestination) {
  OpBuilder &builder = e.builder;
  const TmaView &view = operand.view;
  const TmaBoxes &boxes = operand.boxes;
  // The chunk starts at K offset k0: along the contiguous dimension (A, a
  // K-major B) or the rows (an N-major B).
  int64_t innerOffset = operand.kContiguous ? k0 : 0, rowOffset = operand.kContiguous ? 0 : k0;
  int64_t rank = view.starts.size();
  IndexMath m{e};
  // The box coordinates are loop-invariant in a K loop of chunks: computed
  // from unhoistable copies of the starts, here in thread 0's branch, they
  // are not held across the loop in every thread (A's 16 row coordinates
  // of a 128-row chunk spilled the fp8 BatchMatMul).
  Value inner = m.add(e.unhoistable(toI32(e, view.starts[rank - 1])), innerOffset);
  Value row = m.add(e.unhoistable(toI32(e, view.starts[rank - 2])), rowOffset);
  for (int64_t block = 0; block < boxes.blocks; ++block)
    for (auto [group, stagedRow] : llvm::enumerate(boxes.stagedRows)) {
      SmallVector<Value> coords{m.add(inner, block * boxes.perBlock()),
                                m.add(row, int64_t(group) * boxes.boxRows)};
      for (int64_t d = rank - 3; d >= 0; --d)
        coords.push_back(toI32(e, view.starts[d]));
      Value at = LLVM::GEPOp::create(
          builder, e.loc, dst.getType(), builder.getI8Type(), dst,
          ArrayRef<LLVM::GEPArg>{int32_t(block * boxes.blockBytes + stagedRow * boxes.width)});
      // The shared::cluster form: this CTA's shared memory as address space
      // 7; the shared::cta form takes it as it is.
      if (!ctaDestination)
        at = LLVM::AddrSpaceCastOp::create(
            builder, e.loc, LLVM::LLVMPointerType::get(builder.getContext(), kSharedClusterSpace),
            at);
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          builder, e.loc, at, map, coords, bar, ValueRange(), Value(), Value(),
          NVVM::TMALoadModeAttr::get(builder.getContext(), NVVM::TMALoadMode::TILE),
          builder.getBoolAttr(ctaDestination), NVVM::CTAGroupKindAttr(), Value());
    }
}

void TmaLoads::finish() {
  emitIf(rewriter, e.loc, producer, [&] {
    for (int64_t i = 0; i < buffers; ++i)
      NVVM::MBarrierInvalOp::create(e.builder, e.loc, barrier(i));
  });
}

} // namespace tilepipe::tile_as
