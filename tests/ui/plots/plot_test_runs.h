#pragma once
// Small real engine runs for the plot tests: the plots must show exactly these numbers.
#include <cmath>
#include <memory>

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/exec/executor.h"
#include "engine/ops/api.h"
#include "engine/tensor/rng.h"

namespace plottest {

namespace o = gl::ops;

// y_{t+1} = factor * y_t over `steps` steps, L = sum(y_N), gradient dL/dy_0. The adjoint of y at
// step t is factor^(steps - t) in every element, so its L2 norm is sqrt(n) factor^(steps - t).
struct DecayRun {
  gl::Graph graph;
  gl::RunResult run;
  int loopNode = -1;
  int steps = 0, n = 0;
  double factor = 0;
  double expectedNorm(int t) const { return std::sqrt(double(n)) * std::pow(factor, steps - t); }
};

inline std::unique_ptr<DecayRun> runDecay(int steps = 8, int n = 4, double factor = 0.5,
                                          bool parallel = false) {
  auto d = std::make_unique<DecayRun>();
  d->steps = steps;
  d->n = n;
  d->factor = factor;
  gl::Builder b(d->graph);
  gl::Value y0 = b.constant(gl::Tensor::full(gl::DType::F64, {n}, 1.0), "y");
  gl::GradientTape tape(b);
  tape.watch(y0);
  gl::Value limit = b.scalar(steps, gl::DType::I32);
  auto outs = gl::whileLoop(
      b, [&](gl::Builder& bb, const std::vector<gl::Value>& v) { return o::less(bb, v[0], limit); },
      [&](gl::Builder& bb, const std::vector<gl::Value>& v) {
        return std::vector<gl::Value>{o::add(bb, v[0], bb.scalar(1, gl::DType::I32)),
                                      o::mul(bb, v[1], bb.scalar(factor, gl::DType::F64))};
      },
      {b.scalar(0, gl::DType::I32), y0}, gl::WhileOptions{1, -1, "decay"});
  d->loopNode = outs[1].node;
  gl::Value loss = o::reduceSum(b, outs[1]);
  tape.stop();
  gl::Value grad = tape.gradient(loss, {y0}).grads.at(0);
  gl::RunOptions options;
  options.executor = parallel ? gl::ExecutorKind::Parallel : gl::ExecutorKind::Serial;
  options.threads = 2;
  gl::Executor ex(d->graph, options);
  d->run = ex.run({grad, loss});
  return d;
}

// Seed-b: x_t = x_{t-1} * w_t; the jacobian d x_t / d w_k [T, T] equals x_t / w_k for k <= t.
struct JacobianRun {
  gl::Tensor jacobian, xs, w;
};

inline JacobianRun runPerStepJacobian(int T = 6) {
  gl::Graph g;
  gl::Builder b(g);
  JacobianRun r;
  r.w = gl::Rng(3).uniform({T}, 0.5, 1.5, gl::DType::F64);
  gl::Value w = b.variable(r.w, "w");
  gl::Value x0 = b.constant(gl::Tensor::scalar(2.0, gl::DType::F64), "x0");
  gl::GradientTape tape(b, /*persistent=*/true);
  gl::Value ta =
      b.op1("list_new", {}, gl::Attrs{{"dtype", std::string("float64")}, {"size", int64_t(T)}});
  gl::Value n = b.scalar(T, gl::DType::I32);
  auto outs = gl::whileLoop(
      b, [&](gl::Builder& bb, const std::vector<gl::Value>& v) { return o::less(bb, v[0], n); },
      [&](gl::Builder& bb, const std::vector<gl::Value>& v) {
        gl::Value xt = o::mul(bb, v[1], o::gather(bb, w, v[0]));
        return std::vector<gl::Value>{o::add(bb, v[0], bb.scalar(1, gl::DType::I32)), xt,
                                      bb.op1("list_write", {v[2], v[0], xt})};
      },
      {b.scalar(0, gl::DType::I32), x0, ta});
  gl::Value xs = b.op1("list_stack", {outs[2]}, gl::Attrs{{"size", int64_t(T)}});
  gl::Value J = tape.jacobian(xs, {w}).grads.at(0);
  tape.stop();
  auto vals = gl::evaluate(g, {J, xs});
  r.jacobian = vals[0];
  r.xs = vals[1];
  return r;
}

}  // namespace plottest
