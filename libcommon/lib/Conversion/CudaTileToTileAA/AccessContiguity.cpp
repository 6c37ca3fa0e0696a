//===- AccessContiguity.cpp - Proven runs of pointer-tile accesses --------===//
//
// Walks up the def chains of a pointer tile and its mask, keeping for each
// dimension d of every tile met the facts of Triton's AxisInfo:
//   contiguity[d] = c: along d the elements come in aligned groups of c
//     (positions [j * c, (j + 1) * c)) whose values are v, v + 1, ...,
//     v + c - 1 (for pointers: consecutive elements of the pointee);
//   constancy[d] = k: along d, aligned groups of k hold one value;
//   divisor[d] = D: the value (for pointers the byte address) at the start
//     of every contiguity group along d is a multiple of D;
// and the divisor of every element. Divisors are powers of two. Facts come
// from constants, iota, `assume div_by` and the shape ops, and combine
// through the integer arithmetic and comparisons index math is made of. As
// in Triton, index arithmetic is taken not to wrap. Anything else (block
// arguments, loaded values, divisions) proves nothing.
//
//===----------------------------------------------------------------------===//
#include "AccessContiguity.h"

#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace tilepipe;
namespace ct = tilepipe::cuda_tile;

namespace {
/// The divisor recorded for 0 (and the cap of every divisor).
constexpr uint64_t kUnbounded = uint64_t(1) << 32;

uint64_t powerOfTwoFactor(int64_t value) {
  if (value == 0)
    return kUnbounded;
  return std::min(kUnbounded, uint64_t(1) << llvm::countr_zero(uint64_t(value)));
}

uint64_t product(uint64_t a, uint64_t b) {
  if (a >= kUnbounded || b >= kUnbounded)
    return kUnbounded;
  return std::min(kUnbounded, a * b);
}

ArrayRef<int64_t> getShape(Value value) {
  if (auto tile = dyn_cast<ct::TileType>(value.getType()))
    return tile.getShape();
  return {};
}

/// Bytes of one pointee of a tile of pointers.
uint64_t getPointeeBytes(Value ptrs) {
  Type element = cast<ct::TileType>(ptrs.getType()).getElementType();
  Type pointee = cast<ct::PointerType>(element).getPointeeType();
  if (isa<FloatTF32Type>(pointee)) // stored as 32-bit f32
    return 4;
  return std::max<unsigned>(1, pointee.getIntOrFloatBitWidth() / 8);
}

/// The integer every element of `value` holds, where it is a splat constant.
std::optional<APInt> getSplatInteger(Value value) {
  auto constant = value.getDefiningOp<ct::ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto elements = constant.getValue();
  if (!elements.isSplat() || !elements.getElementType().isInteger())
    return std::nullopt;
  return elements.getSplatValue<APInt>();
}

struct AxisFacts {
  SmallVector<int64_t> contiguity, constancy;
  SmallVector<uint64_t> divisor;
  uint64_t elementDivisor = 1;

  /// Nothing known about a tile of `rank` dimensions.
  static AxisFacts unknown(size_t rank) {
    AxisFacts facts;
    facts.contiguity.assign(rank, 1);
    facts.constancy.assign(rank, 1);
    facts.divisor.assign(rank, 1);
    return facts;
  }

  /// Every element is a multiple of `d`, so every group start is too.
  void raiseElementDivisor(uint64_t d) {
    elementDivisor = std::max(elementDivisor, d);
    for (uint64_t &groupDivisor : divisor)
      groupDivisor = std::max(groupDivisor, elementDivisor);
  }

  /// A divisor of the values at the positions along `d` that are multiples
  /// of `c`, each step of contiguity being `unit` (bytes for pointers).
  uint64_t divisorAt(unsigned d, int64_t c, uint64_t unit = 1) const {
    if (c % contiguity[d] == 0) // every such position starts a group
      return divisor[d];
    if (contiguity[d] % c == 0) // group start plus multiples of c
      return std::max(elementDivisor, std::gcd(divisor[d], uint64_t(c) * unit));
    return elementDivisor;
  }
};

/// The contiguity of `a + b` along `d`: a contiguous run of one operand
/// plus a constant run of the other.
int64_t getSumContiguity(const AxisFacts &a, const AxisFacts &b, unsigned d) {
  return std::max(std::gcd(a.contiguity[d], b.constancy[d]),
                  std::gcd(a.constancy[d], b.contiguity[d]));
}

class AxisAnalysis {
public:
  AxisFacts get(Value value) {
    auto it = cache.find(value);
    if (it != cache.end())
      return it->second;
    AxisFacts facts = compute(value);
    cache[value] = facts;
    return facts;
  }

private:
  AxisFacts compute(Value value) {
    ArrayRef<int64_t> shape = getShape(value);
    AxisFacts unknown = AxisFacts::unknown(shape.size());
    Operation *def = value.getDefiningOp();
    if (!def)
      return unknown;
    return llvm::TypeSwitch<Operation *, AxisFacts>(def)
        .Case([&](ct::AssumeOp op) {
          AxisFacts facts = get(op.getValue());
          auto divBy = dyn_cast<ct::DivByAttr>(op.getPredicate());
          if (divBy && !divBy.getEvery() && llvm::isPowerOf2_64(divBy.getDivisor()))
            facts.raiseElementDivisor(divBy.getDivisor());
          return facts;
        })
        .Case([&](ct::ConstantOp) {
          std::optional<APInt> splat = getSplatInteger(value);
          if (!splat)
            return unknown;
          AxisFacts facts = unknown;
          facts.constancy.assign(shape.begin(), shape.end());
          facts.raiseElementDivisor(powerOfTwoFactor(splat->getSExtValue()));
          return facts;
        })
        .Case([&](ct::IotaOp) {
          // 0, 1, ...: one group starting at 0, or, where the values pass
          // the signed maximum of a narrow element type (iota fills it as
          // unsigned), groups up to there.
          AxisFacts facts = unknown;
          unsigned width =
              cast<ct::TileType>(value.getType()).getElementType().getIntOrFloatBitWidth();
          facts.contiguity[0] =
              width < 64 ? std::min<int64_t>(shape[0], int64_t(1) << (width - 1)) : shape[0];
          facts.divisor[0] =
              facts.contiguity[0] < shape[0] ? uint64_t(facts.contiguity[0]) : kUnbounded;
          if (shape[0] == 1)
            facts.raiseElementDivisor(kUnbounded);
          return facts;
        })
        .Case([&](ct::BroadcastOp op) {
          AxisFacts facts = get(op.getSource());
          ArrayRef<int64_t> from = getShape(op.getSource());
          for (auto [d, extent] : llvm::enumerate(shape))
            if (from[d] != extent) { // a unit dimension repeated
              facts.contiguity[d] = 1;
              facts.constancy[d] = extent;
            }
          return facts;
        })
        .Case([&](ct::ReshapeOp op) {
          return reshape(get(op.getSource()), getShape(op.getSource()), shape);
        })
        .Case([&](ct::ExtIOp op) { return get(op.getFrom()); })
        .Case([&](ct::AddIOp op) { return sum(get(op.getLhs()), get(op.getRhs()), 1, true); })
        .Case([&](ct::SubIOp op) { return sum(get(op.getLhs()), get(op.getRhs()), 1, false); })
        .Case([&](ct::OffsetOp op) {
          uint64_t unit = getPointeeBytes(op.getPtr());
          return sum(get(op.getPtr()), scaled(get(op.getOffset()), unit), unit, true);
        })
        .Case([&](ct::MulIOp op) {
          for (auto [one, other] : {std::pair(op.getLhs(), op.getRhs()),
                                    std::pair(op.getRhs(), op.getLhs())}) {
            std::optional<APInt> splat = getSplatInteger(one);
            if (splat && splat->isOne())
              return get(other);
          }
          AxisFacts a = get(op.getLhs()), b = get(op.getRhs()), facts = unknown;
          for (unsigned d = 0; d < shape.size(); ++d) {
            facts.constancy[d] = std::gcd(a.constancy[d], b.constancy[d]);
            facts.divisor[d] = product(a.divisorAt(d, 1), b.divisorAt(d, 1));
          }
          facts.raiseElementDivisor(product(a.elementDivisor, b.elementDivisor));
          return facts;
        })
        .Case([&](ct::CmpIOp op) {
          return compare(get(op.getLhs()), get(op.getRhs()), op.getComparisonPredicate());
        })
        .Case<ct::AndIOp, ct::OrIOp, ct::XOrIOp>([&](auto op) {
          AxisFacts a = get(op.getLhs()), b = get(op.getRhs()), facts = unknown;
          for (unsigned d = 0; d < shape.size(); ++d)
            facts.constancy[d] = std::gcd(a.constancy[d], b.constancy[d]);
          return facts;
        })
        .Case([&](ct::SelectOp op) {
          AxisFacts c = get(op.getCond()), t = get(op.getValIfTrue()),
                    f = get(op.getValIfFalse()), facts = unknown;
          for (unsigned d = 0; d < shape.size(); ++d) {
            facts.constancy[d] =
                std::gcd(c.constancy[d], std::gcd(t.constancy[d], f.constancy[d]));
            facts.divisor[d] = std::gcd(t.divisorAt(d, 1), f.divisorAt(d, 1));
          }
          facts.raiseElementDivisor(std::gcd(t.elementDivisor, f.elementDivisor));
          return facts;
        })
        .Default([&](Operation *) { return unknown; });
  }

  /// A reshape that only adds or drops unit dimensions keeps the facts of
  /// the others; a unit dimension has groups of one (every element starts
  /// one). Other reshapes keep only the element divisor.
  static AxisFacts reshape(const AxisFacts &from, ArrayRef<int64_t> fromShape,
                           ArrayRef<int64_t> toShape) {
    AxisFacts facts = AxisFacts::unknown(toShape.size());
    facts.raiseElementDivisor(from.elementDivisor);
    auto nonUnit = [](ArrayRef<int64_t> shape) {
      SmallVector<unsigned> dims;
      for (auto [d, extent] : llvm::enumerate(shape))
        if (extent != 1)
          dims.push_back(d);
      return dims;
    };
    SmallVector<unsigned> fromDims = nonUnit(fromShape), toDims = nonUnit(toShape);
    if (fromDims.size() != toDims.size() ||
        llvm::any_of(llvm::zip(fromDims, toDims), [&](auto pair) {
          return fromShape[std::get<0>(pair)] != toShape[std::get<1>(pair)];
        }))
      return facts;
    for (auto [f, t] : llvm::zip(fromDims, toDims)) {
      facts.contiguity[t] = from.contiguity[f];
      facts.constancy[t] = from.constancy[f];
      facts.divisor[t] = from.divisor[f];
    }
    return facts;
  }

  /// An integer tile's facts with every value multiplied by `unit` (an
  /// offset in elements as bytes; its contiguity stays in elements).
  static AxisFacts scaled(AxisFacts facts, uint64_t unit) {
    for (uint64_t &d : facts.divisor)
      d = product(d, unit);
    facts.elementDivisor = product(facts.elementDivisor, unit);
    return facts;
  }

  /// `a + b` (`add`) or `a - b`; contiguity steps of `unit` (the pointee
  /// bytes where `a` is a pointer tile and `b` its scaled offset). A
  /// difference stays contiguous only where `b` is constant.
  static AxisFacts sum(const AxisFacts &a, const AxisFacts &b, uint64_t unit, bool add) {
    AxisFacts facts = AxisFacts::unknown(a.contiguity.size());
    if (b.contiguity.size() != a.contiguity.size())
      return facts;
    for (unsigned d = 0; d < a.contiguity.size(); ++d) {
      int64_t c = add ? getSumContiguity(a, b, d) : std::gcd(a.contiguity[d], b.constancy[d]);
      facts.contiguity[d] = c;
      facts.constancy[d] = std::gcd(a.constancy[d], b.constancy[d]);
      facts.divisor[d] = std::gcd(a.divisorAt(d, c, unit), b.divisorAt(d, c, unit));
    }
    facts.raiseElementDivisor(std::gcd(a.elementDivisor, b.elementDivisor));
    return facts;
  }

  /// The comparison's constancy: where both sides are constant, and where
  /// `x < t` or `x >= t` compares a contiguous run x with a constant t: in
  /// an aligned block of h elements with h dividing the run's start and t,
  /// t cannot fall strictly inside the block's values.
  static AxisFacts compare(const AxisFacts &lhs, const AxisFacts &rhs,
                           ct::ComparisonPredicate predicate) {
    AxisFacts facts = AxisFacts::unknown(lhs.contiguity.size());
    if (rhs.contiguity.size() != lhs.contiguity.size())
      return facts;
    const AxisFacts *x = nullptr, *t = nullptr;
    switch (predicate) {
    case ct::ComparisonPredicate::LESS_THAN:
    case ct::ComparisonPredicate::GREATER_THAN_OR_EQUAL:
      x = &lhs, t = &rhs;
      break;
    case ct::ComparisonPredicate::GREATER_THAN: // t > x: x < t
    case ct::ComparisonPredicate::LESS_THAN_OR_EQUAL: // t <= x: x >= t
      x = &rhs, t = &lhs;
      break;
    default:
      break;
    }
    for (unsigned d = 0; d < facts.constancy.size(); ++d) {
      facts.constancy[d] = std::gcd(lhs.constancy[d], rhs.constancy[d]);
      if (!x)
        continue;
      int64_t g = std::gcd(x->contiguity[d], t->constancy[d]);
      uint64_t block =
          std::gcd(uint64_t(g), std::gcd(x->divisorAt(d, g), t->divisorAt(d, g)));
      facts.constancy[d] = std::max<int64_t>(facts.constancy[d], block);
    }
    return facts;
  }

  llvm::DenseMap<Value, AxisFacts> cache;
};
} // namespace

int64_t tilepipe::getPointerAccessContiguity(Value ptrs, Value mask) {
  ArrayRef<int64_t> shape = getShape(ptrs);
  if (shape.empty())
    return 1;
  unsigned inner = shape.size() - 1;
  AxisAnalysis analysis;
  AxisFacts pointers = analysis.get(ptrs);
  int64_t limit = std::gcd(pointers.contiguity[inner], shape[inner]);
  if (mask)
    limit = std::gcd(limit, analysis.get(mask).constancy[inner]);
  uint64_t unit = getPointeeBytes(ptrs);
  for (int64_t group = llvm::bit_floor(uint64_t(limit)); group > 1; group /= 2)
    if (limit % group == 0 && pointers.divisorAt(inner, group, unit) % (group * unit) == 0)
      return group;
  return 1;
}
