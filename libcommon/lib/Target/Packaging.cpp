//===- Packaging.cpp - cubin -> fatbin / host object; kernel metadata -----===//
#include "tilepipe/Target/Packaging.h"

#include "tilepipe/Support/CudaToolkit.h"

#include "ToolRunner.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"

using namespace tilepipe;
using namespace tilepipe::detail;

//===----------------------------------------------------------------------===//
// Kernel launch facts
//===----------------------------------------------------------------------===//

/// "128, 1, 1" -> {128, 1, 1} (missing dimensions are 1).
static std::array<unsigned, 3> parseDims(llvm::StringRef text) {
  std::array<unsigned, 3> dims = {1, 1, 1};
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',');
  for (size_t i = 0; i < parts.size() && i < 3; ++i)
    parts[i].trim().getAsInteger(10, dims[i]);
  return dims;
}

/// Static shared memory per kernel: the size of each `.nv.shared.<kernel>`
/// section of the cubin.
static llvm::StringMap<uint64_t> sharedSizes(llvm::StringRef cubin) {
  llvm::StringMap<uint64_t> sizes;
  auto file = llvm::object::ELF64LEFile::create(cubin);
  if (!file) {
    llvm::consumeError(file.takeError());
    return sizes;
  }
  auto sections = file->sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return sizes;
  }
  for (const auto &section : *sections) {
    auto name = file->getSectionName(section);
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    llvm::StringRef kernel = *name;
    if (kernel.consume_front(".nv.shared."))
      sizes[kernel] = section.sh_size;
  }
  return sizes;
}

std::vector<KernelLaunchInfo> tilepipe::describeKernels(llvm::StringRef ptx,
                                                        llvm::StringRef cubin) {
  std::vector<KernelLaunchInfo> kernels;
  bool inHeader = false; // between `.entry NAME(` and its body's `{`
  llvm::StringRef rest = ptx;
  while (!rest.empty()) {
    llvm::StringRef line;
    std::tie(line, rest) = rest.split('\n');
    line = line.trim();
    size_t entry = line.find(".entry ");
    if (entry != llvm::StringRef::npos &&
        (entry == 0 || line.substr(0, entry).ends_with(" "))) {
      KernelLaunchInfo info;
      info.name = line.substr(entry + 7).take_until([](char c) {
        return c == '(' || llvm::isSpace(c);
      }).str();
      kernels.push_back(info);
      inHeader = true;
      continue;
    }
    if (!inHeader)
      continue;
    if (line.starts_with("{")) {
      inHeader = false;
      continue;
    }
    KernelLaunchInfo &info = kernels.back();
    if (line.consume_front(".reqntid"))
      info.ctaSize = parseDims(line);
    else if (line.consume_front(".reqnctapercluster"))
      info.clusterShape = parseDims(line);
    else if (line.starts_with(".blocksareclusters"))
      info.blocksAreClusters = true;
  }
  llvm::StringMap<uint64_t> shared = sharedSizes(cubin);
  for (KernelLaunchInfo &info : kernels)
    info.staticSharedBytes = shared.lookup(info.name);
  return kernels;
}

static constexpr llvm::StringLiteral kNoteHeader = "tilepipe-kernels 1";

std::string tilepipe::formatKernelNote(llvm::ArrayRef<KernelLaunchInfo> kernels) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kNoteHeader << "\n";
  auto dims = [&](const std::array<unsigned, 3> &d) {
    os << d[0] << "," << d[1] << "," << d[2];
  };
  for (const KernelLaunchInfo &kernel : kernels) {
    os << "kernel " << kernel.name << " cta=";
    dims(kernel.ctaSize);
    os << " cluster=";
    dims(kernel.clusterShape);
    os << " blocks-are-clusters=" << (kernel.blocksAreClusters ? 1 : 0)
       << " smem=" << kernel.staticSharedBytes << "\n";
  }
  return text;
}

llvm::Expected<std::vector<KernelLaunchInfo>>
tilepipe::parseKernelNote(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.empty() || lines.front().trim() != kNoteHeader)
    return makeError("not a tilepipe kernel note (no '" + kNoteHeader + "' line)");
  std::vector<KernelLaunchInfo> kernels;
  for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front()) {
    llvm::SmallVector<llvm::StringRef> fields;
    llvm::SplitString(line, fields);
    if (fields.size() != 6 || fields[0] != "kernel")
      return makeError("malformed kernel note line '" + line + "'");
    KernelLaunchInfo info;
    info.name = fields[1].str();
    for (llvm::StringRef field : llvm::ArrayRef(fields).drop_front(2)) {
      auto [key, value] = field.split('=');
      if (key == "cta")
        info.ctaSize = parseDims(value);
      else if (key == "cluster")
        info.clusterShape = parseDims(value);
      else if (key == "blocks-are-clusters")
        info.blocksAreClusters = value == "1";
      else if (key != "smem" || value.getAsInteger(10, info.staticSharedBytes))
        return makeError("malformed kernel note field '" + field + "'");
    }
    kernels.push_back(std::move(info));
  }
  return kernels;
}

//===----------------------------------------------------------------------===//
// fatbinary
//===----------------------------------------------------------------------===//

llvm::Expected<std::string>
tilepipe::createFatbinary(llvm::StringRef cubin, llvm::StringRef ptx,
                          const FatbinaryOptions &options, llvm::raw_ostream &log,
                          llvm::raw_ostream *commandLine) {
  std::string fatbinary = options.fatbinaryPath;
  if (fatbinary.empty()) {
    llvm::Expected<std::string> found = findCudaTool("fatbinary");
    if (!found)
      return found.takeError();
    fatbinary = *found;
  }
  TempFile cubinFile, ptxFile, output;
  for (auto [file, suffix] : {std::pair{&cubinFile, "cubin"}, {&ptxFile, "ptx"},
                              {&output, "fatbin"}})
    if (llvm::Error error = file->create(suffix))
      return std::move(error);
  if (llvm::Error error = writeFile(cubinFile.path, cubin))
    return std::move(error);
  // The cubin's SM without the a/f suffix; the PTX keeps its virtual arch.
  std::string sm = std::to_string(options.gpu.sm);
  std::string cubinImage = "--image3=kind=elf,sm=" + sm + ",file=" +
                           cubinFile.path.str().str();
  std::string ptxImage = "--image3=kind=ptx,sm=" + sm + ",file=" +
                         ptxFile.path.str().str();
  std::string create = "--create=" + output.path.str().str();
  llvm::SmallVector<llvm::StringRef> args{fatbinary, "-64", create, cubinImage};
  if (options.embedPTX) {
    if (llvm::Error error = writeFile(ptxFile.path, ptx))
      return std::move(error);
    args.push_back(ptxImage);
  }
  if (options.deviceDebug)
    args.push_back("-g");
  if (llvm::Error error = runTool("fatbinary", args, log, commandLine))
    return std::move(error);
  return readFile(output.path);
}

//===----------------------------------------------------------------------===//
// Host relocatable object
//===----------------------------------------------------------------------===//

namespace {
/// Builds a minimal ELF64 little-endian relocatable: a few read-only data
/// sections, each with one or more global data symbols, and nothing to
/// relocate.
class HostObjectWriter {
public:
  explicit HostObjectWriter(HostArch arch) : arch(arch) {
    sectionNames.push_back('\0');
    symbolNames.push_back('\0');
  }

  /// Adds a read-only section; returns its index.
  unsigned addSection(llvm::StringRef name, std::string contents,
                      uint64_t alignment) {
    sections.push_back({addName(sectionNames, name), std::move(contents),
                        alignment, llvm::ELF::SHT_PROGBITS,
                        llvm::ELF::SHF_ALLOC});
    return sections.size(); // index 0 is the null section
  }

  void addSymbol(llvm::StringRef name, unsigned section, uint64_t offset,
                 uint64_t size) {
    symbols.push_back({addName(symbolNames, name), section, offset, size});
  }

  std::string write() {
    // A non-executable stack, as every toolchain object says.
    sections.push_back({addName(sectionNames, ".note.GNU-stack"), "", 1,
                        llvm::ELF::SHT_PROGBITS, 0});
    unsigned symtabIndex = sections.size() + 1;
    sections.push_back({addName(sectionNames, ".symtab"), symbolTable(), 8,
                        llvm::ELF::SHT_SYMTAB, 0});
    sections.push_back({addName(sectionNames, ".strtab"), symbolNames, 1,
                        llvm::ELF::SHT_STRTAB, 0});
    unsigned shstrtabName = addName(sectionNames, ".shstrtab");
    sections.push_back({shstrtabName, sectionNames, 1, llvm::ELF::SHT_STRTAB, 0});

    std::string out(sizeof(llvm::ELF::Elf64_Ehdr), '\0');
    std::vector<uint64_t> offsets;
    for (const Section &section : sections) {
      while (out.size() % section.alignment)
        out.push_back('\0');
      offsets.push_back(out.size());
      out += section.contents;
    }
    while (out.size() % 8)
      out.push_back('\0');
    uint64_t sectionHeaders = out.size();

    append(out, llvm::ELF::Elf64_Shdr{}); // the null section
    for (size_t i = 0; i < sections.size(); ++i) {
      const Section &section = sections[i];
      llvm::ELF::Elf64_Shdr header{};
      header.sh_name = section.name;
      header.sh_type = section.type;
      header.sh_flags = section.flags;
      header.sh_offset = offsets[i];
      header.sh_size = section.contents.size();
      header.sh_addralign = section.alignment;
      if (section.type == llvm::ELF::SHT_SYMTAB) {
        header.sh_link = symtabIndex + 1; // .strtab
        header.sh_info = 1;               // first global symbol
        header.sh_entsize = sizeof(llvm::ELF::Elf64_Sym);
      }
      append(out, header);
    }

    llvm::ELF::Elf64_Ehdr header{};
    std::memcpy(header.e_ident, llvm::ELF::ElfMagic, 4);
    header.e_ident[llvm::ELF::EI_CLASS] = llvm::ELF::ELFCLASS64;
    header.e_ident[llvm::ELF::EI_DATA] = llvm::ELF::ELFDATA2LSB;
    header.e_ident[llvm::ELF::EI_VERSION] = llvm::ELF::EV_CURRENT;
    header.e_ident[llvm::ELF::EI_OSABI] = llvm::ELF::ELFOSABI_NONE;
    header.e_type = llvm::ELF::ET_REL;
    header.e_machine =
        arch == HostArch::X86_64 ? llvm::ELF::EM_X86_64 : llvm::ELF::EM_AARCH64;
    header.e_version = llvm::ELF::EV_CURRENT;
    header.e_shoff = sectionHeaders;
    header.e_ehsize = sizeof(llvm::ELF::Elf64_Ehdr);
    header.e_shentsize = sizeof(llvm::ELF::Elf64_Shdr);
    header.e_shnum = sections.size() + 1;
    header.e_shstrndx = sections.size();
    std::memcpy(out.data(), &header, sizeof(header));
    return out;
  }

private:
  struct Section {
    unsigned name;
    std::string contents;
    uint64_t alignment;
    uint32_t type;
    uint64_t flags;
  };
  struct Symbol {
    unsigned name;
    unsigned section;
    uint64_t offset;
    uint64_t size;
  };

  static unsigned addName(std::string &table, llvm::StringRef name) {
    unsigned offset = table.size();
    table += name;
    table.push_back('\0');
    return offset;
  }

  template <typename T> static void append(std::string &out, const T &value) {
    out.append(reinterpret_cast<const char *>(&value), sizeof(value));
  }

  std::string symbolTable() const {
    std::string table;
    append(table, llvm::ELF::Elf64_Sym{}); // the null symbol
    for (const Symbol &symbol : symbols) {
      llvm::ELF::Elf64_Sym entry{};
      entry.st_name = symbol.name;
      entry.setBindingAndType(llvm::ELF::STB_GLOBAL, llvm::ELF::STT_OBJECT);
      entry.st_shndx = symbol.section;
      entry.st_value = symbol.offset;
      entry.st_size = symbol.size;
      append(table, entry);
    }
    return table;
  }

  HostArch arch;
  std::vector<Section> sections;
  std::vector<Symbol> symbols;
  std::string sectionNames, symbolNames;
};
} // namespace

std::string tilepipe::writeHostObject(const HostObjectContents &contents,
                                      HostArch arch) {
  static_assert(llvm::endianness::native == llvm::endianness::little,
                "the host object writer copies native structs");
  HostObjectWriter writer(arch);
  // The image, then its size as a u64 at the next 8-byte boundary.
  std::string image = contents.image.str();
  uint64_t imageSize = image.size();
  image.resize(llvm::alignTo(image.size(), 8), '\0');
  uint64_t sizeOffset = image.size();
  char sizeBytes[8];
  llvm::support::endian::write64le(sizeBytes, imageSize);
  image.append(sizeBytes, 8);
  unsigned imageSection = writer.addSection(".tilepipe.image", image, 16);
  writer.addSymbol("__tilepipe_image", imageSection, 0, imageSize);
  writer.addSymbol("__tilepipe_image_size", imageSection, sizeOffset, 8);

  std::string note = contents.kernelNote;
  note.push_back('\0');
  uint64_t noteSize = note.size();
  unsigned noteSection = writer.addSection(".tilepipe.kernels", std::move(note), 1);
  writer.addSymbol("__tilepipe_kernels", noteSection, 0, noteSize);

  if (contents.ptx) {
    std::string ptx = contents.ptx->str();
    ptx.push_back('\0');
    uint64_t ptxSize = ptx.size();
    unsigned ptxSection = writer.addSection(".tilepipe.ptx", std::move(ptx), 1);
    writer.addSymbol("__tilepipe_ptx", ptxSection, 0, ptxSize);
  }
  return writer.write();
}
