//===- Npy.cpp - numpy .npy reading and writing ---------------------------===//
#include "tilepipe/Emu/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"

using namespace tilepipe::emu;
using llvm::StringRef;

static llvm::Error npyError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "invalid .npy file: " + message);
}

unsigned tilepipe::emu::npyDtypeSize(StringRef descr) {
  if (descr.size() < 3)
    return 0;
  char order = descr[0];
  char kind = descr[1];
  unsigned size = 0;
  if (descr.drop_front(2).getAsInteger(10, size))
    return 0;
  // '|' (not applicable) only for one-byte types; big-endian is refused.
  if (order != '<' && order != '|' && !(order == '=' && size == 1))
    return 0;
  if (order == '|' && size != 1)
    return 0;
  switch (kind) {
  case 'b':
    return size == 1 ? 1 : 0;
  case 'i':
  case 'u':
    return (size == 1 || size == 2 || size == 4 || size == 8) ? size : 0;
  case 'f':
    return (size == 2 || size == 4 || size == 8) ? size : 0;
  case 'V': // bfloat16 as raw two-byte voids
    return size == 2 ? 2 : 0;
  default:
    return 0;
  }
}

unsigned NpyArray::elementSize() const { return npyDtypeSize(descr); }

/// Returns the text of a quoted python string value following `key`.
static std::optional<StringRef> findStringValue(StringRef header, StringRef key) {
  size_t pos = header.find(key);
  if (pos == StringRef::npos)
    return std::nullopt;
  StringRef rest = header.drop_front(pos + key.size()).ltrim(" :");
  if (rest.empty() || (rest[0] != '\'' && rest[0] != '"'))
    return std::nullopt;
  char quote = rest[0];
  rest = rest.drop_front();
  size_t end = rest.find(quote);
  if (end == StringRef::npos)
    return std::nullopt;
  return rest.take_front(end);
}

static llvm::Error parseShape(StringRef header, std::vector<uint64_t> &shape) {
  size_t pos = header.find("'shape'");
  if (pos == StringRef::npos)
    return npyError("header has no 'shape'");
  StringRef rest = header.drop_front(pos + 7).ltrim(" :");
  if (!rest.consume_front("("))
    return npyError("'shape' is not a tuple");
  size_t end = rest.find(')');
  if (end == StringRef::npos)
    return npyError("unterminated 'shape' tuple");
  llvm::SmallVector<StringRef, 4> items;
  rest.take_front(end).split(items, ',');
  for (StringRef item : items) {
    item = item.trim();
    if (item.empty())
      continue;
    if (item.ends_with("L"))
      item = item.drop_back();
    uint64_t dim;
    if (item.getAsInteger(10, dim))
      return npyError("bad dimension '" + item + "'");
    shape.push_back(dim);
  }
  return llvm::Error::success();
}

llvm::Expected<NpyArray> tilepipe::emu::parseNpy(StringRef contents) {
  if (!contents.starts_with("\x93NUMPY") || contents.size() < 10)
    return npyError("missing \\x93NUMPY magic");
  unsigned major = uint8_t(contents[6]);
  size_t headerLen, headerStart;
  if (major == 1) {
    headerLen = llvm::support::endian::read16le(contents.data() + 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (contents.size() < 12)
      return npyError("truncated header");
    headerLen = llvm::support::endian::read32le(contents.data() + 8);
    headerStart = 12;
  } else {
    return npyError("unsupported format version " + llvm::Twine(major));
  }
  if (contents.size() < headerStart + headerLen)
    return npyError("truncated header");
  StringRef header = contents.substr(headerStart, headerLen);

  NpyArray array;
  auto descr = findStringValue(header, "'descr'");
  if (!descr)
    return npyError("header has no 'descr' string");
  array.descr = descr->str();
  if (!array.elementSize())
    return npyError("unsupported dtype '" + *descr +
                    "' (little-endian bool, int, uint, float and bfloat16 as <V2 are)");
  if (header.contains("'fortran_order': True"))
    return npyError("Fortran-ordered arrays are not supported");
  if (llvm::Error err = parseShape(header, array.shape))
    return std::move(err);

  uint64_t count = 1;
  for (uint64_t dim : array.shape) {
    if (dim && count > (uint64_t(1) << 40) / dim)
      return npyError("array is too large");
    count *= dim;
  }
  uint64_t bytes = count * array.elementSize();
  StringRef payload = contents.drop_front(headerStart + headerLen);
  if (payload.size() != bytes)
    return npyError("payload has " + llvm::Twine(payload.size()) +
                    " bytes, the header describes " + llvm::Twine(bytes));
  array.data.assign(payload.begin(), payload.end());
  return array;
}

std::string tilepipe::emu::serializeNpy(const NpyArray &array) {
  std::string dict = "{'descr': '" + array.descr + "', 'fortran_order': False, 'shape': (";
  for (uint64_t dim : array.shape)
    dict += std::to_string(dim) + ", ";
  if (array.shape.size() > 1)
    dict.resize(dict.size() - 2); // "(3, 4)" but "(3,)"
  else if (array.shape.size() == 1)
    dict.pop_back();
  dict += "), }";
  // Pad with spaces so that the payload starts 64-byte aligned; end with '\n'.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';

  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(dict.size() & 0xff);
  out += char(dict.size() >> 8);
  out += dict;
  out.append(reinterpret_cast<const char *>(array.data.data()), array.data.size());
  return out;
}
