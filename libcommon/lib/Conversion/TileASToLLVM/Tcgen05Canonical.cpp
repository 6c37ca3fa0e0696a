//===- Tcgen05Canonical.cpp - Canonical K-major staging for tcgen05.mma ---===//
//
// The pieces of Tcgen05Lowering.h the block-scaled tcgen05 lowering
// (BlockScaledTcgen05ToLLVM.cpp) stages and issues with: A and B in the
// canonical K-major layout without swizzling (PTX ISA, tcgen05 "Shared
// Memory Layout"), one K chunk at a time in the shared scratch, thread 0
// issuing after a fence and committing to mbarrier 0 of the kernel's pair
// (getTcgen05MBarrier), and D read back with tcgen05.ld into the
// accumulator registers. A thread's registers adjacent along K (A's K-major
// loads, B's K-major loads permuted to K x N in place) are staged 16 bytes
// at a time: one core-matrix row per st.shared.v4 rather than a store per
// byte, whose 192 byte registers per thread made ptxas spill. (kind::f16 stages swizzled and keeps its
// accumulator in tensor memory: Tcgen05ToLLVM.cpp.)
//
//===----------------------------------------------------------------------===//
#include "Tcgen05Lowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// Columns one tcgen05.ld.32x32b reads (.x32): its registers are defined
/// only after tcgen05.wait::ld, so each load waits before its sum is taken,
/// and 32 at a time keep the loaded registers beside the accumulator few.
constexpr int64_t kLoadColumns = 32;
/// The suspend-time hint of the mbarrier wait (ns), as CUTLASS uses.
constexpr int32_t kWaitTicks = 10000000;
constexpr int64_t kRows = kTcgen05Rows;
constexpr int64_t kCoreRows = CanonicalKMajor::kCoreRows;
constexpr int64_t kCoreBytes = CanonicalKMajor::kCoreBytes;

/// The byte size of a staged A or B element.
int64_t elementBytesOf(Operation *op) {
  return getByteSize(getElementTypeOrSelf(op->getOperand(0).getType()));
}

/// Whether A and B are e2m1, which tcgen05.mma reads packed (kind::mxf4,
/// kind::mxf4nvf4).
bool isDenseFp4(Operation *op) {
  return isa<Float4E2M1FNType>(getElementTypeOrSelf(op->getOperand(0).getType()));
}

/// Staged bytes (elements) one thread packs at a time: two words' worth,
/// one word of packed nibbles.
constexpr int64_t kPackElements = 8;

/// Packs the `rows` x `chunk` fp4 elements staged one per byte at `from`
/// (the canonical K-major layout `bytes`) into `to` (the layout `packed`,
/// chunk / 2 bytes per row), `threads` threads from thread id `tid` taking
/// every threads-th group of eight elements: eight adjacent bytes of a core
/// matrix row (one 8-byte load) become four adjacent packed bytes (one
/// 4-byte store).
void packFp4(RegisterEmitter &e, ConversionPatternRewriter &rewriter, Value tid, int64_t threads,
             Value from, Value to, const CanonicalKMajor &bytes, const CanonicalKMajor &packed,
             int64_t rows) {
  OpBuilder &builder = e.builder;
  Location loc = e.loc;
  IndexMath m{e};
  Type i32 = builder.getI32Type();
  Type pair = VectorType::get({2}, i32);
  int64_t perRow = bytes.chunk / kPackElements, groups = rows * perRow;
  auto at = [&](Value base, Value index) {
    return LLVM::GEPOp::create(builder, loc, base.getType(), builder.getI8Type(), base,
                               ArrayRef<LLVM::GEPArg>{index});
  };
  auto body = [&](Value group) {
    Value row = m.div(group, perRow), k = m.mul(m.rem(group, perRow), kPackElements);
    Value words = LLVM::LoadOp::create(builder, loc, pair, at(from, bytes.slot(m, row, k)), 8);
    Value word = packNibbles(e, e.extract(words, 0), e.extract(words, 1));
    LLVM::StoreOp::create(builder, loc, word, at(to, packed.slot(m, row, m.div(k, 2))), 4);
  };
  int64_t rounds = llvm::divideCeil(groups, threads);
  emitCountedLoop(rewriter, loc, rounds, {},
                  [&](Value round, ValueRange) {
                    Value group = m.add(m.mul(round, threads), tid);
                    if (groups % threads == 0) {
                      body(group);
                    } else {
                      Value inside = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult,
                                                          group, e.i32(groups));
                      emitIf(rewriter, loc, inside, [&] { body(group); });
                    }
                    return SmallVector<Value>{};
                  });
}

} // namespace

Value CanonicalKMajor::slot(const IndexMath &m, Value row, Value k) const {
  int64_t core = coreElements();
  Value index = m.add(m.mul(m.div(row, kCoreRows), chunk / core), m.div(k, core));
  Value inCore = m.add(m.mul(m.rem(row, kCoreRows), core), m.rem(k, core));
  return m.add(m.mul(index, kCoreRows * core), inCore);
}

CanonicalStaging::CanonicalStaging(const MmaShape &s, int64_t elementBytes, int64_t chunk,
                                   bool denseFp4)
    : layout{elementBytes, chunk}, denseFp4(denseFp4), packed{1, chunk / 2} {
  bOffset = llvm::alignTo(aElements(s) * elementBytes + kTrashBytes, CanonicalKMajor::kCoreBytes);
  bytes = bOffset + bElements(s) * elementBytes + kTrashBytes;
  if (!denseFp4)
    return;
  aPackedOffset = llvm::alignTo(bytes, CanonicalKMajor::kCoreBytes);
  bPackedOffset = aPackedOffset + aElements(s) / 2;
  bytes = bPackedOffset + bElements(s) / 2;
}

int64_t CanonicalStaging::chooseChunk(const MmaShape &s, int64_t elementBytes, bool denseFp4) {
  int64_t step = CanonicalKMajor{elementBytes, 0}.stepK() * (denseFp4 ? 2 : 1);
  return chooseKChunk(s.k, step, kMaxStaticSharedBytes, [&](int64_t chunk) {
    return CanonicalStaging(s, elementBytes, chunk, denseFp4).bytes;
  });
}

bool CanonicalMma::fits(Operation *op) {
  FailureOr<MmaShape> shape =
      getMmaShape(cast<RankedTensorType>(op->getOperand(0).getType()).getShape(),
                  cast<RankedTensorType>(op->getOperand(2).getType()).getShape());
  return succeeded(shape) &&
         CanonicalStaging::chooseChunk(*shape, elementBytesOf(op), isDenseFp4(op)) > 0;
}

FailureOr<CanonicalMma> CanonicalMma::prepare(Operation *op, Value lhs, Value rhs, Value acc,
                                              const TypeConverter &converter,
                                              RegisterEmitter &e, uint64_t minBytes,
                                              bool withAccumulator) {
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
  bool denseFp4 = isDenseFp4(op);
  mma.staging = CanonicalStaging(mma.shape, elementBytes,
                                 CanonicalStaging::chooseChunk(mma.shape, elementBytes, denseFp4),
                                 denseFp4);
  if (isDenseFp4(op)) {
    // e2m1 is staged a byte each (its low nibble) and packed in shared
    // memory: the i4 registers widened as whole vectors (NVPTX legalizes an
    // element of a vector of i4 through a stack slot), and stored as i8
    // (a vector of i4 would be stored packed).
    mma.storage = e.builder.getI8Type();
    auto widen = [&](Value vector) -> Value {
      auto type = cast<VectorType>(vector.getType());
      return LLVM::ZExtOp::create(e.builder, e.loc, type.clone(mma.storage), vector);
    };
    lhs = widen(lhs);
    rhs = widen(rhs);
  }
  mma.a = unpackOperand(e, lhs, *lhsLaid);
  mma.b = unpackOperand(e, rhs, *rhsLaid);
  unsigned rank = accLaid->shape.size();
  int64_t coreElements = mma.staging.layout.coreElements();
  mma.aRun = getRegisterRun(*lhsLaid, rank - 1, coreElements);
  mma.bRun = getRegisterRun(*rhsLaid, rank - 2, coreElements);
  mma.arith.computeType = e.builder.getF32Type();
  if (withAccumulator) {
    mma.c = unpackOperand(e, acc, *accLaid);
    mma.sums = widenAccumulator(e, mma.c, mma.accElement, mma.arith);
  }
  FailureOr<OperandStaging> staged = getOperandStaging(
      e.builder, e.loc, op, std::max(minBytes, mma.staging.bytes), mma.staging.bOffset);
  if (failed(staged))
    return failure();
  mma.aBase = mma.aMma = staged->aBase;
  mma.bBase = mma.bMma = staged->bBase;
  if (denseFp4) {
    auto offset = [&](uint64_t bytes) {
      return LLVM::GEPOp::create(e.builder, e.loc, mma.aBase.getType(), e.builder.getI8Type(),
                                 mma.aBase, ArrayRef<LLVM::GEPArg>{int32_t(bytes)})
          .getResult();
    };
    mma.aMma = offset(mma.staging.aPackedOffset);
    mma.bMma = offset(mma.staging.bPackedOffset);
  }
  return mma;
}

void CanonicalMma::stageChunk(RegisterEmitter &e, ConversionPatternRewriter &rewriter, int64_t k0,
                              int64_t len,
                              llvm::function_ref<Value(size_t)> aRowOf) const {
  IndexMath m{e};
  unsigned rank = accLaid.shape.size();
  bool needsCheck = shape.k > staging.chunk();
  emitCTABarrier(e.builder, e.loc); // earlier readers of the scratch are done
  stageOperand(e, a, aBase, storage, rank - 1, k0, len, needsCheck, staging.aElements(shape),
               [&](size_t i, Value kLocal) { return staging.layout.slot(m, aRowOf(i), kLocal); },
               aRun);
  stageOperand(
      e, b, bBase, storage, rank - 2, k0, len, needsCheck, staging.bElements(shape),
      [&](size_t i, Value kLocal) {
        Value column = m.add(m.mul(batchOf(e, b, i), shape.n), b.coords[rank - 1][i]);
        return staging.layout.slot(m, column, kLocal);
      },
      bRun);
  if (staging.denseFp4) {
    emitCTABarrier(e.builder, e.loc); // every element is staged
    int64_t threads = kTmemLanesPerWarp * getWarpsInLayout(accLaid.layout);
    Value tid = NVVM::ThreadIdXOp::create(e.builder, e.loc, e.builder.getI32Type());
    packFp4(e, rewriter, tid, threads, aBase, aMma, staging.layout, staging.packed,
            shape.batch * shape.m);
    packFp4(e, rewriter, tid, threads, bBase, bMma, staging.layout, staging.packed,
            shape.batch * shape.n);
  }
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
  const CanonicalKMajor &layout = staging.mmaLayout();
  uint64_t bits = layout.offsetBits() | kTcgen05DescriptorVersion;
  int64_t strideBytes = layout.strideBytes();
  // A k step is two core matrices along K.
  Value kBytes = m.mul(k, 2 * kCoreBytes);
  auto descriptor = [&](Value base, int64_t row) {
    Value address = LLVM::PtrToIntOp::create(e.builder, e.loc, i64, base);
    return emitMatrixDescriptor(
        e, addBytes(e, address, m.add(kBytes, row / kCoreRows * strideBytes)), bits);
  };
  return {descriptor(aMma, aRow), descriptor(bMma, bRow)};
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
  issuer.barrier = getTcgen05MBarrier(e, anchor, 0);
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

} // namespace tilepipe::tile_as
