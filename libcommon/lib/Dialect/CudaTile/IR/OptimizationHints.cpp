//===- OptimizationHints.cpp - Checking optimization_hints against an op --===//
//
// Hints are advisory: a frontend may send hints a given compiler does not
// know (newer keys, other architectures), so by default nothing is reported.
// With -Wunsupported-hints every unknown architecture key, hint name the op
// does not take, or value out of range is a warning at the op; -Werr-hints
// turns the op's verification into a failure as well. The messages are the
// ones NVIDIA's cuda-tile tools print, so test expectations carry over.
//
//===----------------------------------------------------------------------===//
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilepipe::cuda_tile;

// Global because every stage tool forwards unknown flags to LLVM's parser;
// the dialect copies them when a context loads it (CudaTileDialect::initialize).
static llvm::cl::opt<bool> warnUnsupportedHintsFlag(
    "Wunsupported-hints",
    llvm::cl::desc("Warn about unsupported or invalid optimization hints"),
    llvm::cl::init(false));
static llvm::cl::opt<bool> errorOnHintsFlag(
    "Werr-hints",
    llvm::cl::desc("With -Wunsupported-hints: make those warnings errors"),
    llvm::cl::init(false));

void tilepipe::cuda_tile::applyHintDiagnosticFlags(CudaTileDialect *dialect) {
  dialect->setHintDiagnostics(warnUnsupportedHintsFlag, errorOnHintsFlag);
}

namespace {
constexpr llvm::StringLiteral kNumCTAInCGA = "num_cta_in_cga";
constexpr llvm::StringLiteral kNumWorkerWarpsPerCTA = "num_worker_warps_per_cta";
constexpr llvm::StringLiteral kOccupancy = "occupancy";
constexpr llvm::StringLiteral kLatency = "latency";
constexpr llvm::StringLiteral kAllowTMA = "allow_tma";

/// Architecture keys a hint dictionary may use: `default` and the plain
/// compute capabilities tileiras targets (suffixed names such as sm_100a are
/// not keys: cuTile writes hints per base architecture).
bool isKnownArchitectureKey(StringRef key) {
  return llvm::is_contained({"default", "sm_80", "sm_86", "sm_87", "sm_88",
                             "sm_89", "sm_90", "sm_100", "sm_103", "sm_110",
                             "sm_120", "sm_121"},
                            key);
}

/// Ampere and Ada have no thread-block clusters.
bool hasNoClusters(StringRef arch) {
  return llvm::any_of(
      llvm::ArrayRef<StringRef>{"sm_80", "sm_86", "sm_87", "sm_88", "sm_89"},
      [&](StringRef prefix) { return arch.starts_with(prefix); });
}

/// The problem with one hint value, or an empty string when it is valid.
std::string checkHintValue(StringRef arch, StringRef name, Attribute value) {
  std::string where = (arch + "." + name).str();
  if (name == kAllowTMA)
    return isa<BoolAttr>(value) ? "" : "boolean value expected for " + where;
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || isa<BoolAttr>(value))
    return "integer value expected for " + where;
  int64_t v = integer.getValue().getSExtValue();
  auto inRange = [&](int64_t lo, int64_t hi) -> std::string {
    if (v >= lo && v <= hi)
      return "";
    return "integer value in the range [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "] is expected for " + where;
  };
  if (name == kNumCTAInCGA) {
    if (hasNoClusters(arch) && v != 1)
      return "expected 1 for " + where;
    if (v <= 0 || v > 16 || !llvm::isPowerOf2_64(v))
      return "expected power-of-two \u2264 16 for " + where;
    return "";
  }
  if (name == kNumWorkerWarpsPerCTA) {
    if (v <= 0 || v > 32 || !llvm::isPowerOf2_64(v))
      return "expected power-of-two \u2264 32 for " + where;
    return "";
  }
  if (name == kOccupancy)
    return inRange(1, 32);
  if (name == kLatency)
    return inRange(1, 10);
  return "unknown param " + name.str() + " for " + arch.str();
}

/// The hint names `op` takes.
llvm::SmallVector<StringRef, 3> hintsAcceptedBy(Operation *op) {
  if (isa<EntryOp>(op))
    return {kNumCTAInCGA, kNumWorkerWarpsPerCTA, kOccupancy};
  if (isa<LoadViewTkoOp, StoreViewTkoOp>(op))
    return {kLatency, kAllowTMA};
  if (isa<LoadPtrTkoOp, StorePtrTkoOp>(op))
    return {kLatency};
  return {};
}
} // namespace

// Diagnostics go to the op's location only: attaching the op itself would
// print it, and printing verifies it again (endless recursion for warnings).
LogicalResult OptimizationHintsAttr::verifyWithOp(Operation *op) const {
  const auto &dialect = cast<CudaTileDialect>(getDialect());
  if (!dialect.getWarnUnsupportedHints())
    return success();
  llvm::SmallVector<StringRef, 3> accepted = hintsAcceptedBy(op);
  bool anyProblem = false;
  for (NamedAttribute archEntry : getValue()) {
    StringRef arch = archEntry.getName().getValue();
    if (!isKnownArchitectureKey(arch)) {
      emitWarning(op->getLoc()) << "unknown hint key " << arch;
      anyProblem = true;
      continue;
    }
    for (NamedAttribute hint : cast<DictionaryAttr>(archEntry.getValue())) {
      StringRef name = hint.getName().getValue();
      std::string problem =
          llvm::is_contained(accepted, name)
              ? checkHintValue(arch, name, hint.getValue())
              : (name + " is not known hint for current Operation").str();
      if (!problem.empty()) {
        emitWarning(op->getLoc()) << problem;
        anyProblem = true;
      }
    }
  }
  if (anyProblem && dialect.getErrorOnHints())
    return emitError(op->getLoc(), "Optimization hints verification failed");
  return success();
}

LogicalResult tilepipe::cuda_tile::verifyOptimizationHints(Operation *op) {
  auto hints = op->getAttrOfType<OptimizationHintsAttr>("optimization_hints");
  return hints ? hints.verifyWithOp(op) : success();
}
