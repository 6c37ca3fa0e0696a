//===- PackedBits.h - numbers as the bits they occupy in memory -*- C++ -*-===//
//
// pack/unpack and the loads and stores of sub-byte tiles see a tile as a row
// of bit fields laid out low bits first: each number takes its bit width
// (i1: 1, i4/f4E2M1FN: 4, tf32: 19 as upstream's verifier counts it, the
// others whole bytes), the first number in the lowest bits of the first
// byte. So i4 and f4 lie two to a byte, the first in the low nibble, as the
// bytecode contract's 4-bit types do, and i1 eight to a byte as bytecode
// packs i1 constants.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_PACKEDBITS_H
#define TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_PACKEDBITS_H

#include "mlir/IR/Builders.h"

namespace tilepipe {

/// Bits one element of `element` takes in a packed row: its bit width, 19
/// for tf32 (sign, 8 exponent and 10 mantissa bits: the f32 pattern's top 19).
unsigned getPackedBits(mlir::Type element);

/// Whether `element` is stored below a byte (i4, f4E2M1FN): two to a byte in
/// memory. i1 is not: a memory access stores it as a whole byte.
bool isSubByteElement(mlir::Type element);

/// tile_aa tensors as flat rows of bit fields.
struct ByteView {
  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Value reshape(mlir::Value value, llvm::ArrayRef<int64_t> shape) const;
  /// [n] integers -> [n, parts] integers of partBits, low part first.
  mlir::Value split(mlir::Value numbers, int64_t parts, unsigned partBits) const;
  /// [n, parts] integers of partBits, low part first -> [n] integers.
  mlir::Value join(mlir::Value partRows, unsigned partBits) const;
  /// A tensor of numbers as integers of getPackedBits.
  mlir::Value asBitFields(mlir::Value value) const;
  /// The inverse: integers of getPackedBits(element) as `element`.
  mlir::Value asElements(mlir::Value fields, mlir::Type element) const;
  /// [n] numbers of packed width `bits` -> their bytes, [n * bits / 8] i8.
  mlir::Value toBytes(mlir::Value numbers, unsigned bits) const;
  /// [m] bytes -> [m * 8 / bits] integers of `bits`.
  mlir::Value fromBytes(mlir::Value bytes, unsigned bits) const;

private:
  mlir::Value bitOffsets(int64_t n, int64_t parts, mlir::IntegerType type,
                         unsigned partBits) const;
};

} // namespace tilepipe

#endif // TILEPIPE_LIB_CONVERSION_CUDATILETOTILEAA_PACKEDBITS_H
