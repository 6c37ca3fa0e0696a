/* A C program over libtileiras, for tests/capi/capi.bats.
 *
 *   capi-driver compile IN OUT GPU_ID [OPT [ptx]]   compile IN, write OUT
 *   capi-driver errors IN                           exercise the error codes
 *
 * Exit status: the C API's return code of the first failing call (0 if
 * none); `errors` exits 0 when every code matches and 1 otherwise. */
#include "tileiras/tileiras.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *readFile(const char *path, size_t *size) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long length = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *data = malloc(length > 0 ? (size_t)length : 1);
  *size = fread(data, 1, (size_t)length, file);
  fclose(file);
  return data;
}

static int compile(const char *in, const char *out, int gpu, int opt, int ptx) {
  size_t size = 0;
  char *data = readFile(in, &size);
  if (!data)
    return 100;
  TileirasConfig config;
  memset(&config, 0, sizeof config);
  config.input_buffer_data = data;
  config.input_buffer_size = size;
  config.gpu_id = gpu;
  config.opt_level = opt;
  config.output_kind = ptx ? TILEIRAS_OUTPUT_PTX : TILEIRAS_OUTPUT_CUBIN;
  TileirasProgram *program = NULL;
  int err = tileirasProgramCreate(&program, &config);
  if (!err)
    err = tileirasProgramCompile(program);
  TileirasByteView view = {0, 0};
  if (!err)
    err = tileirasProgramGetOutput(program, &view);
  if (!err) {
    FILE *file = fopen(out, "wb");
    if (!file || fwrite(view.data, 1, view.length, file) != view.length)
      err = 101;
    if (file)
      fclose(file);
  }
  if (program)
    tileirasProgramRelease(program);
  free(data);
  return err;
}

static int failures = 0;
static void expect(const char *what, int got, int want) {
  if (got != want) {
    fprintf(stderr, "FAIL %s: got %d, want %d\n", what, got, want);
    ++failures;
  }
}

static int errors(const char *in) {
  size_t size = 0;
  char *data = readFile(in, &size);
  if (!data)
    return 100;
  TileirasConfig config;
  memset(&config, 0, sizeof config);
  config.input_buffer_data = data;
  config.input_buffer_size = size;
  config.gpu_id = 80;
  config.opt_level = 3;
  TileirasProgram *program = NULL;
  expect("null program", tileirasProgramCreate(NULL, &config), 4);
  expect("null config", tileirasProgramCreate(&program, NULL), 2);
  TileirasConfig bad = config;
  bad.input_buffer_data = NULL;
  expect("null buffer", tileirasProgramCreate(&program, &bad), 2);
  bad = config;
  bad.input_buffer_data = "not tile ir at all";
  bad.input_buffer_size = 18;
  expect("not TileIR", tileirasProgramCreate(&program, &bad), 3);
  bad = config;
  bad.gpu_id = 75;
  expect("unsupported GPU", tileirasProgramCreate(&program, &bad), 2);
  bad = config;
  bad.opt_level = 4;
  expect("bad -O", tileirasProgramCreate(&program, &bad), 2);
  bad = config;
  bad.device_debug = 1;
  expect("debug at -O3", tileirasProgramCreate(&program, &bad), 2);
  bad = config;
  bad.host_arch = 3;
  expect("host arch", tileirasProgramCreate(&program, &bad), 2);
  bad = config;
  bad.host_os = 2;
  expect("host os", tileirasProgramCreate(&program, &bad), 2);
  expect("create", tileirasProgramCreate(&program, &config), 0);
  TileirasByteView view;
  expect("output before compile", tileirasProgramGetOutput(program, &view), 4);
  expect("null output", tileirasProgramGetOutput(program, NULL), 4);
  expect("compile null", tileirasProgramCompile(NULL), 4);
  expect("release", tileirasProgramRelease(program), 0);
  expect("release null", tileirasProgramRelease(NULL), 4);
  free(data);
  return failures ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[1], "compile") == 0)
    return compile(argv[2], argv[3], atoi(argv[4]), argc > 5 ? atoi(argv[5]) : 3,
                   argc > 6 && strcmp(argv[6], "ptx") == 0);
  if (argc == 3 && strcmp(argv[1], "errors") == 0)
    return errors(argv[2]);
  fprintf(stderr, "usage: capi-driver compile IN OUT GPU_ID [OPT [ptx]] | errors IN\n");
  return 64;
}
