//===- TileASMatrixOps.td - matrix-multiply ops ---===//
//
// Included from TileAS.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
