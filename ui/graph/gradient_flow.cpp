#include "ui/graph/gradient_flow.h"

#include "ui/graph/gradient_scale.h"

namespace gl::ui {

void includeRunInScale(GradientScale& scale, const RunResult& run) {
  for (const auto& [id, rec] : run.loops)
    for (const auto& step : rec.adjoints)
      for (const TensorRecord& r : step) scale.include(r.l2);
}

std::map<int, int64_t> loopIterations(const RunResult& run) {
  std::map<int, int64_t> out;
  for (const auto& [id, rec] : run.loops) out[id] = rec.iterations;
  return out;
}

}  // namespace gl::ui
