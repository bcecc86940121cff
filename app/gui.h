#pragma once
// The window and the headless exporter: both need a QApplication, unlike run/check.
#include <string>
#include <vector>

namespace gl::app {

// Opens the window on `file` (or the last lesson used; the ODE lesson the first time).
int runWindow(int argc, char** argv, const std::string& file);

// gradlab export FILE --out DIR [--format png,svg,pdf,csv,dot] [--set k=v]... [--step t]
//                    [--variant V] [--executor serial|parallel] [--threads N]
// Runs the lesson and writes its graph, plots and data with no display (offscreen).
int exportCommand(int argc, char** argv, const std::vector<std::string>& args);

}  // namespace gl::app
