// transform/clone_fragment.h: a fragment (the nodes one call built) copied with other inputs
// computes the same function of them: elementwise, through a while loop (all three executors),
// an independent loop's marks, gradients of a loop and of a map (reverse regions, saved values,
// adjoints), cond, map_fn and vectorized_map; shared captures, a copy into another region, the
// adjust callback, tapes, and the errors (bad ranges, stray regions, the memory budget).
#include "test_main.h"

#include <cmath>
#include <set>

#include "engine/autodiff/tape.h"
#include "engine/control/control_flow.h"
#include "engine/exec/executor.h"
#include "engine/ops/api.h"
#include "engine/transform/clone_fragment.h"
#include "engine/transform/independent_iterations.h"
#include "helpers.h"

using namespace gl;
namespace o = gl::ops;

namespace {

Tensor vec(const std::vector<double>& v) {
  return Tensor::fromVector(v, {int64_t(v.size())}, DType::F64);
}

// The nodes `build` adds: [first, end).
struct Range {
  int first = 0, end = 0;
};
template <class F>
Range traced(Builder& b, F&& build) {
  Range r{b.graph().numNodes(), 0};
  build();
  r.end = b.graph().numNodes();
  return r;
}

// v <- v * half, n times (n made in the fragment, half from outside).
Value halving(Builder& b, Value x, Value half, int n) {
  const Value steps = b.scalar(n, DType::I32);
  return whileLoop(
      b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], steps); },
      [&](Builder& bb, const std::vector<Value>& v) {
        return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                  o::mul(bb, v[1], half)};
      },
      {b.scalar(0, DType::I32), x})[1];
}

double maxDiff(const Tensor& t, const std::vector<double>& expect) {
  double d = t.numel() == int64_t(expect.size()) ? 0 : INFINITY;
  for (int64_t i = 0; i < t.numel() && i < int64_t(expect.size()); ++i)
    d = std::max(d, std::abs(t.at(i) - expect[size_t(i)]));
  return d;
}

}  // namespace

class TestCloneFragment : public QObject {
  Q_OBJECT
 private slots:
  // f(x) = x * x + 1 at 3, copied at 5.
  void elementwiseChain() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(Tensor::scalar(3, DType::F64), "x");
    Value y;
    const Range r = traced(b, [&] { y = o::add(b, o::mul(b, x, x), b.scalar(1, DType::F64)); });
    const Value x2 = b.constant(Tensor::scalar(5, DType::F64), "x2");
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {{x, x2}});
    QCOMPARE(c.nodes.size(), size_t(r.end - r.first));
    QVERIFY(c.regions.empty());
    QCOMPARE(c.map(x), x);
    QVERIFY(c.map(y).node >= x2.node + 1);
    const Node& mul = g.node(c.map(g.node(y).inputs[0]));
    QCOMPARE(mul.inputs, (std::vector<Value>{x2, x2}));
    QCOMPARE(mul.region, 0);
    const auto vals = evaluate(g, {y, c.map(y)});
    QCOMPARE(vals[0].at(0), 10.0);
    QCOMPARE(vals[1].at(0), 26.0);
  }

  // A while loop made in the fragment, reading a constant from outside: the copy shares that
  // constant (a capture), owns new regions, and every executor runs it alike.
  void whileLoopSharesOutsideConstant() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(vec({8, 16, -4, 1}), "x");
    const Value half = b.scalar(0.5, DType::F64);
    Value y;
    const Range r = traced(b, [&] { y = halving(b, x, half, 3); });
    const Value x2 = b.constant(vec({32, 64, 2, -8}), "x2");
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {{x, x2}});
    QCOMPARE(c.regions.size(), size_t(2));
    QVERIFY(!c.nodes.count(half.node));
    const int loop = y.node, copy = c.map(y).node;
    const Node& w = g.node(copy);
    // half, shared, and the copy of the loop's bound (made in the fragment).
    const std::vector<Value>& caps = g.node(loop).captures;
    QCOMPARE(caps.size(), size_t(2));
    const size_t h = caps[0] == half ? 0 : 1, bound = 1 - h;
    QCOMPARE(caps[h], half);
    QCOMPARE(w.captures[h], half);
    QCOMPARE(w.captures[bound], c.map(caps[bound]));
    QVERIFY(w.captures[bound].node >= r.end);
    QCOMPARE(w.inputs[1], x2);
    QCOMPARE(w.regions.size(), size_t(2));
    for (size_t k = 0; k < 2; ++k) {
      const Region& reg = g.region(w.regions[k]);
      QCOMPARE(w.regions[k], c.regions.at(g.node(loop).regions[k]));
      QCOMPARE(reg.owner, copy);
      QCOMPARE(reg.parent, 0);
      QCOMPARE(reg.params.size(), size_t(2));
      for (Value p : reg.params) QCOMPARE(g.node(p).region, w.regions[k]);
      for (int id : reg.nodes) QVERIFY(id > loop);
    }
    const std::vector<double> expect{4, 8, 0.25, -1};
    const auto serial = gltest::runEveryExecutor(g, {y, c.map(y)}, 0);
    QCOMPARE(maxDiff(serial[0], {1, 2, -0.5, 0.125}), 0.0);
    QCOMPARE(maxDiff(serial[1], expect), 0.0);
    RunOptions fused;
    fused.executor = ExecutorKind::Fused;
    fused.threads = 2;
    QCOMPARE(maxDiff(evaluate(g, {c.map(y)}, fused)[0], expect), 0.0);
  }

  // for i < n: ta.write(i, x[i] * 2), marked independent before the copy: the copy's marks name
  // its own list_write and the substituted bound, and the parallel executor (which runs the
  // iterations concurrently by them) agrees with the serial one.
  void independentLoopMarks() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(vec({1, 2, 3, 4, 5, 6}), "x");
    const Value n = b.scalar(4, DType::I32);
    Value stacked;
    int loop = -1;
    const Range r = traced(b, [&] {
      const Value ta =
          b.op1("list_new", {}, Attrs{{"dtype", std::string("float64")}, {"size", int64_t(6)}});
      auto outs = whileLoop(
          b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], n); },
          [&](Builder& bb, const std::vector<Value>& v) {
            const Value e = o::scale(bb, o::gather(bb, x, v[0]), 2.0);
            return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                      bb.op1("list_write", {v[1], v[0], e})};
          },
          {b.scalar(0, DType::I32), ta});
      loop = outs[0].node;
      stacked = b.op1("list_stack", {outs[1]});
    });
    QCOMPARE(markIndependentIterations(g), 1);
    const Value n2 = b.scalar(6, DType::I32);
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {{n, n2}});
    const IndependentIterations& orig = g.node(loop).control.independent;
    const IndependentIterations& ind = g.node(c.nodes.at(loop)).control.independent;
    QVERIFY(ind.marked());
    QCOMPARE(ind.counter, orig.counter);
    QCOMPARE(orig.limit, n);
    QCOMPARE(ind.limit, n2);
    QCOMPARE(ind.writes[1], c.nodes.at(orig.writes[1]));
    QCOMPARE(g.node(ind.writes[1]).region, g.node(c.nodes.at(loop)).regions[1]);
    const auto vals = gltest::runEveryExecutor(g, {c.map(stacked)}, 0);
    QCOMPARE(maxDiff(vals[0], {2, 4, 6, 8, 10, 12}), 0.0);
  }

  // A gradient taken in the fragment: y = sum(x^4) by a loop squaring twice, dy/dx = 4 x^3.
  // The copy's reverse loop reverses the copied forward loop and reads its saved values.
  void gradientOfWhileLoop() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(vec({1.5, 0.5}), "x");
    Value dx;
    int forward = -1;
    const Range r = traced(b, [&] {
      GradientTape tape(b);
      tape.watch(x);
      const Value two = b.scalar(2, DType::I32);
      auto outs = whileLoop(
          b, [&](Builder& bb, const std::vector<Value>& v) { return o::less(bb, v[0], two); },
          [&](Builder& bb, const std::vector<Value>& v) {
            return std::vector<Value>{o::add(bb, v[0], bb.scalar(1, DType::I32)),
                                      o::mul(bb, v[1], v[1])};
          },
          {b.scalar(0, DType::I32), x});
      forward = outs[0].node;
      const Value y = o::reduceSum(b, outs[1]);
      tape.stop();
      dx = tape.gradient(y, {x}).grads[0];
    });
    const Value x2 = b.constant(vec({2, -1}), "x2");
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {{x, x2}});

    const Node& fw = g.node(c.nodes.at(forward));
    QVERIFY(!fw.saved.empty());
    for (Value s : fw.saved) QCOMPARE(g.node(s).region, fw.regions[1]);
    int reverses = 0;
    for (const auto& [orig, copy] : c.nodes) {
      const Node& n = g.node(orig);
      if (n.forwardNode < 0) continue;
      ++reverses;
      QCOMPARE(g.node(copy).forwardNode, c.nodes.at(n.forwardNode));
      const Region& rev = g.region(g.node(copy).regions[1]);
      QCOMPARE(rev.forwardOf, fw.regions[1]);
      QCOMPARE(g.node(rev.iterationIndex).region, rev.id);
      QVERIFY(!rev.savedReads.empty());
      for (const auto& [forwardValue, read] : rev.savedReads) {
        QCOMPARE(g.node(forwardValue).region, fw.regions[1]);
        QCOMPARE(g.node(read).region, rev.id);
      }
    }
    QCOMPARE(reverses, 1);
    // Every adjoint the fragment's gradient recorded has a copy, at the copied value.
    int copiedAdjoints = 0;
    for (const auto& [key, adjoints] : g.adjoints)
      for (Value a : adjoints)
        if (c.nodes.count(a.node)) {
          const std::vector<Value>& entry = g.adjoints.at(c.map(key) == key ? x2 : c.map(key));
          QVERIFY(std::find(entry.begin(), entry.end(), c.map(a)) != entry.end());
          ++copiedAdjoints;
        }
    QVERIFY(copiedAdjoints > 0);

    const auto vals = gltest::runEveryExecutor(g, {dx, c.map(dx)}, 1e-12);
    QVERIFY(maxDiff(vals[0], {13.5, 0.5}) < 1e-12);
    QVERIFY(maxDiff(vals[1], {32, -4}) < 1e-12);
  }

  // d/dxs sum(map_fn(e -> e * e * w)) = 2 xs w, w a variable from outside (shared).
  void gradientOfMap() {
    Graph g;
    Builder b(g);
    const Value xs = b.constant(vec({1, 2, 3}), "xs");
    const Value w = b.variable(Tensor::scalar(0.5, DType::F64), "w");
    std::vector<Value> grads;
    const Range r = traced(b, [&] {
      GradientTape tape(b);
      tape.watch(xs);
      const Value m = mapFn(b,
                            [&](Builder& bb, const std::vector<Value>& e) {
                              return std::vector<Value>{o::mul(bb, o::mul(bb, e[0], e[0]), w)};
                            },
                            {xs})[0];
      const Value y = o::reduceSum(b, m);
      tape.stop();
      grads = tape.gradient(y, {xs, w}).grads;
    });
    const Value xs2 = b.constant(vec({-1, 4, 0.25}), "xs2");
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {{xs, xs2}});
    QVERIFY(!c.nodes.count(w.node));
    int reverseRegions = 0;
    for (const auto& [orig, copy] : c.regions)
      if (g.region(orig).forwardOf >= 0) {
        ++reverseRegions;
        QCOMPARE(g.region(copy).forwardOf, c.regions.at(g.region(orig).forwardOf));
        QCOMPARE(g.node(g.region(copy).owner).region, 0);
      }
    QCOMPARE(reverseRegions, 1);
    const auto vals = gltest::runEveryExecutor(g, {c.map(grads[0]), c.map(grads[1])}, 1e-12);
    QVERIFY(maxDiff(vals[0], {-1, 4, 0.25}) < 1e-12);
    QVERIFY(maxDiff(vals[1], {1 + 16 + 0.0625}) < 1e-12);
  }

  // cond(sum(x) > 0, 2x, -x) and map_fn(e -> e * sum(x)) over a constant from outside: the copy
  // at a negative x takes the other branch.
  void condAndMap() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(vec({1, 2}), "x");
    const Value elems = b.constant(vec({1, 10, 100}), "elems");
    Value picked, mapped;
    const Range r = traced(b, [&] {
      const Value s = o::reduceSum(b, x);
      picked = cond(
          b, o::greater(b, s, b.scalar(0, DType::F64)),
          [&](Builder& bb) { return std::vector<Value>{o::scale(bb, x, 2.0)}; },
          [&](Builder& bb) { return std::vector<Value>{o::neg(bb, x)}; })[0];
      mapped = mapFn(b,
                     [&](Builder& bb, const std::vector<Value>& e) {
                       return std::vector<Value>{o::mul(bb, e[0], s)};
                     },
                     {elems})[0];
    });
    const Value x2 = b.constant(vec({-3, 1}), "x2");
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {{x, x2}});
    QCOMPARE(c.regions.size(), size_t(3));
    QCOMPARE(g.node(c.map(mapped)).inputs[0], elems);
    const auto vals =
        gltest::runEveryExecutor(g, {picked, mapped, c.map(picked), c.map(mapped)}, 0);
    QCOMPARE(maxDiff(vals[0], {2, 4}), 0.0);
    QCOMPARE(maxDiff(vals[1], {3, 30, 300}), 0.0);
    QCOMPARE(maxDiff(vals[2], {3, -1}), 0.0);
    QCOMPARE(maxDiff(vals[3], {-2, -20, -200}), 0.0);
  }

  // The fragment ran in a loop body (home) and is copied into another region (target): nodes of
  // home go to target, the fragment's own regions nest in target's copy of them.
  void homeToTarget() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(vec({8, 4}), "x");
    const Value half = b.scalar(0.5, DType::F64);
    Range r;
    Value e, y2;
    std::vector<Value> outer = mapFn(b,
                                     [&](Builder& bb, const std::vector<Value>& p) {
                                       e = p[0];
                                       r = traced(bb, [&] { y2 = halving(bb, e, half, 2); });
                                       return std::vector<Value>{y2};
                                     },
                                     {x});
    const int home = g.node(outer[0]).regions[0];
    // Without a substitute, the copy would read the first map's element from outside it.
    const int before = g.numNodes();
    const std::string text =
        gltest::errorText([&] { cloneFragment(b, r.first, r.end, home, 0, {}); });
    QVERIFY2(text.find("param#" + std::to_string(e.node)) != std::string::npos, text.c_str());
    QCOMPARE(g.numNodes(), before);
    // A second map whose body is the copy.
    FragmentClone c;
    std::vector<Value> second =
        mapFn(b,
              [&](Builder& bb, const std::vector<Value>& p) {
                c = cloneFragment(bb, r.first, r.end, home, bb.currentRegion(), {{e, p[0]}});
                return std::vector<Value>{c.map(y2)};
              },
              {o::scale(b, x, 3.0)});
    const int target = g.node(second[0]).regions[0];
    QCOMPARE(g.node(c.map(y2)).region, target);
    for (const auto& [orig, copy] : c.regions) QCOMPARE(g.region(copy).parent, target);
    // The second map captures what the copy reads from outside.
    QCOMPARE(g.node(second[0]).captures, (std::vector<Value>{half}));
    const auto vals = gltest::runEveryExecutor(g, {outer[0], second[0]}, 0);
    QCOMPARE(maxDiff(vals[0], {2, 1}), 0.0);
    QCOMPARE(maxDiff(vals[1], {6, 3}), 0.0);
  }

  // A vectorized_map in the fragment: its record is copied, naming the copied traced map.
  void vectorizedMapRecord() {
    Graph g;
    Builder b(g);
    const Value xs = b.constant(vec({1, 2, 3}), "xs");
    VectorizedMap vm;
    const Range r = traced(b, [&] {
      vm = vectorizedMap(
          b,
          [&](Builder& bb, const std::vector<Value>& e) {
            return std::vector<Value>{o::mul(bb, e[0], e[0])};
          },
          {xs}, true);
    });
    QCOMPARE(g.vectorizedMaps.size(), size_t(1));
    const Value xs2 = b.constant(vec({-2, 0.5, 4}), "xs2");
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {{xs, xs2}});
    QCOMPARE(g.vectorizedMaps.size(), size_t(2));
    QCOMPARE(g.vectorizedMaps[0].mapNode, vm.mapNode);
    QCOMPARE(g.vectorizedMaps[1].mapNode, c.nodes.at(vm.mapNode));
    QCOMPARE(g.vectorizedMaps[1].what, g.vectorizedMaps[0].what);
    const auto vals = gltest::runEveryExecutor(g, {c.map(vm.outputs[0])}, 0);
    QCOMPARE(maxDiff(vals[0], {4, 0.25, 16}), 0.0);
  }

  // adjust sees each copy once, before it is added (still the original's id), and what it
  // changes is what is added.
  void adjustSeesEveryCopy() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(vec({2, 3}), "x");
    const Value half = b.scalar(0.5, DType::F64);
    Value y;
    const Range r = traced(b, [&] { y = o::exp(b, halving(b, x, half, 2)); });
    std::set<int> seen;
    int calls = 0;
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {}, [&](Node& n) {
      ++calls;
      seen.insert(n.id);
      n.name = "copy";
    });
    QCOMPARE(calls, r.end - r.first);
    QCOMPARE(int(seen.size()), calls);
    QCOMPARE(*seen.begin(), r.first);
    QCOMPARE(*seen.rbegin(), r.end - 1);
    for (const auto& [orig, copy] : c.nodes) QCOMPARE(g.node(copy).name, std::string("copy"));
    QCOMPARE(g.node(y).name, std::string());
  }

  // A tape recording when the copy is made records it: the copy is differentiable as if traced.
  void tapeRecordsTheCopy() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(vec({1, 2}), "x");
    Value y;
    const Range r = traced(b, [&] { y = o::reduceSum(b, o::mul(b, x, o::sin(b, x))); });
    const Value x2 = b.constant(vec({0.5, -1}), "x2");
    GradientTape tape(b);
    tape.watch(x2);
    const FragmentClone c = cloneFragment(b, r.first, r.end, 0, 0, {{x, x2}});
    tape.stop();
    for (const auto& [orig, copy] : c.nodes) QVERIFY(tape.isRecorded(copy));
    const Value dx = tape.gradient(c.map(y), {x2}).grads[0];
    QVERIFY(dx.valid());
    // d/dx x sin x = sin x + x cos x
    auto f = [](double v) { return std::sin(v) + v * std::cos(v); };
    QVERIFY(maxDiff(evaluate(g, {dx})[0], {f(0.5), f(-1)}) < 1e-12);
  }

  void errors() {
    Graph g;
    Builder b(g);
    const Value x = b.constant(vec({1}), "x");
    o::neg(b, x);
    auto error = [&](int first, int end, int home = 0) {
      return gltest::errorText([&] { cloneFragment(b, first, end, home, 0, {}); });
    };
    QVERIFY(error(1, 0).find("not a range") != std::string::npos);
    QVERIFY(error(-1, 1).find("not a range") != std::string::npos);
    QVERIFY(error(0, g.numNodes() + 1).find("not a range") != std::string::npos);
    QVERIFY(error(0, 1, 7).find("region 7") != std::string::npos);
    QCOMPARE(g.numNodes(), 2);     // nothing was added
    QVERIFY(error(2, 2).empty());  // an empty fragment is fine
    // A budget lowered since the first call: neg's 8 bytes no longer fit.
    b.setMemoryBudget(4);
    QVERIFY(error(0, 2).find("memory budget") != std::string::npos);
    QCOMPARE(g.numNodes(), 2);
    b.setMemoryBudget(kDefaultMemoryBudget);

    // Home is one region, but a node of the fragment sits in a sibling made before the call.
    const int home = g.addRegion(0, RegionKind::Then);
    const int sibling = g.addRegion(0, RegionKind::Else);
    const int inner = g.addRegion(sibling, RegionKind::Then);
    const int first = g.numNodes();
    {
      RegionScope in(b, home);
      o::neg(b, x);
    }
    {
      RegionScope in(b, inner);
      o::neg(b, x);
    }
    const std::string text = error(first, g.numNodes(), home);
    QVERIFY2(text.find("parent else region " + std::to_string(sibling)) != std::string::npos,
             text.c_str());
    QVERIFY(text.find("neither the call's region") != std::string::npos);
    QCOMPARE(g.numRegions(), inner + 1);  // no region was copied
  }
};

GRADLAB_TEST_MAIN(TestCloneFragment)
#include "test_clone_fragment.moc"
