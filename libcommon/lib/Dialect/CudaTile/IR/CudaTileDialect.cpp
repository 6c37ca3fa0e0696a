//===- CudaTileDialect.cpp - The cuda_tile dialect ------------------------===//
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilepipe::cuda_tile;

#include "tilepipe/Dialect/CudaTile/IR/CudaTileDialect.cpp.inc"

namespace {
/// Debug-info attributes print as aliases (`#di_file = #cuda_tile.di_file<..>`),
/// as NVIDIA's tools print them.
struct CudaTileOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    StringRef name = llvm::TypeSwitch<Attribute, StringRef>(attr)
                         .Case<DIFileAttr>([](auto) { return "di_file"; })
                         .Case<DICompileUnitAttr>(
                             [](auto) { return "di_compile_unit"; })
                         .Case<DISubprogramAttr>([](auto) { return "di_subprogram"; })
                         .Case<DILexicalBlockAttr>(
                             [](auto) { return "di_lexical_block"; })
                         .Default([](Attribute) { return StringRef(); });
    if (name.empty())
      return AliasResult::NoAlias;
    os << name;
    return AliasResult::OverridableAlias;
  }
};
} // namespace

void CudaTileDialect::initialize() {
  registerTypes();
  registerAttributes();
  registerOps();
  registerArithOps();
  addInterfaces<CudaTileOpAsmInterface>();
  applyHintDiagnosticFlags(this);
}

Operation *CudaTileDialect::materializeConstant(OpBuilder &builder,
                                                Attribute value, Type type,
                                                Location loc) {
  auto elements = dyn_cast<DenseIntOrFPElementsAttr>(value);
  if (!elements || !isa<TileType>(type))
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
