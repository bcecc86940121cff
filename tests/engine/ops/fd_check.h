// Finite-difference checks shared by the registry walk (test_registry.cpp) and the list-op round
// trips (test_list_ops.cpp): gradients built as graph nodes and run by the executor, against
// central differences of a scalar loss in float64. Header-only.
#pragma once

#include <QString>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/exec/executor.h"

namespace gltest_ops {

// For each source k (a placeholder that `opt` feeds with base[k]), compares the gradient sym[k]
// with central differences of `loss` at up to ~25 elements, within 1e-5 + 1e-4 |difference|.
// Failures name `what` and ids[k]. Like QVERIFY, a failure returns from this helper only.
inline void expectFiniteDifferences(const gl::Graph& g, gl::Value loss,
                                    const std::vector<gl::Value>& sources,
                                    const std::vector<gl::Tensor>& base,
                                    const std::vector<gl::Tensor>& sym, const gl::RunOptions& opt,
                                    const QString& what, const std::vector<int>& ids) {
  const double h = 1e-6;
  for (size_t k = 0; k < sources.size(); ++k) {
    QVERIFY2(
        sym[k].shape() == base[k].shape(),
        qPrintable(QString("%1 input %2: the gradient has the wrong shape").arg(what).arg(ids[k])));
    const int64_t n = base[k].numel();
    const int64_t stride = std::max<int64_t>(1, n / 25);  // at most ~25 probes per input
    for (int64_t e = 0; e < n; e += stride) {
      double f[2];
      for (int s = 0; s < 2; ++s) {
        gl::Tensor x = base[k].clone();
        x.set(e, x.at(e) + (s ? -h : h));
        gl::RunOptions o2 = opt;
        o2.feeds[sources[k].node] = x;
        o2.timeline = false;
        f[s] = gl::evaluate(g, {loss}, o2)[0].item();
      }
      const double num = (f[0] - f[1]) / (2 * h);
      const double got = sym[k].at(e);
      const double tol = 1e-5 + 1e-4 * std::abs(num);
      QVERIFY2(std::abs(num - got) <= tol,
               qPrintable(QString("%1 input %2 element %3: vjp %4, finite differences %5")
                              .arg(what)
                              .arg(ids[k])
                              .arg(e)
                              .arg(got)
                              .arg(num)));
    }
  }
}

}  // namespace gltest_ops
