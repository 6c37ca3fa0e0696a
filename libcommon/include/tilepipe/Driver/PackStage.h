//===- PackStage.h - Stage 6: PTX -> cubin, fatbin or host object ---------===//
//
// What tile-pack does after reading its PTX, as functions, so that the
// in-process compiler (tileiras' default flow, libtileiras) gives the same
// bytes, the same ptxas messages and the same remarks as the tool.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_DRIVER_PACKSTAGE_H
#define TILEPIPE_DRIVER_PACKSTAGE_H

#include "tilepipe/Target/Packaging.h"
#include "tilepipe/Target/Ptxas.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tilepipe {

/// What the cubin is packed into.
enum class Container { Cubin, Fatbin, HostObject };

/// The container an output path asks for: *.o and *.obj a host object,
/// *.fatbin a fatbinary, anything else a plain cubin.
Container containerForPath(llvm::StringRef outputPath);

/// The architecture of the machine tilepipe was built for.
HostArch nativeHostArch();

struct PackStageOptions {
  PtxasOptions ptxas;
  Container container = Container::Cubin;
  /// Put the PTX next to the cubin in the fatbinary (fatbin, host object).
  bool embedPTX = false;
  HostArch hostArch = nativeHostArch();
  /// Also produce the YAML remarks (launch shape, registers and spills from
  /// `ptxas -v`, instruction mix).
  bool remarks = false;
  /// Where the ptxas and fatbinary command lines go (tile-pack -v); null: none.
  llvm::raw_ostream *commandLines = nullptr;
};

struct AssembledPTX {
  std::string cubin;
  /// The YAML remarks when PackStageOptions::remarks asked for them.
  std::string remarks;
};

/// Runs ptxas over `ptx`. Its messages go to `log`, minus the statistics of
/// the `-v` that remarks need, unless the user passed -v to ptxas too.
llvm::Expected<AssembledPTX> assemblePTX(llvm::StringRef ptx,
                                         const PackStageOptions &options,
                                         llvm::raw_ostream &log);

/// Packs `cubin` (assembled from `ptx`) into options.container; fatbinary's
/// messages go to `log`.
llvm::Expected<std::string> packCubin(std::string cubin, llvm::StringRef ptx,
                                      const PackStageOptions &options,
                                      llvm::raw_ostream &log);

} // namespace tilepipe

#endif // TILEPIPE_DRIVER_PACKSTAGE_H
