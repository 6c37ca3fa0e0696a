//===- Tcgen05ToLLVM.cpp - mmaf on Blackwell tensor cores: tcgen05.mma ----===//
//
// The tcgen05 path of mmaf for f16/bf16 operands on sm_100/103/110 (PTX ISA,
// "TensorCore 5th Generation Family Instructions"; tile-ptx turns the target
// into sm_100a etc., which tcgen05 needs).
//
// The accumulator D of a cta_group::1 tcgen05.mma with M = 128 lives in
// tensor memory: row i in lane i, column j (f32) in column j. Each kernel
// that has such an mmaf gets one tensor-memory allocation: warp 0 allocates
// it on entry (tcgen05.alloc writes its address to shared memory, then
// relinquish_alloc_permit) and frees it before returning (finishTensorMemory).
// Every (batch, 128-row block) of the tile's accumulator gets its own N
// columns of it; more than the 512 columns there are is the diagnostic
// autotuners parse (`allocated tmem out of resource: U vs M`).
//
// Per mmaf, A (as [batch * M][K]) and B (transposed, as [batch * N][K]) are
// staged a K chunk at a time in the canonical K-major layout without
// swizzling (CanonicalKMajor), published with fence.proxy.async and a CTA
// barrier. Thread 0 issues one tcgen05.mma per (k step of 16, batch, row
// block, at most 256 columns) from shared-memory descriptors (version 1 at
// bits 46-47) and a 32-bit instruction descriptor (kind::f16, f32 D, both
// operands K-major), the first k step overwriting D; tcgen05.commit makes an
// mbarrier track their completion and every thread waits for its phase
// (mbarrier.try_wait.parity) before the chunk's shared memory is reused.
// Then every warp reads its 32 lanes with tcgen05.ld.32x32b (waiting with
// tcgen05.wait::ld before it uses them), which is the accumulator layout
// AssignLayouts gave the tile (getTcgen05AccumulatorLayout): lane l of warp
// w holds row 32 * (w % 4) + l of each row block, a run of N / (W / 4)
// columns starting at (w / 4) times that. The product is added to the
// accumulator registers, so the loop-carried accumulator stays in
// registers (keeping it in tensor memory across the kernel's K loop is the
// next step). f16 accumulators accumulate in f32 and are rounded once at
// the end, as on the other tensor-core paths.
//
//===----------------------------------------------------------------------===//
#include "Tcgen05Lowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilepipe::tile_as {

Value CanonicalKMajor::slot(const IndexMath &m, Value row, Value k) const {
  int64_t core = coreElements();
  Value index = m.add(m.mul(m.div(row, kCoreRows), chunk / core), m.div(k, core));
  Value inCore = m.add(m.mul(m.rem(row, kCoreRows), core), m.rem(k, core));
  return m.add(m.mul(index, kCoreRows * core), inCore);
}

CanonicalStaging::CanonicalStaging(const MmaShape &s, int64_t elementBytes, int64_t chunk)
    : layout{elementBytes, chunk} {
  bOffset = llvm::alignTo(aElements(s) * elementBytes + kTrashBytes, CanonicalKMajor::kCoreBytes);
  bytes = bOffset + bElements(s) * elementBytes + kTrashBytes;
}

int64_t CanonicalStaging::chooseChunk(const MmaShape &s, int64_t elementBytes) {
  return chooseKChunk(s.k, CanonicalKMajor{elementBytes, 0}.stepK(), kMaxStaticSharedBytes,
                      [&](int64_t chunk) { return CanonicalStaging(s, elementBytes, chunk).bytes; });
}

namespace {

/// The minimum tensor-memory allocation (columns).
constexpr int64_t kMinAllocColumns = 32;
/// Columns one tcgen05.ld.32x32b reads (.x32): its registers are defined
/// only after tcgen05.wait::ld, so each load waits before its sum is taken,
/// and 32 at a time keep the loaded registers beside the accumulator few.
constexpr int64_t kLoadColumns = 32;
/// The suspend-time hint of the mbarrier wait (ns), as CUTLASS uses.
constexpr int32_t kWaitTicks = 10000000;
constexpr int64_t kRows = kTcgen05Rows, kMaxN = kTcgen05MaxN;
constexpr int64_t kCoreRows = CanonicalKMajor::kCoreRows;
constexpr int64_t kCoreBytes = CanonicalKMajor::kCoreBytes;

/// The shared word tcgen05.alloc writes the tensor-memory address to, and
/// the attribute on it that records the columns the kernels need.
constexpr llvm::StringLiteral kTmemAddressName = "__tile_tmem_address";
constexpr llvm::StringLiteral kTmemColumnsAttr = "tilepipe.tmem_columns";
/// The mbarrier tcgen05.commit signals.
constexpr llvm::StringLiteral kMBarrierName = "__tile_tmem_mbarrier";

/// The instruction descriptor of a kind::f16 tcgen05.mma ("Instruction
/// descriptor"): f32 D (bits 4-5 = 1), A and B types (bits 7-9, 10-12:
/// 0 f16, 1 bf16), both K-major (bits 15, 16 = 0), N >> 3 (bits 17-22),
/// M >> 4 (bits 24-28); dense, no negation or saturation.
uint32_t instructionDescriptor(bool bf16, int64_t n) {
  uint32_t type = bf16 ? 1 : 0;
  return 1u << 4 | type << 7 | type << 10 | uint32_t(n >> 3) << 17 |
         uint32_t(kRows >> 4) << 24;
}

/// A !llvm.ptr<3> to the shared global `name` of `type`, created on first use.
Value getSharedGlobal(OpBuilder &builder, Location loc, ModuleOp module,
                      llvm::StringRef name, Type type, unsigned alignment) {
  MLIRContext *context = builder.getContext();
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(builder, module.getLoc(), type, /*isConstant=*/false,
                           LLVM::Linkage::Internal, name, /*value=*/Attribute(),
                           alignment, kSharedAddressSpace);
  }
  return LLVM::AddressOfOp::create(builder, loc,
                                   LLVM::LLVMPointerType::get(context, kSharedAddressSpace),
                                   name);
}

/// Whether the calling thread is in warp 0 (i1), read at `builder`'s point.
Value isWarpZero(OpBuilder &builder, Location loc) {
  Type i32 = builder.getI32Type();
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, i32);
  Value limit = LLVM::ConstantOp::create(builder, loc, i32, builder.getI32IntegerAttr(32));
  return LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult, tid, limit);
}

/// The byte size of a staged A or B element.
int64_t elementBytesOf(Operation *op) {
  return getByteSize(getElementTypeOrSelf(op->getOperand(0).getType()));
}

} // namespace

int64_t getTmemAllocationColumns(int64_t columns) {
  return std::max<int64_t>(kMinAllocColumns, llvm::PowerOf2Ceil(columns));
}

Value getTensorMemory(OpBuilder &builder, Location loc, Operation *anchor, int64_t columns) {
  ModuleOp module = getTopModule(anchor);
  Type i32 = builder.getI32Type();
  Value slot = getSharedGlobal(builder, loc, module, kTmemAddressName, i32, 4);
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kTmemAddressName);
  int64_t recorded = 0;
  if (auto attr = global->getAttrOfType<IntegerAttr>(kTmemColumnsAttr))
    recorded = attr.getInt();
  global->setAttr(kTmemColumnsAttr, builder.getI64IntegerAttr(std::max(recorded, columns)));
  return LLVM::LoadOp::create(builder, loc, i32, slot);
}

Value getTensorPointer(RegisterEmitter &e, Value address) {
  return LLVM::IntToPtrOp::create(e.builder, e.loc,
                                  LLVM::LLVMPointerType::get(e.builder.getContext(), 6),
                                  address);
}

void emitTensorMemoryBarrier(OpBuilder &builder, Location loc) {
  NVVM::Tcgen05FenceOp::create(builder, loc, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  emitCTABarrier(builder, loc);
  NVVM::Tcgen05FenceOp::create(builder, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
}

bool CanonicalMma::fits(Operation *op) {
  FailureOr<MmaShape> shape =
      getMmaShape(cast<RankedTensorType>(op->getOperand(0).getType()).getShape(),
                  cast<RankedTensorType>(op->getOperand(2).getType()).getShape());
  return succeeded(shape) && CanonicalStaging::chooseChunk(*shape, elementBytesOf(op)) > 0;
}

FailureOr<CanonicalMma> CanonicalMma::prepare(Operation *op, Value lhs, Value rhs, Value acc,
                                              const TypeConverter &converter,
                                              RegisterEmitter &e, uint64_t minBytes) {
  Type lhsType = op->getOperand(0).getType(), rhsType = op->getOperand(1).getType();
  Type accTensor = op->getOperand(2).getType();
  FailureOr<Laid> lhsLaid = Laid::of(op, lhsType);
  FailureOr<Laid> rhsLaid = Laid::of(op, rhsType);
  FailureOr<Laid> accLaid = Laid::of(op, accTensor);
  FailureOr<MmaShape> shape = getMmaShape(cast<RankedTensorType>(lhsType).getShape(),
                                          cast<RankedTensorType>(accTensor).getShape());
  if (failed(lhsLaid) || failed(rhsLaid) || failed(accLaid) || failed(shape))
    return failure();
  CanonicalMma mma;
  mma.shape = *shape;
  mma.accLaid = *accLaid;
  mma.element = getElementTypeOrSelf(lhsType);
  mma.accElement = getElementTypeOrSelf(accTensor);
  mma.accType = converter.convertType(mma.accElement);
  mma.storage = converter.convertType(mma.element);
  if (!mma.accType || !mma.storage)
    return op->emitOpError("operand or accumulator element type has no LLVM form");
  int64_t elementBytes = elementBytesOf(op);
  mma.staging = CanonicalStaging(mma.shape, elementBytes,
                                 CanonicalStaging::chooseChunk(mma.shape, elementBytes));
  mma.a = unpackOperand(e, lhs, *lhsLaid);
  mma.b = unpackOperand(e, rhs, *rhsLaid);
  mma.c = unpackOperand(e, acc, *accLaid);
  mma.arith.computeType = e.builder.getF32Type();
  mma.sums = widenAccumulator(e, mma.c, mma.accElement, mma.arith);
  FailureOr<OperandStaging> staged = getOperandStaging(
      e.builder, e.loc, op, std::max(minBytes, mma.staging.bytes), mma.staging.bOffset);
  if (failed(staged))
    return failure();
  mma.aBase = staged->aBase;
  mma.bBase = staged->bBase;
  return mma;
}

void CanonicalMma::stageChunk(RegisterEmitter &e, int64_t k0, int64_t len,
                              llvm::function_ref<Value(size_t)> aRowOf) const {
  IndexMath m{e};
  unsigned rank = accLaid.shape.size();
  bool needsCheck = shape.k > staging.chunk();
  emitCTABarrier(e.builder, e.loc); // earlier readers of the scratch are done
  stageOperand(e, a, aBase, storage, rank - 1, k0, len, needsCheck, staging.aElements(shape),
               [&](size_t i, Value kLocal) { return staging.layout.slot(m, aRowOf(i), kLocal); });
  stageOperand(e, b, bBase, storage, rank - 2, k0, len, needsCheck, staging.bElements(shape),
               [&](size_t i, Value kLocal) {
                 Value column = m.add(m.mul(batchOf(e, b, i), shape.n), b.coords[rank - 1][i]);
                 return staging.layout.slot(m, column, kLocal);
               });
  // Staged by the generic proxy, read by the async proxy ("Memory
  // Consistency Model: Proxies").
  MLIRContext *context = e.builder.getContext();
  NVVM::FenceProxyOp::create(e.builder, e.loc,
                             NVVM::ProxyKindAttr::get(context, NVVM::ProxyKind::async_shared),
                             NVVM::SharedSpaceAttr::get(context, NVVM::SharedSpace::shared_cta));
  emitCTABarrier(e.builder, e.loc); // the chunk is complete
}

Value CanonicalMma::addBytes(RegisterEmitter &e, Value address, Value bytes) {
  Value wide = LLVM::ZExtOp::create(e.builder, e.loc, e.builder.getI64Type(), bytes);
  return LLVM::AddOp::create(e.builder, e.loc, address, wide);
}

std::pair<Value, Value> CanonicalMma::descriptors(RegisterEmitter &e, Value k, int64_t aRow,
                                                  int64_t bRow) const {
  IndexMath m{e};
  Type i64 = e.builder.getI64Type();
  uint64_t bits = staging.layout.offsetBits() | kTcgen05DescriptorVersion;
  int64_t strideBytes = staging.layout.strideBytes();
  // A k step is two core matrices along K.
  Value kBytes = m.mul(k, 2 * kCoreBytes);
  auto descriptor = [&](Value base, int64_t row) {
    Value address = LLVM::PtrToIntOp::create(e.builder, e.loc, i64, base);
    return emitMatrixDescriptor(
        e, addBytes(e, address, m.add(kBytes, row / kCoreRows * strideBytes)), bits);
  };
  return {descriptor(aBase, aRow), descriptor(bBase, bRow)};
}

void CanonicalMma::addProducts(
    RegisterEmitter &e, Value tmem,
    llvm::function_ref<std::optional<int64_t>(int64_t batch, int64_t block)> regionColumn) {
  OpBuilder &builder = e.builder;
  Location loc = e.loc;
  IndexMath m{e};
  unsigned rank = accLaid.shape.size();
  BlockedAttr layout = accLaid.layout;
  int64_t columnsPerThread = layout.getSizePerThread()[rank - 1];
  Type i32 = builder.getI32Type(), f32 = builder.getF32Type();
  // Warp w reads lanes 32 * (w % 4) on, from column (w / 4) * columnsPerThread
  // of each region.
  Value tid = NVVM::ThreadIdXOp::create(builder, loc, i32);
  Value warp = m.div(tid, kTmemLanesPerWarp);
  Value laneBase =
      LLVM::ShlOp::create(builder, loc, m.mul(m.rem(warp, 4), kTmemLanesPerWarp), e.i32(16));
  Value warpBase = m.add(m.add(tmem, laneBase), m.mul(m.div(warp, 4), columnsPerThread));
  SmallVector<int64_t> regsPerDim = getRegsPerDim(layout, accLaid.shape);
  int64_t batchRegs = shape.batched ? regsPerDim[0] : 1;
  for (int64_t batch = 0; batch < batchRegs; ++batch)
    for (int64_t block = 0; block < shape.m / kRows; ++block) {
      std::optional<int64_t> region = regionColumn(batch, block);
      if (!region)
        continue;
      for (int64_t col = 0; col < columnsPerThread;) {
        int64_t width =
            std::min<int64_t>(kLoadColumns, llvm::bit_floor(uint64_t(columnsPerThread - col)));
        Type type = width == 1 ? Type(i32) : Type(VectorType::get({width}, i32));
        Value address = getTensorPointer(e, m.add(warpBase, *region + col));
        Value loaded = NVVM::Tcgen05LdOp::create(builder, loc, type, /*pack=*/false,
                                                 NVVM::Tcgen05LdStShape::SHAPE_32X32B, address,
                                                 /*offset=*/Value());
        NVVM::Tcgen05WaitOp::create(builder, loc, NVVM::Tcgen05WaitKind::LOAD);
        for (int64_t j = 0; j < width; ++j) {
          SmallVector<int64_t> perDim{block, col + j};
          if (shape.batched)
            perDim.insert(perDim.begin(), batch);
          int64_t reg = linearizeRegister(layout, accLaid.shape, perDim);
          Value word = width == 1 ? loaded : e.extract(loaded, j);
          Value product = LLVM::BitcastOp::create(builder, loc, f32, word);
          sums[reg] = LLVM::FAddOp::create(builder, loc, sums[reg], product);
        }
        col += width;
      }
    }
}

Tcgen05Issuer Tcgen05Issuer::create(ConversionPatternRewriter &rewriter, Location loc,
                                    Operation *anchor, RegisterEmitter &e) {
  Tcgen05Issuer issuer;
  issuer.barrier = getSharedGlobal(rewriter, loc, getTopModule(anchor), kMBarrierName,
                                   rewriter.getI64Type(), 8);
  Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
  issuer.leader = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid, e.i32(0));
  // The barrier before the first chunk's staging publishes the init.
  emitIf(rewriter, loc, issuer.leader, [&] {
    NVVM::MBarrierInitOp::create(rewriter, loc, issuer.barrier, e.i32(1), Value());
  });
  return issuer;
}

LogicalResult Tcgen05Issuer::issueAndWait(ConversionPatternRewriter &rewriter, Location loc,
                                          int64_t phase, llvm::function_ref<void()> issue) const {
  emitIf(rewriter, loc, leader, [&] {
    NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    issue();
    NVVM::Tcgen05CommitOp::create(rewriter, loc, barrier, /*multicastMask=*/Value());
  });
  Type i32 = rewriter.getI32Type();
  auto constant = [&](int32_t value) {
    return LLVM::ConstantOp::create(rewriter, loc, i32, rewriter.getI32IntegerAttr(value));
  };
  auto wait = NVVM::MBarrierTryWaitParityOp::create(rewriter, loc, barrier, constant(phase % 2),
                                                    constant(kWaitTicks));
  return emitAsInlinePtx(rewriter, wait.getOperation());
}

void Tcgen05Issuer::invalidate(ConversionPatternRewriter &rewriter, Location loc) const {
  emitIf(rewriter, loc, leader, [&] { NVVM::MBarrierInvalOp::create(rewriter, loc, barrier); });
}

bool canLowerToTcgen05(MmaFOp op) { return hasTcgen05Form(op) && CanonicalMma::fits(op); }

LogicalResult lowerTcgen05(MmaFOp op, Value lhs, Value rhs, Value acc,
                           const TypeConverter &converter,
                           ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  FailureOr<MmaShape> shape = getMmaShape(op);
  if (failed(shape))
    return failure();
  const MmaShape &s = *shape;
  // One accumulator region of N columns per (batch, 128-row block).
  int64_t rowBlocks = s.m / kRows;
  int64_t columns = s.batch * rowBlocks * s.n;
  if (columns > kTmemColumns)
    return op.emitError("allocated tmem out of resource: ")
           << getTmemAllocationColumns(columns) << " vs " << kTmemColumns << " (the " << s.m
           << "x" << s.n << " f32 accumulator"
           << (s.batched ? " of each of " + std::to_string(s.batch) + " batches" : "")
           << " takes " << columns << " tensor-memory columns)";

  RegisterEmitter e(rewriter, loc);
  IndexMath m{e};
  FailureOr<CanonicalMma> prepared = CanonicalMma::prepare(op, lhs, rhs, acc, converter, e);
  if (failed(prepared))
    return failure();
  CanonicalMma &mma = *prepared;
  const CanonicalStaging &staging = mma.staging;
  const OperandRegs &a = mma.a;
  unsigned mDim = mma.accLaid.shape.size() - 2;

  Value tmem = getTensorMemory(rewriter, loc, op, getTmemAllocationColumns(columns));
  Tcgen05Issuer issuer = Tcgen05Issuer::create(rewriter, loc, op, e);
  struct Issue {
    int64_t batch, block, n0, width;
  };
  SmallVector<Issue> issues;
  for (int64_t batch = 0; batch < s.batch; ++batch)
    for (int64_t block = 0; block < rowBlocks; ++block)
      for (int64_t n0 = 0; n0 < s.n; n0 += kMaxN)
        issues.push_back({batch, block, n0, std::min(kMaxN, s.n - n0)});
  auto regionColumn = [&](int64_t batch, int64_t block) {
    return (batch * rowBlocks + block) * s.n;
  };
  bool bf16 = mma.element.isBF16();

  int64_t phase = 0;
  for (int64_t k0 = 0; k0 < s.k; k0 += staging.chunk(), ++phase) {
    int64_t len = std::min(staging.chunk(), s.k - k0);
    mma.stageChunk(e, k0, len, [&](size_t i) {
      return m.add(m.mul(mma.batchOf(e, a, i), s.m), a.coords[mDim][i]);
    });
    LogicalResult issued = issuer.issueAndWait(rewriter, loc, phase, [&] {
      emitCountedLoop(rewriter, loc, len / staging.layout.stepK(), {}, [&](Value k, ValueRange) {
        // The first k step of the first chunk overwrites D.
        Value accumulate =
            k0 ? LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                          rewriter.getBoolAttr(true))
                     .getResult()
               : LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ne, k, e.i32(0))
                     .getResult();
        for (const Issue &issue : issues) {
          auto [descA, descB] = mma.descriptors(e, k, issue.batch * s.m + issue.block * kRows,
                                                issue.batch * s.n + issue.n0);
          Value d = getTensorPointer(
              e, m.add(tmem, regionColumn(issue.batch, issue.block) + issue.n0));
          Value idesc = e.i32(int32_t(instructionDescriptor(bf16, issue.width)));
          NVVM::Tcgen05MMAOp::create(rewriter, loc, NVVM::Tcgen05MMAKind::F16,
                                     NVVM::CTAGroupKind::CTA_1,
                                     NVVM::Tcgen05MMACollectorOp::DISCARD,
                                     /*aShift=*/false, d, descA, descB, idesc, accumulate,
                                     /*scaleInputD=*/Value(), /*disableOutputLane=*/Value());
        }
        return SmallVector<Value>{};
      });
    });
    if (failed(issued))
      return failure();
  }
  NVVM::Tcgen05FenceOp::create(rewriter, loc, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  mma.addProducts(e, tmem, [&](int64_t batch, int64_t block) -> std::optional<int64_t> {
    return regionColumn(batch, block);
  });
  // Every thread is past its wait: the mbarrier may go, and later users of
  // the scratch (and of the tensor memory) may overwrite it.
  emitTensorMemoryBarrier(rewriter, loc);
  issuer.invalidate(rewriter, loc);

  return replaceWithSums(rewriter, op, e, mma.sums, mma.arith, mma.accType, acc.getType());
}

LogicalResult finishTensorMemory(ModuleOp module) {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kTmemAddressName);
  if (!global)
    return success();
  auto columnsAttr = global->getAttrOfType<IntegerAttr>(kTmemColumnsAttr);
  if (!columnsAttr)
    return global.emitOpError("lacks the tensor-memory columns its users need");
  int64_t columns = columnsAttr.getInt();
  global->removeAttr(kTmemColumnsAttr);
  IRRewriter builder(module.getContext());
  // Kernels may sit in a nested (GPU) module below the global's.
  SmallVector<LLVM::LLVMFuncOp> funcs;
  module.walk([&](LLVM::LLVMFuncOp func) { funcs.push_back(func); });
  for (LLVM::LLVMFuncOp func : funcs) {
    if (func.isExternal())
      continue;
    bool uses = false;
    func.walk([&](LLVM::AddressOfOp address) {
      uses |= address.getGlobalName() == kTmemAddressName;
    });
    if (!uses)
      continue;
    Location loc = func.getLoc();
    Type i32 = builder.getI32Type();
    auto constant = [&](int64_t value) {
      return LLVM::ConstantOp::create(builder, loc, i32, builder.getI32IntegerAttr(value));
    };
    auto slot = [&] {
      return LLVM::AddressOfOp::create(
          builder, loc, LLVM::LLVMPointerType::get(module.getContext(), kSharedAddressSpace),
          kTmemAddressName);
    };
    // Entry: warp 0 allocates (and gives up the right to allocate again, so
    // that other CTAs on the SM may), then everyone may read the address.
    builder.setInsertionPointToStart(&func.getBody().front());
    emitIf(builder, loc, isWarpZero(builder, loc), [&] {
      NVVM::Tcgen05AllocOp::create(builder, loc, slot(), constant(columns));
      NVVM::Tcgen05RelinquishAllocPermitOp::create(builder, loc);
    });
    emitTensorMemoryBarrier(builder, loc);
    // Each return: once every warp is done with it, warp 0 frees it.
    SmallVector<LLVM::ReturnOp> returns;
    func.walk([&](LLVM::ReturnOp ret) { returns.push_back(ret); });
    for (LLVM::ReturnOp ret : returns) {
      builder.setInsertionPoint(ret);
      emitTensorMemoryBarrier(builder, loc);
      emitIf(builder, loc, isWarpZero(builder, loc), [&] {
        Value address = LLVM::LoadOp::create(builder, loc, i32, slot());
        Value pointer = LLVM::IntToPtrOp::create(
            builder, loc, LLVM::LLVMPointerType::get(module.getContext(), 6), address);
        NVVM::Tcgen05DeallocOp::create(builder, loc, pointer, constant(columns));
      });
    }
  }
  return success();
}

} // namespace tilepipe::tile_as
