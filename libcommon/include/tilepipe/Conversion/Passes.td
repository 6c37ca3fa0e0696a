//===- Passes.td - tilepipe's dialect conversions -------------------------===//
//
// The staged lowering cuda_tile -> tile_aa -> tile_as -> LLVM + NVVM. Each
// conversion leaves nothing of its source dialect behind.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_CONVERSION_PASSES_TD
#define TILEPIPE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertCudaTileToTileAA : Pass<"tilepipe-convert-cuda-tile-to-tile-aa", "::mlir::ModuleOp"> {
  let summary = "Lower cuda_tile kernels to func.func over tile_aa/arith/math";
  let description = [{
    Views become pointer tensors with explicit address arithmetic and bound
    masks; `assume` facts are folded into each memory op's `contiguity`.
    Expects the cuda_tile.module nested in a builtin.module and inlines it.
    Block-scaled multiplies become tile_aa.mmaf_scaled where `gpu-name` has
    block-scaled mma.sync (sm_120/121, plain, `a` or `f`) or block-scaled
    tcgen05.mma (sm_100/103/110, plain, `a` or `f`) and the form fits it;
    otherwise they are decomposed into widening, scaling and mmaf.
  }];
  let options = [
    Option<"gpuName", "gpu-name", "std::string", "\"\"",
           "The --gpu-name target (empty: none with block-scaled tensor cores)">
  ];
  let dependentDialects = ["::tilepipe::tile_aa::TileAADialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def ConvertTileAAToTileAS : Pass<"tilepipe-convert-tile-aa-to-tile-as", "::mlir::ModuleOp"> {
  let summary = "Lower tile_aa to tile_as (tokens dropped, no layouts yet)";
  let dependentDialects = ["::tilepipe::tile_as::TileASDialect"];
}

def ConvertTileASToLLVM : Pass<"tilepipe-convert-tile-as-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower laid-out tile_as/arith/math kernels to LLVM + NVVM";
  let description = [{
    Each tensor becomes the vector of the registers one thread holds; memory
    ops become predicated vector ld/st.global; kernels become llvm.func with
    nvvm.kernel and nvvm.reqntid = 32 * tile_as.num_warps.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TILEPIPE_CONVERSION_PASSES_TD
