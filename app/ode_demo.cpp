#include "ode_demo.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/exec/executor.h"
#include "engine/ops/api.h"
#include "engine/tensor/error.h"
#include "engine/tensor/rng.h"

namespace gl::app {

namespace o = gl::ops;

namespace {

// integrate(x): the Euler loop as a tf.while_loop over a step counter.
Value integrate(Builder& b, Value x, int steps, double dt) {
  Value n = b.scalar(steps, DType::I32);
  auto outs = whileLoop(
      b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
      [&](Builder& bb, const std::vector<Value>& v) {
        Value y = v[1];
        Value f = o::add(bb, o::neg(bb, y), bb.scalar(1.0));  // ode_fn(x) = -x + 1
        return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                  o::add(bb, y, o::mul(bb, bb.scalar(dt), f))};
      },
      {b.scalar(0, DType::I32), x}, WhileOptions{1, -1, "integrate"});
  return outs[1];
}

// variant "vectorized": one tape over the whole batch.
Value buildVectorized(Builder& b, Value x, const OdeDemoOptions& o) {
  GradientTape tape(b);
  tape.watch(x);
  Value lnp = o::reduceSum(b, integrate(b, x, o.steps, o.dt));
  tape.stop();
  return tape.gradient(lnp, {x}).grads.at(0);
}

// variants "serial" / "parallel": a per-sample tape inside a while_loop writing a TensorArray.
Value buildPerSample(Builder& b, Value x, const OdeDemoOptions& o, int parallelIterations) {
  Value ta =
      b.op1("list_new", {}, Attrs{{"dtype", std::string("float32")}, {"size", int64_t(o.batch)}});
  Value n = b.scalar(o.batch, DType::I32);
  auto outs = whileLoop(
      b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
      [&](Builder& bb, const std::vector<Value>& v) {
        Value xi = o::gather(bb, x, v[0]);
        GradientTape tape(bb);
        tape.watch(xi);
        Value lnp = o::reduceSum(bb, integrate(bb, xi, o.steps, o.dt));
        tape.stop();
        Value gi = tape.gradient(lnp, {xi}).grads.at(0);
        return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                  bb.op1("list_write", {v[1], v[0], gi})};
      },
      {b.scalar(0, DType::I32), ta}, WhileOptions{parallelIterations, -1, "samples"});
  return b.op1("list_stack", {outs[1]}, Attrs{{"size", int64_t(o.batch)}});
}

}  // namespace

int runOdeDemo(const OdeDemoOptions& opt) {
  std::printf("ODE lesson: x' = -x + 1, x [%d,%d], %d Euler steps, dt %g; d sum(x_N)/dx\n",
              opt.batch, opt.dim, opt.steps, opt.dt);
  const double expect = std::pow(1.0 - opt.dt, opt.steps);
  std::printf("closed form: (1-dt)^N = %.6g\n\n", expect);
  std::printf("%-12s %-9s %10s %12s %14s %12s\n", "variant", "executor", "seconds", "grad[0]",
              "max |err|", "peak MiB");
  const Tensor xInit = Rng(0).normal({opt.batch, opt.dim}, 10.0, 1.0, DType::F32);
  std::vector<std::string> variants = {"serial", "parallel", "vectorized"};
  std::vector<ExecutorKind> executors;
  for (ExecutorKind k : {ExecutorKind::Serial, ExecutorKind::Parallel})
    if (opt.executor == "both" || opt.executor == executorName(k)) executors.push_back(k);
  int status = 0;
  for (const auto& v : variants) {
    if (opt.variant != "all" && opt.variant != v) continue;
    Graph g;
    Builder b(g);
    Value x = b.constant(xInit, "x");
    Value grad = v == "vectorized" ? buildVectorized(b, x, opt)
                                   : buildPerSample(b, x, opt, v == "serial" ? 1 : 10);
    for (ExecutorKind executor : executors) {
      RunOptions ro;
      ro.executor = executor;
      ro.threads = opt.threads;
      ro.records = false;
      ro.timeline = false;
      Executor ex(g, ro);
      RunResult r = ex.run({grad});
      const Tensor& gt = r.values[0].t;
      double err = 0;
      for (int64_t i = 0; i < gt.numel(); ++i) err = std::max(err, std::abs(gt.at(i) - expect));
      std::printf("%-12s %-9s %10.3f %12.6g %14.3g %12.1f\n", v.c_str(), executorName(executor),
                  r.seconds, gt.at(0), err, double(r.peakBytes) / (1 << 20));
      if (err > 1e-4 + 1e-3 * expect) status = 1;
    }
  }
  return status;
}

int odeCommand(const args::Parsed& args) {
  OdeDemoOptions opt;
  opt.steps = int(args.integer("--steps", opt.steps));
  opt.batch = int(args.integer("--batch", opt.batch));
  opt.dim = int(args.integer("--dim", opt.dim));
  opt.dt = args.real("--dt", opt.dt);
  opt.executor = args.text("--executor", opt.executor);
  opt.threads = int(args.integer("--threads", opt.threads));
  opt.variant = args.text("--variant", opt.variant);
  try {
    return runOdeDemo(opt);
  } catch (const EngineError& e) {
    std::fprintf(stderr, "gradlab: %s\n", e.what());
    return 1;
  }
}

}  // namespace gl::app
