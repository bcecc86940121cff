#pragma once
// A run's records are millions of small allocations (the ODE lesson at seed size: 20000 steps
// of loop records per variant); dropping the last reference to them on the GUI thread froze it
// for 230 ms. Holders give up their reference here instead, on a pool thread, so wherever the
// last one goes, the freeing happens off the GUI thread.
#include <QThreadPool>
#include <memory>
#include <utility>

namespace gl::ui {

template <class T>
void releaseOffThread(std::shared_ptr<T>& p) {
  if (!p) return;
  QThreadPool::globalInstance()->start([held = std::move(p)]() mutable { held.reset(); });
}

}  // namespace gl::ui
