//===- BlockScaledMma.cpp - mma.sync with block scale factors (sm_120a) ---===//
//
// The NVVM intrinsics of PTX's block-scaled mma.sync (sm_120a/121a):
//   mma.block.scale.m16n8k32.row.col.mxf8f6f4[.scale.1x].f32.<a>.<b>.f32.ue8m0
//   mma.block.scale.m16n8k64.row.col.mxf4[.scale.2x].f32.e2m1.e2m1.f32.ue8m0
//   mma.block.scale.m16n8k64.row.col.mxf4nvf4.scale.{2x,4x}.f32.e2m1.e2m1.f32.{ue8m0,ue4m3}
// with the operands (a0..a3, b0..b1, c0..c3, scale-a, byte-id-a, thread-id-a,
// scale-b, byte-id-b, thread-id-b). D = (A * SA) x (B * SB) + C, where row m
// of A and column n of B carry one scale per K block of K / scale_vec
// elements (32, 32 and 16).
//
// Fragments (PTX ISA, "Matrix Fragments for mma.m16n8k32 / m16n8k64 with
// block scaling"): mxf8f6f4 holds every element in a byte as the fp8 kinds
// do, an fp6 value in bits 5:0 and an fp4 value in bits 5:2 (so that e2m1
// reads as an e2m3 with two zero fraction bits); mxf4 / mxf4nvf4 pack eight
// e2m1 to a register, k stepping as for the 4-bit integer mma.
//
// Scale factors: each lane passes a 32-bit register; the selectors pick the
// lanes and bytes that count. For A, row m comes from lane 4 * (m % 8) +
// 2 * thread-id-a + m / 8 (thread-id-a in 0..1); for B, column n from lane
// 4 * n + thread-id-b (0..3). Block j of K is byte byte-id + j of that
// register, so byte-id is 0..3 with one scale, 0 or 2 with two, 0 with four.
//
//===----------------------------------------------------------------------===//
#include "FloatBits.h"
#include "Intrinsics.h"
#include "MatrixFragments.h"
#include "Runtime.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <string>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

/// An element format of the A/B operands.
enum class ScaledElem : uint8_t { E4m3, E5m2, E3m2, E2m3, E2m1 };

std::optional<ScaledElem> parseScaledElem(StringRef s) {
  return llvm::StringSwitch<std::optional<ScaledElem>>(s)
      .Case("e4m3", ScaledElem::E4m3)
      .Case("e5m2", ScaledElem::E5m2)
      .Case("e3m2", ScaledElem::E3m2)
      .Case("e2m3", ScaledElem::E2m3)
      .Case("e2m1", ScaledElem::E2m1)
      .Default(std::nullopt);
}

/// The value of an element's bits; `packed` e2m1 is a bare nibble, otherwise
/// the element sits in a byte container (fp6 in bits 5:0, fp4 in bits 5:2).
double decodeScaledElem(ScaledElem format, uint32_t bits, bool packed) {
  switch (format) {
  case ScaledElem::E4m3: return e4m3ToDouble(uint8_t(bits));
  case ScaledElem::E5m2: return e5m2ToFloat(uint8_t(bits));
  case ScaledElem::E3m2: return narrowToDouble(NarrowFloat::E3m2, uint8_t(bits & 0x3f));
  case ScaledElem::E2m3: return narrowToDouble(NarrowFloat::E2m3, uint8_t(bits & 0x3f));
  case ScaledElem::E2m1:
    return narrowToDouble(NarrowFloat::E2m1, uint8_t(packed ? bits & 0xf : (bits >> 2) & 0xf));
  }
  return 0;
}

/// The (byte-id, thread-id) selectors of A and B; immediates in PTX, so one
/// warp-wide value (lane 0's) is used.
struct ScaleSelectors {
  unsigned byteA, threadA, byteB, threadB;

  uint64_t pack() const { return byteA | threadA << 8 | byteB << 16 | uint64_t(threadB) << 24; }
  static ScaleSelectors unpack(uint64_t v) {
    return {unsigned(v & 0xff), unsigned(v >> 8 & 0xff), unsigned(v >> 16 & 0xff),
            unsigned(v >> 24 & 0xff)};
  }
};

/// Register slots of the lane exchange: A, B, C fragments, then the scales.
constexpr unsigned kARegs = 4, kBRegs = 2, kCRegs = 4;
constexpr unsigned kScaleASlot = kARegs + kBRegs + kCRegs, kScaleBSlot = kScaleASlot + 1;

class BlockScaledMmaOp : public WarpMatrixOp {
public:
  BlockScaledMmaOp(std::string name, unsigned k, ScaledElem a, ScaledElem b, unsigned scaleVec,
                   bool ue4m3Scales)
      : name_(std::move(name)), k_(k), a_(a), b_(b), scaleVec_(scaleVec),
        ue4m3Scales_(ue4m3Scales) {}

  const char *name() const override { return name_.c_str(); }

  /// The reason `s` is not a valid selector set for this shape, or empty.
  std::string checkSelectors(const ScaleSelectors &s) const {
    unsigned lastByte = 4 - scaleVec_;
    if (s.threadA > 1 || s.threadB > 3)
      return llvm::formatv("{0}: thread-id-a must be 0..1 and thread-id-b 0..3, not {1} and {2}",
                           name_, s.threadA, s.threadB);
    if (s.byteA > lastByte || s.byteB > lastByte || s.byteA % scaleVec_ || s.byteB % scaleVec_)
      return llvm::formatv("{0}: byte-id {1} / {2} does not select {3} scale byte(s) of a register",
                           name_, s.byteA, s.byteB, scaleVec_);
    return {};
  }

  void compute(std::array<LaneExchange, 32> &lanes) const override {
    ScaleSelectors sel = ScaleSelectors::unpack(lanes[0].value);
    if (std::string error = checkSelectors(sel); !error.empty())
      Runtime::active().fail(error);
    bool packed = k_ == 64;
    unsigned bits = packed ? 4 : 8, perReg = 32 / bits;
    double a[16][64] = {}, b[64][8] = {}, c[16][8] = {};
    for (unsigned lane = 0; lane < 32; ++lane) {
      const uint32_t *regs = lanes[lane].regs.data();
      unsigned g = lane / 4, t = lane % 4;
      for (unsigned i = 0; i < kARegs * perReg; ++i) {
        auto [row, col] = aPackedFragmentPosition(perReg, g, t, i);
        a[row][col] = decodeScaledElem(a_, extractElement(regs, i, bits), packed);
      }
      for (unsigned i = 0; i < kBRegs * perReg; ++i) {
        auto [row, col] = bPackedFragmentPosition(perReg, g, t, i);
        b[row][col] = decodeScaledElem(b_, extractElement(regs + kARegs, i, bits), packed);
      }
      for (unsigned i = 0; i < kCRegs; ++i) {
        auto [row, col] = accumulatorPosition(g, t, i);
        c[row][col] = bitsFloat(regs[kARegs + kBRegs + i]);
      }
    }
    // A scale serves a row of A (column of B) for one K block: decode each
    // once, not once per product.
    unsigned block = k_ / scaleVec_;
    double rowScale[16][4], colScale[8][4];
    for (unsigned kBlock = 0; kBlock < scaleVec_; ++kBlock) {
      for (unsigned row = 0; row < 16; ++row)
        rowScale[row][kBlock] = scaleA(lanes, sel, row, kBlock);
      for (unsigned col = 0; col < 8; ++col)
        colScale[col][kBlock] = scaleB(lanes, sel, col, kBlock);
    }
    for (unsigned lane = 0; lane < 32; ++lane) {
      unsigned g = lane / 4, t = lane % 4;
      for (unsigned i = 0; i < kCRegs; ++i) {
        auto [row, col] = accumulatorPosition(g, t, i);
        // Products are exact in double and the sum is rounded once; the
        // tensor cores accumulate at least in single precision.
        double acc = c[row][col];
        for (unsigned kk = 0; kk < k_; ++kk)
          acc += a[row][kk] * rowScale[row][kk / block] * b[kk][col] * colScale[col][kk / block];
        lanes[lane].out[i] = floatBits(float(acc));
      }
    }
  }

private:
  double decodeScale(uint32_t reg, unsigned byte) const {
    auto bits = uint8_t(reg >> (8 * byte));
    return ue4m3Scales_ ? ue4m3ToDouble(bits) : ue8m0ToDouble(bits);
  }
  double scaleA(const std::array<LaneExchange, 32> &lanes, const ScaleSelectors &sel,
                unsigned row, unsigned kBlock) const {
    unsigned lane = 4 * (row % 8) + 2 * sel.threadA + row / 8;
    return decodeScale(lanes[lane].regs[kScaleASlot], sel.byteA + kBlock);
  }
  double scaleB(const std::array<LaneExchange, 32> &lanes, const ScaleSelectors &sel,
                unsigned col, unsigned kBlock) const {
    return decodeScale(lanes[4 * col + sel.threadB].regs[kScaleBSlot], sel.byteB + kBlock);
  }

  std::string name_;
  unsigned k_;
  ScaledElem a_, b_;
  unsigned scaleVec_;
  bool ue4m3Scales_;
};

void blockScaledMmaHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  LaneExchange mine;
  unsigned fragmentRegs = kARegs + kBRegs + kCRegs;
  for (unsigned i = 0; i < fragmentRegs; ++i)
    mine.regs[i] = h.arg<uint32_t>(args, i);
  mine.regs[kScaleASlot] = h.arg<uint32_t>(args, fragmentRegs);
  mine.regs[kScaleBSlot] = h.arg<uint32_t>(args, fragmentRegs + 3);
  ScaleSelectors sel{h.arg<uint16_t>(args, fragmentRegs + 1), h.arg<uint16_t>(args, fragmentRegs + 2),
                     h.arg<uint16_t>(args, fragmentRegs + 4), h.arg<uint16_t>(args, fragmentRegs + 5)};
  mine.value = sel.pack();
  LaneExchange out = Runtime::active().warpCollective(CollectiveKind::MatrixOp, 0xffffffff,
                                                      mine, h.matrixOp.get());
  for (unsigned i = 0; i < h.retOffsets.size(); ++i)
    h.result(ret, out.out[i], i);
}

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupBlockScaledMma(StringRef n) {
  std::string name = n.str();
  if (!n.consume_front("mma.block.scale."))
    return std::nullopt;
  unsigned k = n.consume_front("m16n8k32.") ? 32 : n.consume_front("m16n8k64.") ? 64 : 0;
  if (!k || !n.consume_front("row.col."))
    return std::nullopt;
  StringRef kind = n.consume_front("mxf8f6f4.")   ? "mxf8f6f4"
                   : n.consume_front("mxf4nvf4.") ? "mxf4nvf4"
                   : n.consume_front("mxf4.")     ? "mxf4"
                                                  : "";
  unsigned scaleVec = n.consume_front("scale.1x.") ? 1 : n.consume_front("scale.2x.") ? 2
                      : n.consume_front("scale.4x.") ? 4 : 0;
  llvm::SmallVector<StringRef, 5> parts;
  n.split(parts, '.');
  if (parts.size() != 5 || parts[0] != "f32" || parts[3] != "f32")
    return std::nullopt;
  auto a = parseScaledElem(parts[1]), b = parseScaledElem(parts[2]);
  bool ue4m3 = parts[4] == "ue4m3";
  if (!a || !b || !(ue4m3 || parts[4] == "ue8m0"))
    return std::nullopt;
  // The combinations of the PTX ISA: mxf8f6f4 is k32 with one ue8m0 scale per
  // row; mxf4 is k64 e2m1 with two ue8m0; mxf4nvf4 two ue8m0 or four ue4m3.
  bool valid = false;
  if (kind == "mxf8f6f4")
    valid = k == 32 && scaleVec <= 1 && !ue4m3;
  else if (kind == "mxf4")
    valid = k == 64 && (scaleVec == 0 || scaleVec == 2) && !ue4m3;
  else if (kind == "mxf4nvf4")
    valid = k == 64 && ((scaleVec == 2 && !ue4m3) || (scaleVec == 4 && ue4m3));
  if (k == 64 && (*a != ScaledElem::E2m1 || *b != ScaledElem::E2m1))
    valid = false;
  if (!valid)
    return std::nullopt;
  if (scaleVec == 0)
    scaleVec = k == 32 ? 1 : 2;
  IntrinsicHandler h;
  h.fn = blockScaledMmaHandler;
  h.matrixOp = std::make_shared<BlockScaledMmaOp>(name, k, *a, *b, scaleVec, ue4m3);
  return h;
}

std::optional<std::string> tilepipe::emu::blockScaledMmaIntrinsicName(StringRef opcode) {
  // PTX writes the qualifiers .kind, .block_scale and .scale_vec after or
  // before the shape and layouts; the element and scale types close it.
  llvm::SmallVector<StringRef, 16> parts;
  opcode.split(parts, '.');
  if (parts.size() < 5 || parts[0] != "mma" || !llvm::is_contained(parts, "block_scale"))
    return std::nullopt;
  std::string shape, kind, scaleVec, types;
  bool row = false, col = false;
  for (StringRef part : llvm::ArrayRef(parts).drop_front()) {
    if (part == "sync" || part == "aligned" || part == "block_scale")
      continue;
    if (part == "row" || part == "col") {
      (part == "row" ? row : col) = true;
    } else if (part.starts_with("m16n8k")) {
      shape = part.str();
    } else if (part.consume_front("kind::")) {
      kind = part.str();
    } else if (part.consume_front("scale_vec::")) {
      scaleVec = part.lower();
    } else {
      types += "." + part.str();
    }
  }
  if (shape.empty() || kind.empty() || !row || !col)
    return std::nullopt;
  std::string name = "mma.block.scale." + shape + ".row.col." + kind;
  if (!scaleVec.empty())
    name += ".scale." + scaleVec;
  return name + types;
}
