// Helpers shared by the op-family tests in tests/engine/ops/: calling primitives straight
// through gl::Registry (no graph, no executor), building small tensors, comparing results and
// catching the errors the shape rules throw. Header-only; every function is `inline`.
#pragma once

#include <QString>
#include <QtTest>

#include <cmath>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "engine/ops/registry.h"
#include "engine/tensor/error.h"

namespace gltest_ops {

// The registered primitive called `name` (throws EngineError for unknown names).
inline const gl::Primitive& prim(const std::string& name) {
  return gl::Registry::instance().get(name);
}

// Forward of `op` on `in`: every output.
inline gl::Tensors runAll(const std::string& op, const gl::Tensors& in,
                          const gl::Attrs& attrs = {}) {
  return prim(op).run(in, attrs);
}

// Forward of `op` on `in`: the first output.
inline gl::Tensor run(const std::string& op, const gl::Tensors& in, const gl::Attrs& attrs = {}) {
  return runAll(op, in, attrs).at(0);
}

// The shape rule of `op`: the type of its first output for inputs of types `in`.
inline gl::TypeInfo typeOf(const std::string& op, const gl::Types& in,
                           const gl::Attrs& attrs = {}) {
  return prim(op).shape(in, attrs).at(0);
}

// A non-constant TypeInfo of dtype `dt` and shape `s`, for calling shape rules.
inline gl::TypeInfo ty(gl::DType dt, const gl::Shape& s) { return {dt, s, false}; }

// A tensor of shape `s` holding `v` (row-major), in dtype `dt`.
inline gl::Tensor vec(const std::vector<double>& v, const gl::Shape& s,
                      gl::DType dt = gl::DType::F64) {
  return gl::Tensor::fromVector(v, s, dt);
}

// Fails the current test unless `got` has the shape of `want` and every element is within
// tol * (1 + |want|) of it (a NaN anywhere fails). Messages are only formatted on failure, so
// this is cheap on large tensors. Like QVERIFY, it returns early from this helper only.
inline void expectClose(const gl::Tensor& got, const gl::Tensor& want, double tol,
                        const QString& what) {
  if (got.shape() != want.shape())
    QFAIL(qPrintable(what + ": shape " + QString::fromStdString(gl::shapeStr(got.shape())) +
                     ", expected " + QString::fromStdString(gl::shapeStr(want.shape()))));
  for (int64_t i = 0; i < got.numel(); ++i)
    if (!(std::abs(got.at(i) - want.at(i)) <= tol * (1 + std::abs(want.at(i)))))
      QFAIL(qPrintable(QString("%1: element %2 is %3, expected %4")
                           .arg(what)
                           .arg(i)
                           .arg(got.at(i))
                           .arg(want.at(i))));
}

// The message of the ShapeError thrown by f (empty if none; other exceptions propagate).
inline QString shapeErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const gl::ShapeError& e) {
    return e.what();
  }
  return {};
}

// The message of any std::exception thrown by f (empty if none).
template <class F>
QString errorOf(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace gltest_ops
