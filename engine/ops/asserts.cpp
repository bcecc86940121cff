// assert: TF's Assert op. Input 0 is a bool scalar condition, the others are data shown in the
// error when it is false. The tf.debugging.assert_* functions compute the condition from other
// primitives; this one only stops the run. Its node is a side effect (builder marks it), so it
// runs although nothing reads its result.
#include <sstream>

#include "engine/ops/api.h"
#include "engine/ops/registry.h"

namespace gl {

namespace {

// The first `summarize` entries of t, as TF prints data in an assertion's message.
std::string summary(const Tensor& t, int64_t summarize) {
  std::ostringstream os;
  os << "[";
  const int64_t n = std::min(t.numel(), summarize);
  for (int64_t i = 0; i < n; ++i) os << (i ? " " : "") << t.at(i);
  if (t.numel() > n) os << (n ? " " : "") << "...";
  os << "]";
  return os.str();
}

}  // namespace

void registerAssertOps(Registry& r) {
  r.add({
      .name = "assert",
      .math = "stops the run with the message and the data when the condition is false\n"
              "no gradient (a check, not a value)",
      .arity = -1,
      .differentiable = false,
      .noGradient = "an assertion, which has no gradient",
      .shape =
          [](const Types& in, const Attrs&) {
            if (in.empty() || in[0].list || in[0].dtype != DType::Bool || !in[0].shape.empty())
              throw ShapeError("assert needs a bool scalar condition first");
            return Types{{DType::Bool, {}, false}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) -> Tensors {
        if (in.at(0).at(0) != 0) return {in[0]};
        std::string m = a.s("message");
        const int64_t summarize = a.i("summarize", 3);
        for (size_t i = 1; i < in.size(); ++i) m += "\n" + summary(in[i], summarize);
        throw EngineError(m);
      }),
  });
}

namespace ops {

Value assertThat(Emitter& b, Value condition, const std::vector<Value>& data,
                 const std::string& message, int64_t summarize) {
  std::vector<Value> in{condition};
  in.insert(in.end(), data.begin(), data.end());
  return b.op1("assert", in, {{"message", message}, {"summarize", summarize}});
}

}  // namespace ops

}  // namespace gl
