//===- UnitReshapes.h - reshapes that only add or drop unit dimensions ----===//
//
// cuTile's batched and 4-D attention views put leading 1-sized dimensions
// on tiles that the matrix code handles as 2-D: tile-lower then has
// tile_as.reshape ops that only add or drop unit dimensions. Such a
// reshape is a relabeling where both sides hold each element in the same
// thread and register; these predicates recognize it for the passes that
// keep it that way (AssignLayouts, HoistElementwiseOverUnitReshapes,
// StoreTilesByTma).
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_UNITRESHAPES_H
#define TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_UNITRESHAPES_H

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

namespace tilepipe::tile_as {

/// Whether `reshape` only adds or drops unit dimensions (the shapes agree
/// once their 1s are removed).
bool isUnitReshape(ReshapeOp reshape);

/// How many unit dimensions `reshape` puts in front of its source's shape
/// (a 1 x M x N tile of an M x N one: 1); 0 where it does anything else.
unsigned getAddedLeadingUnitDims(ReshapeOp reshape);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_LIB_DIALECT_TILEAS_TRANSFORMS_UNITRESHAPES_H
