//===- RegisterEmitter.h - Per-thread registers of a laid-out tensor ------===//
//
// In LLVM a laid-out tensor is the vector of the registers one thread holds
// (TileASLayouts.h numbers them). This builds that vector's pieces: the
// thread's coordinates, element extraction/insertion, and constants.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_REGISTEREMITTER_H
#define TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_REGISTEREMITTER_H

#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace tilepipe::tile_as {

class RegisterEmitter {
public:
  RegisterEmitter(mlir::OpBuilder &builder, mlir::Location loc)
      : builder(builder), loc(loc) {}

  mlir::Value i32(int64_t value);
  mlir::Value i64(int64_t value);
  mlir::Value extract(mlir::Value vector, int64_t index);
  mlir::Value insert(mlir::Value vector, mlir::Value element, int64_t index);
  /// A vector of `type` holding `elements` in order.
  mlir::Value buildVector(mlir::VectorType type, mlir::ArrayRef<mlir::Value> elements);

  /// nvvm.shfl.sync of `kind` over the whole warp of a scalar of up to 64
  /// bits (PTX shuffles 32-bit words: narrower values widen, 64-bit ones
  /// go in two halves); `lane` is the source lane (idx) or the offset.
  mlir::Value shuffle(mlir::Value value, mlir::Value lane, mlir::NVVM::ShflKind kind);

  /// The thread index the coordinates derive from; null: tid.x read where
  /// needed. makeThreadIdUnhoistable sets it.
  mlir::Value threadId;

  /// Makes the coordinates computed from here on derive from a thread index
  /// that LLVM may not hoist out of a loop (an inline-PTX copy of tid.x with
  /// side effects, in the `{ ... }` block form tile-emu translates). A
  /// tcgen05 multiply in a K loop stages hundreds of registers at swizzled shared addresses that depend on the thread only:
  /// LICM hoisted them all before the loop, live across it (thousands of
  /// bytes of spills on cuTile's block-scaled and tf32 tiles); recomputed in
  /// the loop they cost a few instructions each.
  void makeThreadIdUnhoistable();

  /// `value` (i32) through an inline-PTX copy with side effects (the form
  /// makeThreadIdUnhoistable uses): what is computed from the copy stays
  /// where it is emitted instead of being hoisted out of a loop and held in
  /// registers across it.
  mlir::Value unhoistable(mlir::Value value);

  /// Coordinate along `dim` of every register of this thread for a tensor of
  /// `shape` in `layout` (i32 values).
  llvm::SmallVector<mlir::Value> coordinates(BlockedAttr layout,
                                             llvm::ArrayRef<int64_t> shape,
                                             unsigned dim);

  /// The coordinates() as one <N x i32> vector, built as a splat of the
  /// thread's base plus a constant vector (then modulo the extent where the
  /// layout wraps). In that form LLVM folds the constants into the users
  /// (reassociating `x + (base + c)` into `(x + base) + c`, then into address
  /// immediates) rather than keeping N thread-dependent values live: LICM
  /// hoisted those out of K loops, 32 registers held across the whole loop
  /// (FMHA's strided K tile: spills on sm_90a).
  mlir::Value coordinateVector(BlockedAttr layout, llvm::ArrayRef<int64_t> shape,
                               unsigned dim);

  /// Per register, whether this thread holds the first copy of its element
  /// (i1): a layout larger than `shape` replicates elements over threads and
  /// registers, and an op with side effects runs in one copy only. Empty
  /// when nothing is replicated.
  llvm::SmallVector<mlir::Value> firstCopy(BlockedAttr layout,
                                           llvm::ArrayRef<int64_t> shape);

  mlir::OpBuilder &builder;
  mlir::Location loc;

private:
  /// This thread's position along `dim` inside one tile of the layout.
  mlir::Value threadBase(BlockedAttr layout, unsigned dim);
};

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_CONVERSION_TILEASTOLLVM_REGISTEREMITTER_H
