//===- Runtime.h - The emulator's scheduler, memory checks and collectives ===//
//
// One Runtime object exists per launch. It owns the fibers of the CTA being
// run, the CTA's shared memory, the barriers and the pending warp
// collectives, and it is what the JIT-compiled kernel calls back into (through
// the extern "C" entry points in RuntimeEntryPoints.h, via Runtime::active()).
//
// CTAs run one after the other on the calling host thread; inside a CTA the
// threads are cooperative fibers that only switch at barriers, warp
// collectives and exit, which is enough for warp-synchronous code because
// every collective waits for all lanes of its member mask.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_RUNTIME_H
#define TILEPIPE_LIB_EMU_RUNTIME_H

#include "TensorMemory.h"

#include "tilepipe/Emu/Emulator.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <deque>
#include <list>
#include <string>
#include <vector>

namespace tilepipe::emu {

enum class RegionKind : uint8_t { Global, Shared, Constant, ModuleGlobal };

/// A range of host memory kernels may touch.
struct MemoryRegion {
  uintptr_t begin = 0, end = 0;
  RegionKind kind = RegionKind::Global;
  bool readOnly = false;
  std::string name;
};

/// Flags of tp_emu_check: the access kind and the pointer's address space.
enum AccessFlags : uint32_t {
  kAccessWrite = 1,
  kAccessAddrSpaceShift = 8,
};

/// Special registers read through tp_emu_sreg.
enum class SpecialReg : uint32_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ,
  NctaidX, NctaidY, NctaidZ, LaneId, WarpId, NWarpId, WarpSize,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
  SmId, NSmId, GridId, Clock, Clock64, GlobalTimer,
  /// Clusters are emulated as one CTA each.
  Zero, One,
};

enum class CollectiveKind : uint8_t {
  WarpSync, ShflIdx, ShflUp, ShflDown, ShflBfly, VoteAll, VoteAny, VoteUni,
  VoteBallot, MatchAny, MatchAll, ReduxAdd, ReduxMin, ReduxMax, ReduxUMin,
  ReduxUMax, ReduxAnd, ReduxOr, ReduxXor, Elect,
  /// mma.sync / ldmatrix: computed by a WarpMatrixOp.
  MatrixOp,
};
const char *collectiveName(CollectiveKind kind);

/// What one lane contributes to and gets back from a warp collective.
struct LaneExchange {
  uint64_t value = 0;
  uint32_t b = 0, c = 0;
  uint64_t result = 0;
  bool pred = false;
  /// Matrix operations: the lane's fragment registers in, its results out.
  std::array<uint32_t, 12> regs = {};
  std::array<uint32_t, 4> out = {};
};

/// A warp-wide matrix instruction (mma.sync, ldmatrix) computed once every
/// lane has contributed its fragment registers.
class WarpMatrixOp {
public:
  virtual ~WarpMatrixOp() = default;
  virtual const char *name() const = 0;
  virtual void compute(std::array<LaneExchange, 32> &lanes) const = 0;
};

/// A warpgroup-wide instruction (wgmma.mma_async): computed once all 128
/// threads of a warpgroup have arrived, on each thread's operand block in
/// place (a waiting thread's stack, where its block lives, stays valid).
class WarpgroupOp {
public:
  virtual ~WarpgroupOp() = default;
  virtual const char *name() const = 0;
  virtual void compute(const std::array<void *, 128> &threads) const = 0;
};

/// Computes the results of a completed collective for the lanes in `mask`;
/// exposed for unit tests.
void computeCollective(CollectiveKind kind, uint32_t mask,
                       std::array<LaneExchange, 32> &lanes,
                       const WarpMatrixOp *matrixOp = nullptr);

enum class BarrierReduction : uint8_t { None, Popc, And, Or };

/// A cp.async whose source was read at issue and whose destination is
/// written when a wait covers its group (AsyncCopy.cpp).
struct PendingAsyncCopy {
  uintptr_t dst;
  std::vector<uint8_t> data;
  uint32_t group;
};

struct EmuThread {
  uint32_t tid[3] = {0, 0, 0};
  uint32_t linear = 0, lane = 0, warp = 0;
  void *sp = nullptr;
  char *stackLo = nullptr, *stackHi = nullptr;
  enum State : uint8_t { Ready, Blocked, Exited } state = Ready;
  /// Where a collective or barrier reduction leaves this thread's result.
  uint64_t result = 0;
  LaneExchange exchange;
  /// cp.async copies not complete yet, and the groups committed so far.
  std::vector<PendingAsyncCopy> asyncCopies;
  uint32_t asyncGroups = 0;
};

/// Writes the destinations of `thread`'s copies in groups before
/// `firstPendingGroup` (UINT32_MAX: every copy, committed or not).
void completeAsyncCopies(EmuThread &thread, uint32_t firstPendingGroup);

using LaunchEntry = void (*)(const uint8_t *args);

class Runtime {
public:
  Runtime(std::string kernel, LaunchEntry entry, const uint8_t *args,
          Dim3 grid, Dim3 block, uint32_t sharedBytes,
          std::vector<MemoryRegion> regions, llvm::raw_ostream &printfStream);
  ~Runtime();

  /// Runs every CTA; the first failure stops the launch.
  llvm::Error run();

  /// The runtime whose launch is in progress on this host thread.
  static Runtime &active();

  // --- Entry points for the JIT-compiled code ------------------------------
  [[noreturn]] void fail(const std::string &what);
  void checkAccess(uintptr_t address, uint64_t size, uint32_t align, uint32_t flags);
  bool isValidRange(uintptr_t address, uint64_t size) const;
  uint64_t specialRegister(SpecialReg reg);
  /// bar.sync / bar.arrive / bar.red: `count` 0 means every live thread.
  /// Id kClusterBarrier is barrier.cluster.wait.
  uint32_t barrier(uint32_t id, uint32_t count, bool wait,
                   BarrierReduction reduction, bool pred);
  /// A warp collective over `mask`; returns this lane's exchange result.
  LaneExchange warpCollective(CollectiveKind kind, uint32_t mask,
                              const LaneExchange &mine,
                              const WarpMatrixOp *matrixOp = nullptr);
  uint32_t activeMask();
  /// Waits until the 128 threads of the caller's warpgroup (threads
  /// 128i..128i+127 of the CTA) have called this with the same `op`; the last
  /// one to arrive runs op.compute with every thread's `mine`.
  void warpgroupCollective(const WarpgroupOp &op, void *mine);
  /// The CTA's shared memory (the window that shared addresses index).
  char *sharedWindow() const;
  /// The running CTA's tensor memory (tcgen05, Tcgen05.h).
  TensorMemory &tensorMemory() { return tensorMemory_; }
  uint32_t sharedBytes() const { return sharedBytes_; }
  /// Ends the calling thread now (PTX exit).
  [[noreturn]] void exitCurrentThread();
  /// Lets the other threads of the CTA run (nanosleep, mbarrier.try_wait,
  /// a blocked tcgen05.alloc: `waitingIn` names it). Endless yielding while
  /// no thread makes progress is reported as a deadlock.
  void yield(const char *waitingIn = "mbarrier.try_wait, nanosleep");
  /// Device-side malloc/free: heap blocks are buffers until freed (and are
  /// released when the launch ends).
  void *deviceMalloc(uint64_t bytes);
  void deviceFree(void *pointer);
  /// Something other threads may wait for happened (an mbarrier arrival).
  void noteProgress() { idleYields_ = 0; }
  /// The address-space test of isspacep.*: 1 global, 3 shared, 4 const, 5 local.
  bool isInAddressSpace(uintptr_t address, unsigned addrSpace) const;
  llvm::raw_ostream &printfStream() { return printfStream_; }
  /// "kernel 'k', CTA (x,y,z), thread (x,y,z)"
  std::string where() const;

  EmuThread *current() { return current_; }

private:
  void runCta(uint32_t x, uint32_t y, uint32_t z);
  void startThread(EmuThread &thread);
  static void fiberMain();
  void switchToScheduler();
  void block();
  void wake(EmuThread &thread);
  void onThreadExit();
  void completeBarrier(uint32_t id);
  void checkBarriersAfterExit();
  std::string describeDeadlock() const;
  std::string describeAddress(uintptr_t address, uint64_t size) const;
  const MemoryRegion *findRegion(uintptr_t address, uint64_t size) const;

  struct Barrier {
    uint32_t arrived = 0;
    uint32_t expected = 0; // 0: every live thread
    BarrierReduction reduction = BarrierReduction::None;
    uint32_t accumulator = 0;
    std::vector<EmuThread *> waiters;
  };
  struct PendingCollective {
    CollectiveKind kind;
    const WarpMatrixOp *matrixOp = nullptr;
    uint32_t mask = 0, arrived = 0;
    std::array<LaneExchange, 32> lanes;
  };

  std::string kernel_;
  LaunchEntry entry_;
  const uint8_t *args_;
  Dim3 grid_, block_;
  uint32_t ctaId_[3] = {0, 0, 0};
  uint32_t sharedBytes_;
  std::vector<MemoryRegion> regions_;
  llvm::raw_ostream &printfStream_;

  // Two shared-memory blocks used by alternate CTAs, so that a pointer kept
  // from the previous CTA is recognized as another CTA's shared memory.
  std::array<char *, 2> sharedBlocks_ = {nullptr, nullptr};
  unsigned currentShared_ = 0;

  char *stackPool_ = nullptr;
  size_t stackPoolBytes_ = 0;
  std::vector<EmuThread> threads_;
  std::deque<EmuThread *> ready_;
  EmuThread *current_ = nullptr;
  void *schedulerSp_ = nullptr;
  uint32_t liveThreads_ = 0;
  /// Named barriers 0-15, then the cluster barrier (a cluster is one CTA).
  std::array<Barrier, 17> barriers_;
  std::vector<std::list<PendingCollective>> pending_;
  struct PendingWarpgroup {
    const WarpgroupOp *op = nullptr;
    uint32_t arrived = 0;
    std::array<void *, 128> threads = {};
  };
  std::vector<PendingWarpgroup> warpgroups_;
  TensorMemory tensorMemory_;
  bool failed_ = false;
  std::string failure_;
  uint64_t clock_ = 0;
  uint64_t idleYields_ = 0;
  Runtime *previous_ = nullptr;
  std::vector<void *> heapBlocks_;
};

/// The barrier id barrier.cluster.wait uses.
constexpr uint32_t kClusterBarrier = 16;

/// The stack each emulated thread gets. Kernels JIT-compiled without
/// optimization keep every tile register in their frame: a 256x256 f32
/// accumulator over 128 threads alone is 2 KiB per thread and every value
/// derived from it another copy, so frames of large-tile kernels (block-scaled
/// matmul) exceed 256 KiB. Reserved lazily (MAP_NORESERVE): only the pages a
/// thread touches cost memory.
constexpr size_t kFiberStackBytes = 4 * 1024 * 1024;

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_RUNTIME_H
