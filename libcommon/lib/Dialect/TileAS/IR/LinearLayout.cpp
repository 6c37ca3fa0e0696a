//===- LinearLayout.cpp - Layouts as linear maps over F2 -------------------===//
//
// See LinearLayout.h. The linear algebra works on packed images: every
// output coordinate is a power-of-two range, so an image is one integer
// with each output dimension in its own bit field, and XOR of images is
// XOR of integers. Solving (inverses) is Gaussian elimination over F2 on
// those integers.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/TileAS/IR/LinearLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace tilepipe::tile_as;

/// Outputs beyond this many bits do not pack into one integer.
static constexpr unsigned kMaxOutBits = 62;

static Error layoutError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Expected<LinearLayout> LinearLayout::get(ArrayRef<InDim> ins, ArrayRef<OutDim> outs) {
  StringSet<> inNames, outNames;
  unsigned outBits = 0;
  for (const OutDim &out : outs) {
    if (!outNames.insert(out.name).second)
      return layoutError("output dimension '" + out.name + "' repeats");
    if (out.size < 1 || !isPowerOf2_32(out.size))
      return layoutError("output dimension '" + out.name + "' has size " +
                         Twine(out.size) + ", not a power of two");
    outBits += Log2_32(out.size);
  }
  if (outBits > kMaxOutBits)
    return layoutError("the outputs take " + Twine(outBits) + " bits, over " +
                       Twine(kMaxOutBits));
  for (const InDim &in : ins) {
    if (!inNames.insert(in.name).second)
      return layoutError("input dimension '" + in.name + "' repeats");
    for (auto [bit, basis] : enumerate(in.bases)) {
      if (basis.size() != outs.size())
        return layoutError("basis " + Twine(bit) + " of '" + in.name + "' has " +
                           Twine(basis.size()) + " coordinates for " +
                           Twine(outs.size()) + " outputs");
      for (auto [coord, out] : zip(basis, outs))
        if (coord < 0 || coord >= out.size)
          return layoutError("basis " + Twine(bit) + " of '" + in.name + "' is " +
                             Twine(coord) + " along '" + out.name + "' of size " +
                             Twine(out.size));
    }
  }
  LinearLayout layout;
  layout.ins.assign(ins.begin(), ins.end());
  layout.outs.assign(outs.begin(), outs.end());
  return layout;
}

LinearLayout LinearLayout::strided1D(ArrayRef<int32_t> strides, StringRef in,
                                     StringRef out, int32_t outSize) {
  assert(isPowerOf2_32(outSize) && "output size must be a power of two");
  InDim dim{in.str(), {}};
  for (int32_t stride : strides)
    dim.bases.push_back({stride & (outSize - 1)});
  LinearLayout layout;
  layout.ins.push_back(std::move(dim));
  layout.outs.push_back({out.str(), outSize});
  return layout;
}

LinearLayout LinearLayout::identity1D(int32_t size, StringRef in, StringRef out) {
  assert(isPowerOf2_32(size) && "size must be a power of two");
  SmallVector<int32_t> strides;
  for (int32_t bit = 1; bit < size; bit <<= 1)
    strides.push_back(bit);
  return strided1D(strides, in, out, size);
}

LinearLayout LinearLayout::zeros1D(int32_t size, StringRef in, StringRef out,
                                   int32_t outSize) {
  assert(isPowerOf2_32(size) && "size must be a power of two");
  return strided1D(SmallVector<int32_t>(Log2_32(size), 0), in, out, outSize);
}

std::optional<unsigned> LinearLayout::findIn(StringRef name) const {
  for (auto [index, in] : enumerate(ins))
    if (in.name == name)
      return index;
  return std::nullopt;
}

std::optional<unsigned> LinearLayout::findOut(StringRef name) const {
  for (auto [index, out] : enumerate(outs))
    if (out.name == name)
      return index;
  return std::nullopt;
}

SmallVector<StringRef> LinearLayout::getInDimNames() const {
  return to_vector(map_range(ins, [](const InDim &in) { return StringRef(in.name); }));
}

SmallVector<StringRef> LinearLayout::getOutDimNames() const {
  return to_vector(map_range(outs, [](const OutDim &out) { return StringRef(out.name); }));
}

int32_t LinearLayout::getInDimSize(StringRef name) const {
  return int32_t(1) << getInDimSizeLog2(name);
}

unsigned LinearLayout::getInDimSizeLog2(StringRef name) const {
  std::optional<unsigned> index = findIn(name);
  return index ? ins[*index].bases.size() : 0;
}

int32_t LinearLayout::getOutDimSize(StringRef name) const {
  std::optional<unsigned> index = findOut(name);
  return index ? outs[*index].size : 1;
}

unsigned LinearLayout::getTotalInBits() const {
  unsigned bits = 0;
  for (const InDim &in : ins)
    bits += in.bases.size();
  return bits;
}

unsigned LinearLayout::getTotalOutBits() const {
  unsigned bits = 0;
  for (const OutDim &out : outs)
    bits += Log2_32(out.size);
  return bits;
}

ArrayRef<int32_t> LinearLayout::getBasis(StringRef in, unsigned bit) const {
  std::optional<unsigned> index = findIn(in);
  assert(index && bit < ins[*index].bases.size() && "no such input bit");
  return ins[*index].bases[bit];
}

int32_t LinearLayout::getBasis(StringRef in, unsigned bit, StringRef out) const {
  std::optional<unsigned> index = findOut(out);
  return index ? getBasis(in, bit)[*index] : 0;
}

SmallVector<int32_t> LinearLayout::apply(ArrayRef<int32_t> inputs) const {
  assert(inputs.size() == ins.size() && "one input per input dimension");
  SmallVector<int32_t> image(outs.size(), 0);
  for (auto [value, in] : zip(inputs, ins))
    for (auto [bit, basis] : enumerate(in.bases))
      if (value >> bit & 1)
        for (auto [coord, add] : zip(image, basis))
          coord ^= add;
  return image;
}

SmallVector<std::pair<std::string, int32_t>>
LinearLayout::applyNamed(ArrayRef<std::pair<StringRef, int32_t>> inputs) const {
  SmallVector<int32_t> values(ins.size(), 0);
  for (auto [name, value] : inputs)
    if (std::optional<unsigned> index = findIn(name))
      values[*index] = value;
  SmallVector<std::pair<std::string, int32_t>> named;
  for (auto [out, coord] : zip(outs, apply(values)))
    named.push_back({out.name, coord});
  return named;
}

SmallVector<unsigned> LinearLayout::outBitOffsets() const {
  SmallVector<unsigned> offsets;
  unsigned offset = 0;
  for (const OutDim &out : outs) {
    offsets.push_back(offset);
    offset += Log2_32(out.size);
  }
  return offsets;
}

SmallVector<uint64_t> LinearLayout::packedColumns() const {
  SmallVector<unsigned> offsets = outBitOffsets();
  SmallVector<uint64_t> columns;
  for (const InDim &in : ins)
    for (ArrayRef<int32_t> basis : in.bases) {
      uint64_t packed = 0;
      for (auto [coord, offset] : zip(basis, offsets))
        packed |= uint64_t(coord) << offset;
      columns.push_back(packed);
    }
  return columns;
}

LinearLayout LinearLayout::fromPacked(ArrayRef<uint64_t> columns,
                                      ArrayRef<std::pair<std::string, unsigned>> inBits,
                                      ArrayRef<OutDim> outDims) {
  LinearLayout layout;
  layout.outs.assign(outDims.begin(), outDims.end());
  SmallVector<unsigned> offsets = layout.outBitOffsets();
  const uint64_t *column = columns.begin();
  for (auto &[name, bits] : inBits) {
    InDim in{name, {}};
    for (unsigned bit = 0; bit < bits; ++bit, ++column) {
      SmallVector<int32_t> basis;
      for (auto [out, offset] : zip(outDims, offsets))
        basis.push_back(int32_t(*column >> offset) & (out.size - 1));
      in.bases.push_back(std::move(basis));
    }
    layout.ins.push_back(std::move(in));
  }
  assert(column == columns.end() && "one column per input bit");
  return layout;
}

LinearLayout tilepipe::tile_as::operator*(const LinearLayout &inner,
                                          const LinearLayout &outer) {
  LinearLayout product;
  // Outputs: the inner's, grown by the outer's factor where shared, then
  // the outer's own.
  for (const LinearLayout::OutDim &out : inner.outs)
    product.outs.push_back({out.name, out.size * outer.getOutDimSize(out.name)});
  for (const LinearLayout::OutDim &out : outer.outs)
    if (!inner.hasOutDim(out.name))
      product.outs.push_back(out);
  // A basis of `factor`, placed in the product's outputs: the outer's
  // coordinates above the inner's bits.
  auto place = [&](const LinearLayout &factor, ArrayRef<int32_t> basis, bool isOuter) {
    SmallVector<int32_t> placed;
    for (const LinearLayout::OutDim &out : product.outs) {
      std::optional<unsigned> index = factor.findOut(out.name);
      int32_t coord = index ? basis[*index] : 0;
      placed.push_back(isOuter ? coord * inner.getOutDimSize(out.name) : coord);
    }
    return placed;
  };
  auto addInputs = [&](StringRef name) {
    LinearLayout::InDim in{name.str(), {}};
    if (std::optional<unsigned> index = inner.findIn(name))
      for (ArrayRef<int32_t> basis : inner.ins[*index].bases)
        in.bases.push_back(place(inner, basis, false));
    if (std::optional<unsigned> index = outer.findIn(name))
      for (ArrayRef<int32_t> basis : outer.ins[*index].bases)
        in.bases.push_back(place(outer, basis, true));
    product.ins.push_back(std::move(in));
  };
  for (const LinearLayout::InDim &in : inner.ins)
    addInputs(in.name);
  for (const LinearLayout::InDim &in : outer.ins)
    if (!inner.hasInDim(in.name))
      addInputs(in.name);
  return product;
}

Expected<LinearLayout> LinearLayout::concatIns(const LinearLayout &other) const {
  if (getOutDimNames() != other.getOutDimNames())
    return layoutError("concatIns needs the same output dimensions");
  for (auto [a, b] : zip(outs, other.outs))
    if (a.size != b.size)
      return layoutError("concatIns: output '" + a.name + "' has sizes " + Twine(a.size) +
                         " and " + Twine(b.size));
  for (const InDim &in : other.ins)
    if (hasInDim(in.name))
      return layoutError("concatIns: input '" + in.name + "' is in both");
  LinearLayout joined = *this;
  joined.ins.append(other.ins.begin(), other.ins.end());
  return joined;
}

Expected<LinearLayout> LinearLayout::concatOuts(const LinearLayout &other) const {
  if (getInDimNames() != other.getInDimNames())
    return layoutError("concatOuts needs the same input dimensions");
  for (auto [a, b] : zip(ins, other.ins))
    if (a.bases.size() != b.bases.size())
      return layoutError("concatOuts: input '" + a.name + "' has sizes " +
                         Twine(1 << a.bases.size()) + " and " + Twine(1 << b.bases.size()));
  for (const OutDim &out : other.outs)
    if (hasOutDim(out.name))
      return layoutError("concatOuts: output '" + out.name + "' is in both");
  SmallVector<OutDim> joinedOuts(outs);
  joinedOuts.append(other.outs.begin(), other.outs.end());
  SmallVector<InDim> joinedIns(ins);
  for (auto [in, otherIn] : zip(joinedIns, other.ins))
    for (auto [basis, otherBasis] : zip(in.bases, otherIn.bases))
      basis.append(otherBasis.begin(), otherBasis.end());
  return get(joinedIns, joinedOuts);
}

Expected<LinearLayout> LinearLayout::compose(const LinearLayout &outer) const {
  if (outs.size() != outer.ins.size())
    return layoutError("compose: " + Twine(outs.size()) + " outputs feed " +
                       Twine(outer.ins.size()) + " inputs");
  for (const OutDim &out : outs) {
    if (!outer.hasInDim(out.name))
      return layoutError("compose: output '" + out.name + "' is no input of the outer layout");
    if (out.size > outer.getInDimSize(out.name))
      return layoutError("compose: output '" + out.name + "' of size " + Twine(out.size) +
                         " exceeds the outer input of size " +
                         Twine(outer.getInDimSize(out.name)));
  }
  LinearLayout composed;
  composed.outs = outer.outs;
  for (const InDim &in : ins) {
    InDim mapped{in.name, {}};
    for (ArrayRef<int32_t> basis : in.bases) {
      SmallVector<int32_t> outerInputs(outer.ins.size(), 0);
      for (auto [coord, out] : zip(basis, outs))
        outerInputs[*outer.findIn(out.name)] = coord;
      mapped.bases.push_back(outer.apply(outerInputs));
    }
    composed.ins.push_back(std::move(mapped));
  }
  return composed;
}

namespace {
/// Gaussian elimination over F2 on packed images: a basis of the span of
/// the columns added so far, each pivot with the combination of input bits
/// that gives it.
struct Elimination {
  /// pivot bit -> (image with that highest set bit, input-bit combination)
  DenseMap<unsigned, std::pair<uint64_t, uint64_t>> pivots;

  /// Adds input bit `bit` with image `column`; false if it is dependent.
  bool add(uint64_t column, unsigned bit) {
    uint64_t combination = uint64_t(1) << bit;
    reduce(column, combination);
    if (!column)
      return false;
    pivots[Log2_64(column)] = {column, combination};
    return true;
  }
  /// Reduces `image` by the pivots; what is left is outside the span.
  void reduce(uint64_t &image, uint64_t &combination) const {
    while (image) {
      auto it = pivots.find(Log2_64(image));
      if (it == pivots.end())
        return;
      image ^= it->second.first;
      combination ^= it->second.second;
    }
  }
  /// The input-bit combination giving `image`, if it is in the span.
  std::optional<uint64_t> solve(uint64_t image) const {
    uint64_t combination = 0;
    reduce(image, combination);
    if (image)
      return std::nullopt;
    return combination;
  }
};

Elimination eliminate(ArrayRef<uint64_t> columns, unsigned *rank = nullptr) {
  Elimination elimination;
  unsigned independent = 0;
  for (auto [bit, column] : enumerate(columns))
    independent += elimination.add(column, bit);
  if (rank)
    *rank = independent;
  return elimination;
}
} // namespace

bool LinearLayout::isSurjective() const {
  unsigned rank = 0;
  eliminate(packedColumns(), &rank);
  return rank == getTotalOutBits();
}

bool LinearLayout::isInjective() const {
  unsigned rank = 0;
  eliminate(packedColumns(), &rank);
  return rank == getTotalInBits();
}

Expected<LinearLayout> LinearLayout::pseudoinvert() const {
  if (getTotalInBits() > 64)
    return layoutError("pseudoinvert: over 64 input bits");
  Elimination elimination = eliminate(packedColumns());
  // Output bit i of the inverse's input is the combination giving e_i.
  SmallVector<uint64_t> columns;
  for (unsigned bit = 0, e = getTotalOutBits(); bit < e; ++bit) {
    std::optional<uint64_t> combination = elimination.solve(uint64_t(1) << bit);
    if (!combination)
      return layoutError("pseudoinvert: the layout is not surjective (" + toString() + ")");
    columns.push_back(*combination);
  }
  SmallVector<std::pair<std::string, unsigned>> inBits;
  for (const OutDim &out : outs)
    inBits.push_back({out.name, Log2_32(out.size)});
  SmallVector<OutDim> inverseOuts;
  for (const InDim &in : ins)
    inverseOuts.push_back({in.name, int32_t(1) << in.bases.size()});
  if (getTotalInBits() > kMaxOutBits)
    return layoutError("pseudoinvert: the inputs take over 62 bits");
  return fromPacked(columns, inBits, inverseOuts);
}

Expected<LinearLayout> LinearLayout::invert() const {
  if (!isInjective() || getTotalInBits() != getTotalOutBits())
    return layoutError("invert: the layout is not bijective (" + toString() + ")");
  return pseudoinvert();
}

Expected<LinearLayout> LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  if (getOutDimNames() != outer.getOutDimNames())
    return layoutError("invertAndCompose needs the same output dimensions");
  for (auto [a, b] : zip(outs, outer.outs))
    if (a.size != b.size)
      return layoutError("invertAndCompose: output '" + a.name + "' has sizes " +
                         Twine(a.size) + " and " + Twine(b.size));
  if (outer.getTotalInBits() > kMaxOutBits)
    return layoutError("invertAndCompose: the outer inputs take over 62 bits");
  Elimination elimination = eliminate(outer.packedColumns());
  SmallVector<uint64_t> columns;
  for (auto [bit, column] : enumerate(packedColumns())) {
    std::optional<uint64_t> combination = elimination.solve(column);
    if (!combination)
      return layoutError("invertAndCompose: an image of " + toString() +
                         " is no image of " + outer.toString());
    columns.push_back(*combination);
  }
  SmallVector<std::pair<std::string, unsigned>> inBits;
  for (const InDim &in : ins)
    inBits.push_back({in.name, unsigned(in.bases.size())});
  SmallVector<OutDim> composedOuts;
  for (const InDim &in : outer.ins)
    composedOuts.push_back({in.name, int32_t(1) << in.bases.size()});
  return fromPacked(columns, inBits, composedOuts);
}

LinearLayout LinearLayout::sublayout(ArrayRef<StringRef> inNames,
                                     ArrayRef<StringRef> outNames) const {
  LinearLayout sub;
  SmallVector<std::optional<unsigned>> outIndices;
  for (StringRef name : outNames) {
    outIndices.push_back(findOut(name));
    sub.outs.push_back({name.str(), getOutDimSize(name)});
  }
  for (StringRef name : inNames) {
    InDim in{name.str(), {}};
    if (std::optional<unsigned> index = findIn(name))
      for (ArrayRef<int32_t> basis : ins[*index].bases) {
        SmallVector<int32_t> kept;
        for (std::optional<unsigned> out : outIndices)
          kept.push_back(out ? basis[*out] : 0);
        in.bases.push_back(std::move(kept));
      }
    sub.ins.push_back(std::move(in));
  }
  return sub;
}

bool LinearLayout::sublayoutIsZero(ArrayRef<StringRef> inNames,
                                   ArrayRef<StringRef> outNames) const {
  return all_of(sublayout(inNames, outNames).packedColumns(),
                [](uint64_t column) { return column == 0; });
}

bool LinearLayout::sameSublayout(const LinearLayout &other,
                                 ArrayRef<StringRef> inNames) const {
  return getOutDimNames() == other.getOutDimNames() &&
         sublayout(inNames) == other.sublayout(inNames);
}

LinearLayout LinearLayout::flattenOuts(StringRef name) const {
  unsigned bits = getTotalOutBits();
  return fromPacked(packedColumns(),
                    to_vector(map_range(ins,
                                        [](const InDim &in) {
                                          return std::pair<std::string, unsigned>(
                                              in.name, in.bases.size());
                                        })),
                    {OutDim{name.str(), int32_t(1) << bits}});
}

LinearLayout LinearLayout::flattenIns(StringRef name) const {
  LinearLayout flat;
  flat.outs = outs;
  InDim merged{name.str(), {}};
  for (const InDim &in : ins)
    merged.bases.append(in.bases.begin(), in.bases.end());
  flat.ins.push_back(std::move(merged));
  return flat;
}

Expected<LinearLayout> LinearLayout::transposeOuts(ArrayRef<StringRef> order) const {
  StringSet<> named;
  for (StringRef name : order)
    if (!hasOutDim(name) || !named.insert(name).second)
      return layoutError("transposeOuts: the order is no permutation of the outputs");
  if (order.size() != outs.size())
    return layoutError("transposeOuts: the order is no permutation of the outputs");
  return sublayout(getInDimNames(), order);
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  if (ins.size() != other.ins.size() || outs.size() != other.outs.size())
    return false;
  for (auto [a, b] : zip(outs, other.outs))
    if (a.name != b.name || a.size != b.size)
      return false;
  for (auto [a, b] : zip(ins, other.ins))
    if (a.name != b.name || a.bases != b.bases)
      return false;
  return true;
}

std::string LinearLayout::toString() const {
  std::string text;
  raw_string_ostream os(text);
  interleave(
      ins, os,
      [&](const InDim &in) {
        os << in.name << ": [";
        interleaveComma(in.bases, os, [&](ArrayRef<int32_t> basis) {
          os << '[';
          interleaveComma(basis, os);
          os << ']';
        });
        os << ']';
      },
      ", ");
  os << " -> ";
  interleave(outs, os, [&](const OutDim &out) { os << out.name << ": " << out.size; }, ", ");
  return text;
}
