// tf math: dtypes, constructors, elementwise math, reductions, matmul/einsum, nn functions,
// random draws and tf.print. Every name is registered as "tf.<name>"; the tf. prefix is
// optional in scripts, and tf.math./tf.nn./tf.linalg. reach the same entries.
#include <algorithm>
#include <cmath>
#include <functional>

#include "engine/exec/print_format.h"
#include "engine/exec/run.h"
#include "engine/lang/tracer_builtins.h"
#include "engine/lang/tracer_format.h"
#include "engine/lang/tracer_objects.h"
#include "engine/ops/api.h"

namespace gl::lang::trace {

namespace o = gl::ops;

std::pair<Value, Value> operands(Bound& a, const char* x, const char* y) {
  const Val& vx = a[x];
  const Val& vy = a[y];
  std::optional<DType> lx, ly;
  if (vy.isTensor()) lx = a.cx.b.type(vy.tensorValue()).dtype;
  if (vx.isTensor()) ly = a.cx.b.type(vx.tensorValue()).dtype;
  Value tx = a.cx.toTensor(vx, a.loc(x), lx);
  Value ty = a.cx.toTensor(vy, a.loc(y), ly);
  a.cx.at(a.callLoc);
  return {tx, ty};
}

namespace {

using Unary = Value (*)(Emitter&, Value);
using BinaryFn = Value (*)(Emitter&, Value, Value);
using Reduce = Value (*)(Emitter&, Value, const std::vector<int64_t>&, bool);

// {sh, sw} from TF's strides: an int, [sh, sw] or [1, sh, sw, 1].
std::vector<int64_t> spatialStrides(Bound& a, const char* name) {
  std::vector<int64_t> s = a.ints(name);
  if (s.size() == 1) s = {s[0], s[0]};
  if (s.size() == 4 && s[0] == 1 && s[3] == 1) s = {s[1], s[2]};
  if (s.size() != 2 || s[0] < 1 || s[1] < 1)
    a.fail(name, "must be an int, [sh, sw] or [1, sh, sw, 1] with positive strides");
  return s;
}

// dilations None or all 1: dilated convolutions are not in GradLab's conv2d.
void requireUnitDilations(Bound& a) {
  if (a.none("dilations")) return;
  for (int64_t d : a.ints("dilations"))
    if (d != 1) a.fail("dilations", "must be 1 in GradLab (no dilated convolutions)");
}

Tensor constantOf(Bound& a, const Val& v, std::optional<DType> dt, const SourceLoc& loc) {
  Value c = a.cx.toTensor(v, loc, dt);
  const Node& n = a.cx.graph().node(c);
  if (!n.is(NodeKind::Const)) a.cx.fail(loc, a.fn + "() needs a value known while tracing");
  return dt ? n.value.astype(*dt) : n.value;
}

Val fillOf(Bound& a, const Shape& s, double value, DType dt) {
  return T(a.cx.b.op1(
      "fill", {}, Attrs{{"dtype", std::string(dtypeName(dt))}, {"shape", s}, {"value", value}}));
}

// tf.where(condition): the coordinates of the true entries, [count, rank] in row-major order
// (TF's docstring). The count is the result's size, so the condition must be known while
// tracing; TF gives int64, GradLab's integers are int32.
Value trueCoordinates(Bound& a, Value c) {
  const auto known = a.cx.constantValue(c);
  if (!known)
    a.fail("condition",
           "must be known while tracing when x and y are not given (the result's size depends "
           "on it)");
  const Shape s = known->shape();
  std::vector<double> coords;
  int64_t count = 0;
  for (int64_t i = 0; i < known->numel(); ++i) {
    if (known->at(i) == 0) continue;
    ++count;
    std::vector<double> at(s.size());
    for (int64_t d = int64_t(s.size()) - 1, rest = i; d >= 0; --d) {
      at[size_t(d)] = double(rest % s[size_t(d)]);
      rest /= s[size_t(d)];
    }
    coords.insert(coords.end(), at.begin(), at.end());
  }
  return a.cx.b.constant(Tensor::fromVector(coords, {count, int64_t(s.size())}, DType::I32),
                         "where_coordinates");
}

// tf.float32, ... and the other constants of the tf namespace.
void addDtypes(BuiltinTable& t) {
  for (auto [name, dt] : {std::pair{"float32", DType::F32},
                          {"float64", DType::F64},
                          {"int32", DType::I32},
                          {"int64", DType::I32},
                          {"bool", DType::Bool},
                          {"double", DType::F64},
                          {"float", DType::F32}}) {
    BuiltinDef d;
    d.isConstant = true;
    d.constant = Val::dtype(dt);
    t[std::string("tf.") + name] = d;
    t[std::string("tf.dtypes.") + name] = d;  // the tf.dtypes module holds the same constants
  }
  auto constant = [&](const std::string& k, Val v) {
    BuiltinDef d;
    d.isConstant = true;
    d.constant = std::move(v);
    t[k] = d;
  };
  constant("tf.newaxis", Val::none());
  constant("tf.UnconnectedGradients.ZERO", Val::str("zero"));
  constant("tf.UnconnectedGradients.NONE", Val::str("none"));
}

void addElementwise(BuiltinTable& t) {
  // Elementwise unary functions.
  for (auto [name, fn] :
       std::initializer_list<std::pair<const char*, Unary>>{{"exp", o::exp},
                                                            {"log", o::log},
                                                            {"sin", o::sin},
                                                            {"cos", o::cos},
                                                            {"tanh", o::tanh},
                                                            {"sigmoid", o::sigmoid},
                                                            {"relu", o::relu},
                                                            {"sqrt", o::sqrt},
                                                            {"abs", o::abs},
                                                            {"square", o::square},
                                                            {"sign", o::sign},
                                                            {"negative", o::neg},
                                                            {"identity", o::identity},
                                                            {"stop_gradient", o::stopGradient},
                                                            {"logical_not", o::logicalNot}}) {
    Unary f = fn;
    t[std::string("tf.") + name] = {Signature::parse("x, name=None"),
                                    [f](Bound& a) { return T(f(a.cx.b, a.tensor("x"))); }};
  }
  // Unary primitives with no typed helper: the tf function of the same name.
  for (const char* name :
       {"acos",  "asin",     "atan",        "sinh",  "cosh", "tan",    "asinh",
        "acosh", "atanh",    "expm1",       "log1p", "erf",  "erfc",   "reciprocal",
        "rsqrt", "softsign", "log_sigmoid", "floor", "ceil", "lgamma", "digamma"}) {
    const std::string prim = name;
    t[std::string("tf.") + name] = {Signature::parse("x, name=None"), [prim](Bound& a) {
                                      return T(a.cx.b.op1(prim, {a.tensor("x")}));
                                    }};
  }
  // Elementwise binary functions.
  for (auto [name, fn] :
       std::initializer_list<std::pair<const char*, BinaryFn>>{{"add", o::add},
                                                               {"subtract", o::sub},
                                                               {"multiply", o::mul},
                                                               {"divide", o::trueDiv},
                                                               {"truediv", o::trueDiv},
                                                               {"pow", o::pow},
                                                               {"maximum", o::maximum},
                                                               {"minimum", o::minimum},
                                                               {"equal", o::equal},
                                                               {"not_equal", o::notEqual},
                                                               {"less", o::less},
                                                               {"less_equal", o::lessEqual},
                                                               {"greater", o::greater},
                                                               {"greater_equal", o::greaterEqual},
                                                               {"logical_and", o::logicalAnd},
                                                               {"logical_or", o::logicalOr}}) {
    BinaryFn f = fn;
    t[std::string("tf.") + name] = {Signature::parse("x, y, name=None"), [f](Bound& a) {
                                      auto [x, y] = operands(a, "x", "y");
                                      return T(f(a.cx.b, x, y));
                                    }};
  }
  t["tf.where"] = {Signature::parse("condition, x=None, y=None, name=None"), [](Bound& a) {
                     if (a.none("x") != a.none("y"))
                       a.fail(a.none("x") ? "x" : "y", "must be given with the other one");
                     Value c = a.tensor("condition");
                     if (a.none("x")) return T(trueCoordinates(a, c));
                     auto [x, y] = operands(a, "x", "y");
                     return T(o::where(a.cx.b, c, x, y));
                   }};
  t["tf.cast"] = {Signature::parse("x, dtype, name=None"), [](Bound& a) {
                    return T(o::cast(a.cx.b, a.tensor("x"), a.dtype("dtype", DType::F32)));
                  }};
  t["tf.dtypes.cast"] = t["tf.cast"];
}

// Reductions, and composites built from primitives.
void addReductions(BuiltinTable& t) {
  // Reductions.
  for (auto [name, fn] :
       std::initializer_list<std::pair<const char*, Reduce>>{{"reduce_sum", o::reduceSum},
                                                             {"reduce_mean", o::reduceMean},
                                                             {"reduce_max", o::reduceMax},
                                                             {"reduce_min", o::reduceMin}}) {
    Reduce f = fn;
    t[std::string("tf.") + name] = {
        Signature::parse("input_tensor, axis=None, keepdims=False, name=None"), [f](Bound& a) {
          Value x = a.tensor("input_tensor");
          return T(f(a.cx.b, x, a.axes("axis"), a.boolean("keepdims")));
        }};
  }
  // Composites built from primitives.
  for (auto [name, isAll] : {std::pair{"reduce_any", false}, {"reduce_all", true}}) {
    const bool all = isAll;
    t[std::string("tf.") + name] = {
        Signature::parse("input_tensor, axis=None, keepdims=False, name=None"), [all](Bound& a) {
          Value x = a.tensor("input_tensor");
          if (a.cx.b.type(x).dtype != DType::Bool) a.fail("input_tensor", "must be a bool tensor");
          Value f = o::cast(a.cx.b, x, DType::F32);
          Value r = all ? o::reduceMin(a.cx.b, f, a.axes("axis"), a.boolean("keepdims"))
                        : o::reduceMax(a.cx.b, f, a.axes("axis"), a.boolean("keepdims"));
          return T(o::greater(a.cx.b, r, a.cx.b.scalar(0.5)));
        }};
  }
  t["tf.add_n"] = {Signature::parse("inputs, name=None"), [](Bound& a) {
                     const Val& v = a["inputs"];
                     if (!v.isSeq() || v.items().empty())
                       a.fail("inputs", "must be a non-empty list of tensors");
                     Value sum = a.cx.toTensor(v.items()[0], a.loc("inputs"));
                     for (size_t i = 1; i < v.items().size(); ++i)
                       sum = o::add(
                           a.cx.b, sum,
                           a.cx.toTensor(v.items()[i], a.loc("inputs"), a.cx.b.type(sum).dtype));
                     return T(sum);
                   }};
}

// The matrix 2-norm over axes (r, c): the largest singular value (TF's norm takes it from
// svd(compute_uv=False), whose gradient is u diag(g) v^T).
Value spectralNorm(Emitter& b, Value x, const std::vector<int64_t>& axes, bool keep) {
  const int64_t rank = int64_t(b.type(x).shape.size());
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axes[0] && d != axes[1]) perm.push_back(d);
  perm.push_back(axes[0]);
  perm.push_back(axes[1]);
  const Value s =
      b.op("svd", {o::transpose(b, x, perm)}, {{"full_matrices", false}, {"compute_uv", false}})
          .at(0);
  Value n = o::reduceMax(b, s, {-1});
  if (keep) {
    n = o::expandDims(b, n, std::min(axes[0], axes[1]));
    n = o::expandDims(b, n, std::max(axes[0], axes[1]));
  }
  return n;
}

// tf.norm: a vector norm over `axis` (None: every entry; an int: one axis), or a matrix norm
// over a pair of axes. ord: 'euclidean' (Frobenius for matrices), 'fro' (matrices), a
// positive p for vectors ((sum |x|^p)^(1/p), 1 and 2 included), inf (max |x|; for matrices the
// largest row sum), and 1 for matrices (the largest column sum). TF's norm docstring.
Val norm(Bound& a) {
  Emitter& b = a.cx.b;
  Value x = a.tensor("tensor");
  const int64_t rank = int64_t(b.type(x).shape.size());
  const bool keep = !a.none("keepdims") && a.boolean("keepdims");
  std::vector<int64_t> axes = a.axes("axis");
  for (int64_t& d : axes) {
    if (d < -rank || d >= rank)
      a.fail("axis", "is outside the tensor's " + std::to_string(rank) + " axes");
    if (d < 0) d += rank;
  }
  const bool matrix = axes.size() == 2;
  if (axes.size() > 2) a.fail("axis", "must be None, an int or a pair of ints");
  if (matrix && axes[0] == axes[1]) a.fail("axis", "must name two different axes");
  const Val& ord = a["ord"];
  const bool euclidean = ord.kind() == Kind::Str &&
                         (a.string("ord") == "euclidean" || (matrix && a.string("ord") == "fro"));
  if (ord.kind() == Kind::Str && !euclidean)
    a.fail("ord", matrix ? "must be 'euclidean', 'fro', 1, 2 or inf for a matrix norm"
                         : "must be 'euclidean' or a positive number for a vector norm");
  const double p = euclidean ? 2.0 : a.number("ord");
  a.cx.at(a.callLoc);
  if (euclidean || (!matrix && p == 2.0))
    return T(o::sqrt(b, o::reduceSum(b, o::square(b, x), axes, keep)));
  Value mag = o::abs(b, x);
  if (matrix) {
    if (p == 2.0) return T(spectralNorm(b, x, axes, keep));
    // ord 1: sum down each column (over axes[0]), then the largest; inf: rows.
    if (p != 1.0 && !std::isinf(p))
      a.fail("ord", "must be 'euclidean', 'fro', 1, 2 or inf for a matrix norm");
    const int64_t sumAxis = p == 1.0 ? axes[0] : axes[1];
    const int64_t maxAxis = p == 1.0 ? axes[1] : axes[0];
    return T(o::reduceMax(b, o::reduceSum(b, mag, {sumAxis}, true), {maxAxis, sumAxis}, keep));
  }
  if (!(p > 0)) a.fail("ord", "must be a positive number, 'euclidean' or inf");
  if (std::isinf(p)) return T(o::reduceMax(b, mag, axes, keep));
  if (p == 1.0) return T(o::reduceSum(b, mag, axes, keep));
  const DType dt = b.type(x).dtype;
  Value sum = o::reduceSum(b, o::pow(b, mag, b.scalar(p, dt)), axes, keep);
  return T(o::pow(b, sum, b.scalar(1.0 / p, dt)));
}

// Clipping, norms, sizes, matmul and einsum.
void addMatrixAndShapeMath(BuiltinTable& t) {
  t["tf.clip_by_value"] = {
      Signature::parse("t, clip_value_min, clip_value_max, name=None"), [](Bound& a) {
        Value x = a.tensor("t");
        Value lo = a.tensorLike("clip_value_min", x), hi = a.tensorLike("clip_value_max", x);
        return T(o::minimum(a.cx.b, o::maximum(a.cx.b, x, lo), hi));
      }};
  t["tf.norm"] = {Signature::parse("tensor, ord='euclidean', axis=None, keepdims=None, name=None"),
                  norm};
  t["tf.nn.l2_loss"] = {
      Signature::parse("t, name=None"), [](Bound& a) {
        Value x = a.tensor("t");
        return T(o::scale(a.cx.b, o::reduceSum(a.cx.b, o::square(a.cx.b, x)), 0.5));
      }};
  t["tf.size"] = {Signature::parse("input, out_type=None, name=None"), [](Bound& a) {
                    const Shape& s = a.cx.b.type(a.tensor("input")).shape;
                    if (!fullyKnown(s)) a.fail("input", "has a shape not known while tracing");
                    return T(a.cx.b.constant(Tensor::scalar(double(numel(s)), DType::I32)));
                  }};
  t["tf.rank"] = {Signature::parse("input, name=None"), [](Bound& a) {
                    return T(a.cx.b.constant(Tensor::scalar(
                        double(a.cx.b.type(a.tensor("input")).shape.size()), DType::I32)));
                  }};
  t["tf.argmax"] = {
      Signature::parse("input, axis=None, output_type=None, name=None"), [](Bound& a) {
        return T(o::argmax(a.cx.b, a.tensor("input"), a.none("axis") ? 0 : a.integer("axis")));
      }};
  // For real tensors the adjoint is the transpose; TF refuses both on one operand. The sparse
  // flags pick TF's kernel only.
  t["tf.matmul"] = {
      Signature::parse("a, b, transpose_a=False, transpose_b=False, adjoint_a=False, "
                       "adjoint_b=False, ~a_is_sparse=False, ~b_is_sparse=False, name=None"),
      [](Bound& a) {
        auto [x, y] = operands(a, "a", "b");
        for (const char* side : {"a", "b"})
          if (a.boolean(std::string("transpose_") + side) &&
              a.boolean(std::string("adjoint_") + side))
            a.fail(std::string("adjoint_") + side, std::string("cannot be True with transpose_") +
                                                       side + " (TF: only one of them)");
        const bool ta = a.boolean("transpose_a") || a.boolean("adjoint_a");
        const bool tb = a.boolean("transpose_b") || a.boolean("adjoint_b");
        return T(o::matmul(a.cx.b, x, y, ta, tb));
      }};
  // tf.einsum: tracer_builtins_guide_ops.cpp (it takes diagonals first).
}

void addNn(BuiltinTable& t) {
  // nn.
  t["tf.nn.softmax"] = {
      Signature::parse("logits, axis=None, name=None"), [](Bound& a) {
        return T(o::softmax(a.cx.b, a.tensor("logits"), a.none("axis") ? -1 : a.integer("axis")));
      }};
  t["tf.nn.log_softmax"] = {Signature::parse("logits, axis=None, name=None"), [](Bound& a) {
                              return T(o::logSoftmax(a.cx.b, a.tensor("logits"),
                                                     a.none("axis") ? -1 : a.integer("axis")));
                            }};
  t["tf.nn.softmax_cross_entropy_with_logits"] = {
      Signature::parse("labels, logits, axis=-1, name=None"), [](Bound& a) {
        if (a.integer("axis") != -1) a.fail("axis", "must be -1 (the class axis is the last one)");
        auto [labels, logits] = operands(a, "labels", "logits");
        return T(o::softmaxCrossEntropy(a.cx.b, labels, logits));
      }};
  t["tf.nn.conv2d"] = {
      Signature::parse("input, filters, strides=1, padding='VALID', name=None"), [](Bound& a) {
        std::vector<int64_t> s = a.ints("strides");
        if (s.size() == 1) s = {s[0], s[0]};
        if (s.size() == 4) s = {s[1], s[2]};
        return T(o::conv2d(a.cx.b, a.tensor("input"), a.tensor("filters"), s, a.string("padding")));
      }};
  // conv1d over [N, W, C] with filters [K, C, O]: a conv2d of height 1, as TF's conv1d is.
  t["tf.nn.conv1d"] = {
      Signature::parse("input, filters, stride, padding, data_format='NWC', dilations=None, "
                       "name=None"),
      [](Bound& a) {
        if (a.string("data_format") != "NWC") a.fail("data_format", "must be 'NWC' in GradLab");
        if (!a.none("dilations") && a.ints("dilations") != std::vector<int64_t>{1})
          a.fail("dilations", "must be 1 in GradLab");
        std::vector<int64_t> st = a.ints("stride");
        if (st.size() == 3) st = {st[1]};
        if (st.size() != 1) a.fail("stride", "must be an int");
        Emitter& b = a.cx.b;
        const Value x = o::expandDims(b, a.tensor("input"), 1);
        const Value f = o::expandDims(b, a.tensor("filters"), 0);
        return T(o::squeeze(b, o::conv2d(b, x, f, {1, st[0]}, a.string("padding")), {1}));
      }};
  // conv2d_transpose is the gradient of conv2d with respect to its input: conv2d_backprop_input
  // with filters [h, w, out_c, in_c] (HWIO of that conv2d); its own gradients are conv2d and
  // conv2d_backprop_filter, TF's _Conv2DBackpropInputGrad.
  t["tf.nn.conv2d_transpose"] = {
      Signature::parse("input, filters, output_shape, strides, padding='SAME', "
                       "data_format='NHWC', dilations=None, name=None"),
      [](Bound& a) {
        if (a.string("data_format") != "NHWC") a.fail("data_format", "must be 'NHWC' in GradLab");
        requireUnitDilations(a);
        const Shape out = a.shape("output_shape");
        if (out.size() != 4 || std::any_of(out.begin(), out.end(), [](int64_t d) { return d < 1; }))
          a.fail("output_shape", "must be the 4 sizes [N, H, W, C] of the result");
        auto [x, f] = operands(a, "input", "filters");
        return T(a.cx.b.op1("conv2d_backprop_input", {x, f},
                            {{"strides", spatialStrides(a, "strides")},
                             {"padding", a.string("padding")},
                             {"input_shape", out}}));
      }};
  // depthwise_conv2d: channel c of the input convolved with filter[:, :, c, :] gives output
  // channels c * multiplier + m; one conv2d per input channel, concatenated in that order.
  t["tf.nn.depthwise_conv2d"] = {
      Signature::parse("input, filter, strides, padding, data_format=None, dilations=None, "
                       "name=None"),
      [](Bound& a) {
        if (!a.none("data_format") && a.string("data_format") != "NHWC")
          a.fail("data_format", "must be 'NHWC' in GradLab");
        requireUnitDilations(a);
        auto [x, f] = operands(a, "input", "filter");
        Emitter& b = a.cx.b;
        const Shape &xs = b.type(x).shape, &fs = b.type(f).shape;
        if (xs.size() != 4) a.fail("input", "must be [N, H, W, C], got " + shapeStr(xs));
        if (fs.size() != 4)
          a.fail("filter", "must be [h, w, in_channels, multiplier], got " + shapeStr(fs));
        const int64_t c = fs[2] >= 0 ? fs[2] : xs[3];
        if (c < 0) a.fail("input", "needs its channel count known, got " + shapeStr(xs));
        if (xs[3] >= 0 && xs[3] != c)
          a.fail("filter", "has " + std::to_string(c) + " input channels, the input " +
                               std::to_string(xs[3]));
        const std::vector<int64_t> st = spatialStrides(a, "strides");
        const std::string padding = a.string("padding");
        std::vector<Value> parts;
        for (int64_t k = 0; k < c; ++k) {
          const Value xk = o::slice(b, x, {0, 0, 0, k}, {-1, -1, -1, 1});
          const Value fk = o::slice(b, f, {0, 0, k, 0}, {-1, -1, 1, -1});
          parts.push_back(o::conv2d(b, xk, fk, st, padding));
        }
        return T(parts.size() == 1 ? parts[0] : o::concat(b, parts, 3));
      }};
}

// tf.print's line now (eager): each kPrintSlot of `format` takes its tensor's value, laid out
// by the formatter the executor's print node uses (engine/exec/print_format.cpp).
std::string eagerPrintLine(Context& cx, const std::string& format, const std::vector<Value>& values,
                           int64_t summarize, const SourceLoc& loc) {
  std::vector<Tensor> now;
  try {
    if (!values.empty()) now = cx.evaluateNow(values);
  } catch (const CancelledError&) {
    throw;
  } catch (const EngineError& e) {
    if (e.loc().line > 0) throw;
    cx.fail(loc, "tf.print cannot compute its values while GradLab traces (" + e.message() + ")");
  }
  std::string line;
  size_t k = 0;
  for (char c : format)
    line +=
        c == kPrintSlot && k < now.size() ? formatDatum(now[k++], summarize) : std::string(1, c);
  return line;
}

void addRandomAndPrint(BuiltinTable& t) {
  // Random draws: seeded by tf.random.set_seed and the op's seed, reproducible run to run.
  t["tf.random.set_seed"] = {Signature::parse("seed"), [](Bound& a) {
                               a.cx.setGlobalSeed(uint64_t(a.integer("seed")));
                               return Val::none();
                             }};
  // TF builds both from a standard draw: normal is z * stddev + mean, uniform is
  // u * (maxval - minval) + minval, so tensor parameters broadcast and get gradients
  // (random_ops.py).
  t["tf.random.normal"] = {
      Signature::parse("shape, mean=0.0, stddev=1.0, dtype=None, seed=None, name=None"),
      [](Bound& a) {
        const int64_t seed =
            a.cx.nextSeed(a.none("seed") ? std::nullopt : std::optional(a.integer("seed")));
        const DType dt = a.dtype("dtype", DType::F32);
        if (!a["mean"].isTensor() && !a["stddev"].isTensor())
          return T(o::randomNormal(a.cx.b, a.shape("shape"), a.number("mean"), a.number("stddev"),
                                   dt, seed));
        Emitter& b = a.cx.b;
        const Value z = o::randomNormal(b, a.shape("shape"), 0.0, 1.0, dt, seed);
        const Value mean = a.tensorLike("mean", z), stddev = a.tensorLike("stddev", z);
        a.cx.at(a.callLoc);
        return T(o::add(b, o::mul(b, z, stddev), mean));
      }};
  t["tf.random.uniform"] = {
      Signature::parse("shape, minval=0, maxval=None, dtype=None, seed=None, name=None"),
      [](Bound& a) {
        const int64_t seed =
            a.cx.nextSeed(a.none("seed") ? std::nullopt : std::optional(a.integer("seed")));
        const DType dt = a.dtype("dtype", DType::F32);
        if (a.none("maxval") && !isFloat(dt)) a.fail("maxval", "is required for integer dtypes");
        if (!a["minval"].isTensor() && !a["maxval"].isTensor()) {
          const double hi = a.none("maxval") ? 1.0 : a.number("maxval");
          return T(o::randomUniform(a.cx.b, a.shape("shape"), a.number("minval"), hi, dt, seed));
        }
        if (!isFloat(dt))
          a.fail(a["minval"].isTensor() ? "minval" : "maxval",
                 "must be a Python number for integer dtypes in GradLab");
        Emitter& b = a.cx.b;
        const Value u = o::randomUniform(b, a.shape("shape"), 0.0, 1.0, dt, seed);
        const Value lo = a.tensorLike("minval", u);
        const Value hi = a.none("maxval") ? b.scalar(1.0, dt) : a.tensorLike("maxval", u);
        a.cx.at(a.callLoc);
        return T(o::add(b, o::mul(b, u, o::sub(b, hi, lo)), lo));
      }};
  // tf.print: a print node; it prints every time it runs (each iteration of a loop body). Like
  // TF's print_v2: one line per call with every argument, joined by sep and ended by end;
  // Python values as str() shows them, tensors (also inside lists) as TF lays them out, the
  // first and last `summarize` items of each axis (3 when None, all when -1).
  t["tf.print"] = {
      Signature::parse("*inputs, sep=' ', end=None, summarize=None, output_stream=None, name=None"),
      [](Bound& a) {
        std::vector<Value> values;
        std::function<std::string(const Val&, const SourceLoc&, int)> text =
            [&](const Val& v, const SourceLoc& loc, int depth) -> std::string {
          if (v.kind() == Kind::Str) return depth ? pyRepr(a.cx.graph(), v) : v.text();
          if (v.isTensor() || v.as<TensorArrayObj>() || v.as<LazyRangeObj>()) {
            values.push_back(a.cx.toTensor(v, loc));
            return std::string(1, kPrintSlot);
          }
          if (v.isSeq() && a.cx.tensorish(v) && depth < kMaxListNesting) {
            const bool tuple = v.kind() == Kind::Tuple;
            std::string s = tuple ? "(" : "[";
            for (size_t i = 0; i < v.items().size(); ++i)
              s += (i ? ", " : "") + text(v.items()[i], loc, depth + 1);
            if (tuple && v.items().size() == 1) s += ",";
            return s + (tuple ? ")" : "]");
          }
          return repr(a.cx.graph(), v, depth);
        };
        const std::string sep = a.string("sep");
        std::string format;
        for (size_t i = 0; i < a.rest.size(); ++i) {
          const Arg& x = a.rest[i];
          format += (i ? sep : "") + text(x.v, x.loc, 0);
          // TF prints a missing gradient as None; GradLab says why beside it, as a note.
          if (x.v.isNone() && x.v.why())
            a.cx.log("note: the None that tf.print shows at line " + std::to_string(x.loc.line) +
                     " is a gradient: " + x.v.why()->text);
        }
        Attrs attrs{{"format", format},
                    {"summarize", a.none("summarize") ? int64_t(3) : a.integer("summarize")},
                    {"end", a.none("end") ? std::string("\n") : a.string("end")}};
        if (attrs.i("summarize") < -1) a.fail("summarize", "must be -1 (all) or a count >= 0");
        if (!a.none("output_stream"))
          a.fail("output_stream",
                 "is not supported: GradLab's tf.print writes to the run log (TF's default, "
                 "sys.stderr)");
        // Eagerly TF prints at once, in program order with Python's print (logging_ops.py,
        // print_v2 runs the PrintV2 op when executing eagerly): the line goes to the trace log
        // now. In a tf.function or a loop body it is a print node that prints every run.
        if (a.cx.eager()) {
          a.cx.write(eagerPrintLine(a.cx, format, values, attrs.i("summarize"), a.callLoc) +
                     attrs.s("end"));
          return Val::none();
        }
        a.cx.at(a.callLoc);
        a.cx.b.print(values, "", attrs);
        return Val::none();
      }};
}

}  // namespace

void addTfMathBuiltins(BuiltinTable& t) {
  addDtypes(t);
  addElementwise(t);
  addReductions(t);
  addMatrixAndShapeMath(t);
  addNn(t);
  addRandomAndPrint(t);
}

namespace {

// Tensors from values: constant, zeros, ones, fill.
void addConstructors(BuiltinTable& t) {
  t["tf.constant"] = {Signature::parse("value, dtype=None, shape=None, name=None"), [](Bound& a) {
                        const Val& v = a["value"];
                        std::optional<DType> dt;
                        if (!a.none("dtype")) dt = a.dtype("dtype", DType::F32);
                        Value x;
                        if (v.isTensor()) {
                          x = v.tensorValue();
                          if (dt && a.cx.b.type(x).dtype != *dt) x = o::cast(a.cx.b, x, *dt);
                        } else {
                          x = a.cx.b.constant(constantOf(a, v, dt, a.loc("value")));
                        }
                        if (!a.none("shape")) {
                          const Shape s = a.shape("shape");
                          const Shape& have = a.cx.b.type(x).shape;
                          x = have.empty() ? o::broadcastTo(a.cx.b, x, s)
                                           : o::reshape(a.cx.b, x, s);
                        }
                        return T(x);
                      }};
  t["tf.convert_to_tensor"] = {
      Signature::parse("value, dtype=None, name=None"), [](Bound& a) {
        Value x = a.cx.toTensor(
            a["value"], a.loc("value"),
            a.none("dtype") ? std::nullopt : std::optional(a.dtype("dtype", DType::F32)));
        if (!a.none("dtype") && a.cx.b.type(x).dtype != a.dtype("dtype", DType::F32))
          x = o::cast(a.cx.b, x, a.dtype("dtype", DType::F32));
        return T(x);
      }};
  t["tf.zeros"] = {Signature::parse("shape, dtype=None, name=None"), [](Bound& a) {
                     return fillOf(a, a.shape("shape"), 0, a.dtype("dtype", DType::F32));
                   }};
  t["tf.ones"] = {Signature::parse("shape, dtype=None, name=None"), [](Bound& a) {
                    return fillOf(a, a.shape("shape"), 1, a.dtype("dtype", DType::F32));
                  }};
  t["tf.fill"] = {Signature::parse("dims, value, name=None"), [](Bound& a) {
                    const Val& v = a["value"];
                    const DType dt = v.kind() == Kind::Float  ? DType::F32
                                     : v.kind() == Kind::Bool ? DType::Bool
                                                              : DType::I32;
                    if (v.isTensor()) {
                      return T(o::broadcastTo(a.cx.b, v.tensorValue(), a.shape("dims")));
                    }
                    return fillOf(a, a.shape("dims"), a.number("value"), dt);
                  }};
}

// The largest tf.range built as a constant while tracing (2^26 elements, 256 MiB as floats).
constexpr int64_t kMaxRangeConstant = int64_t(1) << 26;

// How many values start, start + delta, ... lie before limit, counted without stepping (which
// overflowed int64 near its ends): ceil((limit - start) / delta) in 128-bit arithmetic, capped
// at kMaxRangeConstant + 1 so that the caller only compares.
int64_t rangeLength(int64_t start, int64_t limit, int64_t delta) {
  const __int128 span = __int128(limit) - start;
  if (span == 0 || (span > 0) != (delta > 0)) return 0;
  const __int128 step = delta;
  const __int128 n = (span + step - (delta > 0 ? 1 : -1)) / step;
  return n > kMaxRangeConstant ? kMaxRangeConstant + 1 : int64_t(n);
}

bool fitsInt32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

// tf.range over Python numbers of which one is a float, or with a float dtype: a constant of
// ceil((limit - start) / delta) values, float32 unless dtype says (TF's range docstring:
// tf.range(3, 18, 3.0) ... float32). Nothing when every bound is an int and dtype is not float.
std::optional<Val> floatRange(Bound& a, const RangeInfo& r) {
  bool anyFloat = false;
  for (const Val* v : {&r.start, &r.limit, &r.delta}) {
    if (v->isTensor()) {
      if (isFloat(a.cx.b.type(v->tensorValue()).dtype))
        a.fail("start",
               "bounds that are float tensors are not supported by GradLab yet; pass "
               "Python numbers");
      return std::nullopt;
    }
    if (v->kind() == Kind::Float)
      anyFloat = true;
    else if (v->kind() != Kind::Int)
      a.fail("start", "bounds must be numbers or int32 scalar tensors, got " + typeName(*v));
  }
  const DType dt = a.dtype("dtype", anyFloat ? DType::F32 : DType::I32);
  if (!isFloat(dt)) {
    if (anyFloat) a.fail("dtype", "is an integer type but a bound is a float");
    return std::nullopt;
  }
  auto num = [](const Val& v) { return v.kind() == Kind::Int ? double(v.asInt()) : v.asFloat(); };
  const double start = num(r.start), limit = num(r.limit), delta = num(r.delta);
  if (delta == 0) a.fail("delta", "must not be zero");
  const double span = std::ceil((limit - start) / delta);
  const int64_t n = span > 0 ? int64_t(std::min(span, 1e18)) : 0;
  if (n > kMaxRangeConstant)
    a.fail("limit", "gives more than " + std::to_string(kMaxRangeConstant) + " values");
  a.cx.at(a.callLoc);
  a.cx.b.checkBudget(TypeInfo{dt, {n}}, "tf.range");
  std::vector<double> xs(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) xs[size_t(k)] = start + double(k) * delta;
  return T(a.cx.b.constant(Tensor::fromVector(xs, {n}, dt)));
}

// zeros_like, ones_like, eye and range.
void addFilledAndRanges(BuiltinTable& t) {
  for (auto [name, value] : {std::pair{"tf.zeros_like", 0.0}, {"tf.ones_like", 1.0}}) {
    const double fillValue = value;
    t[name] = {Signature::parse("input, dtype=None, name=None"), [fillValue](Bound& a) {
                 Value x = a.tensor("input");
                 const TypeInfo ty = a.cx.b.type(x);
                 const DType dt = a.dtype("dtype", ty.dtype);
                 if (fullyKnown(ty.shape)) return fillOf(a, ty.shape, fillValue, dt);
                 Value z = fillValue == 0 ? a.cx.b.op1("zeros_like", {x}) : a.cx.b.onesLike(x);
                 return T(dt == ty.dtype ? z : o::cast(a.cx.b, z, dt));
               }};
  }
  // An identity matrix, repeated over batch_shape's leading axes (TF's eye docstring).
  t["tf.eye"] = {
      Signature::parse("num_rows, num_columns=None, batch_shape=None, dtype=None, name=None"),
      [](Bound& a) {
        const int64_t r = a.integer("num_rows");
        const int64_t c = a.none("num_columns") ? r : a.integer("num_columns");
        Shape s = a.none("batch_shape") ? Shape{} : a.shape("batch_shape");
        const int64_t copies = numel(s);
        if (r < 0 || c < 0 || !fullyKnown(s) || copies < 0 || r * c > (int64_t(1) << 28) ||
            (r * c > 0 && copies > (int64_t(1) << 28) / (r * c)))
          a.fail("num_rows", "gives an unreasonable size");
        s.push_back(r);
        s.push_back(c);
        const DType dt = a.dtype("dtype", DType::F32);
        a.cx.at(a.callLoc);
        a.cx.b.checkBudget(TypeInfo{dt, s}, "tf.eye");
        Tensor e = Tensor::zeros(dt, s);
        for (int64_t k = 0; k < copies; ++k)
          for (int64_t i = 0; i < std::min(r, c); ++i) e.set(k * r * c + i * c + i, 1);
        return T(a.cx.b.constant(e));
      }};
  t["tf.range"] = {
      Signature::parse("start, limit=None, delta=1, dtype=None, name=None"), [](Bound& a) {
        auto r = std::make_shared<RangeInfo>();
        r->start = a.none("limit") ? Val::integer(0) : a["start"];
        r->limit = a.none("limit") ? a["start"] : a["limit"];
        r->delta = a["delta"];
        if (auto floats = floatRange(a, *r)) return *floats;
        for (const Val* v : {&r->start, &r->limit, &r->delta}) {
          if (v->isTensor()) {
            const TypeInfo& ty = a.cx.b.type(v->tensorValue());
            if (ty.dtype != DType::I32 || !ty.shape.empty())
              a.fail("start", "bounds must be int32 scalars, got " + ty.str());
          } else if (v->kind() != Kind::Int) {
            a.fail("start", "bounds must be ints or int32 scalar tensors, got " + typeName(*v));
          }
        }
        if (r->delta.kind() == Kind::Int && r->delta.asInt() == 0)
          a.fail("delta", "must not be zero");
        // Python-int bounds give a constant; tensor bounds, or more elements than a constant
        // may hold, give a lazy range that only a for loop (one while_loop) can use.
        Val out = Val::object(std::make_shared<LazyRangeObj>(r));
        if (r->start.kind() == Kind::Int && r->limit.kind() == Kind::Int &&
            r->delta.kind() == Kind::Int) {
          const int64_t n = rangeLength(r->start.asInt(), r->limit.asInt(), r->delta.asInt());
          const DType dt = a.dtype("dtype", DType::I32);
          if (n <= kMaxRangeConstant) {
            // Between start and limit, so no overflow: n is the true count here, not the cap.
            const int64_t last =
                n == 0 ? r->start.asInt() : r->start.asInt() + (n - 1) * r->delta.asInt();
            if (dt == DType::I32 && n > 0 && !(fitsInt32(r->start.asInt()) && fitsInt32(last)))
              a.fail("", "its values do not fit in int32; pass dtype=tf.float64");
            a.cx.at(a.callLoc);
            a.cx.b.checkBudget(TypeInfo{dt, {n}}, "tf.range");
            std::vector<double> xs(static_cast<size_t>(n));
            for (int64_t k = 0; k < n; ++k)
              xs[size_t(k)] = double(r->start.asInt() + k * r->delta.asInt());
            out = Val::rangeTensor(a.cx.b.constant(Tensor::fromVector(xs, {n}, dt)), r);
          }
        }
        return out;
      }};
}

// Shapes: shape, reshape, transpose, expand_dims, squeeze, tile, broadcast_to.
void addShapes(BuiltinTable& t) {
  t["tf.shape"] = {
      Signature::parse("input, out_type=None, name=None"), [](Bound& a) {
        const Value x = a.tensor("input");
        const Shape s = a.cx.b.type(x).shape;
        if (!fullyKnown(s)) return T(o::shapeOf(a.cx.b, x));  // read when the graph runs
        std::vector<double> d(s.begin(), s.end());
        return T(a.cx.b.constant(Tensor::fromVector(d, {int64_t(d.size())}, DType::I32)));
      }};
  t["tf.reshape"] = {Signature::parse("tensor, shape, name=None"), [](Bound& a) {
                       std::vector<int64_t> s = a.ints("shape");
                       return T(o::reshape(a.cx.b, a.tensor("tensor"), s));
                     }};
  t["tf.transpose"] = {Signature::parse("a, perm=None, name=None"), [](Bound& a) {
                         return T(o::transpose(a.cx.b, a.tensor("a"), a.axes("perm")));
                       }};
  t["tf.expand_dims"] = {Signature::parse("input, axis, name=None"), [](Bound& a) {
                           return T(o::expandDims(a.cx.b, a.tensor("input"), a.integer("axis")));
                         }};
  t["tf.squeeze"] = {Signature::parse("input, axis=None, name=None"), [](Bound& a) {
                       return T(o::squeeze(a.cx.b, a.tensor("input"), a.axes("axis")));
                     }};
  t["tf.tile"] = {Signature::parse("input, multiples, name=None"), [](Bound& a) {
                    return T(o::tile(a.cx.b, a.tensor("input"), a.ints("multiples")));
                  }};
  t["tf.broadcast_to"] = {Signature::parse("input, shape, name=None"), [](Bound& a) {
                            return T(o::broadcastTo(a.cx.b, a.tensor("input"), a.shape("shape")));
                          }};
}

// Joining and splitting: concat, stack, unstack.
void addJoins(BuiltinTable& t) {
  auto valueList = [](Bound& a, const char* name) {
    const Val& v = a[name];
    if (!v.isSeq() || v.items().empty()) a.fail(name, "must be a non-empty list of tensors");
    std::vector<Value> xs;
    std::optional<DType> like;
    for (const Val& x : v.items())
      if (x.isTensor()) like = a.cx.b.type(x.tensorValue()).dtype;
    for (const Val& x : v.items()) xs.push_back(a.cx.toTensor(x, a.loc(name), like));
    a.cx.at(a.callLoc);
    return xs;
  };
  t["tf.concat"] = {Signature::parse("values, axis, name=None"), [valueList](Bound& a) {
                      return T(o::concat(a.cx.b, valueList(a, "values"), a.integer("axis")));
                    }};
  t["tf.stack"] = {Signature::parse("values, axis=0, name=None"), [valueList](Bound& a) {
                     return T(o::stack(a.cx.b, valueList(a, "values"), a.integer("axis")));
                   }};
  t["tf.unstack"] = {Signature::parse("value, num=None, axis=0, name=None"), [](Bound& a) {
                       std::vector<Val> out;
                       for (Value v : o::unstack(a.cx.b, a.tensor("value"), a.integer("axis")))
                         out.push_back(T(v));
                       return Val::listOf(std::move(out));
                     }};
}

}  // namespace

void addTfArrayBuiltins(BuiltinTable& t) {
  addConstructors(t);
  addFilledAndRanges(t);
  addShapes(t);
  addJoins(t);
  addTfPartsBuiltins(t);
}

}  // namespace gl::lang::trace
