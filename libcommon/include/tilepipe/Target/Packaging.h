//===- Packaging.h - cubin -> fatbin / host object; kernel metadata -------===//
//
// tile-pack's containers beyond the plain cubin: a fatbinary (the toolkit's
// `fatbinary`, optionally with the PTX next to the cubin) and a host
// relocatable ELF object that embeds the device image under documented
// symbols, so that a host program can link it and load kernels by name. Every
// container also carries a small text note of each kernel's launch facts.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_TARGET_PACKAGING_H
#define TILEPIPE_TARGET_PACKAGING_H

#include "tilepipe/Support/GpuTarget.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilepipe {

/// What a launcher needs to know about one kernel of the image.
struct KernelLaunchInfo {
  std::string name;
  std::array<unsigned, 3> ctaSize = {0, 0, 0};      // .reqntid (0: undeclared)
  std::array<unsigned, 3> clusterShape = {1, 1, 1}; // .reqnctapercluster
  bool blocksAreClusters = false;                  // launched with blockDim (1,1,1)
  uint64_t staticSharedBytes = 0;                  // .nv.shared.<name> in the cubin
};

/// The kernels of `ptx` with their launch directives, and the static shared
/// memory of each from `cubin` (empty: not known).
std::vector<KernelLaunchInfo> describeKernels(llvm::StringRef ptx,
                                              llvm::StringRef cubin);

/// The note text: a `tilepipe-kernels 1` header line, then one line per kernel
///   kernel NAME cta=X,Y,Z cluster=X,Y,Z blocks-are-clusters=0|1 smem=BYTES
std::string formatKernelNote(llvm::ArrayRef<KernelLaunchInfo> kernels);

/// Parses formatKernelNote's text back.
llvm::Expected<std::vector<KernelLaunchInfo>> parseKernelNote(llvm::StringRef text);

struct FatbinaryOptions {
  GpuTarget gpu;
  /// Also embed the PTX (JIT-compilable by newer drivers).
  bool embedPTX = false;
  bool deviceDebug = false;
  /// The fatbinary executable; empty: tilepipe::findCudaTool("fatbinary").
  std::string fatbinaryPath;
};

/// Runs the toolkit's fatbinary over `cubin` (and `ptx` when embedded).
llvm::Expected<std::string> createFatbinary(llvm::StringRef cubin,
                                            llvm::StringRef ptx,
                                            const FatbinaryOptions &options,
                                            llvm::raw_ostream &log,
                                            llvm::raw_ostream *commandLine = nullptr);

enum class HostArch { X86_64, AArch64 };

/// Symbols of the host object (all global, in read-only sections):
///   __tilepipe_image        the device image (cubin or fatbin), in .tilepipe.image
///   __tilepipe_image_size   its size, a little-endian uint64
///   __tilepipe_kernels      the kernel note, NUL-terminated, in .tilepipe.kernels
///   __tilepipe_ptx          the PTX, NUL-terminated, in .tilepipe.ptx (optional)
struct HostObjectContents {
  llvm::StringRef image;
  std::string kernelNote;
  std::optional<llvm::StringRef> ptx;
};

/// A relocatable ELF64 object for `arch` (System V ABI) holding `contents`.
std::string writeHostObject(const HostObjectContents &contents, HostArch arch);

} // namespace tilepipe

#endif // TILEPIPE_TARGET_PACKAGING_H
