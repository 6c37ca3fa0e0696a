//===- Tcgen05Ops.cpp - The llvm.nvvm.tcgen05.* intrinsics -----------------===//
//
// LLVM 22's tcgen05 intrinsics (IntrinsicsNVVM.td, which MLIR's nvvm.tcgen05.*
// ops translate to); cta_group::2 (.cg2, cta_group 2) for alloc, dealloc,
// relinquish, mma and commit only (Tcgen05Pair.cpp):
//   alloc[.shared].cg1(dst, ncols), dealloc.cg1(taddr, ncols),
//   relinq.alloc.permit.cg1: warp-collective, performed once per warp;
//   ld.<shape>.x<N>(taddr[, i64 halfSplitoff], i1 pack) -> iN / <N x i32>,
//   st.<shape>.x<N>(taddr[, i64 halfSplitoff], values, i1 unpack): each
//     lane moves its registers once the warp has arrived;
//   mma.{shared,tensor}[.scale_d](d, a, b, idesc, enable_input_d[, scale],
//     kind, cta_group, collector_usage) and
//   mma.{shared,tensor}[.scale_d].disable_output_lane.cg1(..., <4 x i32>
//     mask, kind, collector_usage) and
//   mma.{shared,tensor}.mxf8f6f4.block_scale[.block32](d, a, b, idesc,
//     enable_input_d, scale_a, scale_b, cta_group, collector_usage) (both
//     spellings are scale_vec::1X): issued by one thread;
//   commit[.mc][.shared].cg1(mbar[, cta_mask]): arrives on the mbarrier;
//   cp.<shape>.cg1(taddr, sdesc), shift.down.cg1(taddr): issued by one thread.
// tcgen05.wait::{ld,st} and the tcgen05.fence forms are no-ops
// (isNoOpIntrinsic): ld and st complete at issue.
//
//===----------------------------------------------------------------------===//
#include "MBarrier.h"
#include "Runtime.h"
#include "Tcgen05.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstring>

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

enum class Tcgen05Op : uint32_t { Alloc, Dealloc, Relinquish, Load, Store, Mma, Commit, Copy, Shift };

/// Parameters of one handler, packed into IntrinsicHandler::aux.
struct Tcgen05Params {
  TmemShape shape = TmemShape::S32x32b;
  unsigned num = 1;           // .x1 ... .x128
  bool sharedPointer = false; // alloc / commit: the pointer is shared::cta
  bool halfSplit = false;     // ld / st 16x32bx2: the immHalfSplitoff argument
  bool aInTmem = false;       // mma.tensor
  bool scaleD = false;        // mma.scale_d
  bool disableOutputLane = false; // mma.disable_output_lane.cg1
  bool multicast = false;         // commit.mc: a CTA mask follows
  bool blockScaled = false;       // mma.*.mxf8f6f4.block_scale: scale_a, scale_b follow
  bool pair = false;              // .cg2: the CTA pair acts together
  TmemCopyShape copyShape = TmemCopyShape::S128x256b;

  uint32_t pack() const {
    return uint32_t(shape) | num << 8 | sharedPointer << 16 | halfSplit << 17 | aInTmem << 18 |
           scaleD << 19 | uint32_t(copyShape) << 20 | disableOutputLane << 23 |
           multicast << 24 | blockScaled << 25 | pair << 26;
  }
  static Tcgen05Params unpack(uint32_t bits) {
    Tcgen05Params p;
    p.shape = TmemShape(bits & 0xff);
    p.num = bits >> 8 & 0xff;
    p.sharedPointer = bits >> 16 & 1;
    p.halfSplit = bits >> 17 & 1;
    p.aInTmem = bits >> 18 & 1;
    p.scaleD = bits >> 19 & 1;
    p.copyShape = TmemCopyShape(bits >> 20 & 7);
    p.disableOutputLane = bits >> 23 & 1;
    p.multicast = bits >> 24 & 1;
    p.blockScaled = bits >> 25 & 1;
    p.pair = bits >> 26 & 1;
    return p;
  }
};

uint32_t tmemArg(const IntrinsicHandler &h, const uint8_t *args, unsigned i) {
  // A tensor memory pointer (addrspace 6) is a 32-bit address on the GPU.
  return uint32_t(h.arg<uint64_t>(args, i));
}

void tcgen05Handler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  Tcgen05Params p = Tcgen05Params::unpack(h.aux);
  if (p.pair)
    tcgen05::peerRank(h.name.c_str());
  switch (Tcgen05Op(h.op)) {
  case Tcgen05Op::Alloc:
    return tcgen05::alloc(h.arg<uintptr_t>(args, 0), h.arg<uint32_t>(args, 1), p.sharedPointer);
  case Tcgen05Op::Dealloc: return tcgen05::dealloc(tmemArg(h, args, 0), h.arg<uint32_t>(args, 1));
  case Tcgen05Op::Relinquish: return tcgen05::relinquishAllocPermit();
  case Tcgen05Op::Load:
  case Tcgen05Op::Store: {
    bool load = Tcgen05Op(h.op) == Tcgen05Op::Load;
    unsigned i = 0;
    uint32_t address = tmemArg(h, args, i++);
    unsigned halfSplit = p.halfSplit ? unsigned(h.arg<uint64_t>(args, i++)) : 0;
    unsigned regCount = tmemRegisters(p.shape, p.num);
    uint32_t regs[128];
    if (!load)
      std::memcpy(regs, args + h.argOffsets[i++], 4 * regCount);
    bool packed = h.arg<uint8_t>(args, i) & 1;
    tcgen05::loadStore(load, p.shape, p.num, packed, address, halfSplit, regs);
    if (load)
      std::memcpy(ret + h.retOffsets[0], regs, 4 * regCount);
    return;
  }
  case Tcgen05Op::Mma: {
    Tcgen05MmaOp op;
    op.d = tmemArg(h, args, 0);
    op.aInTmem = p.aInTmem;
    if (op.aInTmem)
      op.aTmem = tmemArg(h, args, 1);
    else
      op.aDesc = h.arg<uint64_t>(args, 1);
    op.bDesc = h.arg<uint64_t>(args, 2);
    op.idesc = h.arg<uint32_t>(args, 3);
    op.enableInputD = h.arg<uint8_t>(args, 4) & 1;
    unsigned i = 5;
    if (p.scaleD)
      op.scaleInputD = unsigned(h.arg<uint64_t>(args, i++));
    if (p.disableOutputLane) { // <4 x i32>, and cta_group::1 in the name
      std::memcpy(op.disabledLanes.data(), args + h.argOffsets[i++], 16);
    }
    if (p.blockScaled) { // the kind is in the name
      op.scaleA = tmemArg(h, args, i++);
      op.scaleB = tmemArg(h, args, i++);
      op.kind = Tcgen05Kind::MXF8F6F4;
      if (uint32_t ctaGroup = h.arg<uint32_t>(args, i); ctaGroup != 1)
        Runtime::active().fail("tcgen05.mma.block_scale with cta_group " +
                               std::to_string(ctaGroup) + " (the emulator runs cta_group::1)");
      return tcgen05::mma(op);
    }
    uint32_t kind = h.arg<uint32_t>(args, i);
    uint32_t ctaGroup = p.disableOutputLane ? 1 : h.arg<uint32_t>(args, i + 1);
    if (kind > 3 || ctaGroup < 1 || ctaGroup > 2)
      Runtime::active().fail("tcgen05.mma with kind " + std::to_string(kind) + " and cta_group " +
                             std::to_string(ctaGroup) +
                             " (the emulator runs cta_group::1 and 2 of kinds 0-3)");
    op.kind = Tcgen05Kind(kind);
    return ctaGroup == 2 ? tcgen05::pairMma(op) : tcgen05::mma(op);
  }
  case Tcgen05Op::Commit:
    return tcgen05::commit(h.arg<uintptr_t>(args, 0),
                           p.multicast ? std::optional<uint16_t>(h.arg<uint16_t>(args, 1))
                                       : std::nullopt);
  case Tcgen05Op::Copy:
    return tcgen05::copy(p.copyShape, tmemArg(h, args, 0), h.arg<uint64_t>(args, 1));
  case Tcgen05Op::Shift: return tcgen05::shiftDown(tmemArg(h, args, 0));
  }
}

IntrinsicHandler make(Tcgen05Op op, Tcgen05Params p = {}) {
  IntrinsicHandler h;
  h.fn = tcgen05Handler;
  h.op = uint32_t(op);
  h.aux = p.pack();
  return h;
}

/// "32x32b.x4" and friends.
std::optional<IntrinsicHandler> lookupLoadStore(Tcgen05Op op, StringRef n) {
  auto [shapeName, numName] = n.split(".x");
  auto shape = llvm::StringSwitch<std::optional<TmemShape>>(shapeName)
                   .Case("32x32b", TmemShape::S32x32b)
                   .Case("16x64b", TmemShape::S16x64b)
                   .Case("16x128b", TmemShape::S16x128b)
                   .Case("16x256b", TmemShape::S16x256b)
                   .Case("16x32bx2", TmemShape::S16x32bx2)
                   .Default(std::nullopt);
  unsigned num;
  if (!shape || numName.getAsInteger(10, num) || num == 0 || num > 128 || (num & (num - 1)) ||
      tmemRegisters(*shape, num) > 128)
    return std::nullopt;
  Tcgen05Params p;
  p.shape = *shape;
  p.num = num;
  p.halfSplit = *shape == TmemShape::S16x32bx2;
  return make(op, p);
}

} // namespace

//===----------------------------------------------------------------------===//
// The operations of the calling thread
//===----------------------------------------------------------------------===//

namespace {

uint32_t spaceFlags(bool shared, bool write) {
  return (write ? uint32_t(kAccessWrite) : 0u) | (shared ? 3u : 0u) << kAccessAddrSpaceShift;
}

/// The .sync.aligned instructions wait for every lane of the warp: a lane's
/// tcgen05.ld sees what the other lanes' tcgen05.st before it wrote.
uint32_t syncWarp(Runtime &rt) {
  uint32_t mask = rt.activeMask();
  rt.warpCollective(CollectiveKind::WarpSync, mask, LaneExchange{});
  return mask;
}

/// The allocator's instructions act once per warp, by its lowest lane.
bool performsForWarp(Runtime &rt) {
  return rt.current()->lane == unsigned(__builtin_ctz(syncWarp(rt)));
}

void checkColumnCount(Runtime &rt, const char *op, uint32_t columns) {
  if (columns < 32 || columns > kTmemColumns || (columns & (columns - 1)))
    rt.fail(std::string(op) + " of " + std::to_string(columns) +
            " columns (a power of 2 from 32 to 512)");
}

} // namespace

void tcgen05::alloc(uintptr_t dst, uint32_t columns, bool sharedPointer) {
  Runtime &rt = Runtime::active();
  checkColumnCount(rt, "tcgen05.alloc", columns);
  if (!performsForWarp(rt))
    return;
  TensorMemory &tmem = rt.tensorMemory();
  if (tmem.relinquished)
    rt.fail("tcgen05.alloc after the CTA executed tcgen05.relinquish_alloc_permit");
  std::optional<unsigned> column;
  // Blocks until enough columns are free: another warp's dealloc may free
  // them, or nothing will (a deadlock the runtime reports).
  while (!(column = tmem.allocate(columns)))
    rt.yield("tcgen05.alloc of more tensor memory columns than are free");
  rt.noteProgress();
  rt.checkAccess(dst, 4, 4, spaceFlags(sharedPointer, true));
  uint32_t address = TmemAddress{0, *column}.encode();
  std::memcpy(reinterpret_cast<void *>(dst), &address, 4);
}

void tcgen05::dealloc(uint32_t address, uint32_t columns) {
  Runtime &rt = Runtime::active();
  checkColumnCount(rt, "tcgen05.dealloc", columns);
  if (!performsForWarp(rt))
    return;
  TmemAddress at = TmemAddress::decode(address);
  std::string why = at.lane != 0 ? "the address names lane " + std::to_string(at.lane) + ", not 0"
                                 : rt.tensorMemory().deallocate(at.column, columns);
  if (!why.empty())
    rt.fail("tcgen05.dealloc of " + std::to_string(columns) + " columns at 0x" +
            llvm::utohexstr(address) + ": " + why);
  rt.noteProgress();
}

void tcgen05::relinquishAllocPermit() {
  Runtime &rt = Runtime::active();
  if (performsForWarp(rt))
    rt.tensorMemory().relinquished = true;
}

void tcgen05::loadStore(bool load, TmemShape shape, unsigned num, bool packed, uint32_t address,
                        unsigned halfSplit, uint32_t *regs) {
  Runtime &rt = Runtime::active();
  syncWarp(rt);
  EmuThread &me = *rt.current();
  if (llvm::Error e = tmemLoadStore(rt.tensorMemory(), load, shape, num, packed, address,
                                    halfSplit, me.warp, me.lane, regs))
    rt.fail(llvm::toString(std::move(e)));
}

void tcgen05::mma(const Tcgen05MmaOp &op) {
  Runtime &rt = Runtime::active();
  SharedWindow shared{reinterpret_cast<const uint8_t *>(rt.sharedWindow()), rt.sharedBytes()};
  if (llvm::Error e = computeTcgen05Mma(op, rt.tensorMemory(), shared))
    rt.fail(llvm::toString(std::move(e)));
}

void tcgen05::copy(TmemCopyShape shape, uint32_t address, uint64_t sdesc) {
  Runtime &rt = Runtime::active();
  SharedWindow shared{reinterpret_cast<const uint8_t *>(rt.sharedWindow()), rt.sharedBytes()};
  if (llvm::Error e = tmemCopyFromShared(rt.tensorMemory(), shape, address, sdesc, shared))
    rt.fail(llvm::toString(std::move(e)));
}

void tcgen05::shiftDown(uint32_t address) {
  Runtime &rt = Runtime::active();
  if (llvm::Error e = tmemShiftDown(rt.tensorMemory(), address))
    rt.fail(llvm::toString(std::move(e)));
}

void tcgen05::commit(uintptr_t mbarrier, std::optional<uint16_t> ctaMask) {
  // The committed operations (mma, cp, shift) completed at issue. With
  // .multicast::cluster each CTA of the mask sees an arrive-on at the
  // mbarrier's offset in its shared memory; without, the mbarrier (a
  // shared::cluster address) may be any CTA's.
  Runtime &rt = Runtime::active();
  if (!ctaMask)
    return arriveOnMBarrier(mbarrier);
  for (uint32_t rank : rt.multicastRanks(*ctaMask, "tcgen05.commit"))
    arriveOnMBarrier(rt.mapShared(mbarrier, rank, "tcgen05.commit"));
}

std::optional<IntrinsicHandler> tilepipe::emu::lookupTcgen05Intrinsic(StringRef n) {
  if (!n.consume_front("tcgen05."))
    return std::nullopt;
  Tcgen05Params p;
  if (n.consume_front("ld."))
    return lookupLoadStore(Tcgen05Op::Load, n);
  if (n.consume_front("st."))
    return lookupLoadStore(Tcgen05Op::Store, n);
  // Everything else here is cta_group::1 only: a cluster is one CTA.
  if (n.consume_front("mma.")) {
    if (n.consume_front("shared"))
      p.aInTmem = false;
    else if (n.consume_front("tensor"))
      p.aInTmem = true;
    else
      return std::nullopt; // .sp, .ws
    // scale_vec::1X, the only one of kind::mxf8f6f4, is spelled with or
    // without .block32; mxf4 and mxf4nvf4 are not emulated.
    if (n.consume_front(".mxf8f6f4.block_scale")) {
      n.consume_front(".block32");
      p.blockScaled = true;
      return n.empty() ? std::optional(make(Tcgen05Op::Mma, p)) : std::nullopt;
    }
    p.scaleD = n.consume_front(".scale_d");
    p.disableOutputLane = n.consume_front(".disable_output_lane.cg1");
    return n.empty() ? std::optional(make(Tcgen05Op::Mma, p)) : std::nullopt;
  }
  p.pair = n.consume_back(".cg2");
  if (!p.pair && !n.consume_back(".cg1"))
    return std::nullopt;
  if (p.pair && (n.starts_with("cp.") || n == "shift.down"))
    return std::nullopt; // a pair's cp and shift are not emulated
  if (n.consume_front("cp.")) { // the decompressing source formats are not emulated
    std::optional<TmemCopyShape> shape = parseTmemCopyShape(n);
    if (!shape)
      return std::nullopt;
    p.copyShape = *shape;
    return make(Tcgen05Op::Copy, p);
  }
  if (n == "relinq.alloc.permit")
    return make(Tcgen05Op::Relinquish, p);
  if (n == "dealloc")
    return make(Tcgen05Op::Dealloc, p);
  if (n == "shift.down")
    return make(Tcgen05Op::Shift);
  p.sharedPointer = n.consume_back(".shared");
  if (n == "alloc")
    return make(Tcgen05Op::Alloc, p);
  p.multicast = n == "commit.mc";
  if (n == "commit" || p.multicast)
    return make(Tcgen05Op::Commit, p);
  return std::nullopt;
}
