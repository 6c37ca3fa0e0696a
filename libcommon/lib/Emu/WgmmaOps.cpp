//===- WgmmaOps.cpp - wgmma.mma_async arithmetic and operand layouts -------===//
//
// PTX ISA 9.7.15.5 "Asynchronous Warpgroup Level Matrix Multiply-Accumulate":
// the register fragments of A and D are those of mma.sync per warp (warp w of
// the warpgroup holds rows 16w..16w+15, MatrixFragments.h), the shared
// memory operands follow the canonical layouts of "Shared Memory Matrix
// Layout" under the descriptor's swizzle mode.
//
//===----------------------------------------------------------------------===//
#include "Wgmma.h"

#include "FloatBits.h"

#include "llvm/ADT/StringExtras.h"

#include <cstring>
#include <vector>

using namespace tilepipe::emu;

namespace {

const char *typeName(ElemType type) {
  switch (type) {
  case ElemType::F16: return "f16";
  case ElemType::BF16: return "bf16";
  case ElemType::TF32: return "tf32";
  case ElemType::F32: return "f32";
  case ElemType::S8: return "s8";
  case ElemType::U8: return "u8";
  case ElemType::S32: return "s32";
  case ElemType::E4M3: return "e4m3";
  case ElemType::E5M2: return "e5m2";
  }
  return "?";
}

bool isIntegerType(ElemType type) { return type == ElemType::S8 || type == ElemType::U8; }
bool isFp8Type(ElemType type) { return type == ElemType::E4M3 || type == ElemType::E5M2; }

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

std::string WgmmaShape::name() const {
  return std::string("wgmma.mma_async.sync.aligned.m64n") + std::to_string(n) + "k" +
         std::to_string(k) + (satfinite ? ".satfinite." : ".") + typeName(d) + "." +
         typeName(a) + "." + typeName(b);
}

// "Matrix Shape" and "Data types": K is 32 bytes of the input type; N is a
// multiple of 8 up to 256 (of 16 beyond 32 for integer inputs).
std::string WgmmaShape::validate() const {
  bool half = a == ElemType::F16 || a == ElemType::BF16;
  if (half && (b != a || k != 16 || (a == ElemType::BF16 && d != ElemType::F32) ||
               !(d == ElemType::F32 || d == ElemType::F16)))
    return "f16/bf16 wgmma needs k16, equal A and B types and an f32 (or for f16, f16) accumulator";
  if (a == ElemType::TF32 && (b != a || k != 8 || d != ElemType::F32))
    return "tf32 wgmma needs k8, tf32 B and an f32 accumulator";
  if (isFp8Type(a) && (!isFp8Type(b) || k != 32 || !(d == ElemType::F32 || d == ElemType::F16)))
    return "e4m3/e5m2 wgmma needs k32, an e4m3/e5m2 B and an f16 or f32 accumulator";
  if (isIntegerType(a) && (!isIntegerType(b) || k != 32 || d != ElemType::S32))
    return "s8/u8 wgmma needs k32, an s8/u8 B and an s32 accumulator";
  if (!half && a != ElemType::TF32 && !isFp8Type(a) && !isIntegerType(a))
    return std::string("A type .") + typeName(a) + " is not a wgmma input type";
  if (satfinite && !isIntegerType(a))
    return ".satfinite applies to integer wgmma only";
  if (n == 0 || n > 256 || n % 8 || (isIntegerType(a) && n > 32 && n % 16))
    return "N = " + std::to_string(n) + " is not a wgmma shape";
  return "";
}

// "Matrix Descriptor Format": fields are encoded as (x & 0x3FFFF) >> 4.
MatrixDescriptor MatrixDescriptor::decode(uint64_t bits) {
  MatrixDescriptor d;
  d.start = uint32_t(bits & 0x3fff) << 4;
  d.leadingOffset = uint32_t((bits >> 16) & 0x3fff) << 4;
  d.strideOffset = uint32_t((bits >> 32) & 0x3fff) << 4;
  d.baseOffset = uint32_t((bits >> 49) & 0x7);
  static const SwizzleMode modes[] = {SwizzleMode::None, SwizzleMode::Bytes128,
                                      SwizzleMode::Bytes64, SwizzleMode::Bytes32};
  d.swizzle = modes[bits >> 62];
  return d;
}

// "Canonical Layouts", with T = 16 bytes of elements, LBO/SBO in bytes and
// a swizzle width W of 32, 64 or 128 bytes:
//   K-major, none:      ((8,m),(T,2k)):((1T,SBO),(1,LBO))
//   K-major, W:         ((8,m),(T,2k)):((W/16 T,SBO),(1,T))
//   MN-major, none:     ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
//   MN-major, W:        ((T,W/16,m),(8,k)):((1,T,LBO),(W/16 T,SBO))
// and the swizzle applied to the resulting shared address.
uint32_t MatrixDescriptor::elementAddress(bool mnMajor, unsigned elemBytes, unsigned mn,
                                          unsigned k) const {
  unsigned perChunk = 16 / elemBytes; // T
  unsigned width = swizzle == SwizzleMode::None      ? 0
                   : swizzle == SwizzleMode::Bytes32 ? 32
                   : swizzle == SwizzleMode::Bytes64 ? 64
                                                     : 128;
  uint32_t offset;
  if (!mnMajor && !width)
    offset = (mn % 8) * 16 + (mn / 8) * strideOffset + (k % perChunk) * elemBytes +
             (k / perChunk) * leadingOffset;
  else if (!mnMajor) // K (32 bytes per instruction) stays within one swizzle row
    offset = (mn % 8) * width + (mn / 8) * strideOffset + k * elemBytes;
  else if (!width)
    offset = (mn % perChunk) * elemBytes + (mn / perChunk) * strideOffset + (k % 8) * 16 +
             (k / 8) * leadingOffset;
  else {
    unsigned perRow = width / elemBytes;
    offset = (mn % perRow) * elemBytes + (mn / perRow) * leadingOffset + (k % 8) * width +
             (k / 8) * strideOffset;
  }
  return uint32_t(swizzleAddress(start + offset, swizzle));
}

llvm::Error tilepipe::emu::loadSharedOperand(const MatrixDescriptor &desc, bool mnMajor,
                                             ElemType type, unsigned rows, unsigned k,
                                             SharedWindow shared, std::vector<double> &out,
                                             const llvm::Twine &what) {
  unsigned bytes = elemBits(type) / 8;
  out.assign(size_t(rows) * k, 0.0);
  for (unsigned row = 0; row < rows; ++row)
    for (unsigned kk = 0; kk < k; ++kk) {
      uint32_t address = desc.elementAddress(mnMajor, bytes, row, kk);
      if (uint64_t(address) + bytes > shared.bytes)
        return fail(what + " operand element (" + llvm::Twine(row) + ", " + llvm::Twine(kk) +
                    ") at shared address " + llvm::Twine(address) + " lies outside the " +
                    llvm::Twine(shared.bytes) + " bytes of shared memory");
      uint32_t bits = 0;
      std::memcpy(&bits, shared.base + address, bytes);
      out[size_t(row) * k + kk] = decodeElement(type, bits);
    }
  return llvm::Error::success();
}

namespace {

/// A wgmma operand from its descriptor bits.
llvm::Error loadWgmmaOperand(uint64_t descriptorBits, bool mnMajor, ElemType type,
                             unsigned rows, unsigned k, SharedWindow shared,
                             std::vector<double> &out, const char *which) {
  MatrixDescriptor desc = MatrixDescriptor::decode(descriptorBits);
  if (desc.baseOffset != 0)
    return fail(llvm::Twine("wgmma ") + which +
                " descriptor with a non-zero matrix base offset is not supported");
  if (llvm::Error e = loadSharedOperand(desc, mnMajor, type, rows, k, shared, out,
                                       llvm::Twine("wgmma ") + which))
    return fail(llvm::toString(std::move(e)) + " (descriptor " + llvm::utohexstr(descriptorBits) +
                ")");
  return llvm::Error::success();
}

} // namespace

llvm::Error tilepipe::emu::computeWgmma(const WgmmaShape &shape, const WgmmaOperands &ops,
                                        const std::array<uint32_t *, 128> &d,
                                        const std::array<const uint32_t *, 128> &a,
                                        SharedWindow shared) {
  const unsigned m = 64, n = shape.n, k = shape.k;
  // A as m x k, B as n x k (both indexed [row][k]).
  std::vector<double> aValues, bValues;
  if (ops.aInRegisters) {
    aValues.assign(m * k, 0.0);
    unsigned bits = elemBits(shape.a);
    for (unsigned thread = 0; thread < 128; ++thread)
      for (unsigned i = 0; i < k / 2; ++i) { // 64 x K over 128 threads
        auto [row, col] = aFragmentPosition(shape.a, thread % 32 / 4, thread % 4, i);
        aValues[(16 * (thread / 32) + row) * k + col] =
            decodeElement(shape.a, extractElement(a[thread], i, bits));
      }
  } else if (llvm::Error e = loadWgmmaOperand(ops.descA, ops.transA, shape.a, m, k, shared,
                                              aValues, "A")) {
    return e;
  }
  if (llvm::Error e =
          loadWgmmaOperand(ops.descB, ops.transB, shape.b, n, k, shared, bValues, "B"))
    return e;

  unsigned dBits = elemBits(shape.d);
  bool integer = shape.d == ElemType::S32;
  for (unsigned thread = 0; thread < 128; ++thread)
    for (unsigned i = 0; i < n / 2; ++i) {
      auto [fragmentRow, col] = accumulatorPosition(thread % 32 / 4, thread % 4, i);
      unsigned row = 16 * (thread / 32) + fragmentRow;
      double c = ops.scaleD ? decodeElement(shape.d, extractElement(d[thread], i, dBits)) : 0.0;
      const double *aRow = &aValues[row * k], *bRow = &bValues[col * k];
      if (integer) {
        // Integer products are exact; the sum wraps unless .satfinite.
        int64_t acc = int64_t(c);
        for (unsigned kk = 0; kk < k; ++kk)
          acc += int64_t(aRow[kk]) * int64_t(bRow[kk]);
        if (shape.satfinite)
          acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
        insertElement(d[thread], i, 32, uint32_t(acc));
        continue;
      }
      // Exact products summed in double, then one rounding to D's type (the
      // tensor cores accumulate in at least single precision).
      double acc = c;
      for (unsigned kk = 0; kk < k; ++kk)
        acc += (ops.scaleA * aRow[kk]) * (ops.scaleB * bRow[kk]);
      if (shape.d == ElemType::F16)
        insertElement(d[thread], i, 16, doubleToHalf(acc));
      else
        insertElement(d[thread], i, 32, floatBits(float(acc)));
    }
  return llvm::Error::success();
}
