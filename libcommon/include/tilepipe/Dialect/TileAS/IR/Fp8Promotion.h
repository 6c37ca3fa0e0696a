//===- Fp8Promotion.h - fp8 wgmma sums promoted into f32 --------*- C++ -*-===//
//
// The mark tilepipe-promote-fp8-accumulation (tile-sched) leaves on an fp8
// multiply of the wgmma path for its lowering (WgmmaChunks.h): the k steps
// (wgmma k32) whose sum a temporary holds before it is added into the f32
// accumulator. Passes.td, "PromoteFp8Accumulation", has why.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_FP8PROMOTION_H
#define TILEPIPE_DIALECT_TILEAS_IR_FP8PROMOTION_H

#include "llvm/ADT/StringRef.h"

namespace tilepipe::tile_as {

/// An i64 attribute on tile_as.mmaf / mmaf_global: k steps per promotion.
inline constexpr llvm::StringLiteral kFp8PromotionIntervalAttrName =
    "tile_as.fp8_promotion_interval";

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_FP8PROMOTION_H
