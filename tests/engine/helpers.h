#pragma once
// Shared helpers for engine tests: run a graph on both executors and compare.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/exec/executor.h"
#include "executor_kinds.h"

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

// Runs the fetches on every executor (gltest::everyExecutor); records a test failure (and
// goes on) where one disagrees with the serial reference, whose values it returns.
inline std::vector<gl::Tensor> runEveryExecutor(const gl::Graph& g,
                                                const std::vector<gl::Value>& fetches,
                                                double tol = 1e-5,
                                                const gl::RunOptions& base = {}) {
  std::vector<gl::Tensor> serial;
  for (const gl::RunOptions& opt : everyExecutor(base)) {
    std::vector<gl::Tensor> values = gl::evaluate(g, fetches, opt);
    if (opt.executor == gl::ExecutorKind::Serial) {
      serial = std::move(values);
      continue;
    }
    for (size_t i = 0; i < serial.size(); ++i) {
      const double d = maxAbsDiff(serial[i], values[i]);
      if (!(d <= tol))
        QTest::qFail(qPrintable(QStringLiteral("the serial and %1 executors disagree on fetch %2 "
                                               "by %3")
                                    .arg(QLatin1String(gl::executorName(opt.executor)))
                                    .arg(i)
                                    .arg(d)),
                     __FILE__, __LINE__);
    }
  }
  return serial;
}

}  // namespace gltest
