//===- Tcgen05Mma.cpp - tcgen05.mma: descriptors, data path, arithmetic ----===//
//
// PTX ISA 9.7.16.4 "Matrix descriptors" and 9.7.16.10 "tcgen05.mma":
// D (M x N, in tensor memory) = A (M x K) * B (K x N) + D, with B (and A,
// unless it is in tensor memory) in shared memory under a 64-bit descriptor
// and the shapes, types, negations and transposes in a 32-bit instruction
// descriptor. The shared-memory operand layouts are wgmma's canonical ones
// (MatrixDescriptor::elementAddress); the products are exact and summed in
// double, then rounded once to D's type, as for wgmma.
//
// Tensor memory holds D with row i in the lane the data path layout assigns
// to it (tcgen05DataPathLane) and element j in column j; an f16 D element
// takes the low 16 bits of its 32-bit cell (which tcgen05.ld.pack::16b
// packs two at a time). An A operand in tensor memory is laid out like D,
// its K elements packed into 32-bit cells.
//
//===----------------------------------------------------------------------===//
#include "Tcgen05.h"

#include "FloatBits.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>

using namespace tilepipe::emu;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

const char *kindName(Tcgen05Kind kind) {
  switch (kind) {
  case Tcgen05Kind::F16: return "f16";
  case Tcgen05Kind::TF32: return "tf32";
  case Tcgen05Kind::F8F6F4: return "f8f6f4";
  case Tcgen05Kind::I8: return "i8";
  case Tcgen05Kind::MXF8F6F4: return "mxf8f6f4";
  }
  return "?";
}

/// The padded fp6/fp4 formats of kind::f8f6f4's atype / btype codes 3-5.
std::optional<NarrowFloat> narrowType(Tcgen05Kind kind, unsigned code) {
  if (kind != Tcgen05Kind::F8F6F4 && kind != Tcgen05Kind::MXF8F6F4)
    return std::nullopt;
  return code == 3 ? std::optional(NarrowFloat::E2m3)
         : code == 4 ? std::optional(NarrowFloat::E3m2)
         : code == 5 ? std::optional(NarrowFloat::E2m1) : std::nullopt;
}

/// atype / btype (3 bits) of `kind`; the narrow f8f6f4 types take the
/// sizes of e4m3 (one element per byte on average).
std::optional<ElemType> inputType(Tcgen05Kind kind, unsigned code) {
  if (narrowType(kind, code))
    return ElemType::E4M3;
  switch (kind) {
  case Tcgen05Kind::F16:
    return code == 0 ? std::optional(ElemType::F16)
           : code == 1 ? std::optional(ElemType::BF16) : std::nullopt;
  case Tcgen05Kind::TF32: return code == 2 ? std::optional(ElemType::TF32) : std::nullopt;
  case Tcgen05Kind::F8F6F4:
  case Tcgen05Kind::MXF8F6F4:
    return code == 0 ? std::optional(ElemType::E4M3)
           : code == 1 ? std::optional(ElemType::E5M2) : std::nullopt;
  case Tcgen05Kind::I8:
    return code == 0 ? std::optional(ElemType::U8)
           : code == 1 ? std::optional(ElemType::S8) : std::nullopt;
  }
  return std::nullopt;
}

} // namespace

llvm::Expected<Tcgen05InstrDesc> Tcgen05InstrDesc::decode(uint32_t bits, Tcgen05Kind kind) {
  auto bad = [&](const llvm::Twine &why) {
    return fail("tcgen05.mma.kind::" + llvm::Twine(kindName(kind)) +
                " instruction descriptor 0x" + llvm::utohexstr(bits) + ": " + why);
  };
  Tcgen05InstrDesc desc;
  if (bits & 0x4)
    return bad("sparse matrices (bit 2) are not supported");
  desc.blockScaled = kind == Tcgen05Kind::MXF8F6F4;
  if (desc.blockScaled) {
    if (bits & (0x3 | 1u << 3 | 1u << 6 | 7u << 24 | 1u << 31))
      return bad("reserved bits 0-1, 3, 6, 24-26 and 31 must be 0");
    if (!(bits >> 23 & 1))
      return bad("the scale type (bit 23) must be ue8m0 (1)");
    desc.scaleIdB = bits >> 4 & 3;
    desc.scaleIdA = bits >> 29 & 3;
  } else {
    if (bits & 0x3)
      return bad("a sparsity selector (bits 0-1) without sparsity");
    if (bits >> 30)
      return bad("the maximum shift (bits 30-31) is for tcgen05.mma.ws only");
    if (bits & (1u << 6 | 1u << 23 | 1u << 29))
      return bad("reserved bits 6, 23 and 29 must be 0");
    desc.saturate = bits >> 3 & 1;
  }
  unsigned dtype = desc.blockScaled ? 1 : bits >> 4 & 3;
  std::optional<ElemType> a = inputType(kind, bits >> 7 & 7), b = inputType(kind, bits >> 10 & 7);
  if (!a || !b)
    return bad("atype " + llvm::Twine(bits >> 7 & 7) + " / btype " + llvm::Twine(bits >> 10 & 7) +
               " is no input type of this kind");
  desc.a = *a, desc.b = *b;
  desc.narrowA = narrowType(kind, bits >> 7 & 7), desc.narrowB = narrowType(kind, bits >> 10 & 7);
  desc.negateA = bits >> 13 & 1, desc.negateB = bits >> 14 & 1;
  desc.transposeA = bits >> 15 & 1, desc.transposeB = bits >> 16 & 1;
  desc.n = (bits >> 17 & 0x3f) << 3;
  desc.m = desc.blockScaled ? (bits >> 27 & 3) << 7 : (bits >> 24 & 0x1f) << 4;
  switch (kind) {
  case Tcgen05Kind::F16:
    if (desc.a != desc.b)
      return bad("kind::f16 needs equal A and B types");
    if (dtype > 1 || (desc.a == ElemType::BF16 && dtype != 1))
      return bad("dtype " + llvm::Twine(dtype) + " (f16 = 0 for f16 inputs, f32 = 1)");
    desc.d = dtype == 0 ? ElemType::F16 : ElemType::F32;
    break;
  case Tcgen05Kind::TF32:
  case Tcgen05Kind::F8F6F4:
  case Tcgen05Kind::MXF8F6F4:
    if (dtype > 1 || (kind == Tcgen05Kind::TF32 && dtype != 1))
      return bad("dtype " + llvm::Twine(dtype) + " is no accumulator type of this kind");
    desc.d = dtype == 0 ? ElemType::F16 : ElemType::F32;
    break;
  case Tcgen05Kind::I8:
    if (dtype != 2)
      return bad("kind::i8 needs dtype s32 (2)");
    if (desc.negateA || desc.negateB)
      return bad("kind::i8 cannot negate its operands");
    desc.d = ElemType::S32;
    break;
  }
  if (desc.saturate && kind != Tcgen05Kind::I8)
    return bad("saturate (bit 3) applies to kind::i8 only");
  // cta_group::1, dense: M = 64 with N = 8..256 in steps of 8, M = 128 with
  // N = 16..256 in steps of 16.
  if (desc.blockScaled && desc.m != 128)
    return bad("M = " + llvm::Twine(desc.m) + " (a block-scaled cta_group::1 has M = 128)");
  if (desc.m != 64 && desc.m != 128)
    return bad("M = " + llvm::Twine(desc.m) + " (cta_group::1 has M = 64 or 128)");
  unsigned step = desc.m == 64 ? 8 : 16;
  if (desc.n < step || desc.n > 256 || desc.n % step)
    return bad("N = " + llvm::Twine(desc.n) + " with M = " + llvm::Twine(desc.m) +
               " (N is a multiple of " + llvm::Twine(step) + " up to 256)");
  return desc;
}

llvm::Expected<MatrixDescriptor> tilepipe::emu::decodeTcgen05SmemDescriptor(uint64_t bits) {
  auto bad = [&](const llvm::Twine &why) {
    return fail("tcgen05 shared memory descriptor 0x" + llvm::utohexstr(bits) + ": " + why);
  };
  if ((bits >> 46 & 7) != 1)
    return bad("bits 46-48 must hold the fixed value 0b001");
  if (bits >> 52 & 1)
    return bad("the absolute leading dimension address mode (bit 52) is sm_103a only");
  MatrixDescriptor desc;
  desc.start = uint32_t(bits & 0x3fff) << 4;
  desc.leadingOffset = uint32_t(bits >> 16 & 0x3fff) << 4;
  desc.strideOffset = uint32_t(bits >> 32 & 0x3fff) << 4;
  desc.baseOffset = uint32_t(bits >> 49 & 7);
  switch (bits >> 61) {
  case 0: desc.swizzle = SwizzleMode::None; break;
  case 2: desc.swizzle = SwizzleMode::Bytes128; break;
  case 4: desc.swizzle = SwizzleMode::Bytes64; break;
  case 6: desc.swizzle = SwizzleMode::Bytes32; break;
  case 1: return bad("the 128-byte swizzle with 32-byte atoms (mode 1) is not emulated");
  default: return bad("swizzle mode " + llvm::Twine(bits >> 61) + " is invalid");
  }
  if (desc.baseOffset != 0)
    return bad("a non-zero matrix base offset is not supported");
  return desc;
}

unsigned tilepipe::emu::tcgen05DataPathLane(unsigned m, unsigned row) {
  return m == 64 ? 32 * (row / 16) + row % 16 : row;
}

llvm::Expected<uint8_t> tilepipe::emu::tcgen05ScaleFactor(TensorMemory &tmem, uint32_t address,
                                                          unsigned row, unsigned scaleId) {
  TmemAddress base = TmemAddress::decode(address);
  unsigned column = base.column + row / 32;
  uint8_t scale = 0;
  for (unsigned partition = 0; partition < kTmemLanes / 32; ++partition) {
    uint8_t byte = uint8_t(tmem.cell(partition * 32 + row % 32, column) >> 8 * scaleId);
    if (partition && byte != scale)
      return fail("tcgen05.mma block scale factor " + llvm::Twine(row) + " at 0x" +
                  llvm::utohexstr(address) + " (byte " + llvm::Twine(scaleId) + " of lane " +
                  llvm::Twine(row % 32) + ", column " + llvm::Twine(column) +
                  ") differs between the 32-lane partitions (0x" + llvm::utohexstr(scale) +
                  " in lanes 0-31, 0x" + llvm::utohexstr(byte) + " in lanes " +
                  llvm::Twine(partition * 32) + "-" + llvm::Twine(partition * 32 + 31) +
                  "); the ISA needs it duplicated to all four");
    scale = byte;
  }
  return scale;
}

namespace {

/// The lanes a D (or tensor-memory A) of M rows spans from its base lane.
unsigned dataPathLanes(unsigned m) { return tcgen05DataPathLane(m, m - 1) + 1; }

/// A (M x K) from tensor memory: K elements packed into 32-bit cells.
llvm::Error loadTmemOperand(TensorMemory &tmem, uint32_t address, const Tcgen05InstrDesc &desc,
                            std::vector<double> &out) {
  unsigned bits = elemBits(desc.a), k = desc.k(), columns = k * bits / 32;
  TmemAddress base = TmemAddress::decode(address);
  if (std::string why = tmem.checkAllocated(base, dataPathLanes(desc.m), columns); !why.empty())
    return fail("tcgen05.mma A in tensor memory at 0x" + llvm::utohexstr(address) + ": " + why);
  out.assign(size_t(desc.m) * k, 0.0);
  for (unsigned row = 0; row < desc.m; ++row)
    for (unsigned kk = 0; kk < k; ++kk) {
      uint32_t cell = tmem.cell(base.lane + tcgen05DataPathLane(desc.m, row),
                                base.column + kk * bits / 32);
      out[size_t(row) * k + kk] = decodeElement(desc.a, extractElement(&cell, kk % (32 / bits), bits));
    }
  return llvm::Error::success();
}

/// Re-reads the elements of an operand loaded as bytes in a padded fp6/fp4
/// format: the element whose byte view sits at offset i of its 16-byte
/// chunk is the i-th packed 6- or 4-bit code of the chunk.
void decodeNarrow(const MatrixDescriptor &desc, bool mnMajor, NarrowFloat format, unsigned rows,
                  unsigned k, SharedWindow shared, std::vector<double> &out) {
  unsigned bits = format == NarrowFloat::E2m1 ? 4 : 6;
  for (unsigned row = 0; row < rows; ++row)
    for (unsigned kk = 0; kk < k; ++kk) {
      uint32_t address = desc.elementAddress(mnMajor, 1, row, kk);
      unsigned first = (address & 15) * bits; // bit offset in the chunk
      const uint8_t *chunk = shared.base + (address & ~15u);
      unsigned code = 0;
      for (unsigned b = 0; b < bits; ++b)
        code |= unsigned(chunk[(first + b) / 8] >> (first + b) % 8 & 1) << b;
      out[size_t(row) * k + kk] = narrowToDouble(format, uint8_t(code));
    }
}

llvm::Error loadDescriptorOperand(uint64_t bits, bool mnMajor, ElemType type,
                                  std::optional<NarrowFloat> narrow, unsigned rows, unsigned k,
                                  SharedWindow shared, std::vector<double> &out,
                                  const char *which) {
  llvm::Expected<MatrixDescriptor> desc = decodeTcgen05SmemDescriptor(bits);
  if (!desc)
    return desc.takeError();
  if (llvm::Error e = loadSharedOperand(*desc, mnMajor, narrow ? ElemType::U8 : type, rows, k,
                                        shared, out, llvm::Twine("tcgen05.mma ") + which))
    return e;
  if (narrow)
    decodeNarrow(*desc, mnMajor, *narrow, rows, k, shared, out);
  return llvm::Error::success();
}

/// Multiplies each row of A (m x k) and of B (n x k) by its e8m0 scale
/// factor (2^(e - 127); 0xff is NaN), read from scale_A / scale_B.
llvm::Error applyBlockScales(const Tcgen05MmaOp &op, const Tcgen05InstrDesc &desc,
                             TensorMemory &tmem, std::vector<double> &aValues,
                             std::vector<double> &bValues) {
  auto scale = [&](uint32_t address, unsigned rows, unsigned scaleId, std::vector<double> &values,
                   const char *which) -> llvm::Error {
    TmemAddress base = TmemAddress::decode(address);
    if (base.lane != 0)
      return fail(llvm::Twine("tcgen05.mma scale_") + which + " at 0x" +
                  llvm::utohexstr(address) + ": scale factors start at lane 0");
    if (std::string why = tmem.checkAllocated(base, kTmemLanes, (rows + 31) / 32); !why.empty())
      return fail(llvm::Twine("tcgen05.mma scale_") + which + " at 0x" +
                  llvm::utohexstr(address) + ": " + why);
    unsigned k = desc.k();
    for (unsigned row = 0; row < rows; ++row) {
      llvm::Expected<uint8_t> e8m0 = tcgen05ScaleFactor(tmem, address, row, scaleId);
      if (!e8m0)
        return e8m0.takeError();
      double factor = *e8m0 == 0xff ? std::nan("") : std::ldexp(1.0, int(*e8m0) - 127);
      for (unsigned kk = 0; kk < k; ++kk)
        values[size_t(row) * k + kk] *= factor;
    }
    return llvm::Error::success();
  };
  if (llvm::Error e = scale(op.scaleA, desc.m, desc.scaleIdA, aValues, "A"))
    return e;
  return scale(op.scaleB, desc.n, desc.scaleIdB, bValues, "B");
}

} // namespace

llvm::Error tilepipe::emu::computeTcgen05Mma(const Tcgen05MmaOp &op, TensorMemory &tmem,
                                             SharedWindow shared,
                                             std::optional<SharedWindow> bShared) {
  llvm::Expected<Tcgen05InstrDesc> decoded = Tcgen05InstrDesc::decode(op.idesc, op.kind);
  if (!decoded)
    return decoded.takeError();
  const Tcgen05InstrDesc &desc = *decoded;
  const unsigned m = desc.m, n = desc.n, k = desc.k();
  TmemAddress dBase = TmemAddress::decode(op.d);
  if (std::string why = tmem.checkAllocated(dBase, dataPathLanes(m), n); !why.empty())
    return fail("tcgen05.mma D at tensor memory address 0x" + llvm::utohexstr(op.d) + ": " + why);
  // A as m x k, B as n x k.
  std::vector<double> aValues, bValues;
  if (op.aInTmem && desc.narrowA)
    return fail("tcgen05.mma: fp6/fp4 A in tensor memory is not emulated");
  if (llvm::Error e = op.aInTmem ? loadTmemOperand(tmem, op.aTmem, desc, aValues)
                                 : loadDescriptorOperand(op.aDesc, desc.transposeA, desc.a,
                                                         desc.narrowA, m, k, shared, aValues, "A"))
    return e;
  if (llvm::Error e = loadDescriptorOperand(op.bDesc, desc.transposeB, desc.b, desc.narrowB, n, k,
                                            bShared.value_or(shared), bValues, "B"))
    return e;

  if (desc.blockScaled)
    if (llvm::Error e = applyBlockScales(op, desc, tmem, aValues, bValues))
      return e;

  double signA = desc.negateA ? -1 : 1, signB = desc.negateB ? -1 : 1;
  double scaleD = std::ldexp(1.0, -int(op.scaleInputD));
  for (unsigned row = 0; row < m; ++row)
    for (unsigned col = 0; col < n; ++col) {
      unsigned lane = tcgen05DataPathLane(m, row);
      if (op.disabledLanes[lane / 32] >> lane % 32 & 1)
        continue;
      uint32_t &cell = tmem.cell(dBase.lane + lane, dBase.column + col);
      const double *aRow = &aValues[size_t(row) * k], *bRow = &bValues[size_t(col) * k];
      if (desc.d == ElemType::S32) {
        // Integer products are exact; the sum wraps unless saturating.
        int64_t acc = op.enableInputD ? int64_t(int32_t(cell)) : 0;
        for (unsigned kk = 0; kk < k; ++kk)
          acc += int64_t(aRow[kk]) * int64_t(bRow[kk]);
        if (desc.saturate)
          acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
        cell = uint32_t(acc);
        continue;
      }
      double acc = 0;
      if (op.enableInputD)
        acc = scaleD * (desc.d == ElemType::F16 ? halfToFloat(uint16_t(cell)) : bitsFloat(cell));
      for (unsigned kk = 0; kk < k; ++kk)
        acc += (signA * aRow[kk]) * (signB * bRow[kk]);
      cell = desc.d == ElemType::F16 ? doubleToHalf(acc) : floatBits(float(acc));
    }
  return llvm::Error::success();
}
