//===- InitAll.h - Register every tilepipe dialect and pass ---------------===//
#ifndef TILEPIPE_INITALL_H
#define TILEPIPE_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tilepipe {

/// Adds tilepipe's own dialects (cuda_tile and the internal tile dialects)
/// plus the upstream dialects and translation interfaces our stages use.
void registerTilepipeDialects(mlir::DialectRegistry &registry);

/// Registers tilepipe's passes and pass pipelines with the global registry
/// (for tile-opt and textual pipelines).
void registerTilepipePasses();

} // namespace tilepipe

#endif // TILEPIPE_INITALL_H
