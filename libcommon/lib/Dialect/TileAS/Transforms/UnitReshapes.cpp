//===- UnitReshapes.cpp - reshapes that only add or drop unit dimensions --===//
#include "UnitReshapes.h"

using namespace mlir;
using namespace tilepipe::tile_as;

static SmallVector<int64_t> squeeze(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> squeezed;
  for (int64_t extent : shape)
    if (extent != 1)
      squeezed.push_back(extent);
  return squeezed;
}

bool tilepipe::tile_as::isUnitReshape(ReshapeOp reshape) {
  return squeeze(reshape.getSrc().getType().getShape()) ==
         squeeze(reshape.getType().getShape());
}

unsigned tilepipe::tile_as::getAddedLeadingUnitDims(ReshapeOp reshape) {
  ArrayRef<int64_t> source = reshape.getSrc().getType().getShape();
  ArrayRef<int64_t> result = reshape.getType().getShape();
  if (result.size() <= source.size())
    return 0;
  size_t added = result.size() - source.size();
  if (result.drop_front(added) != source ||
      llvm::any_of(result.take_front(added), [](int64_t d) { return d != 1; }))
    return 0;
  return added;
}
