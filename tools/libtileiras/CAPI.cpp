//===- CAPI.cpp - tileirasProgram* over the in-process compiler -----------===//
//
// Validation order and messages follow the original's create path:
// program, config, buffer, bytecode magic, GPU, -O, debug vs -O, host arch,
// host OS, allocation. Messages go to stderr (as the original's do) and to
// the program's log.
//
//===----------------------------------------------------------------------===//
#include "tileiras/tileiras.h"

#include "tilepipe/Driver/InProcessCompiler.h"
#include "tilepipe/Support/InputKind.h"

#include "llvm/Support/raw_ostream.h"

#include <new>
#include <string>

using namespace tilepipe;

struct TileirasProgram {
  std::string input;
  InProcessCompileOptions options;
  bool compiled = false;
  std::string output;
  std::string log;
};

static int report(int code, const char *message, TileirasProgram *program = nullptr) {
  llvm::errs() << "error: " << message << "\n";
  if (program)
    program->log = std::string("error: ") + message + "\n";
  return code;
}

static bool isSupportedGpu(int32_t id) {
  for (unsigned sm : supportedComputeCapabilities())
    if (int32_t(sm) == id)
      return true;
  return false;
}

extern "C" int tileirasProgramCreate(TileirasProgram **program,
                                     const TileirasConfig *config) {
  if (!program)
    return report(TILEIRAS_ERROR_HANDLE, "program is null");
  if (!config)
    return report(TILEIRAS_ERROR_CONFIGURATION, "configuration is null");
  if (!config->input_buffer_data)
    return report(TILEIRAS_ERROR_CONFIGURATION, "input buffer is null");
  llvm::StringRef input(static_cast<const char *>(config->input_buffer_data),
                        config->input_buffer_size);
  InputKind kind = classifyInput(input);
  if (kind == InputKind::Unknown)
    return report(TILEIRAS_ERROR_BYTECODE, notTileIRMessage(kind));
  if (!isSupportedGpu(config->gpu_id))
    return report(TILEIRAS_ERROR_CONFIGURATION, "unsupported GPU target");
  if (uint32_t(config->opt_level) > 3)
    return report(TILEIRAS_ERROR_CONFIGURATION, "invalid optimization level");
  if (config->opt_level != 0 && config->device_debug == 1)
    return report(TILEIRAS_ERROR_CONFIGURATION,
                  "optimized debugging is not supported, change optimization "
                  "level to 0 or disable full debug info");
  if (uint32_t(config->host_arch) > 2)
    return report(TILEIRAS_ERROR_CONFIGURATION, "unsupported host architecture");
  if (uint32_t(config->host_os) > 1)
    return report(TILEIRAS_ERROR_CONFIGURATION, "unsupported host operating system");
  std::string name = "sm_" + std::to_string(config->gpu_id);
  if (config->gpu_variant)
    name += char(config->gpu_variant);
  llvm::Expected<GpuTarget> gpu = parseGpuTarget(name);
  if (!gpu) {
    llvm::consumeError(gpu.takeError());
    return report(TILEIRAS_ERROR_CONFIGURATION, "unsupported GPU target");
  }
  if (config->output_kind != TILEIRAS_OUTPUT_CUBIN &&
      config->output_kind != TILEIRAS_OUTPUT_PTX)
    return report(TILEIRAS_ERROR_CONFIGURATION, "unsupported output kind");

  auto *created = new (std::nothrow) TileirasProgram();
  if (!created)
    return report(TILEIRAS_ERROR_ALLOCATION, "failed to allocate memory for program");
  created->input = input.str();
  created->options.gpu = *gpu;
  created->options.optLevel = unsigned(config->opt_level);
  created->options.lineInfo = config->lineinfo != 0;
  created->options.deviceDebug = config->device_debug != 0;
  created->options.output = config->output_kind == TILEIRAS_OUTPUT_PTX
                                ? CompileOutput::PTX
                                : CompileOutput::Cubin;
  *program = created;
  return TILEIRAS_SUCCESS;
}

extern "C" int tileirasProgramCompile(TileirasProgram *program) {
  if (!program)
    return report(TILEIRAS_ERROR_HANDLE, "program is null");
  InProcessCompileResult result = compileInProcess(program->input, program->options);
  llvm::errs() << result.log;
  program->log = std::move(result.log);
  if (result.exitCode == 3)
    return TILEIRAS_ERROR_BYTECODE;
  if (result.exitCode != 0) {
    program->log += "error: failed to compile Tile IR program\n";
    llvm::errs() << "error: failed to compile Tile IR program\n";
    return TILEIRAS_ERROR_COMPILE;
  }
  program->output = std::move(result.output);
  program->compiled = true;
  return TILEIRAS_SUCCESS;
}

extern "C" int tileirasProgramGetOutput(TileirasProgram *program,
                                        TileirasByteView *output) {
  if (!program)
    return report(TILEIRAS_ERROR_HANDLE, "program is null");
  if (!output)
    return report(TILEIRAS_ERROR_HANDLE, "output pointer is null", program);
  if (!program->compiled)
    return report(TILEIRAS_ERROR_HANDLE, "program has not been compiled", program);
  output->data = program->output.data();
  output->length = program->output.size();
  return TILEIRAS_SUCCESS;
}

extern "C" const char *tileirasProgramGetLog(TileirasProgram *program) {
  return program ? program->log.c_str() : "";
}

extern "C" int tileirasProgramRelease(TileirasProgram *program) {
  if (!program)
    return report(TILEIRAS_ERROR_HANDLE, "program is null");
  delete program;
  return TILEIRAS_SUCCESS;
}
