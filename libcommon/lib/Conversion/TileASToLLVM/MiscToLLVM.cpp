//===- MiscToLLVM.cpp - pointer casts, globals, print, assert -> LLVM -----===//
//
// Pointer tensors already are vectors of i64 addresses, so the pointer casts
// of tensors are no-ops and those of scalars llvm.inttoptr/ptrtoint.
// A tile_as.global becomes an llvm.mlir.global in global memory (address
// space 1) holding its elements in row-major order.
//
// print is once per tile block: every tensor argument is gathered into every
// thread through shared memory, then thread 0 calls CUDA's
// vprintf(format, argument buffer) with the format expanded so that a tensor
// argument prints as a nested `[e0, e1, ...]` list. Arguments follow C's
// variadic promotions, the width of integers taken from the conversion.
// assert calls CUDA's __assertfail(message, file, line, function, 1) in each
// thread holding a false element.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "RegisterEmitter.h"
#include "SharedExchange.h"
#include "SharedScratch.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

namespace tilepipe::tile_as {
namespace {

/// A pointer cast: the operand itself for tensors (vectors of addresses),
/// `ScalarOp` for scalars (none when the LLVM types already match).
template <typename SourceOp, typename ScalarOp>
struct PointerCastLowering : ConvertOpToLLVMPattern<SourceOp> {
  using ConvertOpToLLVMPattern<SourceOp>::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    if (!type)
      return op.emitOpError("result type does not lower to LLVM");
    Value source = adaptor.getSrc();
    if (source.getType() == type)
      rewriter.replaceOp(op, source);
    else
      rewriter.replaceOpWithNewOp<ScalarOp>(op, type, source);
    return success();
  }
};

/// to_scalar: a one-element tensor is one register in every thread (the
/// layout wraps around it).
struct ToScalarLowering : ConvertOpToLLVMPattern<ToScalarOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(ToScalarOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || !isa<VectorType>(adaptor.getSrc().getType()))
      return op.emitOpError("tensor without a blocked layout (run tile-sched)");
    RegisterEmitter e(rewriter, op.getLoc());
    Value element = e.extract(adaptor.getSrc(), 0);
    if (isa<LLVM::LLVMPointerType>(type)) // pointer tensors hold i64 addresses
      element = LLVM::IntToPtrOp::create(rewriter, op.getLoc(), type, element);
    rewriter.replaceOp(op, element);
    return success();
  }
};

} // namespace

ModuleOp getTopModule(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  while (auto parent = module->getParentOfType<ModuleOp>())
    module = parent;
  return module;
}

LLVM::LLVMFuncOp getRuntimeFunction(OpBuilder &builder, Operation *anchor, StringRef name,
                                    LLVM::LLVMFunctionType type) {
  ModuleOp module = getTopModule(anchor);
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

namespace {

/// The bytes in memory of `values` (a 1-d attribute of elements below a
/// byte): one per i1, one per two 4-bit elements.
static DenseElementsAttr getMemoryBytes(DenseElementsAttr values) {
  SmallVector<uint8_t> fields;
  Type element = values.getElementType();
  if (isa<FloatType>(element))
    for (const APFloat &value : values.getValues<APFloat>())
      fields.push_back(value.bitcastToAPInt().getZExtValue());
  else
    for (const APInt &value : values.getValues<APInt>())
      fields.push_back(value.getZExtValue());
  SmallVector<int8_t> bytes;
  if (element.isInteger(1)) {
    bytes.assign(fields.begin(), fields.end());
  } else {
    for (size_t i = 0; i < fields.size(); i += 2)
      bytes.push_back(int8_t((fields[i] & 0xF) |
                             (i + 1 < fields.size() ? (fields[i + 1] & 0xF) << 4 : 0)));
  }
  auto type = RankedTensorType::get({int64_t(bytes.size())},
                                    IntegerType::get(values.getContext(), 8));
  return DenseElementsAttr::get(type, ArrayRef<int8_t>(bytes));
}

struct GlobalLowering : ConvertOpToLLVMPattern<GlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(GlobalOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!value)
      return op.emitOpError("initializer must be dense elements");
    Type element = getTypeConverter()->convertType(value.getElementType());
    if (!element || !element.isIntOrFloat())
      return op.emitOpError("global of ")
             << value.getElementType() << " elements is not lowered";
    int64_t count = value.getNumElements();
    DenseElementsAttr flat =
        value.reshape(RankedTensorType::get({count}, value.getElementType()));
    // Below a byte the elements lie in memory as loads and stores see them:
    // i1 a byte each, i4 and f4E2M1FN two to a byte (element 2k in the low
    // nibble of byte k).
    if (element.getIntOrFloatBitWidth() < 8) {
      flat = getMemoryBytes(flat);
      element = rewriter.getI8Type();
      count = flat.getNumElements();
    }
    uint64_t alignment = op.getAlignment().value_or(getByteSize(element));
    // LLVM globals take the module's location: the op's may be a call site,
    // which global debug info does not accept.
    auto global = LLVM::GlobalOp::create(
        rewriter, getTopModule(op).getLoc(), LLVM::LLVMArrayType::get(element, count),
        op.getConstant(), op.getInternal() ? LLVM::Linkage::Internal : LLVM::Linkage::External,
        op.getSymName(), flat, alignment, kGlobalAddressSpace);
    rewriter.replaceOp(op, global);
    return success();
  }
};

/// alloca: a shared-memory global of its own (uninitialized, as the
/// scratch buffer), its generic address the result.
struct AllocaLowering : ConvertOpToLLVMPattern<AllocaOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AllocaOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (op.getGlobal()) // materializeGlobalAllocas ran before the conversion
      return op.emitOpError("global alloca outside a function");
    uint64_t bytes = uint64_t(op.getNumElem()) * getByteSize(op.getType().getPointeeType());
    if (bytes > kMaxStaticSharedBytes)
      return op.emitOpError("needs ")
             << bytes << " bytes of shared memory; at most " << kMaxStaticSharedBytes
             << " can be declared statically";
    ModuleOp module = getTopModule(op);
    unsigned count = llvm::count_if(module.getOps<LLVM::GlobalOp>(), [](LLVM::GlobalOp global) {
      return global.getSymName().starts_with("__tile_alloca");
    });
    LLVM::GlobalOp global;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(module.getBody());
      global = LLVM::GlobalOp::create(
          rewriter, module.getLoc(), LLVM::LLVMArrayType::get(rewriter.getI8Type(), bytes),
          /*isConstant=*/false, LLVM::Linkage::Internal,
          "__tile_alloca" + std::to_string(count), /*value=*/Attribute(),
          op.getAlignment(), kSharedAddressSpace);
    }
    Value shared = LLVM::AddressOfOp::create(rewriter, op.getLoc(), global);
    rewriter.replaceOpWithNewOp<LLVM::AddrSpaceCastOp>(
        op, getTypeConverter()->convertType(op.getType()), shared);
    return success();
  }
};

struct GetGlobalLowering : ConvertOpToLLVMPattern<GetGlobalOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(GetGlobalOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::AddressOfOp>(
        op, getTypeConverter()->convertType(op.getType()), op.getName());
    return success();
  }
};

/// A NUL-terminated string constant in the module (one per distinct text),
/// as a generic pointer.
static Value getStringConstant(OpBuilder &builder, Location loc, Operation *anchor,
                               StringRef text) {
  ModuleOp module = getTopModule(anchor);
  std::string bytes = (text + Twine('\0')).str();
  LLVM::GlobalOp global;
  unsigned count = 0;
  for (auto candidate : module.getOps<LLVM::GlobalOp>()) {
    if (!candidate.getSymName().starts_with("__tile_str"))
      continue;
    ++count;
    auto value = dyn_cast_or_null<StringAttr>(candidate.getValueOrNull());
    if (value && value.getValue() == bytes)
      global = candidate;
  }
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), bytes.size());
    global = LLVM::GlobalOp::create(builder, module.getLoc(), type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal,
                                    "__tile_str" + std::to_string(count),
                                    builder.getStringAttr(bytes), /*alignment=*/1);
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}


/// One `%...` conversion of a printf format.
struct Conversion {
  std::string spec; ///< the whole conversion, `%` to the conversion letter
  std::string length;
  char letter;
};

/// A printf format split into literal text (pieces[i]) before each
/// conversion (conversions[i]), the text after the last one in the last
/// piece.
struct Format {
  SmallVector<std::string> pieces;
  SmallVector<Conversion> conversions;

  static FailureOr<Format> parse(Operation *op, StringRef text) {
    Format format;
    format.pieces.emplace_back();
    for (size_t i = 0; i < text.size();) {
      if (text[i] != '%' || (i + 1 < text.size() && text[i + 1] == '%')) {
        size_t n = text[i] == '%' ? 2 : 1;
        format.pieces.back() += text.substr(i, n).str();
        i += n;
        continue;
      }
      size_t start = i++;
      auto skip = [&](StringRef set) {
        while (i < text.size() && set.contains(text[i]))
          ++i;
      };
      skip("-+ #0");
      skip("0123456789*");
      if (i < text.size() && text[i] == '.') {
        ++i;
        skip("0123456789*");
      }
      size_t lengthStart = i;
      skip("hlLqjzt");
      if (i >= text.size())
        return op->emitOpError("format ends inside a conversion");
      Conversion conversion;
      conversion.spec = text.substr(start, i + 1 - start).str();
      conversion.length = text.substr(lengthStart, i - lengthStart).str();
      conversion.letter = text[i++];
      if (StringRef(conversion.spec).contains('*'))
        return op->emitOpError("'*' widths and precisions are not supported");
      format.conversions.push_back(conversion);
      format.pieces.emplace_back();
    }
    return format;
  }
};

/// `spec` repeated over `shape` as nested `[a, b, ...]` lists.
static void appendNested(std::string &out, StringRef spec, ArrayRef<int64_t> shape) {
  if (shape.empty()) {
    out += spec;
    return;
  }
  out += '[';
  for (int64_t i = 0; i < shape.front(); ++i) {
    if (i)
      out += ", ";
    appendNested(out, spec, shape.drop_front());
  }
  out += ']';
}

/// `value` as vprintf reads it for `conversion`: floats as double, integers
/// as 32 or 64 bits (from the length modifier), pointers as 64-bit integers.
static Value promote(OpBuilder &builder, Location loc, Value value,
                     const Conversion &conversion) {
  Type type = value.getType();
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(builder, loc, builder.getI64Type(), value);
  bool floatConversion = StringRef("fFeEgGaA").contains(conversion.letter);
  bool signedConversion = StringRef("di").contains(conversion.letter);
  if (isa<FloatType>(type)) {
    if (type.isF64())
      return value;
    return LLVM::FPExtOp::create(builder, loc, builder.getF64Type(), value);
  }
  if (floatConversion) {
    if (type.isInteger(1))
      return LLVM::UIToFPOp::create(builder, loc, builder.getF64Type(), value);
    return LLVM::SIToFPOp::create(builder, loc, builder.getF64Type(), value);
  }
  StringRef length = conversion.length;
  bool wide = length.contains('l') ||
              (length.size() == 1 && StringRef("jzt").contains(length.front()));
  auto target = builder.getIntegerType(wide ? 64 : 32);
  unsigned width = type.getIntOrFloatBitWidth();
  if (width > target.getWidth())
    return LLVM::TruncOp::create(builder, loc, target, value);
  if (width == target.getWidth())
    return value;
  if (signedConversion && width > 1)
    return LLVM::SExtOp::create(builder, loc, target, value);
  return LLVM::ZExtOp::create(builder, loc, target, value);
}

/// A layout in which every thread holds the whole tensor, registers in
/// row-major order.
static BlockedAttr getWholeTensorLayout(BlockedAttr from, ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  SmallVector<unsigned> size(shape.begin(), shape.end());
  SmallVector<unsigned> threads(rank, 1), warps(rank, 1), order;
  unsigned numWarps = getWarpsInLayout(from);
  threads[rank - 1] = 32;
  warps[rank - 1] = numWarps;
  for (int dim = rank - 1; dim >= 0; --dim)
    order.push_back(dim);
  return BlockedAttr::get(from.getContext(), size, threads, warps, order);
}

struct PrintLowering : ConvertOpToLLVMPattern<PrintOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Format> format = Format::parse(op, op.getFormat());
    if (failed(format))
      return failure();
    if (format->conversions.size() != op.getArgs().size())
      return op.emitOpError("format has ")
             << format->conversions.size() << " conversions for "
             << op.getArgs().size() << " arguments";
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);

    // Every element of every argument, in every thread; and the format.
    std::string expanded = format->pieces.front();
    SmallVector<std::pair<Value, const Conversion *>> elements;
    for (auto [i, arg, value] : llvm::enumerate(op.getArgs(), adaptor.getArgs())) {
      const Conversion &conversion = format->conversions[i];
      auto tensor = dyn_cast<RankedTensorType>(arg.getType());
      if (!tensor) {
        expanded += conversion.spec;
        elements.push_back({value, &conversion});
      } else {
        FailureOr<Laid> laid = Laid::of(op, tensor);
        if (failed(laid))
          return failure();
        int64_t count = tensor.getNumElements();
        auto wholeType = VectorType::get(
            {count}, cast<VectorType>(value.getType()).getElementType());
        auto slot = [&](RegisterEmitter &re, ArrayRef<Value> coords) {
          return rowMajorSlot(re, coords, tensor.getShape());
        };
        FailureOr<Value> whole = exchangeThroughShared(
            rewriter, op, {ExchangeSource{value, *laid, slot}},
            Laid{getWholeTensorLayout(laid->layout, tensor.getShape()), tensor.getShape()},
            wholeType, slot, count);
        if (failed(whole))
          return failure();
        for (int64_t j = 0; j < count; ++j)
          elements.push_back({e.extract(*whole, j), &conversion});
        appendNested(expanded, conversion.spec, tensor.getShape());
      }
      expanded += format->pieces[i + 1];
    }

    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    Value first = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, tid, e.i32(0));
    auto ptrType = LLVM::LLVMPointerType::get(getContext());
    emitIf(rewriter, loc, first, [&] {
      Value buffer = LLVM::ZeroOp::create(rewriter, loc, ptrType);
      if (!elements.empty()) {
        SmallVector<Value> promoted;
        for (auto [value, conversion] : elements)
          promoted.push_back(promote(rewriter, loc, value, *conversion));
        auto bufferType = LLVM::LLVMStructType::getLiteral(
            getContext(), llvm::map_to_vector(promoted, [](Value v) { return v.getType(); }));
        buffer = allocateInEntryBlock(rewriter, op, bufferType);
        for (auto [i, value] : llvm::enumerate(promoted)) {
          Value field = LLVM::GEPOp::create(
              rewriter, loc, ptrType, bufferType, buffer,
              ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
          LLVM::StoreOp::create(rewriter, loc, value, field);
        }
      }
      auto vprintfType = LLVM::LLVMFunctionType::get(rewriter.getI32Type(),
                                                     {ptrType, ptrType});
      LLVM::CallOp::create(rewriter, loc,
                           getRuntimeFunction(rewriter, op, "vprintf", vprintfType),
                           ValueRange{getStringConstant(rewriter, loc, op, expanded), buffer});
    });
    rewriter.eraseOp(op);
    return success();
  }

  /// A stack slot of `type`, allocated once at the start of the function
  /// (NVPTX has no dynamic stack allocation).
  static Value allocateInEntryBlock(ConversionPatternRewriter &rewriter, Operation *op,
                                    Type type) {
    OpBuilder::InsertionGuard guard(rewriter);
    Block &entry = op->getParentOfType<FunctionOpInterface>().getFunctionBody().front();
    rewriter.setInsertionPointToStart(&entry);
    Location loc = op->getLoc();
    Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         rewriter.getI32IntegerAttr(1));
    return LLVM::AllocaOp::create(rewriter, loc, LLVM::LLVMPointerType::get(op->getContext()),
                                  type, one, /*alignment=*/8);
  }
};

struct AssertLowering : ConvertOpToLLVMPattern<AssertOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RegisterEmitter e(rewriter, loc);
    // This thread's elements all true?
    Value holds = adaptor.getCondition();
    if (auto vector = dyn_cast<VectorType>(holds.getType())) {
      holds = e.extract(adaptor.getCondition(), 0);
      for (int64_t i = 1; i < vector.getNumElements(); ++i)
        holds = LLVM::AndOp::create(rewriter, loc, holds, e.extract(adaptor.getCondition(), i));
    }
    Value fails = LLVM::XOrOp::create(
        rewriter, loc, holds,
        LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(), rewriter.getBoolAttr(true)));

    std::string file = "<unknown>";
    unsigned line = 0;
    if (auto position = loc->findInstanceOf<FileLineColLoc>()) {
      file = position.getFilename().str();
      line = position.getLine();
    }
    std::string function = "<kernel>";
    if (auto parent = op->getParentOfType<FunctionOpInterface>())
      function = parent.getName().str();
    auto ptrType = LLVM::LLVMPointerType::get(getContext());
    emitIf(rewriter, loc, fails, [&] {
      auto type = LLVM::LLVMFunctionType::get(
          LLVM::LLVMVoidType::get(getContext()),
          {ptrType, ptrType, rewriter.getI32Type(), ptrType, rewriter.getI64Type()});
      LLVM::CallOp::create(
          rewriter, loc, getRuntimeFunction(rewriter, op, "__assertfail", type),
          ValueRange{getStringConstant(rewriter, loc, op, op.getMessage()),
                     getStringConstant(rewriter, loc, op, file), e.i32(line),
                     getStringConstant(rewriter, loc, op, function), e.i64(1)});
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void populateMiscToLLVMPatterns(TileLLVMTypeConverter &converter,
                                RewritePatternSet &patterns) {
  patterns.add<PointerCastLowering<IntToPtrOp, LLVM::IntToPtrOp>,
               PointerCastLowering<PtrToIntOp, LLVM::PtrToIntOp>,
               PointerCastLowering<PtrToPtrOp, LLVM::AddrSpaceCastOp>, GlobalLowering,
               AllocaLowering,
               GetGlobalLowering, PrintLowering, AssertLowering, ToScalarLowering>(converter);
}

} // namespace tilepipe::tile_as
