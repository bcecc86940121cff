// Hand-written lower bound for the ODE lesson's workload (a copy of the peers' ode_limit.cpp,
// run by `gradlab bench`): forward Euler steps plus the reverse pass (gradient of sum(final)
// w.r.t. x) as plain loops. Usage: gradlab_ode_limit [STEPS [BATCH DIM]], defaults 20000 10 5000.
// `step_major_s` is one pass over the array per step (what a graph executor does; the faster of
// one thread and the whole team), `fused_s`
// keeps each element's trajectory in registers. Built twice: plain, and with GRADLAB_FTZ, which
// flushes denormals to zero (MXCSR FTZ/DAZ in every OpenMP thread) as -ffast-math would.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#ifdef GRADLAB_FTZ
#include <pmmintrin.h>
#include <xmmintrin.h>
#endif

namespace {

void flushToZero() {
#ifdef GRADLAB_FTZ
  _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
  _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const int N = argc > 1 ? atoi(argv[1]) : 20000;
  const int B = argc > 3 ? atoi(argv[2]) : 10, D = argc > 3 ? atoi(argv[3]) : 5000;
  if (N < 0 || B < 1 || D < 1) {
    std::fprintf(stderr, "usage: gradlab_ode_limit [STEPS [BATCH DIM]]\n");
    return 2;
  }
  flushToZero();
#pragma omp parallel
  flushToZero();
  const int size = B * D;
  const float dt = 0.1f;
  std::vector<float> x(size), y(size), g(size);
  for (int i = 0; i < size; ++i) x[i] = 10.f + (i % 97) * 0.01f;
  // step-major (what a graph executor does: one pass over the array per step), timed on one
  // thread and on the whole team; the faster counts. Each step is ~4 us of work, so on the team
  // every step pays a fork/join: with passive waiting (gradlab runs its children with
  // OMP_WAIT_POLICY=PASSIVE) that is a futex wake-up per region, 40000 of them (2.10 s instead
  // of the peer's 0.28 s), and with active waiting on a loaded machine it is worse (47 s for
  // 2000 steps at load 17). One thread keeps the pass in L2 and needs no wake-ups.
  double stepMajorSingle = 0, stepMajorTeam = 0;
  for (const bool team : {false, true}) {
    const int threads = team ? omp_get_max_threads() : 1;
    auto start = std::chrono::steady_clock::now();
    y = x;
    for (int s = 0; s < N; ++s) {
#pragma omp parallel for simd schedule(static) num_threads(threads)
      for (int i = 0; i < size; ++i) y[i] = y[i] + dt * (-y[i] + 1.f);
    }
    for (int i = 0; i < size; ++i) g[i] = 1.f;
    for (int s = 0; s < N; ++s) {
#pragma omp parallel for simd schedule(static) num_threads(threads)
      for (int i = 0; i < size; ++i) g[i] = g[i] * (1.f - dt);
    }
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    (team ? stepMajorTeam : stepMajorSingle) = took;
  }
  auto t1 = std::chrono::steady_clock::now();
  // element-major (loop interchange / fusion across steps: each element's trajectory in
  // registers)
  std::vector<float> y2(size), g2(size);
#pragma omp parallel for schedule(static)
  for (int i0 = 0; i0 < size; i0 += 64) {
    float yy[64] = {}, gg[64] = {};
    int n = (size - i0) < 64 ? (size - i0) : 64;
    for (int j = 0; j < n; ++j) {
      yy[j] = x[i0 + j];
      gg[j] = 1.f;
    }
    for (int s = 0; s < N; ++s)
#pragma omp simd
      for (int j = 0; j < 64; ++j) {
        yy[j] = yy[j] + dt * (-yy[j] + 1.f);
        gg[j] *= (1.f - dt);
      }
    for (int j = 0; j < n; ++j) {
      y2[i0 + j] = yy[j];
      g2[i0 + j] = gg[j];
    }
  }
  auto t2 = std::chrono::steady_clock::now();
  const double a = std::min(stepMajorSingle, stepMajorTeam),
               b = std::chrono::duration<double>(t2 - t1).count();
  std::printf(
      "{\"steps\":%d,\"batch\":%d,\"dim\":%d,\"step_major_s\":%.4f,\"step_major_1_thread_s\":%.4f,"
      "\"step_major_team_s\":%.4f,\"fused_s\":%.4f,\"y0\":%g,\"g0\":%g,\"y0b\":%g,\"g0b\":%g}\n",
      N, B, D, a, stepMajorSingle, stepMajorTeam, b, y[0], g[0], y2[0], g2[0]);
}
