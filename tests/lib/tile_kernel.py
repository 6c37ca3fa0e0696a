"""Builds the text of small cuda_tile kernels for the generated tests
(tests/lower-*/kernel.py): dense row-major tensors loaded and stored whole
through partition views, one SSA name per emitted line."""


def tile(shape, dtype):
    """`tile<4x8xf32>`; a 0-d tile for an empty shape."""
    return "tile<%s>" % "x".join([str(s) for s in shape] + [dtype])


def dense_strides(shape):
    strides, size = [], 1
    for dim in reversed(shape):
        strides.insert(0, size)
        size *= dim
    return strides


class Kernel:
    def __init__(self):
        self.lines, self.n = [], 0

    def emit(self, line):
        self.lines.append("    " + line)

    def const(self, value):
        self.n += 1
        self.emit("%%c%d = constant <i32: %d> : tile<i32>" % (self.n, value))
        return "%%c%d" % self.n

    def view(self, ptr, shape, dtype, extent=None, padding=None, dim_map=None, tile_shape=None):
        """A partition view covering the whole dense tensor at `ptr`, with its
        sizes and strides passed as values (as cuTile does). With `extent`,
        the view claims only that much of each dimension (the tile overhangs
        it, and `padding`, e.g. "zero", fills the rest). With `dim_map`, tile
        dimension i covers tensor dimension dim_map[i] (`shape` and `extent`
        are the tensor's; the tile is them permuted). With `tile_shape`
        (no dim_map), the view's tiles are that shape rather than the
        whole tensor."""
        self.n += 1
        dims = [self.const(s) for s in (extent or shape)]
        strides = [self.const(s) for s in dense_strides(shape)[:-1]] + ["1"]
        q = "x".join("?" for _ in shape)
        sq = ",".join(["?"] * (len(shape) - 1) + ["1"])
        tview = "tensor_view<%sx%s, strides=[%s]>" % (q, dtype, sq)
        pad = "padding_value = %s, " % padding if padding else ""
        if dim_map:
            tile_shape = [shape[d] for d in dim_map]
        tile_shape = tile_shape or shape
        mapping = ", dim_map=[%s]" % ", ".join(map(str, dim_map)) if dim_map else ""
        pview = "partition_view<tile=(%s), %s%s%s>" % ("x".join(map(str, tile_shape)), pad, tview,
                                                       mapping)
        self.emit("%%tv%d = make_tensor_view %s, shape = [%s], strides = [%s] : tile<i32> -> %s"
                  % (self.n, ptr, ", ".join(dims), ", ".join(strides), tview))
        self.emit("%%pv%d = make_partition_view %%tv%d : %s" % (self.n, self.n, pview))
        return "%%pv%d" % self.n, pview

    def load(self, ptr, shape, dtype, stored=None, extent=None, padding=None, dim_map=None):
        """Loads the tensor; with `stored` (an integer type wider than the
        1-byte `dtype`), each element is loaded as that word, truncated to i8
        and bitcast to `dtype`. `extent`, `padding`: as for view. With
        `dim_map`, `shape` (and `extent`) are the tile's, and tile dimension i
        is the tensor's dimension dim_map[i] (a dim_map'd partition view)."""
        stored = stored or dtype
        if dim_map:
            inverse = lambda dims: [dims[dim_map.index(d)] for d in range(len(dims))]
            pv, ptype = self.view(ptr, inverse(shape), stored, extent and inverse(extent), padding,
                                  dim_map)
        else:
            pv, ptype = self.view(ptr, shape, stored, extent, padding)
        idx = ", ".join([self.const(0)] * len(shape))
        self.n += 1
        x = "%%x%d" % self.n
        self.emit("%s, %%lt%d = load_view_tko weak %s[%s] token = %%tok : %s, tile<i32> -> %s, token"
                  % (x, self.n, pv, idx, ptype, tile(shape, stored)))
        if stored != dtype:
            self.emit("%s_b = trunci %s : %s -> %s" % (x, x, tile(shape, stored), tile(shape, "i8")))
            self.emit("%s_f = bitcast %s_b : %s -> %s" % (x, x, tile(shape, "i8"), tile(shape, dtype)))
            x += "_f"
        return x

    def store(self, value, ptr, shape, dtype, extent=None):
        """Stores the tensor; a 0-d value is stored as a 1-element tensor.
        `extent`: as for view (what lies outside is not stored)."""
        if not shape:
            self.n += 1
            self.emit("%%r%d = reshape %s : %s -> %s" % (self.n, value, tile([], dtype), tile([1], dtype)))
            value, shape = "%%r%d" % self.n, [1]
        pv, ptype = self.view(ptr, shape, dtype, extent)
        idx = ", ".join([self.const(0)] * len(shape))
        self.n += 1
        self.emit("%%st%d = store_view_tko weak %s, %s[%s] token = %%tok : %s, %s, tile<i32> -> token"
                  % (self.n, value, pv, idx, tile(shape, dtype), ptype))
