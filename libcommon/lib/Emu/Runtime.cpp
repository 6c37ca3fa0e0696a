//===- Runtime.cpp - The emulator's scheduler, memory checks, collectives -===//
#include "Runtime.h"

#include "Fiber.h"
#include "HostStack.h"
#include "RuntimeEntryPoints.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <csignal>
#include <cstdio>
#include <sys/mman.h>
#include <unistd.h>

using namespace tilepipe::emu;

/// The shared-memory block of the running CTA; kernels address their
/// __shared__ variables relative to it (see the rewrite).
char *tp_emu_shared_base = nullptr; // declared extern "C" in RuntimeEntryPoints.h

static thread_local Runtime *activeRuntime = nullptr;

/// The guard page below each thread's stack.
static constexpr size_t kStackPageBytes = 4096;

Runtime &Runtime::active() { return *activeRuntime; }

static std::string hex(uint64_t value) {
  return "0x" + llvm::utohexstr(value, /*LowerCase=*/true);
}

static std::string dim3(const uint32_t v[3]) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," +
         std::to_string(v[2]) + ")";
}

Runtime::Runtime(std::string kernel, LaunchEntry entry, const uint8_t *args,
                 Dim3 grid, Dim3 block, Dim3 cluster, uint32_t sharedBytes,
                 std::vector<MemoryRegion> regions, llvm::raw_ostream &printfStream,
                 uint64_t stackBytes)
    : kernel_(std::move(kernel)), entry_(entry), args_(args), grid_(grid),
      block_(block), cluster_(cluster), sharedBytes_(sharedBytes), regions_(std::move(regions)),
      printfStream_(printfStream), stackBytes_(llvm::alignTo(stackBytes, kStackPageBytes)) {
  std::sort(regions_.begin(), regions_.end(),
            [](const MemoryRegion &a, const MemoryRegion &b) { return a.begin < b.begin; });
}

Runtime::~Runtime() {
  for (void *block : heapBlocks_)
    std::free(block);
  if (stackPool_)
    munmap(stackPool_, stackPoolBytes_);
  for (char *block : sharedBlocks_)
    std::free(block);
}

std::string Runtime::where() const {
  std::string text = "kernel '" + kernel_ + "'";
  if (!ctas_.empty())
    text += ", CTA " + dim3(cta().id);
  if (current_)
    text += ", thread " + dim3(current_->tid);
  return text;
}

//===----------------------------------------------------------------------===//
// Launch and scheduling
//===----------------------------------------------------------------------===//

llvm::Error Runtime::run() {
  uint64_t threads = block_.count();
  if (threads == 0 || threads > 1024)
    return llvm::make_error<EmuError>("kernel '" + kernel_ + "': CTA of " +
                                      std::to_string(threads) +
                                      " threads (must be 1 to 1024)");
  if (grid_.count() == 0)
    return llvm::Error::success();
  if (grid_.y > 65535 || grid_.z > 65535)
    return llvm::make_error<EmuError>("grid y and z must be at most 65535");
  if (cluster_.count() == 0 || cluster_.count() > kMaxClusterCtas)
    return llvm::make_error<EmuError>("kernel '" + kernel_ + "': cluster of " +
                                      std::to_string(cluster_.count()) +
                                      " CTAs (must be 1 to " + std::to_string(kMaxClusterCtas) + ")");
  if (grid_.x % cluster_.x || grid_.y % cluster_.y || grid_.z % cluster_.z)
    return llvm::make_error<EmuError>(
        "kernel '" + kernel_ + "': grid of (" + std::to_string(grid_.x) + "," +
        std::to_string(grid_.y) + "," + std::to_string(grid_.z) +
        ") CTAs is not a whole number of clusters of (" + std::to_string(cluster_.x) + "," +
        std::to_string(cluster_.y) + "," + std::to_string(cluster_.z) + ") CTAs");
  blockThreads_ = uint32_t(threads);
  uint32_t clusterCtas = uint32_t(cluster_.count());
  threads *= clusterCtas;

  // One stack per thread, each with an inaccessible guard page below it
  // (the JIT probes frames larger than a page, see Emulator.cpp, so an
  // overflow always lands on it).
  size_t page = kStackPageBytes;
  size_t perThread = stackBytes_ + page;
  stackPoolBytes_ = perThread * threads;
  void *pool = mmap(nullptr, stackPoolBytes_, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pool == MAP_FAILED) {
    stackPool_ = nullptr;
    return llvm::make_error<EmuError>("cannot allocate fiber stacks");
  }
  stackPool_ = static_cast<char *>(pool);
  threads_.resize(threads);
  for (uint64_t i = 0; i < threads; ++i) {
    char *base = stackPool_ + i * perThread;
    mprotect(base, page, PROT_NONE);
    threads_[i].stackLo = base + page;
    threads_[i].stackHi = base + perThread;
  }
  uint32_t sharedAlloc = std::max<uint32_t>(sharedBytes_, 16);
  // Aligned so that the low 18 bits of a host shared address are its address
  // in the GPU's shared window: wgmma matrix descriptors keep bits 4..17 of
  // it, and the swizzle modes XOR bits of it (Swizzle.h).
  constexpr size_t kSharedWindowAlign = size_t(1) << 18;
  sharedBlocks_.assign(2 * clusterCtas, nullptr);
  for (char *&block : sharedBlocks_) {
    block = static_cast<char *>(
        std::aligned_alloc(kSharedWindowAlign, llvm::alignTo(sharedAlloc, kSharedWindowAlign)));
    std::memset(block, 0, sharedAlloc);
  }
  ctas_ = std::vector<Cta>(clusterCtas);
  for (Cta &c : ctas_) {
    c.pending.resize((blockThreads_ + 31) / 32);
    c.warpgroups.resize((blockThreads_ + 127) / 128);
  }

  previous_ = activeRuntime;
  activeRuntime = this;
  for (uint32_t z = 0; z < grid_.z / cluster_.z && !failed_; ++z)
    for (uint32_t y = 0; y < grid_.y / cluster_.y && !failed_; ++y)
      for (uint32_t x = 0; x < grid_.x / cluster_.x && !failed_; ++x)
        runCluster(x, y, z);
  activeRuntime = previous_;
  tp_emu_shared_base = nullptr;
  if (failed_)
    return llvm::make_error<EmuError>(failure_);
  return llvm::Error::success();
}

void Runtime::runCluster(uint32_t x, uint32_t y, uint32_t z) {
  idleYields_ = 0;
  currentShared_ ^= 1;
  ready_.clear();
  liveThreads_ = threads_.size();
  clusterBarrier_ = {};
  uint32_t clusterId[3] = {x, y, z}, clusterDim[3] = {cluster_.x, cluster_.y, cluster_.z};
  for (uint32_t rank = 0; rank < ctas_.size(); ++rank) {
    Cta &c = ctas_[rank];
    // %cluster_ctarank is x-major: rank = x + y * nx + z * nx * ny.
    uint32_t inCluster[3] = {rank % cluster_.x, rank / cluster_.x % cluster_.y,
                             rank / (cluster_.x * cluster_.y)};
    for (unsigned d = 0; d < 3; ++d)
      c.id[d] = clusterId[d] * clusterDim[d] + inCluster[d];
    c.shared = sharedBlocks_[currentShared_ * ctas_.size() + rank];
    c.liveThreads = blockThreads_;
    c.barriers = {};
    for (auto &list : c.pending)
      list.clear();
    for (auto &group : c.warpgroups)
      group = {};
    c.tensorMemory.reset();

    uint32_t linear = 0;
    for (uint32_t tz = 0; tz < block_.z; ++tz)
      for (uint32_t ty = 0; ty < block_.y; ++ty)
        for (uint32_t tx = 0; tx < block_.x; ++tx, ++linear) {
          EmuThread &t = thread(rank, linear);
          t.tid[0] = tx, t.tid[1] = ty, t.tid[2] = tz;
          t.linear = linear;
          t.lane = linear % 32;
          t.warp = linear / 32;
          t.cta = rank;
          t.clusterArrived = false;
          t.state = EmuThread::Ready;
          t.asyncCopies.clear(); // a failed CTA may leave some behind
          t.asyncGroups = 0;
          t.sp = initFiberStack(t.stackLo, t.stackHi, &Runtime::fiberMain);
          ready_.push_back(&t);
        }
  }

  while (!ready_.empty() && !failed_) {
    EmuThread *t = ready_.front();
    ready_.pop_front();
    current_ = t;
    // Kernels address their shared variables from this base: each thread
    // sees its own CTA's block.
    tp_emu_shared_base = ctas_[t->cta].shared;
    switchFiber(&schedulerSp_, t->sp);
    current_ = nullptr;
    if (!failed_ && t->state == EmuThread::Ready)
      ready_.push_back(t);
  }
  if (!failed_ && liveThreads_ != 0) {
    failed_ = true;
    failure_ = describeDeadlock();
  }
  for (uint32_t rank = 0; rank < ctas_.size() && !failed_; ++rank)
    checkCtaExit(rank);
}

void Runtime::checkCtaExit(uint32_t rank) {
  // "All of the tensor memory that was allocated ... must be deallocated
  // before the kernel exits" (tcgen05.alloc); the next CTA on the SM would
  // block in its allocation otherwise.
  if (unsigned columns = ctas_[rank].tensorMemory.allocatedColumns()) {
    failed_ = true;
    failure_ = "kernel '" + kernel_ + "', CTA " + dim3(ctas_[rank].id) + ": the CTA exited with " +
               std::to_string(columns) + " tensor memory column(s) still allocated (tcgen05.dealloc missing)";
  }
}

void Runtime::fiberMain() {
  Runtime &rt = active();
  rt.entry_(rt.args_);
  rt.onThreadExit();
  rt.switchToScheduler();
  __builtin_unreachable();
}

void Runtime::switchToScheduler() {
  EmuThread *t = current_;
  switchFiber(&t->sp, schedulerSp_);
}

void Runtime::block() {
  current_->state = EmuThread::Blocked;
  switchToScheduler();
}

void Runtime::wake(EmuThread &thread) {
  idleYields_ = 0;
  thread.state = EmuThread::Ready;
  ready_.push_back(&thread);
}

void Runtime::onThreadExit() {
  completeAsyncCopies(*current_, UINT32_MAX);
  idleYields_ = 0;
  current_->state = EmuThread::Exited;
  --liveThreads_;
  --cta().liveThreads;
  checkBarriersAfterExit();
}

void Runtime::exitCurrentThread() {
  onThreadExit();
  switchToScheduler();
  __builtin_unreachable();
}

void Runtime::yield(const char *waitingIn) {
  // Every yield lets all other ready threads run once; if none of them made
  // progress after this many rounds, nothing ever will.
  if (++idleYields_ > 10000 * uint64_t(liveThreads_) + 100000)
    fail(std::string("deadlock: threads keep waiting (") + waitingIn +
         ") and no thread makes progress");
  // The scheduler re-queues a thread that comes back Ready.
  switchToScheduler();
}

void Runtime::fail(const std::string &what) {
  if (!failed_) {
    failed_ = true;
    failure_ = where() + ": " + what;
  }
  if (current_) {
    current_->state = EmuThread::Exited;
    switchToScheduler();
  }
  // Only reachable outside a fiber, which the entry points never are.
  std::abort();
}

std::string Runtime::describeDeadlock() const {
  std::string text = "kernel '" + kernel_ + "', CTA " + dim3(ctas_[0].id) +
                     (ctas_.size() > 1 ? " (cluster of " + std::to_string(ctas_.size()) + " CTAs)"
                                       : std::string()) +
                     ": deadlock: " + std::to_string(liveThreads_) +
                     " thread(s) blocked forever";
  if (!clusterBarrier_.waiters.empty())
    text += "; cluster barrier: " + std::to_string(clusterBarrier_.arrived) + " of " +
            std::to_string(liveThreads_) + " threads arrived (first waiter: thread " +
            dim3(clusterBarrier_.waiters.front()->tid) + ")";
  for (const Cta &c : ctas_) {
    std::string in = ctas_.size() > 1 ? " of CTA " + dim3(c.id) : std::string();
    for (uint32_t id = 0; id < c.barriers.size(); ++id) {
      const Barrier &bar = c.barriers[id];
      if (bar.waiters.empty())
        continue;
      uint32_t expected = bar.expected ? bar.expected : c.liveThreads;
      text += "; barrier " + std::to_string(id) + in + ": " + std::to_string(bar.arrived) +
              " of " + std::to_string(expected) + " threads arrived (first waiter: thread " +
              dim3(bar.waiters.front()->tid) + ")";
    }
    for (uint32_t warp = 0; warp < c.pending.size(); ++warp)
      for (const PendingCollective &p : c.pending[warp])
        text += "; warp " + std::to_string(warp) + in + ": lanes " + hex(p.arrived) + " wait in " +
                (p.matrixOp ? p.matrixOp->name() : collectiveName(p.kind)) +
                " for member mask " + hex(p.mask);
    for (uint32_t group = 0; group < c.warpgroups.size(); ++group)
      if (c.warpgroups[group].arrived)
        text += "; warpgroup " + std::to_string(group) + in + ": " +
                std::to_string(c.warpgroups[group].arrived) + " of 128 threads wait in " +
                c.warpgroups[group].op->name();
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Memory checks
//===----------------------------------------------------------------------===//

const MemoryRegion *Runtime::findRegion(uintptr_t address, uint64_t size) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), address,
                             [](uintptr_t a, const MemoryRegion &r) { return a < r.begin; });
  if (it == regions_.begin())
    return nullptr;
  --it;
  if (address >= it->begin && address - it->begin <= it->end - it->begin &&
      size <= it->end - address)
    return &*it;
  return nullptr;
}

bool Runtime::inClusterShared(uintptr_t address, uint64_t size) const {
  for (const Cta &c : ctas_) {
    auto shared = reinterpret_cast<uintptr_t>(c.shared);
    if (address >= shared && address + size <= shared + sharedBytes_ && address + size >= address)
      return true;
  }
  return false;
}

bool Runtime::isValidRange(uintptr_t address, uint64_t size) const {
  // Generic and shared::cluster addresses reach every CTA of the cluster.
  if (inClusterShared(address, size))
    return true;
  if (current_) {
    auto lo = reinterpret_cast<uintptr_t>(current_->stackLo);
    auto hi = reinterpret_cast<uintptr_t>(current_->stackHi);
    if (address >= lo && address + size <= hi && address + size >= address)
      return true;
  }
  return findRegion(address, size) != nullptr;
}

bool Runtime::isInAddressSpace(uintptr_t address, unsigned addrSpace) const {
  uintptr_t shared = reinterpret_cast<uintptr_t>(tp_emu_shared_base);
  bool inShared = address >= shared && address < shared + std::max<uint32_t>(sharedBytes_, 1);
  bool inLocal = current_ && address >= uintptr_t(current_->stackLo) &&
                 address < uintptr_t(current_->stackHi);
  bool inCluster = inClusterShared(address, 1);
  const MemoryRegion *region = findRegion(address, 1);
  switch (addrSpace) {
  case 3:
    return inShared;
  case 7:
    return inCluster;
  case 5:
    return inLocal;
  case 4:
    return region && region->kind == RegionKind::Constant;
  default: // global: everything that is neither shared nor local
    return !inCluster && !inLocal;
  }
}

std::string Runtime::describeAddress(uintptr_t address, uint64_t size) const {
  for (unsigned i = 0; i < sharedBlocks_.size(); ++i) {
    auto base = reinterpret_cast<uintptr_t>(sharedBlocks_[i]);
    if (address < base || address >= base + sharedBytes_)
      continue;
    if (i / ctas_.size() != currentShared_)
      return ctas_.size() > 1 ? "shared memory of another CTA, outside the running cluster"
                              : "shared memory of another CTA";
    if (sharedBlocks_[i] != tp_emu_shared_base)
      return "shared memory of CTA " + dim3(ctas_[i % ctas_.size()].id) +
             " of the cluster (a shared::cta access needs the executing CTA's)";
  }
  uintptr_t shared = reinterpret_cast<uintptr_t>(tp_emu_shared_base);
  if (address >= shared && address < shared + sharedBytes_ + 1)
    return "past the end of the CTA's " + std::to_string(sharedBytes_) +
           " bytes of shared memory";
  for (const EmuThread &t : threads_)
    if (&t != current_ && address >= uintptr_t(t.stackLo) && address < uintptr_t(t.stackHi))
      return "local memory of thread " + dim3(t.tid);
  // The nearest buffer helps to tell an off-by-one from a wild pointer.
  const MemoryRegion *nearest = nullptr;
  uint64_t distance = ~uint64_t(0);
  for (const MemoryRegion &r : regions_) {
    uint64_t d = address < r.begin ? r.begin - address
                 : address >= r.end ? address - r.end + 1 : 0;
    if (d < distance)
      distance = d, nearest = &r;
  }
  if (!nearest || distance > (uint64_t(1) << 30))
    return "outside every buffer";
  if (address >= nearest->begin && address < nearest->end)
    return "runs past the end of '" + nearest->name + "' [" + hex(nearest->begin) +
           ", " + hex(nearest->end) + ")";
  if (address >= nearest->end)
    return "outside every buffer, " +
           (address == nearest->end ? std::string("right")
                                    : std::to_string(address - nearest->end) + " bytes") +
           " after the end of '" + nearest->name + "' [" + hex(nearest->begin) +
           ", " + hex(nearest->end) + ")";
  return "outside every buffer, " + std::to_string(nearest->begin - address) +
         " bytes before '" + nearest->name + "' [" + hex(nearest->begin) + ", " +
         hex(nearest->end) + ")";
}

static const char *spaceName(unsigned addrSpace) {
  switch (addrSpace) {
  case 1: return "global ";
  case 3: return "shared ";
  case 4: return "constant ";
  case 5: return "local ";
  default: return "";
  }
}

void Runtime::checkAccess(uintptr_t address, uint64_t size, uint32_t align,
                          uint32_t flags) {
  if (size == 0)
    return; // a zero-length memcpy/memset touches nothing
  bool write = flags & kAccessWrite;
  unsigned addrSpace = flags >> kAccessAddrSpaceShift;
  const char *verb = write ? "write" : "read";
  // The hardware needs natural alignment of the instruction the backend
  // picks: the IR alignment, at most the (power-of-two) access size.
  uint64_t natural = llvm::PowerOf2Ceil(size ? size : 1);
  uint64_t required = std::min<uint64_t>(align ? align : 1, natural);
  if (address & (required - 1))
    fail(std::string("misaligned ") + spaceName(addrSpace) + verb + " of " +
         std::to_string(size) + " bytes at address " + hex(address) +
         " (needs " + std::to_string(required) + "-byte alignment)");
  if (!isValidRange(address, size) || (addrSpace == 3 && !isInAddressSpace(address, 3)) ||
      (addrSpace == 7 && !inClusterShared(address, size)))
    fail(std::string("invalid ") + spaceName(addrSpace) + verb + " of " +
         std::to_string(size) + " bytes at address " + hex(address) + ": " +
         describeAddress(address, size));
  if (write) {
    const MemoryRegion *region = findRegion(address, size);
    if (region && region->readOnly)
      fail("write of " + std::to_string(size) + " bytes at address " + hex(address) +
           " to read-only '" + region->name + "'");
  }
}

void *Runtime::deviceMalloc(uint64_t bytes) {
  if (bytes == 0 || bytes > (uint64_t(1) << 32))
    return nullptr; // the device heap is 8 MiB by default; huge requests fail
  void *block = std::aligned_alloc(16, llvm::alignTo(bytes, 16));
  if (!block)
    return nullptr;
  heapBlocks_.push_back(block);
  MemoryRegion region;
  region.begin = reinterpret_cast<uintptr_t>(block);
  region.end = region.begin + bytes;
  region.name = "malloc'ed block";
  auto at = std::upper_bound(regions_.begin(), regions_.end(), region.begin,
                             [](uintptr_t a, const MemoryRegion &r) { return a < r.begin; });
  regions_.insert(at, region);
  return block;
}

void Runtime::deviceFree(void *pointer) {
  if (!pointer)
    return;
  auto address = reinterpret_cast<uintptr_t>(pointer);
  auto block = std::find(heapBlocks_.begin(), heapBlocks_.end(), pointer);
  if (block == heapBlocks_.end())
    fail("free of " + hex(address) + ", which malloc did not return (or freed twice)");
  heapBlocks_.erase(block);
  regions_.erase(std::find_if(regions_.begin(), regions_.end(),
                              [&](const MemoryRegion &r) { return r.begin == address; }));
  std::free(pointer);
}

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

uint64_t Runtime::specialRegister(SpecialReg reg) {
  const EmuThread &t = *current_;
  uint32_t lane = t.lane;
  switch (reg) {
  case SpecialReg::TidX: return t.tid[0];
  case SpecialReg::TidY: return t.tid[1];
  case SpecialReg::TidZ: return t.tid[2];
  case SpecialReg::NtidX: return block_.x;
  case SpecialReg::NtidY: return block_.y;
  case SpecialReg::NtidZ: return block_.z;
  case SpecialReg::CtaidX: return cta().id[0];
  case SpecialReg::CtaidY: return cta().id[1];
  case SpecialReg::CtaidZ: return cta().id[2];
  case SpecialReg::ClusterIdX: return cta().id[0] / cluster_.x;
  case SpecialReg::ClusterIdY: return cta().id[1] / cluster_.y;
  case SpecialReg::ClusterIdZ: return cta().id[2] / cluster_.z;
  case SpecialReg::NClusterIdX: return grid_.x / cluster_.x;
  case SpecialReg::NClusterIdY: return grid_.y / cluster_.y;
  case SpecialReg::NClusterIdZ: return grid_.z / cluster_.z;
  case SpecialReg::ClusterCtaidX: return cta().id[0] % cluster_.x;
  case SpecialReg::ClusterCtaidY: return cta().id[1] % cluster_.y;
  case SpecialReg::ClusterCtaidZ: return cta().id[2] % cluster_.z;
  case SpecialReg::ClusterNctaidX: return cluster_.x;
  case SpecialReg::ClusterNctaidY: return cluster_.y;
  case SpecialReg::ClusterNctaidZ: return cluster_.z;
  case SpecialReg::ClusterCtaRank: return t.cta;
  case SpecialReg::ClusterNctaRank: return cluster_.count();
  case SpecialReg::NctaidX: return grid_.x;
  case SpecialReg::NctaidY: return grid_.y;
  case SpecialReg::NctaidZ: return grid_.z;
  case SpecialReg::LaneId: return lane;
  case SpecialReg::WarpId: return t.warp;
  case SpecialReg::NWarpId: return 64;
  case SpecialReg::WarpSize: return 32;
  case SpecialReg::LanemaskEq: return uint32_t(1) << lane;
  case SpecialReg::LanemaskLe: return uint32_t((uint64_t(2) << lane) - 1);
  case SpecialReg::LanemaskLt: return (uint32_t(1) << lane) - 1;
  case SpecialReg::LanemaskGe: return ~((uint32_t(1) << lane) - 1);
  case SpecialReg::LanemaskGt: return uint32_t(~((uint64_t(2) << lane) - 1));
  case SpecialReg::Zero: return 0;
  case SpecialReg::One: return 1;
  case SpecialReg::SmId: return 0;
  case SpecialReg::NSmId: return 1;
  case SpecialReg::GridId: return 1;
  case SpecialReg::Clock:
  case SpecialReg::Clock64:
    return clock_ += 16;
  case SpecialReg::GlobalTimer:
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// CTA barriers
//===----------------------------------------------------------------------===//

uint32_t Runtime::barrier(uint32_t id, uint32_t count, bool wait,
                          BarrierReduction reduction, bool pred) {
  Cta &c = cta();
  if (id >= c.barriers.size())
    fail("barrier id " + std::to_string(id) + " out of range (0-15)");
  if (count % 32 != 0 && count != blockThreads_)
    fail("barrier " + std::to_string(id) + " thread count " + std::to_string(count) +
         " is not a multiple of the warp size");
  if (count > blockThreads_)
    fail("barrier " + std::to_string(id) + " expects " + std::to_string(count) +
         " threads but the CTA has " + std::to_string(blockThreads_));
  Barrier &bar = c.barriers[id];
  if (bar.arrived == 0) {
    bar.expected = count;
    bar.reduction = reduction;
    bar.accumulator = reduction == BarrierReduction::And ? 1 : 0;
  } else if (bar.expected != count) {
    fail("barrier " + std::to_string(id) + " used with thread counts " +
         std::to_string(bar.expected) + " and " + std::to_string(count) + " at once");
  }
  ++bar.arrived;
  idleYields_ = 0;
  switch (reduction) {
  case BarrierReduction::Popc: bar.accumulator += pred; break;
  case BarrierReduction::And: bar.accumulator &= pred; break;
  case BarrierReduction::Or: bar.accumulator |= pred; break;
  case BarrierReduction::None: break;
  }
  uint32_t expected = bar.expected ? bar.expected : c.liveThreads;
  if (bar.arrived >= expected) {
    uint32_t result = bar.accumulator;
    completeBarrier(id);
    return result;
  }
  if (!wait)
    return 0;
  bar.waiters.push_back(current_);
  block();
  return uint32_t(current_->result);
}

void Runtime::completeBarrier(uint32_t id) {
  Barrier &bar = cta().barriers[id];
  for (EmuThread *t : bar.waiters) {
    t->result = bar.accumulator;
    wake(*t);
  }
  bar = Barrier();
}

void Runtime::checkBarriersAfterExit() {
  // Exited threads no longer hold up barriers that wait for the whole CTA,
  // nor the cluster barrier (which waits for the non-exited threads).
  Cta &c = cta();
  for (uint32_t id = 0; id < c.barriers.size(); ++id) {
    Barrier &bar = c.barriers[id];
    if (bar.arrived && bar.expected == 0 && bar.arrived >= c.liveThreads)
      completeBarrier(id);
  }
  EmuThread &me = *current_;
  if (me.clusterArrived && me.clusterPhase == clusterBarrier_.phase) {
    // An arrival of a thread that no longer exists is not one of the
    // non-exited threads the barrier waits for.
    me.clusterArrived = false;
    --clusterBarrier_.arrived;
  }
  if (clusterBarrier_.arrived && clusterBarrier_.arrived >= liveThreads_)
    completeClusterPhase();
}

void Runtime::clusterArrive() {
  EmuThread &me = *current_;
  if (me.clusterArrived)
    fail("barrier.cluster.arrive twice without barrier.cluster.wait between");
  me.clusterArrived = true;
  me.clusterPhase = clusterBarrier_.phase;
  idleYields_ = 0;
  if (++clusterBarrier_.arrived >= liveThreads_)
    completeClusterPhase();
}

void Runtime::clusterWait() {
  EmuThread &me = *current_;
  if (!me.clusterArrived)
    fail("barrier.cluster.wait without a barrier.cluster.arrive before it");
  me.clusterArrived = false;
  if (me.clusterPhase < clusterBarrier_.phase)
    return;
  clusterBarrier_.waiters.push_back(&me);
  block();
}

void Runtime::completeClusterPhase() {
  ++clusterBarrier_.phase;
  clusterBarrier_.arrived = 0;
  for (EmuThread *t : clusterBarrier_.waiters)
    wake(*t);
  clusterBarrier_.waiters.clear();
}

//===----------------------------------------------------------------------===//
// Warp collectives
//===----------------------------------------------------------------------===//

const char *tilepipe::emu::collectiveName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::WarpSync: return "bar.warp.sync";
  case CollectiveKind::ShflIdx: return "shfl.sync.idx";
  case CollectiveKind::ShflUp: return "shfl.sync.up";
  case CollectiveKind::ShflDown: return "shfl.sync.down";
  case CollectiveKind::ShflBfly: return "shfl.sync.bfly";
  case CollectiveKind::VoteAll: return "vote.sync.all";
  case CollectiveKind::VoteAny: return "vote.sync.any";
  case CollectiveKind::VoteUni: return "vote.sync.uni";
  case CollectiveKind::VoteBallot: return "vote.sync.ballot";
  case CollectiveKind::MatchAny: return "match.any.sync";
  case CollectiveKind::MatchAll: return "match.all.sync";
  case CollectiveKind::ReduxAdd: return "redux.sync.add";
  case CollectiveKind::ReduxMin: return "redux.sync.min";
  case CollectiveKind::ReduxMax: return "redux.sync.max";
  case CollectiveKind::ReduxUMin: return "redux.sync.umin";
  case CollectiveKind::ReduxUMax: return "redux.sync.umax";
  case CollectiveKind::ReduxAnd: return "redux.sync.and";
  case CollectiveKind::ReduxOr: return "redux.sync.or";
  case CollectiveKind::ReduxXor: return "redux.sync.xor";
  case CollectiveKind::Elect: return "elect.sync";
  case CollectiveKind::MatrixOp: return "warp matrix operation";
  }
  return "?";
}

/// shfl.sync source lane selection, as the PTX ISA defines it.
static void computeShuffle(CollectiveKind kind, uint32_t mask,
                           std::array<LaneExchange, 32> &lanes) {
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1))
      continue;
    LaneExchange &me = lanes[lane];
    int b = me.b & 31, c = me.c & 31, segmask = (me.c >> 8) & 31;
    int maxLane = (lane & segmask) | (c & ~segmask);
    int minLane = lane & segmask;
    int j = lane;
    bool valid = false;
    switch (kind) {
    case CollectiveKind::ShflUp:
      j = lane - int(me.b & 31);
      valid = j >= maxLane;
      break;
    case CollectiveKind::ShflDown:
      j = lane + b;
      valid = j <= maxLane;
      break;
    case CollectiveKind::ShflBfly:
      j = lane ^ b;
      valid = j <= maxLane;
      break;
    default:
      j = minLane | (b & ~segmask);
      valid = j <= maxLane;
      break;
    }
    if (!valid)
      j = lane;
    // A source lane outside the member mask gives an undefined value; ours is
    // the lane's own.
    uint32_t source = (j >= 0 && j < 32 && (mask >> j & 1)) ? j : lane;
    me.result = uint32_t(lanes[source].value);
    me.pred = valid;
  }
}

void tilepipe::emu::computeCollective(CollectiveKind kind, uint32_t mask,
                                      std::array<LaneExchange, 32> &lanes,
                                      const WarpMatrixOp *matrixOp) {
  auto forEach = [&](auto fn) {
    for (int lane = 0; lane < 32; ++lane)
      if (mask >> lane & 1)
        fn(lanes[lane], lane);
  };
  switch (kind) {
  case CollectiveKind::WarpSync:
    return;
  case CollectiveKind::MatrixOp:
    return matrixOp->compute(lanes);
  case CollectiveKind::ShflIdx:
  case CollectiveKind::ShflUp:
  case CollectiveKind::ShflDown:
  case CollectiveKind::ShflBfly:
    return computeShuffle(kind, mask, lanes);
  case CollectiveKind::VoteAll:
  case CollectiveKind::VoteAny:
  case CollectiveKind::VoteUni:
  case CollectiveKind::VoteBallot: {
    uint32_t ballot = 0;
    forEach([&](LaneExchange &l, int lane) { ballot |= uint32_t(l.value != 0) << lane; });
    uint64_t result = kind == CollectiveKind::VoteAll   ? ballot == mask
                      : kind == CollectiveKind::VoteAny ? ballot != 0
                      : kind == CollectiveKind::VoteUni ? (ballot == 0 || ballot == mask)
                                                        : ballot;
    forEach([&](LaneExchange &l, int) { l.result = result; });
    return;
  }
  case CollectiveKind::MatchAny:
    forEach([&](LaneExchange &l, int) {
      uint32_t same = 0;
      for (int other = 0; other < 32; ++other)
        if ((mask >> other & 1) && lanes[other].value == l.value)
          same |= uint32_t(1) << other;
      l.result = same;
    });
    return;
  case CollectiveKind::Elect: {
    // PTX ISA, elect.sync: one leader, the same for the same membermask;
    // every lane gets the leader's laneid, the predicate is true in the
    // leader only. Ours is the lowest lane of the mask.
    uint32_t leader = llvm::countr_zero(mask);
    forEach([&](LaneExchange &l, int lane) {
      l.result = leader;
      l.pred = uint32_t(lane) == leader;
    });
    return;
  }
  case CollectiveKind::MatchAll: {
    bool all = true;
    uint64_t first = lanes[llvm::countr_zero(mask)].value;
    forEach([&](LaneExchange &l, int) { all &= l.value == first; });
    forEach([&](LaneExchange &l, int) {
      l.result = all ? mask : 0;
      l.pred = all;
    });
    return;
  }
  default: {
    uint32_t acc = 0;
    bool firstLane = true;
    forEach([&](LaneExchange &l, int) {
      uint32_t v = uint32_t(l.value);
      if (firstLane) {
        acc = v;
        firstLane = false;
        return;
      }
      switch (kind) {
      case CollectiveKind::ReduxAdd: acc += v; break;
      case CollectiveKind::ReduxMin: acc = std::min(int32_t(acc), int32_t(v)); break;
      case CollectiveKind::ReduxMax: acc = std::max(int32_t(acc), int32_t(v)); break;
      case CollectiveKind::ReduxUMin: acc = std::min(acc, v); break;
      case CollectiveKind::ReduxUMax: acc = std::max(acc, v); break;
      case CollectiveKind::ReduxAnd: acc &= v; break;
      case CollectiveKind::ReduxOr: acc |= v; break;
      default: acc ^= v; break;
      }
    });
    forEach([&](LaneExchange &l, int) { l.result = acc; });
    return;
  }
  }
}

LaneExchange Runtime::warpCollective(CollectiveKind kind, uint32_t mask,
                                     const LaneExchange &mine,
                                     const WarpMatrixOp *matrixOp) {
  auto nameOf = [](CollectiveKind k, const WarpMatrixOp *op) {
    return op ? std::string(op->name()) : std::string(collectiveName(k));
  };
  EmuThread &me = *current_;
  uint32_t bit = uint32_t(1) << me.lane;
  if (!(mask & bit))
    fail(nameOf(kind, matrixOp) + " with member mask " + hex(mask) +
         " that does not include the executing lane " + std::to_string(me.lane));
  auto &list = cta().pending[me.warp];
  auto it = std::find_if(list.begin(), list.end(), [&](const PendingCollective &p) {
    return p.mask == mask && !(p.arrived & bit);
  });
  if (it == list.end()) {
    list.emplace_back();
    it = std::prev(list.end());
    it->kind = kind;
    it->mask = mask;
    it->matrixOp = matrixOp;
  } else if (it->kind != kind || it->matrixOp != matrixOp) {
    fail(std::string("lane ") + std::to_string(me.lane) + " executes " +
         nameOf(kind, matrixOp) + " while lanes " + hex(it->arrived) + " of the same mask " +
         hex(mask) + " execute " + nameOf(it->kind, it->matrixOp));
  }
  it->lanes[me.lane] = mine;
  idleYields_ = 0;
  it->arrived |= bit;
  if (it->arrived == mask) {
    computeCollective(kind, mask, it->lanes, matrixOp);
    uint32_t warpBase = me.warp * 32;
    for (int lane = 0; lane < 32; ++lane) {
      if (!(mask >> lane & 1) || uint32_t(lane) == me.lane)
        continue;
      EmuThread &other = thread(me.cta, warpBase + lane);
      other.exchange = it->lanes[lane];
      wake(other);
    }
    LaneExchange out = it->lanes[me.lane];
    list.erase(it);
    return out;
  }
  block();
  return me.exchange;
}

void Runtime::warpgroupCollective(const WarpgroupOp &op, void *mine) {
  EmuThread &me = *current_;
  uint32_t group = me.linear / 128, index = me.linear % 128;
  if (uint64_t(group + 1) * 128 > blockThreads_)
    fail(std::string(op.name()) + " needs whole warpgroups of 128 threads; the block has " +
         std::to_string(blockThreads_) + " threads");
  PendingWarpgroup &pending = cta().warpgroups[group];
  if (pending.arrived && pending.op != &op)
    fail(std::string("thread executes ") + op.name() + " while " +
         std::to_string(pending.arrived) + " thread(s) of its warpgroup execute " +
         pending.op->name());
  pending.op = &op;
  pending.threads[index] = mine;
  idleYields_ = 0;
  if (++pending.arrived < 128)
    return block();
  op.compute(pending.threads);
  for (uint32_t i = 0; i < 128; ++i)
    if (i != index)
      wake(thread(me.cta, group * 128 + i));
  pending = {};
}

char *Runtime::sharedWindow() const { return cta().shared; }

TensorMemory &Runtime::tensorMemory() { return cta().tensorMemory; }

uintptr_t Runtime::clusterSharedAddress(uint32_t rank, uint64_t offset, const char *what) {
  if (rank >= ctas_.size())
    fail(std::string(what) + " names CTA rank " + std::to_string(rank) + " but the cluster has " +
         std::to_string(ctas_.size()) + " CTA(s)");
  return reinterpret_cast<uintptr_t>(ctas_[rank].shared) + offset;
}

llvm::SmallVector<uint32_t, 16> Runtime::multicastRanks(uint16_t mask, const char *what) {
  if (mask == 0 || mask >> ctas_.size())
    fail(std::string(what) + " .multicast::cluster to CTA mask " + hex(mask) +
         ", but the cluster has " + std::to_string(ctas_.size()) + " CTA(s)");
  llvm::SmallVector<uint32_t, 16> ranks;
  for (uint32_t rank = 0; rank < ctas_.size(); ++rank)
    if (mask >> rank & 1)
      ranks.push_back(rank);
  return ranks;
}

std::pair<uint32_t, uint64_t> Runtime::locateClusterShared(uintptr_t address, const char *what) {
  for (uint32_t rank = 0; rank < ctas_.size(); ++rank) {
    auto base = reinterpret_cast<uintptr_t>(ctas_[rank].shared);
    if (address >= base && address < base + std::max<uint32_t>(sharedBytes_, 1))
      return {rank, address - base};
  }
  fail(std::string(what) + " of address " + hex(address) +
       ", which is not in the shared memory of a CTA of the cluster: " +
       describeAddress(address, 1));
}

uint32_t Runtime::activeMask() {
  // Lanes that have not exited; the emulator does not track divergence.
  uint32_t mask = 0;
  uint32_t base = current_->warp * 32;
  for (uint32_t lane = 0; lane < 32 && base + lane < blockThreads_; ++lane)
    if (thread(current_->cta, base + lane).state != EmuThread::Exited)
      mask |= uint32_t(1) << lane;
  return mask;
}

//===----------------------------------------------------------------------===//
// Host faults and the watchdog
//===----------------------------------------------------------------------===//

static const char *faultToolName = "tile-emu";
static int faultExitCode = 5;

std::string Runtime::describeHostFault(uintptr_t address) const {
  if (!current_)
    return "";
  auto lo = reinterpret_cast<uintptr_t>(current_->stackLo);
  if (address >= lo || address < lo - kStackPageBytes)
    return "";
  return "host stack overflow: the emulated thread used more than its " +
         formatStackBytes(stackBytes_) + " stack (tile-emu --thread-stack-mib raises it)";
}

/// Dying anyway: formatting with snprintf is acceptable here.
static void onFatalSignal(int signal, siginfo_t *info, void *) {
  char text[1024];
  std::string overflow;
  if ((signal == SIGSEGV || signal == SIGBUS) && activeRuntime && info)
    overflow = activeRuntime->describeHostFault(reinterpret_cast<uintptr_t>(info->si_addr));
  const char *what = signal == SIGALRM ? "time limit exceeded (endless loop or spin-wait?)"
                     : !overflow.empty() ? overflow.c_str()
                     : signal == SIGSEGV || signal == SIGBUS
                         ? "host memory fault (an emulated thread overflowed its stack?)"
                         : signal == SIGFPE ? "arithmetic exception" : "illegal instruction";
  std::string where = activeRuntime ? activeRuntime->where() + ": " : std::string();
  int n = std::snprintf(text, sizeof text, "%s: error: %s%s\n", faultToolName, where.c_str(), what);
  if (n > 0)
    (void)!write(2, text, std::min<size_t>(n, sizeof text - 1));
  _exit(faultExitCode);
}

void tilepipe::emu::installFaultHandlers(const char *toolName, int exitCode,
                                         unsigned timeoutSeconds) {
  faultToolName = toolName;
  faultExitCode = exitCode;
  static std::vector<char> alternateStack(256 * 1024);
  stack_t stack = {};
  stack.ss_sp = alternateStack.data();
  stack.ss_size = alternateStack.size();
  sigaltstack(&stack, nullptr);
  struct sigaction action = {};
  action.sa_sigaction = onFatalSignal;
  action.sa_flags = SA_ONSTACK | SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM})
    sigaction(signal, &action, nullptr);
  if (timeoutSeconds)
    alarm(timeoutSeconds);
}
