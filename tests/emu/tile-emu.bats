#!/usr/bin/env bats
# tile-emu end to end: kernels written independently of tilepipe (CUDA C++
# in kernels/*.cu compiled by Debian's clang-22 into the checked-in
# kernels/*.ll, see kernels/regenerate.sh, and hand-written nvptx64 IR) run
# on the CPU; numpy checks the numbers.

PY=/usr/bin/python3

setup() {
  K="$TILEPIPE_SOURCE_DIR/tests/emu/kernels"
  W="$BATS_TEST_TMPDIR"
  cd "$W"
}

# gen STATEMENTS: python with numpy as np (one interpreter start per test:
# they are slow on a loaded machine).
gen() {
  "$PY" -c "import numpy as np; np.random.seed(7); $1"
}

# check EXPR: a python expression over numpy as np that must be true.
check() {
  "$PY" -c "import numpy as np, sys; sys.exit(0 if ($1) else 1)"
}

@test "vector add gives a + b" {
  gen "np.save('a.npy', np.random.rand(1000).astype(np.float32)); np.save('b.npy', np.random.rand(1000).astype(np.float32)); np.save('c.npy', np.zeros(1000, np.float32))"
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 8 --param ptr:a.npy --param ptr:b.npy \
    --param ptr:c.npy --param i32:1000 --out-dir out
  [ "$status" -eq 0 ]
  # Inputs are written back unchanged.
  check "np.array_equal(np.load('out/c.npy'), np.load('a.npy') + np.load('b.npy')) and
         np.array_equal(np.load('out/a.npy'), np.load('a.npy'))"
}

# Its speed (issue #6: under a minute) is measured by bench/emu-vector-add on
# the corpus vector add of the same size, not asserted here.
@test "1e6-element vector add over 977 CTAs of 128 threads gives a + b" {
  gen "np.save('a.npy', np.random.rand(1000000).astype(np.float32)); np.save('b.npy', np.random.rand(1000000).astype(np.float32)); np.save('c.npy', np.zeros(1000000, np.float32))"
  run tile-emu "$K/vadd.ll" --kernel vadd_strided --grid 977 --param ptr:a.npy \
    --param ptr:b.npy --param ptr:c.npy --param i32:1000000 --out-dir out
  [ "$status" -eq 0 ]
  check "np.array_equal(np.load('out/c.npy'), np.load('a.npy') + np.load('b.npy'))"
}

@test "one file named by several parameters is one buffer; +BYTES offsets the pointer" {
  gen "np.save('a.npy', np.arange(16, dtype=np.float32))"
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 1 --param ptr:a.npy --param ptr:a.npy+4 \
    --param ptr:a.npy+32 --param i32:4 --out-dir out
  [ "$status" -eq 0 ]
  # a[8:12] = a[0:4] + a[1:5]
  check "list(np.load('out/a.npy')[8:12]) == [1, 3, 5, 7]"
}

@test "reduction with shuffles, shared memory and atomicAdd" {
  gen "np.save('x.npy', np.random.rand(100000).astype(np.float32)); np.save('sum.npy', np.zeros(1, np.float32))"
  run tile-emu "$K/reduce.ll" --kernel reduce_sum --grid 13 --param ptr:x.npy --param ptr:sum.npy \
    --param i32:100000 --out-dir out
  [ "$status" -eq 0 ]
  check "abs(np.load('out/sum.npy')[0] - np.load('x.npy').astype(np.float64).sum()) < 0.05"
}

@test "ballot, any, all and redux.max per warp" {
  gen "np.save('x.npy', (np.arange(64) - 20).astype(np.int32)); np.save('ballots.npy', np.zeros(2, np.uint32)); np.save('flags.npy', np.zeros(4, np.int32)); np.save('maxima.npy', np.zeros(2, np.int32))"
  run tile-emu "$K/reduce.ll" --kernel warp_votes --grid 1 --param ptr:x.npy \
    --param ptr:ballots.npy --param ptr:flags.npy --param ptr:maxima.npy --out-dir out
  [ "$status" -eq 0 ]
  check "list(np.load('out/ballots.npy')) == [0xffe00000, 0xffffffff] and
         list(np.load('out/flags.npy')) == [1, 0, 1, 1] and
         list(np.load('out/maxima.npy')) == [11, 43]"
}

@test "libdevice math (sqrtf, expf) and printf" {
  gen "np.save('out.npy', np.zeros(32, np.float32))"
  run tile-emu "$K/misc.ll" --kernel misc --grid 2 --param i32:0 --param ptr:out.npy --out-dir o
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "hello from thread 0 of CTA 0: 1.50 ok" ]
  [ "${lines[3]}" = "hello from thread 1 of CTA 1: 1.50 ok" ]
  check "np.allclose(np.load('o/out.npy'), np.sqrt(np.arange(32.)) + np.exp(-np.arange(32.)), rtol=1e-6)"
}

@test "out-of-bounds read names kernel, CTA, thread, address and size" {
  gen "np.save('a.npy', np.ones(300, np.float32)); np.save('b.npy', np.ones(384, np.float32)); np.save('c.npy', np.zeros(384, np.float32))"
  run tile-emu "$K/vadd.ll" --kernel vadd_unchecked --grid 3 --param ptr:a.npy --param ptr:b.npy \
    --param ptr:c.npy --out-dir out
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'vadd_unchecked', CTA (2,0,0), thread (44,0,0): invalid read of 4 bytes at address 0x"* ]]
  [[ "$output" == *"right after the end of 'a.npy'"* ]]
  [ ! -e out/c.npy ]
}

@test "misaligned access is caught" {
  gen "np.save('a.npy', np.ones(256, np.float32)); np.save('c.npy', np.zeros(256, np.float32))"
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 1 --param ptr:a.npy+2 --param ptr:a.npy \
    --param ptr:c.npy --param i32:128 --out-dir out
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'vadd', CTA (0,0,0), thread (0,0,0): misaligned read of 4 bytes at address 0x"*"(needs 4-byte alignment)"* ]]
}

@test "reading another CTA's shared memory is caught" {
  gen "np.save('slot.npy', np.zeros(1, np.uint64)); np.save('out.npy', np.zeros(32, np.float32))"
  run tile-emu "$K/misc.ll" --kernel shared_leak --grid 2 --param ptr:slot.npy --param ptr:out.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"CTA (1,0,0), thread ("*"read of 4 bytes at address 0x"*"shared memory of another CTA"* ]]
}

@test "under .blocksareclusters --grid counts clusters, whose CTAs read each other's shared memory" {
  gen "np.save('out.npy', np.full(6, -1, np.int32))"
  run tile-emu "$K/cluster.ll" --kernel pair --grid 3 --param ptr:out.npy --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  check "np.array_equal(np.load('out/out.npy'), [11, 1, 1031, 1021, 2051, 2041])"
  # Without it the grid counts CTAs: a whole number of clusters.
  run tile-emu "$K/cluster.ll" --kernel pair_of_ctas --grid 3 --param ptr:out.npy --out-dir out
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'pair_of_ctas': grid of (3,1,1) CTAs is not a whole number of clusters of (2,1,1) CTAs"* ]]
}

@test "barrier deadlocks are reported, not hung" {
  gen "np.save('out.npy', np.zeros(96, np.int32))"
  run timeout 20 tile-emu "$K/hang.ll" --kernel named_barrier_short --grid 1 --param ptr:out.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'named_barrier_short', CTA (0,0,0): deadlock"*"barrier 1: 64 of 96 threads arrived"* ]]
  run timeout 20 tile-emu "$K/hang.ll" --kernel divergent_shuffle --grid 1 --param ptr:out.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"deadlock"*"lanes 0xffff0000 wait in shfl.sync.idx for member mask 0xffffffff"* ]]
  run timeout 20 tile-emu "$K/hang.ll" --kernel mbarrier_short --grid 1 --param ptr:out.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'mbarrier_short', CTA (0,0,0), thread ("*"deadlock: threads keep waiting (mbarrier.try_wait"* ]]
}

@test "trap and failed assert stop the run with exit 5" {
  gen "np.save('out.npy', np.zeros(32, np.float32))"
  run tile-emu "$K/misc.ll" --kernel misc --grid 1 --param i32:1 --param ptr:out.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'misc', CTA (0,0,0), thread (5,0,0): trap"* ]]
  run tile-emu "$K/misc.ll" --kernel misc --grid 1 --param i32:2 --param ptr:out.npy
  [ "$status" -eq 5 ]
  [[ "$output" == *"thread (7,0,0): assertion \`threadIdx.x != 7' failed at misc.cu:11"* ]]
}

@test "command-line mistakes exit 1, unreadable files 4, bad --gpu-name 2" {
  gen "np.save('a.npy', np.ones(4, np.float32))"
  run tile-emu "$K/vadd.ll" --grid 1
  [ "$status" -eq 1 ]
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 0 --param ptr:a.npy
  [ "$status" -eq 1 ]
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 1 --param ptr:a.npy
  [ "$status" -eq 1 ]
  [[ "$output" == *"takes 4 parameters, 1 --param given"* ]]
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 1 --param ptr:a.npy --param ptr:a.npy \
    --param ptr:a.npy --param f32:4
  [ "$status" -eq 1 ]
  [[ "$output" == *"--param 3 is f32 but kernel parameter 3 is i32"* ]]
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 1 --param q8:1
  [ "$status" -eq 1 ]
  run tile-emu "$K/vadd.ll" --kernel nope --grid 1
  [ "$status" -eq 1 ]
  [[ "$output" == *"no kernel named 'nope' (kernels: vadd, vadd_unchecked, vadd_strided)"* ]]
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 1 --param ptr:missing.npy --param ptr:a.npy \
    --param ptr:a.npy --param i32:4
  [ "$status" -eq 4 ]
  echo "not numpy" > bad.npy
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 1 --param ptr:bad.npy --param ptr:a.npy \
    --param ptr:a.npy --param i32:4
  [ "$status" -eq 4 ]
  [[ "$output" == *"invalid .npy file"* ]]
  run tile-emu missing.ll --kernel vadd --grid 1
  [ "$status" -eq 4 ]
  run tile-emu "$K/vadd.ll" --kernel vadd --grid 1 --gpu-name sm_12
  [ "$status" -eq 2 ]
}

@test "malformed IR exits 5" {
  echo "define void @k( {" > broken.ll
  run tile-emu broken.ll --kernel k --grid 1
  [ "$status" -eq 5 ]
}

@test "cuda_tile MLIR and TileIR bytecode are compiled in-process and run" {
  gen "np.save('a.npy', np.random.rand(128).astype(np.float32)); np.save('b.npy', np.random.rand(128).astype(np.float32)); np.save('c.npy', np.zeros(128, np.float32))"
  run tile-emu "$TILEPIPE_SOURCE_DIR/tests/lib/example-add.mlir" --kernel add --grid 1 \
    --param ptr:a.npy --param ptr:b.npy --param ptr:c.npy --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  check "np.array_equal(np.load('out/c.npy'), np.load('a.npy') + np.load('b.npy'))"
  tile-read "$TILEPIPE_SOURCE_DIR/tests/lib/example-add.mlir" --emit=tileirbc -o add.tileirbc
  run tile-emu add.tileirbc --kernel add --grid 1 --gpu-name sm_90 \
    --param ptr:a.npy --param ptr:b.npy --param ptr:c.npy --out-dir out90
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  check "np.array_equal(np.load('out90/c.npy'), np.load('a.npy') + np.load('b.npy'))"
}

@test "an invalid cuda_tile kernel gets the stage diagnostic and exit 5" {
  printf 'cuda_tile.module @m {\n  entry @k() {\n    %%0 = constant <i32: 1> : tile<i32>\n    %%1 = addi %%0, %%0 : tile<i64>\n    return\n  }\n}\n' > m.mlir
  run tile-emu m.mlir --kernel k --grid 1
  [ "$status" -eq 5 ]
  [[ "$output" == *"m.mlir"*"error:"* ]]
}

@test "tiled GEMM with cp.async, ldmatrix and mma.sync m16n8k16 matches numpy" {
  gen "M, N, K = 48, 24, 96
A = np.random.randn(M, K).astype(np.float16); B = np.random.randn(K, N).astype(np.float16)
np.save('A.npy', A); np.save('BT.npy', np.ascontiguousarray(B.T)); np.save('C.npy', np.zeros((M, N), np.float32))
np.save('ref.npy', A.astype(np.float64) @ B.astype(np.float64))"
  run tile-emu "$K/gemm.ll" --kernel gemm_f16 --grid 3,3 --param ptr:A.npy --param ptr:BT.npy \
    --param ptr:C.npy --param i32:24 --param i32:96 --out-dir out
  [ "$status" -eq 0 ]
  check "np.allclose(np.load('out/C.npy'), np.load('ref.npy'), rtol=1e-5, atol=1e-4)"
}

@test "integer division by zero and INT_MIN % -1 behave as on the GPU" {
  gen "np.save('out.npy', np.zeros(2, np.int32))"
  run tile-emu "$K/edge.ll" --kernel divide --grid 1 --param ptr:out.npy --param i32:0 --out-dir a
  [ "$status" -eq 0 ]
  run tile-emu "$K/edge.ll" --kernel divide --grid 1 --param ptr:out.npy --param i32:-1 --out-dir b
  [ "$status" -eq 0 ]
  check "list(np.load('a/out.npy')) == [-1, -2**31] and list(np.load('b/out.npy')) == [0, 0]"
}

@test "dynamic shared memory and local memory; overrunning dynamic shared memory is caught" {
  gen "np.save('out.npy', np.zeros(64, np.int32))"
  run tile-emu "$K/edge.ll" --kernel reverse_dynamic --grid 2 --param ptr:out.npy --param i32:3 \
    --dynamic-shared 256 --out-dir out
  [ "$status" -eq 0 ]
  check "list(np.load('out/out.npy')) == [3 * (63 - i) for i in range(64)]"
  run tile-emu "$K/edge.ll" --kernel reverse_dynamic --grid 1 --param ptr:out.npy --param i32:3 \
    --dynamic-shared 128 --out-dir out
  [ "$status" -eq 5 ]
  [[ "$output" == *"thread (32,0,0): invalid shared write of 4 bytes at address 0x"*"past the end of the CTA's 128 bytes of shared memory"* ]]
}

@test "a thread overflowing its stack and an endless loop end with exit 5" {
  gen "np.save('out.npy', np.zeros(2, np.int32))"
  run timeout 30 tile-emu "$K/edge.ll" --kernel runaway --grid 1 --param ptr:out.npy --param i32:0
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'runaway', CTA (0,0,0), thread (0,0,0): host stack overflow: the emulated thread used more than its 4 MiB stack (tile-emu --thread-stack-mib raises it)"* ]]
  run timeout 30 tile-emu "$K/edge.ll" --kernel spin --grid 1 --param ptr:out.npy --param i32:0 \
    --timeout 1
  [ "$status" -eq 5 ]
  [[ "$output" == *"kernel 'spin', CTA (0,0,0), thread (0,0,0): time limit exceeded"* ]]
}

@test "a kernel frame larger than the thread stack is refused before the launch and runs with --thread-stack-mib; a callee's large frame overflows onto the guard page" {
  gen "np.save('out.npy', np.zeros(2, np.int32))"
  run tile-emu "$K/edge.ll" --kernel bigframe --grid 1 --param ptr:out.npy --param i32:5 --out-dir out
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  [[ "$output" == *"tile-emu: error: kernel 'bigframe': its host frame takes 8193 KiB per emulated thread, which with the runtime's 256 KiB exceeds the 4 MiB thread stack (tile-emu --thread-stack-mib 9 raises it)"* ]] ||
    { echo "$output"; false; }
  [ ! -e out/out.npy ]
  run tile-emu "$K/edge.ll" --kernel bigframe --grid 1 --param ptr:out.npy --param i32:5 --out-dir out \
    --thread-stack-mib 9
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  check "list(np.load('out/out.npy')) == [5, 6]"
  # The callee's 8 MiB frame is probed page by page from the top: the first
  # page past the stack is its guard page, whatever lies below.
  run tile-emu "$K/edge.ll" --kernel bigcall --grid 1 --param ptr:out.npy --param i32:5 --out-dir out
  [ "$status" -eq 5 ] || { echo "$output"; false; }
  [[ "$output" == *"kernel 'bigcall', CTA (0,0,0), thread (0,0,0): host stack overflow: the emulated thread used more than its 4 MiB stack"* ]] ||
    { echo "$output"; false; }
  run tile-emu "$K/edge.ll" --kernel bigcall --grid 1 --param ptr:out.npy --param i32:5 --thread-stack-mib 0
  [ "$status" -eq 1 ] && [[ "$output" == *"--thread-stack-mib: Value 0 not in range 1 to 1024"* ]] ||
    { echo "$output"; false; }
}

@test "scalar parameters of every type; out-of-range integers are usage errors" {
  gen "np.save('out.npy', np.zeros(6))"
  run tile-emu "$K/edge.ll" --kernel scalars --grid 1 --param f16:1.5 --param bf16:-2.25 \
    --param f64:3.125 --param i8:-7 --param i64:-1234567890123 --param i1:1 --param ptr:out.npy \
    --out-dir out
  [ "$status" -eq 0 ]
  check "list(np.load('out/out.npy')) == [1.5, -2.25, 3.125, -7, -1234567890123, 1]"
  run tile-emu "$K/edge.ll" --kernel scalars --grid 1 --param f16:1.5 --param bf16:-2.25 \
    --param f64:3.125 --param i8:300 --param i64:1 --param i1:1 --param ptr:out.npy
  [ "$status" -eq 1 ]
  [[ "$output" == *"integer '300' does not fit i8"* ]]
}

@test "device malloc/free; heap overruns and double frees are caught" {
  gen "np.save('out.npy', np.zeros(32, np.int32))"
  run tile-emu "$K/edge.ll" --kernel heap --grid 1 --param ptr:out.npy --param i32:0 \
    --param i32:0 --out-dir out
  [ "$status" -eq 0 ]
  check "list(np.load('out/out.npy')) == [4 * t + 6 for t in range(32)]"
  run tile-emu "$K/edge.ll" --kernel heap --grid 1 --param ptr:out.npy --param i32:0 --param i32:1
  [ "$status" -eq 5 ]
  [[ "$output" == *"thread (0,0,0): invalid write of 4 bytes at address 0x"*"right after the end of 'malloc'ed block'"* ]]
  run tile-emu "$K/edge.ll" --kernel heap --grid 1 --param ptr:out.npy --param i32:1 --param i32:0
  [ "$status" -eq 5 ]
  [[ "$output" == *"thread (0,0,0): free of 0x"*"which malloc did not return (or freed twice)"* ]]
}

@test "CUDA intrinsics and libdevice functions (with single-instruction inline PTX)" {
  gen "np.save('x.npy', np.linspace(-1.5, 1.5, 64).astype(np.float32)); np.save('f.npy', np.zeros(384, np.float32)); np.save('i.npy', np.zeros(450, np.int32)); np.save('c.npy', np.zeros(64, np.uint64))"
  run tile-emu "$K/intrinsics.ll" --kernel intrinsics --grid 1 --param ptr:x.npy --param ptr:f.npy \
    --param ptr:i.npy --param ptr:c.npy --out-dir out
  [ "$status" -eq 0 ]
  "$PY" - <<'PY'
import math, numpy as np
x = np.load('x.npy').astype(np.float64)
f = np.load('out/f.npy').reshape(64, 6)
i = np.load('out/i.npy'); rows = i[:448].reshape(64, 7).astype(np.int64) & 0xffffffff
t = np.arange(64)
ts = [int(v) for v in t]
expected_f = [np.exp(x), x / 3, np.clip(x, 0, 1), np.sqrt(abs(x)), 1 / np.sqrt(x * x + 1),
              np.sin(x) + np.tanh(x) + 2 ** x + np.log(x * x + 1) + np.array([math.erf(v) for v in x])]
for k, want in enumerate(expected_f):
    assert np.allclose(f[:, k], want, rtol=2e-6, atol=2e-6), k
brev = np.array([int(format(v, '032b')[::-1], 2) for v in ts])
ffs = np.array([(v & -v).bit_length() for v in ts])
clz = np.array([32 - v.bit_length() for v in ts])
popc = np.array([bin(v).count('1') for v in ts])
assert (rows[:, 0] == 0xffffffff).all()
assert (rows[:, 1] == [0x11111111 << (v % 4) for v in ts]).all()
assert (rows[:, 2] == (t * 100000 * 300000) >> 32).all()
assert (rows[:, 3] == abs(t - 17) + 1).all()
assert (rows[:, 4] == 0x55114400).all()
assert (rows[:, 5] == (ffs + clz + popc + brev) & 0xffffffff).all()
assert sorted(rows[:, 6]) == sorted([k % 11 for k in range(64)])
assert list(i[448:450]) == [64 % 11, 63]
assert (np.load('out/c.npy') == 1).all()
PY
}

@test "--pointer-into stores a buffer's address into a pointer table" {
  gen "np.save('table.npy', np.zeros(3, np.int64)); np.save('dst.npy', np.full(40, -1, np.int32))"
  run tile-emu "$K/pointer-table.ll" --kernel write_through_table --grid 1 \
    --param ptr:table.npy --pointer-into table.npy@1=dst.npy+16 --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  check "(np.load('out/dst.npy') == np.r_[[-1]*4, np.arange(32), [-1]*4]).all()"
  run tile-emu "$K/pointer-table.ll" --kernel write_through_table --grid 1 \
    --param ptr:table.npy --pointer-into table.npy@3=dst.npy --out-dir out
  [ "$status" -eq 1 ]
  [[ "$output" == *"outside its buffers"* ]]
  run tile-emu "$K/pointer-table.ll" --kernel write_through_table --grid 1 \
    --param ptr:table.npy --pointer-into table.npy=dst.npy --out-dir out
  [ "$status" -eq 1 ]
  [[ "$output" == *"INTO.npy@WORD=FROM.npy"* ]]
}

@test "stmatrix.x4.trans stores each lane's fragments transposed (matrix-sm90.ll)" {
  gen "np.save('in.npy', np.arange(256, dtype=np.uint16)); np.save('out.npy', np.zeros(256, np.uint16))"
  run tile-emu "$K/matrix-sm90.ll" --kernel stmatrix_trans --grid 1 --param ptr:in.npy \
    --param ptr:out.npy --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # Half h of register j of lane 4g + t is element (2t + h, g) of matrix j:
  # in as [g, t, j, h] goes to out[j, 2t + h, g].
  check "np.array_equal(np.load('out/out.npy').reshape(4, 8, 8),
         np.load('in.npy').reshape(8, 4, 4, 2).transpose(2, 1, 3, 0).reshape(4, 8, 8))"
}

@test "mma.sync m16n8k32 e4m3 matches numpy on every finite e4m3 code (matrix-sm90.ll)" {
  "$PY" - <<'PYEOF'
import numpy as np
np.random.seed(7)
def e4m3(code):
    e, m = (code >> 3) & 15, (code & 7).astype(np.float64)
    v = np.where(e == 0, m * 2.0**-9, (8 + m) * 2.0**(e.astype(np.float64) - 10))
    return np.where(code & 0x80, -v, v)
codes = np.arange(256, dtype=np.uint8)
finite = codes[(codes & 0x7f) != 0x7f]          # 0x7f and 0xff are NaN
a = np.random.choice(finite, (32, 16)).astype(np.uint8)  # lane, element
b = np.random.choice(finite, (32, 8)).astype(np.uint8)
c = np.random.randn(32, 4).astype(np.float32)
lane = np.arange(32)[:, None]; g, t = lane // 4, lane % 4
i = np.arange(16)[None, :]                    # PTX ISA fragments for m16n8k32 .e4m3
A = np.zeros((16, 32)); A[g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8)] = e4m3(a)
j = np.arange(8)[None, :]
B = np.zeros((32, 8)); B[4 * t + j % 4 + 16 * (j // 4), np.broadcast_to(g, (32, 8))] = e4m3(b)
k = np.arange(4)[None, :]
rows, cols = g + 8 * (k // 2), 2 * t + k % 2
D = (A @ B)[rows, cols] + c.astype(np.float64)   # exact in float64: one rounding below
np.save('a.npy', a); np.save('b.npy', b); np.save('c.npy', c)
np.save('d.npy', np.zeros((32, 4), np.float32)); np.save('ref.npy', D.astype(np.float32))
PYEOF
  run tile-emu "$K/matrix-sm90.ll" --kernel mma_e4m3 --grid 1 --param ptr:a.npy --param ptr:b.npy \
    --param ptr:c.npy --param ptr:d.npy --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  check "np.array_equal(np.load('out/d.npy'), np.load('ref.npy'))"
}

@test "wgmma m64n8k16 from MLIR's inline PTX, A under the 128-byte swizzle (matrix-sm90.ll)" {
  "$PY" - <<'PYEOF'
import numpy as np
np.random.seed(7)
A = np.random.randint(-4, 5, (64, 16)).astype(np.float16)
B = np.random.randint(-4, 5, (16, 8)).astype(np.float16)
smem = np.zeros(4096, np.float16)  # 8 KiB: 64 rows of 128 bytes
# A K-major, 128-byte swizzle: row m at byte 128 m, its 16-byte chunk c
# stored at chunk c ^ (m % 8).
m, k = np.meshgrid(np.arange(64), np.arange(16), indexing='ij')
smem[m * 64 + ((k // 8) ^ (m % 8)) * 8 + k % 8] = A
# B (N x K) K-major without swizzle: 8x8 core matrices of 16-byte rows,
# the next 8 of K at LBO = 128 bytes.
Bt = B.T.reshape(1, 8, 2, 8).transpose(0, 2, 1, 3).reshape(-1)
buf = np.concatenate([smem.view(np.uint8), Bt.view(np.uint8), np.zeros(8192 - 256, np.uint8)])
np.save('in.npy', buf); np.save('d.npy', np.zeros((128, 4), np.float32))
# descriptor bits less the start address: swizzle (bits 62-63), SBO (32-45), LBO (16-29)
open('layoutA', 'w').write(str((1 << 62) | ((1024 >> 4) << 32) | (1 << 16)))
open('layoutB', 'w').write(str(((256 >> 4) << 32) | ((128 >> 4) << 16)))
tid = np.arange(128)[:, None]; i = np.arange(4)[None, :]
rows = 16 * (tid // 32) + (tid % 32) // 4 + 8 * (i // 2); cols = 2 * (tid % 4) + i % 2
np.save('ref.npy', (A.astype(np.float64) @ B.astype(np.float64))[rows, cols].astype(np.float32))
PYEOF
  run tile-emu "$K/matrix-sm90.ll" --kernel wgmma_f16 --grid 1 --gpu-name sm_90a --param ptr:in.npy \
    --param ptr:d.npy --param i64:$(cat layoutA) --param i64:$(cat layoutB) --out-dir out
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  check "np.array_equal(np.load('out/d.npy'), np.load('ref.npy'))"
}

@test "an unsupported wgmma form is named and exits 5" {
  printf '%s\n' 'target triple = "nvptx64-nvidia-cuda"' \
    'define ptx_kernel void @k(i64 %a, i64 %b) {' \
    '  %r = call { i32, i32, i32, i32 } asm sideeffect "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {$0, $1, $2, $3}, $8, $9, 1;", "=r,=r,=r,=r,0,1,2,3,l,l"(i32 0, i32 0, i32 0, i32 0, i64 %a, i64 %b)' \
    '  ret void' '}' > b1.ll
  run tile-emu b1.ll --kernel k --grid 1 --block 128 --param i64:0 --param i64:0
  [ "$status" -eq 5 ]
  [[ "$output" == *"unsupported wgmma inline PTX"*"m64n8k256.s32.b1.b1"* ]] || { echo "$output"; false; }
}
