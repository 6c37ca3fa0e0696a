//===- SharedScratch.cpp - The CTA's shared-memory scratch buffer ---------===//
#include "SharedScratch.h"
#include "LoweringCommon.h"

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace tilepipe::tile_as;

static constexpr llvm::StringLiteral kScratchName = "__tile_scratch";

FailureOr<Value> tilepipe::tile_as::getSharedScratch(OpBuilder &builder,
                                                     Location loc,
                                                     Operation *anchor,
                                                     uint64_t bytes,
                                                     uint64_t alignment) {
  if (bytes > kMaxStaticSharedBytes)
    return anchor->emitOpError("needs ")
           << bytes << " bytes of shared scratch memory; at most "
           << kMaxStaticSharedBytes << " can be declared statically";
  auto module = anchor->getParentOfType<ModuleOp>();
  // The scratch buffer lives in the outermost module (the GPU module when
  // kernels are nested in one).
  while (auto parent = module->getParentOfType<ModuleOp>())
    module = parent;
  MLIRContext *context = builder.getContext();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kScratchName);
  auto arrayType = [&](uint64_t size) {
    return LLVM::LLVMArrayType::get(IntegerType::get(context, 8), size);
  };
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    // The module's location, not the op's: LLVM's global translation does
    // not accept the call-site locations inlined code carries.
    global = LLVM::GlobalOp::create(
        builder, module.getLoc(), arrayType(std::max<uint64_t>(bytes, 16)),
        /*isConstant=*/false, LLVM::Linkage::Internal, kScratchName,
        /*value=*/Attribute(), /*alignment=*/16, kSharedAddressSpace);
  } else if (cast<LLVM::LLVMArrayType>(global.getGlobalType()).getNumElements() < bytes) {
    global.setGlobalType(arrayType(bytes));
  }
  if (global.getAlignment().value_or(1) < alignment)
    global.setAlignment(alignment);
  return LLVM::AddressOfOp::create(builder, loc,
                                   LLVM::LLVMPointerType::get(context, kSharedAddressSpace),
                                   kScratchName)
      .getResult();
}

/// The nearest module around `op` that says how many producer warps the
/// kernel has; null where none does.
static IntegerAttr getProducerWarps(Operation *op, ModuleOp &module) {
  for (module = isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>(); module;
       module = module->getParentOfType<ModuleOp>())
    if (auto warps = module->getAttrOfType<IntegerAttr>(kProducerWarpsAttrName))
      return warps;
  return {};
}

bool tilepipe::tile_as::isInWarpSpecializedModule(Operation *op) {
  ModuleOp module;
  return static_cast<bool>(getProducerWarps(op, module));
}

void tilepipe::tile_as::emitCTABarrier(OpBuilder &builder, Location loc, BarrierReach reach) {
  ModuleOp module;
  IntegerAttr producerWarps = getProducerWarps(builder.getInsertionBlock()->getParentOp(), module);
  if (!producerWarps) {
    NVVM::Barrier0Op::create(builder, loc);
    return;
  }
  int64_t consumerWarps = 4;
  if (auto warps = module->getAttrOfType<IntegerAttr>(TileASDialect::kNumWarpsAttrName))
    consumerWarps = warps.getInt();
  int64_t id = 0, warps = consumerWarps;
  if (reach == BarrierReach::AllThreads) {
    id = kTmaRingNamedBarrier;
    warps += producerWarps.getInt();
  }
  auto i32 = [&](int64_t value) {
    return LLVM::ConstantOp::create(builder, loc, builder.getI32Type(), value);
  };
  NVVM::BarrierOp::create(builder, loc, TypeRange{}, i32(id), i32(32 * warps), {}, Value());
}

namespace {
/// tile-lower's barriers (accesses ordered after a write) predate the
/// roles; all of them are in the consumers' code.
struct Barrier0Lowering : OpRewritePattern<NVVM::Barrier0Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::Barrier0Op op, PatternRewriter &rewriter) const override {
    if (!isInWarpSpecializedModule(op))
      return failure();
    emitCTABarrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void tilepipe::tile_as::populateCTABarrierToLLVMPatterns(RewritePatternSet &patterns) {
  patterns.add<Barrier0Lowering>(patterns.getContext());
}
