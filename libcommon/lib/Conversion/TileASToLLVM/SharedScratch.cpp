//===- SharedScratch.cpp - The CTA's shared-memory scratch buffer ---------===//
#include "SharedScratch.h"
#include "LoweringCommon.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

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

void tilepipe::tile_as::emitCTABarrier(OpBuilder &builder, Location loc) {
  NVVM::Barrier0Op::create(builder, loc);
}
