//===- AccessContiguity.h - Proven runs of pointer-tile accesses ----------===//
//
// A view access knows its contiguity from the view (ViewLowering.cpp). A
// load_ptr_tko / store_ptr_tko has only a tile of pointers, which frontends
// build with the same arithmetic a view would have hidden: a splat base,
// offset by a per-row term (a stride times a row index, or a gathered
// token index times a stride) plus iota along the contiguous dimension, and
// masked by comparisons of those indices with the bounds. Tracing that
// arithmetic proves the same facts the view path gets from its strides.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_ACCESSCONTIGUITY_H
#define TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_ACCESSCONTIGUITY_H

#include "mlir/IR/Value.h"

#include <cstdint>

namespace tilepipe {

/// The contiguity (tile_aa.load / tile_aa.store: groups of this many
/// elements along the innermost dimension, adjacent in memory, aligned to
/// the group's byte size, under one mask bit) that the arithmetic making
/// `ptrs` (a cuda_tile tile of pointers) and `mask` (a cuda_tile tile of
/// i1, or null) proves; 1 where it proves nothing.
int64_t getPointerAccessContiguity(mlir::Value ptrs, mlir::Value mask);

} // namespace tilepipe

#endif // TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_ACCESSCONTIGUITY_H
