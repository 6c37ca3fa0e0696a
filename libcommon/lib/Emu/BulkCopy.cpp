//===- BulkCopy.cpp - cp.async.bulk (the non-tensor bulk copies) ----------===//
//
// PTX ISA "cp.async.bulk": copies `size` bytes, a multiple of 16, between
// 16-byte aligned addresses; a copy into shared memory signals its mbarrier
// with complete-tx of `size` bytes (.mbarrier::complete_tx::bytes), a copy
// to global memory belongs to the bulk async-group. With the optional
// .multicast::cluster mask the data and the complete-tx go to the same
// CTA-relative offsets of the destination and the mbarrier in each CTA the
// mask names; the L2 cache hint changes nothing.
//
//===----------------------------------------------------------------------===//
#include "BulkCopy.h"

#include "MBarrier.h"
#include "Runtime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstring>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

enum class BulkDirection : uint32_t { GlobalToCluster, GlobalToCta, SharedToCluster,
                                      SharedToGlobal, SharedToGlobalMasked };

std::string hex(uint64_t value) { return "0x" + llvm::utohexstr(value); }

void checkBulkOperands(Runtime &rt, uintptr_t dst, uintptr_t src, uint32_t size) {
  if (size % 16)
    rt.fail("cp.async.bulk of " + std::to_string(size) +
            " bytes (the size must be a multiple of 16)");
  if (dst % 16 || src % 16)
    rt.fail("cp.async.bulk from " + hex(src) + " to " + hex(dst) +
            " (both addresses must be 16-byte aligned)");
}

void bulkCopyHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *) {
  Runtime &rt = Runtime::active();
  auto direction = BulkDirection(h.op);
  bool toShared = direction == BulkDirection::GlobalToCluster ||
                  direction == BulkDirection::GlobalToCta ||
                  direction == BulkDirection::SharedToCluster;
  auto dst = h.arg<uintptr_t>(args, 0);
  unsigned srcIndex = toShared ? 2 : 1, sizeIndex = toShared ? 3 : 2;
  auto src = h.arg<uintptr_t>(args, srcIndex);
  uint32_t size = h.arg<uint32_t>(args, sizeIndex);
  checkBulkOperands(rt, dst, src, size);
  unsigned srcSpace = direction == BulkDirection::SharedToCluster || !toShared ? 3 : 1;
  rt.checkAccess(src, size, 16, srcSpace << kAccessAddrSpaceShift);
  const auto *from = reinterpret_cast<const uint8_t *>(src);
  if (direction == BulkDirection::GlobalToCluster && (h.arg<uint8_t>(args, 6) & 1)) {
    auto mbar = h.arg<uintptr_t>(args, 1);
    for (uint32_t rank : rt.multicastRanks(h.arg<uint16_t>(args, 4), "cp.async.bulk")) {
      uintptr_t to = rt.mapShared(dst, rank, "cp.async.bulk");
      rt.checkAccess(to, size, 16, kAccessWrite | 7u << kAccessAddrSpaceShift);
      std::memmove(reinterpret_cast<uint8_t *>(to), from, size);
      completeMBarrierTx(rt.mapShared(mbar, rank, "cp.async.bulk"), size);
    }
    return;
  }
  // The shared::cluster destinations may be another CTA's of the cluster.
  unsigned dstSpace = direction == BulkDirection::GlobalToCta ? 3 : toShared ? 7 : 1;
  rt.checkAccess(dst, size, 16, kAccessWrite | dstSpace << kAccessAddrSpaceShift);
  auto *to = reinterpret_cast<uint8_t *>(dst);
  if (direction == BulkDirection::SharedToGlobalMasked) {
    // .cp_mask: byte i of every 16-byte chunk is written when bit i is set.
    uint16_t byteMask = h.arg<uint16_t>(args, 5);
    for (uint32_t i = 0; i < size; ++i)
      if (byteMask >> (i % 16) & 1)
        to[i] = from[i];
  } else {
    std::memmove(to, from, size);
  }
  if (toShared)
    completeMBarrierTx(h.arg<uintptr_t>(args, 1), size);
}

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupBulkCopyIntrinsic(StringRef n) {
  if (!n.consume_front("cp.async.bulk."))
    return std::nullopt;
  auto direction = llvm::StringSwitch<std::optional<BulkDirection>>(n)
                       .Case("global.to.shared.cluster", BulkDirection::GlobalToCluster)
                       .Case("global.to.shared.cta", BulkDirection::GlobalToCta)
                       .Case("shared.cta.to.cluster", BulkDirection::SharedToCluster)
                       .Case("shared.cta.to.global", BulkDirection::SharedToGlobal)
                       .Case("shared.cta.to.global.bytemask", BulkDirection::SharedToGlobalMasked)
                       .Default(std::nullopt);
  if (!direction)
    return std::nullopt;
  IntrinsicHandler h;
  h.fn = bulkCopyHandler;
  h.op = uint32_t(*direction);
  return h;
}
