#pragma once
// Shared iteration helpers for the elementwise and reduction kernels.
//
// Work is cut into fixed-size blocks (kBlock elements) whatever the thread count, and blocks run
// in parallel only for large tensors. Because the partition never depends on the number of
// threads, every element (and every partial sum) is computed by exactly the same code path in
// the serial and in the parallel executor, so both give bit-identical numbers.
//
// Same-shape and scalar operands take flat loops over raw pointers; only true broadcasting goes
// through the strided row loop.
// GCC 12 reports false "uninitialized" warnings inside its own AVX-512 intrinsics once Eigen's
// packet math is inlined (GCC bug 105593); they drown real warnings in the files using this.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <omp.h>
#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "engine/tensor/moments.h"
#include "engine/tensor/tensor.h"

namespace gl::kern {

// Below this much work (elements of an elementwise, reduction or gather op) a kernel stays on
// the calling thread. (The GEMM-based kernels, conv and linalg, keep lower thresholds of their
// own: above them Eigen could thread itself and change the rounding.) Waking the pool costs tens of
// microseconds with passive waiting, and a pool that spins instead turns a core taken by another
// program into a 60x slowdown (seed-a's [10,5000] steps: 0.34 s serial, 21.6 s on 2 spinning
// threads beside a busy process). 2^20 is about a millisecond of elementwise work on one core.
inline constexpr int64_t kParallelWork = int64_t(1) << 20;
inline constexpr int64_t kParallelMin = kParallelWork;
// Block size of the fixed partition (a multiple of every SIMD width, so block edges stay aligned).
inline constexpr int64_t kBlock = 4096;

// Whether a parallel region here would get more than this thread: not inside a team (nested
// regions get one thread) nor with the team shrunk to one (exec/core_share.h).
inline bool teamAvailable() { return omp_get_max_threads() > 1 && !omp_in_parallel(); }

// Chunks of a parallel forRange: about eight per thread, so a thread that comes free takes more.
inline int64_t dynamicChunk(int64_t n) {
  return std::max<int64_t>(1, n / (int64_t(omp_get_max_threads()) * 8));
}

// Calls f(i) for each i in [0, n), split across the OpenMP team only when `parallel` and a team
// is there to split across. Threads take chunks as they come free, not a fixed share each, so a
// thread that loses its core for a while (to the window's own threads, say) holds back only its
// current chunk; which thread computes an index never changes the result. Small work must not
// enter OpenMP at all: `omp parallel for if (false)` still makes libgomp build and free a
// one-thread team per call, with a futex wake-up at its end (720000 futex calls and ~8 % of the
// time in malloc_consolidate for seed-b's jacobian at T=300).
template <class F>
void forRange(int64_t n, bool parallel, F&& f) {
  if (!parallel || !teamAvailable()) {
    for (int64_t i = 0; i < n; ++i) f(i);
    return;
  }
  const int64_t chunk = dynamicChunk(n);
#pragma omp parallel for schedule(dynamic, chunk)
  for (int64_t i = 0; i < n; ++i) f(i);
}

// As forRange, with scratch state made once per thread by make() and passed as f(i, scratch).
template <class Make, class F>
void forRangeWithScratch(int64_t n, bool parallel, Make&& make, F&& f) {
  if (!parallel || !teamAvailable()) {
    auto scratch = make();
    for (int64_t i = 0; i < n; ++i) f(i, scratch);
    return;
  }
  const int64_t chunk = dynamicChunk(n);
#pragma omp parallel
  {
    auto scratch = make();
#pragma omp for schedule(dynamic, chunk)
    for (int64_t i = 0; i < n; ++i) f(i, scratch);
  }
}

// Calls f(begin, end) for each block of [0, n).
template <class F>
void forBlocks(int64_t n, F&& f) {
  const int64_t nb = (n + kBlock - 1) / kBlock;
  forRange(nb, n >= kParallelMin, [&](int64_t b) { f(b * kBlock, std::min(n, (b + 1) * kBlock)); });
}

template <class T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

// With `finite` given, clears it when out[0, n) holds a NaN or an Inf. The kernels below call it
// on each block right after writing it, while it is in L1: check_numerics then needs no pass of
// its own over the output (which was 40 % of the ODE's vectorized steps).
template <class O>
void checkWritten(const O* out, int64_t n, std::atomic<bool>* finite) {
  if constexpr (std::is_floating_point_v<O>)
    if (finite && !allFinite(out, n)) finite->store(false, std::memory_order_relaxed);
}

// out = f(x) where f maps an Eigen array expression (Eigen vectorises exp, log, tanh, ...).
template <class T, class O, class F>
void unaryMap(const Tensor& x, Tensor& out, F&& f, std::atomic<bool>* finite = nullptr) {
  const T* px = x.data<T>();
  O* po = out.data<O>();
  forBlocks(out.numel(), [&](int64_t s, int64_t e) {
    ArrayMap<O>(po + s, e - s) = f(ConstArrayMap<T>(px + s, e - s));
    checkWritten(po + s, e - s, finite);
  });
}

// The iteration space of a broadcast: output dims with runs of dimensions merged wherever every
// operand is contiguous (or broadcast) across them, and each operand's stride per merged dim
// (0 where it is broadcast). [10,5000] + [10,1] becomes dims {10, 5000}, strides {5000,1},{1,0}.
template <size_t N>
struct BroadcastPlan {
  std::vector<int64_t> dims;
  std::array<std::vector<int64_t>, N> strides;
  int64_t total = 0;
};

template <size_t N>
BroadcastPlan<N> planBroadcast(const Shape& out, const std::array<const Shape*, N>& in) {
  const size_t r = out.size();
  std::array<std::vector<int64_t>, N> st;
  for (size_t k = 0; k < N; ++k) {
    const Shape& s = *in[k];
    const std::vector<int64_t> cs = stridesOf(s);
    st[k].assign(r, 0);
    const size_t lead = r - s.size();
    for (size_t d = 0; d < s.size(); ++d)
      if (s[d] != 1) st[k][d + lead] = cs[d];
  }
  BroadcastPlan<N> p;
  p.total = numel(out);
  for (size_t d = 0; d < r; ++d) {
    if (out[d] == 1) continue;  // size-1 dims do not move any pointer
    bool merge = !p.dims.empty();
    for (size_t k = 0; k < N && merge; ++k) merge = p.strides[k].back() == st[k][d] * out[d];
    if (merge) {
      p.dims.back() *= out[d];
      for (size_t k = 0; k < N; ++k) p.strides[k].back() = st[k][d];
    } else {
      p.dims.push_back(out[d]);
      for (size_t k = 0; k < N; ++k) p.strides[k].push_back(st[k][d]);
    }
  }
  if (p.dims.empty()) {
    p.dims.push_back(1);
    for (size_t k = 0; k < N; ++k) p.strides[k].push_back(0);
  }
  return p;
}

// Calls row(outOffset, operandOffsets, length) for each innermost row of the plan. The innermost
// stride of every operand is 0 or 1 (see planBroadcast), which the row functions specialise on.
template <size_t N, class Row>
void forBroadcastRows(const BroadcastPlan<N>& p, Row&& row) {
  if (p.total <= 0) return;
  const int nd = static_cast<int>(p.dims.size());
  const int64_t inner = p.dims.back();
  const int64_t rows = p.total / inner;
  forRange(rows, p.total >= kParallelMin, [&](int64_t rIdx) {
    std::array<int64_t, N> off{};
    int64_t rem = rIdx;
    for (int d = nd - 2; d >= 0; --d) {
      const int64_t i = rem % p.dims[d];
      rem /= p.dims[d];
      for (size_t k = 0; k < N; ++k) off[k] += i * p.strides[k][d];
    }
    row(rIdx * inner, off, inner);
  });
}

// out[s, e) = value(i), and with `finite` given (float outputs) the largest exponent of what
// was written, taken from the registers on the way out: a check that costs no second load.
template <class O, class V>
void writeBlock(O* out, int64_t s, int64_t e, std::atomic<bool>* finite, V value) {
  if constexpr (std::is_floating_point_v<O>) {
    if (finite) {
      decltype(exponentBits(O{})) top = 0;
      for (int64_t i = s; i < e; ++i) {
        const O v = value(i);
        out[i] = v;
        const auto b = exponentBits(v);
        top = b > top ? b : top;
      }
      if (top == kNonFiniteExponent<O>) finite->store(false, std::memory_order_relaxed);
      return;
    }
  }
  for (int64_t i = s; i < e; ++i) out[i] = value(i);
}

// out = f(a, b) elementwise with NumPy broadcasting; out already has the broadcast shape.
template <class A, class O, class F>
void binaryMap(const Tensor& a, const Tensor& b, Tensor& out, F f,
               std::atomic<bool>* finite = nullptr) {
  const A* pa = a.data<A>();
  const A* pb = b.data<A>();
  O* po = out.data<O>();
  const int64_t n = out.numel();
  if (n == 0) return;
  // Equal element counts imply the same row-major layout (shapes differ only by 1-dims).
  if (a.numel() == n && b.numel() == n) {
    forBlocks(n, [&](int64_t s, int64_t e) {
      writeBlock(po, s, e, finite, [&](int64_t i) { return O(f(pa[i], pb[i])); });
    });
  } else if (b.numel() == 1 && a.numel() == n) {
    const A y = pb[0];
    forBlocks(n, [&](int64_t s, int64_t e) {
      writeBlock(po, s, e, finite, [&](int64_t i) { return O(f(pa[i], y)); });
    });
  } else if (a.numel() == 1 && b.numel() == n) {
    const A x = pa[0];
    forBlocks(n, [&](int64_t s, int64_t e) {
      writeBlock(po, s, e, finite, [&](int64_t i) { return O(f(x, pb[i])); });
    });
  } else {
    const BroadcastPlan<2> plan = planBroadcast<2>(out.shape(), {&a.shape(), &b.shape()});
    const int64_t sa = plan.strides[0].back(), sb = plan.strides[1].back();
    forBroadcastRows(plan, [&](int64_t o, const std::array<int64_t, 2>& off, int64_t len) {
      const A* x = pa + off[0];
      const A* y = pb + off[1];
      O* z = po + o;
      if (sa == 1 && sb == 1) {
        for (int64_t j = 0; j < len; ++j) z[j] = f(x[j], y[j]);
      } else if (sa == 1) {
        const A c = *y;
        for (int64_t j = 0; j < len; ++j) z[j] = f(x[j], c);
      } else if (sb == 1) {
        const A c = *x;
        for (int64_t j = 0; j < len; ++j) z[j] = f(c, y[j]);
      } else {
        const O c = f(*x, *y);
        for (int64_t j = 0; j < len; ++j) z[j] = c;
      }
      checkWritten(z, len, finite);
    });
  }
}

// out = f(a, b, c) elementwise with broadcasting across all three (where).
template <class A, class B, class C, class O, class F>
void ternaryMap(const Tensor& a, const Tensor& b, const Tensor& c, Tensor& out, F f) {
  const A* pa = a.data<A>();
  const B* pb = b.data<B>();
  const C* pc = c.data<C>();
  O* po = out.data<O>();
  const int64_t n = out.numel();
  if (n == 0) return;
  auto flatOrScalar = [n](const Tensor& t) { return t.numel() == n || t.numel() == 1; };
  if (flatOrScalar(a) && flatOrScalar(b) && flatOrScalar(c)) {
    // Each operand is laid out like out or is a single value; the strides (1 or 0) become
    // template constants so the loop vectorises (where(mask, g, 0) is relu's backward pass).
    auto flat = [&](auto sa, auto sb, auto sc) {
      forBlocks(n, [&](int64_t s, int64_t e) {
        for (int64_t i = s; i < e; ++i) po[i] = f(pa[i * sa()], pb[i * sb()], pc[i * sc()]);
      });
    };
    using One = std::integral_constant<int64_t, 1>;
    using Zero = std::integral_constant<int64_t, 0>;
    const bool fa = a.numel() == n, fb = b.numel() == n, fc = c.numel() == n;
    auto withC = [&](auto sa, auto sb) { fc ? flat(sa, sb, One{}) : flat(sa, sb, Zero{}); };
    auto withB = [&](auto sa) { fb ? withC(sa, One{}) : withC(sa, Zero{}); };
    fa ? withB(One{}) : withB(Zero{});
    return;
  }
  const BroadcastPlan<3> plan = planBroadcast<3>(out.shape(), {&a.shape(), &b.shape(), &c.shape()});
  const int64_t sa = plan.strides[0].back(), sb = plan.strides[1].back(),
                sc = plan.strides[2].back();
  forBroadcastRows(plan, [&](int64_t o, const std::array<int64_t, 3>& off, int64_t len) {
    const A* x = pa + off[0];
    const B* y = pb + off[1];
    const C* w = pc + off[2];
    O* z = po + o;
    for (int64_t j = 0; j < len; ++j) z[j] = f(x[j * sa], y[j * sb], w[j * sc]);
  });
}

}  // namespace gl::kern

// Grad-check inputs ------------------------------------------------------------------------------
// Float64 points for Primitive::gradChecks, chosen away from kinks and ties so that central
// finite differences are meaningful.
#include "engine/tensor/rng.h"

namespace gl::gradcheck {

inline Tensor uniform(Rng& rng, const Shape& s, double lo, double hi) {
  return rng.uniform(s, lo, hi, DType::F64);
}

// |v| in [lo, hi] with a random sign: away from the kink of abs/relu at 0.
inline Tensor awayFromZero(Rng& rng, const Shape& s, double lo, double hi) {
  Tensor t = rng.uniform(s, lo, hi, DType::F64);
  for (int64_t i = 0; i < t.numel(); ++i)
    if (rng.uniform() < 0.5) t.set(i, -t.at(i));
  return t;
}

// Tensors whose values are pairwise distinct by at least 0.3 and at least 0.25 away from zero,
// so that maximum/minimum/max/min see no ties (and relu-like kinks) within a difference step.
inline std::vector<Tensor> distinct(Rng& rng, const std::vector<Shape>& shapes) {
  int64_t total = 0;
  for (const Shape& s : shapes) total += numel(s);
  std::vector<double> v(static_cast<size_t>(total));
  for (int64_t k = 0; k < total; ++k) v[k] = (0.25 + 0.3 * double(k / 2)) * (k % 2 ? -1.0 : 1.0);
  for (int64_t k = total - 1; k > 0; --k)  // Fisher-Yates with the seeded stream
    std::swap(v[k], v[static_cast<size_t>(rng.next() % uint64_t(k + 1))]);
  std::vector<Tensor> out;
  size_t at = 0;
  for (const Shape& s : shapes) {
    const size_t n = static_cast<size_t>(numel(s));
    out.push_back(Tensor::fromVector({v.begin() + at, v.begin() + at + n}, s, DType::F64));
    at += n;
  }
  return out;
}

}  // namespace gl::gradcheck
