// Keras's recurrent layers (keras/layers/rnn/ of TF 2.x): SimpleRNNCell, GRUCell, LSTMCell and
// the layers SimpleRNN, GRU, LSTM that run a cell over the time axis. Weights keep Keras's
// names, shapes and initializers: kernel [input_dim, k units] (glorot_uniform),
// recurrent_kernel [units, k units] (orthogonal), bias (zeros; GRU's reset_after=True bias is
// [2, 3 units], LSTM's unit_forget_bias starts the forget gate's at one). Gate order: GRU z, r,
// h; LSTM i, f, c, o. The time axis must be known while tracing: the layer unrolls over it
// (the graph has one cell per step, what Keras's unroll=True builds).
#include <algorithm>

#include "engine/lang/tracer_keras_layer.h"

namespace gl::lang::trace {

namespace o = gl::ops;

namespace {

enum class CellKind { Simple, Gru, Lstm };

struct RnnCell : LayerObj {
  CellKind cell = CellKind::Simple;
  int64_t units = 0;
  Val recurrentActivation;
  bool useBias = true, unitForgetBias = true, resetAfter = true;
  Val kernelInit, recurrentInit, biasInit;

  int64_t gates() const { return cell == CellKind::Simple ? 1 : cell == CellKind::Gru ? 3 : 4; }
  size_t stateCount() const { return cell == CellKind::Lstm ? 2 : 1; }

  void build(Context& cx, const Shape& input, DType dt) override {
    const int64_t k = gates() * units;
    makeWeight(cx, kernelInit, {input.back(), k}, dt, "kernel");
    makeWeight(cx, recurrentInit, {units, k}, dt, "recurrent_kernel");
    if (useBias) {
      if (cell == CellKind::Lstm && unitForgetBias) {
        // Keras: concatenate(bias_initializer((units,)), ones((units,)),
        // bias_initializer((2 units,))).
        const Tensor a = initialValue(cx, biasInit, {units}, DType::F64);
        const Tensor c = initialValue(cx, biasInit, {2 * units}, DType::F64);
        Tensor bias = Tensor::empty(DType::F64, {k});
        double* p = bias.data<double>();
        for (int64_t i = 0; i < units; ++i) p[i] = a.at(i), p[units + i] = 1;
        for (int64_t i = 0; i < 2 * units; ++i) p[2 * units + i] = c.at(i);
        makeVariable(cx, bias.astype(dt), "bias");
      } else if (cell == CellKind::Gru && resetAfter) {
        makeWeight(cx, biasInit, {2, k}, dt, "bias");
      } else {
        makeWeight(cx, biasInit, {k}, dt, "bias");
      }
    }
    built = true;
  }

  std::optional<Val> attr(Context& cx, const std::string& n) override {
    if (n == "kernel" && built) return stateVal(cx, states[0]);
    if (n == "recurrent_kernel" && built) return stateVal(cx, states[1]);
    if (n == "bias" && built && useBias) return stateVal(cx, states[2]);
    if (n == "units") return Val::integer(units);
    if (n == "state_size") {
      if (stateCount() == 1) return Val::integer(units);
      return Val::listOf({Val::integer(units), Val::integer(units)});
    }
    if (n == "kernel" || n == "bias" || n == "recurrent_kernel") return Val::none();
    return LayerObj::attr(cx, n);
  }
  std::vector<std::string> attrNames() const override {
    auto v = LayerObj::attrNames();
    v.insert(v.end(), {"recurrent_kernel", "units", "state_size"});
    return v;
  }

  // Columns [g units, (g + n) units) of a [.., k units] matrix.
  Value gate(Emitter& b, Value m, int64_t g, int64_t n = 1) {
    const Shape& s = b.type(m).shape;
    std::vector<int64_t> begin(s.size(), 0), size(s.size(), -1);
    begin.back() = g * units;
    size.back() = n * units;
    return o::slice(b, m, begin, size);
  }

  // One step on x [batch, input_dim] from states [batch, units]: the output and new states.
  std::pair<Value, std::vector<Value>> step(Context& cx, Value x, const std::vector<Value>& h,
                                            const SourceLoc& loc) {
    Emitter& b = cx.b;
    const Value kernel = weight(cx, 0), rec = weight(cx, 1);
    Value bias = useBias ? weight(cx, 2) : Value{};
    auto act = [&](Value y) { return activateWith(cx, activation, y, loc); };
    auto ract = [&](Value y) { return activateWith(cx, recurrentActivation, y, loc); };
    cx.at(loc);
    if (cell == CellKind::Simple) {
      Value y = o::matmul(b, x, kernel);
      if (useBias) y = o::add(b, y, bias);
      const Value out = act(o::add(b, y, o::matmul(b, h[0], rec)));
      return {out, {out}};
    }
    if (cell == CellKind::Lstm) {
      Value z = o::add(b, o::matmul(b, x, kernel), o::matmul(b, h[0], rec));
      if (useBias) z = o::add(b, z, bias);
      const Value i = ract(gate(b, z, 0)), f = ract(gate(b, z, 1));
      const Value c = o::add(b, o::mul(b, f, h[1]), o::mul(b, i, act(gate(b, z, 2))));
      const Value out = o::mul(b, ract(gate(b, z, 3)), act(c));
      return {out, {out, c}};
    }
    // GRU: z, r, h.
    Value mx = o::matmul(b, x, kernel);
    Value inputBias, recBias;
    if (useBias && resetAfter) {
      inputBias = o::reshape(b, o::slice(b, bias, {0, 0}, {1, -1}), {3 * units});
      recBias = o::reshape(b, o::slice(b, bias, {1, 0}, {1, -1}), {3 * units});
    } else if (useBias) {
      inputBias = bias;
    }
    if (inputBias.valid()) mx = o::add(b, mx, inputBias);
    Value inner = o::matmul(b, h[0], resetAfter ? rec : gate(b, rec, 0, 2));
    if (recBias.valid()) inner = o::add(b, inner, recBias);
    const Value z = ract(o::add(b, gate(b, mx, 0), gate(b, inner, 0)));
    const Value r = ract(o::add(b, gate(b, mx, 1), gate(b, inner, 1)));
    const Value recH = resetAfter ? o::mul(b, r, gate(b, inner, 2))
                                  : o::matmul(b, o::mul(b, r, h[0]), gate(b, rec, 2));
    const Value hh = act(o::add(b, gate(b, mx, 2), recH));
    // h = z h_prev + (1 - z) hh
    const Value out =
        o::add(b, o::mul(b, z, h[0]), o::mul(b, o::sub(b, b.scalar(1, b.type(z).dtype), z), hh));
    return {out, {out}};
  }

  // The states argument: one tensor or a list of them, each [batch, units].
  std::vector<Value> statesOf(Context& cx, const Val& v, DType dt, const SourceLoc& loc) {
    std::vector<Value> out;
    if (v.isSeq())
      for (const Val& s : v.items()) out.push_back(cx.toTensor(s, loc, dt));
    else
      out.push_back(cx.toTensor(v, loc, dt));
    if (out.size() != stateCount())
      cx.fail(loc, kind + " needs " + std::to_string(stateCount()) + " state tensor" +
                       (stateCount() == 1 ? "" : "s ([h, c])") + ", got " +
                       std::to_string(out.size()));
    for (Value s : out) {
      const Shape& sh = cx.b.type(s).shape;
      if (sh.size() != 2 || (sh[1] >= 0 && sh[1] != units))
        cx.fail(loc, kind + " states must be [batch, " + std::to_string(units) + "], got " +
                         shapeStr(sh));
    }
    return out;
  }

  void ensureBuilt(Context& cx, Value x, const SourceLoc& loc) {
    const int64_t in = lastDim(cx, x, loc);
    if (!built) build(cx, cx.b.type(x).shape, cx.b.type(x).dtype);
    if (cx.b.type(variables[0]).shape[0] != in)
      cx.fail(loc, "this " + kind + " was built for inputs of size " +
                       std::to_string(cx.b.type(variables[0]).shape[0]) + ", got " +
                       std::to_string(in));
  }

  Value forward(Context& cx, Value, const SourceLoc& loc) override {
    cx.fail(loc, kind + " is called with (inputs, states)");
  }
  // cell(inputs, states) -> (output, new_states), as Keras's cells.
  Val call(Context& cx, CallArgs& args) override {
    static const Signature sig = Signature::parse("inputs, states, ~training=None");
    Bound a(cx, kind, sig, args);
    const Value x = a.tensor("inputs");
    if (cx.b.type(x).shape.size() != 2)
      a.fail("inputs", "must be [batch, input_dim], got " + shapeStr(cx.b.type(x).shape));
    ensureBuilt(cx, x, args.loc);
    const auto states = statesOf(cx, a["states"], cx.b.type(x).dtype, a.loc("states"));
    a.checkAllRead();
    const auto [out, next] = step(cx, x, states, args.loc);
    std::vector<Val> ns;
    for (Value s : next) ns.push_back(Val::tensor(s));
    return Val::listOf({Val::tensor(out), Val::listOf(std::move(ns))}, true);
  }
};

// SimpleRNN, GRU, LSTM: the cell over the time axis of [batch, time, features] inputs
// ([time, batch, features] when time_major).
struct RnnLayer : LayerObj {
  std::shared_ptr<RnnCell> cell;
  bool returnSequences = false, returnState = false, goBackwards = false, timeMajor = false;

  std::vector<std::shared_ptr<VarState>> allStates() const override { return cell->allStates(); }
  std::optional<Val> attr(Context& cx, const std::string& n) override {
    if (n == "cell") return Val::object(cell);
    if (n == "kernel" || n == "recurrent_kernel" || n == "bias" || n == "units" ||
        n == "state_size")
      return cell->attr(cx, n);
    if (n == "built") return Val::boolean(cell->built);
    if (n == "return_sequences") return Val::boolean(returnSequences);
    if (n == "return_state") return Val::boolean(returnState);
    return LayerObj::attr(cx, n);
  }
  std::vector<std::string> attrNames() const override {
    auto v = LayerObj::attrNames();
    v.insert(v.end(), {"cell", "recurrent_kernel", "units", "return_sequences", "return_state"});
    return v;
  }
  Value forward(Context& cx, Value x, const SourceLoc& loc) override {
    return cx.toTensor(run(cx, x, Val::none(), loc), loc);
  }
  Val call(Context& cx, CallArgs& args) override {
    static const Signature sig =
        Signature::parse("inputs, mask=None, ~training=None, initial_state=None");
    Bound a(cx, kind, sig, args);
    const Value x = a.tensor("inputs");
    const Val init = a["initial_state"];
    a.checkAllRead();
    return run(cx, x, init, args.loc);
  }

  Val run(Context& cx, Value x, const Val& initialState, const SourceLoc& loc) {
    Emitter& b = cx.b;
    const Shape s = b.type(x).shape;
    if (s.size() != 3)
      cx.fail(loc, kind + " needs inputs of rank 3 (" +
                       (timeMajor ? "[time, batch, features]" : "[batch, time, features]") +
                       "), got " + shapeStr(s));
    const int timeAxis = timeMajor ? 0 : 1;
    const int64_t steps = s[size_t(timeAxis)], batch = s[size_t(1 - timeAxis)];
    if (steps < 0)
      cx.fail(loc, kind +
                       " needs the number of time steps known while tracing (it unrolls "
                       "over them), got inputs of shape " +
                       shapeStr(s));
    if (steps == 0) cx.fail(loc, kind + " needs at least one time step");
    cell->ensureBuilt(cx, x, loc);
    const DType dt = b.type(x).dtype;
    std::vector<Value> h;
    if (initialState.isNone()) {
      if (batch < 0)
        cx.fail(loc, kind +
                         " needs a known batch size for its zero initial state (or pass "
                         "initial_state)");
      cx.at(loc);
      for (size_t i = 0; i < cell->stateCount(); ++i)
        h.push_back(b.constant(Tensor::zeros(dt, {batch, cell->units})));
    } else {
      h = cell->statesOf(cx, initialState, dt, loc);
    }
    cx.at(loc);
    std::vector<Value> xs = o::unstack(b, x, timeAxis);
    if (goBackwards) std::reverse(xs.begin(), xs.end());
    std::vector<Value> outs;
    for (Value xt : xs) {
      auto [out, next] = cell->step(cx, xt, h, loc);
      outs.push_back(out);
      h = next;
    }
    cx.at(loc);
    // With go_backwards the sequence comes out in the order it was processed, as Keras's.
    const Value y = returnSequences ? o::stack(b, outs, timeAxis) : outs.back();
    if (!returnState) return Val::tensor(y);
    std::vector<Val> r{Val::tensor(y)};
    for (Value v : h) r.push_back(Val::tensor(v));
    return Val::listOf(std::move(r));
  }
};

// The cell arguments the cells and layers share (the layers pass them to their cell).
const char* kCellArgs =
    "use_bias=True, kernel_initializer='glorot_uniform', "
    "recurrent_initializer='orthogonal', bias_initializer='zeros', kernel_regularizer=None, "
    "recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None, "
    "recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0";

std::string cellSignature(CellKind k) {
  std::string s = "units, activation='tanh', ";
  if (k != CellKind::Simple) s += "recurrent_activation='sigmoid', ";
  s += kCellArgs;
  if (k == CellKind::Lstm) s += ", unit_forget_bias=True";
  if (k == CellKind::Gru) s += ", reset_after=True";
  return s;
}

void readCell(Bound& a, CellKind k, RnnCell* c) {
  c->cell = k;
  c->units = a.integer("units");
  if (c->units < 1) a.fail("units", "must be positive");
  c->activation = a["activation"];
  c->recurrentActivation = k == CellKind::Simple ? Val::none() : a["recurrent_activation"];
  c->useBias = a.boolean("use_bias");
  c->kernelInit = initializerArg(a, "kernel_initializer");
  c->recurrentInit = initializerArg(a, "recurrent_initializer");
  c->biasInit = initializerArg(a, "bias_initializer");
  if (k == CellKind::Lstm) c->unitForgetBias = a.boolean("unit_forget_bias");
  if (k == CellKind::Gru) c->resetAfter = a.boolean("reset_after");
  for (const char* p : {"dropout", "recurrent_dropout"})
    if (a.number(p) != 0) a.fail(p, "is not supported by GradLab yet (only 0.0: no dropout masks)");
}

void addCell(BuiltinTable& t, CellKind k, const char* kind) {
  t[std::string("tf.keras.layers.") + kind] = {Signature::parse(cellSignature(k) + ", name=None"),
                                               [k, kind](Bound& a) {
                                                 auto c = layer<RnnCell>(a, kind);
                                                 readCell(a, k, c.get());
                                                 return Val::object(c);
                                               }};
}

void addLayer(BuiltinTable& t, CellKind k, const char* kind, const char* cellKind,
              const char* cellName) {
  std::string sig = cellSignature(k) +
                    ", activity_regularizer=None, return_sequences=False, return_state=False, "
                    "go_backwards=False, stateful=False, ~unroll=False, time_major=False, "
                    "input_shape=None, name=None";
  t[std::string("tf.keras.layers.") + kind] = {
      Signature::parse(sig), [k, kind, cellKind, cellName](Bound& a) {
        auto l = layer<RnnLayer>(a, kind);
        l->cell = std::make_shared<RnnCell>();
        l->cell->kind = cellKind;
        l->cell->loc = a.callLoc;
        l->cell->name = l->name + "/" + cellName;  // Keras: lstm/lstm_cell/kernel
        readCell(a, k, l->cell.get());
        l->returnSequences = a.boolean("return_sequences");
        l->returnState = a.boolean("return_state");
        l->goBackwards = a.boolean("go_backwards");
        l->timeMajor = a.boolean("time_major");
        if (a.boolean("stateful"))
          a.fail("stateful", "is not supported by GradLab (states kept across calls)");
        const Val& shape = a["input_shape"];
        if (!shape.isNone()) {
          if (!shape.isSeq() || shape.items().empty() || shape.items().back().kind() != Kind::Int)
            a.fail("input_shape", "must be a tuple (time, features) with an int last");
          l->cell->build(a.cx, {shape.items().back().asInt()}, DType::F32);
        }
        return Val::object(l);
      }};
}

}  // namespace

void addKerasRnnLayers(BuiltinTable& t) {
  addCell(t, CellKind::Simple, "SimpleRNNCell");
  addCell(t, CellKind::Gru, "GRUCell");
  addCell(t, CellKind::Lstm, "LSTMCell");
  addLayer(t, CellKind::Simple, "SimpleRNN", "SimpleRNNCell", "simple_rnn_cell");
  addLayer(t, CellKind::Gru, "GRU", "GRUCell", "gru_cell");
  addLayer(t, CellKind::Lstm, "LSTM", "LSTMCell", "lstm_cell");
}

}  // namespace gl::lang::trace
