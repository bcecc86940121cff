#pragma once
// Which executor runs a variant (RunSettings::parallel / fused), in a header of its own so the
// ui's run options can name it without the whole session.
namespace gl::lab {

enum class ExecutorKind : int { Serial, Parallel, Fused };

}  // namespace gl::lab
