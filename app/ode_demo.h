#pragma once
// The ODE lesson (seed-a) built from the engine's C++ API, until the script language lands:
// x' = -x + 1, Euler steps, gradient of sum(final) with respect to x, three variants.
#include <string>

#include "args.h"

namespace gl::app {

struct OdeDemoOptions {
  int batch = 10;
  int dim = 5000;
  int steps = 20000;
  double dt = 0.1;
  std::string executor = "both";  // executorName of serial or parallel, or both
  int threads = 0;
  std::string variant = "all";  // serial, parallel, vectorized or all
};

// Prints gradients, timings and memory per variant and executor; returns an exit status.
int runOdeDemo(const OdeDemoOptions& opt);

// gradlab ode: the options declared in commands.cpp, then runOdeDemo; engine errors exit 1.
int odeCommand(const args::Parsed& args);

}  // namespace gl::app
