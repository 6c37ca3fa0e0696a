//===- TileAAAggregateOps.td - reductions and scans ---===//
//
// Included from TileAA.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
