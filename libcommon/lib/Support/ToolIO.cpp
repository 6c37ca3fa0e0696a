//===- ToolIO.cpp - Input and output files of the stage tools -------------===//
#include "tilepipe/Support/ToolIO.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"

#include <zstd.h>

using namespace tilepipe;
using llvm::Error;
using llvm::StringRef;

static Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

bool tilepipe::isZstdFrame(StringRef data) {
  return data.size() >= 4 && (unsigned char)data[0] == 0x28 &&
         (unsigned char)data[1] == 0xB5 && (unsigned char)data[2] == 0x2F &&
         (unsigned char)data[3] == 0xFD;
}

llvm::Expected<std::string> tilepipe::zstdDecompress(StringRef data,
                                                     size_t maxSize) {
  // Streaming decompression: the frame header's content size may be absent
  // or lie, so grow the output as data arrives and stop at maxSize.
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx *)> ctx(ZSTD_createDCtx(),
                                                          ZSTD_freeDCtx);
  if (!ctx)
    return makeError("zstd: out of memory");
  std::string out;
  ZSTD_inBuffer in{data.data(), data.size(), 0};
  std::vector<char> chunk(ZSTD_DStreamOutSize());
  for (;;) {
    ZSTD_outBuffer outBuf{chunk.data(), chunk.size(), 0};
    size_t ret = ZSTD_decompressStream(ctx.get(), &outBuf, &in);
    if (ZSTD_isError(ret))
      return makeError(llvm::Twine("zstd: corrupt input: ") +
                       ZSTD_getErrorName(ret));
    out.append(chunk.data(), outBuf.pos);
    if (out.size() > maxSize)
      return makeError("zstd: decompressed input is too large");
    bool inputDone = in.pos == in.size;
    // ret == 0: a frame ended. Concatenated frames continue with more input.
    if (ret == 0 && inputDone)
      break;
    // No progress possible: the decoder wants bytes that are not there.
    if (inputDone && outBuf.pos < outBuf.size)
      return makeError("zstd: truncated input");
  }
  return out;
}

llvm::Expected<std::string> tilepipe::zstdCompress(StringRef data, int level) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  size_t size = ZSTD_compress(out.data(), out.size(), data.data(), data.size(),
                              level);
  if (ZSTD_isError(size))
    return makeError(llvm::Twine("zstd: ") + ZSTD_getErrorName(size));
  out.resize(size);
  return out;
}

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
tilepipe::readInputFile(StringRef path) {
  auto bufferOrErr = path == "-" ? llvm::MemoryBuffer::getSTDIN()
                                 : llvm::MemoryBuffer::getFile(
                                       path, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/true);
  StringRef name = path == "-" ? StringRef("<stdin>") : path;
  if (std::error_code ec = bufferOrErr.getError())
    return makeError("cannot read '" + name + "': " + ec.message());
  std::unique_ptr<llvm::MemoryBuffer> buffer = std::move(*bufferOrErr);
  if (!isZstdFrame(buffer->getBuffer()))
    return std::move(buffer);
  auto plain = zstdDecompress(buffer->getBuffer());
  if (!plain)
    return makeError("cannot read '" + name +
                     "': " + llvm::toString(plain.takeError()));
  return llvm::MemoryBuffer::getMemBufferCopy(*plain, name);
}

static bool wantsZstd(const OutputOptions &options) {
  return options.zstd || StringRef(options.path).ends_with(".zst");
}

Error tilepipe::checkOutputAllowed(const OutputOptions &options) {
  bool binary = options.binary || wantsZstd(options);
  if (options.path == "-" && binary && !options.force &&
      llvm::sys::Process::StandardOutIsDisplayed())
    return makeError("refusing to write binary output to a terminal; "
                     "use -o FILE, a pipe, or -f to force");
  return Error::success();
}

/// Writes `contents` to the existing special file `path`, reporting a write
/// that fails (ENOSPC from /dev/full, a closed pipe).
static Error writeInPlace(StringRef path, StringRef contents) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os << contents;
  os.close();
  if (!os.has_error())
    return Error::success();
  std::string message = os.error().message();
  os.clear_error();
  return makeError("cannot write '" + path + "': " + message);
}

Error tilepipe::writeOutput(const OutputOptions &options, StringRef contents) {
  if (Error err = checkOutputAllowed(options))
    return err;
  std::string compressed;
  if (wantsZstd(options)) {
    auto packed = zstdCompress(contents);
    if (!packed)
      return packed.takeError();
    compressed = std::move(*packed);
    contents = compressed;
  }

  if (options.path == "-") {
    llvm::outs() << contents;
    llvm::outs().flush();
    if (llvm::outs().has_error()) {
      llvm::outs().clear_error();
      return makeError("cannot write to standard output");
    }
    return Error::success();
  }

  // A device, FIFO or socket is written in place: a temporary beside it
  // renamed over it would replace it with a regular file (/dev/null itself,
  // for root).
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(options.path, status) && llvm::sys::fs::exists(status) &&
      !llvm::sys::fs::is_regular_file(status))
    return writeInPlace(options.path, contents);

  // Write beside the target so that the rename stays on one file system.
  llvm::SmallString<256> tempPath;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          options.path + ".tmp-%%%%%%%%", fd, tempPath))
    return makeError("cannot write '" + options.path + "': " + ec.message());
  llvm::sys::RemoveFileOnSignal(tempPath);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(tempPath);
      llvm::sys::DontRemoveFileOnSignal(tempPath);
      return makeError("cannot write '" + options.path + "': " + message);
    }
  }
  std::error_code ec = llvm::sys::fs::rename(tempPath, options.path);
  llvm::sys::DontRemoveFileOnSignal(tempPath);
  if (ec) {
    llvm::sys::fs::remove(tempPath);
    return makeError("cannot write '" + options.path + "': " + ec.message());
  }
  return Error::success();
}
