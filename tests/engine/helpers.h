#pragma once
// Shared helpers for engine tests: run a graph on both executors and compare.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/exec/executor.h"

namespace gltest {

// A whole text file (a lesson, a script); empty when it cannot be read.
inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The text of the EngineError f throws ("" when it throws none).
template <class F>
std::string errorText(F&& f) {
  try {
    f();
  } catch (const gl::EngineError& e) {
    return e.what();
  }
  return "";
}

inline double maxAbsDiff(const gl::Tensor& a, const gl::Tensor& b) {
  if (a.shape() != b.shape()) return INFINITY;
  double m = 0;
  for (int64_t i = 0; i < a.numel(); ++i) m = std::max(m, std::abs(a.at(i) - b.at(i)));
  return m;
}

// Runs the fetches on the serial and the parallel executor; records a test failure (and goes
// on) if they disagree.
inline std::vector<gl::Tensor> runBoth(const gl::Graph& g, const std::vector<gl::Value>& fetches,
                                       double tol = 1e-5, gl::RunOptions base = {}) {
  base.executor = gl::ExecutorKind::Serial;
  std::vector<gl::Tensor> serial = gl::evaluate(g, fetches, base);
  base.executor = gl::ExecutorKind::Parallel;
  base.threads = 2;
  std::vector<gl::Tensor> parallel = gl::evaluate(g, fetches, base);
  for (size_t i = 0; i < serial.size(); ++i) {
    const double d = maxAbsDiff(serial[i], parallel[i]);
    if (!(d <= tol))
      QTest::qFail(
          qPrintable(QStringLiteral("serial and parallel executors disagree on fetch %1 by %2")
                         .arg(i)
                         .arg(d)),
          __FILE__, __LINE__);
  }
  return serial;
}

}  // namespace gltest
