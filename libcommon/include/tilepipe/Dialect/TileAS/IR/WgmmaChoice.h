//===- WgmmaChoice.h - Which mmafs take wgmma on Hopper ---------*- C++ -*-===//
//
// On Hopper an f16/bf16, tf32 or fp8 mmaf can take mma.sync or wgmma. wgmma pays where its
// operands are regular tiles: contiguous loads that cp.async stages into the
// swizzled buffers (the corpus matmuls: 16.3 vs 12.0 TFLOP/s on an H100,
// BatchMatMul 88.7 vs 49.7, and no spills where mma.sync spills 1012 bytes),
// strided tile loads (FMHA's transposed K) and values in registers (FMHA's Q
// and P, which wgmma reads as its A fragments as they are; 0.013 vs 0.014
// ms). An A that is a gather, rows picked by loaded indices (the fused MoE
// kernel's tokens), takes wgmma too where it is loaded as it is: its rows
// are copied by cp.async into the swizzled staging (16-byte runs along K,
// as on the mma.sync path), while its B, the expert's weight tile, arrives
// by TMA: no registers hold A or B (MoE w1/w2: 180/204 registers against
// 208/204 on mma.sync, no spills either way; docs/hopper-tma.md). Holding
// the gathered A in registers as wgmma's A fragments instead would keep a
// register-loaded gather live beside the accumulator, the form that
// spilled below. A gather of B, or an A computed in registers from a gather, keeps
// mma.sync: the staging would go through registers element by element and
// the wgmma form keeps more live (MoE with A in registers: 0.63 vs 0.54 ms,
// 1472 vs 868 spill bytes). README.md, "Performance", has the numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_WGMMACHOICE_H
#define TILEPIPE_DIALECT_TILEAS_IR_WGMMACHOICE_H

#include "tilepipe/Dialect/TileAS/IR/TileAS.h"

#include <optional>

namespace tilepipe::tile_as {

/// What an mmaf operand (A or B) is made of, as far as the choice between
/// mma.sync and wgmma cares.
enum class MmaOperandKind {
  /// A global load of whole 16-byte runs along the innermost dimension
  /// (what tilepipe-async-copy-mma-operands can turn into cp.async).
  ContiguousLoad,
  /// A load of an affine tile that is not contiguous (a transposed view).
  StridedLoad,
  /// A value computed in registers (from loads of the kinds above, or from
  /// another matrix multiply).
  Registers,
  /// Read from addresses that depend on loaded data of more than one
  /// element: per-row indices, as a gather or an indirection table gives.
  Gather,
};

/// The kind of `operand` (operand 0 or 1 of an mmaf).
MmaOperandKind classifyMmaOperand(mlir::Value operand);

/// A short phrase for `kind` ("a contiguous load", ...) for remarks.
llvm::StringRef describeMmaOperandKind(MmaOperandKind kind);

/// The first of A and B (0 or 1) that is a Gather, if any.
std::optional<unsigned> findGatheredMmaOperand(MmaFOp op);

/// Whether cp.async (or TMA) can read `load`'s tile in its place: an
/// unordered (weak) load of global memory whose padding, if it has one, is
/// +0.0, what the copies' zero fill gives.
bool isCopyableLoad(LoadOp load);

/// Whether `operand` of an mmaf is a copyable load (isCopyableLoad) as it
/// is (possibly reshaped: no register op between) whose proven runs along
/// the innermost dimension take whole cp.async copies (4 bytes at least): a
/// gather that tilepipe-async-copy-mma-operands can copy into the staging.
bool isCopyableGather(mlir::Value operand);

/// The first of A and B (0 or 1) whose gather keeps `op` off wgmma: B when
/// it is a Gather, A when it is one that is not a copyable load
/// (isCopyableGather: such an A goes to the staging by cp.async).
std::optional<unsigned> findWgmmaBlockingGather(MmaFOp op);

/// Whether `op` takes the wgmma path: the module targets wgmma
/// (targetsWgmma), the op has a wgmma form (hasWgmmaKind: f16/bf16, tf32,
/// fp8) and no gather blocks it (findWgmmaBlockingGather).
bool takesWgmma(MmaFOp op);

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_WGMMACHOICE_H
