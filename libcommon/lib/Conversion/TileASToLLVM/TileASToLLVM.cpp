//===- TileASToLLVM.cpp - tile_as + arith/math + func -> LLVM + NVVM ------===//
//
// A tensor with a blocked layout becomes the LLVM vector of the registers one
// thread holds, so upstream arith/math-to-LLVM lower elementwise code as
// vector code unchanged. Pointer tensors are vectors of i64 addresses.
// Memory ops become one predicated ld/st.global of up to 16 bytes per group
// of adjacent registers (inline PTX, as the predicate must guard the access
// itself to mask ragged tails). Pointers in another address space (generic:
// a kernel with a tile-block alloca addresses shared and global memory
// alike) move the same groups with LLVM loads and stores under a branch.
//
//===----------------------------------------------------------------------===//
#include "LoweringCommon.h"
#include "MatrixLowering.h"
#include "tilepipe/Support/GpuTarget.h"
#include "RegisterEmitter.h"
#include "SharedScratch.h"

#include "tilepipe/Conversion/Passes.h"
#include "tilepipe/Dialect/TileAS/IR/MmaStaging.h"
#include "tilepipe/Dialect/TileAS/IR/TileASLayouts.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilepipe {
#define GEN_PASS_DEF_CONVERTTILEASTOLLVM
#include "tilepipe/Conversion/Passes.h.inc"
} // namespace tilepipe

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::tile_as;

static constexpr unsigned kMaxAccessBytes = 16;

TileLLVMTypeConverter::TileLLVMTypeConverter(MLIRContext *context)
    : LLVMTypeConverter(context) {
  // tf32 has no LLVM type: its values are f32 bit patterns (low 13 mantissa
  // bits ignored by the tensor cores), 4 bytes in registers and memory.
  addConversion([](FloatTF32Type type) -> Type {
    return Float32Type::get(type.getContext());
  });
  addConversion([](PtrType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), type.getAddressSpace());
  });
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    auto layout = dyn_cast_or_null<BlockedAttr>(type.getEncoding());
    if (!layout)
      return std::nullopt;
    Type element = type.getElementType();
    if (isa<PtrType>(element))
      element = IntegerType::get(type.getContext(), 64);
    else
      element = convertType(element);
    if (!element)
      return std::nullopt;
    return VectorType::get({getElemsPerThread(layout, type.getShape())}, element);
  });
}

FailureOr<Laid> Laid::of(Operation *op, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  auto layout = dyn_cast_or_null<BlockedAttr>(tensor.getEncoding());
  if (!layout)
    return op->emitOpError("tensor without a blocked layout (run tile-sched)");
  return Laid{layout, tensor.getShape()};
}

unsigned tilepipe::tile_as::getByteSize(Type type) {
  if (isa<PtrType>(type))
    return 8;
  if (isa<FloatTF32Type>(type)) // 19 significant bits, stored in 32
    return 4;
  return std::max<unsigned>(1, type.getIntOrFloatBitWidth() / 8);
}

/// The CTAs per cluster of `func` (1 unless
/// tilepipe-split-tile-blocks-across-cta-pair made its tile blocks clusters).
/// The attribute stays on the function through its conversion to llvm.func.
static int32_t getCtasPerCluster(Operation *func) {
  auto ctas = func ? func->getAttrOfType<IntegerAttr>(TileASDialect::kCtasPerClusterAttrName)
                   : IntegerAttr();
  return ctas ? ctas.getInt() : 1;
}

namespace {
/// tile_as.block_id / num_blocks along an axis: the CTA's (%ctaid, %nctaid),
/// or, where each tile block is a cluster of CTAs, the cluster's (%clusterid,
/// %nclusterid): both CTAs of the pair run the same tile block.
template <typename SourceOp, typename XOp, typename YOp, typename ZOp,
          typename ClusterXOp, typename ClusterYOp, typename ClusterZOp>
struct GridQueryLowering : ConvertOpToLLVMPattern<SourceOp> {
  using ConvertOpToLLVMPattern<SourceOp>::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(SourceOp op, typename SourceOp::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    bool clusters = getCtasPerCluster(op->template getParentOfType<FunctionOpInterface>()) > 1;
    Value id;
    switch (op.getAxis()) {
    case 0:
      id = clusters ? Value(ClusterXOp::create(rewriter, op.getLoc(), i32))
                    : Value(XOp::create(rewriter, op.getLoc(), i32));
      break;
    case 1:
      id = clusters ? Value(ClusterYOp::create(rewriter, op.getLoc(), i32))
                    : Value(YOp::create(rewriter, op.getLoc(), i32));
      break;
    default:
      id = clusters ? Value(ClusterZOp::create(rewriter, op.getLoc(), i32))
                    : Value(ZOp::create(rewriter, op.getLoc(), i32));
      break;
    }
    rewriter.replaceOp(op, id);
    return success();
  }
};

struct ClusterCtaRankLowering : ConvertOpToLLVMPattern<ClusterCtaRankOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(ClusterCtaRankOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::ClusterId>(op, rewriter.getI32Type());
    return success();
  }
};

struct SplatLowering : ConvertOpToLLVMPattern<SplatOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast_or_null<VectorType>(getTypeConverter()->convertType(op.getType()));
    if (!type)
      return op.emitOpError("tensor without a blocked layout (run tile-sched)");
    Value scalar = adaptor.getSrc();
    if (isa<LLVM::LLVMPointerType>(scalar.getType()))
      scalar = LLVM::PtrToIntOp::create(rewriter, op.getLoc(), rewriter.getI64Type(), scalar);
    RegisterEmitter e(rewriter, op.getLoc());
    Value single = e.insert(LLVM::PoisonOp::create(rewriter, op.getLoc(), type), scalar, 0);
    SmallVector<int32_t> zeros(type.getNumElements(), 0);
    rewriter.replaceOpWithNewOp<LLVM::ShuffleVectorOp>(op, single, single, zeros);
    return success();
  }
};

struct IotaLowering : ConvertOpToLLVMPattern<IotaOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(IotaOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> laid = Laid::of(op, op.getType());
    if (failed(laid))
      return failure();
    auto type = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    RegisterEmitter e(rewriter, op.getLoc());
    Value coords = e.coordinateVector(laid->layout, laid->shape, op.getAxis());
    if (!type.getElementType().isInteger(32))
      coords = LLVM::ZExtOp::create(rewriter, op.getLoc(), type, coords);
    rewriter.replaceOp(op, coords);
    return success();
  }
};

struct AddPtrLowering : ConvertOpToLLVMPattern<AddPtrOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = isa<PtrType>(op.getType())
                       ? cast<PtrType>(op.getType()).getPointeeType()
                       : cast<PtrType>(cast<RankedTensorType>(op.getType()).getElementType())
                             .getPointeeType();
    Type llvmPointee = getTypeConverter()->convertType(pointee);
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
          op, adaptor.getPtr().getType(), llvmPointee, adaptor.getPtr(),
          ArrayRef<LLVM::GEPArg>{adaptor.getOffset()});
      return success();
    }
    auto type = cast<VectorType>(adaptor.getPtr().getType());
    Value offsets = adaptor.getOffset();
    if (!cast<VectorType>(offsets.getType()).getElementType().isInteger(64))
      offsets = LLVM::SExtOp::create(rewriter, loc, type, offsets);
    auto scale = DenseElementsAttr::get(
        type, rewriter.getI64IntegerAttr(getByteSize(pointee)).getValue());
    Value bytes = LLVM::MulOp::create(
        rewriter, loc, offsets, LLVM::ConstantOp::create(rewriter, loc, type, scale));
    rewriter.replaceOpWithNewOp<LLVM::AddOp>(op, adaptor.getPtr(), bytes);
    return success();
  }
};

/// One vector access: `width` adjacent registers moved as `words` PTX words.
/// A single byte (i8, fp8, i1 stored as a byte) is one .b8 word, which PTX
/// moves through a 16-bit register.
struct AccessShape {
  unsigned width;
  unsigned words;
  unsigned wordBits;

  static AccessShape get(const Laid &laid, int64_t contiguity, Type element) {
    unsigned bytes = getByteSize(element);
    unsigned width =
        std::min<int64_t>(getContiguousRegisters(laid.layout, laid.shape), contiguity);
    width = std::min(width, std::max(1u, kMaxAccessBytes / bytes));
    if (element.isInteger(1))
      width = 1; // i1 registers are widened to a byte one at a time
    unsigned total = width * bytes;
    if (total == 1)
      return AccessShape{1, 1, 8};
    unsigned wordBytes = total >= 4 ? 4 : 2;
    return AccessShape{width, total / wordBytes, wordBytes * 8};
  }
  /// Bits of the register a word travels in.
  unsigned registerBits() const { return std::max(wordBits, 16u); }
  std::string operandList(unsigned first) const {
    std::string list;
    for (unsigned i = 0; i < words; ++i)
      list += (i ? ", $" : "$") + std::to_string(first + i);
    return words > 1 ? "{" + list + "}" : list;
  }
  std::string suffix() const {
    return (words > 1 ? ".v" + std::to_string(words) : std::string()) + ".b" +
           std::to_string(wordBits);
  }
  std::string wordConstraint() const { return wordBits == 32 ? "r" : "h"; }

  /// The registers of a group (vector<width x element>) as PTX words
  /// (vector<words x iN>, N = wordBits); i1 becomes a byte.
  Value toWords(RegisterEmitter &e, Value group) const {
    auto type = VectorType::get({words}, e.builder.getIntegerType(wordBits));
    if (cast<VectorType>(group.getType()).getElementType().isInteger(1))
      return LLVM::ZExtOp::create(e.builder, e.loc, type, group);
    return LLVM::BitcastOp::create(e.builder, e.loc, type, group);
  }
  /// The inverse of toWords.
  Value fromWords(RegisterEmitter &e, Value wordVector, VectorType groupType) const {
    if (groupType.getElementType().isInteger(1)) {
      Value zero = LLVM::ConstantOp::create(
          e.builder, e.loc, wordVector.getType(),
          e.builder.getZeroAttr(wordVector.getType()));
      return LLVM::ICmpOp::create(e.builder, e.loc, LLVM::ICmpPredicate::ne, wordVector, zero);
    }
    return LLVM::BitcastOp::create(e.builder, e.loc, groupType, wordVector);
  }
  /// A word as the register it travels in, and back.
  Value toRegister(RegisterEmitter &e, Value word) const {
    if (registerBits() == wordBits)
      return word;
    return LLVM::ZExtOp::create(e.builder, e.loc, e.builder.getIntegerType(registerBits()), word);
  }
  Value fromRegister(RegisterEmitter &e, Value reg) const {
    if (registerBits() == wordBits)
      return reg;
    return LLVM::TruncOp::create(e.builder, e.loc, e.builder.getIntegerType(wordBits), reg);
  }
};

/// The qualifier an ordered access adds to ld/st (".acquire.gpu"); empty
/// for a weak one. Global accesses only: generic ones (kernels with a
/// tile-block alloca) go through plain LLVM loads and stores.
static std::string getOrderQualifier(Operation *op) {
  auto order = op->getAttrOfType<StringAttr>(kMemoryOrderAttrName);
  return order ? "." + order.str() : std::string();
}

/// Address and predicate of the group starting at register `first`.
static std::pair<Value, Value> groupAddress(RegisterEmitter &e, Value ptrs,
                                            Value mask, int64_t first,
                                            unsigned addressSpace) {
  Value address = LLVM::IntToPtrOp::create(
      e.builder, e.loc, LLVM::LLVMPointerType::get(e.builder.getContext(), addressSpace),
      e.extract(ptrs, first));
  Value predicate = mask ? e.extract(mask, first)
                         : LLVM::ConstantOp::create(e.builder, e.loc,
                                                    e.builder.getI1Type(),
                                                    e.builder.getBoolAttr(true))
                               .getResult();
  return {address, predicate};
}

static unsigned getAddressSpace(Type ptrTensor) {
  return cast<PtrType>(cast<RankedTensorType>(ptrTensor).getElementType())
      .getAddressSpace();
}

/// The words of one group as an LLVM load (generic pointers), zeros where
/// `predicate` is false.
static Value loadWordsUnderBranch(RewriterBase &rewriter, Location loc,
                                  const AccessShape &access, Value address,
                                  Value predicate) {
  auto wordsType = VectorType::get({access.words}, rewriter.getIntegerType(access.wordBits));
  Value zeros = LLVM::ZeroOp::create(rewriter, loc, wordsType);
  unsigned alignment = access.words * access.wordBits / 8;
  return emitIfElse(rewriter, loc, predicate, zeros, [&]() -> Value {
    return LLVM::LoadOp::create(rewriter, loc, wordsType, address, alignment);
  });
}

/// The same for a store of `words` (a vector<words x iN>).
static void storeWordsUnderBranch(RewriterBase &rewriter, Location loc,
                                  const AccessShape &access, Value address,
                                  Value predicate, Value words) {
  unsigned alignment = access.words * access.wordBits / 8;
  emitIf(rewriter, loc, predicate, [&] {
    LLVM::StoreOp::create(rewriter, loc, words, address, alignment);
  });
}

struct LoadLowering : ConvertOpToLLVMPattern<LoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> laid = Laid::of(op, op.getType());
    if (failed(laid))
      return failure();
    Type element = op.getType().getElementType();
    std::optional<AccessShape> access =
        AccessShape::get(*laid, op.getContiguity(), element);
    Location loc = op.getLoc();
    auto type = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    Type wordType = rewriter.getIntegerType(access->registerBits());
    auto wordsType = VectorType::get({access->words}, rewriter.getIntegerType(access->wordBits));
    auto groupType = VectorType::get({access->width}, type.getElementType());
    std::string asmString = "@$" + std::to_string(access->words + 1) +
                            " ld" + getOrderQualifier(op) + ".global" + access->suffix() + " " +
                            access->operandList(0) + ", [$" +
                            std::to_string(access->words) + "];";
    std::string constraints;
    for (unsigned i = 0; i < access->words; ++i)
      constraints += "=" + access->wordConstraint() + ",";
    constraints += "l,b";
    Type resultType = wordType;
    if (access->words > 1)
      resultType = LLVM::LLVMStructType::getLiteral(
          op.getContext(), SmallVector<Type>(access->words, wordType));

    RegisterEmitter e(rewriter, loc);
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    unsigned addressSpace = getAddressSpace(op.getPtrs().getType());
    for (int64_t first = 0; first < type.getNumElements(); first += access->width) {
      auto [address, predicate] =
          groupAddress(e, adaptor.getPtrs(), adaptor.getMask(), first, addressSpace);
      Value wordVector;
      if (addressSpace != kGlobalAddressSpace) {
        wordVector = loadWordsUnderBranch(rewriter, loc, *access, address, predicate);
      } else {
        auto asmOp = LLVM::InlineAsmOp::create(
            rewriter, loc, resultType, ValueRange{address, predicate}, asmString,
            constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
            LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
            ArrayAttr());
        SmallVector<Value> words;
        if (access->words == 1)
          words.push_back(access->fromRegister(e, asmOp.getResult(0)));
        else
          for (unsigned i = 0; i < access->words; ++i)
            words.push_back(LLVM::ExtractValueOp::create(rewriter, loc, asmOp.getResult(0), i));
        wordVector = e.buildVector(wordsType, words);
      }
      // Where the mask is off the group takes `other`: one select of the
      // packed words on the group's predicate (the contiguity promised one
      // mask bit per group), not one per element. Per element, a 16-byte
      // fp8 group took 16 selects of 16-bit registers and the byte shuffles
      // to unpack and repack them (BlockScaledMatMul on sm_120a: over half
      // of its PTX).
      if (adaptor.getMask() && adaptor.getOther()) {
        SmallVector<Value> others;
        for (unsigned i = 0; i < access->width; ++i)
          others.push_back(e.extract(adaptor.getOther(), first + i));
        Value otherWords = access->toWords(e, e.buildVector(groupType, others));
        wordVector = LLVM::SelectOp::create(rewriter, loc, predicate, wordVector, otherWords);
      }
      Value group = access->fromWords(e, wordVector, groupType);
      for (unsigned i = 0; i < access->width; ++i)
        result = e.insert(result, e.extract(group, i), first + i);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct StoreLowering : ConvertOpToLLVMPattern<StoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Laid> laid = Laid::of(op, op.getValue().getType());
    if (failed(laid))
      return failure();
    Type element = op.getValue().getType().getElementType();
    std::optional<AccessShape> access =
        AccessShape::get(*laid, op.getContiguity(), element);
    Location loc = op.getLoc();
    auto type = cast<VectorType>(adaptor.getValue().getType());
    auto groupType = VectorType::get({access->width}, type.getElementType());
    std::string asmString = "@$" + std::to_string(access->words + 1) +
                            " st" + getOrderQualifier(op) + ".global" + access->suffix() + " [$0], " +
                            access->operandList(1) + ";";
    std::string constraints = "l";
    for (unsigned i = 0; i < access->words; ++i)
      constraints += "," + access->wordConstraint();
    constraints += ",b";

    RegisterEmitter e(rewriter, loc);
    unsigned addressSpace = getAddressSpace(op.getPtrs().getType());
    // Only the first copy of a replicated element is stored: a copy stored
    // later by another warp could overwrite a newer value (a read-modify-
    // write of a small tile under a lock).
    SmallVector<Value> firsts = e.firstCopy(laid->layout, laid->shape);
    for (int64_t first = 0; first < type.getNumElements(); first += access->width) {
      auto [address, predicate] =
          groupAddress(e, adaptor.getPtrs(), adaptor.getMask(), first, addressSpace);
      if (!firsts.empty())
        predicate = LLVM::AndOp::create(rewriter, loc, predicate, firsts[first]);
      SmallVector<Value> elements;
      for (unsigned i = 0; i < access->width; ++i)
        elements.push_back(e.extract(adaptor.getValue(), first + i));
      Value words = access->toWords(e, e.buildVector(groupType, elements));
      if (addressSpace != kGlobalAddressSpace) {
        storeWordsUnderBranch(rewriter, loc, *access, address, predicate, words);
        continue;
      }
      SmallVector<Value> operands{address};
      for (unsigned i = 0; i < access->words; ++i)
        operands.push_back(access->toRegister(e, e.extract(words, i)));
      operands.push_back(predicate);
      LLVM::InlineAsmOp::create(rewriter, loc, TypeRange(), operands, asmString,
                                constraints, /*has_side_effects=*/true,
                                /*is_align_stack=*/false,
                                LLVM::tailcallkind::TailCallKind::None,
                                LLVM::AsmDialectAttr(), ArrayAttr());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertTileASToLLVMPass
    : public tilepipe::impl::ConvertTileASToLLVMBase<ConvertTileASToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    materializeGlobalAllocas(module);
    TileLLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    patterns.add<GridQueryLowering<BlockIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp,
                                   NVVM::BlockIdZOp, NVVM::ClusterIdXOp, NVVM::ClusterIdYOp,
                                   NVVM::ClusterIdZOp>,
                 GridQueryLowering<NumBlocksOp, NVVM::GridDimXOp, NVVM::GridDimYOp,
                                   NVVM::GridDimZOp, NVVM::ClusterDimXOp, NVVM::ClusterDimYOp,
                                   NVVM::ClusterDimZOp>,
                 ClusterCtaRankLowering, SplatLowering, IotaLowering, AddPtrLowering,
                 LoadLowering, StoreLowering>(converter);
    populateTensorConstantToLLVMPatterns(converter, patterns);
    populateDataMovementToLLVMPatterns(converter, patterns);
    populateReductionToLLVMPatterns(converter, patterns);
    populateMatrixToLLVMPatterns(converter, patterns);
    populateBlockScaledMmaToLLVMPatterns(converter, patterns);
    populateBlockScaledTcgen05ToLLVMPatterns(converter, patterns);
    populateTcgen05AccumulatorToLLVMPatterns(converter, patterns);
    populateAtomicToLLVMPatterns(converter, patterns);
    populateControlFlowToLLVMPatterns(converter, patterns);
    populateArithmeticToLLVMPatterns(converter, patterns);
    populateDirectedArithToLLVMPatterns(converter, patterns);
    populateMiscToLLVMPatterns(converter, patterns);
    populateTmaStoreToLLVMPatterns(converter, patterns);
    populateCTABarrierToLLVMPatterns(patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    // Transcendentals through libdevice (__nv_*), the rest to LLVM intrinsics.
    populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/2);
    populateMathToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*context);
    target.addLegalDialect<NVVM::NVVMDialect>();
    target.addDynamicallyLegalOp<NVVM::Barrier0Op>(
        [](NVVM::Barrier0Op op) { return !isInWarpSpecializedModule(op); });
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))) ||
        failed(finishTensorMemory(module)))
      return signalPassFailure();

    setKernelLaunchAttributes(module);
  }

  /// Kernel entry attributes: the CTA size (reqntid = 32 * num_warps), and on
  /// sm_90+ the tile-kernel launch shape. cuTile launches every tile kernel
  /// with blockDim (1,1,1) and expects the driver to take the CTA from the
  /// cubin. `.blocksareclusters` (with `.reqntid` and `.reqnctapercluster`)
  /// makes the launch's block dimensions count CTAs of a cluster rather than
  /// threads, so blockDim (1,1,1) launches one CTA of reqntid threads. Before
  /// sm_90 PTX has no such directive (see docs/launch-and-packaging.md).
  ///
  /// A warp-specialized kernel (tile_as.producer_warps, see
  /// WarpSpecializeRings.cpp) has the producer's warps after the
  /// consumers' num_warps; its CTA barriers count whom they wait for as
  /// emitCTABarrier makes them.
  static void setKernelLaunchAttributes(ModuleOp module) {
    unsigned numWarps = 4, producerWarps = 0;
    if (auto attr = module->getAttrOfType<IntegerAttr>(TileASDialect::kNumWarpsAttrName))
      numWarps = attr.getInt();
    if (auto attr = module->getAttrOfType<IntegerAttr>(kProducerWarpsAttrName))
      producerWarps = attr.getInt();
    unsigned sm = 0;
    if (auto target = module->getAttrOfType<StringAttr>(TileASDialect::kTargetAttrName)) {
      if (auto gpu = parseGpuTarget(target.getValue()))
        sm = gpu->sm;
      else
        llvm::consumeError(gpu.takeError());
    }
    Builder builder(module.getContext());
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal())
        continue;
      func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), builder.getUnitAttr());
      func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                    builder.getDenseI32ArrayAttr({int32_t(32 * (numWarps + producerWarps)), 1, 1}));
      // `.minnctapersm 1`: without it ptxas (13.0) caps a `.reqntid 256`
      // kernel at 48 registers and spills kilobytes (an 8-warp 128x256
      // matmul); with it the whole register file is available.
      func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), builder.getI32IntegerAttr(1));
      // A function split across a CTA pair runs each tile block (each block
      // of the launch) on a cluster of ctas CTAs along x.
      int32_t ctas = getCtasPerCluster(func);
      func->removeAttr(TileASDialect::kCtasPerClusterAttrName);
      func->removeAttr(TileASDialect::kCtaPairRowsAttrName);
      if (sm >= 90) {
        func->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                      builder.getDenseI32ArrayAttr({ctas, 1, 1}));
        func->setAttr(NVVM::NVVMDialect::getBlocksAreClustersAttrName(),
                      builder.getUnitAttr());
      }
    }
  }
};
} // namespace
