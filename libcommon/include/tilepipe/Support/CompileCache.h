//===- CompileCache.h - Content-addressed cache of compiled outputs -------===//
//
// tileiras --cache-dir DIR (or $TILEPIPE_CACHE_DIR) keeps each output under a
// key that hashes everything the output depends on: the input bytes, the
// options, the target and tilepipe's version. Entries are zstd-compressed,
// written atomically (temp + rename), and the directory is trimmed to a size
// limit, least recently used first. Concurrent compilers (make -j) may share
// one directory: every step tolerates another process doing the same.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_SUPPORT_COMPILECACHE_H
#define TILEPIPE_SUPPORT_COMPILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilepipe {

class CompileCache {
public:
  CompileCache(std::string directory, uint64_t maxBytes)
      : directory_(std::move(directory)), maxBytes_(maxBytes) {}

  /// The hex SHA-256 of the parts, each length-prefixed so that no two
  /// different part lists collide by concatenation.
  static std::string makeKey(llvm::ArrayRef<std::string> parts);

  /// The cached bytes for `key`, if present and intact. A hit refreshes the
  /// entry's age; a corrupt entry is removed and reported as a miss.
  std::optional<std::string> lookup(llvm::StringRef key) const;

  /// Stores `data` under `key`, then trims the cache to its size limit.
  llvm::Error store(llvm::StringRef key, llvm::StringRef data) const;

  /// Removes least recently used entries until the total size is at most the
  /// limit. Returns the number of entries removed.
  unsigned trim() const;

  const std::string &directory() const { return directory_; }

private:
  std::string entryPath(llvm::StringRef key) const;

  std::string directory_;
  uint64_t maxBytes_;
};

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_COMPILECACHE_H
