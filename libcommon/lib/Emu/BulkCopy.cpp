//===- BulkCopy.cpp - cp.async.bulk (the non-tensor bulk copies) ----------===//
//
// PTX ISA "cp.async.bulk": copies `size` bytes, a multiple of 16, between
// 16-byte aligned addresses; a copy into shared memory signals its mbarrier
// with complete-tx of `size` bytes (.mbarrier::complete_tx::bytes), a copy
// to global memory belongs to the bulk async-group. The optional
// .multicast::cluster mask may only name CTA 0 (clusters have one CTA
// here), the L2 cache hint changes nothing.
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
  if (direction == BulkDirection::GlobalToCluster && (h.arg<uint8_t>(args, 6) & 1)) {
    uint16_t mask = h.arg<uint16_t>(args, 4);
    if (mask != 1)
      rt.fail("cp.async.bulk .multicast::cluster with CTA mask " + hex(mask) +
              " (the emulator runs clusters of one CTA)");
  }
  checkBulkOperands(rt, dst, src, size);
  unsigned srcSpace = direction == BulkDirection::SharedToCluster || !toShared ? 3 : 1;
  unsigned dstSpace = toShared ? 3 : 1;
  rt.checkAccess(src, size, 16, srcSpace << kAccessAddrSpaceShift);
  rt.checkAccess(dst, size, 16, kAccessWrite | dstSpace << kAccessAddrSpaceShift);
  auto *to = reinterpret_cast<uint8_t *>(dst);
  const auto *from = reinterpret_cast<const uint8_t *>(src);
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
