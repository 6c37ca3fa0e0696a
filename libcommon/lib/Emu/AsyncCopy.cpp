//===- AsyncCopy.cpp - cp.async with commit and wait groups ---------------===//
//
// cp.async.{ca,cg}.shared.global.N[.s] reads its source at issue (one legal
// moment: PTX ISA, "cp.async": the copy is performed asynchronously) and
// writes its destination only when the issuing thread's
// cp.async.wait_group/wait_all covers it. A kernel that reads the
// destination too early sees the old contents here, as it may on a GPU,
// instead of the copy's result by luck.
//
// Groups (PTX ISA, "cp.async.commit_group", "cp.async.wait_group"):
// commit_group closes the thread's pending copies into a group; wait_group N
// completes every group but the N most recent; wait_all is commit_group
// followed by wait_group 0. Copies a thread leaves pending complete when it
// exits.
//
//===----------------------------------------------------------------------===//
#include "Intrinsics.h"
#include "Runtime.h"

#include <algorithm>

using namespace tilepipe::emu;
using llvm::StringRef;

void tilepipe::emu::completeAsyncCopies(EmuThread &thread, uint32_t firstPendingGroup) {
  auto &copies = thread.asyncCopies;
  for (const PendingAsyncCopy &copy : copies)
    if (copy.group < firstPendingGroup)
      std::memcpy(reinterpret_cast<void *>(copy.dst), copy.data.data(), copy.data.size());
  copies.erase(std::remove_if(copies.begin(), copies.end(),
                              [&](const PendingAsyncCopy &copy) {
                                return copy.group < firstPendingGroup;
                              }),
               copies.end());
}

namespace {

enum class AsyncCopyOp : uint32_t { Copy, Commit, WaitGroup, WaitAll };

/// Copy: `aux` bytes; the optional third argument is src-size, beyond which
/// the destination is zero-filled.
void issueCopy(const IntrinsicHandler &h, const uint8_t *args) {
  auto dst = h.arg<uintptr_t>(args, 0);
  auto src = h.arg<uintptr_t>(args, 1);
  uint32_t bytes = h.aux;
  uint32_t srcBytes = h.argOffsets.size() > 2 ? h.arg<uint32_t>(args, 2) : bytes;
  srcBytes = std::min(srcBytes, bytes);
  Runtime &rt = Runtime::active();
  rt.checkAccess(dst, bytes, bytes, kAccessWrite | (3u << kAccessAddrSpaceShift));
  if (srcBytes)
    rt.checkAccess(src, srcBytes, std::min(srcBytes, bytes), 1u << kAccessAddrSpaceShift);
  EmuThread &thread = *rt.current();
  PendingAsyncCopy copy{dst, std::vector<uint8_t>(bytes, 0), thread.asyncGroups};
  std::memcpy(copy.data.data(), reinterpret_cast<const void *>(src), srcBytes);
  thread.asyncCopies.push_back(std::move(copy));
}

void asyncCopyHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *) {
  EmuThread &thread = *Runtime::active().current();
  switch (AsyncCopyOp(h.op)) {
  case AsyncCopyOp::Copy:
    return issueCopy(h, args);
  case AsyncCopyOp::Commit:
    ++thread.asyncGroups;
    return;
  case AsyncCopyOp::WaitGroup: {
    uint32_t newest = h.arg<uint32_t>(args, 0);
    uint32_t groups = thread.asyncGroups;
    return completeAsyncCopies(thread, groups > newest ? groups - newest : 0);
  }
  case AsyncCopyOp::WaitAll:
    ++thread.asyncGroups;
    return completeAsyncCopies(thread, thread.asyncGroups);
  }
}

IntrinsicHandler make(AsyncCopyOp op, uint32_t bytes = 0) {
  IntrinsicHandler h;
  h.fn = asyncCopyHandler;
  h.op = uint32_t(op);
  h.aux = bytes;
  return h;
}

} // namespace

std::optional<IntrinsicHandler> tilepipe::emu::lookupAsyncCopyIntrinsic(StringRef n) {
  if (n == "cp.async.commit.group")
    return make(AsyncCopyOp::Commit);
  if (n == "cp.async.wait.group")
    return make(AsyncCopyOp::WaitGroup);
  if (n == "cp.async.wait.all")
    return make(AsyncCopyOp::WaitAll);
  if (!n.consume_front("cp.async.ca.shared.global.") &&
      !n.consume_front("cp.async.cg.shared.global."))
    return std::nullopt;
  n.consume_back(".s"); // the src-size operand: present or not in the call
  uint32_t bytes = 0;
  if (n.getAsInteger(10, bytes) || !(bytes == 4 || bytes == 8 || bytes == 16))
    return std::nullopt;
  return make(AsyncCopyOp::Copy, bytes);
}
