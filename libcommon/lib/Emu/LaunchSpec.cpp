//===- LaunchSpec.cpp - tile-emu's --grid / --param and buffer files ------===//
#include "tilepipe/Emu/LaunchSpec.h"

#include "tilepipe/Support/ToolIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace tilepipe::emu;

static Error usageError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

Expected<Dim3> tilepipe::emu::parseDim3(StringRef text) {
  SmallVector<StringRef, 3> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return usageError("expected X[,Y[,Z]], got '" + text + "'");
  Dim3 dims;
  uint32_t *slots[3] = {&dims.x, &dims.y, &dims.z};
  for (auto [i, part] : enumerate(parts)) {
    uint64_t value;
    if (part.trim().getAsInteger(10, value) || value == 0 || value > 0x7fffffff)
      return usageError("expected X[,Y[,Z]] of positive integers, got '" + text + "'");
    *slots[i] = value;
  }
  return dims;
}

Expected<ParamSpec> tilepipe::emu::parseParamSpec(StringRef text) {
  auto [type, value] = text.split(':');
  ParamSpec spec;
  spec.type = type.str();
  bool known = StringSwitch<bool>(type)
                   .Cases({"i1", "i8", "i16", "i32", "i64"}, true)
                   .Cases({"f16", "bf16", "f32", "f64", "ptr"}, true)
                   .Default(false);
  if (!known || !text.contains(':') || value.empty())
    return usageError("bad --param '" + text +
                      "' (expected i1|i8|i16|i32|i64:INT, f16|bf16|f32|f64:FLOAT or "
                      "ptr:FILE.npy[+BYTES])");
  if (type == "ptr") {
    size_t plus = value.rfind('+');
    if (plus != StringRef::npos && plus > 0) {
      uint64_t bytes;
      if (value.drop_front(plus + 1).getAsInteger(0, bytes))
        return usageError("bad byte offset in --param '" + text + "'");
      spec.byteOffset = bytes;
      value = value.take_front(plus);
    }
  }
  spec.value = value.str();
  return spec;
}

Expected<PointerPatch> tilepipe::emu::parsePointerPatch(StringRef text) {
  auto [into, from] = text.split('=');
  auto [intoPath, word] = into.rsplit('@');
  PointerPatch patch;
  auto bad = [&] {
    return usageError("bad --pointer-into '" + text +
                      "' (expected INTO.npy@WORD=FROM.npy[+BYTES])");
  };
  if (!text.contains('=') || !into.contains('@') || intoPath.empty() || from.empty() ||
      word.getAsInteger(0, patch.word))
    return bad();
  size_t plus = from.rfind('+');
  if (plus != StringRef::npos && plus > 0) {
    if (from.drop_front(plus + 1).getAsInteger(0, patch.byteOffset))
      return bad();
    from = from.take_front(plus);
  }
  patch.into = intoPath.str();
  patch.from = from.str();
  return patch;
}

Expected<KernelArg> tilepipe::emu::makeScalarArg(const ParamSpec &spec) {
  StringRef type = spec.type, value = StringRef(spec.value).trim();
  if (type.starts_with("i")) {
    unsigned bits = 0;
    type.drop_front().getAsInteger(10, bits);
    int64_t signedValue;
    uint64_t unsignedValue;
    if (!value.getAsInteger(0, signedValue))
      unsignedValue = uint64_t(signedValue);
    else if (value.getAsInteger(0, unsignedValue))
      return usageError("bad integer '" + value + "' for --param " + type);
    if (bits < 64) {
      int64_t min = -(int64_t(1) << (bits - 1));
      uint64_t maxUnsigned = (uint64_t(1) << bits) - 1;
      bool fits = bits == 1 ? unsignedValue <= 1
                            : (int64_t(unsignedValue) >= min && int64_t(unsignedValue) < 0) ||
                                  unsignedValue <= maxUnsigned;
      if (!fits)
        return usageError("integer '" + value + "' does not fit " + type);
    }
    return KernelArg::integer(bits, unsignedValue);
  }
  std::string copy = value.str();
  char *end = nullptr;
  double number = std::strtod(copy.c_str(), &end);
  if (copy.empty() || *end != '\0')
    return usageError("bad number '" + value + "' for --param " + type);
  if (type == "f64")
    return KernelArg::f64(number);
  if (type == "f32")
    return KernelArg::f32(float(number));
  if (type == "f16")
    return KernelArg::f16(float(number));
  return KernelArg::bf16(float(number));
}

Buffer::~Buffer() { std::free(data); }

Expected<Buffer *> BufferSet::load(StringRef path) {
  SmallString<256> canonical;
  if (sys::fs::real_path(path, canonical))
    canonical = path;
  for (auto &buffer : buffers_)
    if (buffer->path == canonical)
      return buffer.get();
  auto contents = tilepipe::readInputFile(path);
  if (!contents)
    return contents.takeError();
  auto array = parseNpy((*contents)->getBuffer());
  if (!array)
    return createStringError(inconvertibleErrorCode(),
                             path + ": " + toString(array.takeError()));
  auto buffer = std::make_unique<Buffer>();
  buffer->path = canonical.str().str();
  buffer->name = sys::path::stem(path).str();
  for (auto &other : buffers_)
    if (other->name == buffer->name)
      return createStringError(inconvertibleErrorCode(),
                               "buffers '" + other->path + "' and '" + path +
                                   "' would both be written to " + buffer->name + ".npy");
  buffer->array = std::move(*array);
  buffer->bytes = buffer->array.data.size();
  buffer->data = static_cast<uint8_t *>(std::aligned_alloc(256, alignTo(std::max<uint64_t>(buffer->bytes, 1), 256)));
  if (!buffer->data)
    return createStringError(inconvertibleErrorCode(), "out of memory for " + path);
  std::memcpy(buffer->data, buffer->array.data.data(), buffer->bytes);
  buffers_.push_back(std::move(buffer));
  return buffers_.back().get();
}

Error BufferSet::writeAll(StringRef dir) const {
  if (std::error_code ec = sys::fs::create_directories(dir))
    return createStringError(ec, "cannot create output directory '" + dir + "': " + ec.message());
  for (const auto &buffer : buffers_) {
    NpyArray out = buffer->array;
    std::memcpy(out.data.data(), buffer->data, buffer->bytes);
    SmallString<256> path(dir);
    sys::path::append(path, buffer->name + ".npy");
    tilepipe::OutputOptions options;
    options.path = path.str().str();
    options.binary = true;
    options.force = true;
    if (Error err = tilepipe::writeOutput(options, serializeNpy(out)))
      return err;
  }
  return Error::success();
}
