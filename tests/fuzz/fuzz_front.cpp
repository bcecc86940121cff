// libFuzzer target for the language front-end (issue #31 item 5): the input's bytes do not become
// the script, they steer a generator that writes a syntactically valid program of the supported
// Python subset (imports, defs with defaults / *args / **kwargs / keyword-only parameters,
// @tf.function and @tf.custom_gradient, lambdas, f-strings with format specs, %-formatting,
// str.format, del, assert, if / for / while, tf.range loops, GradientTape with gradient and
// jacobian, tf.Variable, optimizers, Keras Dense, tf.while_loop / tf.cond / tf.switch_case /
// tf.map_fn / tf.vectorized_map / tf.scan / tf.foldl,
// TensorArray, lists / dicts / tuples, tf ops of several families on shapes that mostly agree).
// Byte-level mutation of fuzz_trace rarely gets past the parser; here nearly every input reaches
// the tracer, the autodiff and the executor. The script then goes through the same harness as
// fuzz_trace (harness.h).
//
// Modes besides fuzzing, chosen by environment variables:
//   GRADLAB_FRONT_PRINT=1 fuzz_front FILE...  prints each input's program (a finding's script)
//   GRADLAB_FRONT_STATS=N fuzz_front          generates N programs from random bytes and counts
//                                             how many parse, trace and run (the generator's
//                                             reach), with the most common trace errors;
//                                             GRADLAB_FRONT_SHOW=text also prints the first
//                                             program whose trace error contains text
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/lang/parser.h"
#include "tests/fuzz/harness.h"

namespace {

using Shape = std::vector<int>;

std::string shapeList(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

int64_t elements(const Shape& s) {
  int64_t n = 1;
  for (int d : s) n *= d;
  return n;
}

// What a script name holds, as far as the generator knows: enough to use it correctly.
enum class Kind { Int, Float, Str, Tensor, IntTensor, Variable, List, Dict, Func };

struct Var {
  std::string name;
  Kind kind;
  Shape shape;    // Tensor, IntTensor and Variable
  int arity = 0;  // Func: positional parameters, each a tensor of `shape`, returning `shape`
};

class Generator {
 public:
  explicit Generator(FuzzedDataProvider& in) : in_(in) {}

  std::string program() {
    line("import tensorflow as tf");
    if (flip()) line("from tensorflow import keras"), keras_ = true;
    if (flip()) line("import math"), math_ = true;
    if (pick(4) == 0) line("import time"), time_ = true;
    if (pick(6) == 0) {
      line("param steps = " + std::to_string(1 + pick(4)) + " in 1..5");
      vars_.push_back({"steps", Kind::Int, {}});
    }
    // Something to compute with from the start, so the first statements are not all leaves.
    newTensor(randomShape());
    const int statements = 4 + pick(28);
    for (int i = 0; i < statements && in_.remaining_bytes() > 0; ++i) statement();
    if (pick(3) == 0) {
      line("with variant(\"b\"):");
      block([&] { statement(); });
    }
    return out_;
  }

 private:
  FuzzedDataProvider& in_;
  std::string out_;
  std::vector<Var> vars_;
  int indent_ = 0;
  int depth_ = 0;          // nesting of blocks and expressions
  int tensorScope_ = 0;    // inside a tf.range loop or a tensor if: loop variables keep shapes
  int fnScope_ = 0;        // inside a def: only its own names are used
  size_t scopeStart_ = 0;  // first name a def body may use
  size_t blockStart_ = 0;  // first name bound in the current block
  int exprDepth_ = 0;      // nesting of tensor expressions
  int names_ = 0;
  bool keras_ = false, math_ = false, time_ = false;

  // The bytes choose; when they run out every choice is 0, the simplest option, so generation
  // always ends.
  int pick(int n) { return n <= 1 ? 0 : in_.ConsumeIntegralInRange<int>(0, n - 1); }
  bool flip() { return in_.ConsumeBool(); }

  void line(const std::string& text) { out_ += std::string(indent_ * 4, ' ') + text + "\n"; }

  std::string fresh(const char* prefix) { return prefix + std::to_string(names_++); }

  // Runs body as an indented block; names bound inside are forgotten afterwards (a branch that
  // did not run, or an AutoGraph loop, does not define them for the code after it).
  template <class F>
  void block(F body) {
    const size_t mark = vars_.size(), outerStart = blockStart_;
    blockStart_ = mark;
    ++indent_;
    ++depth_;
    const size_t before = out_.size();
    body();
    if (out_.size() == before) line("pass");
    --depth_;
    --indent_;
    vars_.resize(std::min(mark, vars_.size()));
    blockStart_ = outerStart;
  }

  std::vector<const Var*> visible(Kind kind) const {
    std::vector<const Var*> found;
    for (size_t i = fnScope_ ? scopeStart_ : 0; i < vars_.size(); ++i)
      if (vars_[i].kind == kind) found.push_back(&vars_[i]);
    return found;
  }
  const Var* anyOf(Kind kind) {
    const auto found = visible(kind);
    return found.empty() ? nullptr : found[pick(int(found.size()))];
  }
  const Var* tensorWithShape(const Shape& shape, bool variables) {
    std::vector<const Var*> found;
    for (size_t i = fnScope_ ? scopeStart_ : 0; i < vars_.size(); ++i) {
      const Var& v = vars_[i];
      if ((v.kind == Kind::Tensor || (variables && v.kind == Kind::Variable)) && v.shape == shape)
        found.push_back(&v);
    }
    return found.empty() ? nullptr : found[pick(int(found.size()))];
  }

  Shape randomShape() {
    static const Shape kShapes[] = {{}, {3}, {2, 3}, {3, 3}, {2}, {2, 2, 3}};
    return kShapes[pick(6)];
  }

  std::string floatLiteral() {
    static const char* kFloats[] = {"1.0", "0.5", "2.0", "-1.5", "3.0", "0.25", "-0.75", "1e-3"};
    return kFloats[pick(8)];
  }
  std::string smallInt() { return std::to_string(pick(4)); }

  // A nested literal of the shape: tf.constant([[1.0, 0.5], ...]).
  std::string literal(const Shape& shape, size_t axis = 0) {
    if (axis == shape.size()) return floatLiteral();
    std::string out = "[";
    for (int i = 0; i < shape[axis]; ++i) out += (i ? ", " : "") + literal(shape, axis + 1);
    return out + "]";
  }

  std::string leaf(const Shape& shape) {
    if (const Var* v = tensorWithShape(shape, true); v && pick(3) != 0) return v->name;
    switch (pick(9)) {
      case 0:
        return "tf.constant(" + literal(shape) + ")";
      case 1:
        return "tf.ones(" + shapeList(shape) + ")";
      case 2:
        return "tf.zeros(" + shapeList(shape) + ")";
      case 3:
        return "tf.fill(" + shapeList(shape) + ", " + floatLiteral() + ")";
      case 4:
        return "tf.random.normal(" + shapeList(shape) + ", seed=" + smallInt() + ")";
      case 5:
        return "tf.random.uniform(" + shapeList(shape) + ", minval=-1.0, maxval=1.0, seed=1)";
      case 6:
        if (shape.size() == 1) return "tf.linspace(0.0, 1.0, " + std::to_string(shape[0]) + ")";
        return "tf.reshape(tf.range(" + std::to_string(elements(shape)) + ", dtype=tf.float32), " +
               shapeList(shape) + ")";
      case 7:  // Python floats only as operands (below): a bound name is always a tensor
        if (shape.empty()) return "tf.constant(" + floatLiteral() + ")";
        return "tf.ones_like(" + tensor(shape) + ")";
      default:
        if (shape.size() == 2 && shape[0] == shape[1])
          return "tf.eye(" + std::to_string(shape[0]) + ")";
        return "tf.constant(" + floatLiteral() + ", shape=" + shapeList(shape) + ")";
    }
  }

  // An expression of a float32 tensor of exactly this shape. Deeper operands are more often
  // leaves (statements of a line or two, many of them); an exhausted input gives a leaf.
  std::string tensor(const Shape& wanted) {
    // Now and then a mistake, as people make them: a shape that does not fit, so the error
    // paths (broadcasting, matmul, concat, loop shape checks) are fuzzed too.
    const Shape shape = pick(1000) == 0 ? randomShape() : wanted;
    if (exprDepth_ >= 4 || pick(5) < exprDepth_ || in_.remaining_bytes() == 0) return leaf(shape);
    ++exprDepth_;
    std::string e = compound(shape);
    --exprDepth_;
    return e;
  }

  std::string compound(const Shape& shape) {
    static const char* kUnary[] = {
        "tf.sin",      "tf.exp",        "tf.tanh",          "tf.square", "tf.abs",
        "tf.nn.relu",  "tf.nn.sigmoid", "tf.math.log1p",    "tf.sqrt",   "tf.nn.softplus",
        "tf.math.cos", "tf.negative",   "tf.stop_gradient", "tf.nn.elu", "tf.math.reciprocal",
        "tf.nn.selu",  "tf.nn.gelu",    "tf.round"};
    static const char* kBinary[] = {"tf.maximum",
                                    "tf.minimum",
                                    "tf.add",
                                    "tf.multiply",
                                    "tf.subtract",
                                    "tf.math.squared_difference",
                                    "tf.math.divide_no_nan",
                                    "tf.pow",
                                    "tf.atan2"};
    static const char* kOps[] = {" + ", " - ", " * ", " / ", " ** "};
    static const char* kReduce[] = {
        "tf.reduce_sum",  "tf.reduce_mean",      "tf.reduce_max", "tf.reduce_min",
        "tf.reduce_prod", "tf.reduce_logsumexp", "tf.reduce_std", "tf.math.reduce_variance"};
    const int rank = int(shape.size());
    switch (pick(24)) {
      case 0:
        return leaf(shape);
      case 1:
        return std::string(kUnary[pick(18)]) + "(" + tensor(shape) + ")";
      case 2:
        return "(" + tensor(shape) + kOps[pick(5)] + tensor(shape) + ")";
      case 3:  // broadcasting against a scalar, or a row against a matrix
        if (rank >= 1 && flip())
          return "(" + tensor(shape) + " * " + tensor(Shape(shape.end() - 1, shape.end())) + ")";
        return "(" + tensor(shape) + kOps[pick(4)] + floatLiteral() + ")";
      case 4:
        return std::string(kBinary[pick(9)]) + "(" + tensor(shape) + ", " + tensor(shape) + ")";
      case 5: {  // a reduction of a tensor with one more axis
        if (rank >= 3) return leaf(shape);
        Shape bigger = shape;
        const int axis = pick(rank + 1);
        bigger.insert(bigger.begin() + axis, 2 + pick(2));
        std::string args = tensor(bigger) + ", axis=" + std::to_string(axis);
        return std::string(kReduce[pick(8)]) + "(" + args + ")";
      }
      case 6:
        if (rank == 0) return std::string(kReduce[pick(8)]) + "(" + tensor(randomShape()) + ")";
        if (rank == 2) {
          const Shape a{shape[0], 2 + pick(2)}, b{a[1], shape[1]};
          if (flip()) return "tf.matmul(" + tensor(a) + ", " + tensor(b) + ")";
          return "(" + tensor(a) + " @ " + tensor(b) + ")";
        }
        if (rank == 1)
          return "tf.linalg.matvec(" + tensor({shape[0], 3}) + ", " + tensor({3}) + ")";
        return leaf(shape);
      case 7:
        if (rank == 2) return "tf.transpose(" + tensor({shape[1], shape[0]}) + ")";
        if (rank >= 1) return "tf.reverse(" + tensor(shape) + ", [0])";
        return "tf.reduce_sum(" + tensor({3}) + ")";
      case 8: {  // a reshape from another shape of as many elements
        const int64_t n = elements(shape);
        const Shape from = n % 2 == 0 && n > 2 ? Shape{2, int(n / 2)} : Shape{int(n)};
        const bool flat = shape.size() == 1 && flip();
        return "tf.reshape(" + tensor(from) + ", " + (flat ? "[-1]" : shapeList(shape)) + ")";
      }
      case 9:
        if (rank >= 1 && shape[0] >= 2) {
          Shape a = shape, b = shape;
          a[0] = 1;
          b[0] = shape[0] - 1;
          return "tf.concat([" + tensor(a) + ", " + tensor(b) + "], axis=0)";
        }
        return "tf.add_n([" + tensor(shape) + ", " + tensor(shape) + "])";
      case 10:
        if (rank >= 1 && shape[0] <= 3) {
          std::string items;
          const Shape row(shape.begin() + 1, shape.end());
          for (int i = 0; i < shape[0]; ++i) items += (i ? ", " : "") + tensor(row);
          return "tf.stack([" + items + "])";
        }
        return tensor(shape);
      case 11:
        if (rank >= 1) {
          Shape from = shape;
          from[0] = 3;
          std::string idx;
          for (int i = 0; i < shape[0]; ++i) idx += (i ? ", " : "") + std::to_string(pick(3));
          return "tf.gather(" + tensor(from) + ", [" + idx + "])";
        }
        return tensor(shape);
      case 12:
        return "tf.where(" + tensor(shape) + " > " + floatLiteral() + ", " + tensor(shape) + ", " +
               tensor(shape) + ")";
      case 13:
        return "tf.clip_by_value(" + tensor(shape) + ", -1.0, 1.0)";
      case 14:
        return "tf.cast(tf.cast(" + tensor(shape) + ", tf.int32), tf.float32)";
      case 15:
        if (rank >= 1) {
          static const char* kAxisOps[] = {"tf.nn.softmax", "tf.cumsum", "tf.nn.log_softmax",
                                           "tf.math.cumprod", "tf.math.l2_normalize"};
          return std::string(kAxisOps[pick(5)]) + "(" + tensor(shape) + ", axis=-1)";
        }
        return "tf.norm(" + tensor({3}) + ")";
      case 16:
        if (rank == 2) {
          const Shape a{shape[0], 3}, b{3, shape[1]};
          if (flip()) return "tf.einsum(\"ij,jk->ik\", " + tensor(a) + ", " + tensor(b) + ")";
          return "tf.tensordot(" + tensor(a) + ", " + tensor(b) + ", axes=1)";
        }
        if (rank == 1) return "tf.linalg.diag_part(" + tensor({shape[0], shape[0]}) + ")";
        if (rank == 0) return "tf.linalg.trace(" + tensor({2, 2}) + ")";
        return leaf(shape);
      case 17:
        if (pick(3) == 0)
          return "tf.switch_case(tf.constant(" + std::to_string(pick(3)) +
                 "), [lambda: " + tensor(shape) + ", lambda: " + tensor(shape) + "])";
        return "tf.cond(" + predicate() + ", lambda: " + tensor(shape) +
               ", lambda: " + tensor(shape) + ")";
      case 18:
        return "(" + tensor(shape) + " if " + pythonPredicate() + " else " + tensor(shape) + ")";
      case 19:
        if (rank >= 1 && shape.size() < 3) {
          const std::string p = fresh("r"), q = fresh("r");
          switch (pick(3)) {
            case 0:  // a running sum along axis 0: same shape
              return "tf.scan(lambda " + p + ", " + q + ": " + p + " * 0.5 + " + q + ", " +
                     tensor(shape) + ")";
            case 1:
              return "tf.vectorized_map(lambda " + p + ": tf.tanh(" + p + "), " + tensor(shape) +
                     ")";
          }
          return "tf.map_fn(lambda " + p + ": " + p + " * " + floatLiteral() + " + 1.0, " +
                 tensor(shape) + ")";
        }
        return tensor(shape);
      case 20:
        if (rank < 3 && flip()) {  // an index or a slice of a bigger tensor
          Shape bigger = shape;
          bigger.insert(bigger.begin(), 2);
          return tensor(bigger) + "[" + std::to_string(pick(2)) + "]";
        }
        if (rank >= 1) {
          Shape bigger = shape;
          bigger[0] += 1;
          return tensor(bigger) + "[1:]";
        }
        return tensor(shape);
      case 21:
        if (const Var* f = callable(shape)) {
          std::string args;
          for (int i = 0; i < f->arity; ++i) args += (i ? ", " : "") + tensor(shape);
          return f->name + "(" + args + ")";
        }
        return tensor(shape);
      case 22:
        if (keras_ && rank >= 1) return "keras.activations.relu(" + tensor(shape) + ")";
        if (rank == 1 && shape[0] == 3)
          return "tf.linalg.diag_part(tf.linalg.diag(" + tensor(shape) + "))";
        return "-" + tensor(shape);
      default:
        if (rank == 2 && shape[0] == shape[1] && flip())
          return "tf.linalg.band_part(" + tensor(shape) + ", 0, -1)";
        if (rank >= 1) return "tf.roll(" + tensor(shape) + ", shift=1, axis=0)";
        if (flip()) {
          const std::string p = fresh("r"), q = fresh("r");
          return std::string(flip() ? "tf.foldl" : "tf.foldr") + "(lambda " + p + ", " + q + ": " +
                 p + " + " + q + ", " + tensor({3}) + ")";
        }
        return "tf.cast(" + intExpr() + ", tf.float32)";
    }
  }

  const Var* callable(const Shape& shape) {
    std::vector<const Var*> found;
    for (const Var& v : vars_)  // defs live at the top level: visible everywhere after
      if (v.kind == Kind::Func && v.shape == shape) found.push_back(&v);
    return found.empty() ? nullptr : found[pick(int(found.size()))];
  }

  std::string intExpr() {
    if (exprDepth_ >= 4 || in_.remaining_bytes() == 0) return smallInt();
    ++exprDepth_;
    std::string e;
    switch (pick(8)) {
      case 0:
        e = smallInt();
        break;
      case 1:
        if (const Var* v = anyOf(Kind::Int)) {
          e = v->name;
          break;
        }
        e = std::to_string(1 + pick(5));
        break;
      case 2:
        if (const Var* l = anyOf(Kind::List)) {
          e = "len(" + l->name + ")";
          break;
        }
        e = "len([1, 2])";
        break;
      case 3: {
        static const char* kOps[] = {" + ", " - ", " * ", " // ", " % "};
        const int op = pick(5);
        // Python's own ZeroDivisionError is a located error too, but rarely useful here.
        e = "(" + intExpr() + kOps[op] + (op >= 3 ? std::to_string(1 + pick(3)) : intExpr()) + ")";
        break;
      }
      case 4:
        e = std::string(flip() ? "max(" : "min(") + intExpr() + ", " + intExpr() + ")";
        break;
      case 5:
        e = math_ ? "math.floor(" + floatExpr() + ")" : "abs(" + intExpr() + ")";
        break;
      case 6:
        e = "int(" + floatExpr() + ")";
        break;
      default:
        e = "sum([" + intExpr() + ", " + intExpr() + "])";
    }
    --exprDepth_;
    return e;
  }

  std::string floatExpr() {
    if (exprDepth_ >= 4 || in_.remaining_bytes() == 0) return floatLiteral();
    ++exprDepth_;
    std::string e;
    switch (pick(6)) {
      case 0:
        e = floatLiteral();
        break;
      case 1:
        if (const Var* v = anyOf(Kind::Float)) {
          e = v->name;
          break;
        }
        e = "float(" + intExpr() + ")";
        break;
      case 2:
        e = math_ ? std::string(flip() ? "math.sqrt(" : "math.exp(") + "abs(" + floatExpr() + "))"
                  : "abs(" + floatExpr() + ")";
        break;
      case 3:
        e = "(" + floatExpr() + (flip() ? " * " : " + ") + floatExpr() + ")";
        break;
      case 4:
        e = "float(" + intExpr() + ") / 4";
        break;
      default:
        e = math_ ? "math.pi" : "float(" + smallInt() + ")";
    }
    --exprDepth_;
    return e;
  }

  // A Python bool (a plain if); predicate() may also give a scalar tensor (AutoGraph's if).
  std::string pythonPredicate() {
    static const char* kCmp[] = {" < ", " <= ", " == ", " != ", " > ", " >= "};
    switch (pick(4)) {
      case 0:
        return intExpr() + kCmp[pick(6)] + intExpr();
      case 1:
        return floatExpr() + kCmp[pick(6)] + floatExpr();
      case 2:
        if (const Var* l = anyOf(Kind::List)) return smallInt() + " in " + l->name;
        return "True";
      default:
        return "not " + intExpr() + " > 2";
    }
  }
  std::string tensorPredicate() {
    return "tf.reduce_sum(" + tensor(randomShape()) + ")" + (flip() ? " > " : " < ") +
           floatLiteral();
  }
  std::string predicate() { return flip() ? tensorPredicate() : pythonPredicate(); }

  std::string formatted(const std::string& value, Kind kind) {
    static const char* kFloatSpecs[] = {"", ":.3f", ":8.2f", ":e", ":>10", ":g", ":+.1f", "!r"};
    static const char* kIntSpecs[] = {"", ":d", ":5d", ":03d", ":x", ":,", ":<4", "!r"};
    const char* spec = kind == Kind::Int ? kIntSpecs[pick(8)] : kFloatSpecs[pick(8)];
    return "{" + value + spec + "}";
  }

  void printStatement() {
    const Var* t = anyOf(flip() ? Kind::Tensor : Kind::Variable);
    const Var* n = anyOf(Kind::Int);
    const std::string tName = t ? t->name : "tf.constant(1.0)";
    const std::string nName = n ? n->name : "3";
    switch (pick(8)) {
      case 0:
        line("print(f\"n={" + nName +
             "} x=" + formatted("float(" + floatExpr() + ")", Kind::Float) +
             " i=" + formatted(nName, Kind::Int) + " {{braces}}\")");
        break;
      case 1:
        line("print(f\"t = {" + tName + "}\", f'{" + nName + "=}')");
        break;
      case 2:
        line("print(\"%d items, %.2f, %s\" % (" + nName + ", " + floatExpr() + ", \"s\"))");
        break;
      case 3:
        line("print(\"{} and {:.2f} and {n}\".format(" + nName + ", " + floatExpr() +
             ", n=" + nName + "))");
        break;
      case 4:
        line("tf.print(\"t:\", " + tName + ")");
        break;
      case 5:
        line("print(" + tName + ".shape, " + tName + ".dtype, " + tName + ")");
        break;
      case 6:
        if (const Var* s = anyOf(Kind::Str)) {
          line("print(" + s->name + ".replace(\",\", \";\"), len(" + s->name + "), " + s->name +
               ".split(\",\"), \"-\".join([" + s->name + ", \"x\"]))");
          break;
        }
        line("print(\"%s: %5.1f%%\" % (\"rate\", " + floatExpr() + "))");
        break;
      default:
        line("tf.print(" + tensor(randomShape()) + ")");
    }
  }

  void newTensor(const Shape& shape) {
    const std::string name = fresh("t");
    line(name + " = " + tensor(shape));
    vars_.push_back({name, Kind::Tensor, shape});
  }

  // A tensor name bound before, reassigned with its shape kept: what AutoGraph loops and tensor
  // ifs allow.
  void reassign() {
    std::vector<const Var*> found = visible(Kind::Tensor);
    if (found.empty()) return newTensor(randomShape());
    const Var v = *found[pick(int(found.size()))];
    static const char* kAug[] = {" += ", " -= ", " *= ", " = "};
    const char* op = kAug[pick(4)];
    line(v.name + op + tensor(v.shape));
  }

  void defStatement() {
    if (depth_ > 0) return reassign();  // defs at the top level only: callable() sees them all
    const std::string name = fresh("fn");
    const Shape shape = randomShape();
    const int arity = 1 + pick(2);
    std::vector<std::string> params;
    for (int i = 0; i < arity; ++i) params.push_back(fresh("a"));
    std::string sig;
    for (const std::string& p : params) sig += (sig.empty() ? "" : ", ") + p;
    const std::string scale = fresh("k");
    const int extras = pick(5);
    std::string kwonly;
    if (extras == 1 || extras == 4) sig += ", " + scale + "=" + floatLiteral();
    if (extras == 2) sig += ", *args";
    if (extras == 3) {
      kwonly = fresh("kw");
      sig += ", *, " + kwonly + "=" + floatLiteral();
    }
    if (extras == 4) sig += ", **kwargs";
    if (pick(4) == 0) line("@tf.function");
    line("def " + name + "(" + sig + "):");
    const size_t savedStart = scopeStart_;
    ++fnScope_;
    block([&] {
      scopeStart_ = vars_.size();
      for (const std::string& p : params) vars_.push_back({p, Kind::Tensor, shape});
      if (extras == 1 || extras == 4) vars_.push_back({scale, Kind::Float, {}});
      if (extras == 3) vars_.push_back({kwonly, Kind::Float, {}});
      blockStart_ = vars_.size();  // the return below uses the parameters: no del
      const int body = pick(4);
      for (int i = 0; i < body; ++i) statement();
      if (extras == 2) line("assert len(args) >= 0, \"args is a tuple\"");
      if (extras == 4) line("extra = 0.5 * len(kwargs)");
      std::string result = tensor(shape);
      for (size_t i = 1; i < params.size(); ++i) result += " + " + params[i];
      if (extras == 1) result = "(" + result + ") * " + scale;
      if (extras == 3) result = "(" + result + ") + " + kwonly;
      if (extras == 4) result = "(" + result + ") * " + scale + " + extra";
      line("return " + result);
    });
    --fnScope_;
    scopeStart_ = savedStart;
    vars_.push_back({name, Kind::Func, shape, arity});
    // A call with the optional parts spelled out, so *args / **kwargs / keyword-only get used.
    std::string args;
    for (int i = 0; i < arity; ++i) args += (i ? ", " : "") + tensor(shape);
    if (extras == 1) args += flip() ? ", " + floatLiteral() : ", " + scale + "=" + floatLiteral();
    if (extras == 2) args += ", 1, \"two\", [3]";
    if (extras == 3) args += ", " + kwonly + "=" + floatLiteral();
    if (extras == 4) args += ", " + scale + "=2.0, bias=" + floatLiteral() + ", unused=1";
    const std::string out = fresh("t");
    line(out + " = " + name + "(" + args + ")");
    vars_.push_back({out, Kind::Tensor, shape});
  }

  void lambdaStatement() {
    const std::string name = fresh("f");
    const Shape shape = randomShape();
    const std::string p = fresh("u");
    switch (pick(3)) {
      case 0:
        line(name + " = lambda " + p + ": " + p + " * 2.0 - 1.0");
        vars_.push_back({name, Kind::Func, shape, 1});
        break;
      case 1:
        line(name + " = lambda " + p + ", c=" + floatLiteral() + ": tf.sin(" + p + ") * c");
        vars_.push_back({name, Kind::Func, shape, 1});
        break;
      default:
        line(name + " = lambda " + p + ", *rest: " + p + " + len(rest)");
        vars_.push_back({name, Kind::Func, shape, 1});
    }
  }

  void tapeStatement() {
    const Shape shape = randomShape();
    const std::string v = fresh("v"), x = fresh("x"), tape = fresh("tape"), y = fresh("y");
    line(v + " = tf.Variable(" + tensor(shape) + ")");
    vars_.push_back({v, Kind::Variable, shape});
    line(x + " = " + tensor(shape));
    const bool persistent = pick(3) == 0;
    line(std::string("with tf.GradientTape(") + (persistent ? "persistent=True" : "") + ") as " +
         tape + ":");
    block([&] {
      line(tape + ".watch(" + x + ")");
      vars_.push_back({x, Kind::Tensor, shape});
      blockStart_ = vars_.size();  // the target below uses x: no del
      const int extra = pick(3);
      for (int i = 0; i < extra; ++i) statement();
      // The target depends on both sources, so the gradients are not all None.
      line(y + " = tf.reduce_sum(" + tensor(shape) + " * " + v + " + tf.sin(" + x + "))");
    });
    vars_.push_back({x, Kind::Tensor, shape});
    const std::string g = fresh("g");
    switch (pick(4)) {
      case 0:
        line(g + " = " + tape + ".gradient(" + y + ", " + v + ")");
        vars_.push_back({g, Kind::Tensor, shape});
        if (flip()) {
          static const char* kOptimizers[] = {"SGD(learning_rate=0.1)", "Adam(0.01)", "RMSprop()",
                                              "Adagrad(learning_rate=0.5)"};
          const std::string opt = fresh("opt");
          line(opt + " = tf.keras.optimizers." + kOptimizers[pick(4)]);
          line(opt + ".apply_gradients(zip([" + g + "], [" + v + "]))");
        }
        break;
      case 1:
        line(g + ", " + g + "x = " + tape + ".gradient(" + y + ", [" + v + ", " + x + "])");
        vars_.push_back({g, Kind::Tensor, shape});
        vars_.push_back({g + "x", Kind::Tensor, shape});
        break;
      case 2:
        line(g + " = " + tape + ".gradient(" + y + ", {\"v\": " + v + ", \"x\": " + x + "})");
        line("print(" + g + "[\"v\"])");
        break;
      default:
        line(g + " = " + tape + ".gradient(" + y + ", " + x +
             ", unconnected_gradients=tf.UnconnectedGradients.ZERO)");
        vars_.push_back({g, Kind::Tensor, shape});
    }
    if (persistent) line("print(" + tape + ".gradient(" + y + ", " + v + "))");
    if (flip()) line(v + ".assign_sub(0.1 * " + v + ")");
  }

  void whileLoopStatement() {
    const Shape shape = randomShape();
    const std::string i = fresh("i"), acc = fresh("acc"), out = fresh("t");
    const std::string n = std::to_string(1 + pick(4));
    std::string step = acc + " * 0.5 + " + tensor(shape);
    if (flip()) step = "tf.tanh(" + step + ")";
    line("_, " + out + " = tf.while_loop(lambda " + i + ", " + acc + ": " + i + " < " + n +
         ", lambda " + i + ", " + acc + ": (" + i + " + 1, " + step + "), [tf.constant(0), " +
         tensor(shape) + "]" + (flip() ? ", maximum_iterations=3" : "") + ")");
    vars_.push_back({out, Kind::Tensor, shape});
  }

  void tensorArrayStatement() {
    const Shape shape = randomShape();
    const int n = 1 + pick(3);
    const std::string ta = fresh("ta"), i = fresh("i"), out = fresh("t");
    const bool dynamic = flip();
    line(ta + " = tf.TensorArray(tf.float32, size=" +
         (dynamic ? "0, dynamic_size=True" : std::to_string(n)) + ")");
    line("for " + i + " in tf.range(" + std::to_string(n) + "):");
    ++tensorScope_;
    block([&] {
      vars_.push_back({i, Kind::IntTensor, {}});
      blockStart_ = vars_.size();  // used after the body: no del
      line(ta + " = " + ta + ".write(" + i + ", " + tensor(shape) + " * tf.cast(" + i +
           ", tf.float32))");
    });
    --tensorScope_;
    Shape stacked = shape;
    stacked.insert(stacked.begin(), n);
    if (dynamic) {  // its length is unknown to shape rules: printed, not computed with
      line("print(" + ta + ".stack())");
      return;
    }
    line(out + " = " + ta + ".stack()");
    vars_.push_back({out, Kind::Tensor, stacked});
  }

  void ifStatement() {
    const bool onTensor = flip();
    line("if " + (onTensor ? tensorPredicate() : pythonPredicate()) + ":");
    if (onTensor) ++tensorScope_;
    block([&] { statements(1 + pick(2)); });
    if (flip()) {
      line("elif " + pythonPredicate() + ":");
      block([&] { statements(1); });
    }
    if (flip()) {
      line("else:");
      block([&] { statements(1 + pick(2)); });
    }
    if (onTensor) --tensorScope_;
  }

  void forStatement() {
    const std::string i = fresh("i");
    const int n = 1 + pick(4);
    switch (pick(5)) {
      case 4:
        datasetFor(i, n);
        break;
      case 0:  // AutoGraph's loop: the body's tensors keep their shapes
        line("for " + i + " in tf.range(" + std::to_string(n) + "):");
        ++tensorScope_;
        block([&] {
          vars_.push_back({i, Kind::IntTensor, {}});
          blockStart_ = vars_.size();  // used after the body: no del
          statements(1 + pick(2));
          if (const Var* t = tensorWithShape({}, false))
            line(t->name + " += tf.cast(" + i + ", tf.float32)");
        });
        --tensorScope_;
        break;
      case 1:
        line("for " + i + " in range(" + std::to_string(n) + "):");
        block([&] {
          vars_.push_back({i, Kind::Int, {}});
          blockStart_ = vars_.size();  // used after the body: no del
          statements(1 + pick(2));
          if (flip()) {
            line("if " + i + " == 1:");
            block([&] { line(flip() ? "break" : "continue"); });
          }
        });
        break;
      case 2:
        if (const Var* l = anyOf(Kind::List)) {
          const std::string name = l->name;
          line("for " + i + ", " + i + "v in enumerate(" + name + "):");
          block([&] {
            vars_.push_back({i, Kind::Int, {}});
            vars_.push_back({i + "v", Kind::Int, {}});
            blockStart_ = vars_.size();
            statements(1);
          });
          break;
        }
        [[fallthrough]];
      default:
        if (const Var* d = anyOf(Kind::Dict)) {
          line("for " + i + "k, " + i + " in " + d->name + ".items():");
          block([&] {
            vars_.push_back({i, Kind::Int, {}});
            blockStart_ = vars_.size();  // used after the body: no del
            line("print(f\"{" + i + "k}: {" + i + ":>3}\")");
          });
          break;
        }
        line("for " + i + " in [" + smallInt() + ", " + smallInt() + "]:");
        block([&] {
          vars_.push_back({i, Kind::Int, {}});
          blockStart_ = vars_.size();  // used after the body: no del
          statements(1);
        });
    }
  }

  // A tf.data pipeline over n rows, iterated by a Python for (its elements unroll like a
  // list's): optional map, shuffle, repeat, take and batch.
  void datasetFor(const std::string& i, int n) {
    Shape row = randomShape();
    Shape whole = row;
    whole.insert(whole.begin(), n);
    std::string ds = "tf.data.Dataset.from_tensor_slices(" + tensor(whole) + ")";
    if (flip()) ds += ".map(lambda x: x * " + floatLiteral() + ")";
    if (flip()) ds += ".shuffle(" + std::to_string(1 + pick(4)) + ", seed=" + smallInt() + ")";
    if (flip()) ds += ".repeat(" + std::to_string(1 + pick(2)) + ")";
    if (flip()) ds += ".take(" + smallInt() + ")";
    if (flip()) {
      const int b = 1 + pick(3);
      ds += ".batch(" + std::to_string(b) + ", drop_remainder=True).prefetch(tf.data.AUTOTUNE)";
      row.insert(row.begin(), b);
    }
    line("for " + i + " in " + ds + ":");
    block([&] {
      vars_.push_back({i, Kind::Tensor, row});
      blockStart_ = vars_.size();  // used after the body: no del
      statements(1);
    });
  }

  void whileStatement() {
    const std::string k = fresh("k");
    line(k + " = 0");
    line("while " + k + " < " + std::to_string(1 + pick(3)) + ":");
    block([&] {
      statements(1 + pick(2));
      line(k + " += 1");
    });
  }

  void collectionStatement() {
    switch (pick(7)) {
      case 0: {
        const std::string l = fresh("l");
        line(l + " = [" + intExpr() + ", " + intExpr() + ", " + smallInt() + "]");
        vars_.push_back({l, Kind::List, {}});
        break;
      }
      case 1:
        if (const Var* l = anyOf(Kind::List)) {
          line(l->name + ".append(" + intExpr() + ")");
          if (flip()) line(l->name + "[0] = " + intExpr());
          break;
        }
        [[fallthrough]];
      case 2: {
        const std::string l = fresh("l"), j = fresh("j");
        line(l + " = [" + j + " * 2 for " + j + " in range(" + std::to_string(1 + pick(4)) +
             ") if " + j + " != 1]");
        vars_.push_back({l, Kind::List, {}});
        break;
      }
      case 3: {
        const std::string d = fresh("d");
        line(d + " = {\"a\": " + intExpr() + ", \"b\": " + smallInt() + "}");
        vars_.push_back({d, Kind::Dict, {}});
        break;
      }
      case 4: {  // tuples: packing, unpacking, a swap
        const Shape shape = randomShape();
        const std::string a = fresh("t"), b = fresh("t");
        line(a + ", " + b + " = " + tensor(shape) + ", " + tensor(shape));
        if (flip()) line(a + ", " + b + " = " + b + ", " + a);
        vars_.push_back({a, Kind::Tensor, shape});
        vars_.push_back({b, Kind::Tensor, shape});
        break;
      }
      case 5: {
        const std::string s = fresh("s");
        line(s + " = \"ab,c\" + str(" + intExpr() + ")");
        if (flip()) line(s + " = " + s + ".replace(\"a\", \"z\")");
        vars_.push_back({s, Kind::Str, {}});
        break;
      }
      default: {
        const std::string n = fresh("n");
        line(n + " = " + intExpr());
        vars_.push_back({n, Kind::Int, {}});
        const std::string f = fresh("p");
        line(f + " = " + floatExpr());
        vars_.push_back({f, Kind::Float, {}});
      }
    }
  }

  void miscStatement() {
    switch (pick(8)) {
      case 5: {  // a Keras layer: its kernel is a variable made on the first call
        const int units = 2 + pick(2);
        static const char* kActivations[] = {"None", "\"relu\"", "\"tanh\"", "\"sigmoid\""};
        const std::string layer = fresh("layer"), out = fresh("t");
        const char* module = keras_ ? "keras" : "tf.keras";
        line(layer + " = " + module + ".layers.Dense(" + std::to_string(units) +
             ", activation=" + kActivations[pick(4)] + ")");
        line(out + " = " + layer + "(" + tensor({2, 3}) + ")");
        vars_.push_back({out, Kind::Tensor, {2, units}});
        return;
      }
      case 6: {  // a custom gradient: a def inside a def, and a tuple return
        if (depth_ > 0) return reassign();
        const std::string fn = fresh("cg"), x = fresh("x"), up = fresh("up"), out = fresh("t");
        const Shape shape = randomShape();
        line("@tf.custom_gradient");
        line("def " + fn + "(" + x + "):");
        line("    e = tf.exp(" + x + ")");
        line("    def grad(" + up + "):");
        line("        return " + up + " * (1.0 - 1.0 / (1.0 + e))");
        line("    return tf.math.log(1.0 + e), grad");
        line(out + " = " + fn + "(" + tensor(shape) + ")");
        vars_.push_back({out, Kind::Tensor, shape});
        return;
      }
      case 7: {  // jacobians: a persistent tape, a vector source
        const std::string x = fresh("x"), tape = fresh("tape"), y = fresh("y"), j = fresh("t");
        line(x + " = " + tensor({3}));
        line("with tf.GradientTape(persistent=True) as " + tape + ":");
        line("    " + tape + ".watch(" + x + ")");
        line("    " + y + " = tf.sin(" + x + ") * " + tensor({3}));
        line(j + " = " + tape + ".jacobian(" + y + ", " + x + ")");
        vars_.push_back({j, Kind::Tensor, {3, 3}});
        if (flip())
          line("print(" + tape + ".batch_jacobian(tf.reshape(" + y + ", [3, 1]), " + "tf.reshape(" +
               x + ", [3, 1])))");
        return;
      }
      case 0: {  // del: only a name of this block (a loop body binds it again each time)
        for (size_t i = vars_.size(); i-- > blockStart_;) {
          if (vars_[i].kind == Kind::Func || vars_[i].name == "steps") continue;
          line("del " + vars_[i].name);
          vars_.erase(vars_.begin() + long(i));
          return;
        }
        line("pass");
        return;
      }
      case 1:
        line("assert " + intExpr() + " >= -100, f\"unexpected {" + intExpr() + "}\"");
        return;
      case 2: {
        const Shape shape = randomShape();
        const std::string v = fresh("v");
        line(v + " = tf.Variable(" + tensor(shape) + ", name=\"" + v + "\")");
        line(v + (flip() ? ".assign_add(" : ".assign(") + tensor(shape) + ")");
        vars_.push_back({v, Kind::Variable, shape});
        return;
      }
      case 3:
        if (time_) {
          line(fresh("clock") + " = time.time()");
          return;
        }
        [[fallthrough]];
      default: {
        const std::string t = fresh("t");
        line(t + " = tf.convert_to_tensor(" + tensor({3}) + ")");
        line("print(" + t + ".shape, tf.shape(" + tensor({2, 3}) + "))");
      }
    }
  }

  void statements(int n) {
    for (int i = 0; i < n; ++i) statement();
  }

  void statement() {
    if (in_.remaining_bytes() == 0) return;
    // Inside AutoGraph control flow, only what keeps loop variables' shapes and dtypes.
    if (tensorScope_ > 0) {
      switch (pick(4)) {
        case 0:
          return printStatement();
        case 1:
          return newTensor(randomShape());
        default:
          return reassign();
      }
    }
    const bool nested = depth_ > 3;
    switch (pick(18)) {
      case 0:
      case 1:
        return newTensor(randomShape());
      case 2:
      case 3:
        return reassign();
      case 4:
        return printStatement();
      case 5:
        return defStatement();
      case 6:
        return lambdaStatement();
      case 7:
        return nested ? reassign() : tapeStatement();
      case 8:
        return whileLoopStatement();
      case 9:
        return nested ? reassign() : tensorArrayStatement();
      case 10:
        return nested ? reassign() : ifStatement();
      case 11:
        return nested ? reassign() : forStatement();
      case 12:
        return nested ? reassign() : whileStatement();
      case 13:
      case 14:
        return collectionStatement();
      default:
        return miscStatement();
    }
  }
};

std::string generate(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  return Generator(in).program();
}

// GRADLAB_FRONT_STATS=N: N programs from random inputs of 64..2048 bytes; how many parse,
// trace, run, and the trace errors that stop the most.
void stats(int count) {
  std::mt19937 rng(31);
  int parsed = 0, traced = 0, ran = 0, tooLarge = 0;
  std::map<std::string, int> errors;
  std::string example;
  const char* show = std::getenv("GRADLAB_FRONT_SHOW");  // print a program failing with this
  for (int n = 0; n < count; ++n) {
    std::vector<uint8_t> bytes(64 + rng() % 1985);
    for (uint8_t& b : bytes) b = uint8_t(rng());
    const std::string source = generate(bytes.data(), bytes.size());
    try {
      gl::lang::parse(source, "fuzz.gls");
      ++parsed;
    } catch (const gl::EngineError& e) {
      if (example.empty()) example = source + "\n--> " + e.what();
      ++errors["parse: " + e.message()];
      continue;
    }
    const gl::fuzz::Result r = gl::fuzz::traceAndRun(source);
    if (r.outcome == gl::fuzz::Outcome::TraceError) {
      if (show && r.error.find(show) != std::string::npos) {
        std::printf("%s\n--> %s\n\n", source.c_str(), r.error.c_str());
        show = nullptr;
      }
      // Messages name values; the first 60 characters group them well enough.
      ++errors[r.error.substr(r.error.find(": ", r.error.find(':') + 1) + 2, 60)];
      continue;
    }
    ++traced;
    tooLarge += r.outcome == gl::fuzz::Outcome::TooLarge;
    ran += r.outcome == gl::fuzz::Outcome::Ran;
  }
  std::printf("%d programs: %d parse (%.1f%%), %d trace (%.1f%%), %d run (%d too large to run)\n",
              count, parsed, 100.0 * parsed / count, traced, 100.0 * traced / count, ran, tooLarge);
  std::vector<std::pair<int, std::string>> top;
  for (const auto& [message, n] : errors) top.emplace_back(n, message);
  std::sort(top.rbegin(), top.rend());
  for (size_t i = 0; i < top.size() && i < 25; ++i)
    std::printf("%6d  %s\n", top[i].first, top[i].second.c_str());
  if (!example.empty()) std::printf("first parse error:\n%s\n", example.c_str());
}

bool printPrograms = false;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* n = std::getenv("GRADLAB_FRONT_STATS")) {
    stats(std::max(1, std::atoi(n)));
    std::exit(0);
  }
  printPrograms = std::getenv("GRADLAB_FRONT_PRINT") != nullptr;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source = generate(data, size);
  if (printPrograms) std::fprintf(stderr, "%s\n", source.c_str());
  gl::fuzz::traceAndRun(source);
  return 0;
}
