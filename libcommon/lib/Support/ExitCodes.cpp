//===- ExitCodes.cpp ------------------------------------------------------===//
#include "tilepipe/Support/ExitCodes.h"

const char *tilepipe::exitCodeHelpText() {
  return "Exit codes:\n"
         "  0  success\n"
         "  1  usage error (unknown option, bad option value, missing input)\n"
         "  2  configuration error (unsupported --gpu-name, invalid -O,\n"
         "     --device-debug with -O > 0)\n"
         "  3  input is not TileIR bytecode, or a bytecode version not read\n"
         "  4  input or output cannot be read or written\n"
         "  5  compilation failure (malformed bytecode, invalid IR, verifier,\n"
         "     lowering, ptxas)\n";
}
