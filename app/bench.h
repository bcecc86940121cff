#pragma once
// `gradlab bench`: the four built-in lessons' variants on both executors, interleaved with the
// yardsticks found on the machine (the hand-written ODE limit, plain and flush-to-zero, and the
// PyTorch peer), then a table of medians and ratios. The numbers and the table's layout live in
// bench_table.h; this file runs things.
#include "args.h"

namespace gl::app {

// Exit status: 0 ok, 1 a case failed or --json could not be written, 2 --only selects nothing.
int benchCommand(const args::Parsed& args);

}  // namespace gl::app
