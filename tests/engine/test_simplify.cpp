// transform/simplify.h: which negations are folded into their add or sub, and that a run with
// the rewrites (no value records) gives the same bits, op counts and first NaN as one without.
#include "test_main.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "engine/build/builder.h"
#include "engine/exec/executor.h"
#include "engine/exec/plan.h"
#include "engine/lab/session.h"
#include "engine/ops/api.h"
#include "engine/ops/registry.h"
#include "engine/transform/simplify.h"
#include "helpers.h"

using namespace gl;
namespace o = gl::ops;

namespace {

void fail(const std::string& message) { QTest::qFail(message.c_str(), __FILE__, __LINE__); }

bool sameBits(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

// Values that tell the operand order and the sign apart: signed zeros, infinities, a NaN, a
// denormal and numbers whose sum and difference round differently.
Tensor awkward(const Shape& s, DType dt, int seed) {
  const double special[] = {0.0,  -0.0,     1.5,     -2.25,
                            1e30, -1e-38,   3.0e-39, std::numeric_limits<double>::infinity(),
                            7.0,  1.0 / 3.0};
  std::vector<double> v;
  for (int64_t i = 0; i < numel(s); ++i) v.push_back(special[(i * 7 + seed) % 10] * (1 + seed));
  return Tensor::fromVector(v, s, dt);
}

const SimplifiedNode* rewriteOf(const std::vector<SimplifiedNode>& all, Value v) {
  for (const SimplifiedNode& s : all)
    if (s.node.id == v.node) return &s;
  return nullptr;
}

RunResult runWith(const Graph& g, const std::vector<Value>& fetches,
                  const std::map<int, Tensor>& feeds, bool simplified) {
  RunOptions opt;
  opt.feeds = feeds;
  opt.valueRecords = !simplified;  // value records keep every node, so no rewrites
  return Executor(g, opt).run(fetches);
}

}  // namespace

class TestSimplify : public QObject {
  Q_OBJECT
 private slots:
  // x + -y = x - y, -x + y = y - x, x - -y = x + y; broadcasting and float64 too.
  void foldsEachNegationIntoItsReader() {
    Graph g;
    Builder b(g);
    const Value x = b.placeholder(DType::F32, {3, 4}, "x");
    const Value y = b.placeholder(DType::F32, {4}, "y");
    const Value z = b.placeholder(DType::F64, {5}, "z");
    const Value negY = o::neg(b, y), negX = o::neg(b, x), negY2 = o::neg(b, y);
    const Value negZ = o::neg(b, z);
    const Value plusNeg = o::add(b, x, negY);    // x + -y
    const Value negPlus = o::add(b, negX, y);    // -x + y
    const Value minusNeg = o::sub(b, x, negY2);  // x - -y
    const Value f64 = o::add(b, negZ, z);        // -z + z
    const std::vector<Value> fetches = {plusNeg, negPlus, minusNeg, f64};
    const std::vector<SimplifiedNode> all = simplifyForRun(g, fetches);
    QCOMPARE(int(all.size()), 4);
    struct Expect {
      Value at;
      const Primitive* becomes;
      Value first, second, absorbed;
    };
    for (const Expect& e :
         {Expect{plusNeg, &prims::sub(), x, y, negY}, Expect{negPlus, &prims::sub(), y, x, negX},
          Expect{minusNeg, &prims::add(), x, y, negY2}, Expect{f64, &prims::sub(), z, z, negZ}}) {
      const SimplifiedNode* s = rewriteOf(all, e.at);
      QVERIFY(s != nullptr);
      QVERIFY(s->node.prim == e.becomes);
      QVERIFY(s->node.inputs.at(0) == e.first);
      QVERIFY(s->node.inputs.at(1) == e.second);
      QCOMPARE(s->absorbed, e.absorbed.node);
      // Messages still name what the user wrote.
      QCOMPARE(std::string(s->node.opName()), std::string(g.node(e.at).opName()));
    }
    // The plan runs the rewrites and never the negations.
    const ExecutionPlan plan(g, fetches, true);
    QCOMPARE(plan.numRewritten(), 4);
    for (Value n : {negX, negY, negY2, negZ}) {
      const auto& order = plan.region(0).order;
      QVERIFY(std::find(order.begin(), order.end(), n.node) == order.end());
      QCOMPARE(plan.node(n.node).prim, &prims::neg());
    }
    QCOMPARE(ExecutionPlan(g, fetches, false).numRewritten(), 0);

    const std::map<int, Tensor> feeds = {{x.node, awkward({3, 4}, DType::F32, 0)},
                                         {y.node, awkward({4}, DType::F32, 3)},
                                         {z.node, awkward({5}, DType::F64, 1)}};
    const RunResult plain = runWith(g, fetches, feeds, false);
    const RunResult simplified = runWith(g, fetches, feeds, true);
    for (size_t i = 0; i < fetches.size(); ++i)
      if (!sameBits(plain.values[i].t, simplified.values[i].t))
        fail("fetch " + std::to_string(i) + " differs with the rewrites");
    // The negations ran without the rewrites only.
    auto ran = [](const RunResult& r, Value v) {
      return std::count_if(r.timeline.begin(), r.timeline.end(),
                           [&](const TimelineEvent& e) { return e.node == v.node; });
    };
    for (Value n : {negX, negY, negY2, negZ}) {
      QCOMPARE(ran(plain, n), 1);
      QCOMPARE(ran(simplified, n), 0);
    }
    // The op count (and --max-ops) counts the graph's ops, rewritten or not.
    QCOMPARE(simplified.primitiveOps, plain.primitiveOps);
    QCOMPARE(plain.primitiveOps, int64_t(8));
  }

  // A negation something else reads (another node, a fetch, a loop body) stays; so do integer
  // negations (-INT_MIN overflows) and a negation whose consumer mixes types.
  void keepsNegationsOthersRead() {
    Graph g;
    Builder b(g);
    const Value x = b.placeholder(DType::F32, {4}, "x");
    const Value i = b.placeholder(DType::I32, {4}, "i");
    const Value twice = o::neg(b, x);
    const Value a = o::add(b, twice, x);
    const Value m = o::mul(b, twice, x);
    const Value fetched = o::neg(b, x);
    const Value c = o::sub(b, x, fetched);
    const Value ints = o::add(b, o::neg(b, i), i);
    const std::vector<SimplifiedNode> all = simplifyForRun(g, {a, m, c, fetched, ints});
    QVERIFY(all.empty());
    // Without the fetch, the second one goes.
    QCOMPARE(int(simplifyForRun(g, {a, m, c, ints}).size()), 1);
  }

  // A negation computed outside a loop and read inside it is read through the loop's captures
  // too: it stays, and the body's own `- -y` in the same region is folded.
  void foldsOnlyWithinOneRegion() {
    const std::string source = R"(
x = tf.Variable([1.0, -2.0, 3.0])
n = -x


def body(i, y):
    return i + 1, y + n - -y


_, y = tf.while_loop(lambda i, y: i < 3, body, [tf.constant(0), x * 1.0])
)";
    const lang::TracedProgram p = lang::traceProgram(source, "loop.gls", lang::TraceOptions{});
    const Graph& g = *p.graph;
    std::vector<Value> fetches;
    for (const auto& v : p.variants)
      for (const auto& out : v.outputs)
        for (const auto& e : out.entries)
          if (e.value.valid()) fetches.push_back(e.value);
    const std::vector<SimplifiedNode> all = simplifyForRun(g, fetches);
    QCOMPARE(int(all.size()), 1);
    QVERIFY(g.node(all[0].node.id).region != 0);
    QVERIFY(runs(g.node(all[0].absorbed), prims::neg()));
  }

  // A NaN or Inf that reached the negation is reported there, as without the rewrite; one the
  // add makes (3e38 + 3e38 overflows) at the add. The same when the negated value is a buffer
  // the add may write over (the product's): its producer was checked before.
  void firstNonFiniteValueKeepsItsNode() {
    Graph g;
    Builder b(g);
    const Value x = b.placeholder(DType::F32, {3}, "x");
    const Value y = b.placeholder(DType::F32, {3}, "y");
    const Value neg = o::neg(b, y);
    const Value sum = o::add(b, x, neg);
    const Value product = o::mul(b, y, b.scalar(1.0));
    const Value sumOfProduct = o::add(b, x, o::neg(b, product));
    const float inf = std::numeric_limits<float>::infinity();
    const Tensor finite = Tensor::fromVector({1.0, 2.0, 3.0}, {3}, DType::F32);
    const Tensor withInf = Tensor::fromVector({1.0, inf, 3.0}, {3}, DType::F32);
    const Tensor big = Tensor::fromVector({1.0, 3e38, 3.0}, {3}, DType::F32);
    const Tensor minusBig = Tensor::fromVector({1.0, -3e38, 3.0}, {3}, DType::F32);
    struct Case {
      Value fetch;
      Tensor xv, yv;
      Value at;
    };
    for (const Case& c : {Case{sum, finite, withInf, neg}, Case{sum, big, minusBig, sum},
                          Case{sumOfProduct, finite, withInf, product},
                          Case{sumOfProduct, big, minusBig, sumOfProduct}})
      for (bool simplified : {false, true}) {
        const RunResult r = runWith(g, {c.fetch}, {{x.node, c.xv}, {y.node, c.yv}}, simplified);
        QCOMPARE(r.numerics.node, c.at.node);
        QCOMPARE(r.numerics.op, std::string(g.node(c.at).opName()));
        QCOMPARE(r.numerics.infCount, int64_t(1));
      }
    QCOMPARE(int(simplifyForRun(g, {sum, sumOfProduct}).size()), 2);
  }

  // Every lesson, small, on every executor: the same bits with and
  // without the rewrites, and the ODE's steps do fold (two per Euler step, forward and back).
  void lessonsGiveTheSameBits() {
    const std::string dir = std::string(GRADLAB_SOURCE_DIR) + "/resources/lessons/";
    for (const char* name : {"ode_while_loop.gls", "per_step_gradients.gls", "parallel_layers.gls",
                             "gradient_none.gls", "rnn_bptt.gls", "checkpointing.gls",
                             "custom_gradients.gls", "training_loop.gls"}) {
      lang::TraceOptions topt;
      topt.preset = lang::ParamPreset::Classroom;
      const lang::TracedProgram p = lang::traceProgram(gltest::readFile(dir + name), name, topt);
      RunOptions noRecords;
      noRecords.records = false;
      for (const RunOptions& opt : gltest::everyExecutor(noRecords)) {
        lab::RunRequest plain{{}, opt}, simplified{{}, opt};
        simplified.options.valueRecords = false;
        const lab::ProgramRun a = lab::runProgram(p, plain), b = lab::runProgram(p, simplified);
        QCOMPARE(a.variants.size(), b.variants.size());
        for (size_t v = 0; v < a.variants.size(); ++v) {
          const auto& va = a.variants[v];
          const auto& vb = b.variants[v];
          const std::string where = std::string(name) + " " + va.name;
          if (!va.ok() || !vb.ok()) {
            fail(where + ": " + va.error + vb.error);
            continue;
          }
          QCOMPARE(vb.run.primitiveOps, va.run.primitiveOps);
          for (size_t k = 0; k < va.run.values.size(); ++k) {
            const Datum& da = va.run.values[k];
            const Datum& db = vb.run.values[k];
            if (da.isList() || !da.t.defined()) continue;
            if (!sameBits(da.t, db.t))
              fail(where + ": fetch " + std::to_string(k) + " differs with the rewrites");
          }
        }
      }
      if (std::string(name) == "ode_while_loop.gls") {
        std::vector<Value> fetches;
        for (const auto& v : p.variants)
          for (const auto& out : v.outputs)
            for (const auto& e : out.entries)
              if (e.value.valid()) fetches.push_back(e.value);
        // -x + 1 and g + -(g * dt), in each of the three variants' loops.
        QCOMPARE(int(simplifyForRun(*p.graph, fetches).size()), 6);
      }
    }
  }
};

GRADLAB_TEST_GUILESS_MAIN(TestSimplify)
#include "test_simplify.moc"
