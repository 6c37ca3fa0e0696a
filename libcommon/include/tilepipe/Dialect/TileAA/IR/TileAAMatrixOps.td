//===- TileAAMatrixOps.td - matrix-multiply ops ---===//
//
// Included from TileAA.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
