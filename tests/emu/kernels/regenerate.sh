#!/bin/sh
# Regenerates the checked-in LLVM IR of the CUDA test kernels with Debian's
# clang-22 (independent of tilepipe). hang.ll is hand-written.
set -e
cd "$(dirname "$0")"
for f in vadd reduce misc intrinsics; do
  clang++-22 --cuda-device-only -nocudalib --cuda-path=/usr/local/cuda \
    --cuda-gpu-arch=sm_80 -O2 -S -emit-llvm "$f.cu" -o "$f.ll"
done
