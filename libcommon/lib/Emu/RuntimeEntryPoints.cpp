//===- RuntimeEntryPoints.cpp - What the JIT-compiled kernel calls --------===//
//
// The rewritten module declares these extern "C" functions; the JIT binds the
// names to the addresses listed by runtimeSymbols(). Half-precision libcalls
// are provided here too because the host's libgcc may lack them: LLVM passes
// half and bfloat values in XMM registers, so they are declared with float
// parameters whose low 16 bits carry the value.
//
//===----------------------------------------------------------------------===//
#include "RuntimeEntryPoints.h"

#include "FloatBits.h"
#include "Intrinsics.h"
#include "Runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tilepipe::emu;

extern "C" {

static void tp_emu_check(void *address, uint64_t size, uint32_t align, uint32_t flags) {
  Runtime::active().checkAccess(reinterpret_cast<uintptr_t>(address), size, align, flags);
}

static uint64_t tp_emu_sreg(uint32_t which) {
  return Runtime::active().specialRegister(SpecialReg(which));
}

static void tp_emu_intrinsic(const IntrinsicHandler *handler, const uint8_t *args,
                             uint8_t *ret) {
  handler->fn(*handler, args, ret);
}

static bool validForPrintf(const void *address, uint64_t size) {
  return Runtime::active().isValidRange(reinterpret_cast<uintptr_t>(address), size);
}

static int32_t tp_emu_vprintf(const char *fmt, const uint8_t *args) {
  Runtime &rt = Runtime::active();
  if (!rt.isValidRange(reinterpret_cast<uintptr_t>(fmt), 1))
    rt.fail("printf with an invalid format string pointer");
  std::string text = formatDevicePrintf(fmt, args, validForPrintf);
  rt.printfStream() << text;
  rt.printfStream().flush();
  return int32_t(text.size());
}

static void tp_emu_assertfail(const char *message, const char *file, uint32_t line,
                              const char *function, uint64_t) {
  Runtime &rt = Runtime::active();
  auto safe = [&](const char *s) -> std::string {
    return s && rt.isValidRange(reinterpret_cast<uintptr_t>(s), 1) ? s : "?";
  };
  rt.fail("assertion `" + safe(message) + "' failed at " + safe(file) + ":" +
          std::to_string(line) + " in " + safe(function));
}

static void *tp_emu_malloc(uint64_t bytes) { return Runtime::active().deviceMalloc(bytes); }
static void tp_emu_free(void *pointer) { Runtime::active().deviceFree(pointer); }

static void tp_emu_trap() { Runtime::active().fail("trap instruction executed"); }

static float tp_emu_truncsfhf2(float value) {
  return bitsFloat(floatToHalf(value));
}
static float tp_emu_truncdfhf2(double value) { return bitsFloat(doubleToHalf(value)); }
static float tp_emu_extendhfsf2(float half) {
  return halfToFloat(uint16_t(floatBits(half)));
}
static float tp_emu_truncsfbf2(float value) { return bitsFloat(floatToBFloat(value)); }
static float tp_emu_truncdfbf2(double value) {
  // Double rounding through float is harmless for the values kernels convert
  // except in rare ties; PTX has no direct f64->bf16 cvt before sm_90 either.
  return bitsFloat(floatToBFloat(float(value)));
}
static uint16_t tp_emu_gnu_f2h(float value) { return floatToHalf(value); }
static float tp_emu_gnu_h2f(uint16_t bits) { return halfToFloat(bits); }

} // extern "C"

std::vector<std::pair<llvm::StringRef, void *>> tilepipe::emu::runtimeSymbols() {
  return {
      {"tp_emu_check", reinterpret_cast<void *>(&tp_emu_check)},
      {"tp_emu_sreg", reinterpret_cast<void *>(&tp_emu_sreg)},
      {"tp_emu_intrinsic", reinterpret_cast<void *>(&tp_emu_intrinsic)},
      {"tp_emu_vprintf", reinterpret_cast<void *>(&tp_emu_vprintf)},
      {"tp_emu_assertfail", reinterpret_cast<void *>(&tp_emu_assertfail)},
      {"tp_emu_trap", reinterpret_cast<void *>(&tp_emu_trap)},
      {"tp_emu_malloc", reinterpret_cast<void *>(&tp_emu_malloc)},
      {"tp_emu_free", reinterpret_cast<void *>(&tp_emu_free)},
      {"tp_emu_shared_base", reinterpret_cast<void *>(&tp_emu_shared_base)},
      {"__truncsfhf2", reinterpret_cast<void *>(&tp_emu_truncsfhf2)},
      {"__truncdfhf2", reinterpret_cast<void *>(&tp_emu_truncdfhf2)},
      {"__extendhfsf2", reinterpret_cast<void *>(&tp_emu_extendhfsf2)},
      {"__truncsfbf2", reinterpret_cast<void *>(&tp_emu_truncsfbf2)},
      {"__truncdfbf2", reinterpret_cast<void *>(&tp_emu_truncdfbf2)},
      {"__gnu_f2h_ieee", reinterpret_cast<void *>(&tp_emu_gnu_f2h)},
      {"__gnu_h2f_ieee", reinterpret_cast<void *>(&tp_emu_gnu_h2f)},
  };
}

//===----------------------------------------------------------------------===//
// printf
//===----------------------------------------------------------------------===//

namespace {
/// Reads the packed vprintf argument buffer: every argument is aligned to
/// its own size.
class ArgReader {
public:
  explicit ArgReader(const uint8_t *args) : args_(args) {}
  template <class T> T next() {
    offset_ = (offset_ + sizeof(T) - 1) & ~(sizeof(T) - 1);
    T value{};
    if (args_)
      std::memcpy(&value, args_ + offset_, sizeof(T));
    offset_ += sizeof(T);
    return value;
  }

private:
  const uint8_t *args_;
  size_t offset_ = 0;
};
} // namespace

std::string tilepipe::emu::formatDevicePrintf(const char *fmt, const uint8_t *args,
                                              bool (*valid)(const void *, uint64_t)) {
  std::string out;
  ArgReader reader(args);
  char buffer[512];
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      out += *p++;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      p += 2;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    std::string spec = "%";
    const char *q = p + 1;
    while (*q && std::strchr("-+ #0", *q))
      spec += *q++;
    auto number = [&]() {
      if (*q == '*') {
        spec += std::to_string(reader.next<int32_t>());
        ++q;
        return;
      }
      while (*q >= '0' && *q <= '9')
        spec += *q++;
    };
    number();
    if (*q == '.') {
      spec += *q++;
      number();
    }
    std::string length;
    while (*q && std::strchr("hlLzjt", *q))
      length += *q++;
    char conv = *q;
    if (!conv) {
      out += p;
      break;
    }
    p = q + 1;
    bool wide = length == "l" || length == "ll" || length == "z" || length == "j" ||
                length == "t";
    switch (conv) {
    case 'd':
    case 'i': {
      int64_t v = wide ? reader.next<int64_t>() : reader.next<int32_t>();
      if (length == "h")
        v = int16_t(v);
      else if (length == "hh")
        v = int8_t(v);
      std::snprintf(buffer, sizeof buffer, (spec + "ll" + conv).c_str(), (long long)v);
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'c': {
      uint64_t v = wide ? reader.next<uint64_t>() : reader.next<uint32_t>();
      if (length == "h")
        v = uint16_t(v);
      else if (length == "hh" || conv == 'c')
        v = uint8_t(v);
      if (conv == 'c')
        std::snprintf(buffer, sizeof buffer, (spec + conv).c_str(), int(v));
      else
        std::snprintf(buffer, sizeof buffer, (spec + "ll" + conv).c_str(),
                      (unsigned long long)v);
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      std::snprintf(buffer, sizeof buffer, (spec + conv).c_str(), reader.next<double>());
      break;
    case 'p':
      std::snprintf(buffer, sizeof buffer, "0x%llx", (unsigned long long)reader.next<uint64_t>());
      break;
    case 's': {
      auto *s = reinterpret_cast<const char *>(reader.next<uint64_t>());
      std::string text = "(invalid string)";
      if (!s)
        text = "(null)";
      else if (valid(s, 1)) {
        text.clear();
        for (const char *c = s; valid(c, 1) && *c && text.size() < 4096; ++c)
          text += *c;
      }
      std::snprintf(buffer, sizeof buffer, (spec + 's').c_str(), text.c_str());
      break;
    }
    default: // unknown conversion: print it as is
      std::snprintf(buffer, sizeof buffer, "%%%s%c", length.c_str(), conv);
      break;
    }
    out += buffer;
  }
  return out;
}
