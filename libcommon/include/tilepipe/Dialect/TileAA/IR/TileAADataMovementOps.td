//===- TileAADataMovementOps.td - shape and data-movement ops (permute, reshape, extract, cat, ...) ---===//
//
// Included from TileAA.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
