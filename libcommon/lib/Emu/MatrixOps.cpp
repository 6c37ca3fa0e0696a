//===- MatrixOps.cpp - mma.sync, ldmatrix and stmatrix as warp collectives ===//
//
// These instructions need every lane of the warp: each lane contributes its
// fragment registers (or a row address) and receives its share of the
// result. The fragment layouts are the PTX ISA's (MatrixFragments.h).
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"
#include "MatrixFragments.h"
#include "Runtime.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <string>

using namespace tilepipe::emu;
using llvm::StringRef;

unsigned tilepipe::emu::elemBits(ElemType type) {
  switch (type) {
  case ElemType::F16:
  case ElemType::BF16:
    return 16;
  case ElemType::S8:
  case ElemType::U8:
  case ElemType::E4M3:
  case ElemType::E5M2:
    return 8;
  default:
    return 32;
  }
}

double tilepipe::emu::decodeElement(ElemType type, uint32_t bits) {
  switch (type) {
  case ElemType::F16: return halfToFloat(uint16_t(bits));
  case ElemType::BF16: return bfloatToFloat(uint16_t(bits));
  case ElemType::TF32: return bitsFloat(bits & 0xffffe000u); // low 13 bits ignored
  case ElemType::F32: return bitsFloat(bits);
  case ElemType::S8: return int8_t(bits);
  case ElemType::U8: return uint8_t(bits);
  case ElemType::S32: return int32_t(bits);
  case ElemType::E4M3: return e4m3ToDouble(uint8_t(bits));
  case ElemType::E5M2: return e5m2ToFloat(uint8_t(bits));
  }
  return 0;
}

namespace {

/// mma.sync.aligned.m16n8k<K>.row.col with one of the supported type sets.
class MmaOp : public WarpMatrixOp {
public:
  MmaOp(std::string name, unsigned k, ElemType a, ElemType b, ElemType c, ElemType d,
        bool satfinite)
      : name_(std::move(name)), k_(k), a_(a), b_(b), c_(c), d_(d), satfinite_(satfinite) {}

  const char *name() const override { return name_.c_str(); }
  unsigned aRegs() const { return 16 * k_ / 32 / (32 / elemBits(a_)); }
  unsigned bRegs() const { return k_ * 8 / 32 / (32 / elemBits(b_)); }
  unsigned cRegs() const { return 4 / (32 / elemBits(c_)); }
  unsigned dRegs() const { return 4 / (32 / elemBits(d_)); }

  void compute(std::array<LaneExchange, 32> &lanes) const override {
    double a[16][32] = {}, b[32][8] = {}, c[16][8] = {};
    unsigned aBits = elemBits(a_), bBits = elemBits(b_), cBits = elemBits(c_);
    unsigned aCount = 16 * k_ / 32, bCount = k_ * 8 / 32;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const uint32_t *regs = lanes[lane].regs.data();
      unsigned g = lane / 4, t = lane % 4;
      for (unsigned i = 0; i < aCount; ++i) {
        auto [row, col] = aFragmentPosition(a_, g, t, i);
        a[row][col] = decodeElement(a_, extractElement(regs, i, aBits));
      }
      for (unsigned i = 0; i < bCount; ++i) {
        auto [row, col] = bFragmentPosition(b_, g, t, i);
        b[row][col] = decodeElement(b_, extractElement(regs + aRegs(), i, bBits));
      }
      for (unsigned i = 0; i < 4; ++i) {
        auto [row, col] = accumulatorPosition(g, t, i);
        c[row][col] = decodeElement(c_, extractElement(regs + aRegs() + bRegs(), i, cBits));
      }
    }
    bool integer = d_ == ElemType::S32;
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned g = lane / 4, t = lane % 4;
      uint32_t *out = lanes[lane].out.data();
      for (unsigned i = 0; i < 4; ++i) {
        auto [row, col] = accumulatorPosition(g, t, i);
        if (integer) {
          int64_t acc = int64_t(c[row][col]);
          for (unsigned kk = 0; kk < k_; ++kk)
            acc += int64_t(a[row][kk]) * int64_t(b[kk][col]);
          if (satfinite_)
            acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
          insertElement(out, i, 32, uint32_t(acc));
          continue;
        }
        // The tensor cores keep full products and accumulate in at least
        // single precision; double then one rounding is within that.
        double acc = c[row][col];
        for (unsigned kk = 0; kk < k_; ++kk)
          acc += a[row][kk] * b[kk][col];
        if (d_ == ElemType::F16)
          insertElement(out, i, 16, doubleToHalf(acc));
        else
          insertElement(out, i, 32, floatBits(float(acc)));
      }
    }
  }

private:
  std::string name_;
  unsigned k_;
  ElemType a_, b_, c_, d_;
  bool satfinite_;
};

/// Where half `half` of a lane's register of one 8x8 b16 matrix of
/// ldmatrix/stmatrix sits ("Matrix fragments for ldmatrix"/"stmatrix"): two
/// consecutive elements of row groupID, or with .trans of column groupID.
RowCol b16MatrixPosition(unsigned lane, unsigned half, bool trans) {
  unsigned g = lane / 4, t = lane % 4;
  return trans ? RowCol{2 * t + half, g} : RowCol{g, 2 * t + half};
}

/// The address of element (row, col) of matrix `matrix`: lanes 8j..8j+7
/// give the row addresses of matrix j.
uintptr_t b16MatrixAddress(const std::array<LaneExchange, 32> &lanes, unsigned matrix,
                           RowCol at) {
  return uintptr_t(lanes[matrix * 8 + at.first].value) + 2 * at.second;
}

/// ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16: every lane receives two
/// 16-bit elements of each matrix.
class LdmatrixOp : public WarpMatrixOp {
public:
  LdmatrixOp(std::string name, unsigned count, bool trans)
      : name_(std::move(name)), count_(count), trans_(trans) {}
  const char *name() const override { return name_.c_str(); }
  unsigned count() const { return count_; }

  void compute(std::array<LaneExchange, 32> &lanes) const override {
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned j = 0; j < count_; ++j)
        for (unsigned half = 0; half < 2; ++half) {
          uint16_t value;
          uintptr_t address = b16MatrixAddress(lanes, j, b16MatrixPosition(lane, half, trans_));
          std::memcpy(&value, reinterpret_cast<const void *>(address), 2);
          insertElement(lanes[lane].out.data(), 2 * j + half, 16, value);
        }
  }

private:
  std::string name_;
  unsigned count_;
  bool trans_;
};

/// stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16, the inverse of
/// ldmatrix: register j of every lane holds two elements of matrix j, which
/// go to the rows whose addresses lanes 8j..8j+7 give.
class StmatrixOp : public WarpMatrixOp {
public:
  StmatrixOp(std::string name, unsigned count, bool trans)
      : name_(std::move(name)), count_(count), trans_(trans) {}
  const char *name() const override { return name_.c_str(); }
  unsigned count() const { return count_; }

  void compute(std::array<LaneExchange, 32> &lanes) const override {
    for (unsigned lane = 0; lane < 32; ++lane)
      for (unsigned j = 0; j < count_; ++j)
        for (unsigned half = 0; half < 2; ++half) {
          auto value = uint16_t(extractElement(lanes[lane].regs.data(), 2 * j + half, 16));
          uintptr_t address = b16MatrixAddress(lanes, j, b16MatrixPosition(lane, half, trans_));
          std::memcpy(reinterpret_cast<void *>(address), &value, 2);
        }
  }

private:
  std::string name_;
  unsigned count_;
  bool trans_;
};

void mmaHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  LaneExchange mine;
  for (unsigned i = 0; i < h.argOffsets.size() && i < mine.regs.size(); ++i)
    mine.regs[i] = h.arg<uint32_t>(args, i);
  LaneExchange out = Runtime::active().warpCollective(CollectiveKind::MatrixOp, 0xffffffff,
                                                      mine, h.matrixOp.get());
  for (unsigned i = 0; i < h.retOffsets.size(); ++i)
    h.result(ret, out.out[i], i);
}

void ldmatrixHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  auto *op = static_cast<const LdmatrixOp *>(h.matrixOp.get());
  Runtime &rt = Runtime::active();
  LaneExchange mine;
  mine.value = h.arg<uintptr_t>(args, 0);
  if (rt.current()->lane < 8 * op->count())
    rt.checkAccess(mine.value, 16, 16, 3u << kAccessAddrSpaceShift);
  LaneExchange out = rt.warpCollective(CollectiveKind::MatrixOp, 0xffffffff, mine, op);
  for (unsigned i = 0; i < h.retOffsets.size(); ++i)
    h.result(ret, out.out[i], i);
}

void stmatrixHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *) {
  auto *op = static_cast<const StmatrixOp *>(h.matrixOp.get());
  Runtime &rt = Runtime::active();
  LaneExchange mine;
  mine.value = h.arg<uintptr_t>(args, 0);
  for (unsigned j = 0; j < op->count(); ++j)
    mine.regs[j] = h.arg<uint32_t>(args, 1 + j);
  if (rt.current()->lane < 8 * op->count())
    rt.checkAccess(mine.value, 16, 16, kAccessWrite | 3u << kAccessAddrSpaceShift);
  rt.warpCollective(CollectiveKind::MatrixOp, 0xffffffff, mine, op);
}

/// "x4.trans.b16..." -> {4, true}; a count of 0 when malformed.
std::pair<unsigned, bool> parseB16MatrixCount(StringRef &n) {
  unsigned count = n.consume_front("x1.") ? 1 : n.consume_front("x2.") ? 2
                   : n.consume_front("x4.") ? 4 : 0;
  bool trans = n.consume_front("trans.");
  if (!n.starts_with("b16"))
    count = 0;
  return {count, trans};
}

std::optional<ElemType> parseFp8(StringRef s) {
  return llvm::StringSwitch<std::optional<ElemType>>(s)
      .Case("e4m3", ElemType::E4M3)
      .Case("e5m2", ElemType::E5M2)
      .Default(std::nullopt);
}

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupMatrixIntrinsic(StringRef n) {
  std::string name = n.str();
  bool load = n.consume_front("ldmatrix.sync.aligned.m8n8.");
  if (load || n.consume_front("stmatrix.sync.aligned.m8n8.")) {
    auto [count, trans] = parseB16MatrixCount(n);
    if (!count)
      return std::nullopt;
    IntrinsicHandler h;
    h.fn = load ? ldmatrixHandler : stmatrixHandler;
    if (load)
      h.matrixOp = std::make_shared<LdmatrixOp>(name, count, trans);
    else
      h.matrixOp = std::make_shared<StmatrixOp>(name, count, trans);
    return h;
  }
  if (!n.consume_front("mma."))
    return std::nullopt;
  unsigned k = n.consume_front("m16n8k8.") ? 8 : n.consume_front("m16n8k16.") ? 16
               : n.consume_front("m16n8k32.") ? 32 : 0;
  if (!k || !n.consume_front("row.col."))
    return std::nullopt;
  bool satfinite = n.consume_front("satfinite.");
  llvm::SmallVector<StringRef, 4> parts;
  n.split(parts, '.');
  ElemType a, b, c, d;
  if (n == "f32.f32" || n == "f16.f16" || n == "f32.f16" || n == "f16.f32") {
    a = b = ElemType::F16;
    d = n.starts_with("f32") ? ElemType::F32 : ElemType::F16;
    c = n.ends_with("f32") ? ElemType::F32 : ElemType::F16;
    if (k == 32)
      return std::nullopt;
  } else if (n == "bf16" && k != 32) {
    a = b = ElemType::BF16;
    c = d = ElemType::F32;
  } else if (n == "tf32" && k == 8) {
    a = b = ElemType::TF32;
    c = d = ElemType::F32;
  } else if (parts.size() == 4 && k != 8) {
    // fp8 (sm_89): "<d>.<a>.<b>.<c>" with f16 or f32 accumulators, C = D.
    auto ta = parseFp8(parts[1]), tb = parseFp8(parts[2]);
    if (!ta || !tb || parts[0] != parts[3] || !(parts[0] == "f32" || parts[0] == "f16"))
      return std::nullopt;
    a = *ta, b = *tb;
    c = d = parts[0] == "f32" ? ElemType::F32 : ElemType::F16;
  } else if (k != 8) {
    auto parse = [](StringRef s) {
      return llvm::StringSwitch<std::optional<ElemType>>(s)
          .Case("s8", ElemType::S8)
          .Case("u8", ElemType::U8)
          .Default(std::nullopt);
    };
    auto [first, second] = n.split('.');
    auto ta = parse(first), tb = parse(second.empty() ? first : second);
    if (!ta || !tb)
      return std::nullopt;
    a = *ta, b = *tb;
    c = d = ElemType::S32;
  } else {
    return std::nullopt;
  }
  if (satfinite && d != ElemType::S32)
    return std::nullopt;
  IntrinsicHandler h;
  h.fn = mmaHandler;
  h.matrixOp = std::make_shared<MmaOp>(name, k, a, b, c, d, satfinite);
  return h;
}
