/*===- tileiras.h - tilepipe's C API: compile TileIR in-process ----------===*
 *
 * The program-handle API of NVIDIA's tileiras driver (create, compile, get
 * output, release; the same error codes and messages), so that a frontend can
 * compile a TileIR bytecode buffer without spawning a process.
 *
 *   TileirasConfig config = {0};
 *   config.input_buffer_data = bytes;  config.input_buffer_size = n;
 *   config.gpu_id = 90;  config.opt_level = 3;
 *   TileirasProgram *program = NULL;
 *   int err = tileirasProgramCreate(&program, &config);
 *   if (!err) err = tileirasProgramCompile(program);
 *   if (!err) err = tileirasProgramGetOutput(program, &view);   // the cubin
 *   tileirasProgramRelease(program);
 *
 * The input buffer is borrowed until tileirasProgramCompile returns. The
 * output view stays valid until tileirasProgramRelease.
 *===----------------------------------------------------------------------===*/
#ifndef TILEIRAS_TILEIRAS_H
#define TILEIRAS_TILEIRAS_H

#include <stddef.h>
#include <stdint.h>

#if defined(TILEIRAS_BUILDING_LIBRARY) && defined(__GNUC__)
#define TILEIRAS_API __attribute__((visibility("default")))
#else
#define TILEIRAS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes of every entry point. */
enum {
  TILEIRAS_SUCCESS = 0,
  TILEIRAS_ERROR_ALLOCATION = 1,    /* failed to allocate memory for program */
  TILEIRAS_ERROR_CONFIGURATION = 2, /* null config/buffer, bad target, -O, host */
  TILEIRAS_ERROR_BYTECODE = 3,      /* not TileIR bytecode / version not read */
  TILEIRAS_ERROR_HANDLE = 4,        /* null program/output, not compiled */
  TILEIRAS_ERROR_COMPILE = 5        /* failed to compile Tile IR program */
};

/* What tileirasProgramCompile produces. */
enum { TILEIRAS_OUTPUT_CUBIN = 0, TILEIRAS_OUTPUT_PTX = 1 };

typedef struct TileirasConfig {
  const void *input_buffer_data; /* TileIR bytecode (or cuda_tile text) */
  size_t input_buffer_size;
  int32_t gpu_id;       /* compute capability: 80, 86, 87, 89, 90, 100, 103, 110, 120, 121 */
  int32_t opt_level;    /* 0..3 */
  int32_t device_debug; /* 0/1; needs opt_level 0 */
  int32_t lineinfo;     /* 0/1 */
  int32_t host_arch;    /* 0 x86_64, 1 aarch64, 2 arm64ec */
  int32_t host_os;      /* 0 linux, 1 windows */
  int32_t sanitize;     /* 0 off (memcheck is not implemented) */
  int32_t gpu_variant;  /* 0, 'a' (sm_90a...) or 'f' */
  int32_t output_kind;  /* TILEIRAS_OUTPUT_* */
} TileirasConfig;

typedef struct TileirasProgram TileirasProgram;

typedef struct TileirasByteView {
  const void *data;
  size_t length;
} TileirasByteView;

TILEIRAS_API int tileirasProgramCreate(TileirasProgram **program, const TileirasConfig *config);
TILEIRAS_API int tileirasProgramCompile(TileirasProgram *program);
TILEIRAS_API int tileirasProgramGetOutput(TileirasProgram *program, TileirasByteView *output);
/* The diagnostics of the last call on `program` (never null; "" when none). */
TILEIRAS_API const char *tileirasProgramGetLog(TileirasProgram *program);
TILEIRAS_API int tileirasProgramRelease(TileirasProgram *program);

#ifdef __cplusplus
}
#endif

#endif /* TILEIRAS_TILEIRAS_H */
