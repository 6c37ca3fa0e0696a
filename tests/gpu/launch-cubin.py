#!/usr/bin/env python3
"""Launch a tilepipe kernel on a real GPU, with tile-emu's command line.

  launch-cubin.py IMAGE --kernel SYMBOL --grid X[,Y[,Z]] --param TYPE:VALUE ...
                  [--pointer-into INTO.npy@WORD=FROM.npy[+BYTES]] [--out-dir DIR]
                  [--block X[,Y[,Z]]] [--time N]

IMAGE is a cubin (or PTX, which the driver compiles for the GPU at hand).
Parameters and buffers are given exactly as tile-emu takes them, so
tests/corpus/run-case.py can run a corpus case on a GPU instead of the
emulator (--cubin). Every .npy buffer is copied to the GPU before the launch
and written back to DIR/<stem>.npy after it.

The block defaults to (1,1,1), the way cuTile launches tile kernels: the
kernel's own .reqntid/.blocksareclusters must make the CTA whole. --block
passes the CTA size explicitly (needed below sm_90, where PTX has no
.blocksareclusters). Uses the CUDA driver API through cuda.bindings (the
cuda-python package); not part of CI, which has no GPU. --time N then launches
the kernel N more times (after the results were saved) and prints the mean
time per launch and the bandwidth over the bytes of all its buffers.
"""
import argparse, ctypes, os, sys
import numpy as np
from cuda.bindings import driver as cu

SCALAR_TYPES = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
                "i32": ctypes.c_int32, "i64": ctypes.c_int64, "f32": ctypes.c_float,
                "f64": ctypes.c_double}


def check(result):
    """cuda.bindings returns (CUresult, values...): raise on an error."""
    err, rest = result[0], result[1:]
    if err != cu.CUresult.CUDA_SUCCESS:
        name = cu.cuGetErrorName(err)[1]
        raise RuntimeError(name.decode() if isinstance(name, bytes) else str(err))
    return rest[0] if len(rest) == 1 else rest


def dim3(text):
    dims = [int(d) for d in text.split(",")]
    return (dims + [1, 1])[:3]


def split_offset(text):
    path, plus, offset = text.rpartition("+")
    return (path, int(offset)) if plus and path else (text, 0)


def scalar_param(type_name, value):
    if type_name in ("f16", "bf16"):
        bits = np.array([float(value)], np.float32).view(np.uint32)[0]
        if type_name == "f16":
            bits = np.array([float(value)], np.float16).view(np.uint16)[0]
        else:
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        return ctypes.c_uint16(int(bits))
    if type_name not in SCALAR_TYPES:
        sys.exit("launch-cubin.py: unknown --param type %r" % type_name)
    parse = float if type_name.startswith("f") else lambda v: int(v, 0)
    return SCALAR_TYPES[type_name](parse(value))


class Buffers:
    """One device allocation per .npy file, uploaded once."""

    def __init__(self):
        self.host, self.device = {}, {}

    def address(self, path):
        if path not in self.device:
            array = np.load(path)
            self.host[path] = array
            nbytes = max(array.nbytes, 1)
            self.device[path] = int(check(cu.cuMemAlloc(nbytes)))
            check(cu.cuMemcpyHtoD(self.device[path], array.ctypes.data, array.nbytes))
        return self.device[path]

    def patch(self, into, word, address):
        self.address(into)
        table = self.host[into].view(np.uint64).reshape(-1)
        table[word] = address
        check(cu.cuMemcpyHtoD(self.device[into], table.ctypes.data, table.nbytes))

    def write_back(self, out_dir):
        os.makedirs(out_dir, exist_ok=True)
        for path, array in self.host.items():
            result = np.empty_like(array)
            check(cu.cuMemcpyDtoH(result.ctypes.data, self.device[path], array.nbytes))
            stem = os.path.splitext(os.path.basename(path))[0]
            np.save(os.path.join(out_dir, stem + ".npy"), result)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("image")
    p.add_argument("--kernel", required=True)
    p.add_argument("--grid", required=True)
    p.add_argument("--block", default="1,1,1")
    p.add_argument("--param", action="append", default=[])
    p.add_argument("--pointer-into", action="append", default=[])
    p.add_argument("--out-dir", default="gpu-out")
    p.add_argument("--gpu-name", help="ignored: the GPU at hand decides")
    p.add_argument("--time", type=int, default=0, metavar="N")
    o = p.parse_args()

    check(cu.cuInit(0))
    device = check(cu.cuDeviceGet(0))
    context = check(cu.cuDevicePrimaryCtxRetain(device))
    check(cu.cuCtxSetCurrent(context))
    with open(o.image, "rb") as f:
        image = f.read()
    if o.image.endswith(".ptx"):
        image += b"\0"
    module = check(cu.cuModuleLoadData(image))
    function = check(cu.cuModuleGetFunction(module, o.kernel.encode()))

    buffers = Buffers()
    values = []
    for text in o.param:
        type_name, _, value = text.partition(":")
        if type_name == "ptr":
            path, offset = split_offset(value)
            values.append(ctypes.c_uint64(buffers.address(path) + offset))
        else:
            values.append(scalar_param(type_name, value))
    for text in o.pointer_into:
        into, _, source = text.partition("=")
        into_path, _, word = into.rpartition("@")
        path, offset = split_offset(source)
        buffers.patch(into_path, int(word), buffers.address(path) + offset)

    pointers = (ctypes.c_void_p * max(len(values), 1))(
        *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
    grid, block = dim3(o.grid), dim3(o.block)
    launch = lambda: check(cu.cuLaunchKernel(function, *grid, *block, 0, 0,
                                             ctypes.addressof(pointers), 0))
    launch()
    check(cu.cuCtxSynchronize())
    buffers.write_back(o.out_dir)
    if o.time > 0:
        time_launches(launch, o.time, o.kernel, sum(a.nbytes for a in buffers.host.values()))
    return 0


def time_launches(launch, count, kernel, nbytes):
    """Mean time of `count` back-to-back launches, measured with CUDA events."""
    launch()  # warm-up
    start, stop = check(cu.cuEventCreate(0)), check(cu.cuEventCreate(0))
    check(cu.cuEventRecord(start, 0))
    for _ in range(count):
        launch()
    check(cu.cuEventRecord(stop, 0))
    check(cu.cuEventSynchronize(stop))
    ms = check(cu.cuEventElapsedTime(start, stop)) / count
    print("time %s: %.4f ms per launch over %d launches, %.1f GB/s over %d buffer bytes"
          % (kernel[:48], ms, count, nbytes / ms / 1e6, nbytes))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RuntimeError as error:
        print("launch-cubin.py: CUDA error: %s" % error, file=sys.stderr)
        sys.exit(1)
