//===- GlobalAllocaToLLVM.cpp - alloca {global} -> device-heap buffers ----===//
//
// A `global` alloca is a tile block's own buffer in global memory. The grid
// is a launch parameter, so no module-level array sized at compile time can
// hold one buffer per tile block (a bound on the grid cannot be proved from
// the kernel). The buffer therefore comes from the device heap: PTX's
// `malloc` and `free` system calls, which the CUDA driver provides (the
// heap is cudaLimitMallocHeapSize, 8 MiB unless the host raises it). One
// thread of the CTA allocates when the kernel starts and publishes the
// address through a shared-memory slot; after a barrier every thread reads
// it. Before each return a barrier lets every thread finish its accesses,
// then the same thread frees the block. An exhausted heap (malloc returns
// null) traps rather than letting the kernel write through a null pointer.
//
// This runs before the conversion, on functions whose loops and ifs are
// already cf branches (tile-llvm runs convert-scf-to-cf first): the
// allocation can then sit in the entry block, which dominates every use,
// whatever block the alloca was in. Its lifetime is the kernel's, which a
// cuda_tile alloca (whose buffer lives until its block ends) allows.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "SharedScratch.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

namespace tilepipe::tile_as {

/// CUDA's device malloc returns 16-byte aligned blocks.
static constexpr uint64_t kMallocAlignment = 16;

/// The shared-memory slot (one i64) through which the allocating thread
/// passes the block's address to the others.
static LLVM::GlobalOp createAddressSlot(OpBuilder &builder, ModuleOp module) {
  unsigned count = llvm::count_if(module.getOps<LLVM::GlobalOp>(), [](LLVM::GlobalOp global) {
    return global.getSymName().starts_with("__tile_heap_slot");
  });
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  return LLVM::GlobalOp::create(builder, module.getLoc(), builder.getI64Type(),
                                /*isConstant=*/false, LLVM::Linkage::Internal,
                                "__tile_heap_slot" + std::to_string(count),
                                /*value=*/Attribute(), /*alignment=*/8, kSharedAddressSpace);
}

/// Allocates the buffers of `allocas` (all in `func`) at the start of the
/// function and frees them before each return.
static void materializeInFunction(func::FuncOp func, ArrayRef<AllocaOp> allocas) {
  MLIRContext *context = func.getContext();
  IRRewriter rewriter(context);
  Location loc = func.getLoc();
  Type i64 = rewriter.getI64Type();
  auto genericPtr = LLVM::LLVMPointerType::get(context);
  auto globalPtr = LLVM::LLVMPointerType::get(context, kGlobalAddressSpace);
  auto mallocType = LLVM::LLVMFunctionType::get(genericPtr, {i64});
  auto freeType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {genericPtr});
  ModuleOp module = getTopModule(func);

  auto isFirstThread = [&]() -> Value {
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value zero = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                          rewriter.getI32IntegerAttr(0));
    return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid, zero);
  };
  auto constant = [&](uint64_t value) -> Value {
    return LLVM::ConstantOp::create(rewriter, loc, i64, rewriter.getI64IntegerAttr(value));
  };

  // Kernel entry: thread 0 allocates every buffer, then one barrier.
  rewriter.setInsertionPointToStart(&func.getBody().front());
  SmallVector<LLVM::GlobalOp> slots;
  Value first = isFirstThread();
  SmallVector<uint64_t> sizes;
  for (AllocaOp alloca : allocas) {
    uint64_t alignment = std::max<uint64_t>(alloca.getAlignment(), 1);
    // Over-allocate so that the block can be aligned up to a larger
    // alignment than malloc's.
    sizes.push_back(uint64_t(alloca.getNumElem()) *
                        getByteSize(alloca.getType().getPointeeType()) +
                    (alignment > kMallocAlignment ? alignment - kMallocAlignment : 0));
    slots.push_back(createAddressSlot(rewriter, module));
  }
  emitIf(rewriter, loc, first, [&] {
    for (auto [size, slot] : llvm::zip(sizes, slots)) {
      Value block = LLVM::CallOp::create(rewriter, loc,
                                         getRuntimeFunction(rewriter, func, "malloc", mallocType),
                                         ValueRange{constant(size)})
                        .getResult();
      Value address = LLVM::PtrToIntOp::create(rewriter, loc, i64, block);
      LLVM::StoreOp::create(rewriter, loc, address,
                            LLVM::AddressOfOp::create(rewriter, loc, slot));
    }
  });
  emitCTABarrier(rewriter, loc, BarrierReach::AllThreads);
  SmallVector<Value> blocks;
  for (auto [index, slot] : llvm::enumerate(slots)) {
    AllocaOp alloca = allocas[index];
    Value block = LLVM::LoadOp::create(rewriter, loc, i64,
                                       LLVM::AddressOfOp::create(rewriter, loc, slot));
    blocks.push_back(block);
    Value failed = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, block,
                                        constant(0));
    emitIf(rewriter, loc, failed, [&] { LLVM::Trap::create(rewriter, loc); });
    // malloc returns a generic address: cvta.to.global, then aligned up.
    Value generic = LLVM::IntToPtrOp::create(rewriter, loc, genericPtr, block);
    Value global = LLVM::AddrSpaceCastOp::create(rewriter, loc, globalPtr, generic);
    Value address = LLVM::PtrToIntOp::create(rewriter, loc, i64, global);
    uint64_t alignment = std::max<uint64_t>(alloca.getAlignment(), 1);
    if (alignment > kMallocAlignment)
      address = LLVM::AndOp::create(
          rewriter, loc, LLVM::AddOp::create(rewriter, loc, address, constant(alignment - 1)),
          constant(~(alignment - 1)));
    Value buffer = IntToPtrOp::create(rewriter, loc, alloca.getType(), address);
    rewriter.replaceOp(alloca, buffer);
  }

  // Each return: every thread is done with the buffers, thread 0 frees.
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
  for (func::ReturnOp ret : returns) {
    rewriter.setInsertionPoint(ret);
    emitCTABarrier(rewriter, loc, BarrierReach::AllThreads);
    Value last = isFirstThread();
    emitIf(rewriter, loc, last, [&] {
      for (Value block : blocks)
        LLVM::CallOp::create(rewriter, loc,
                             getRuntimeFunction(rewriter, func, "free", freeType),
                             ValueRange{LLVM::IntToPtrOp::create(rewriter, loc, genericPtr,
                                                                 block)});
    });
  }
}

void materializeGlobalAllocas(ModuleOp module) {
  llvm::MapVector<func::FuncOp, SmallVector<AllocaOp>> byFunction;
  module.walk([&](AllocaOp alloca) {
    if (alloca.getGlobal())
      if (auto func = alloca->getParentOfType<func::FuncOp>())
        byFunction[func].push_back(alloca);
  });
  for (auto &[func, allocas] : byFunction)
    materializeInFunction(func, allocas);
}

} // namespace tilepipe::tile_as
