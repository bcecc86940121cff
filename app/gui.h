#pragma once
// The window and the headless exporter: both need a QApplication, unlike run/check.
#include <string>
#include <vector>

namespace gl::app {

// Opens the window on `file` (or the last lesson used; the ODE lesson the first time).
// Options: --set name=value (params), --variant V, --run (run all variants once traced),
// --step T (after the run), --screenshot PNG (save the window once it settles, then quit;
// for the README's pictures and for looking at the window under xvfb-run).
int runWindow(int argc, char** argv, const std::vector<std::string>& args);

// gradlab export FILE --out DIR [--format png,svg,pdf,csv,dot] [--set k=v]... [--step t]
//                    [--variant V] [--executor serial|parallel] [--threads N]
// Runs the lesson and writes its graph, plots and data with no display (offscreen).
int exportCommand(int argc, char** argv, const std::vector<std::string>& args);

}  // namespace gl::app
