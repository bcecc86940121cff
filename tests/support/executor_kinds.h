#pragma once
// Every executor a test runs on, from gl::kExecutorKinds: tests that compare executors or
// check each one go through these, so a new ExecutorKind is run wherever they are. The
// threaded kinds get two threads unless the base options say otherwise (a team of two even
// on a one-core machine).
#include <QTest>
#include <vector>

#include "engine/exec/run.h"

namespace gltest {

// `base` on executor `kind`.
inline gl::RunOptions onExecutor(gl::ExecutorKind kind, gl::RunOptions base = {}) {
  base.executor = kind;
  if (gl::usesThreads(kind) && base.threads == 0) base.threads = 2;
  return base;
}

// `base` on every executor, in kExecutorKinds' order (the serial reference first).
inline std::vector<gl::RunOptions> everyExecutor(const gl::RunOptions& base = {}) {
  std::vector<gl::RunOptions> out;
  for (gl::ExecutorKind k : gl::kExecutorKinds) out.push_back(onExecutor(k, base));
  return out;
}

// A data-driven test's rows: column "executor", one row per kind named by its executorName.
inline void addExecutorRows() {
  QTest::addColumn<gl::ExecutorKind>("executor");
  for (gl::ExecutorKind k : gl::kExecutorKinds) QTest::newRow(gl::executorName(k)) << k;
}

}  // namespace gltest
