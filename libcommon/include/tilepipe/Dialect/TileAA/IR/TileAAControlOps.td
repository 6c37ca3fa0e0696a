//===- TileAAControlOps.td - control-flow ops with no upstream equivalent ---===//
//
// Included from TileAA.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
