#pragma once
// The one OpenMP loop of the executor that runs user bodies: when an iteration throws, the
// others stop taking work and the first exception is rethrown on the calling thread.
#include <cstdint>
#include <functional>

namespace gl {

void parallelFor(int64_t count, int threads, const std::function<void(int64_t)>& body);

}  // namespace gl
