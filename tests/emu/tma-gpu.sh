#!/usr/bin/env bash
# Runs the TMA kernels of tma.bats on a real Hopper GPU with the same numpy
# checks, in two halves (how TensorMap.h's "seen on an H100" was obtained):
#
#   tests/emu/tma-gpu.sh prepare DIR   here: llc-22, mlir-opt-22,
#                                      mlir-translate-22 and ptxas build cubins
#   bash DIR/run.sh                    there: python3 with numpy and cuda-python
set -euo pipefail
[ "${1:-}" = prepare ] && [ -n "${2:-}" ] || { echo "usage: $0 prepare DIR" >&2; exit 1; }
here="$(cd "$(dirname "$0")" && pwd)"
dir="$2"
mkdir -p "$dir"
llc-22 -march=nvptx64 -mcpu=sm_90a -mattr=+ptx83 "$here/kernels/tma.ll" -o "$dir/tma.ptx"
mlir-opt-22 --convert-nvvm-to-llvm "$here/kernels/tma-nvvm.mlir" | mlir-translate-22 --mlir-to-llvmir |
  llc-22 -march=nvptx64 -mcpu=sm_90a -mattr=+ptx83 -o "$dir/nvvm.ptx"
for k in tma nvvm; do ptxas -arch=sm_90a "$dir/$k.ptx" -o "$dir/$k.cubin"; done
cp "$here/../gpu/launch-cubin.py" "$here/tma-check.py" "$dir/"
cat > "$dir/run.sh" <<'EOF'
cd "$(dirname "$0")"
fails=0
launch() { timeout 60 python3 launch-cubin.py "$@" > launch.log 2>&1 || { tail -1 launch.log; return 1; }; }
verdict() { if "$@"; then echo "ok: $name"; else echo "FAILED: $name"; fails=$((fails + 1)); fi; }
npy() { python3 -c "import numpy as np; np.random.seed(5); $1"; }
A="np.save('a.npy', np.random.rand(72, 44).astype(np.float32))"
npy "$A; np.save('b.npy', np.full((44, 72), -1, np.float32)); np.save('maps.npy', np.zeros(6 * 256, np.uint8))"
name="transpose_scale"
verdict eval 'launch tma.cubin --kernel transpose_scale --grid 2,3 --block 128 --param ptr:maps.npy \
  --param ptr:a.npy --param ptr:b.npy --param i32:72 --param i32:44 --param f32:2.5 --out-dir o &&
  python3 -c "import numpy as np, sys; sys.exit(not np.array_equal(np.load(\"o/b.npy\"), np.float32(2.5) * np.load(\"a.npy\").T))"'
npy "np.save('m.npy', np.arange(256, dtype=np.float32).reshape(8, 32)); np.save('sw.npy', np.full(768, -1, np.float32)); np.save('maps3.npy', np.zeros(384, np.uint8))"
name="swizzle_modes"
verdict eval 'launch tma.cubin --kernel swizzle_modes --grid 1 --block 1 --param ptr:maps3.npy --param ptr:m.npy \
  --param ptr:sw.npy --out-dir o && python3 tma-check.py swizzle m.npy o/sw.npy'
for c in "nan 28 60" "nan 0 0" "nan -4 -5" "strided 28 50" "strided 4 0"; do
  read -r mode x y <<< "$c"
  name="$c"
  npy "np.save('map.npy', np.zeros(128, np.uint8)); np.save('box.npy', np.zeros(1024, np.float32))"
  if [ $mode = nan ]; then
    verdict eval 'launch tma.cubin --kernel nan_fill --grid 1 --block 1 --param ptr:map.npy --param ptr:a.npy \
      --param ptr:box.npy --param i32:$x --param i32:$y --out-dir o && python3 tma-check.py box a.npy o/box.npy $mode $x $y'
  else
    verdict eval 'launch tma.cubin --kernel strided --grid 1 --block 1 --param ptr:map.npy --param ptr:a.npy \
      --param ptr:box.npy --param i32:$x --param i32:$y --param i32:1 --param i32:2 --param i32:2048 \
      --param i32:2048 --out-dir o && python3 tma-check.py box a.npy o/box.npy $mode $x $y'
  fi
done
npy "np.save('c.npy', np.full((72, 44), -1, np.float32)); np.save('maps.npy', np.zeros(6 * 256, np.uint8))"
name="scale_tiles (MLIR NVVM forms)"
verdict eval 'launch nvvm.cubin --kernel scale_tiles --grid 2,3 --block 32 --param ptr:maps.npy --param ptr:a.npy \
  --param ptr:c.npy --param i32:72 --param i32:44 --param f32:3 --out-dir o &&
  python3 -c "import numpy as np, sys; sys.exit(not np.array_equal(np.load(\"o/c.npy\"), np.float32(3) * np.load(\"a.npy\")))"'
name="box 120 bytes into a row traps (the emulator refuses it)"
npy "np.save('map.npy', np.zeros(128, np.uint8)); np.save('box.npy', np.zeros(1024, np.float32))"
verdict eval '! launch tma.cubin --kernel nan_fill --grid 1 --block 1 --param ptr:map.npy --param ptr:a.npy \
  --param ptr:box.npy --param i32:30 --param i32:0 --out-dir o'
echo "$fails failed"
EOF
