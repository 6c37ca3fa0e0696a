//===- TileASAggregateOps.td - reductions and scans ---===//
//
// Included from TileAS.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
