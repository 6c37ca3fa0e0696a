//===- Tcgen05Asm.cpp - The tcgen05 family from inline PTX -----------------===//
//
// CUDA code (CUTLASS's cute::TMEM and UMMA atoms, hand-written kernels)
// reaches tcgen05 through inline PTX, one instruction per asm statement:
//   tcgen05.alloc.cta_group::1.sync.aligned[.shared::cta].b32 [$dst], $ncols;
//   tcgen05.dealloc.cta_group::1.sync.aligned.b32 $taddr, $ncols;
//   tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
//   tcgen05.ld.sync.aligned.<shape>.x<N>[.pack::16b].b32 {$0, ...}, [$taddr][, split];
//   tcgen05.st.sync.aligned.<shape>.x<N>[.unpack::16b].b32 [$taddr][, split], {$i, ...};
//   tcgen05.wait::{ld,st}.sync.aligned; tcgen05.fence::{before,after}_thread_sync;
//   tcgen05.commit.cta_group::1.mbarrier::arrive::one[.shared::cluster][.multicast::cluster].b64
//     [$mbar][, $mask];
//   tcgen05.cp.cta_group::1.<shape> [$taddr], $sdesc;
//   tcgen05.shift.cta_group::1.down [$taddr];
//   { .reg .pred p; setp.ne.b32 p, $e, 0;
//     tcgen05.mma.cta_group::1.kind::<k> [$d], $a | [$a], $b, $idesc,
//       [{$m0, $m1, $m2, $m3},] p[, scale]; }
//   tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale[.scale_vec::1X | .block32]
//     [$d], $a | [$a], $b, $idesc, [$scaleA], [$scaleB], p;
// This file reads them into the operand positions of the call and runs the
// same thread-level operations as the intrinsics (Tcgen05Ops.cpp).
//
//===----------------------------------------------------------------------===//
#include "InlinePtxOperands.h"
#include "Runtime.h"
#include "Tcgen05.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DerivedTypes.h"

using namespace tilepipe::emu;
using llvm::StringRef;

namespace {

enum class AsmOp : uint8_t { NoOp, Alloc, Dealloc, Relinquish, Load, Store, Mma, Commit, Copy, Shift };

/// Where the operands of one tcgen05 asm statement come from.
struct Tcgen05AsmOperands {
  AsmOp op = AsmOp::NoOp;
  // alloc: dst, columns; dealloc: address (taddr), columns; ld/st: address,
  // halfSplit; commit: address (mbar); cp: address, b (the descriptor); mma:
  // see the mma fields.
  ScalarSource address, columns, halfSplit{-1, 0};
  bool sharedPointer = false; // alloc, commit: a shared state space address
  bool multicast = false;     // commit: the CTA mask is in `columns`
  TmemShape shape = TmemShape::S32x32b;
  TmemCopyShape copyShape = TmemCopyShape::S128x256b;
  unsigned num = 1;
  bool packed = false;
  llvm::SmallVector<unsigned, 8> registers; // ld: results; st: call arguments
  Tcgen05Kind kind = Tcgen05Kind::F16;
  bool aInTmem = false;
  ScalarSource d, a, b, idesc, enableInputD, scaleInputD{-1, 0};
  ScalarSource scaleA, scaleB; // kind::mxf8f6f4.block_scale
  std::array<ScalarSource, 4> disabledLanes = {ScalarSource{-1, 0}, ScalarSource{-1, 0},
                                               ScalarSource{-1, 0}, ScalarSource{-1, 0}};
};

/// An address operand: generic ones are host addresses; a shared state
/// space address (32-bit from cvta.to.shared, or a host pointer into shared
/// memory) keeps its offset in the 2^18-aligned shared window in its low
/// 18 bits.
uintptr_t pointerOperand(Runtime &rt, const ScalarSource &source, bool shared,
                         const IntrinsicHandler &h, const uint8_t *args) {
  auto value = uint64_t(source.read(h, args));
  if (!shared)
    return uintptr_t(value);
  return reinterpret_cast<uintptr_t>(rt.sharedWindow()) + (value & 0x3ffff);
}

void tcgen05AsmHandler(const IntrinsicHandler &h, const uint8_t *args, uint8_t *ret) {
  const auto &o = *static_cast<const Tcgen05AsmOperands *>(h.asmOperands.get());
  Runtime &rt = Runtime::active();
  auto u32 = [&](const ScalarSource &s) { return uint32_t(s.read(h, args)); };
  switch (o.op) {
  case AsmOp::NoOp: return;
  case AsmOp::Alloc:
    return tcgen05::alloc(pointerOperand(rt, o.address, o.sharedPointer, h, args),
                          u32(o.columns), o.sharedPointer);
  case AsmOp::Dealloc: return tcgen05::dealloc(u32(o.address), u32(o.columns));
  case AsmOp::Relinquish: return tcgen05::relinquishAllocPermit();
  case AsmOp::Load:
  case AsmOp::Store: {
    uint32_t regs[128];
    bool load = o.op == AsmOp::Load;
    if (!load)
      for (auto [i, arg] : llvm::enumerate(o.registers))
        regs[i] = h.arg<uint32_t>(args, arg);
    tcgen05::loadStore(load, o.shape, o.num, o.packed, u32(o.address), u32(o.halfSplit), regs);
    if (load)
      for (auto [i, output] : llvm::enumerate(o.registers))
        h.result(ret, regs[i], output);
    return;
  }
  case AsmOp::Mma: {
    Tcgen05MmaOp op;
    op.kind = o.kind;
    op.d = u32(o.d);
    op.aInTmem = o.aInTmem;
    if (o.aInTmem)
      op.aTmem = u32(o.a);
    else
      op.aDesc = uint64_t(o.a.read(h, args));
    op.bDesc = uint64_t(o.b.read(h, args));
    op.idesc = u32(o.idesc);
    op.enableInputD = o.enableInputD.read(h, args) != 0;
    op.scaleInputD = u32(o.scaleInputD);
    for (unsigned i = 0; i < 4; ++i)
      op.disabledLanes[i] = u32(o.disabledLanes[i]);
    if (o.kind == Tcgen05Kind::MXF8F6F4) {
      op.scaleA = u32(o.scaleA);
      op.scaleB = u32(o.scaleB);
    }
    return tcgen05::mma(op);
  }
  case AsmOp::Commit:
    return tcgen05::commit(pointerOperand(rt, o.address, o.sharedPointer, h, args),
                           o.multicast ? std::optional<uint16_t>(o.columns.read(h, args))
                                       : std::nullopt);
  case AsmOp::Copy: return tcgen05::copy(o.copyShape, u32(o.address), uint64_t(o.b.read(h, args)));
  case AsmOp::Shift: return tcgen05::shiftDown(u32(o.address));
  }
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

llvm::Error unsupported(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "unsupported tcgen05 inline PTX: " + why);
}

/// The qualifiers of an opcode, taken one by one; what is left over is
/// unsupported.
class Qualifiers {
public:
  explicit Qualifiers(StringRef opcode) { opcode.split(parts_, '.'); }
  bool take(StringRef q) {
    auto it = llvm::find(parts_, q);
    if (it == parts_.end())
      return false;
    parts_.erase(it);
    return true;
  }
  /// The first qualifier starting with `prefix` (removed), or "".
  StringRef takePrefixed(StringRef prefix) {
    for (auto it = parts_.begin(); it != parts_.end(); ++it)
      if (it->starts_with(prefix)) {
        StringRef q = it->drop_front(prefix.size());
        parts_.erase(it);
        return q;
      }
    return "";
  }
  /// The qualifiers not taken yet, joined by '.' (and taken).
  std::string takeRest() {
    std::string joined = llvm::join(parts_, ".");
    parts_.clear();
    return joined;
  }
  /// An error naming the qualifiers nobody took (success when none).
  llvm::Error rest(StringRef opcode) const {
    if (parts_.empty())
      return llvm::Error::success();
    return unsupported("qualifier ." + parts_.front() + " of '" + opcode + "'");
  }

private:
  llvm::SmallVector<StringRef, 8> parts_;
};

class Tcgen05AsmParser {
public:
  explicit Tcgen05AsmParser(const AsmSignature &sig) : sig_(sig), scalars_(sig) {}

  llvm::Error parse(StringRef text) {
    return parseAsmStatements(text, scalars_, "tcgen05", unsupported,
                              [&](StringRef, StringRef opcode, llvm::ArrayRef<StringRef> ops) {
                                opcode_ = opcode;
                                return parseInstruction(opcode, ops);
                              });
  }

  Tcgen05AsmOperands operands;

private:
  llvm::Error bad(const llvm::Twine &what) {
    return unsupported(what + " in '" + opcode_ + "'");
  }

  llvm::Error scalarInto(ScalarSource &into, StringRef text, const char *what) {
    std::optional<ScalarSource> source = scalars_.scalar(text);
    if (!source)
      return bad(llvm::Twine(what) + " operand '" + text + "'");
    into = *source;
    return llvm::Error::success();
  }

  /// "[$3]" -> $3.
  llvm::Error addressInto(ScalarSource &into, StringRef text, const char *what) {
    if (!text.consume_front("[") || !text.consume_back("]"))
      return bad(llvm::Twine(what) + " '" + text + "' (an address in brackets)");
    return scalarInto(into, text.trim(), what);
  }

  llvm::Error expectOperands(llvm::ArrayRef<StringRef> ops, size_t least, size_t most) {
    if (ops.size() < least || ops.size() > most)
      return bad(llvm::Twine(ops.size()) + " operands");
    return llvm::Error::success();
  }

  llvm::Error parseInstruction(StringRef opcode, llvm::ArrayRef<StringRef> ops) {
    Qualifiers q(opcode);
    q.take("tcgen05");
    Tcgen05AsmOperands &o = operands;
    // Ordering-only instructions: ld and st complete at issue.
    for (StringRef noOp : {"wait::ld", "wait::st", "fence::before_thread_sync",
                           "fence::after_thread_sync"})
      if (q.take(noOp)) {
        q.take("sync"), q.take("aligned");
        o.op = AsmOp::NoOp;
        return q.rest(opcode);
      }
    StringRef group = q.takePrefixed("cta_group::");
    if (!group.empty() && group != "1")
      return bad("cta_group::" + group +
                 " in inline PTX (the emulator runs a CTA pair's tcgen05 from the intrinsics)");
    llvm::Error e = llvm::Error::success();
    if (q.take("alloc")) {
      o.op = AsmOp::Alloc;
      o.sharedPointer = q.take("shared::cta");
      e = parseAllocation(q, ops, true);
    } else if (q.take("dealloc")) {
      o.op = AsmOp::Dealloc;
      e = parseAllocation(q, ops, false);
    } else if (q.take("relinquish_alloc_permit")) {
      o.op = AsmOp::Relinquish;
      q.take("sync"), q.take("aligned");
      e = expectOperands(ops, 0, 0);
    } else if (q.take("ld")) {
      o.op = AsmOp::Load;
      e = parseLoadStore(q, ops, true);
    } else if (q.take("st")) {
      o.op = AsmOp::Store;
      e = parseLoadStore(q, ops, false);
    } else if (q.take("commit")) {
      o.op = AsmOp::Commit;
      e = parseCommit(q, ops);
    } else if (q.take("shift")) {
      o.op = AsmOp::Shift;
      if (!q.take("down"))
        return bad("the direction (.down)");
      if (llvm::Error e = expectOperands(ops, 1, 1))
        return e;
      e = addressInto(o.address, ops[0], "taddr");
    } else if (q.take("cp")) {
      o.op = AsmOp::Copy;
      e = parseCopy(q, ops);
    } else if (q.take("mma")) {
      o.op = AsmOp::Mma;
      e = parseMma(q, ops);
    } else {
      return bad("the instruction");
    }
    if (e)
      return e;
    return q.rest(opcode);
  }

  llvm::Error parseAllocation(Qualifiers &q, llvm::ArrayRef<StringRef> ops, bool alloc) {
    q.take("sync"), q.take("aligned"), q.take("b32");
    if (llvm::Error e = expectOperands(ops, 2, 2))
      return e;
    llvm::Error e = alloc ? addressInto(operands.address, ops[0], "destination")
                          : scalarInto(operands.address, ops[0], "taddr");
    if (e)
      return e;
    return scalarInto(operands.columns, ops[1], "column count");
  }

  llvm::Error parseLoadStore(Qualifiers &q, llvm::ArrayRef<StringRef> ops, bool load) {
    Tcgen05AsmOperands &o = operands;
    q.take("sync"), q.take("aligned"), q.take("b32");
    o.packed = q.take(load ? "pack::16b" : "unpack::16b");
    static const std::pair<StringRef, TmemShape> shapes[] = {
        {"32x32b", TmemShape::S32x32b}, {"16x64b", TmemShape::S16x64b},
        {"16x128b", TmemShape::S16x128b}, {"16x256b", TmemShape::S16x256b},
        {"16x32bx2", TmemShape::S16x32bx2}};
    bool shaped = false;
    for (auto [name, shape] : shapes)
      if (q.take(name)) {
        o.shape = shape;
        shaped = true;
      }
    StringRef num = q.takePrefixed("x");
    if (!shaped || num.getAsInteger(10, o.num) || o.num == 0 || o.num > 128 ||
        (o.num & (o.num - 1)) || tmemRegisters(o.shape, o.num) > 128)
      return bad("the shape and .num");
    bool split = o.shape == TmemShape::S16x32bx2;
    if (llvm::Error e = expectOperands(ops, split ? 3 : 2, split ? 3 : 2))
      return e;
    StringRef regs = load ? ops[0] : ops.back();
    if (llvm::Error e = addressInto(o.address, load ? ops[1] : ops[0], "taddr"))
      return e;
    if (split)
      if (llvm::Error e = scalarInto(o.halfSplit, load ? ops[2] : ops[1], "immHalfSplitoff"))
        return e;
    llvm::SmallVector<StringRef, 8> list = registerList(regs);
    if (list.empty())
      list.push_back(regs);
    for (StringRef reg : list) {
      std::optional<unsigned> index = load ? sig_.output(reg) : sig_.argument(reg, 32);
      if (!index)
        return bad(llvm::Twine(load ? "destination" : "source") + " register '" + reg + "'");
      o.registers.push_back(*index);
    }
    if (o.registers.size() != tmemRegisters(o.shape, o.num))
      return bad(llvm::Twine(tmemRegisters(o.shape, o.num)) + " registers expected");
    return llvm::Error::success();
  }

  llvm::Error parseCommit(Qualifiers &q, llvm::ArrayRef<StringRef> ops) {
    if (!q.take("mbarrier::arrive::one"))
      return bad("the completion mechanism (.mbarrier::arrive::one)");
    // The shared::cluster mbarrier may be a peer CTA's; tcgen05::commit
    // checks a multicast mask against the cluster.
    operands.sharedPointer = q.take("shared::cluster") || q.take("shared::cta");
    q.take("b64");
    bool multicast = operands.multicast = q.take("multicast::cluster");
    if (llvm::Error e = expectOperands(ops, multicast ? 2 : 1, multicast ? 2 : 1))
      return e;
    if (multicast)
      if (llvm::Error e = scalarInto(operands.columns, ops[1], "CTA mask"))
        return e;
    return addressInto(operands.address, ops[0], "mbarrier");
  }

  llvm::Error parseCopy(Qualifiers &q, llvm::ArrayRef<StringRef> ops) {
    std::string shape = q.takeRest();
    std::optional<TmemCopyShape> parsed = parseTmemCopyShape(shape);
    if (!parsed) // the decompressing .b8x16 formats too
      return bad("shape ." + shape);
    operands.copyShape = *parsed;
    if (llvm::Error e = expectOperands(ops, 2, 2))
      return e;
    if (llvm::Error e = addressInto(operands.address, ops[0], "taddr"))
      return e;
    return scalarInto(operands.b, ops[1], "shared memory descriptor");
  }

  llvm::Error parseMma(Qualifiers &q, llvm::ArrayRef<StringRef> ops) {
    Tcgen05AsmOperands &o = operands;
    auto kind = llvm::StringSwitch<std::optional<Tcgen05Kind>>(q.takePrefixed("kind::"))
                    .Case("f16", Tcgen05Kind::F16)
                    .Case("tf32", Tcgen05Kind::TF32)
                    .Case("f8f6f4", Tcgen05Kind::F8F6F4)
                    .Case("i8", Tcgen05Kind::I8)
                    .Case("mxf8f6f4", Tcgen05Kind::MXF8F6F4)
                    .Default(std::nullopt);
    if (!kind)
      return bad("the .kind (f16, tf32, f8f6f4, i8 or mxf8f6f4)");
    o.kind = *kind;
    q.takePrefixed("collector::"); // operand reuse hints
    if (o.kind == Tcgen05Kind::MXF8F6F4)
      return parseBlockScaledMma(q, ops);
    // [d], a, b, idesc[, {disable-output-lane x4}], enable-input-d[, scale-input-d]
    if (llvm::Error e = expectOperands(ops, 5, 7))
      return e;
    unsigned next = 4;
    if (ops[4].starts_with("{")) {
      llvm::SmallVector<StringRef, 8> masks = registerList(ops[next++]);
      if (masks.size() != 4)
        return bad("disable-output-lane (4 words for cta_group::1)");
      for (auto [i, mask] : llvm::enumerate(masks))
        if (llvm::Error e = scalarInto(o.disabledLanes[i], mask, "disable-output-lane"))
          return e;
    }
    if (ops.size() <= next || ops.size() > next + 2)
      return bad(llvm::Twine(ops.size()) + " operands");
    if (llvm::Error e = parseMmaOperands(ops))
      return e;
    if (llvm::Error e = scalarInto(o.enableInputD, ops[next], "enable-input-d"))
      return e;
    if (ops.size() == next + 2)
      return scalarInto(o.scaleInputD, ops[next + 1], "scale-input-d");
    return llvm::Error::success();
  }

  /// The operands every tcgen05.mma starts with: [d], a (a tensor-memory
  /// address in brackets, else a shared-memory descriptor), b, idesc.
  llvm::Error parseMmaOperands(llvm::ArrayRef<StringRef> ops) {
    Tcgen05AsmOperands &o = operands;
    if (llvm::Error e = addressInto(o.d, ops[0], "D"))
      return e;
    o.aInTmem = ops[1].starts_with("[");
    if (llvm::Error e =
            o.aInTmem ? addressInto(o.a, ops[1], "A") : scalarInto(o.a, ops[1], "A"))
      return e;
    if (llvm::Error e = scalarInto(o.b, ops[2], "B descriptor"))
      return e;
    return scalarInto(o.idesc, ops[3], "instruction descriptor");
  }

  /// kind::mxf8f6f4.block_scale: scale_vec::1X, the only one of the kind,
  /// spelled or not (.block32 is its other name).
  llvm::Error parseBlockScaledMma(Qualifiers &q, llvm::ArrayRef<StringRef> ops) {
    Tcgen05AsmOperands &o = operands;
    if (!q.take("block_scale"))
      return bad("kind::mxf8f6f4 without .block_scale");
    if (!q.take("scale_vec::1X"))
      q.take("block32");
    // [d], a, b, idesc, [scale-A], [scale-B], enable-input-d
    if (llvm::Error e = expectOperands(ops, 7, 7))
      return e;
    if (llvm::Error e = parseMmaOperands(ops))
      return e;
    if (llvm::Error e = addressInto(o.scaleA, ops[4], "scale-A"))
      return e;
    if (llvm::Error e = addressInto(o.scaleB, ops[5], "scale-B"))
      return e;
    return scalarInto(o.enableInputD, ops[6], "enable-input-d");
  }

  const AsmSignature &sig_;
  AsmScalars scalars_;
  StringRef opcode_;
};

} // namespace

llvm::Expected<std::optional<IntrinsicHandler>>
tilepipe::emu::lookupTcgen05Asm(StringRef asmText, StringRef constraints,
                                llvm::FunctionType *type) {
  if (!asmText.contains("tcgen05."))
    return std::nullopt;
  AsmSignature sig = AsmSignature::parse(constraints, type);
  Tcgen05AsmParser parser(sig);
  if (llvm::Error e = parser.parse(asmText))
    return std::move(e);
  IntrinsicHandler h;
  h.fn = tcgen05AsmHandler;
  h.name = "llvm.nvvm.tcgen05.asm";
  h.asmOperands = std::make_shared<Tcgen05AsmOperands>(std::move(parser.operands));
  return h;
}
