//===- Rewrite.cpp - Turning nvptx64 LLVM IR into host-runnable IR --------===//
#include "Rewrite.h"

#include "Runtime.h"
#include "Tcgen05.h"
#include "Wgmma.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Triple.h"

#include <map>

using namespace llvm;
using namespace tilepipe::emu;

static Error rewriteError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Kernels and their declared CTA size
//===----------------------------------------------------------------------===//

/// Reads "128" or "128,2,1" (nvvm.reqntid / nvvm.maxntid attribute values).
static std::optional<Dim3> parseDims(StringRef text) {
  SmallVector<StringRef, 3> parts;
  text.split(parts, ',');
  Dim3 dims;
  uint32_t *slots[3] = {&dims.x, &dims.y, &dims.z};
  if (parts.empty() || parts.size() > 3)
    return std::nullopt;
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].trim().getAsInteger(10, *slots[i]) || *slots[i] == 0)
      return std::nullopt;
  return dims;
}

namespace {
struct Annotations {
  std::map<Function *, bool> kernel;
  std::map<Function *, Dim3> reqntid, maxntid, clusterDim;
};
} // namespace

/// Reads the legacy !nvvm.annotations metadata (LLVM may have upgraded it
/// into attributes and a calling convention already).
static Annotations readAnnotations(Module &module) {
  Annotations result;
  NamedMDNode *named = module.getNamedMetadata("nvvm.annotations");
  if (!named)
    return result;
  for (MDNode *node : named->operands()) {
    if (node->getNumOperands() < 3)
      continue;
    auto *fnMd = dyn_cast_or_null<ValueAsMetadata>(node->getOperand(0).get());
    auto *fn = fnMd ? dyn_cast<Function>(fnMd->getValue()->stripPointerCasts()) : nullptr;
    if (!fn)
      continue;
    for (unsigned i = 1; i + 1 < node->getNumOperands(); i += 2) {
      auto *key = dyn_cast_or_null<MDString>(node->getOperand(i).get());
      auto *valueMd = dyn_cast_or_null<ConstantAsMetadata>(node->getOperand(i + 1).get());
      auto *value = valueMd ? dyn_cast<ConstantInt>(valueMd->getValue()) : nullptr;
      if (!key || !value)
        continue;
      StringRef k = key->getString();
      uint32_t v = value->getZExtValue();
      if (k == "kernel")
        result.kernel[fn] = v != 0;
      auto setDim = [&](std::map<Function *, Dim3> &map, char axis) {
        Dim3 &d = map[fn];
        (axis == 'x' ? d.x : axis == 'y' ? d.y : d.z) = v;
      };
      if (k.starts_with("reqntid") && k.size() == 8)
        setDim(result.reqntid, k.back());
      if (k.starts_with("maxntid") && k.size() == 8)
        setDim(result.maxntid, k.back());
      if (k.starts_with("cluster_dim_") && k.size() == 13)
        setDim(result.clusterDim, k.back());
    }
  }
  return result;
}

static std::optional<Dim3> declaredBlock(Function &fn, const Annotations &notes) {
  for (const char *attr : {"nvvm.reqntid", "nvvm.maxntid"})
    if (fn.hasFnAttribute(attr))
      if (auto dims = parseDims(fn.getFnAttribute(attr).getValueAsString()))
        return dims;
  for (auto *map : {&notes.reqntid, &notes.maxntid}) {
    auto it = map->find(&fn);
    if (it != map->end())
      return it->second;
  }
  return std::nullopt;
}

/// The cluster shape (`.reqnctapercluster`: nvvm.cluster_dim or the
/// cluster_dim_{x,y,z} annotations); one CTA when the kernel declares none.
static Dim3 declaredCluster(Function &fn, const Annotations &notes) {
  if (fn.hasFnAttribute("nvvm.cluster_dim"))
    if (auto dims = parseDims(fn.getFnAttribute("nvvm.cluster_dim").getValueAsString()))
      return *dims;
  auto it = notes.clusterDim.find(&fn);
  return it != notes.clusterDim.end() ? it->second : Dim3();
}

//===----------------------------------------------------------------------===//
// __nvvm_reflect
//===----------------------------------------------------------------------===//

static std::optional<std::string> constantString(Value *value) {
  auto *global = dyn_cast<GlobalVariable>(value->stripPointerCasts());
  if (!global || !global->hasInitializer())
    return std::nullopt;
  auto *data = dyn_cast<ConstantDataSequential>(global->getInitializer());
  if (!data || !data->isString())
    return std::nullopt;
  return data->getAsCString().str();
}

static void foldReflect(Module &module, const EmulatorOptions &options) {
  int ftz = 0;
  if (auto *flag = mdconst::extract_or_null<ConstantInt>(module.getModuleFlag("nvvm-reflect-ftz")))
    ftz = flag->getSExtValue();
  for (const char *name : {"__nvvm_reflect", "llvm.nvvm.reflect"}) {
    Function *fn = module.getFunction(name);
    if (!fn)
      continue;
    for (User *user : make_early_inc_range(fn->users())) {
      auto *call = dyn_cast<CallInst>(user);
      if (!call || call->arg_size() != 1)
        continue;
      std::string key = constantString(call->getArgOperand(0)).value_or("");
      int value = key == "__CUDA_FTZ"         ? ftz
                  : key == "__CUDA_ARCH"      ? int(options.smVersion * 10)
                  : key == "__CUDA_PREC_SQRT" ? 1
                                              : 0;
      call->replaceAllUsesWith(ConstantInt::get(call->getType(), value));
      call->eraseFromParent();
    }
  }
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

static GlobalVariable *runtimeGlobal(Module &module, StringRef name) {
  if (GlobalVariable *existing = module.getGlobalVariable(name))
    return existing;
  return new GlobalVariable(module, PointerType::get(module.getContext(), 0),
                            /*isConstant=*/false, GlobalValue::ExternalLinkage,
                            nullptr, name);
}

/// Places every addrspace(3) variable at an offset of the CTA's shared block
/// and replaces its uses by tp_emu_shared_base + offset.
static Error relocateSharedVariables(Module &module, const EmulatorOptions &options,
                                     RewriteResult &result) {
  const DataLayout &layout = module.getDataLayout();
  std::vector<GlobalVariable *> shared;
  for (GlobalVariable &global : module.globals())
    if (global.getAddressSpace() == 3)
      shared.push_back(&global);
  std::map<GlobalVariable *, uint64_t> offsets;
  uint64_t next = 0;
  std::vector<GlobalVariable *> dynamic;
  for (GlobalVariable *global : shared) {
    uint64_t size = layout.getTypeAllocSize(global->getValueType());
    if (global->isDeclaration() || size == 0) {
      dynamic.push_back(global);
      continue;
    }
    next = alignTo(next, global->getAlign().valueOrOne().value());
    offsets[global] = next;
    next += size;
  }
  result.staticSharedBytes = next;
  uint64_t dynamicOffset = alignTo(next, 16);
  for (GlobalVariable *global : dynamic) {
    dynamicOffset = alignTo(dynamicOffset, global->getAlign().valueOrOne().value());
    offsets[global] = dynamicOffset;
  }
  result.dynamicSharedOffset = dynamicOffset;
  if (dynamicOffset + options.dynamicSharedBytes > (uint64_t(1) << 30))
    return rewriteError("shared memory size exceeds 1 GiB");
  if (shared.empty())
    return Error::success();

  SmallVector<Constant *> constants(shared.begin(), shared.end());
  convertUsersOfConstantsToInstructions(constants);
  GlobalVariable *base = runtimeGlobal(module, "tp_emu_shared_base");
  for (GlobalVariable *global : shared) {
    std::map<Function *, Value *> perFunction;
    for (Use &use : make_early_inc_range(global->uses())) {
      auto *inst = dyn_cast<Instruction>(use.getUser());
      if (!inst)
        return rewriteError("unsupported use of __shared__ variable '" +
                            global->getName() + "' outside of a function");
      Function *fn = inst->getFunction();
      Value *&address = perFunction[fn];
      if (!address) {
        IRBuilder<> builder(&*fn->getEntryBlock().getFirstInsertionPt());
        Value *block = builder.CreateLoad(base->getValueType(), base, "tp.shared.block");
        Value *byteAddress = builder.CreateConstGEP1_64(builder.getInt8Ty(), block,
                                                        offsets[global]);
        address = builder.CreateAddrSpaceCast(byteAddress, global->getType(),
                                              global->getName() + ".cta");
      }
      use.set(address);
    }
    global->eraseFromParent();
  }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Local memory and memory checks
//===----------------------------------------------------------------------===//

/// The host data layout puts allocas in address space 0.
static void moveAllocasToAddressSpaceZero(Function &fn) {
  for (Instruction &inst : make_early_inc_range(instructions(fn))) {
    auto *alloca = dyn_cast<AllocaInst>(&inst);
    if (!alloca || alloca->getAddressSpace() == 0)
      continue;
    IRBuilder<> builder(alloca);
    AllocaInst *replacement = builder.CreateAlloca(alloca->getAllocatedType(), 0,
                                                   alloca->getArraySize());
    replacement->setAlignment(alloca->getAlign());
    replacement->takeName(alloca);
    Value *cast = builder.CreateAddrSpaceCast(replacement, alloca->getType());
    alloca->replaceAllUsesWith(cast);
    alloca->eraseFromParent();
  }
}

namespace {
class AccessInstrumenter {
public:
  AccessInstrumenter(Module &module) : module_(module) {
    LLVMContext &ctx = module.getContext();
    Type *ptr = PointerType::get(ctx, 0);
    check_ = module.getOrInsertFunction(
        "tp_emu_check", FunctionType::get(Type::getVoidTy(ctx),
                                          {ptr, Type::getInt64Ty(ctx), Type::getInt32Ty(ctx),
                                           Type::getInt32Ty(ctx)},
                                          false));
  }

  void run(Function &fn) {
    std::vector<Instruction *> accesses;
    for (Instruction &inst : instructions(fn))
      if (isa<LoadInst, StoreInst, AtomicRMWInst, AtomicCmpXchgInst, MemIntrinsic>(inst))
        accesses.push_back(&inst);
    for (Instruction *inst : accesses)
      instrument(inst);
  }

private:
  void emitCheck(Instruction *before, Value *pointer, Value *size, Align align, bool write) {
    Value *object = getUnderlyingObject(pointer, 12);
    if (isa<AllocaInst>(object))
      return; // the thread's own local memory
    if (auto *global = dyn_cast<GlobalVariable>(object))
      if (global->getName().starts_with("tp_emu_"))
        return; // the runtime's own state
    IRBuilder<> builder(before);
    unsigned addrSpace = pointer->getType()->getPointerAddressSpace();
    Value *generic = builder.CreateAddrSpaceCast(pointer, builder.getPtrTy(0));
    uint32_t flags = (write ? uint32_t(kAccessWrite) : 0u) | (addrSpace << kAccessAddrSpaceShift);
    builder.CreateCall(check_, {generic, builder.CreateZExtOrTrunc(size, builder.getInt64Ty()),
                                builder.getInt32(uint32_t(align.value())),
                                builder.getInt32(flags)});
  }

  void emitCheck(Instruction *before, Value *pointer, Type *type, Align align, bool write) {
    const DataLayout &layout = module_.getDataLayout();
    uint64_t size = layout.getTypeStoreSize(type);
    emitCheck(before, pointer,
              ConstantInt::get(Type::getInt64Ty(module_.getContext()), size), align, write);
  }

  void instrument(Instruction *inst) {
    if (auto *load = dyn_cast<LoadInst>(inst))
      return emitCheck(load, load->getPointerOperand(), load->getType(), load->getAlign(), false);
    if (auto *store = dyn_cast<StoreInst>(inst))
      return emitCheck(store, store->getPointerOperand(), store->getValueOperand()->getType(),
                       store->getAlign(), true);
    if (auto *rmw = dyn_cast<AtomicRMWInst>(inst))
      return emitCheck(rmw, rmw->getPointerOperand(), rmw->getValOperand()->getType(),
                       rmw->getAlign(), true);
    if (auto *cas = dyn_cast<AtomicCmpXchgInst>(inst))
      return emitCheck(cas, cas->getPointerOperand(), cas->getNewValOperand()->getType(),
                       cas->getAlign(), true);
    auto *mem = cast<MemIntrinsic>(inst);
    emitCheck(mem, mem->getRawDest(), mem->getLength(), Align(1), true);
    if (auto *transfer = dyn_cast<MemTransferInst>(mem))
      emitCheck(mem, transfer->getRawSource(), mem->getLength(), Align(1), false);
  }

  Module &module_;
  FunctionCallee check_;
};
} // namespace

/// x86 traps on integer division by zero and on INT_MIN / -1; the GPU does
/// not (PTX: quotient all ones, remainder the dividend). Guard every
/// division so that the host computes what the GPU computes.
static void guardIntegerDivisions(Function &fn) {
  std::vector<BinaryOperator *> divisions;
  for (Instruction &inst : instructions(fn))
    if (auto *op = dyn_cast<BinaryOperator>(&inst))
      if (op->getOpcode() == Instruction::SDiv || op->getOpcode() == Instruction::UDiv ||
          op->getOpcode() == Instruction::SRem || op->getOpcode() == Instruction::URem)
        if (!isa<Constant>(op->getOperand(1)))
          divisions.push_back(op);
  for (BinaryOperator *op : divisions) {
    IRBuilder<> builder(op);
    Value *n = op->getOperand(0), *d = op->getOperand(1);
    Type *type = d->getType();
    bool isSigned = op->getOpcode() == Instruction::SDiv || op->getOpcode() == Instruction::SRem;
    bool isDiv = op->getOpcode() == Instruction::SDiv || op->getOpcode() == Instruction::UDiv;
    Value *zero = builder.CreateICmpEQ(d, Constant::getNullValue(type));
    Value *minusOne = isSigned ? builder.CreateICmpEQ(d, Constant::getAllOnesValue(type))
                               : ConstantInt::getFalse(zero->getType());
    Value *special = builder.CreateOr(zero, minusOne);
    Value *safe = builder.CreateSelect(special, ConstantInt::get(type, 1), d);
    auto *guarded = BinaryOperator::Create(op->getOpcode(), n, safe, op->getName(), op->getIterator());
    // n / -1 = -n (wrapping), n % -1 = 0; n / 0 = all ones, n % 0 = n.
    Value *byMinusOne = isDiv ? builder.CreateNeg(n) : Constant::getNullValue(type);
    Value *byZero = isDiv ? Constant::getAllOnesValue(type) : n;
    Value *result = builder.CreateSelect(zero, byZero, builder.CreateSelect(minusOne, byMinusOne, guarded));
    op->replaceAllUsesWith(result);
    op->eraseFromParent();
  }
}

//===----------------------------------------------------------------------===//
// Intrinsics and runtime calls
//===----------------------------------------------------------------------===//

/// Builds `tp.emu.<name>`: spills the arguments, calls tp_emu_intrinsic with
/// the handler's address and reloads the result.
static Function *makeMarshallingWrapper(StringRef intrinsic, FunctionType *type,
                                        Module &module, IntrinsicHandler &handler,
                                        FunctionCallee entry) {
  const DataLayout &layout = module.getDataLayout();
  LLVMContext &ctx = module.getContext();
  Function *wrapper = Function::Create(type, GlobalValue::InternalLinkage,
                                       "tp.emu." + intrinsic.drop_front(5), module);
  IRBuilder<> builder(BasicBlock::Create(ctx, "entry", wrapper));

  // The buffers are aligned for their most aligned member: the host's
  // vector loads and stores (<16 x i32> of tcgen05.ld) may need 64 bytes.
  uint64_t offset = 0;
  Align argsAlign(16);
  for (Type *param : type->params()) {
    Align align = layout.getABITypeAlign(param);
    argsAlign = std::max(argsAlign, align);
    offset = alignTo(offset, align.value());
    handler.argOffsets.push_back(offset);
    offset += layout.getTypeAllocSize(param);
  }
  Value *args = builder.CreateAlloca(ArrayType::get(builder.getInt8Ty(), std::max<uint64_t>(offset, 8)));
  cast<AllocaInst>(args)->setAlignment(argsAlign);
  for (auto [i, arg] : enumerate(wrapper->args()))
    builder.CreateStore(&arg, builder.CreateConstGEP1_64(builder.getInt8Ty(), args,
                                                         handler.argOffsets[i]));

  Type *retType = type->getReturnType();
  Value *ret = ConstantPointerNull::get(builder.getPtrTy());
  if (!retType->isVoidTy()) {
    if (auto *structType = dyn_cast<StructType>(retType)) {
      const StructLayout *sl = layout.getStructLayout(structType);
      for (unsigned i = 0; i < structType->getNumElements(); ++i) {
        handler.retOffsets.push_back(sl->getElementOffset(i));
        handler.retSizes.push_back(layout.getTypeStoreSize(structType->getElementType(i)));
      }
    } else {
      handler.retOffsets.push_back(0);
      handler.retSizes.push_back(layout.getTypeStoreSize(retType));
    }
    auto *slot = builder.CreateAlloca(ArrayType::get(builder.getInt8Ty(),
                                                     std::max<uint64_t>(layout.getTypeAllocSize(retType), 8)));
    slot->setAlignment(std::max(Align(16), layout.getABITypeAlign(retType)));
    builder.CreateMemSet(slot, builder.getInt8(0), layout.getTypeAllocSize(retType), Align(16));
    ret = slot;
  }
  Value *handlerAddress = builder.CreateIntToPtr(
      builder.getInt64(reinterpret_cast<uintptr_t>(&handler)), builder.getPtrTy());
  builder.CreateCall(entry, {handlerAddress, args, ret});
  if (retType->isVoidTy())
    builder.CreateRetVoid();
  else
    builder.CreateRet(builder.CreateLoad(retType, ret));
  return wrapper;
}

/// Replaces every call of `from` by what `makeCall` builds (nullptr: nothing).
static void replaceCalls(Function &from,
                         function_ref<Value *(IRBuilder<> &, CallInst *)> makeCall) {
  for (User *user : make_early_inc_range(from.users())) {
    auto *call = dyn_cast<CallInst>(user);
    if (!call)
      continue;
    IRBuilder<> builder(call);
    Value *replacement = makeCall(builder, call);
    if (replacement && !call->getType()->isVoidTy())
      call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
}

/// The handler of an inline asm call: single-instruction inline PTX
/// (libdevice's rcp.approx, sub.rz, ...) runs through the equivalent
/// intrinsic's handler, wgmma.mma_async and the tcgen05 family through their
/// own (WgmmaAsm.cpp, Tcgen05Asm.cpp);
/// anything else is refused.
static Expected<IntrinsicHandler> inlineAsmHandler(CallInst *call, InlineAsm *asmValue) {
  for (auto lookup : {lookupWgmmaAsm, lookupTcgen05Asm}) {
    Expected<std::optional<IntrinsicHandler>> handler = lookup(
        asmValue->getAsmString(), asmValue->getConstraintString(), call->getFunctionType());
    if (!handler)
      return rewriteError("in '" + call->getFunction()->getName() + "': " +
                          toString(handler.takeError()));
    if (*handler)
      return std::move(**handler);
  }
  if (std::optional<std::string> name = inlineAsmAsIntrinsic(asmValue->getAsmString())) {
    IntrinsicHandler handler = *lookupIntrinsic(*name);
    return handler;
  }
  return rewriteError("inline PTX assembly is not supported (in '" +
                      call->getFunction()->getName() + "': \"" +
                      StringRef(asmValue->getAsmString()).take_front(60) + "\")");
}

static Error rewriteInlineAsm(Module &module, std::deque<IntrinsicHandler> &handlers,
                              FunctionCallee entry) {
  // One wrapper per asm text, constraints and type: wgmma's operand
  // positions depend on all three.
  std::map<std::tuple<std::string, std::string, FunctionType *>, Function *> wrappers;
  for (Function &fn : module) {
    for (Instruction &inst : make_early_inc_range(instructions(fn))) {
      auto *call = dyn_cast<CallInst>(&inst);
      auto *asmValue = call ? dyn_cast<InlineAsm>(call->getCalledOperand()) : nullptr;
      if (!asmValue)
        continue;
      Function *&wrapper = wrappers[{asmValue->getAsmString().str(),
                                     asmValue->getConstraintString().str(),
                                     call->getFunctionType()}];
      if (!wrapper) {
        Expected<IntrinsicHandler> handler = inlineAsmHandler(call, asmValue);
        if (!handler)
          return handler.takeError();
        handlers.push_back(std::move(*handler));
        wrapper = makeMarshallingWrapper(handlers.back().name, call->getFunctionType(), module,
                                         handlers.back(), entry);
      }
      call->setCalledFunction(wrapper);
    }
  }
  return Error::success();
}

/// setmaxnreg.{inc,dec}.sync.aligned.u32 only moves registers between a
/// CTA's warpgroups, which the emulator does not model (a no-op), but its
/// register count must be what the PTX ISA allows, as ptxas checks: a
/// constant from 24 to 256, a multiple of 8.
static Error checkSetMaxNReg(Function &fn) {
  for (User *user : fn.users()) {
    auto *call = dyn_cast<CallInst>(user);
    if (!call || call->arg_size() != 1)
      continue;
    auto *count = dyn_cast<ConstantInt>(call->getArgOperand(0));
    uint64_t value = count ? count->getZExtValue() : 0;
    if (count && value >= 24 && value <= 256 && value % 8 == 0)
      continue;
    std::string shown = count ? std::to_string(value) : "(not a constant)";
    return rewriteError("in '" + call->getFunction()->getName() + "': " +
                        fn.getName().substr(strlen("llvm.nvvm.")) + " " + shown +
                        ": the register count must be a constant multiple of 8 from 24 to 256");
  }
  return Error::success();
}

static Error rewriteCalls(Module &module, std::deque<IntrinsicHandler> &handlers) {
  LLVMContext &ctx = module.getContext();
  Type *ptr = PointerType::get(ctx, 0);
  Type *voidTy = Type::getVoidTy(ctx);
  FunctionCallee intrinsicEntry = module.getOrInsertFunction(
      "tp_emu_intrinsic", FunctionType::get(voidTy, {ptr, ptr, ptr}, false));
  FunctionCallee sreg = module.getOrInsertFunction(
      "tp_emu_sreg", FunctionType::get(Type::getInt64Ty(ctx), {Type::getInt32Ty(ctx)}, false));
  FunctionCallee trap = module.getOrInsertFunction("tp_emu_trap", FunctionType::get(voidTy, false));

  std::vector<std::string> unsupported;
  for (Function &fn : make_early_inc_range(module.functions())) {
    if (!fn.isDeclaration())
      continue;
    StringRef name = fn.getName();
    if (name == "vprintf") {
      fn.setName("tp_emu_vprintf");
      continue;
    }
    if (name == "__assertfail" || name == "malloc" || name == "free") {
      fn.setName("tp_emu_" + name.drop_front(name == "__assertfail" ? 2 : 0));
      continue;
    }
    if (name == "llvm.trap" || name == "llvm.debugtrap" || name == "llvm.ubsantrap") {
      replaceCalls(fn, [&](IRBuilder<> &b, CallInst *) { return b.CreateCall(trap); });
      continue;
    }
    if (!name.starts_with("llvm.nvvm."))
      continue;
    if (name.starts_with("llvm.nvvm.setmaxnreg."))
      if (Error error = checkSetMaxNReg(fn))
        return error;
    if (auto reg = lookupSpecialRegister(name)) {
      replaceCalls(fn, [&](IRBuilder<> &b, CallInst *call) {
        Value *value = b.CreateCall(sreg, {b.getInt32(*reg)});
        return b.CreateZExtOrTrunc(value, call->getType());
      });
    } else if (isNoOpIntrinsic(name)) {
      replaceCalls(fn, [&](IRBuilder<> &, CallInst *call) -> Value * {
        return call->getType()->isVoidTy() ? nullptr : Constant::getNullValue(call->getType());
      });
    } else if (auto handler = lookupIntrinsic(name)) {
      handlers.push_back(std::move(*handler));
      Function *wrapper = makeMarshallingWrapper(name, fn.getFunctionType(), module,
                                                 handlers.back(), intrinsicEntry);
      fn.replaceAllUsesWith(wrapper);
    } else {
      if (!fn.use_empty())
        unsupported.push_back(name.str());
      continue;
    }
    if (fn.use_empty())
      fn.eraseFromParent();
  }
  if (!unsupported.empty())
    return rewriteError("unsupported NVVM intrinsic(s): " + join(unsupported, ", "));
  return rewriteInlineAsm(module, handlers, intrinsicEntry);
}

//===----------------------------------------------------------------------===//
// Launchers and the module-global table
//===----------------------------------------------------------------------===//

static std::string paramTypeName(Type *type) {
  if (type->isPointerTy())
    return "ptr";
  if (type->isIntegerTy())
    return "i" + std::to_string(type->getIntegerBitWidth());
  if (type->isHalfTy())
    return "f16";
  if (type->isBFloatTy())
    return "bf16";
  if (type->isFloatTy())
    return "f32";
  if (type->isDoubleTy())
    return "f64";
  return "";
}

static void buildLauncher(Function &kernel, KernelInfo &info, unsigned index) {
  Module &module = *kernel.getParent();
  LLVMContext &ctx = module.getContext();
  const DataLayout &layout = module.getDataLayout();
  uint32_t offset = 0;
  for (Argument &arg : kernel.args()) {
    std::string type = paramTypeName(arg.getType());
    if (type.empty() || arg.hasByValAttr()) {
      info.unsupported = "parameter " + std::to_string(arg.getArgNo()) + " of kernel '" +
                         kernel.getName().str() + "' has an unsupported type";
      return;
    }
    KernelParam param;
    param.type = type;
    param.size = layout.getTypeStoreSize(arg.getType());
    param.offset = offset;
    offset += 8;
    info.params.push_back(param);
  }
  info.argBufferBytes = std::max<uint32_t>(offset, 8);
  info.launcher = "tp.emu.launch." + std::to_string(index);
  Function *launcher = Function::Create(
      FunctionType::get(Type::getVoidTy(ctx), {PointerType::get(ctx, 0)}, false),
      GlobalValue::ExternalLinkage, info.launcher, module);
  IRBuilder<> builder(BasicBlock::Create(ctx, "entry", launcher));
  SmallVector<Value *> args;
  for (auto [i, arg] : enumerate(kernel.args()))
    args.push_back(builder.CreateLoad(
        arg.getType(), builder.CreateConstGEP1_64(builder.getInt8Ty(), launcher->getArg(0),
                                                  info.params[i].offset)));
  builder.CreateCall(kernel.getFunctionType(), &kernel, args);
  builder.CreateRetVoid();
}

static void buildGlobalTable(Module &module, RewriteResult &result) {
  const DataLayout &layout = module.getDataLayout();
  LLVMContext &ctx = module.getContext();
  std::vector<Constant *> addresses;
  for (GlobalVariable &global : module.globals()) {
    if (global.isDeclaration() || global.getName().starts_with("llvm."))
      continue;
    ModuleGlobalInfo info;
    info.name = global.getName().str();
    info.size = layout.getTypeAllocSize(global.getValueType());
    info.constantSpace = global.getAddressSpace() == 4;
    info.readOnly = global.isConstant() || info.constantSpace;
    result.globals.push_back(info);
    addresses.push_back(ConstantExpr::getAddrSpaceCast(&global, PointerType::get(ctx, 0)));
  }
  auto *type = ArrayType::get(PointerType::get(ctx, 0), addresses.size());
  result.globalTable = "tp.emu.globals";
  new GlobalVariable(module, type, true, GlobalValue::ExternalLinkage,
                     ConstantArray::get(type, addresses), result.globalTable);
}

/// Drops what only the NVPTX backend understands.
static void stripTargetSpecifics(Module &module) {
  for (Function &fn : module) {
    fn.removeFnAttr("target-cpu");
    fn.removeFnAttr("target-features");
    fn.removeFnAttr("tune-cpu");
    fn.setCallingConv(CallingConv::C);
    for (Instruction &inst : instructions(fn))
      if (auto *call = dyn_cast<CallBase>(&inst))
        call->setCallingConv(CallingConv::C);
  }
  if (NamedMDNode *notes = module.getNamedMetadata("nvvm.annotations"))
    module.eraseNamedMetadata(notes);
  for (const char *name : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *used = module.getGlobalVariable(name))
      used->eraseFromParent();
}

Expected<RewriteResult> tilepipe::emu::rewriteForHost(Module &module,
                                                      const EmulatorOptions &options,
                                                      const DataLayout &hostLayout,
                                                      StringRef hostTriple,
                                                      std::deque<IntrinsicHandler> &handlers) {
  RewriteResult result;
  Annotations notes = readAnnotations(module);
  std::vector<Function *> kernels;
  for (Function &fn : module) {
    auto it = notes.kernel.find(&fn);
    bool isKernel = fn.getCallingConv() == CallingConv::PTX_Kernel ||
                    (it != notes.kernel.end() && it->second);
    if (isKernel && !fn.isDeclaration())
      kernels.push_back(&fn);
  }
  for (Function *fn : kernels) {
    KernelInfo info;
    info.name = fn->getName().str();
    info.declaredBlock = declaredBlock(*fn, notes);
    info.cluster = declaredCluster(*fn, notes);
    info.blocksAreClusters = fn->hasFnAttribute("nvvm.blocksareclusters");
    result.kernels.push_back(info);
  }

  foldReflect(module, options);
  for (const char *name : {"llvm.used", "llvm.compiler.used"})
    if (GlobalVariable *used = module.getGlobalVariable(name))
      used->eraseFromParent();
  if (Error err = relocateSharedVariables(module, options, result))
    return std::move(err);

  // From here on sizes and offsets are the host's.
  module.setDataLayout(hostLayout);
  module.setTargetTriple(Triple(hostTriple));
  AccessInstrumenter instrumenter(module);
  for (Function &fn : module) {
    if (fn.isDeclaration())
      continue;
    moveAllocasToAddressSpaceZero(fn);
    lowerAsyncCopyPtx(fn);
    lowerPredicatedGlobalAccesses(fn);
    lowerInlinePtxArithmetic(fn);
    guardIntegerDivisions(fn);
    lowerBFloatRounding(fn);
    instrumenter.run(fn);
  }
  if (Error err = rewriteCalls(module, handlers))
    return std::move(err);
  stripTargetSpecifics(module);
  for (auto [i, fn] : enumerate(kernels))
    buildLauncher(*fn, result.kernels[i], i);
  buildGlobalTable(module, result);

  std::string problems;
  raw_string_ostream os(problems);
  if (verifyModule(module, &os))
    return rewriteError("the rewritten module is invalid: " + problems);
  return result;
}
