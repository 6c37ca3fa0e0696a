//===- LinearLayout.h - Layouts as linear maps over F2 ---------------------===//
//
// One representation for every layout of the lowering (docs/layouts.md): a
// map from named input dimensions (the hardware location: register, lane,
// warp; or a shared-memory offset) to named output dimensions (tensor
// coordinates), each of power-of-two size. The map is linear over F2: every
// input bit has one basis vector (a coordinate per output dimension), and
// the image of an input is the XOR of the basis vectors of its set bits.
//
//   L(x) = XOR over input bits i set in x of basis(i)
//
// Blocked register layouts, the mma.sync fragments, ldmatrix results and
// the swizzled shared-memory layouts are all of this form (for
// power-of-two shapes), so one set of operations answers the questions the
// lowering asks: which location holds an element (apply), where the
// element a destination location needs lives in a source layout
// (invertAndCompose), whether two layouts agree on the lanes or warps
// (sublayout equality), and how to build a layout from pieces (product,
// concatenation).
//
// Dimensions keep the order in which they were given. Within a dimension
// the input bits are numbered from the least significant, and a product
// puts the right factor's bits above the left's.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DIALECT_TILEAS_IR_LINEARLAYOUT_H
#define TILEPIPE_DIALECT_TILEAS_IR_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace tilepipe::tile_as {

class LinearLayout {
public:
  /// One input dimension: a basis vector (one coordinate per output
  /// dimension, in the layout's output order) per bit; its size is
  /// 2^bases.size().
  struct InDim {
    std::string name;
    llvm::SmallVector<llvm::SmallVector<int32_t>> bases;
  };
  /// One output dimension and its size (a power of two).
  struct OutDim {
    std::string name;
    int32_t size = 1;
  };

  /// The empty layout: no dimensions, maps the one point to the one point.
  LinearLayout() = default;

  /// A layout from explicit bases; fails when a name repeats, a size is
  /// not a power of two, a basis has the wrong length, a coordinate lies
  /// outside its output dimension or the outputs take over 62 bits.
  static llvm::Expected<LinearLayout> get(llvm::ArrayRef<InDim> ins,
                                          llvm::ArrayRef<OutDim> outs);

  /// x -> x from `in` to `out`, both of `size` (a power of two).
  static LinearLayout identity1D(int32_t size, llvm::StringRef in,
                                 llvm::StringRef out);
  /// x -> 0 from `in` of `size` to `out` of `outSize`: every input bit is
  /// a copy (broadcast, replication).
  static LinearLayout zeros1D(int32_t size, llvm::StringRef in,
                              llvm::StringRef out, int32_t outSize = 1);
  /// bit i of `in` -> `strides[i]` along `out` (of `outSize`).
  static LinearLayout strided1D(llvm::ArrayRef<int32_t> strides,
                                llvm::StringRef in, llvm::StringRef out,
                                int32_t outSize);

  llvm::ArrayRef<InDim> getInDims() const { return ins; }
  llvm::ArrayRef<OutDim> getOutDims() const { return outs; }
  llvm::SmallVector<llvm::StringRef> getInDimNames() const;
  llvm::SmallVector<llvm::StringRef> getOutDimNames() const;
  bool hasInDim(llvm::StringRef name) const { return findIn(name).has_value(); }
  bool hasOutDim(llvm::StringRef name) const { return findOut(name).has_value(); }
  /// Size of a dimension; 1 for a dimension the layout does not have.
  int32_t getInDimSize(llvm::StringRef name) const;
  int32_t getOutDimSize(llvm::StringRef name) const;
  unsigned getInDimSizeLog2(llvm::StringRef name) const;
  unsigned getTotalInBits() const;
  unsigned getTotalOutBits() const;
  /// The basis vector of bit `bit` of input dimension `in`.
  llvm::ArrayRef<int32_t> getBasis(llvm::StringRef in, unsigned bit) const;
  /// The coordinate along `out` of that basis vector (0 if `out` is absent).
  int32_t getBasis(llvm::StringRef in, unsigned bit, llvm::StringRef out) const;

  /// The image of one input per input dimension (in the layout's input
  /// order; values reduced modulo each size), one value per output dimension.
  llvm::SmallVector<int32_t> apply(llvm::ArrayRef<int32_t> inputs) const;
  /// The same with named inputs (absent dimensions are 0), named outputs.
  llvm::SmallVector<std::pair<std::string, int32_t>>
  applyNamed(llvm::ArrayRef<std::pair<llvm::StringRef, int32_t>> inputs) const;

  /// The product: input and output dimensions of both; where a dimension is
  /// in both, the right factor takes the higher bits (input) and its
  /// coordinates are scaled by the left's size (output), as a nested tiling.
  friend LinearLayout operator*(const LinearLayout &inner, const LinearLayout &outer);

  /// `this` and `other` side by side: disjoint input dimensions, the same
  /// output dimensions and sizes; the images are XORed.
  llvm::Expected<LinearLayout> concatIns(const LinearLayout &other) const;
  /// The same inputs, disjoint outputs: one layout giving both images.
  llvm::Expected<LinearLayout> concatOuts(const LinearLayout &other) const;

  /// `outer` after `this`: x -> outer(this(x)). `outer`'s input dimensions
  /// must be `this`'s outputs, each at least as large.
  llvm::Expected<LinearLayout> compose(const LinearLayout &outer) const;

  /// The inverse map, for a bijective layout (as many input as output bits,
  /// full rank); its inputs are this layout's outputs and vice versa.
  llvm::Expected<LinearLayout> invert() const;

  /// A right inverse of a surjective layout: P with this(P(y)) = y. Where
  /// several inputs give y, P picks the one using the earliest input bits
  /// (dimensions in order, low bits first), the others' bits 0.
  llvm::Expected<LinearLayout> pseudoinvert() const;

  /// C with outer(C(x)) = this(x) for every x: for each location of `this`,
  /// a location of `outer` holding the same point. Fails unless every
  /// image of `this` is an image of `outer` (with the same output names).
  llvm::Expected<LinearLayout> invertAndCompose(const LinearLayout &outer) const;

  /// The restriction to input dimensions `inNames` (others set to 0) and
  /// output dimensions `outNames` (others dropped), each in the given order.
  LinearLayout sublayout(llvm::ArrayRef<llvm::StringRef> inNames,
                         llvm::ArrayRef<llvm::StringRef> outNames) const;
  /// The restriction to input dimensions `inNames`, every output kept.
  LinearLayout sublayout(llvm::ArrayRef<llvm::StringRef> inNames) const {
    return sublayout(inNames, getOutDimNames());
  }
  /// Whether every input bit of `inNames` maps to 0 along `outNames`.
  bool sublayoutIsZero(llvm::ArrayRef<llvm::StringRef> inNames,
                       llvm::ArrayRef<llvm::StringRef> outNames) const;
  /// Whether `this` and `other` map the inputs `inNames` alike: same sizes
  /// and the same images along every output ("is the lane part the same").
  bool sameSublayout(const LinearLayout &other,
                     llvm::ArrayRef<llvm::StringRef> inNames) const;

  /// The output dimensions merged into one, `name`, the first one least
  /// significant (row-major for outputs given minor first).
  LinearLayout flattenOuts(llvm::StringRef name) const;
  /// The input dimensions merged into one, the first least significant.
  LinearLayout flattenIns(llvm::StringRef name) const;
  /// The output dimensions reordered (a permutation of their names).
  llvm::Expected<LinearLayout> transposeOuts(llvm::ArrayRef<llvm::StringRef> order) const;

  /// Whether every output is an image (the bases span the output space).
  bool isSurjective() const;
  /// Whether distinct inputs have distinct images.
  bool isInjective() const;
  bool isInvertible() const { return isSurjective() && isInjective(); }

  bool operator==(const LinearLayout &other) const;
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  /// "register: [[0, 1], [0, 2]], lane: [...] -> dim0: 16, dim1: 8".
  std::string toString() const;
  void print(llvm::raw_ostream &os) const { os << toString(); }

private:
  std::optional<unsigned> findIn(llvm::StringRef name) const;
  std::optional<unsigned> findOut(llvm::StringRef name) const;
  /// Bit offset of each output dimension in the packed image.
  llvm::SmallVector<unsigned> outBitOffsets() const;
  /// Every input bit's image packed into one integer (outputs in order,
  /// the first least significant), input bits in order.
  llvm::SmallVector<uint64_t> packedColumns() const;
  /// The layout whose input bits have the packed images `columns`, taken
  /// in order by the input dimensions `inBits` (name, bit count), onto
  /// `outDims`.
  static LinearLayout fromPacked(llvm::ArrayRef<uint64_t> columns,
                                 llvm::ArrayRef<std::pair<std::string, unsigned>> inBits,
                                 llvm::ArrayRef<OutDim> outDims);

  llvm::SmallVector<InDim> ins;
  llvm::SmallVector<OutDim> outs;
};

LinearLayout operator*(const LinearLayout &inner, const LinearLayout &outer);

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const LinearLayout &layout) {
  layout.print(os);
  return os;
}

} // namespace tilepipe::tile_as

#endif // TILEPIPE_DIALECT_TILEAS_IR_LINEARLAYOUT_H
