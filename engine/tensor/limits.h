#pragma once
// Defaults shared by the tracer, the builder, the executors and the session: each named once.
// The user changes the limits with the CLI options (--memory-budget, --max-unroll, --max-nodes,
// --max-items, --max-ops) or in the window's Settings > Limits; every error over a limit says
// which of them to raise.
#include <cstddef>
#include <cstdint>
#include <string>

namespace gl {

inline constexpr size_t kDefaultMemoryBudget = size_t(8) << 30;  // 8 GiB of tensors
// Appended to every over-budget error: where the user changes the budget.
inline constexpr const char* kRaiseBudget =
    " (set a larger one with --memory-budget or in Settings)";
// Python loop iterations unrolled while tracing, in total.
inline constexpr int64_t kDefaultMaxUnroll = 100000;
inline constexpr const char* kRaiseUnroll = " (the maxUnroll limit, --max-unroll or in Settings)";
// Nodes a traced graph may have.
inline constexpr int64_t kDefaultMaxNodes = 2000000;
inline constexpr const char* kRaiseNodes = " (the maxNodes limit, --max-nodes or in Settings)";
// Items of one Python list and characters of one string while tracing.
inline constexpr int64_t kDefaultMaxItems = 1'000'000;
inline constexpr const char* kRaiseItems = " (the maxItems limit, --max-items or in Settings)";
// Primitive ops one run may execute, every loop iteration counted (the `ops` of the report):
// a tf.while_loop whose condition never turns false stops here with its line instead of
// running until cancelled. 10^9 ops is minutes of work at the lessons' op sizes.
inline constexpr int64_t kDefaultMaxOps = 1'000'000'000;
inline constexpr const char* kRaiseOps = " (the maxOps limit, --max-ops or in Settings)";
inline constexpr size_t kDefaultRecordBudget = size_t(64) << 20;  // per-iteration loop records
// Records keep whole tensors up to this many elements; larger ones as summaries.
inline constexpr int64_t kSmallTensorElements = 64;
// "457.8 MiB": bytes in the largest unit that keeps the number at least 1, for limit errors.
std::string humanBytes(double bytes);

// tf.while_loop / tf.map_fn: iterations that may run at once (TensorFlow's default).
inline constexpr int kDefaultParallelIterations = 10;

}  // namespace gl
