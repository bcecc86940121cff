#pragma once
// Defaults shared by the tracer, the builder, the executors and the session: each named once.
#include <cstddef>
#include <cstdint>

namespace gl {

inline constexpr size_t kDefaultMemoryBudget = size_t(8) << 30;  // 8 GiB of tensors
// Appended to every over-budget error: where the user changes the budget.
inline constexpr const char* kRaiseBudget =
    " (set a larger one with --memory-budget or in Settings)";
inline constexpr size_t kDefaultRecordBudget = size_t(64) << 20;  // per-iteration loop records
// Records keep whole tensors up to this many elements; larger ones as summaries.
inline constexpr int64_t kSmallTensorElements = 64;
// tf.while_loop / tf.map_fn: iterations that may run at once (TensorFlow's default).
inline constexpr int kDefaultParallelIterations = 10;

}  // namespace gl
