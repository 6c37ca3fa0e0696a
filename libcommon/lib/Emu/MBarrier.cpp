//===- MBarrier.cpp - mbarrier arrivals, transaction counts and waits -----===//
//
// PTX ISA "mbarrier" (Parallel Synchronization and Communication
// Instructions): a phase completes when its pending arrival count AND its
// tx-count have both reached zero ("Phase Completion of the mbarrier
// object"); the barrier then moves to the next phase with the pending count
// reset to the expected count. expect-tx raises the tx-count by the bytes a
// phase still waits for, complete-tx (issued by the asynchronous copies when
// their data has landed) lowers it. The tx-count is signed: a copy may
// complete before its bytes are expected. Its valid range is
// [-(2^20 - 1), 2^20 - 1]; leaving it is undefined behaviour on hardware
// and an error here. Zero means zero: on an H100 a phase that received more
// bytes than expected never completed (seen with a 4096-byte tensor load
// against 2048 expected bytes), as it never completes here either.
//
//===----------------------------------------------------------------------===//
#include "MBarrier.h"

#include "Runtime.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

constexpr int32_t kTxLimit = (1 << 20) - 1;
constexpr uint32_t kCountLimit = (1u << 20) - 1;

/// The emulator's encoding of the 8-byte mbarrier object: pending arrivals
/// in bits 0-19, expected arrivals in bits 20-39, the tx-count as a 21-bit
/// two's complement number in bits 40-60 and the phase parity in bit 63.
struct MBarrierState {
  uint32_t pending = 0, expected = 0;
  int32_t tx = 0;
  bool phase = false;

  static MBarrierState load(uintptr_t address) {
    uint64_t word;
    std::memcpy(&word, reinterpret_cast<const void *>(address), 8);
    int32_t tx = int32_t((word >> 40) & 0x1fffff);
    if (tx & 0x100000)
      tx -= 0x200000; // sign-extend the 21-bit field
    return {uint32_t(word & 0xfffff), uint32_t((word >> 20) & 0xfffff), tx, bool(word >> 63)};
  }
  void store(uintptr_t address) const {
    uint64_t word = uint64_t(pending) | uint64_t(expected) << 20 |
                    (uint64_t(uint32_t(tx)) & 0x1fffff) << 40 | uint64_t(phase) << 63;
    std::memcpy(reinterpret_cast<void *>(address), &word, 8);
  }
  /// The state token arrive returns: the phase it arrived in and the
  /// arrivals still pending after it.
  uint64_t token() const { return uint64_t(phase) << 63 | pending; }
  void addTx(Runtime &rt, int64_t delta) {
    int64_t updated = int64_t(tx) + delta;
    if (updated > kTxLimit || updated < -kTxLimit)
      rt.fail("mbarrier tx-count " + std::to_string(updated) +
              " out of range [-(2^20-1), 2^20-1] (expect_tx/complete_tx of " +
              std::to_string(delta < 0 ? -delta : delta) + " bytes)");
    tx = int32_t(updated);
  }
  void completePhaseIfDone() {
    if (pending == 0 && tx == 0) {
      phase = !phase;
      pending = expected;
    }
  }
};

enum class MBarrierOp : uint32_t { Init, Inval, Arrive, ExpectTx, CompleteTx, TestWait, TryWait,
                                   PendingCount };
enum MBarrierFlags : uint32_t {
  kMBarParity = 1,   // the wait names a phase parity, not a state token
  kMBarDrop = 2,     // arrive.drop: also leave the expected count
  kMBarExpectTx = 4, // arrive.expect_tx: expect-tx before the arrive-on
  kMBarCount = 8,    // the sm_90 arrive forms take an arrival count
  kMBarCluster = 16, // .space.cluster: the mbarrier may be a peer CTA's
};

void initOrInval(Runtime &rt, const IntrinsicHandler &h, const uint8_t *args, uintptr_t address) {
  MBarrierState fresh;
  if (MBarrierOp(h.op) == MBarrierOp::Init) {
    uint32_t count = h.arg<uint32_t>(args, 1);
    if (count == 0 || count > kCountLimit)
      rt.fail("mbarrier.init with count " + std::to_string(count) + " (valid: 1 to 2^20-1)");
    fresh.pending = fresh.expected = count;
  }
  fresh.store(address);
}

/// The arrive-on operation of `count` arrivals; returns the state token.
uint64_t arriveOn(Runtime &rt, MBarrierState &state, uint32_t count, bool drop) {
  if (count == 0 || count > state.pending)
    rt.fail("mbarrier.arrive with count " + std::to_string(count) + " but " +
            std::to_string(state.pending) + " arrivals pending");
  if (drop)
    state.expected -= count;
  state.pending -= count;
  uint64_t token = state.token();
  state.completePhaseIfDone();
  rt.noteProgress();
  return token;
}

void arrive(Runtime &rt, const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret,
            MBarrierState &state) {
  if (state.expected == 0)
    rt.fail("mbarrier.arrive on an uninitialized mbarrier");
  uint32_t count = 1;
  if (h.aux & kMBarExpectTx)
    state.addTx(rt, h.arg<uint32_t>(args, 1));
  else if (h.aux & kMBarCount)
    count = h.arg<uint32_t>(args, 1);
  uint64_t token = arriveOn(rt, state, count, h.aux & kMBarDrop);
  if (!h.retOffsets.empty())
    h.result(ret, token);
}

bool waitDone(Runtime &rt, const IntrinsicHandler &h, const uint8_t *args, uintptr_t address) {
  // The phase a token or parity names is complete once the barrier has
  // moved past it.
  uint64_t waited = h.arg<uint64_t>(args, 1);
  bool waitedPhase = (h.aux & kMBarParity) ? (uint32_t(waited) & 1) : bool(waited >> 63);
  if (MBarrierState::load(address).phase != waitedPhase)
    return true;
  if (MBarrierOp(h.op) == MBarrierOp::TestWait)
    return false;
  rt.yield(); // try_wait suspends for a while: let the arriving threads run
  return MBarrierState::load(address).phase != waitedPhase;
}

void mbarrierHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  Runtime &rt = Runtime::active();
  auto op = MBarrierOp(h.op);
  if (op == MBarrierOp::PendingCount) // operand is a state token, not an address
    return h.result(ret, uint32_t(h.arg<uint64_t>(args, 0) & 0xfffff));
  auto address = h.arg<uintptr_t>(args, 0);
  bool readOnly = op == MBarrierOp::TestWait || op == MBarrierOp::TryWait;
  unsigned space = (h.aux & kMBarCluster) ? 7 : 3;
  rt.checkAccess(address, 8, 8, (readOnly ? 0u : uint32_t(kAccessWrite)) | space << kAccessAddrSpaceShift);
  if (readOnly)
    return h.result(ret, uint8_t(waitDone(rt, h, args, address)));
  if (op == MBarrierOp::Init || op == MBarrierOp::Inval)
    return initOrInval(rt, h, args, address);
  MBarrierState state = MBarrierState::load(address);
  if (op == MBarrierOp::Arrive)
    arrive(rt, h, args, ret, state);
  else if (op == MBarrierOp::ExpectTx)
    state.addTx(rt, h.arg<uint32_t>(args, 1));
  else
    return completeMBarrierTx(address, h.arg<uint32_t>(args, 1));
  state.store(address);
}

} // namespace

void tilepipe::emu::completeMBarrierTx(uintptr_t address, uint32_t bytes) {
  Runtime &rt = Runtime::active();
  rt.checkAccess(address, 8, 8, kAccessWrite | 7u << kAccessAddrSpaceShift);
  MBarrierState state = MBarrierState::load(address);
  if (state.expected == 0)
    rt.fail("complete_tx of " + std::to_string(bytes) + " bytes on an uninitialized mbarrier");
  state.addTx(rt, -int64_t(bytes));
  state.completePhaseIfDone();
  state.store(address);
  rt.noteProgress();
}

void tilepipe::emu::arriveOnMBarrier(uintptr_t address) {
  Runtime &rt = Runtime::active();
  rt.checkAccess(address, 8, 8, kAccessWrite | 7u << kAccessAddrSpaceShift);
  MBarrierState state = MBarrierState::load(address);
  if (state.expected == 0)
    rt.fail("tcgen05.commit to an uninitialized mbarrier");
  arriveOn(rt, state, 1, false);
  state.store(address);
}

std::optional<IntrinsicHandler> tilepipe::emu::lookupMBarrierIntrinsic(StringRef n) {
  if (!n.consume_front("mbarrier."))
    return std::nullopt;
  // Classic (sm_80) forms end in ".shared" or nothing; the sm_90 forms name
  // the scope and the space; a shared::cluster mbarrier may be in another
  // CTA of the cluster (arrive and expect-tx on a peer's mbarrier).
  bool scoped = false;
  uint32_t flags = 0;
  for (StringRef suffix : {".scope.cta.space.cta", ".scope.cta.space.cluster",
                           ".scope.cluster.space.cta", ".scope.cluster.space.cluster"})
    if (n.consume_back(suffix)) {
      scoped = true;
      if (suffix.ends_with("space.cluster"))
        flags |= kMBarCluster;
    }
  if (!scoped)
    n.consume_back(".shared");
  n.consume_back(".relaxed"); // orderings are trivially met by the sequential host
  n.consume_back(".tl");      // the time limit only bounds a suspension
  if (n.consume_back(".parity"))
    flags |= kMBarParity;
  if (n.consume_back(".expect.tx") && n.starts_with("arrive"))
    flags |= kMBarExpectTx;
  if (n == "arrive.drop") {
    flags |= kMBarDrop;
    n = "arrive";
  }
  if (n == "arrive" && scoped && !(flags & kMBarExpectTx))
    flags |= kMBarCount;
  auto op = llvm::StringSwitch<std::optional<MBarrierOp>>(n)
                .Case("init", MBarrierOp::Init)
                .Case("inval", MBarrierOp::Inval)
                .Case("arrive", MBarrierOp::Arrive)
                .Case("expect.tx", MBarrierOp::ExpectTx)
                .Case("complete.tx", MBarrierOp::CompleteTx)
                .Case("test.wait", MBarrierOp::TestWait)
                .Case("try.wait", MBarrierOp::TryWait)
                .Case("pending.count", MBarrierOp::PendingCount)
                .Default(std::nullopt);
  if (!op)
    return std::nullopt;
  IntrinsicHandler h;
  h.fn = mbarrierHandler;
  h.op = uint32_t(*op);
  h.aux = flags;
  return h;
}
