//===- ExitCodes.h - The one exit-code table of every tilepipe tool -------===//
//
// Compatible with NVIDIA's tileiras: clients (cuTile, autotuners, build systems)
// only distinguish zero from non-zero, but the classes below let scripts tell a
// usage mistake from a broken kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_SUPPORT_EXITCODES_H
#define TILEPIPE_SUPPORT_EXITCODES_H

namespace tilepipe {

enum ExitCode : int {
  /// The requested output was written.
  kExitSuccess = 0,
  /// Unknown option, bad option value, missing input operand.
  kExitUsage = 1,
  /// Unsupported --gpu-name, invalid -O, --device-debug with -O > 0.
  kExitConfig = 2,
  /// Input is not TileIR bytecode, or a bytecode version we do not read.
  kExitNotTileIR = 3,
  /// Input or output cannot be read or written.
  kExitIO = 4,
  /// Compilation failure: malformed bytecode, invalid IR, verifier, lowering, ptxas.
  kExitCompile = 5,
};

/// The exit-code table as printed at the end of every tool's --help.
const char *exitCodeHelpText();

} // namespace tilepipe

#endif // TILEPIPE_SUPPORT_EXITCODES_H
