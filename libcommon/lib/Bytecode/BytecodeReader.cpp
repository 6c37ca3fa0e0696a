//===- BytecodeReader.cpp - TileIR bytecode to the cuda_tile dialect ------===//
//
// The op layer: walks function bodies with the per-opcode rows of OpTable and
// creates each op by name with an OperationState, then verifies the module.
// Values are numbered per function (arguments, then results in order); a
// nested block continues the numbering and its numbers die with the block.
//
//===----------------------------------------------------------------------===//

#include "tilepipe/Bytecode/BytecodeReader.h"

#include "IRConversion.h"
#include "tilepipe/Bytecode/OpTable.h"
#include "tilepipe/Dialect/CudaTile/IR/CudaTile.h"
#include "tilepipe/Support/ExitCodes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

using namespace tilepipe;
using namespace tilepipe::bytecode;
using namespace mlir;
namespace ct = tilepipe::cuda_tile;
using llvm::Twine;

namespace {

constexpr unsigned kMaxRegionNesting = 64;

class FunctionBodyReader {
public:
  FunctionBodyReader(IRConversion &ir, const WireModule &wire,
                     llvm::ArrayRef<uint64_t> debugIndices, bool hasDebugInfo)
      : ir(ir), wire(wire), debugIndices(debugIndices),
        hasDebugInfo(hasDebugInfo) {}

  LogicalResult readBody(ByteCursor &cursor, Block *block);

private:
  LogicalResult readOp(ByteCursor &cursor, Block *block, unsigned depth);
  LogicalResult readRegion(ByteCursor &cursor, Region &region, unsigned depth);
  LogicalResult readValue(ByteCursor &cursor, SmallVectorImpl<Value> &operands);
  LogicalResult readValues(ByteCursor &cursor, uint64_t count,
                           SmallVectorImpl<Value> &operands);
  LogicalResult readTypes(ByteCursor &cursor, uint64_t count,
                          SmallVectorImpl<Type> &types);
  FailureOr<Location> nextLocation(const ByteCursor &cursor);
  /// A self-contained (tagged) attribute, decoded and rebuilt.
  FailureOr<Attribute> readTaggedAttr(ByteCursor &cursor);

  IRConversion &ir;
  const WireModule &wire;
  llvm::ArrayRef<uint64_t> debugIndices;
  bool hasDebugInfo;
  size_t nextDebugSlot = 1; // slot 0 is the function's own location
  std::vector<Value> values;
  MLIRContext *ctx() const { return ir.getContext(); }
};

} // namespace

FailureOr<Location> FunctionBodyReader::nextLocation(const ByteCursor &cursor) {
  if (!hasDebugInfo || nextDebugSlot >= debugIndices.size())
    return Location(UnknownLoc::get(ctx()));
  return ir.getLocation(debugIndices[nextDebugSlot++], cursor);
}

FailureOr<Attribute> FunctionBodyReader::readTaggedAttr(ByteCursor &cursor) {
  WireAttr attr;
  if (failed(parseWireAttr(cursor, wire, attr)))
    return failure();
  return ir.convertAttr(attr, cursor);
}

LogicalResult FunctionBodyReader::readBody(ByteCursor &cursor, Block *block) {
  values.assign(block->args_begin(), block->args_end());
  unsigned index = 0;
  while (!cursor.atEnd()) {
    if (failed(readOp(cursor, block, 0))) {
      cursor.diagnostic().addContext("failed to parse operation " +
                                     Twine(index) + " of the function body");
      return failure();
    }
    ++index;
  }
  return success();
}

LogicalResult FunctionBodyReader::readValue(ByteCursor &cursor,
                                            SmallVectorImpl<Value> &operands) {
  size_t at = cursor.offset();
  uint64_t index;
  if (failed(cursor.readVarint(index)))
    return failure();
  if (index >= values.size())
    return cursor.failAt(at, "value index " + Twine(index) + " out of bounds (" +
                                 Twine(values.size()) + " values defined)");
  operands.push_back(values[index]);
  return success();
}

LogicalResult FunctionBodyReader::readValues(ByteCursor &cursor, uint64_t count,
                                             SmallVectorImpl<Value> &operands) {
  for (uint64_t i = 0; i < count; ++i)
    if (failed(readValue(cursor, operands)))
      return failure();
  return success();
}

LogicalResult FunctionBodyReader::readTypes(ByteCursor &cursor, uint64_t count,
                                            SmallVectorImpl<Type> &types) {
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t index;
    if (failed(wire.readTypeIndex(cursor, index)))
      return failure();
    FailureOr<Type> type = ir.getType(index, cursor);
    if (failed(type))
      return failure();
    types.push_back(*type);
  }
  return success();
}

LogicalResult FunctionBodyReader::readRegion(ByteCursor &cursor, Region &region,
                                             unsigned depth) {
  uint64_t numBlocks;
  if (failed(cursor.readCount(numBlocks, 2, "block")))
    return failure();
  for (uint64_t b = 0; b < numBlocks; ++b) {
    Block *block = new Block();
    region.push_back(block);
    uint64_t numArgs;
    if (failed(cursor.readCount(numArgs, 1, "block argument")))
      return failure();
    SmallVector<Type> argTypes;
    if (failed(readTypes(cursor, numArgs, argTypes)))
      return failure();
    size_t scope = values.size();
    for (Type type : argTypes)
      values.push_back(block->addArgument(type, region.getParentOp()
                                                    ? region.getParentOp()->getLoc()
                                                    : UnknownLoc::get(ctx())));
    uint64_t numOps;
    if (failed(cursor.readCount(numOps, 1, "operation")))
      return failure();
    if (numOps == 0)
      return cursor.fail("block " + Twine(b) + " has no operations");
    for (uint64_t i = 0; i < numOps; ++i) {
      if (failed(readOp(cursor, block, depth))) {
        cursor.diagnostic().addContext("failed to parse operation " + Twine(i) +
                                       " of block " + Twine(b));
        return failure();
      }
    }
    values.resize(scope);
  }
  return success();
}

LogicalResult FunctionBodyReader::readOp(ByteCursor &cursor, Block *block,
                                         unsigned depth) {
  const Version &version = wire.version;
  size_t opcodeOffset = cursor.offset();
  uint64_t opcode;
  if (failed(cursor.readVarint(opcode)))
    return failure();
  if (opcode > maxOpcodeForVersion(version))
    return cursor.failAt(opcodeOffset,
                         "unsupported opcode " + Twine(opcode) +
                             " for bytecode version " + Twine(unsigned(version.major)) +
                             "." + Twine(unsigned(version.minor)));
  const OpSpec *spec = lookupOpcode(opcode);
  if (!spec)
    return cursor.failAt(opcodeOffset,
                         "unknown or unimplemented opcode: " + Twine(opcode));
  FailureOr<Location> loc = nextLocation(cursor);
  if (failed(loc))
    return failure();

  std::string opName = ("cuda_tile." + spec->name).str();
  OperationState state(*loc, opName);
  if (!state.name.isRegistered() && !ctx()->allowsUnregisteredDialects())
    return cursor.failAt(opcodeOffset, "operation '" + opName +
                                           "' is not registered in the context");

  uint64_t flags = 0;
  size_t numberedResults = 0;
  bool haveResultCount = false;
  SmallVector<int32_t> segmentSizes;
  auto flagSet = [&](int bit) { return bit >= 0 && (flags >> bit) & 1; };

  for (const FieldSpec &field : spec->fields) {
    bool present = !(version < field.since);
    switch (field.kind) {
    case FieldKind::ResultCount: {
      uint64_t count;
      if (failed(cursor.readCount(count, 1, "result")) ||
          failed(readTypes(cursor, count, state.types)))
        return failure();
      numberedResults = count;
      haveResultCount = true;
      break;
    }
    case FieldKind::Result:
      if (!present) {
        // A result newer than the file: recreated, but it takes no number.
        if (field.defaultEnumType == "token")
          state.types.push_back(ct::TokenType::get(ctx()));
        break;
      }
      if (haveResultCount)
        break; // its types were read with the count
      if (failed(readTypes(cursor, field.count, state.types)))
        return failure();
      numberedResults = state.types.size();
      break;
    case FieldKind::Flags:
      if (present && failed(cursor.readVarint(flags)))
        return failure();
      break;
    case FieldKind::UnitAttr:
      if (flagSet(field.flagBit))
        state.addAttribute(field.name, UnitAttr::get(ctx()));
      break;
    case FieldKind::EnumAttr: {
      if (field.flagBit >= 0 && !flagSet(field.flagBit))
        break;
      uint64_t value = uint64_t(field.defaultValue);
      if (present && failed(cursor.readVarint(value)))
        return failure();
      FailureOr<Attribute> attr = ir.enumAttr(field.enumKind, value, cursor);
      if (failed(attr))
        return failure();
      state.addAttribute(field.name, *attr);
      break;
    }
    case FieldKind::IntAttr: {
      size_t at = cursor.offset();
      uint64_t value;
      if (failed(cursor.readVarint(value)))
        return failure();
      if (field.width < 64 && value > (uint64_t(1) << field.width) - 1)
        return cursor.failAt(at, "value " + Twine(value) + " of attribute '" +
                                     field.name + "' does not fit in i" +
                                     Twine(field.width));
      state.addAttribute(field.name,
                         IntegerAttr::get(IntegerType::get(ctx(), field.width),
                                          APInt(field.width, value)));
      break;
    }
    case FieldKind::BoolAttr: {
      uint8_t byte;
      if (failed(cursor.readByte(byte)))
        return failure();
      state.addAttribute(field.name, BoolAttr::get(ctx(), byte != 0));
      break;
    }
    case FieldKind::StringAttr:
    case FieldKind::SymbolRefAttr: {
      StringRef text;
      if (failed(wire.readString(cursor, text)))
        return failure();
      if (field.kind == FieldKind::StringAttr)
        state.addAttribute(field.name, StringAttr::get(ctx(), text));
      else
        state.addAttribute(field.name, FlatSymbolRefAttr::get(ctx(), text));
      break;
    }
    case FieldKind::I32ArrayAttr: {
      SmallVector<int32_t> elements;
      size_t at = cursor.offset();
      if (failed(cursor.readI32Array(elements)))
        return failure();
      for (int32_t element : elements)
        if (element == INT32_MIN || element == INT32_MAX) {
          (void)cursor.failAt(at, "array contains unsupported value " +
                                      Twine(element));
          cursor.diagnostic().addContext("failed to parse attribute '" +
                                         field.name + "'");
          return failure();
        }
      state.addAttribute(field.name, DenseI32ArrayAttr::get(ctx(), elements));
      break;
    }
    case FieldKind::ConstantAttr: {
      size_t at = cursor.offset();
      uint64_t index;
      if (failed(cursor.readVarint(index)))
        return failure();
      if (state.types.empty())
        return cursor.failAt(at, "constant without a result type");
      FailureOr<Attribute> value = ir.denseConstant(index, state.types[0], cursor);
      if (failed(value))
        return failure();
      state.addAttribute(field.name, *value);
      break;
    }
    case FieldKind::TaggedAttr: {
      FailureOr<Attribute> converted = readTaggedAttr(cursor);
      if (failed(converted))
        return failure();
      state.addAttribute(field.name, *converted);
      break;
    }
    case FieldKind::TaggedArrayAttr: {
      uint64_t count;
      if (failed(cursor.readCount(count, 1, "attribute array")))
        return failure();
      SmallVector<Attribute> elements;
      for (uint64_t i = 0; i < count; ++i) {
        FailureOr<Attribute> converted = readTaggedAttr(cursor);
        if (failed(converted))
          return failure();
        elements.push_back(*converted);
      }
      state.addAttribute(field.name, ArrayAttr::get(ctx(), elements));
      break;
    }
    case FieldKind::HintsAttr: {
      if (!flagSet(field.flagBit))
        break;
      WireAttr dict;
      dict.tag = uint64_t(AttrTag::OptimizationHints);
      if (failed(parseWireDictionary(cursor, wire, dict)))
        return failure();
      FailureOr<Attribute> converted = ir.convertAttr(dict, cursor);
      if (failed(converted))
        return failure();
      state.addAttribute(field.name, *converted);
      break;
    }
    case FieldKind::BoolArrayAttr: {
      if (!present)
        break;
      uint64_t count;
      if (failed(cursor.readCount(count, 1, "bool array")))
        return failure();
      SmallVector<bool> elements;
      bool anySet = false;
      for (uint64_t i = 0; i < count; ++i) {
        uint8_t byte;
        if (failed(cursor.readByte(byte)))
          return failure();
        elements.push_back(byte != 0);
        anySet |= byte != 0;
      }
      // All-false is what older versions mean by leaving the field out.
      if (anySet)
        state.addAttribute(field.name, DenseBoolArrayAttr::get(ctx(), elements));
      break;
    }
    case FieldKind::Operands: {
      uint64_t count = field.count;
      if (field.variadic &&
          failed(cursor.readCount(count, 1, "operand")))
        return failure();
      if (failed(readValues(cursor, count, state.operands)))
        return failure();
      break;
    }
    case FieldKind::Segment: {
      uint64_t count = 1;
      if (field.variadic) {
        if (failed(cursor.readCount(count, 1, "operand")))
          return failure();
      } else if (field.flagBit >= 0) {
        count = flagSet(field.flagBit) ? 1 : 0;
      }
      if (failed(readValues(cursor, count, state.operands)))
        return failure();
      segmentSizes.push_back(int32_t(count));
      break;
    }
    case FieldKind::Regions: {
      if (depth + 1 > kMaxRegionNesting)
        return cursor.fail("region nesting exceeds " + Twine(kMaxRegionNesting));
      uint64_t numRegions;
      if (failed(cursor.readCount(numRegions, 1, "region")))
        return failure();
      for (uint64_t r = 0; r < numRegions; ++r) {
        Region *region = state.addRegion();
        if (failed(readRegion(cursor, *region, depth + 1))) {
          cursor.diagnostic().addContext("failed to parse region " + Twine(r));
          return failure();
        }
      }
      break;
    }
    }
  }
  if (spec->hasSegments())
    state.addAttribute("operandSegmentSizes",
                       DenseI32ArrayAttr::get(ctx(), segmentSizes));

  Operation *op = Operation::create(state);
  block->push_back(op);
  for (size_t i = 0; i < numberedResults && i < op->getNumResults(); ++i)
    values.push_back(op->getResult(i));
  return success();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

namespace {

class ModuleReader {
public:
  ModuleReader(MLIRContext *context, const WireModule &wire, WireDiagnostic &diag)
      : context(context), wire(wire), diag(diag), ir(context, wire, diag) {}

  FailureOr<OwningOpRef<Operation *>> read(llvm::ArrayRef<uint8_t> file);

private:
  LogicalResult readGlobal(const WireGlobal &global, Block *body,
                           const ByteCursor &at);
  LogicalResult readFunction(const WireFunction &function, Block *body,
                             const ByteCursor &at);

  MLIRContext *context;
  const WireModule &wire;
  WireDiagnostic &diag;
  IRConversion ir;
};

} // namespace

LogicalResult ModuleReader::readGlobal(const WireGlobal &global, Block *body,
                                       const ByteCursor &at) {
  FailureOr<Type> type = ir.getType(global.type, at);
  if (failed(type))
    return failure();
  FailureOr<Attribute> value = ir.denseConstant(global.constant, *type, at);
  if (failed(value))
    return failure();
  OperationState state(UnknownLoc::get(context), "cuda_tile.global");
  state.addAttribute("sym_name", StringAttr::get(context, wire.strings[global.name]));
  state.addAttribute("value", *value);
  if (global.alignment != 0)
    state.addAttribute("alignment",
                       IntegerAttr::get(IntegerType::get(context, 64),
                                        APInt(64, global.alignment)));
  if (global.isConstant)
    state.addAttribute("constant", UnitAttr::get(context));
  if (global.visibility != 0) {
    FailureOr<Attribute> visibility =
        ir.enumAttr("SymbolVisibility", global.visibility, at);
    if (failed(visibility))
      return failure();
    state.addAttribute("symbol_visibility", *visibility);
  }
  body->push_back(Operation::create(state));
  return success();
}

LogicalResult ModuleReader::readFunction(const WireFunction &function,
                                         Block *body, const ByteCursor &at) {
  if (!function.isKernel())
    return at.fail("un-expected non-entry function");
  if (function.name >= wire.strings.size() || !wire.stringValid[function.name])
    return at.fail("string index " + Twine(function.name) + " out of bounds");
  FailureOr<Type> signature = ir.getType(function.signature, at);
  if (failed(signature))
    return failure();
  auto functionType = dyn_cast<FunctionType>(*signature);
  if (!functionType)
    return at.fail("function signature is not a function type");

  llvm::ArrayRef<uint64_t> debugIndices = wire.debugIndicesOf(function.location);
  bool hasDebugInfo = !debugIndices.empty() && debugIndices.front() != 0;
  Location loc = UnknownLoc::get(context);
  if (hasDebugInfo) {
    FailureOr<Location> own = ir.getLocation(debugIndices.front(), at);
    if (failed(own))
      return failure();
    loc = *own;
  }

  OperationState state(loc, "cuda_tile.entry");
  state.addAttribute("sym_name",
                     StringAttr::get(context, wire.strings[function.name]));
  state.addAttribute("function_type", TypeAttr::get(functionType));
  if (function.hints) {
    FailureOr<Attribute> hints = ir.convertAttr(*function.hints, at);
    if (failed(hints))
      return failure();
    // An empty hints table says nothing: NVIDIA's reader drops it too.
    auto table = dyn_cast<ct::OptimizationHintsAttr>(*hints);
    if (!table || !table.getValue().empty())
      state.addAttribute("optimization_hints", *hints);
  }
  Region *region = state.addRegion();
  Block *entryBlock = new Block();
  region->push_back(entryBlock);
  for (Type input : functionType.getInputs())
    entryBlock->addArgument(input, loc);
  Operation *entry = Operation::create(state);
  body->push_back(entry);

  ByteCursor cursor(function.body, function.bodyStart, diag);
  FunctionBodyReader reader(ir, wire, debugIndices, hasDebugInfo);
  return reader.readBody(cursor, entryBlock);
}

FailureOr<OwningOpRef<Operation *>>
ModuleReader::read(llvm::ArrayRef<uint8_t> file) {
  OperationState state(UnknownLoc::get(context), "cuda_tile.module");
  if (!state.name.isRegistered() && !context->allowsUnregisteredDialects()) {
    diag.errorNoOffset("the cuda_tile dialect is not registered");
    return failure();
  }
  state.addAttribute("sym_name", StringAttr::get(context, "kernels"));
  if (wire.producer)
    state.addAttribute("producer",
                       StringAttr::get(context, wire.strings[*wire.producer]));
  Region *region = state.addRegion();
  Block *body = new Block();
  region->push_back(body);
  OwningOpRef<Operation *> module(Operation::create(state));

  ByteCursor whole(file, 0, diag);
  for (const WireGlobal &global : wire.globals)
    if (failed(readGlobal(global, body, whole))) {
      diag.addContext("failed to parse global section");
      return failure();
    }
  for (const WireFunction &function : wire.functions)
    if (failed(readFunction(function, body, whole))) {
      diag.addContext("failed to parse function section");
      return failure();
    }
  return module;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

bool tilepipe::isTileIRBytecode(llvm::StringRef buffer) {
  return hasTileIRMagic(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(buffer.data()), buffer.size()));
}

int tilepipe::exitCodeFor(BytecodeReadStatus status) {
  switch (status) {
  case BytecodeReadStatus::Success:
    return kExitSuccess;
  case BytecodeReadStatus::NotTileIR:
  case BytecodeReadStatus::UnsupportedVersion:
    return kExitNotTileIR;
  case BytecodeReadStatus::Malformed:
    return kExitCompile;
  }
  return kExitCompile;
}

static void emitWireDiagnostic(MLIRContext *context, const WireDiagnostic &diag) {
  InFlightDiagnostic error = emitError(UnknownLoc::get(context)) << diag.message();
  for (const std::string &line : diag.contexts())
    error.attachNote() << line;
}

FailureOr<OwningOpRef<Operation *>>
tilepipe::readTileIRBytecode(llvm::MemoryBufferRef buffer, MLIRContext *context,
                             BytecodeReadStatus *status) {
  BytecodeReadStatus ignored;
  BytecodeReadStatus &result = status ? *status : ignored;
  llvm::ArrayRef<uint8_t> file(
      reinterpret_cast<const uint8_t *>(buffer.getBufferStart()),
      buffer.getBufferSize());
  WireModule wire;
  WireDiagnostic diag;
  ReadFailure kind;
  if (failed(parseWireModule(file, wire, diag, kind))) {
    result = kind == ReadFailure::NotTileIR ? BytecodeReadStatus::NotTileIR
             : kind == ReadFailure::UnsupportedVersion
                 ? BytecodeReadStatus::UnsupportedVersion
                 : BytecodeReadStatus::Malformed;
    emitWireDiagnostic(context, diag);
    return failure();
  }
  result = BytecodeReadStatus::Malformed;
  context->getOrLoadDialect<ct::CudaTileDialect>();
  FailureOr<OwningOpRef<Operation *>> module =
      ModuleReader(context, wire, diag).read(file);
  if (failed(module)) {
    emitWireDiagnostic(context, diag);
    return failure();
  }
  if (failed(verify(module->get()))) {
    emitError(UnknownLoc::get(context))
        << "verification failed for deserialized cuda_tile::ModuleOp";
    return failure();
  }
  result = BytecodeReadStatus::Success;
  return module;
}
