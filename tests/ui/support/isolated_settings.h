#pragma once
// Every ui test process keeps its settings, data (autosave copies, recent files) and cache in
// a temporary folder of its own, set up when its QApplication is built: a test never reads or
// writes the user's GradLab configuration. Linked into each ui test by tests/ui/CMakeLists.txt.
#include <QString>

namespace gl::test {

// The temporary folder ("" if it could not be made: then settings go nowhere at all).
QString isolatedHome();

}  // namespace gl::test
