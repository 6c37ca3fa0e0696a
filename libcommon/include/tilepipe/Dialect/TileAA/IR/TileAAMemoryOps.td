//===- TileAAMemoryOps.td - memory ops: atomics, barriers, print/assert ---===//
//
// Included from TileAA.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
