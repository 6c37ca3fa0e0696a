//===- Libdevice.cpp - Linking the CUDA math library ----------------------===//
#include "tilepipe/Target/Libdevice.h"

#include "tilepipe/Support/CudaToolkit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <mutex>
#include <vector>

using namespace tilepipe;

static bool isLibdeviceDeclaration(const llvm::Function &function) {
  return function.isDeclaration() && function.getName().starts_with("__nv_");
}

bool tilepipe::needsLibdevice(const llvm::Module &module) {
  return llvm::any_of(module.functions(), isLibdeviceDeclaration);
}

static llvm::Error cannotLoad(llvm::StringRef path, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "cannot load libdevice: " + path + ": " + why);
}

llvm::Expected<llvm::MemoryBufferRef>
tilepipe::loadLibdeviceBitcode(llvm::StringRef path) {
  struct Loaded {
    uint64_t size;
    llvm::sys::TimePoint<> modified;
    llvm::MemoryBuffer *bytes;
  };
  static std::mutex mutex;
  static llvm::StringMap<Loaded> loaded;
  // Every version ever read stays: a lazily loaded module of another
  // compile may still be materializing functions from it.
  static std::vector<std::unique_ptr<llvm::MemoryBuffer>> keep;

  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return cannotLoad(path, ec.message());
  std::lock_guard<std::mutex> lock(mutex);
  auto it = loaded.find(path);
  if (it != loaded.end() && it->second.size == status.getSize() &&
      it->second.modified == status.getLastModificationTime())
    return it->second.bytes->getMemBufferRef();
  auto bytes = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
  if (!bytes)
    return cannotLoad(path, bytes.getError().message());
  keep.push_back(std::move(*bytes));
  loaded[path] = {status.getSize(), status.getLastModificationTime(),
                  keep.back().get()};
  return keep.back()->getMemBufferRef();
}

llvm::Error tilepipe::linkLibdevice(llvm::Module &module, llvm::StringRef path) {
  if (!needsLibdevice(module))
    return llvm::Error::success();
  std::string libdevicePath = path.str();
  if (libdevicePath.empty()) {
    llvm::Expected<std::string> found = findLibdevice();
    if (!found)
      return found.takeError();
    libdevicePath = *found;
  }

  // Lazy loading: only the bodies the linker pulls in are materialized.
  llvm::Expected<llvm::MemoryBufferRef> bytes = loadLibdeviceBitcode(libdevicePath);
  if (!bytes)
    return bytes.takeError();
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> libdevice = llvm::getLazyIRModule(
      llvm::MemoryBuffer::getMemBuffer(*bytes, /*RequiresNullTerminator=*/false),
      diagnostic, module.getContext());
  if (!libdevice) {
    std::string message;
    llvm::raw_string_ostream os(message);
    diagnostic.print("libdevice", os, /*ShowColors=*/false);
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot load libdevice: " + message);
  }
  // libdevice says nvptx64-nvidia-gpulibs; adopt ours so that the linker does
  // not warn about mismatched targets.
  libdevice->setTargetTriple(module.getTargetTriple());
  libdevice->setDataLayout(module.getDataLayout());

  // Internalize what came from libdevice: after inlining nothing refers to it
  // any more and GlobalDCE removes it, so the PTX carries only the kernels.
  auto internalizeLinked = [](llvm::Module &linked,
                              const llvm::StringSet<> &linkedNames) {
    llvm::internalizeModule(linked, [&](const llvm::GlobalValue &value) {
      return !value.hasName() || !linkedNames.count(value.getName());
    });
  };
  if (llvm::Linker::linkModules(module, std::move(libdevice),
                                llvm::Linker::Flags::LinkOnlyNeeded,
                                internalizeLinked))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot link libdevice '" + libdevicePath +
                                       "' into the module");
  return llvm::Error::success();
}
