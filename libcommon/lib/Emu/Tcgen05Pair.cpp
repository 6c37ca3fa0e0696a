//===- Tcgen05Pair.cpp - tcgen05 of a CTA pair (.cta_group::2) -------------===//
//
// PTX ISA "tcgen05" .cta_group::2: the two CTAs of a cluster whose
// %cluster_ctarank differ in bit 0 (the peer CTAs) act together.
//
// - alloc / dealloc / relinquish_alloc_permit: "one warp from each of the
//   peer CTAs must collectively perform" them. Each warp works on its own
//   CTA's tensor memory here, which gives both CTAs the same columns when
//   they allocate alike (a pair whose allocations differ is not caught).
// - mma: issued by one thread of the pair. With M = 256 each CTA holds its
//   128 rows of A (at the descriptor's address in its shared memory) and of
//   D (lanes 0-127 of its tensor memory at the D address, as M = 128 of
//   cta_group::1 places them), and N / 2 columns of B: the even CTA columns
//   0 .. N/2-1, the odd CTA the rest, at the B descriptor's address in each.
//   Each CTA's D is its A times the whole B, computed here as four
//   cta_group::1 multiplies of M = 128 and N / 2. M = 128 (64 rows per CTA,
//   a different data path layout), A in tensor memory and the block-scaled
//   kinds are not emulated.
// - commit: arrives like cta_group::1's (its .multicast::cluster mask
//   reaches both CTAs of the pair).
//
//===----------------------------------------------------------------------===//
#include "Runtime.h"
#include "Tcgen05.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilepipe::emu;

uint32_t tcgen05::peerRank(const char *what) {
  Runtime &rt = Runtime::active();
  uint32_t peer = rt.ctaRank() ^ 1;
  if (peer >= rt.clusterSize())
    rt.fail(std::string(what) + " (cta_group::2) needs the peer CTA of cluster rank " +
            std::to_string(rt.ctaRank()) + ", but the cluster has " +
            std::to_string(rt.clusterSize()) + " CTA(s)");
  return peer;
}

void tcgen05::pairMma(const Tcgen05MmaOp &op) {
  Runtime &rt = Runtime::active();
  uint32_t even = peerRank("tcgen05.mma") & ~1u;
  if (op.aInTmem || op.kind == Tcgen05Kind::MXF8F6F4)
    rt.fail("tcgen05.mma.cta_group::2 with A in tensor memory or a block-scaled kind is not "
            "emulated");
  unsigned m = (op.idesc >> 24 & 0x1f) << 4, n = (op.idesc >> 17 & 0x3f) << 3;
  if (m != 256)
    rt.fail("tcgen05.mma.cta_group::2 with M = " + std::to_string(m) +
            " (the emulator runs M = 256: 128 rows in each CTA of the pair)");
  if (n < 32 || n > 256 || n % 32)
    rt.fail("tcgen05.mma.cta_group::2 with N = " + std::to_string(n) +
            " (the emulator runs N = 32..256 in steps of 32: N / 2 columns of B in each CTA)");
  // The M = 128, N / 2 instruction descriptor of one quarter.
  uint32_t quarter = (op.idesc & ~(0x1fu << 24 | 0x3fu << 17)) | (128u >> 4) << 24 |
                     (n / 2 >> 3) << 17;
  TmemAddress d = TmemAddress::decode(op.d);
  for (uint32_t rowHalf = 0; rowHalf < 2; ++rowHalf)
    for (uint32_t columnHalf = 0; columnHalf < 2; ++columnHalf) {
      Tcgen05MmaOp part = op;
      part.idesc = quarter;
      part.d = TmemAddress{d.lane, d.column + columnHalf * (n / 2)}.encode();
      uint32_t owner = even + rowHalf, holder = even + columnHalf;
      SharedWindow a{reinterpret_cast<const uint8_t *>(rt.sharedWindowOf(owner)),
                     rt.sharedBytes()};
      SharedWindow b{reinterpret_cast<const uint8_t *>(rt.sharedWindowOf(holder)),
                     rt.sharedBytes()};
      if (llvm::Error e = computeTcgen05Mma(part, rt.tensorMemoryOf(owner), a, b))
        rt.fail("tcgen05.mma.cta_group::2 (D of cluster rank " + std::to_string(owner) +
                ", B columns of rank " + std::to_string(holder) +
                "): " + llvm::toString(std::move(e)));
    }
}
