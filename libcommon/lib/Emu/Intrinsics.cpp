//===- Intrinsics.cpp - Host implementations of NVVM intrinsics -----------===//
//
// Floating-point results honour the PTX rounding modifiers (.rn/.rz/.rm/.rp)
// by switching the host rounding mode around one operation; this file is
// compiled with -frounding-math so that the compiler keeps them in order.
// .approx operations use the correctly rounded host function, which is
// within the PTX error bounds.
//
//===----------------------------------------------------------------------===//
#include "Intrinsics.h"

#include "BulkCopy.h"
#include "FloatBits.h"
#include "MBarrier.h"
#include "Runtime.h"
#include "TensorMap.h"
#include "Tcgen05.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"

#include <cfenv>
#include <cmath>
#include <limits>
#include <type_traits>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

//===----------------------------------------------------------------------===//
// Barriers and warp collectives
//===----------------------------------------------------------------------===//

enum BarrierFlags : uint32_t {
  kBarHasId = 1,
  kBarHasCount = 2,
  kBarWait = 4,
  kBarHasPred = 8,
};

void barrierHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  unsigned i = 0;
  uint32_t id = (h.aux & kBarHasId) ? h.arg<uint32_t>(args, i++) : 0;
  uint32_t count = (h.aux & kBarHasCount) ? h.arg<uint32_t>(args, i++) : 0;
  bool pred = (h.aux & kBarHasPred) ? (h.arg<uint8_t>(args, i++) & 1) : false;
  uint32_t result = Runtime::active().barrier(id, count, h.aux & kBarWait,
                                              BarrierReduction(h.op), pred);
  if (!h.retOffsets.empty())
    h.result(ret, result);
}

/// Argument positions of the collective's mask and value.
enum CollectiveShape : uint32_t {
  kMaskValue,      // (mask, value, ...) shfl, vote, match
  kValueMask,      // (value, mask) redux
  kMaskOnly,       // (mask) bar.warp.sync, elect.sync
};
/// Marks match.*.sync.i64 (in IntrinsicHandler::rounding, unused otherwise).
constexpr uint8_t kMatch64 = 8;

void collectiveHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  auto kind = CollectiveKind(h.op);
  uint32_t mask;
  LaneExchange mine;
  switch (CollectiveShape(h.aux)) {
  case kMaskOnly:
    mask = h.arg<uint32_t>(args, 0);
    break;
  case kValueMask:
    mine.value = h.arg<uint32_t>(args, 0);
    mask = h.arg<uint32_t>(args, 1);
    break;
  default:
    mask = h.arg<uint32_t>(args, 0);
    if (kind == CollectiveKind::VoteAll || kind == CollectiveKind::VoteAny ||
        kind == CollectiveKind::VoteUni || kind == CollectiveKind::VoteBallot)
      mine.value = h.arg<uint8_t>(args, 1) & 1;
    else if (h.rounding == kMatch64)
      mine.value = h.arg<uint64_t>(args, 1);
    else
      mine.value = h.arg<uint32_t>(args, 1);
    if (h.argOffsets.size() >= 4) {
      mine.b = h.arg<uint32_t>(args, 2);
      mine.c = h.arg<uint32_t>(args, 3);
    }
    break;
  }
  LaneExchange out = Runtime::active().warpCollective(kind, mask, mine);
  if (h.retOffsets.empty())
    return;
  h.result(ret, out.result, 0);
  if (h.retOffsets.size() > 1)
    h.result(ret, uint8_t(out.pred), 1);
}

void activeMaskHandler(const IntrinsicHandler &h, const uint8_t *, uint8_t *ret) {
  h.result(ret, Runtime::active().activeMask());
}

void isSpaceHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  auto address = h.arg<uintptr_t>(args, 0);
  h.result(ret, uint8_t(Runtime::active().isInAddressSpace(address, h.op)));
}

/// barrier.cluster.arrive[.relaxed][.aligned] (op 0) and
/// barrier.cluster.wait[.aligned] (op 1). The orderings (.relaxed, the
/// default release/acquire) hold on the sequential host.
void clusterBarrierHandler(const IntrinsicHandler &h, const uint8_t *, uint8_t *) {
  Runtime &rt = Runtime::active();
  if (h.op == 0)
    rt.clusterArrive();
  else
    rt.clusterWait();
}

/// mapa: the address of the same shared variable in CTA `rank` of the
/// cluster (PTX ISA "mapa": the variable at the same offset of that CTA's
/// shared memory).
void mapaHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  Runtime &rt = Runtime::active();
  uint32_t rank = h.arg<uint32_t>(args, 1);
  uint64_t offset = rt.locateClusterShared(h.arg<uintptr_t>(args, 0), "mapa").second;
  h.result(ret, rt.clusterSharedAddress(rank, offset, "mapa"));
}

/// getctarank: the rank of the CTA whose shared memory holds the address.
void ctaRankHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  Runtime &rt = Runtime::active();
  h.result(ret, rt.locateClusterShared(h.arg<uintptr_t>(args, 0), "getctarank").first);
}

void trapHandler(const IntrinsicHandler &h, const uint8_t *, uint8_t *) {
  Runtime::active().fail("trap instruction executed");
}

void exitHandler(const IntrinsicHandler &h, const uint8_t *, uint8_t *) {
  Runtime::active().exitCurrentThread();
}

void yieldHandler(const IntrinsicHandler &h, const uint8_t *, uint8_t *) {
  Runtime::active().yield();
}

//===----------------------------------------------------------------------===//
// Scoped atomics (atomic.<op>.gen.<i|f>.<cta|sys>): the host is sequential
//===----------------------------------------------------------------------===//

enum class AtomicOp : uint32_t { Add, Exch, Max, Min, Inc, Dec, And, Or, Xor, Cas };

template <class T> T applyAtomic(AtomicOp op, T old, T v, T v2) {
  switch (op) {
  case AtomicOp::Add: return old + v;
  case AtomicOp::Exch: return v;
  case AtomicOp::Max: return old > v ? old : v;
  case AtomicOp::Min: return old < v ? old : v;
  case AtomicOp::Cas: return old == v ? v2 : old;
  default: break;
  }
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
    case AtomicOp::Inc: return U(old) >= U(v) ? 0 : T(U(old) + 1);
    case AtomicOp::Dec: return (U(old) == 0 || U(old) > U(v)) ? v : T(U(old) - 1);
    case AtomicOp::And: return old & v;
    case AtomicOp::Or: return old | v;
    case AtomicOp::Xor: return old ^ v;
    default: break;
    }
  }
  return old;
}

template <class T> void atomicOn(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  auto address = h.arg<uintptr_t>(args, 0);
  T v = h.arg<T>(args, 1);
  T v2 = h.argOffsets.size() > 2 ? h.arg<T>(args, 2) : T();
  Runtime::active().checkAccess(address, sizeof(T), sizeof(T), kAccessWrite);
  T old;
  std::memcpy(&old, reinterpret_cast<void *>(address), sizeof(T));
  T updated = applyAtomic(AtomicOp(h.op), old, v, v2);
  std::memcpy(reinterpret_cast<void *>(address), &updated, sizeof(T));
  h.result(ret, old);
}

void atomicHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  uint32_t size = h.retSizes[0];
  bool isFloat = h.aux;
  if (isFloat)
    return size == 8 ? atomicOn<double>(h, args, ret) : atomicOn<float>(h, args, ret);
  if (AtomicOp(h.op) == AtomicOp::Max || AtomicOp(h.op) == AtomicOp::Min)
    return size == 8 ? atomicOn<int64_t>(h, args, ret) : atomicOn<int32_t>(h, args, ret);
  return size == 8 ? atomicOn<uint64_t>(h, args, ret) : atomicOn<uint32_t>(h, args, ret);
}

//===----------------------------------------------------------------------===//
// Floating point with PTX rounding modifiers
//===----------------------------------------------------------------------===//

class RoundingScope {
public:
  explicit RoundingScope(Rounding rounding) : saved_(std::fegetround()) {
    static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    std::fesetround(modes[unsigned(rounding)]);
  }
  ~RoundingScope() { std::fesetround(saved_); }

private:
  int saved_;
};

template <class T> T flush(T x, bool ftz) {
  if (ftz && std::fpclassify(x) == FP_SUBNORMAL)
    return std::copysign(T(0), x);
  return x;
}

enum class FpOp : uint32_t {
  Add, Sub, Mul, Div, Fma, Sqrt, Rcp, Ex2, Lg2, Sin, Cos, Rsqrt, Ceil, Floor, Trunc,
  Round, Fabs, Fmin, Fmax, Saturate, Tanh, FminNan, FmaxNan,
};

template <class T> T computeFp(FpOp op, T a, T b, T c) {
  switch (op) {
  case FpOp::Add: return a + b;
  case FpOp::Sub: return a - b;
  case FpOp::Mul: return a * b;
  case FpOp::Div: return a / b;
  case FpOp::Fma: return std::fma(a, b, c);
  case FpOp::Sqrt: return std::sqrt(a);
  case FpOp::Rcp: return T(1) / a;
  case FpOp::Ex2: return std::exp2(a);
  case FpOp::Lg2: return std::log2(a);
  case FpOp::Sin: return std::sin(a);
  case FpOp::Cos: return std::cos(a);
  case FpOp::Rsqrt: return T(1) / std::sqrt(a);
  case FpOp::Ceil: return std::ceil(a);
  case FpOp::Floor: return std::floor(a);
  case FpOp::Trunc: return std::trunc(a);
  case FpOp::Round: return std::round(a);
  case FpOp::Fabs: return std::fabs(a);
  case FpOp::Fmin: return std::fmin(a, b);
  case FpOp::Fmax: return std::fmax(a, b);
  case FpOp::Saturate: return std::isnan(a) ? T(0) : std::fmin(std::fmax(a, T(0)), T(1));
  case FpOp::Tanh: return std::tanh(a);
  case FpOp::FminNan:
    return std::isnan(a) || std::isnan(b) ? std::numeric_limits<T>::quiet_NaN() : std::fmin(a, b);
  case FpOp::FmaxNan:
    return std::isnan(a) || std::isnan(b) ? std::numeric_limits<T>::quiet_NaN() : std::fmax(a, b);
  }
  return a;
}

template <class T> void fpOn(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  T in[3] = {0, 0, 0};
  for (unsigned i = 0; i < h.argOffsets.size() && i < 3; ++i)
    in[i] = flush(h.arg<T>(args, i), h.ftz);
  T out;
  {
    RoundingScope scope(Rounding(h.rounding));
    volatile T a = in[0], b = in[1], c = in[2];
    out = computeFp(FpOp(h.op), T(a), T(b), T(c));
  }
  h.result(ret, flush(out, h.ftz));
}

void fpHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  if (h.aux == 8)
    fpOn<double>(h, args, ret);
  else
    fpOn<float>(h, args, ret);
}

/// Number kinds of the cvt-style conversions "<src>2<dst>".
enum class NumKind : uint32_t { F, D, I, UI, LL, ULL };

std::optional<NumKind> parseNumKind(StringRef s) {
  return llvm::StringSwitch<std::optional<NumKind>>(s)
      .Case("f", NumKind::F)
      .Case("d", NumKind::D)
      .Case("i", NumKind::I)
      .Case("ui", NumKind::UI)
      .Case("ll", NumKind::LL)
      .Case("ull", NumKind::ULL)
      .Default(std::nullopt);
}

/// Float to integer as cvt.rni/rzi/rmi/rpi: round, saturate, NaN gives 0.
template <class I> I floatToInt(double value, Rounding rounding) {
  if (std::isnan(value))
    return 0;
  double r;
  switch (rounding) {
  case Rounding::Zero: r = std::trunc(value); break;
  case Rounding::Down: r = std::floor(value); break;
  case Rounding::Up: r = std::ceil(value); break;
  default: r = std::nearbyint(value); break; // ties to even
  }
  if (r <= double(std::numeric_limits<I>::min()))
    return std::numeric_limits<I>::min();
  if (r >= double(std::numeric_limits<I>::max()))
    return std::numeric_limits<I>::max();
  return I(r);
}

void convertHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  auto src = NumKind(h.op), dst = NumKind(h.aux);
  auto rounding = Rounding(h.rounding);
  // Read the source exactly (float sources keep their float value; integer
  // sources stay integers until the rounding conversion below).
  double fsrc = 0;
  int64_t isrc = 0;
  uint64_t usrc = 0;
  bool isFloatSrc = src == NumKind::F || src == NumKind::D;
  switch (src) {
  case NumKind::F: fsrc = flush(h.arg<float>(args, 0), h.ftz); break;
  case NumKind::D: fsrc = h.arg<double>(args, 0); break;
  case NumKind::I: isrc = h.arg<int32_t>(args, 0); break;
  case NumKind::UI: usrc = h.arg<uint32_t>(args, 0); break;
  case NumKind::LL: isrc = h.arg<int64_t>(args, 0); break;
  case NumKind::ULL: usrc = h.arg<uint64_t>(args, 0); break;
  }
  bool unsignedSrc = src == NumKind::UI || src == NumKind::ULL;
  switch (dst) {
  case NumKind::F: {
    RoundingScope scope(rounding);
    volatile double vf = fsrc;
    volatile int64_t vi = isrc;
    volatile uint64_t vu = usrc;
    float out = isFloatSrc ? float(vf) : unsignedSrc ? float(vu) : float(vi);
    return h.result(ret, flush(out, h.ftz));
  }
  case NumKind::D: {
    RoundingScope scope(rounding);
    volatile int64_t vi = isrc;
    volatile uint64_t vu = usrc;
    double out = isFloatSrc ? fsrc : unsignedSrc ? double(vu) : double(vi);
    return h.result(ret, out);
  }
  case NumKind::I: return h.result(ret, floatToInt<int32_t>(fsrc, rounding));
  case NumKind::UI: return h.result(ret, floatToInt<uint32_t>(fsrc, rounding));
  case NumKind::LL: return h.result(ret, floatToInt<int64_t>(fsrc, rounding));
  case NumKind::ULL: return h.result(ret, floatToInt<uint64_t>(fsrc, rounding));
  }
}

//===----------------------------------------------------------------------===//
// Half and bfloat16 conversions
//===----------------------------------------------------------------------===//

enum class HalfOp : uint32_t { F2H, F2BF, FF2H2, FF2BF2, BF2H };

uint16_t toSmall(float value, bool bf, const IntrinsicHandler &h) {
  bool relu = h.aux & 1, satfinite = h.aux & 2;
  if (relu && !(value > 0) && !std::isnan(value))
    value = 0;
  value = flush(value, h.ftz);
  uint16_t bits = bf ? floatToBFloat(value, Rounding(h.rounding))
                     : floatToHalf(value, Rounding(h.rounding));
  if (satfinite && !std::isnan(value)) {
    uint16_t expMask = bf ? 0x7f80 : 0x7c00;
    if ((bits & 0x7fff) == expMask) // overflowed to infinity
      bits = (bits & 0x8000) | (bf ? 0x7f7f : 0x7bff);
  }
  return bits;
}

void halfHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  switch (HalfOp(h.op)) {
  case HalfOp::F2H: return h.result(ret, toSmall(h.arg<float>(args, 0), false, h));
  case HalfOp::F2BF: return h.result(ret, toSmall(h.arg<float>(args, 0), true, h));
  case HalfOp::BF2H:
    return h.result(ret, floatToHalf(bfloatToFloat(h.arg<uint16_t>(args, 0))));
  case HalfOp::FF2H2:
  case HalfOp::FF2BF2: {
    bool bf = HalfOp(h.op) == HalfOp::FF2BF2;
    // cvt.*x2.f32 d, a, b puts a in the upper half and b in the lower one.
    uint32_t hi = toSmall(h.arg<float>(args, 0), bf, h);
    uint32_t lo = toSmall(h.arg<float>(args, 1), bf, h);
    return h.result(ret, uint32_t(lo | hi << 16));
  }
  }
}

/// cvt.{rn,rna,rz}[.relu][.satfinite].tf32.f32: the float with its low 13
/// mantissa bits rounded away.
void tf32Handler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  float value = h.arg<float>(args, 0);
  bool relu = h.aux & 1, satfinite = h.aux & 2, tiesAway = h.aux & 4;
  if (relu && !(value > 0) && !std::isnan(value))
    value = 0;
  uint32_t bits = floatBits(value);
  if (std::isnan(value))
    return h.result(ret, uint32_t(0x7fffffff));
  if (!std::isinf(value)) {
    uint32_t dropped = bits & 0x1fff;
    bits &= ~0x1fffu;
    bool up = Rounding(h.rounding) == Rounding::Nearest &&
              (dropped > 0x1000 || (dropped == 0x1000 && (tiesAway || (bits & 0x2000))));
    if (up)
      bits += 0x2000; // may carry into the exponent, up to infinity
    if (satfinite && (bits & 0x7f800000) == 0x7f800000)
      bits = (bits & 0x80000000) | 0x7f7fe000;
  }
  h.result(ret, bits);
}

/// ldu.global.*: a load through the uniform cache, i.e. a checked load.
void lduHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  auto address = h.arg<uintptr_t>(args, 0);
  uint32_t size = h.retSizes[0];
  Runtime::active().checkAccess(address, size, size, 1u << kAccessAddrSpaceShift);
  std::memcpy(ret, reinterpret_cast<const void *>(address), size);
}

//===----------------------------------------------------------------------===//
// Integer helpers
//===----------------------------------------------------------------------===//

enum class IntOp : uint32_t { MulHiI, MulHiUI, MulHiLL, MulHiULL, SadI, SadUI, Prmt,
                              LoHiToD, DToHi, DToLo, BfindU32, BfindShiftU32 };

uint32_t permute(uint32_t a, uint32_t b, uint32_t selector) {
  uint64_t bytes = uint64_t(b) << 32 | a;
  uint32_t out = 0;
  for (int i = 0; i < 4; ++i) {
    uint32_t sel = (selector >> (4 * i)) & 0xf;
    uint32_t byte = (bytes >> (8 * (sel & 7))) & 0xff;
    if (sel & 8) // sign-replicate mode
      byte = (byte & 0x80) ? 0xff : 0;
    out |= byte << (8 * i);
  }
  return out;
}

void intHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  switch (IntOp(h.op)) {
  case IntOp::MulHiI:
    return h.result(ret, int32_t((int64_t(h.arg<int32_t>(args, 0)) * h.arg<int32_t>(args, 1)) >> 32));
  case IntOp::MulHiUI:
    return h.result(ret, uint32_t((uint64_t(h.arg<uint32_t>(args, 0)) * h.arg<uint32_t>(args, 1)) >> 32));
  case IntOp::MulHiLL:
    return h.result(ret, int64_t((__int128(h.arg<int64_t>(args, 0)) * h.arg<int64_t>(args, 1)) >> 64));
  case IntOp::MulHiULL:
    return h.result(ret, uint64_t((unsigned __int128)h.arg<uint64_t>(args, 0) * h.arg<uint64_t>(args, 1) >> 64));
  case IntOp::SadI: {
    int64_t a = h.arg<int32_t>(args, 0), b = h.arg<int32_t>(args, 1);
    return h.result(ret, uint32_t(std::llabs(a - b) + h.arg<uint32_t>(args, 2)));
  }
  case IntOp::SadUI: {
    int64_t a = h.arg<uint32_t>(args, 0), b = h.arg<uint32_t>(args, 1);
    return h.result(ret, uint32_t(std::llabs(a - b) + h.arg<uint32_t>(args, 2)));
  }
  case IntOp::Prmt:
    return h.result(ret, permute(h.arg<uint32_t>(args, 0), h.arg<uint32_t>(args, 1),
                                 h.arg<uint32_t>(args, 2)));
  case IntOp::LoHiToD: {
    uint64_t bits = uint64_t(h.arg<uint32_t>(args, 1)) << 32 | h.arg<uint32_t>(args, 0);
    return h.result(ret, bits);
  }
  case IntOp::DToHi: return h.result(ret, uint32_t(h.arg<uint64_t>(args, 0) >> 32));
  case IntOp::DToLo: return h.result(ret, uint32_t(h.arg<uint64_t>(args, 0)));
  case IntOp::BfindU32:
  case IntOp::BfindShiftU32: {
    // Position of the most significant 1 (or, .shiftamt, the left shift that
    // makes it the top bit); all ones when there is none.
    uint32_t value = h.arg<uint32_t>(args, 0);
    if (value == 0)
      return h.result(ret, uint32_t(0xffffffff));
    uint32_t msb = 31 - llvm::countl_zero(value);
    return h.result(ret, IntOp(h.op) == IntOp::BfindU32 ? msb : 31 - msb);
  }
  }
}

//===----------------------------------------------------------------------===//
// Name decoding
//===----------------------------------------------------------------------===//

IntrinsicHandler make(IntrinsicFn fn, uint32_t op = 0, uint32_t aux = 0) {
  IntrinsicHandler h;
  h.fn = fn;
  h.op = op;
  h.aux = aux;
  return h;
}

std::optional<Rounding> parseRounding(StringRef s) {
  return llvm::StringSwitch<std::optional<Rounding>>(s)
      .Cases({"rn", "rni"}, Rounding::Nearest)
      .Cases({"rz", "rzi"}, Rounding::Zero)
      .Cases({"rm", "rmi"}, Rounding::Down)
      .Cases({"rp", "rpi"}, Rounding::Up)
      .Default(std::nullopt);
}

std::optional<IntrinsicHandler> lookupBarrier(StringRef n) {
  uint32_t sync = kBarHasId | kBarWait;
  auto plain = llvm::StringSwitch<std::optional<uint32_t>>(n)
                   .Case("barrier0", kBarWait)
                   .Cases({"barrier.cta.sync.aligned.all", "barrier.cta.sync.all"}, sync)
                   .Cases({"barrier.sync", "barrier.n", "bar.sync"}, sync)
                   .Cases({"barrier.cta.sync.aligned.count", "barrier.cta.sync.count"}, sync | kBarHasCount)
                   .Cases({"barrier.sync.cnt", "barrier"}, sync | kBarHasCount)
                   .Cases({"barrier.cta.arrive.aligned.count", "barrier.cta.arrive.count"}, kBarHasId | kBarHasCount)
                   .Case("barrier.arrive", kBarHasId | kBarHasCount)
                   .Default(std::nullopt);
  if (plain)
    return make(barrierHandler, uint32_t(BarrierReduction::None), *plain);
  if (n.consume_front("barrier.cluster.")) {
    n.consume_back(".aligned");
    if (n == "arrive" || n == "arrive.relaxed" || n == "arrive.release")
      return make(clusterBarrierHandler, 0);
    if (n == "wait" || n == "wait.acquire")
      return make(clusterBarrierHandler, 1);
    return std::nullopt;
  }
  // barrier0.{popc,and,or}(pred) and barrier.cta.red.<op>[.aligned].{all,count}
  llvm::SmallVector<StringRef, 6> parts;
  n.split(parts, '.');
  auto reduction = [](StringRef s) {
    return llvm::StringSwitch<std::optional<BarrierReduction>>(s)
        .Case("popc", BarrierReduction::Popc)
        .Case("and", BarrierReduction::And)
        .Case("or", BarrierReduction::Or)
        .Default(std::nullopt);
  };
  if (parts.size() == 2 && parts[0] == "barrier0")
    if (auto r = reduction(parts[1]))
      return make(barrierHandler, uint32_t(*r), kBarWait | kBarHasPred);
  if (parts.size() >= 5 && parts[0] == "barrier" && parts[1] == "cta" && parts[2] == "red")
    if (auto r = reduction(parts[3])) {
      uint32_t flags = kBarHasId | kBarWait | kBarHasPred;
      if (parts.back() == "count")
        flags |= kBarHasCount;
      else if (parts.back() != "all")
        return std::nullopt;
      return make(barrierHandler, uint32_t(*r), flags);
    }
  return std::nullopt;
}

std::optional<IntrinsicHandler> lookupCollective(StringRef n) {
  if (n == "bar.warp.sync")
    return make(collectiveHandler, uint32_t(CollectiveKind::WarpSync), kMaskOnly);
  if (n == "activemask")
    return make(activeMaskHandler);
  if (n == "elect.sync")
    return make(collectiveHandler, uint32_t(CollectiveKind::Elect), kMaskOnly);
  if (n.consume_front("shfl.sync.")) {
    auto mode = llvm::StringSwitch<std::optional<CollectiveKind>>(n.split('.').first)
                    .Case("idx", CollectiveKind::ShflIdx)
                    .Case("up", CollectiveKind::ShflUp)
                    .Case("down", CollectiveKind::ShflDown)
                    .Case("bfly", CollectiveKind::ShflBfly)
                    .Default(std::nullopt);
    StringRef type = n.split('.').second;
    if (!mode || !(type == "i32" || type == "f32" || type == "i32p" || type == "f32p"))
      return std::nullopt;
    return make(collectiveHandler, uint32_t(*mode), kMaskValue);
  }
  if (n.consume_front("vote.")) {
    auto kind = llvm::StringSwitch<std::optional<CollectiveKind>>(n)
                    .Case("all.sync", CollectiveKind::VoteAll)
                    .Case("any.sync", CollectiveKind::VoteAny)
                    .Case("uni.sync", CollectiveKind::VoteUni)
                    .Case("ballot.sync", CollectiveKind::VoteBallot)
                    .Default(std::nullopt);
    if (!kind)
      return std::nullopt;
    return make(collectiveHandler, uint32_t(*kind), kMaskValue);
  }
  if (n.consume_front("match.")) {
    CollectiveKind kind;
    if (n.consume_front("any.sync."))
      kind = CollectiveKind::MatchAny;
    else if (n.consume_front("all.sync."))
      kind = CollectiveKind::MatchAll;
    else
      return std::nullopt;
    IntrinsicHandler h = make(collectiveHandler, uint32_t(kind), kMaskValue);
    if (n.starts_with("i64"))
      h.rounding = kMatch64;
    else if (!n.starts_with("i32"))
      return std::nullopt;
    return h;
  }
  if (n.consume_front("redux.sync.")) {
    auto kind = llvm::StringSwitch<std::optional<CollectiveKind>>(n)
                    .Case("add", CollectiveKind::ReduxAdd)
                    .Case("min", CollectiveKind::ReduxMin)
                    .Case("max", CollectiveKind::ReduxMax)
                    .Case("umin", CollectiveKind::ReduxUMin)
                    .Case("umax", CollectiveKind::ReduxUMax)
                    .Case("and", CollectiveKind::ReduxAnd)
                    .Case("or", CollectiveKind::ReduxOr)
                    .Case("xor", CollectiveKind::ReduxXor)
                    .Default(std::nullopt);
    if (!kind)
      return std::nullopt;
    return make(collectiveHandler, uint32_t(*kind), kValueMask);
  }
  return std::nullopt;
}

std::optional<IntrinsicHandler> lookupFloat(StringRef n) {
  llvm::SmallVector<StringRef, 6> parts;
  n.split(parts, '.');
  // Conversions: "<src>2<dst>.<rounding>[.ftz]".
  if (parts.size() >= 2 && parts[0].contains('2') && !parts[0].starts_with("ex2")) {
    auto [srcName, dstName] = parts[0].split('2');
    auto src = parseNumKind(srcName), dst = parseNumKind(dstName);
    auto rounding = parseRounding(parts[1]);
    if (src && dst && rounding && (parts.size() == 2 || parts[2] == "ftz")) {
      IntrinsicHandler h = make(convertHandler, uint32_t(*src), uint32_t(*dst));
      h.rounding = uint8_t(*rounding);
      h.ftz = parts.size() == 3;
      return h;
    }
    return std::nullopt;
  }
  auto op = llvm::StringSwitch<std::optional<FpOp>>(parts[0])
                .Case("add", FpOp::Add)
                .Case("sub", FpOp::Sub)
                .Case("mul", FpOp::Mul)
                .Case("div", FpOp::Div)
                .Case("fma", FpOp::Fma)
                .Case("sqrt", FpOp::Sqrt)
                .Case("rcp", FpOp::Rcp)
                .Case("ex2", FpOp::Ex2)
                .Case("lg2", FpOp::Lg2)
                .Case("sin", FpOp::Sin)
                .Case("cos", FpOp::Cos)
                .Case("rsqrt", FpOp::Rsqrt)
                .Case("ceil", FpOp::Ceil)
                .Case("floor", FpOp::Floor)
                .Case("trunc", FpOp::Trunc)
                .Case("round", FpOp::Round)
                .Case("fabs", FpOp::Fabs)
                .Case("fmin", FpOp::Fmin)
                .Case("fmax", FpOp::Fmax)
                .Case("saturate", FpOp::Saturate)
                .Case("tanh", FpOp::Tanh)
                .Default(std::nullopt);
  if (!op)
    return std::nullopt;
  IntrinsicHandler h = make(fpHandler, uint32_t(*op));
  StringRef type = parts.back();
  if (type == "d" || type == "f64")
    h.aux = 8;
  else if (type == "f" || type == "f32")
    h.aux = 4;
  else
    return std::nullopt;
  for (StringRef modifier : llvm::ArrayRef(parts).drop_front().drop_back()) {
    if (auto r = parseRounding(modifier))
      h.rounding = uint8_t(*r);
    else if (modifier == "ftz")
      h.ftz = true;
    else if (modifier == "nan" && (*op == FpOp::Fmin || *op == FpOp::Fmax))
      h.op = uint32_t(*op == FpOp::Fmin ? FpOp::FminNan : FpOp::FmaxNan);
    else if (modifier != "approx")
      return std::nullopt; // .xorsign.abs, ... are not implemented
  }
  return h;
}

std::optional<IntrinsicHandler> lookupHalf(StringRef n) {
  llvm::SmallVector<StringRef, 6> parts;
  n.split(parts, '.');
  auto op = llvm::StringSwitch<std::optional<HalfOp>>(parts[0])
                .Cases({"f2h", "f2f16"}, HalfOp::F2H) // i16 and half results
                .Case("f2bf16", HalfOp::F2BF)
                .Case("ff2f16x2", HalfOp::FF2H2)
                .Case("ff2bf16x2", HalfOp::FF2BF2)
                .Case("bf2h", HalfOp::BF2H)
                .Default(std::nullopt);
  if (!op)
    return std::nullopt;
  IntrinsicHandler h = make(halfHandler, uint32_t(*op));
  for (StringRef modifier : llvm::ArrayRef(parts).drop_front()) {
    if (auto r = parseRounding(modifier))
      h.rounding = uint8_t(*r);
    else if (modifier == "ftz")
      h.ftz = true;
    else if (modifier == "relu")
      h.aux |= 1;
    else if (modifier == "satfinite")
      h.aux |= 2;
    else
      return std::nullopt;
  }
  return h;
}

std::optional<IntrinsicHandler> lookupTf32AndLdu(StringRef n) {
  if (n.starts_with("ldu.global."))
    return make(lduHandler);
  if (!n.consume_front("f2tf32."))
    return std::nullopt;
  llvm::SmallVector<StringRef, 4> parts;
  n.split(parts, '.');
  IntrinsicHandler h = make(tf32Handler);
  if (parts[0] == "rna")
    h.aux |= 4;
  else if (auto r = parseRounding(parts[0]))
    h.rounding = uint8_t(*r);
  else
    return std::nullopt;
  for (StringRef modifier : llvm::ArrayRef(parts).drop_front()) {
    if (modifier == "relu")
      h.aux |= 1;
    else if (modifier == "satfinite")
      h.aux |= 2;
    else
      return std::nullopt;
  }
  return h;
}

std::optional<IntrinsicHandler> lookupInteger(StringRef n) {
  auto op = llvm::StringSwitch<std::optional<IntOp>>(n)
                .Case("mulhi.i", IntOp::MulHiI)
                .Case("mulhi.ui", IntOp::MulHiUI)
                .Case("mulhi.ll", IntOp::MulHiLL)
                .Case("mulhi.ull", IntOp::MulHiULL)
                .Case("sad.i", IntOp::SadI)
                .Case("sad.ui", IntOp::SadUI)
                .Case("prmt", IntOp::Prmt)
                .Case("lohi.i2d", IntOp::LoHiToD)
                .Case("d2i.hi", IntOp::DToHi)
                .Case("d2i.lo", IntOp::DToLo)
                .Case("bfind.u32", IntOp::BfindU32)
                .Case("bfind.shiftamt.u32", IntOp::BfindShiftU32)
                .Default(std::nullopt);
  if (!op)
    return std::nullopt;
  return make(intHandler, uint32_t(*op));
}

std::optional<IntrinsicHandler> lookupMisc(StringRef n) {
  if (n.consume_front("isspacep.")) {
    auto space = llvm::StringSwitch<std::optional<uint32_t>>(n)
                     .Case("global", 1)
                     .Case("shared", 3)
                     .Case("shared.cluster", 7)
                     .Case("const", 4)
                     .Case("local", 5)
                     .Default(std::nullopt);
    if (!space)
      return std::nullopt;
    return make(isSpaceHandler, *space);
  }
  if (n == "mapa" || n == "mapa.shared.cluster")
    return make(mapaHandler);
  if (n == "getctarank" || n == "getctarank.shared.cluster")
    return make(ctaRankHandler);
  if (n == "trap")
    return make(trapHandler);
  if (n == "exit")
    return make(exitHandler);
  if (n == "nanosleep")
    return make(yieldHandler);
  if (n.consume_front("atomic.")) {
    llvm::SmallVector<StringRef, 6> parts;
    n.split(parts, '.');
    if (parts.size() < 4 || parts[1] != "gen")
      return std::nullopt;
    auto op = llvm::StringSwitch<std::optional<AtomicOp>>(parts[0])
                  .Case("add", AtomicOp::Add)
                  .Case("exch", AtomicOp::Exch)
                  .Case("max", AtomicOp::Max)
                  .Case("min", AtomicOp::Min)
                  .Case("inc", AtomicOp::Inc)
                  .Case("dec", AtomicOp::Dec)
                  .Case("and", AtomicOp::And)
                  .Case("or", AtomicOp::Or)
                  .Case("xor", AtomicOp::Xor)
                  .Case("cas", AtomicOp::Cas)
                  .Default(std::nullopt);
    if (!op || !(parts[2] == "i" || parts[2] == "f"))
      return std::nullopt;
    return make(atomicHandler, uint32_t(*op), parts[2] == "f");
  }
  return std::nullopt;
}

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupIntrinsic(StringRef name) {
  StringRef n = name;
  if (!n.consume_front("llvm.nvvm."))
    return std::nullopt;
  for (auto lookup : {lookupBarrier, lookupCollective, lookupMatrixIntrinsic, lookupBlockScaledMma,
                      lookupMBarrierIntrinsic, lookupBulkCopyIntrinsic, lookupTensorCopyIntrinsic,
                      lookupTensorMapIntrinsic, lookupTcgen05Intrinsic, lookupMisc, lookupTf32AndLdu,
                      lookupInteger, lookupHalf, lookupFp8Conversion, lookupNarrowConversion,
                      lookupAsyncCopyIntrinsic, lookupFloat})
    if (auto h = lookup(n)) {
      h->name = name.str();
      return h;
    }
  return std::nullopt;
}

std::optional<uint32_t> tilepipe::emu::lookupSpecialRegister(StringRef name) {
  StringRef n = name;
  if (!n.consume_front("llvm.nvvm.read.ptx.sreg."))
    return std::nullopt;
  auto reg = llvm::StringSwitch<std::optional<SpecialReg>>(n)
                 .Case("tid.x", SpecialReg::TidX)
                 .Case("tid.y", SpecialReg::TidY)
                 .Case("tid.z", SpecialReg::TidZ)
                 .Case("ntid.x", SpecialReg::NtidX)
                 .Case("ntid.y", SpecialReg::NtidY)
                 .Case("ntid.z", SpecialReg::NtidZ)
                 .Case("ctaid.x", SpecialReg::CtaidX)
                 .Case("ctaid.y", SpecialReg::CtaidY)
                 .Case("ctaid.z", SpecialReg::CtaidZ)
                 .Case("nctaid.x", SpecialReg::NctaidX)
                 .Case("nctaid.y", SpecialReg::NctaidY)
                 .Case("nctaid.z", SpecialReg::NctaidZ)
                 .Case("laneid", SpecialReg::LaneId)
                 .Case("warpid", SpecialReg::WarpId)
                 .Case("nwarpid", SpecialReg::NWarpId)
                 .Case("warpsize", SpecialReg::WarpSize)
                 .Case("lanemask.eq", SpecialReg::LanemaskEq)
                 .Case("lanemask.le", SpecialReg::LanemaskLe)
                 .Case("lanemask.lt", SpecialReg::LanemaskLt)
                 .Case("lanemask.ge", SpecialReg::LanemaskGe)
                 .Case("lanemask.gt", SpecialReg::LanemaskGt)
                 .Case("smid", SpecialReg::SmId)
                 .Case("nsmid", SpecialReg::NSmId)
                 .Case("gridid", SpecialReg::GridId)
                 .Case("clock", SpecialReg::Clock)
                 .Case("clock64", SpecialReg::Clock64)
                 .Case("globaltimer", SpecialReg::GlobalTimer)
                 .Case("clusterid.x", SpecialReg::ClusterIdX)
                 .Case("clusterid.y", SpecialReg::ClusterIdY)
                 .Case("clusterid.z", SpecialReg::ClusterIdZ)
                 .Case("nclusterid.x", SpecialReg::NClusterIdX)
                 .Case("nclusterid.y", SpecialReg::NClusterIdY)
                 .Case("nclusterid.z", SpecialReg::NClusterIdZ)
                 .Case("cluster.ctaid.x", SpecialReg::ClusterCtaidX)
                 .Case("cluster.ctaid.y", SpecialReg::ClusterCtaidY)
                 .Case("cluster.ctaid.z", SpecialReg::ClusterCtaidZ)
                 .Case("cluster.nctaid.x", SpecialReg::ClusterNctaidX)
                 .Case("cluster.nctaid.y", SpecialReg::ClusterNctaidY)
                 .Case("cluster.nctaid.z", SpecialReg::ClusterNctaidZ)
                 .Case("cluster.ctarank", SpecialReg::ClusterCtaRank)
                 .Case("cluster.nctarank", SpecialReg::ClusterNctaRank)
                 .Cases({"tid.w", "ctaid.w", "clusterid.w", "cluster.ctaid.w"}, SpecialReg::Zero)
                 .Cases({"ntid.w", "nctaid.w", "nclusterid.w", "cluster.nctaid.w"},
                        SpecialReg::One)
                 .Default(std::nullopt);
  if (!reg)
    return std::nullopt;
  return uint32_t(*reg);
}

/// cvt.<rnd>[.relu][.satfinite][.ftz].{f16,bf16}.f32 as the f2h / f2bf16
/// intrinsic with the same modifiers (which lookupHalf checks); "" if the
/// opcode is not one.
static std::string smallFloatConversion(StringRef opcode) {
  if (!opcode.consume_front("cvt."))
    return "";
  if (opcode.consume_back(".bf16.f32"))
    return ("f2bf16." + opcode).str();
  if (opcode.consume_back(".f16.f32"))
    return ("f2h." + opcode).str();
  return "";
}

std::optional<std::string> tilepipe::emu::inlineAsmAsIntrinsic(StringRef text) {
  // "{ rcp.approx.ftz.f32 $0,$1; }" -> opcode "rcp.approx.ftz.f32" and
  // operands "$0", "$1": one instruction whose operands are the asm
  // operands in order (outputs first).
  std::string flat;
  for (char c : text)
    if (c != '{' && c != '}')
      flat += (c == '\n' || c == '\t') ? ' ' : c;
  StringRef body = StringRef(flat).trim();
  if (!body.consume_back(";") || body.contains(';'))
    return std::nullopt;
  auto [opcode, operandText] = body.trim().split(' ');
  llvm::SmallVector<StringRef, 4> operands;
  operandText.split(operands, ',', -1, /*KeepEmpty=*/false);
  for (auto [i, operand] : llvm::enumerate(operands))
    if (operand.trim() != "$" + std::to_string(i))
      return std::nullopt;
  std::string name = opcode == "nanosleep.u32" ? "nanosleep" : smallFloatConversion(opcode);
  // Block-scaled mma.sync takes its operands in the intrinsic's order
  // (d; a, b, c, scale-a, {byte-id-a, thread-id-a}, scale-b, {...}).
  if (name.empty())
    name = blockScaledMmaIntrinsicName(opcode).value_or("");
  if (name.empty())
    name = opcode.str();
  if (!lookupIntrinsic("llvm.nvvm." + name))
    return std::nullopt;
  return "llvm.nvvm." + name;
}

bool tilepipe::emu::isNoOpIntrinsic(StringRef name) {
  StringRef n = name;
  if (!n.consume_front("llvm.nvvm."))
    return false;
  // The emulator runs one grid at a time (nothing to wait for or release) in
  // one address space without virtual aliases.
  if (n.starts_with("griddepcontrol."))
    return true;
  // The bulk and tensor copies run to completion in the issuing thread
  // through generic memory (BulkCopy.cpp, TensorCopy.cpp) and wgmma.mma_async
  // reads its shared operands at issue: the async and tensormap proxies need
  // no fences (fence.* below), bulk groups no waiting.
  if (n.starts_with("cp.async.bulk.") &&
      (n.contains(".prefetch.") || n.contains(".group")))
    return true;
  return n.starts_with("membar.") || n.starts_with("fence.") ||
         n.starts_with("prefetch.") ||
         n.starts_with("read.ptx.sreg.pm") || n.starts_with("setmaxnreg.") ||
         // wgmma.mma_async completes at issue (WgmmaAsm.cpp): nothing to
         // order, commit or wait for.
         n == "wgmma.fence.sync.aligned" || n == "wgmma.commit_group.sync.aligned" ||
         n == "wgmma.wait_group.sync.aligned" ||
         // tcgen05.ld/st complete at issue, and the host orders every
         // tcgen05 operation with the thread's other accesses (Tcgen05.h).
         n == "tcgen05.wait.ld" || n == "tcgen05.wait.st" ||
         n == "tcgen05.fence.before.thread.sync" || n == "tcgen05.fence.after.thread.sync";
}
