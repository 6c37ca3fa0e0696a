//===- TileASArithOps.td - arithmetic and conversion ops with no upstream equivalent ---===//
//
// Included from TileAS.td. One file per op family so the families grow
// independently.
//
//===----------------------------------------------------------------------===//
