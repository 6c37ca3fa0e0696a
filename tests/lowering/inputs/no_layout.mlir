// tile-llvm before tile-sched: tensors have no layout yet.
module {
  func.func @k(%p: !tile_as.ptr<f32, 1>) {
    %r = tile_as.iota 0 : tensor<128xi32>
    return
  }
}
