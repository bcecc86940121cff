#pragma once
// The window and the headless exporter: both need a QApplication, unlike run/check.
#include "args.h"

namespace gl::app {

// The window and export commands; their arguments are declared in commands.cpp. argc/argv go
// to the QApplication.

// Opens the window on FILE (or the last lesson used; the ODE lesson the first time).
// Options: --set name=value (params), --variant V, --run (run all variants once traced),
// --step T (after the run), --plot NAME, --screenshot PNG (save the window once it settles,
// then quit; for the README's pictures and for looking at the window under xvfb-run).
int runWindow(const args::Parsed& args, int& argc, char** argv);

// Runs the lesson and writes its graph, plots and data with no display (offscreen).
int exportCommand(const args::Parsed& args, int& argc, char** argv);

}  // namespace gl::app
