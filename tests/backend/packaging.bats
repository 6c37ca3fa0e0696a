#!/usr/bin/env bats
# tile-pack's containers (cubin, fatbin, host object) and the kernel note.

setup() {
  EXAMPLE="$TILEPIPE_SOURCE_DIR/examples/vector_add.tileirbc"
  TMP="$(mktemp -d)"
  tileiras "$EXAMPLE" --gpu-name sm_90 --emit=ptx -o "$TMP/k.ptx"
  KERNEL=$(sed -n 's/^\.visible \.entry \([A-Za-z0-9_]*\)(.*/\1/p' "$TMP/k.ptx")
}

teardown() {
  rm -rf "$TMP"
}

@test "tile-pack writes a plain cubin by default and for -o *.cubin" {
  tile-pack "$TMP/k.ptx" --gpu-name sm_90 -o "$TMP/k.cubin"
  head -c 4 "$TMP/k.cubin" | od -An -c | grep -q 'E   L   F'
  readelf -h "$TMP/k.cubin" | grep -q "NVIDIA CUDA"
}

@test "--print-kernels reports CTA size, cluster shape and shared memory" {
  run tile-pack "$TMP/k.ptx" --gpu-name sm_90 --print-kernels
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "tilepipe-kernels 1" ]
  [ "${lines[1]}" = "kernel $KERNEL cta=128,1,1 cluster=1,1,1 blocks-are-clusters=1 smem=0" ]
}

@test "sm_80 kernels have no cluster directives (PTX has none before sm_90)" {
  tileiras "$EXAMPLE" --gpu-name sm_80 --emit=ptx -o "$TMP/k80.ptx"
  run grep -c "blocksareclusters\|reqnctapercluster" "$TMP/k80.ptx"
  [ "$output" = "0" ]
  run tile-pack "$TMP/k80.ptx" --gpu-name sm_80 --print-kernels
  [[ "${lines[1]}" == *"cta=128,1,1 cluster=1,1,1 blocks-are-clusters=0"* ]]
}

@test "-o *.fatbin runs fatbinary; --embed-ptx adds the PTX" {
  tile-pack "$TMP/k.ptx" --gpu-name sm_90 -o "$TMP/k.fatbin"
  tile-pack "$TMP/k.ptx" --gpu-name sm_90 --emit=fatbin --embed-ptx -o "$TMP/kp.fatbin"
  # fatbinary's magic 0xBA55ED50, little-endian
  [ "$(head -c 4 "$TMP/k.fatbin" | od -An -tx4 | tr -d ' ')" = "ba55ed50" ]
  [ "$(stat -c %s "$TMP/kp.fatbin")" -gt "$(stat -c %s "$TMP/k.fatbin")" ]
  grep -a -q "vec_add" "$TMP/kp.fatbin"
}

@test "a host object links into a C program that finds the image and the note" {
  tile-pack "$TMP/k.ptx" --gpu-name sm_90 -o "$TMP/k.o"
  tile-pack "$TMP/k.ptx" --gpu-name sm_90 -o "$TMP/k.cubin"
  readelf -S "$TMP/k.o" | grep -q "\.tilepipe\.image"
  readelf -s "$TMP/k.o" | grep -q "GLOBAL DEFAULT .* __tilepipe_image$"
  readelf -h "$TMP/k.o" | grep -q "X86-64"
  cat > "$TMP/host.c" <<'C'
#include <stdio.h>
extern const unsigned char __tilepipe_image[];
extern const unsigned long long __tilepipe_image_size;
extern const char __tilepipe_kernels[];
int main(void) {
  fwrite(__tilepipe_image, 1, __tilepipe_image_size, stdout);
  fputs(__tilepipe_kernels, stderr);
  return 0;
}
C
  cc -o "$TMP/host" "$TMP/host.c" "$TMP/k.o"
  "$TMP/host" > "$TMP/extracted.cubin" 2> "$TMP/note"
  cmp "$TMP/extracted.cubin" "$TMP/k.cubin"
  grep -q "^kernel $KERNEL cta=128,1,1" "$TMP/note"
}

@test "host objects for aarch64; --lineinfo embeds the PTX" {
  tile-pack "$TMP/k.ptx" --gpu-name sm_90 --emit=obj --host-arch aarch64 --lineinfo -o "$TMP/k.o"
  readelf -h "$TMP/k.o" | grep -q "AArch64"
  readelf -s "$TMP/k.o" | grep -q "__tilepipe_ptx$"
  ! readelf -s "$TMP/k.o" 2>&1 | grep -qi "warning\|error"
}

@test "tileiras packs by -o: *.o is a host object (the original's elf.o), *.fatbin a fatbinary" {
  tileiras "$EXAMPLE" --gpu-name sm_80 -o "$TMP/k.o"
  readelf -h "$TMP/k.o" | grep -q "REL (Relocatable file)"
  tileiras "$EXAMPLE" --gpu-name sm_80 -o "$TMP/k.fatbin"
  [ "$(head -c 4 "$TMP/k.fatbin" | od -An -tx4 | tr -d ' ')" = "ba55ed50" ]
  tileiras "$EXAMPLE" --gpu-name sm_80 --emit=obj --host-arch aarch64 -o "$TMP/k.bin"
  readelf -h "$TMP/k.bin" | grep -q "AArch64"
}

@test "a missing fatbinary is a clear error, exit 5, no output" {
  mkdir "$TMP/toolkit" "$TMP/toolkit/bin"
  ln -s "$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)" "$TMP/toolkit/bin/ptxas"
  CUDA_ROOT="$TMP/toolkit" TILEPIPE_DEFAULT_CUDA_ROOT= PATH=/usr/bin:/bin run "$TILEPIPE_BIN/tile-pack" "$TMP/k.ptx" --gpu-name sm_90 -o "$TMP/k.fatbin"
  [ "$status" -eq 5 ]
  [[ "$output" == *"fatbinary"* ]]
  [ ! -e "$TMP/k.fatbin" ]
}

@test "tileiras --remarks-output-file writes YAML remarks with ptxas statistics and the instruction mix" {
  run tileiras "$EXAMPLE" --gpu-name sm_80 -O3 --lineinfo -o "$TMP/r.cubin" \
    --remark-format=yaml --remarks=all --remarks-output-file="$TMP/r.yaml"
  [ "$status" -eq 0 ]
  # the -v statistics tile-pack asked ptxas for are not shown to the user
  [[ "$output" != *"ptxas info"* ]]
  head -c 4 "$TMP/r.cubin" | od -An -c | grep -q 'E   L   F'
  grep -q "^--- !Analysis" "$TMP/r.yaml"
  grep -q "^Function: *$KERNEL$" "$TMP/r.yaml"
  grep -q "Target: *sm_80" "$TMP/r.yaml"
  grep -q "CTASize: *128,1,1" "$TMP/r.yaml"
  grep -Eq "Registers: *'[1-9][0-9]*'" "$TMP/r.yaml"
  grep -q "SpillStoreBytes: *'0'" "$TMP/r.yaml"
  grep -Eq "Instr.ld.global.v4: *'[1-9]" "$TMP/r.yaml"
}

@test "remarks keep ptxas -v output when the user asked for it" {
  run tile-pack "$TMP/k.ptx" --gpu-name sm_90 -o "$TMP/k.cubin" \
    --ptxas-options=-v --remarks-output-file "$TMP/r.yaml"
  [ "$status" -eq 0 ]
  [[ "$output" == *"ptxas info"*"Used"*"registers"* ]]
  grep -q "BlocksAreClusters: *'true'" "$TMP/r.yaml"
}

@test "cmake --install gives a tileiras that works from PATH without CUDA_HOME (cuTile's discovery)" {
  cmake --install "$TILEPIPE_BUILD_DIR" --prefix "$TMP/prefix" > /dev/null
  [ -x "$TMP/prefix/bin/tileiras" ]
  [ -f "$TMP/prefix/lib/libtileiras.so" ]
  [ -f "$TMP/prefix/include/tileiras/tileiras.h" ]
  env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT PATH="$TMP/prefix/bin:/usr/bin:/bin" \
    tileiras "$EXAMPLE" -o "$TMP/installed.cubin" --gpu-name sm_120 -O3 --lineinfo
  tileiras "$EXAMPLE" -o "$TMP/built.cubin" --gpu-name sm_120 -O3 --lineinfo
  cmp "$TMP/installed.cubin" "$TMP/built.cubin"
}
