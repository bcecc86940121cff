// Python lists, tuples and strings indexed by an int (negative from the end) or a slice.
#include "engine/lang/tracer_eager_values.h"
#include "engine/lang/tracer_index.h"

namespace gl::lang::trace {

namespace {

int64_t lengthOf(const Val& seq) {
  return seq.kind() == Kind::Str ? int64_t(seq.text().size()) : int64_t(seq.items().size());
}

Val item(const Val& seq, int64_t j) {
  if (seq.kind() == Kind::Str) return Val::str(seq.text().substr(size_t(j), 1));
  return seq.items()[size_t(j)];
}

Val sliceOf(const Val& seq, const std::vector<int64_t>& idx) {
  if (seq.kind() == Kind::Str) {
    std::string s;
    for (int64_t i : idx) s += seq.text()[size_t(i)];
    return Val::str(s);
  }
  std::vector<Val> items;
  for (int64_t i : idx) items.push_back(seq.items()[size_t(i)]);
  return Val::listOf(std::move(items), seq.kind() == Kind::Tuple);
}

}  // namespace

Val indexSequence(Context& cx, const Val& seq, const Val& index, const SourceLoc& loc) {
  const int64_t n = lengthOf(seq);
  if (index.kind() == Kind::Int || index.kind() == Kind::Bool) {
    const int64_t i = index.kind() == Kind::Int ? index.asInt() : index.asBool();
    return item(seq, wrapIndex(cx, i, n, loc, article(typeName(seq))));
  }
  Val lo, hi, st;
  if (sliceParts(index, lo, hi, st))
    return sliceOf(seq, sliceIndices(resolveSlice(cx, lo, hi, st, n, loc)));
  // An eager tensor indexes through __index__ (ops.py): an int32 scalar's value.
  if (index.isTensor() && cx.eager()) {
    const int64_t i =
        tensorToNumber(cx, index, PyNumber::Index, typeName(seq) + " index", loc).asInt();
    return item(seq, wrapIndex(cx, i, n, loc, article(typeName(seq))));
  }
  if (index.isTensor())
    cx.fail(loc,
            "a Python " + typeName(seq) +
                " cannot be indexed by a tensor: the index is known "
                "only when the graph runs (seed-b's TF1 code does weights_loop[tf.cast(steps, "
                "tf.int32)]). Stack the items into one tensor and use tf.gather, or index with a "
                "Python int");
  cx.fail(loc, typeName(seq) + " indices must be integers or slices, not " + typeName(index));
}

}  // namespace gl::lang::trace
