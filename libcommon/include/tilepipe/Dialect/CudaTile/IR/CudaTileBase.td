//===- CudaTileBase.td - The cuda_tile dialect and its op base class ------===//
//
// cuda_tile is tilepipe's input language: NVIDIA's public CUDA Tile IR, with
// text that reads and prints exactly as NVIDIA's cuda-tile-opt does.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_CUDATILE_BASE_TD
#define TILEPIPE_CUDATILE_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def CudaTile_Dialect : Dialect {
  let name = "cuda_tile";
  let cppNamespace = "::tilepipe::cuda_tile";
  let summary = "NVIDIA CUDA Tile IR: tile-level kernels for NVIDIA GPUs";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Registers the ops of every ODS file of the dialect.
    void registerOps();
    void registerArithOps();

  private:
    void registerTypes();
    void registerAttributes();

  public:
    /// How optimization hints the compiler does not know or cannot honor are
    /// reported. By default they are ignored silently, as NVIDIA's tools do
    /// (frontends send hints for newer compilers); -Wunsupported-hints makes
    /// them warnings and -Werr-hints, with it, errors that fail verification.
    void setHintDiagnostics(bool warn, bool error) {
      warnUnsupportedHints = warn;
      errorOnHints = error;
    }
    bool getWarnUnsupportedHints() const { return warnUnsupportedHints; }
    bool getErrorOnHints() const { return errorOnHints; }

  private:
    bool warnUnsupportedHints = false;
    bool errorOnHints = false;

  public:
  }];
}

/// Base class of every cuda_tile op.
class CudaTile_Op<string mnemonic, list<Trait> traits = []>
    : Op<CudaTile_Dialect, mnemonic, traits>;

#endif // TILEPIPE_CUDATILE_BASE_TD
