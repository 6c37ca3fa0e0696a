//===- MatrixOps.cpp - mma.sync and ldmatrix as warp collectives ----------===//
//
// Both instructions need every lane of the warp: each lane contributes its
// fragment registers (or a row address) and receives its share of the
// result. The fragment layouts are the PTX ISA's ("Matrix Fragments for
// mma.m16n8k*"): with groupID = lane / 4 and tig = lane % 4, element i of a
// lane's A, B and C fragments sits at the (row, column) computed below.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"
#include "Runtime.h"

#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <string>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

enum class ElemType : uint8_t { F16, BF16, TF32, F32, S8, U8, S32 };

unsigned elemBits(ElemType type) {
  switch (type) {
  case ElemType::F16:
  case ElemType::BF16:
    return 16;
  case ElemType::S8:
  case ElemType::U8:
    return 8;
  default:
    return 32;
  }
}

/// Reads element `i` (of `bits` bits) from a lane's packed registers.
uint32_t extract(const uint32_t *regs, unsigned i, unsigned bits) {
  unsigned perReg = 32 / bits;
  uint32_t reg = regs[i / perReg];
  if (bits == 32)
    return reg;
  return (reg >> ((i % perReg) * bits)) & ((1u << bits) - 1);
}

void insert(uint32_t *regs, unsigned i, unsigned bits, uint32_t value) {
  unsigned perReg = 32 / bits;
  if (bits == 32) {
    regs[i] = value;
    return;
  }
  unsigned shift = (i % perReg) * bits;
  uint32_t mask = ((1u << bits) - 1) << shift;
  regs[i / perReg] = (regs[i / perReg] & ~mask) | ((value << shift) & mask);
}

double decode(ElemType type, uint32_t bits) {
  switch (type) {
  case ElemType::F16: return halfToFloat(uint16_t(bits));
  case ElemType::BF16: return bfloatToFloat(uint16_t(bits));
  case ElemType::TF32: return bitsFloat(bits & 0xffffe000u); // low 13 bits ignored
  case ElemType::F32: return bitsFloat(bits);
  case ElemType::S8: return int8_t(bits);
  case ElemType::U8: return uint8_t(bits);
  case ElemType::S32: return int32_t(bits);
  }
  return 0;
}

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
        auto [row, col] = aPosition(g, t, i);
        a[row][col] = decode(a_, extract(regs, i, aBits));
      }
      for (unsigned i = 0; i < bCount; ++i) {
        auto [row, col] = bPosition(g, t, i);
        b[row][col] = decode(b_, extract(regs + aRegs(), i, bBits));
      }
      for (unsigned i = 0; i < 4; ++i)
        c[g + 8 * (i / 2)][2 * t + i % 2] =
            decode(c_, extract(regs + aRegs() + bRegs(), i, cBits));
    }
    bool integer = d_ == ElemType::S32;
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned g = lane / 4, t = lane % 4;
      uint32_t *out = lanes[lane].out.data();
      for (unsigned i = 0; i < 4; ++i) {
        unsigned row = g + 8 * (i / 2), col = 2 * t + i % 2;
        if (integer) {
          int64_t acc = int64_t(c[row][col]);
          for (unsigned kk = 0; kk < k_; ++kk)
            acc += int64_t(a[row][kk]) * int64_t(b[kk][col]);
          if (satfinite_)
            acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
          insert(out, i, 32, uint32_t(acc));
          continue;
        }
        // The tensor cores keep full products and accumulate in at least
        // single precision; double then one rounding is within that.
        double acc = c[row][col];
        for (unsigned kk = 0; kk < k_; ++kk)
          acc += a[row][kk] * b[kk][col];
        if (d_ == ElemType::F16)
          insert(out, i, 16, floatToHalf(float(acc)));
        else
          insert(out, i, 32, floatBits(float(acc)));
      }
    }
  }

private:
  std::pair<unsigned, unsigned> aPosition(unsigned g, unsigned t, unsigned i) const {
    switch (a_) {
    case ElemType::TF32: // m16n8k8: a0..a3
      return {g + 8 * (i % 2), t + 4 * (i / 2)};
    case ElemType::S8:
    case ElemType::U8: // k16: a0..a7, k32: a0..a15
      return {g + 8 * ((i / 4) % 2), 4 * t + i % 4 + 16 * (i / 8)};
    default: // f16 / bf16, k8: a0..a3, k16: a0..a7
      return {g + 8 * ((i / 2) % 2), 2 * t + i % 2 + 8 * (i / 4)};
    }
  }
  std::pair<unsigned, unsigned> bPosition(unsigned g, unsigned t, unsigned i) const {
    switch (b_) {
    case ElemType::TF32:
      return {t + 4 * i, g};
    case ElemType::S8:
    case ElemType::U8:
      return {4 * t + i % 4 + 16 * (i / 4), g};
    default:
      return {2 * t + i % 2 + 8 * (i / 2), g};
    }
  }

  std::string name_;
  unsigned k_;
  ElemType a_, b_, c_, d_;
  bool satfinite_;
};

/// ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].b16: lanes 8j..8j+7 give
/// the row addresses of matrix j; every lane receives two 16-bit elements of
/// each matrix.
class LdmatrixOp : public WarpMatrixOp {
public:
  LdmatrixOp(std::string name, unsigned count, bool trans)
      : name_(std::move(name)), count_(count), trans_(trans) {}
  const char *name() const override { return name_.c_str(); }
  unsigned count() const { return count_; }

  void compute(std::array<LaneExchange, 32> &lanes) const override {
    auto element = [&](unsigned matrix, unsigned row, unsigned col) -> uint32_t {
      uint16_t value;
      std::memcpy(&value, reinterpret_cast<const char *>(lanes[matrix * 8 + row].value) + 2 * col, 2);
      return value;
    };
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned g = lane / 4, t = lane % 4;
      for (unsigned j = 0; j < count_; ++j) {
        uint32_t lo = trans_ ? element(j, 2 * t, g) : element(j, g, 2 * t);
        uint32_t hi = trans_ ? element(j, 2 * t + 1, g) : element(j, g, 2 * t + 1);
        lanes[lane].out[j] = lo | hi << 16;
      }
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

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupMatrixIntrinsic(StringRef n) {
  std::string name = n.str();
  if (n.consume_front("ldmatrix.sync.aligned.m8n8.")) {
    unsigned count = n.consume_front("x1.") ? 1 : n.consume_front("x2.") ? 2
                     : n.consume_front("x4.") ? 4 : 0;
    bool trans = n.consume_front("trans.");
    if (!count || !n.starts_with("b16"))
      return std::nullopt;
    IntrinsicHandler h;
    h.fn = ldmatrixHandler;
    h.matrixOp = std::make_shared<LdmatrixOp>(name, count, trans);
    return h;
  }
  if (!n.consume_front("mma."))
    return std::nullopt;
  unsigned k = n.consume_front("m16n8k8.") ? 8 : n.consume_front("m16n8k16.") ? 16
               : n.consume_front("m16n8k32.") ? 32 : 0;
  if (!k || !n.consume_front("row.col."))
    return std::nullopt;
  bool satfinite = n.consume_front("satfinite.");
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
