//===- Emulator.h - Running NVPTX LLVM IR kernels on the CPU --------------===//
//
// The emulator takes the nvptx64 LLVM IR tilepipe produces (NVVM intrinsics,
// address spaces 1/3/4/5, PTX kernels), rewrites it for the host, JITs it with
// ORC and runs every CTA of a grid with one cooperative fiber per thread.
// Warp collectives and barriers block a fiber until its partners arrive, so
// warp-synchronous code computes what the GPU computes; every load and store
// is checked against the buffers, the CTA's shared memory and the thread's
// stack.
//
// The emulator is single-threaded and one launch runs at a time.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_EMU_EMULATOR_H
#define TILEPIPE_EMU_EMULATOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class Module;
class LLVMContext;
} // namespace llvm

namespace tilepipe::emu {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

/// One kernel argument as the launch passes it.
struct KernelArg {
  enum class Kind { Int, Float, Pointer };
  Kind kind = Kind::Int;
  /// Int: 1, 8, 16, 32, 64; Float: 16 (f16), 16 with `bfloat`, 32, 64.
  unsigned bits = 32;
  bool bfloat = false;
  /// The value's bit pattern (pointers: the host address).
  uint64_t bits64 = 0;

  static KernelArg integer(unsigned bits, uint64_t value);
  static KernelArg f32(float value);
  static KernelArg f64(double value);
  /// Rounded to nearest even.
  static KernelArg f16(float value);
  static KernelArg bf16(float value);
  static KernelArg pointer(const void *address);
};

/// The host stack each emulated thread runs on by default. Kernels
/// JIT-compiled without optimization keep every tile register in their frame:
/// a 256x256 f32 accumulator over 128 threads alone is 2 KiB per thread and
/// every value derived from it another copy, so frames of large-tile kernels
/// (block-scaled matmul) exceed 256 KiB, and a 128x4096 fp4 operand tile
/// needs several MiB. Reserved lazily (MAP_NORESERVE): only the pages a
/// thread touches cost memory.
constexpr uint64_t kDefaultThreadStackBytes = 4 * 1024 * 1024;

/// Host stack a launch keeps free below the kernel's own frame for the
/// runtime functions the kernel calls (barriers, checks, matrix helpers) and
/// for the calls the kernel makes itself.
constexpr uint64_t kThreadStackReserveBytes = 256 * 1024;

struct EmulatorOptions {
  /// __CUDA_ARCH__ seen by __nvvm_reflect (sm_80 -> 800).
  unsigned smVersion = 80;
  /// Link libdevice when the module calls __nv_* functions.
  bool linkLibdevice = true;
  /// Bytes of dynamic shared memory (extern __shared__ arrays).
  uint32_t dynamicSharedBytes = 0;
  /// Where vprintf output goes (default: stdout).
  llvm::raw_ostream *printfStream = nullptr;
  /// The host stack of each emulated thread. A launch whose kernel's
  /// JIT-compiled frame plus kThreadStackReserveBytes does not fit fails
  /// before it runs; a deeper overflow at run time hits a guard page.
  uint64_t threadStackBytes = kDefaultThreadStackBytes;
};

/// The failure of a launch: a wrong memory access, trap, failed assert,
/// deadlock, or an unsupported construct met at run time.
class EmuError : public llvm::ErrorInfo<EmuError> {
public:
  static char ID;
  explicit EmuError(std::string message) : message_(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message_; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  std::string message() const override { return message_; }

private:
  std::string message_;
};

class EmulatorImpl;

class Emulator {
public:
  ~Emulator();
  Emulator(Emulator &&) noexcept;

  /// Takes `module` (nvptx64 LLVM IR; its context travels with it), rewrites
  /// and JITs it. Fails on unsupported intrinsics or constructs.
  static llvm::Expected<Emulator>
  create(std::unique_ptr<llvm::Module> module,
         std::unique_ptr<llvm::LLVMContext> context,
         const EmulatorOptions &options = {});

  /// Parses LLVM IR text or bitcode and calls create().
  static llvm::Expected<Emulator> createFromIR(llvm::StringRef contents,
                                               llvm::StringRef name,
                                               const EmulatorOptions &options = {});

  /// Makes host memory visible to kernels as a global buffer; accesses
  /// outside every registered buffer are reported.
  void registerBuffer(void *data, uint64_t bytes, llvm::StringRef name);

  /// The CTA size the kernel declares (nvvm.reqntid / nvvm.maxntid, either as
  /// function attributes or !nvvm.annotations), if any.
  std::optional<Dim3> declaredBlockSize(llvm::StringRef kernel) const;

  /// The kernel's parameter list for checking command lines ("i32", "ptr",
  /// "f32", ...), or an error when no such kernel exists.
  llvm::Expected<std::vector<std::string>> parameterTypes(llvm::StringRef kernel) const;

  /// Runs `kernel` over `grid` CTAs of `block` threads, the CTAs of a cluster
  /// (the kernel's nvvm.cluster_dim) together. For a kernel with
  /// nvvm.blocksareclusters `grid` counts clusters, as a CUDA launch does;
  /// otherwise it counts CTAs and must be a whole number of clusters. A wrong
  /// access, trap, failed assert or deadlock stops the launch with an
  /// EmuError.
  llvm::Error launch(llvm::StringRef kernel, Dim3 grid, Dim3 block,
                     llvm::ArrayRef<KernelArg> args);

private:
  explicit Emulator(std::unique_ptr<EmulatorImpl> impl);
  std::unique_ptr<EmulatorImpl> impl_;
};

/// For tools: turns a host fault inside emulated code (an emulated thread
/// overflowing its stack, ...) into "<tool>: error: ..." naming the running
/// kernel, CTA and thread, and exits with `exitCode`. With `timeoutSeconds`
/// > 0 a run that takes longer (an endless loop, a spin-wait on another
/// thread) is stopped the same way.
void installFaultHandlers(const char *toolName, int exitCode, unsigned timeoutSeconds);

} // namespace tilepipe::emu

#endif // TILEPIPE_EMU_EMULATOR_H
