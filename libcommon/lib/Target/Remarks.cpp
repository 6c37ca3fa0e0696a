//===- Remarks.cpp - Optimization remarks about the code tile-pack packed -===//
#include "tilepipe/Target/Remarks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkSerializer.h"

using namespace tilepipe;

/// The number before `suffix` in `line` ("32" in "Used 32 registers").
static std::optional<uint64_t> numberBefore(llvm::StringRef line,
                                            llvm::StringRef suffix) {
  size_t at = line.find(suffix);
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef head = line.substr(0, at).rtrim();
  llvm::StringRef digits = head.substr(head.find_last_not_of("0123456789") + 1);
  uint64_t value;
  if (digits.getAsInteger(10, value))
    return std::nullopt;
  return value;
}

llvm::StringMap<PtxasKernelStats> tilepipe::parsePtxasVerbose(llvm::StringRef log) {
  llvm::StringMap<PtxasKernelStats> stats;
  PtxasKernelStats *current = nullptr;
  llvm::StringRef rest = log;
  while (!rest.empty()) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    llvm::StringRef marker = "Compiling entry function '";
    size_t at = line.find(marker);
    if (at != llvm::StringRef::npos) {
      llvm::StringRef name = line.substr(at + marker.size()).take_until(
          [](char c) { return c == '\''; });
      current = &stats[name];
      continue;
    }
    if (!current)
      continue;
    if (auto value = numberBefore(line, "registers"))
      current->registers = *value;
    if (auto value = numberBefore(line, "bytes stack frame"))
      current->stackFrame = *value;
    if (auto value = numberBefore(line, "bytes spill stores"))
      current->spillStores = *value;
    if (auto value = numberBefore(line, "bytes spill loads"))
      current->spillLoads = *value;
  }
  return stats;
}

/// The text of `kernel`'s body: from its `.entry` line to the matching `}`.
static llvm::StringRef kernelBody(llvm::StringRef ptx, llvm::StringRef kernel) {
  size_t entry = ptx.find((".entry " + kernel + "(").str());
  if (entry == llvm::StringRef::npos)
    return {};
  size_t open = ptx.find('{', entry);
  if (open == llvm::StringRef::npos)
    return {};
  int depth = 0;
  for (size_t i = open; i < ptx.size(); ++i) {
    if (ptx[i] == '{')
      ++depth;
    else if (ptx[i] == '}' && --depth == 0)
      return ptx.slice(open, i + 1);
  }
  return ptx.substr(open);
}

std::vector<std::pair<std::string, unsigned>>
tilepipe::countInstructionFamilies(llvm::StringRef ptx, llvm::StringRef kernel) {
  // Longer prefixes first, so that `cp.async.bulk` is not also `cp.async`.
  static const char *const kFamilies[] = {
      "tcgen05.mma", "wgmma.mma_async", "mma.sync",      "ldmatrix",
      "stmatrix",    "cp.async.bulk",   "cp.async",      "mbarrier",
      "ld.global.v4", "ld.global.v2",   "ld.global",     "st.global.v4",
      "st.global.v2", "st.global",      "ld.shared",     "st.shared",
      "bar.sync",     "shfl.sync",      "atom",          "red"};
  std::vector<std::pair<std::string, unsigned>> counts;
  for (const char *family : kFamilies)
    counts.emplace_back(family, 0);
  llvm::StringRef rest = kernelBody(ptx, kernel);
  while (!rest.empty()) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    line = line.trim();
    if (line.starts_with("@")) // predicate guard
      line = line.drop_until([](char c) { return llvm::isSpace(c); }).ltrim();
    for (auto &[family, count] : counts)
      if (line.starts_with(family) &&
          (line.size() == family.size() || line[family.size()] == '.' ||
           llvm::isSpace(line[family.size()]))) {
        ++count;
        break;
      }
  }
  llvm::erase_if(counts, [](const auto &entry) { return entry.second == 0; });
  return counts;
}

llvm::Expected<std::string>
tilepipe::formatRemarksYaml(llvm::StringRef ptx,
                            llvm::ArrayRef<KernelLaunchInfo> kernels,
                            const llvm::StringMap<PtxasKernelStats> &stats,
                            llvm::StringRef target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto serializer = llvm::remarks::createRemarkSerializer(
      llvm::remarks::Format::YAML, os);
  if (!serializer)
    return serializer.takeError();
  auto dims = [](const std::array<unsigned, 3> &d) {
    return llvm::formatv("{0},{1},{2}", d[0], d[1], d[2]).str();
  };
  for (const KernelLaunchInfo &kernel : kernels) {
    // Arguments own their strings here; the remark only refers to them.
    std::vector<std::pair<std::string, std::string>> args = {
        {"Target", target.str()},
        {"CTASize", dims(kernel.ctaSize)},
        {"ClusterShape", dims(kernel.clusterShape)},
        {"BlocksAreClusters", kernel.blocksAreClusters ? "true" : "false"},
        {"StaticSharedBytes", std::to_string(kernel.staticSharedBytes)}};
    auto found = stats.find(kernel.name);
    if (found != stats.end()) {
      const PtxasKernelStats &s = found->second;
      args.push_back({"Registers", std::to_string(s.registers)});
      args.push_back({"SpillStoreBytes", std::to_string(s.spillStores)});
      args.push_back({"SpillLoadBytes", std::to_string(s.spillLoads)});
      args.push_back({"StackFrameBytes", std::to_string(s.stackFrame)});
    }
    for (const auto &[family, count] : countInstructionFamilies(ptx, kernel.name))
      args.push_back({"Instr." + family, std::to_string(count)});

    llvm::remarks::Remark remark;
    remark.RemarkType = llvm::remarks::Type::Analysis;
    remark.PassName = "tilepipe";
    remark.RemarkName = "KernelSummary";
    remark.FunctionName = kernel.name;
    for (const auto &[key, value] : args)
      remark.Args.emplace_back(key, value);
    (*serializer)->emit(remark);
  }
  return text;
}
