//===- TileASMemoryOps.td - memory ops: atomics, barriers, print/assert ---===//
//
// Included from TileAS.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
