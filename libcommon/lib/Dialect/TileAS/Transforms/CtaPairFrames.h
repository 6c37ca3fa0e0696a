//===- CtaPairFrames.h - tensors a CTA-pair split halves together ---------===//
//
// tilepipe-split-tile-blocks-across-cta-pair (SplitTileBlocksAcrossCtaPair.cpp)
// ties tensors together by frames: an op's frame has dimensions, and each
// tensor it touches maps its dimensions onto them (an elementwise op: one to
// one; a multiply: A is M x K, B K x N, C M x N; a broadcast's unit
// dimension: onto none). Splitting a frame dimension splits every member
// along its dimension there and keeps whole the members without one.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_CTAPAIRFRAMES_H
#define TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_CTAPAIRFRAMES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/STLExtras.h"

namespace tilepipe::tile_as::cta_pair {

/// A value both CTAs hold entirely (a state), or a member dimension that
/// maps onto no frame dimension.
constexpr int64_t kWhole = -1;
/// The CTAs of the cluster the pass forms.
constexpr int64_t kPair = 2;

/// Tensors an op ties together dimension by dimension (see the file header).
struct Frame {
  struct Member {
    mlir::Value value;
    /// The operand this member is, null for a result or block argument.
    mlir::OpOperand *use;
    /// Per dimension of the value: the frame dimension, or kWhole.
    llvm::SmallVector<int64_t> dims;
  };
  mlir::Operation *op;
  llvm::SmallVector<Member> members;
  /// Frame dimensions no split may take, and why.
  llvm::SmallVector<std::pair<int64_t, const char *>> fixed;
  /// An op this pass does not know: its tensors must stay whole.
  bool opaque = false;

  void add(mlir::Value value, mlir::OpOperand *use, llvm::SmallVector<int64_t> dims) {
    members.push_back({value, use, std::move(dims)});
  }
  void addSame(mlir::Value value, mlir::OpOperand *use) {
    add(value, use, llvm::to_vector(llvm::seq<int64_t>(0, getRank(value))));
  }
  static int64_t getRank(mlir::Value value) {
    return llvm::cast<mlir::RankedTensorType>(value.getType()).getRank();
  }
  /// Whether `member` has every frame dimension a split could take.
  bool isCoveredBy(const Member &member) const {
    int64_t rank = 0;
    for (const Member &m : members)
      for (int64_t dim : m.dims)
        rank = std::max(rank, dim + 1);
    for (int64_t dim = 0; dim < rank; ++dim)
      if (!llvm::is_contained(member.dims, dim) &&
          llvm::none_of(fixed, [&](auto entry) { return entry.first == dim; }))
        return false;
    return true;
  }
  /// The member's dimension on frame dimension `dim` (kWhole: none).
  static int64_t dimOf(const Member &member, int64_t dim) {
    if (dim == kWhole)
      return kWhole;
    auto it = llvm::find(member.dims, dim);
    return it == member.dims.end() ? kWhole : it - member.dims.begin();
  }
};

inline bool isTensor(mlir::Value value) { return llvm::isa<mlir::RankedTensorType>(value.getType()); }

/// A tensor made from scalars by one op (splat, splat constant, iota).
bool isLeaf(mlir::Value value);
/// Ops that compute each element from the operands' same element alone.
bool isElementwise(mlir::Operation *op);
/// The op whose frames cover `user`'s operands: a loop's or if's yield
/// belongs to the loop or if.
mlir::Operation *getFrameOwner(mlir::Operation *user);
/// The frames of `op` (none for an op without tensors, or for a yield whose
/// loop or if holds its frames).
void collectFrames(mlir::Operation *op, llvm::SmallVectorImpl<Frame> &frames);

} // namespace tilepipe::tile_as::cta_pair

#endif
