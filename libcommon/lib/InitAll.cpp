//===- InitAll.cpp - Register every tilepipe dialect and pass -------------===//
#include "tilepipe/InitAll.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"
#include "mlir/Conversion/Passes.h"
#include "tilepipe/Conversion/Passes.h"
#include "tilepipe/Dialect/TileAA/IR/TileAA.h"
#include "tilepipe/Dialect/TileAS/IR/TileAS.h"
#include "tilepipe/Dialect/TileAS/Transforms/Passes.h"

void tilepipe::registerTilepipeDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::gpu::GPUDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::nvgpu::NVGPUDialect, mlir::scf::SCFDialect,
                  mlir::vector::VectorDialect>();
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerNVVMDialectTranslation(registry);
  // tilepipe's own dialects are added here as they land.
  registry.insert<cuda_tile::CudaTileDialect>();
  registry.insert<tile_aa::TileAADialect, tile_as::TileASDialect>();
}

void tilepipe::registerTilepipePasses() {
  mlir::registerTransformsPasses();
  // tilepipe's own passes are registered here as they land.
  mlir::registerReconcileUnrealizedCastsPass();
  mlir::registerPass([] { return mlir::createSCFToControlFlowPass(); });
  mlir::arith::registerArithExpandOpsPass();
  mlir::LLVM::registerDIScopeForLLVMFuncOpPass();
  registerTilepipeConversionPasses();
  tile_as::registerTileASPasses();
}
