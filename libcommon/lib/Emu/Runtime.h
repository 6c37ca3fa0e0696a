//===- Runtime.h - The emulator's scheduler, memory checks and collectives ===//
//
// One Runtime object exists per launch. It owns the fibers of the cluster
// being run, the shared memory of its CTAs, the barriers and the pending warp
// collectives, and it is what the JIT-compiled kernel calls back into (through
// the extern "C" entry points in RuntimeEntryPoints.h, via Runtime::active()).
//
// Clusters run one after the other on the calling host thread; the threads of
// all CTAs of a cluster are cooperative fibers of one scheduler that only
// switch at barriers, warp collectives, waits and exit, which is enough for
// warp-synchronous code because every collective waits for all lanes of its
// member mask, and lets the CTAs of a cluster wait for each other (PTX ISA
// "Cluster of Cooperative Thread Arrays": its CTAs run concurrently and reach
// each other's shared memory through shared::cluster addresses).
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
  /// %clusterid, %nclusterid, %cluster_ctaid, %cluster_nctaid,
  /// %cluster_ctarank, %cluster_nctarank.
  ClusterIdX, ClusterIdY, ClusterIdZ, NClusterIdX, NClusterIdY, NClusterIdZ,
  ClusterCtaidX, ClusterCtaidY, ClusterCtaidZ, ClusterNctaidX, ClusterNctaidY,
  ClusterNctaidZ, ClusterCtaRank, ClusterNctaRank,
  /// The .w components of the 4-vector registers.
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
  /// The thread's CTA: its %cluster_ctarank.
  uint32_t cta = 0;
  /// barrier.cluster.arrive was executed and its wait is still to come; the
  /// arrival counts toward the cluster barrier's phase `clusterPhase`.
  bool clusterArrived = false;
  uint64_t clusterPhase = 0;
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
  /// `grid` counts CTAs; it is a whole number of clusters of `cluster` CTAs.
  Runtime(std::string kernel, LaunchEntry entry, const uint8_t *args,
          Dim3 grid, Dim3 block, Dim3 cluster, uint32_t sharedBytes,
          std::vector<MemoryRegion> regions, llvm::raw_ostream &printfStream,
          uint64_t stackBytes = kDefaultThreadStackBytes);
  ~Runtime();

  /// What a host fault at `address` means for the running thread: its stack
  /// overflowed where `address` is in the guard page below the stack; empty
  /// otherwise. Safe to call from a signal handler that is about to exit.
  std::string describeHostFault(uintptr_t address) const;

  /// Runs every cluster; the first failure stops the launch.
  llvm::Error run();

  /// The runtime whose launch is in progress on this host thread.
  static Runtime &active();

  // --- Entry points for the JIT-compiled code ------------------------------
  [[noreturn]] void fail(const std::string &what);
  void checkAccess(uintptr_t address, uint64_t size, uint32_t align, uint32_t flags);
  bool isValidRange(uintptr_t address, uint64_t size) const;
  uint64_t specialRegister(SpecialReg reg);
  /// bar.sync / bar.arrive / bar.red: `count` 0 means every live thread.
  uint32_t barrier(uint32_t id, uint32_t count, bool wait,
                   BarrierReduction reduction, bool pred);
  /// barrier.cluster.arrive and barrier.cluster.wait (PTX ISA
  /// "barrier.cluster"): the wait returns once every non-exited thread of
  /// the cluster has arrived in the phase of the caller's arrival.
  void clusterArrive();
  void clusterWait();
  /// A warp collective over `mask`; returns this lane's exchange result.
  LaneExchange warpCollective(CollectiveKind kind, uint32_t mask,
                              const LaneExchange &mine,
                              const WarpMatrixOp *matrixOp = nullptr);
  uint32_t activeMask();
  /// Waits until the 128 threads of the caller's warpgroup (threads
  /// 128i..128i+127 of the CTA) have called this with the same `op`; the last
  /// one to arrive runs op.compute with every thread's `mine`.
  void warpgroupCollective(const WarpgroupOp &op, void *mine);
  /// The calling thread's CTA's shared memory (the window that shared
  /// addresses index).
  char *sharedWindow() const;
  /// The calling thread's CTA's tensor memory (tcgen05, Tcgen05.h).
  TensorMemory &tensorMemory();
  uint32_t sharedBytes() const { return sharedBytes_; }
  /// The CTAs of a cluster (%cluster_nctarank) and the calling thread's rank.
  uint32_t clusterSize() const { return uint32_t(ctas_.size()); }
  uint32_t ctaRank() const { return current_->cta; }
  /// The shared memory and tensor memory of CTA `rank` of the running
  /// cluster (a CTA pair's tcgen05.mma).
  char *sharedWindowOf(uint32_t rank) const { return ctas_[rank].shared; }
  TensorMemory &tensorMemoryOf(uint32_t rank) { return ctas_[rank].tensorMemory; }
  /// The shared::cluster address of byte `offset` of CTA `rank`'s shared
  /// memory (mapa, multicast); `what` names the instruction in the failure
  /// for a rank outside the cluster.
  uintptr_t clusterSharedAddress(uint32_t rank, uint64_t offset, const char *what);
  /// The CTA of the running cluster whose shared memory holds `address`, and
  /// the offset of `address` in it; fails naming `what` for other addresses.
  std::pair<uint32_t, uint64_t> locateClusterShared(uintptr_t address, const char *what);
  /// mapa: `address` moved to the same offset of CTA `rank`'s shared memory.
  uintptr_t mapShared(uintptr_t address, uint32_t rank, const char *what) {
    return clusterSharedAddress(rank, locateClusterShared(address, what).second, what);
  }
  /// The ranks a .multicast::cluster CTA mask names; fails naming `what`
  /// when it names none or a rank outside the cluster.
  llvm::SmallVector<uint32_t, 16> multicastRanks(uint16_t mask, const char *what);
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
  /// The address-space test of isspacep.*: 1 global, 3 shared::cta, 4 const,
  /// 5 local, 7 shared::cluster.
  bool isInAddressSpace(uintptr_t address, unsigned addrSpace) const;
  llvm::raw_ostream &printfStream() { return printfStream_; }
  /// "kernel 'k', CTA (x,y,z), thread (x,y,z)"
  std::string where() const;

  EmuThread *current() { return current_; }

private:
  void runCluster(uint32_t x, uint32_t y, uint32_t z);
  void checkCtaExit(uint32_t rank);
  void startThread(EmuThread &thread);
  static void fiberMain();
  void switchToScheduler();
  void block();
  void wake(EmuThread &thread);
  void onThreadExit();
  void completeBarrier(uint32_t id);
  void checkBarriersAfterExit();
  void completeClusterPhase();
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

  struct PendingWarpgroup {
    const WarpgroupOp *op = nullptr;
    uint32_t arrived = 0;
    std::array<void *, 128> threads = {};
  };
  /// One CTA of the running cluster.
  struct Cta {
    uint32_t id[3] = {0, 0, 0}; // %ctaid
    char *shared = nullptr;
    uint32_t liveThreads = 0;
    /// Named barriers 0-15.
    std::array<Barrier, 16> barriers;
    std::vector<std::list<PendingCollective>> pending; // per warp
    std::vector<PendingWarpgroup> warpgroups;
    TensorMemory tensorMemory;
  };
  struct ClusterBarrier {
    uint32_t arrived = 0;
    uint64_t phase = 0; // phases completed so far
    std::vector<EmuThread *> waiters;
  };

  Cta &cta() { return ctas_[current_->cta]; }
  const Cta &cta() const { return ctas_[current_ ? current_->cta : 0]; }
  EmuThread &thread(uint32_t rank, uint32_t linear) {
    return threads_[size_t(rank) * blockThreads_ + linear];
  }
  bool inClusterShared(uintptr_t address, uint64_t size) const;

  std::string kernel_;
  LaunchEntry entry_;
  const uint8_t *args_;
  Dim3 grid_, block_, cluster_;
  uint32_t blockThreads_ = 0;
  uint32_t sharedBytes_;
  std::vector<MemoryRegion> regions_;
  llvm::raw_ostream &printfStream_;
  uint64_t stackBytes_;

  // Two sets of shared-memory blocks (one block per CTA of a cluster) used by
  // alternate clusters, so that a pointer kept from the previous cluster is
  // recognized as another CTA's shared memory.
  std::vector<char *> sharedBlocks_;
  unsigned currentShared_ = 0;
  std::vector<Cta> ctas_; // the running cluster's, in rank order
  ClusterBarrier clusterBarrier_;

  char *stackPool_ = nullptr;
  size_t stackPoolBytes_ = 0;
  std::vector<EmuThread> threads_;
  std::deque<EmuThread *> ready_;
  EmuThread *current_ = nullptr;
  void *schedulerSp_ = nullptr;
  /// Live threads of the whole cluster.
  uint32_t liveThreads_ = 0;
  bool failed_ = false;
  std::string failure_;
  uint64_t clock_ = 0;
  uint64_t idleYields_ = 0;
  Runtime *previous_ = nullptr;
  std::vector<void *> heapBlocks_;
};

/// The most CTAs of a cluster (16 with the non-portable size opt-in).
constexpr uint32_t kMaxClusterCtas = 16;



} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_RUNTIME_H
