#!/usr/bin/env bats
# libdevice functions whose code holds multi-instruction inline PTX (the carry
# chains of sin/cos/tan's large-argument reduction) run in tile-emu and match
# numpy: small arguments and arguments up to 1e30 (f32) / 1e300 (f64), which
# take the Payne-Hanek path.

setup() {
  CHECK="/usr/bin/python3 $TILEPIPE_SOURCE_DIR/tests/lib/emu-check.py"
  KERNEL="$BATS_TEST_DIRNAME/kernels/trig.mlir"
  X32='np.concatenate([np.linspace(-10, 10, 64), np.geomspace(1e3, 1e30, 64)]).astype(np.float32)'
  X64='np.concatenate([np.linspace(-10, 10, 64), np.geomspace(1e3, 1e300, 64)])'
}

@test "sin, cos and tan of f32, large arguments included" {
  run $CHECK "$KERNEL" --entry trig32 --array "x=$X32" --array "s=np.zeros(128, np.float32)" \
    --array "c=np.zeros(128, np.float32)" --array "t=np.zeros(128, np.float32)" \
    --expect "s = np.sin(x.astype(np.float64))" --expect "c = np.cos(x.astype(np.float64))" \
    --expect "t = np.tan(x.astype(np.float64))" --rtol 1e-5 --atol 1e-6
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "sin and cos of f64, large arguments included" {
  run $CHECK "$KERNEL" --entry trig64 --array "x=$X64" --array "s=np.zeros(128)" \
    --array "c=np.zeros(128)" --expect "s = np.sin(x)" --expect "c = np.cos(x)" \
    --rtol 1e-13 --atol 1e-15
  [ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "the f32 check can fail: a wrong reference is reported" {
  run $CHECK "$KERNEL" --entry trig32 --array "x=$X32" --array "s=np.zeros(128, np.float32)" \
    --array "c=np.zeros(128, np.float32)" --array "t=np.zeros(128, np.float32)" \
    --expect "s = np.cos(x.astype(np.float64))"
  [ "$status" -eq 1 ]
}
