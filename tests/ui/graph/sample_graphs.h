#pragma once
// Graphs for the graph-view tests, built with the engine's C++ API: an unrolled Python loop
// (repeated nodes), a while_loop, a cond, their reverse-mode graph, and a None gradient from a
// target indexed after the tape closed (the seed-d story).
#include <memory>
#include <vector>

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/exec/executor.h"
#include "engine/ops/api.h"

namespace gltest {

struct SampleGraph {
  std::shared_ptr<gl::Graph> graph = std::make_shared<gl::Graph>();
  int whileNode = -1, condNode = -1;
  std::vector<int> unrolled;  // the mul nodes of the unrolled loop
  gl::Value x, w, loss;
  gl::GradResult grads;
  gl::GradDiagnostic none;  // why d(late)/dx is None
  int lateNode = -1;
  static constexpr int kUnrolledLine = 3, kSteps = 6;
};

inline gl::SourceLoc line(int n) { return {"sample.gls", n, 1}; }

inline SampleGraph makeSampleGraph() {
  namespace o = gl::ops;
  using gl::Value;
  SampleGraph s;
  gl::Builder b(*s.graph);
  b.setLoc(line(1));
  s.x = b.variable(gl::Tensor::fromVector({0.5, 1.0, 1.5}, {3}, gl::DType::F64), "x");
  s.w = b.variable(gl::Tensor::fromVector({1.1, 0.9, 1.2}, {3}, gl::DType::F64), "w");
  gl::GradientTape tape(b, /*persistent=*/true);
  b.setLoc(line(SampleGraph::kUnrolledLine));
  Value h = s.x;
  for (int i = 0; i < 4; ++i) {
    h = o::mul(b, h, s.w);
    s.unrolled.push_back(h.node);
  }
  b.setLoc(line(5));
  Value n = b.scalar(SampleGraph::kSteps, gl::DType::I32);
  auto outs = gl::whileLoop(
      b, [&](gl::Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
      [&](gl::Builder& bb, const std::vector<Value>& v) {
        Value next = o::add(bb, v[1], o::scale(bb, o::tanh(bb, v[1]), 0.1));
        return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, gl::DType::I32)), next};
      },
      {b.scalar(0, gl::DType::I32), h});
  s.whileNode = outs[1].node;
  b.setLoc(line(8));
  Value pred = o::greater(b, o::reduceSum(b, outs[1]), b.scalar(0, gl::DType::F64));
  Value c = gl::cond(
      b, pred, [&](gl::Builder& bb) { return std::vector<Value>{o::mul(bb, outs[1], outs[1])}; },
      [&](gl::Builder& bb) { return std::vector<Value>{o::neg(bb, outs[1])}; })[0];
  s.condNode = c.node;
  b.setLoc(line(10));
  s.loss = o::reduceSum(b, c);
  tape.stop();
  b.setLoc(line(12));
  Value late = o::gather(b, c, b.scalar(0, gl::DType::I32));  // indexed after the tape closed
  s.lateNode = late.node;
  b.setLoc(line(13));
  s.grads = tape.gradient(s.loss, {s.x, s.w});
  s.none = tape.gradient(late, {s.x}).why.at(0);
  return s;
}

// Runs the gradients with per-iteration records (adjoints of the loop variables).
inline gl::RunResult runSample(const SampleGraph& s) {
  gl::Executor ex(*s.graph);
  return ex.run({s.grads.grads[0], s.grads.grads[1], s.loss});
}

// What an unrolled Python loop leaves behind: at least `nodes` nodes in one chain of tanh, or
// (withConstants) x = x + c_i with a fresh constant per step, half of the nodes being constants.
inline std::shared_ptr<gl::Graph> makeChain(int nodes, bool withConstants = false) {
  auto g = std::make_shared<gl::Graph>();
  gl::Builder b(*g);
  gl::Value x = b.variable(gl::Tensor::scalar(0.0), "x");
  while (g->numNodes() < nodes)
    x = withConstants ? gl::ops::add(b, x, b.scalar(0.5)) : gl::ops::tanh(b, x);
  return g;
}

}  // namespace gltest
