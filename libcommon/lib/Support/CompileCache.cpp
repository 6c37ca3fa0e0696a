//===- CompileCache.cpp - Content-addressed cache of compiled outputs -----===//
#include "tilepipe/Support/CompileCache.h"

#include "tilepipe/Support/ToolIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <vector>

using namespace tilepipe;
namespace fs = llvm::sys::fs;

/// Every entry file ends with this suffix; anything else in the directory
/// (temporaries of other processes, user files) is left alone.
static constexpr llvm::StringLiteral kEntrySuffix = ".zst";

std::string CompileCache::makeKey(llvm::ArrayRef<std::string> parts) {
  llvm::SHA256 hash;
  for (const std::string &part : parts) {
    hash.update(std::to_string(part.size()) + ":");
    hash.update(part);
  }
  std::array<uint8_t, 32> digest = hash.final();
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string CompileCache::entryPath(llvm::StringRef key) const {
  // Two-level fan-out keeps directories small.
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, key.take_front(2), key + kEntrySuffix);
  return path.str().str();
}

std::optional<std::string> CompileCache::lookup(llvm::StringRef key) const {
  std::string path = entryPath(key);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt;
  auto data = zstdDecompress((*buffer)->getBuffer());
  if (!data) {
    llvm::consumeError(data.takeError());
    fs::remove(path); // corrupt: drop it, the caller recompiles
    return std::nullopt;
  }
  // Refresh the age used by the LRU trim.
  if (int fd; !fs::openFileForWrite(path, fd, fs::CD_OpenExisting,
                                    fs::OF_Append)) {
    fs::setLastAccessAndModificationTime(fd, std::chrono::system_clock::now());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  return std::move(*data);
}

llvm::Error CompileCache::store(llvm::StringRef key,
                                llvm::StringRef data) const {
  std::string path = entryPath(key);
  if (std::error_code ec =
          fs::create_directories(llvm::sys::path::parent_path(path)))
    return llvm::createStringError(ec, "cannot create cache directory '" +
                                           directory_ + "': " + ec.message());
  OutputOptions output;
  output.path = path; // ".zst": writeOutput compresses, temp + rename
  if (llvm::Error err = writeOutput(output, data))
    return err;
  trim();
  return llvm::Error::success();
}

unsigned CompileCache::trim() const {
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> modified;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(directory_, ec), end;
       it != end && !ec; it.increment(ec)) {
    if (!llvm::StringRef(it->path()).ends_with(kEntrySuffix))
      continue;
    fs::file_status status;
    if (fs::status(it->path(), status) || status.type() != fs::file_type::regular_file)
      continue;
    entries.push_back({it->path(), status.getSize(),
                       status.getLastModificationTime()});
    total += status.getSize();
  }
  if (total <= maxBytes_)
    return 0;
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.modified < b.modified; });
  unsigned removed = 0;
  for (const Entry &entry : entries) {
    if (total <= maxBytes_)
      break;
    // Another process may have removed it already; either way it is gone.
    fs::remove(entry.path);
    total -= entry.size;
    ++removed;
  }
  return removed;
}
