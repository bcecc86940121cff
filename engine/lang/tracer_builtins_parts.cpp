// Parts of tensors with every argument TF's signatures take: tf.slice, tf.pad (CONSTANT with
// constant_values, REFLECT, SYMMETRIC), tf.gather (axis, batch_dims) and tf.one_hot (axis,
// tensor on/off values). The extra arguments are composites of the primitives, so their
// gradients are the primitives': a mirror pad is a gather, whose gradient adds the mirrored
// entries back, as TF's MirrorPadGrad does.
#include <cctype>

#include "engine/lang/tracer_builtins.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

int64_t normalizeAxis(Bound& a, const char* arg, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    a.fail(arg, "is " + std::to_string(axis) + ", outside [" + std::to_string(-rank) + ", " +
                    std::to_string(rank) + ")");
  return axis < 0 ? axis + rank : axis;
}

// ---- pad ----------------------------------------------------------------------------------------

std::vector<int64_t> paddingPairs(Bound& a) {
  std::vector<int64_t> p;
  const Val& v = a["paddings"];
  if (!v.isSeq()) a.fail("paddings", "must be a list of [before, after] pairs");
  for (const Val& row : v.items()) {
    if (!row.isSeq() || row.items().size() != 2 || row.items()[0].kind() != Kind::Int ||
        row.items()[1].kind() != Kind::Int)
      a.fail("paddings", "must be a list of [before, after] pairs of ints");
    if (row.items()[0].asInt() < 0 || row.items()[1].asInt() < 0)
      a.fail("paddings", "must not be negative");
    p.push_back(row.items()[0].asInt());
    p.push_back(row.items()[1].asInt());
  }
  return p;
}

// Mirror padding along each axis: the source index of every output position, gathered.
// REFLECT leaves out the edge (`[1 2 3]` padded by 2 is `3 2 1 2 3 2 1`), SYMMETRIC repeats it
// (`2 1 1 2 3 3 2`); TF's MirrorPad docstring.
Value mirrorPad(Bound& a, Value x, const std::vector<int64_t>& p, bool symmetric) {
  Emitter& b = a.cx.b;
  const Shape s = b.type(x).shape;
  for (size_t d = 0; d < s.size(); ++d) {
    const int64_t before = p[2 * d], after = p[2 * d + 1];
    if (before == 0 && after == 0) continue;
    const int64_t n = s[d];
    if (n < 0) a.fail("tensor", "needs the sizes of padded axes known while tracing");
    const int64_t most = symmetric ? n : n - 1;
    if (before > most || after > most)
      a.fail("paddings", "must be at most " + std::to_string(most) + " on axis " +
                             std::to_string(d) + " of size " + std::to_string(n) + " in " +
                             (symmetric ? "SYMMETRIC" : "REFLECT") + " mode");
    std::vector<double> idx;
    for (int64_t i = -before; i < n + after; ++i) {
      int64_t j = i;
      if (i < 0) j = symmetric ? -i - 1 : -i;
      if (i >= n) j = symmetric ? 2 * n - 1 - i : 2 * (n - 1) - i;
      idx.push_back(double(j));
    }
    const Value where =
        b.constant(Tensor::fromVector(idx, {int64_t(idx.size())}, DType::I32), "mirror_pad_index");
    x = o::gather(b, x, where, int64_t(d));
  }
  return x;
}

Val pad(Bound& a) {
  const std::vector<int64_t> p = paddingPairs(a);
  Value x = a.tensor("tensor");
  Emitter& b = a.cx.b;
  if (int64_t(p.size()) != 2 * int64_t(b.type(x).shape.size()))
    a.fail("paddings", "needs one [before, after] pair per axis of the tensor (" +
                           std::to_string(b.type(x).shape.size()) + ")");
  std::string mode = a.string("mode");
  for (char& c : mode) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (mode == "REFLECT" || mode == "SYMMETRIC") {
    if (!a.none("constant_values") && a.number("constant_values") != 0)
      a.fail("constant_values", "applies to mode 'CONSTANT' only");
    a.cx.at(a.callLoc);
    return T(mirrorPad(a, x, p, mode == "SYMMETRIC"));
  }
  if (mode != "CONSTANT") a.fail("mode", "must be 'CONSTANT', 'REFLECT' or 'SYMMETRIC'");
  const Val& fill = a["constant_values"];
  const bool zero = fill.isNone() || (fill.isNumber() && a.number("constant_values") == 0);
  if (zero) return T(o::pad(b, x, p));
  // pad(x - c) + c: x inside, c outside. TF's PadV2 gradient gives constant_values none.
  Value c = o::stopGradient(b, a.tensorLike("constant_values", x));
  if (!b.type(c).shape.empty()) a.fail("constant_values", "must be a scalar");
  a.cx.at(a.callLoc);
  return T(o::add(b, o::pad(b, o::sub(b, x, c), p), c));
}

// ---- gather -------------------------------------------------------------------------------------

// gather with batch_dims = k: params [B..., A..., N, R...] and indices [B..., J...] share their
// first k axes; out[b..., a..., j..., r...] = params[b..., a..., indices[b..., j...], r...].
// Moves N next to the batch axes, flattens the batch into one axis of size |B|, offsets each
// batch row's indices by row * N and gathers once from [|B| * N, A..., R...].
Value batchGather(Bound& a, Value params, Value idx, int64_t axis, int64_t k) {
  Emitter& b = a.cx.b;
  const Shape ps = b.type(params).shape, is = b.type(idx).shape;
  if (!fullyKnown(ps) || !fullyKnown(is))
    a.fail("batch_dims", "needs the shapes of params and indices known while tracing");
  int64_t batch = 1;
  for (int64_t d = 0; d < k; ++d) {
    if (ps[size_t(d)] != is[size_t(d)])
      a.fail("batch_dims", "needs params and indices to agree on their first " + std::to_string(k) +
                               " axes; got " + shapeStr(ps) + " and " + shapeStr(is));
    batch *= ps[size_t(d)];
  }
  // params -> [B..., N, A..., R...]
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < k; ++d) perm.push_back(d);
  perm.push_back(axis);
  for (int64_t d = k; d < int64_t(ps.size()); ++d)
    if (d != axis) perm.push_back(d);
  Value moved = o::transpose(b, params, perm);
  const int64_t n = ps[size_t(axis)];
  Shape flat{batch * n};
  for (int64_t d = k; d < int64_t(ps.size()); ++d)
    if (d != axis) flat.push_back(ps[size_t(d)]);
  Value table = o::reshape(b, moved, flat);
  // indices -> [|B|, J...] + row * N
  Shape rows{batch};
  rows.insert(rows.end(), is.begin() + k, is.end());
  Value flatIdx = o::reshape(b, idx, rows);
  std::vector<double> offsets;
  for (int64_t r = 0; r < batch; ++r) offsets.push_back(double(r * n));
  Shape offShape(rows.size(), 1);
  offShape[0] = batch;
  Value offset = b.constant(Tensor::fromVector(offsets, offShape, DType::I32), "batch_offset");
  Value got = o::gather(b, table, o::add(b, flatIdx, offset), 0);
  // [|B|, J..., A..., R...] -> [B..., J..., A..., R...] -> [B..., A..., J..., R...]
  Shape unflat(ps.begin(), ps.begin() + k);
  unflat.insert(unflat.end(), is.begin() + k, is.end());
  const int64_t j = int64_t(is.size()) - k, mid = axis - k;
  for (int64_t d = k; d < int64_t(ps.size()); ++d)
    if (d != axis) unflat.push_back(ps[size_t(d)]);
  got = o::reshape(b, got, unflat);
  std::vector<int64_t> back;
  for (int64_t d = 0; d < k; ++d) back.push_back(d);
  for (int64_t d = 0; d < mid; ++d) back.push_back(k + j + d);
  for (int64_t d = 0; d < j; ++d) back.push_back(k + d);
  for (int64_t d = k + j + mid; d < int64_t(unflat.size()); ++d) back.push_back(d);
  return o::transpose(b, got, back);
}

Val gather(Bound& a) {
  Value idx = a.cx.toTensor(a["indices"], a.loc("indices"), DType::I32);
  Emitter& b = a.cx.b;
  if (isFloat(b.type(idx).dtype)) a.fail("indices", "must be integers");
  const int64_t indexRank = int64_t(b.type(idx).shape.size());
  int64_t k = a.integer("batch_dims");
  if (k < 0) k += indexRank;
  if (k < 0 || k > indexRank)
    a.fail("batch_dims", "must be in [-rank(indices), rank(indices)] = [" +
                             std::to_string(-indexRank) + ", " + std::to_string(indexRank) + "]");
  if (k == 0 && (a.none("axis") || a.integer("axis") == 0))
    if (auto r = a.cx.readStacked(a.tensor("params"), Val::tensor(idx), a.callLoc)) return T(*r);
  Value params = a.tensor("params");
  const int64_t rank = int64_t(b.type(params).shape.size());
  const int64_t axis = a.none("axis") ? k : normalizeAxis(a, "axis", a.integer("axis"), rank);
  if (axis < k) a.fail("axis", "must be at least batch_dims (" + std::to_string(k) + ")");
  a.cx.at(a.callLoc);
  if (k == 0) return T(o::gather(b, params, idx, axis));
  return T(batchGather(a, params, idx, axis, k));
}

// ---- one_hot ------------------------------------------------------------------------------------

Val oneHot(Bound& a) {
  Emitter& b = a.cx.b;
  Value idx = a.cx.toTensor(a["indices"], a.loc("indices"), DType::I32);
  const int64_t depth = a.integer("depth");
  const int64_t rank = int64_t(b.type(idx).shape.size());
  int64_t axis = a.none("axis") ? -1 : a.integer("axis");
  if (axis < -1 || axis > rank)
    a.fail("axis", "must be -1 or in [0, " + std::to_string(rank) + "]");
  // TF: the dtype of on_value / off_value when given, else float32.
  const Val& on = a["on_value"];
  const Val& off = a["off_value"];
  std::optional<DType> valueType;
  for (const Val* v : {&on, &off})
    if (v->isTensor()) valueType = b.type(v->tensorValue()).dtype;
  const DType dt = a.dtype("dtype", valueType.value_or(DType::F32));
  Value hot;
  if (!on.isTensor() && !off.isTensor()) {
    hot = o::oneHot(b, idx, depth, on.isNone() ? 1.0 : a.number("on_value"),
                    off.isNone() ? 0.0 : a.number("off_value"), dt);
  } else {
    // off + (on - off) * onehot. TF's OneHot is not differentiable, so neither value gets a
    // gradient here either.
    auto value = [&](const char* name, double def) {
      const Value v = a.none(name) ? b.scalar(def, dt) : a.cx.toTensor(a[name], a.loc(name), dt);
      if (!b.type(v).shape.empty()) a.fail(name, "must be a scalar");
      if (b.type(v).dtype != dt)
        a.fail(name, std::string("has dtype ") + dtypeName(b.type(v).dtype) + " but dtype is " +
                         dtypeName(dt));
      return o::stopGradient(b, v);
    };
    const Value onV = value("on_value", 1.0), offV = value("off_value", 0.0);
    a.cx.at(a.callLoc);
    hot = o::add(b, o::mul(b, o::oneHot(b, idx, depth, 1.0, 0.0, dt), o::sub(b, onV, offV)), offV);
  }
  if (axis == -1 || axis == rank) return T(hot);
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == axis) perm.push_back(rank);
    perm.push_back(d);
  }
  return T(o::transpose(b, hot, perm));
}

}  // namespace

void addTfPartsBuiltins(BuiltinTable& t) {
  t["tf.slice"] = {
      Signature::parse("input_, begin, size, name=None"), [](Bound& a) {
        return T(o::slice(a.cx.b, a.tensor("input_"), a.ints("begin"), a.ints("size")));
      }};
  t["tf.pad"] = {
      Signature::parse("tensor, paddings, mode='CONSTANT', constant_values=0, name=None"), pad};
  t["tf.gather"] = {
      Signature::parse("params, indices, ~validate_indices=None, axis=None, batch_dims=0, "
                       "name=None"),
      gather};
  t["tf.one_hot"] = {
      Signature::parse(
          "indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None"),
      oneHot};
}

}  // namespace gl::lang::trace
