// Convolution primitives: conv2d (NHWC input, HWIO filter), its two linear adjoints
// conv2d_backprop_input and conv2d_backprop_filter, and global average pooling with its adjoint.
//
// The three convolution kernels are im2col + Eigen GEMM over tiles of output positions: a tile of
// rows (n, oh, ow) is unrolled into a [rows, KH*KW*C] patch matrix small enough to stay in cache
// and multiplied with the filter seen as a row-major [KH*KW*C, O] matrix (HWIO flattened). The
// output NHWC tensor is the [N*OH*OW, O] product itself, so nothing is transposed. Tiles are
// fixed by the shapes, never by the thread count, so the serial and the parallel executor compute
// every number the same way.

#include <algorithm>
#include <array>
#include <cctype>
#include <span>
#include <string>

#include "engine/ops/api.h"
#include "engine/ops/eigen.h"
#include "engine/ops/kernels.h"
#include "engine/ops/registry.h"
#include "engine/tensor/rng.h"

namespace gl {

namespace {

using Values = std::vector<Value>;

template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using MatMap = Eigen::Map<RowMat<T>>;
template <class T>
using ConstMatMap = Eigen::Map<const RowMat<T>>;

// Every GEMM here runs single-threaded inside our own OpenMP loop over tiles fixed by the
// shapes. Eigen's own threading would change its blocking (the depth kc of each partial sum)
// with the thread count, and with it the rounding, so the serial and the parallel executor would
// disagree. Below kParallelWork multiply-adds a kernel stays on the calling thread; that is also
// below Eigen's threshold for threading (50000 per thread), so Eigen stays serial there too.
constexpr int64_t kParallelWork = 65536;
// Patch-matrix elements per tile: 2^16 floats (256 KiB) sit in L2 next to the GEMM's packing.
constexpr int64_t kTileElems = int64_t(1) << 16;
// Partial sums of the filter gradient and the patch gradients of backprop_input are bounded by
// this many elements (unless one group or one image alone is larger).
constexpr int64_t kChunkElems = int64_t(1) << 22;

// Attributes and geometry ------------------------------------------------------------------------

std::string num(int64_t v) { return std::to_string(v); }

// "[7,-1]": shows -1 literally, for shape attributes.
std::string dimsStr(const std::vector<int64_t>& v) {
  std::string r = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) r += ",";
    r += num(v[i]);  // not `"," + num(..)`: GCC 12 misreports that as overlapping memcpy
  }
  return r + "]";
}

// {sh, sw}; also one value for both, or TensorFlow's NHWC form {1, sh, sw, 1}.
std::array<int64_t, 2> convStrides(const Attrs& a, const std::string& op) {
  std::vector<int64_t> s = a.ints("strides", {1, 1});
  if (s.size() == 1) s = {s[0], s[0]};
  if (s.size() == 4 && s[0] == 1 && s[3] == 1) s = {s[1], s[2]};
  if (s.size() != 2 || s[0] < 1 || s[1] < 1)
    throw ShapeError(op + ": strides must be {sh, sw} with both >= 1, got " + dimsStr(s));
  return {s[0], s[1]};
}

// "SAME" or "VALID" (any case, as Keras writes them).
bool samePadding(const Attrs& a, const std::string& op) {
  std::string p = a.s("padding", "VALID");
  for (char& ch : p) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  if (p != "SAME" && p != "VALID")
    throw ShapeError(op + ": padding must be \"SAME\" or \"VALID\", got \"" + a.s("padding") +
                     "\"");
  return p == "SAME";
}

// Sizes of one convolution; -1 where a shape rule does not know a dim yet.
struct ConvGeom {
  int64_t N = 0, H = 0, W = 0, C = 0;  // input, NHWC
  int64_t KH = 0, KW = 0, O = 0;       // filter, HWIO (I = C)
  int64_t sh = 1, sw = 1;
  int64_t OH = 0, OW = 0;           // output spatial dims
  int64_t padTop = 0, padLeft = 0;  // implicit zeros before row 0 / column 0 (SAME only)
  int64_t rows() const { return N * OH * OW; }
  int64_t patch() const { return KH * KW * C; }
  Shape inShape() const { return {N, H, W, C}; }
  Shape filterShape() const { return {KH, KW, C, O}; }
  Shape outShape() const { return {N, OH, OW, O}; }
  // 1x1 filter, stride 1, no padding: the patch matrix is the input itself.
  bool pointwise() const { return KH == 1 && KW == 1 && sh == 1 && sw == 1 && OH == H && OW == W; }
};

// TensorFlow's arithmetic along one spatial dim. VALID: out = (in - k) / s + 1. SAME:
// out = ceil(in / s), padded by max((out - 1) * s + k - in, 0) zeros of which the smaller half
// goes before. Returns {out, padBefore}, -1 where unknown.
std::array<int64_t, 2> outDim(int64_t in, int64_t k, int64_t s, bool same) {
  if (same) {
    if (in < 0) return {-1, -1};
    const int64_t out = (in + s - 1) / s;
    if (k < 0) return {out, -1};
    return {out, std::max<int64_t>((out - 1) * s + k - in, 0) / 2};
  }
  if (in < 0 || k < 0) return {-1, 0};
  return {(in - k) / s + 1, 0};
}

void requireRank4(const Shape& s, const std::string& op, const char* what, const char* layout) {
  if (s.size() != 4)
    throw ShapeError(op + ": the " + what + " must have rank 4 (" + layout + "), got " +
                     shapeStr(s));
}

// Multiply-adds of a convolution whose side of `outputValues` values (N*OH*OW*O) each meets a
// KH*KW*C patch of the HWIO filter; unknown dims count 1.
double dim(int64_t d) { return d > 0 ? double(d) : 1.0; }
double convWork(double outputValues, const Shape& filter) {
  return outputValues * knownElements(filter) / dim(filter[3]);
}

// Geometry of conv2d(x, filter); checks every known dim. Unknown dims give -1 outputs.
ConvGeom convGeom(const Shape& x, const Shape& f, const Attrs& a, const std::string& op) {
  requireRank4(x, op, "input", "NHWC");
  requireRank4(f, op, "filter", "HWIO");
  if (x[3] >= 0 && f[2] >= 0 && x[3] != f[2])
    throw ShapeError(op + ": input " + shapeStr(x) + " has " + num(x[3]) +
                     " channels but the filter " + shapeStr(f) + " expects " + num(f[2]));
  ConvGeom g;
  g.N = x[0], g.H = x[1], g.W = x[2], g.C = x[3] >= 0 ? x[3] : f[2];
  g.KH = f[0], g.KW = f[1], g.O = f[3];
  const auto st = convStrides(a, op);
  g.sh = st[0], g.sw = st[1];
  const bool same = samePadding(a, op);
  if (!same && ((g.H >= 0 && g.KH >= 0 && g.H < g.KH) || (g.W >= 0 && g.KW >= 0 && g.W < g.KW)))
    throw ShapeError(op + ": the filter " + shapeStr(f) + " does not fit in the input " +
                     shapeStr(x) + " with VALID padding");
  const auto h = outDim(g.H, g.KH, g.sh, same), w = outDim(g.W, g.KW, g.sw, same);
  g.OH = h[0], g.padTop = h[1], g.OW = w[0], g.padLeft = w[1];
  return g;
}

// The shape an output gradient of this convolution must have, checked against g's.
void checkOutGrad(const ConvGeom& geo, const Shape& g, const std::string& op) {
  if (!compatible(geo.outShape(), g))
    throw ShapeError(op + ": the output gradient " + shapeStr(g) +
                     " does not match the conv2d of " + shapeStr(geo.inShape()) + " by " +
                     shapeStr(geo.filterShape()) + ", which gives " + shapeStr(geo.outShape()));
}

void requireFloat(const TypeInfo& t, const std::string& op) {
  if (t.list) throw ShapeError(op + ": expects a tensor, got a list of " + t.str());
  if (!isFloat(t.dtype))
    throw ShapeError(op + ": expects float32 or float64, got " + dtypeName(t.dtype));
}

void requireFloatSame(const TypeInfo& a, const TypeInfo& b, const std::string& op) {
  requireFloat(a, op);
  requireFloat(b, op);
  if (a.dtype != b.dtype)
    throw ShapeError(op + ": needs operands of one dtype, got " + dtypeName(a.dtype) + " and " +
                     dtypeName(b.dtype));
}

// Global average pooling of an NHWC shape: [N,C], or [N,1,1,C] with keepdims.
Shape pooledShape(const Shape& x, bool keepdims) {
  requireRank4(x, "global_avg_pool", "input", "NHWC");
  return keepdims ? Shape{x[0], 1, 1, x[3]} : Shape{x[0], x[3]};
}

// The [N,C] of a pooled gradient g ([N,C] or [N,1,1,C]).
Shape pooledDims(const Shape& g, const std::string& op) {
  if (g.size() != 2 && !(g.size() == 4 && compatible({g[1], g[2]}, {1, 1})))
    throw ShapeError(op + ": g must be [N,C] or [N,1,1,C], got " + shapeStr(g));
  return {g.front(), g.back()};
}

// A shape attribute ("input_shape", "filter_shape") of rank 4.
Shape shapeAttr(const Attrs& a, const char* key, const std::string& op) {
  const Shape s = a.ints(key);
  if (s.size() != 4)
    throw ShapeError(op + ": attr " + key + " must have 4 dims, got " + dimsStr(s));
  return s;
}

// Fills the unknown dims of `s` from `like` (of equal rank) where that knows them, and checks
// that known dims agree.
Shape mergeShapes(Shape s, const Shape& like, const std::string& op, const char* what) {
  if (!compatible(s, like))
    throw ShapeError(op + ": the " + what + " " + shapeStr(like) + " does not match " + dimsStr(s));
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] < 0) s[i] = like[i];
  return s;
}

// The static or run-time shape of the backprop ops' result: the shape attr, completed from the
// optional third operand (a value of that shape) and from the dims that the two operands share
// with it, listed in `sources` as {result dim, operand, operand dim}.
struct DimSource {
  size_t dim;
  size_t operand;
  size_t operandDim;
};
Shape resultShape(Shape s, const std::vector<const Shape*>& operands,
                  std::span<const DimSource> sources, const std::string& op, const char* what) {
  if (operands.size() > 2) s = mergeShapes(s, *operands[2], op, what);
  for (const DimSource& d : sources) {
    const int64_t v = (*operands[d.operand])[d.operandDim];
    if (s[d.dim] < 0) s[d.dim] = v;
  }
  return s;
}

// A stride-1 conv determines its input's spatial size from the output's; kernels use this when
// the input shape was unknown at build time and no operand of that shape was given.
void inferSpatial(Shape& x, const Shape& f, const Shape& gy, const Attrs& a,
                  const std::string& op) {
  const auto st = convStrides(a, op);
  const bool same = samePadding(a, op);
  for (int d = 1; d <= 2; ++d) {
    if (x[d] >= 0) continue;
    if (st[d - 1] != 1)
      throw ShapeError(op + ": the input's spatial size " + dimsStr(x) +
                       " is unknown and cannot be recovered with stride " + num(st[d - 1]));
    x[d] = same ? gy[d] : gy[d] + f[d - 1] - 1;
  }
}

// Tiling -----------------------------------------------------------------------------------------

// Rows per tile for patches of P elements: about kTileElems elements, but at least 64 rows so
// that each GEMM keeps a useful size.
int64_t tileRows(int64_t P) { return std::max<int64_t>(64, kTileElems / std::max<int64_t>(P, 1)); }

template <class T>
void copyElems(const T* src, int64_t n, T* dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = src[i];  // runs of a few elements: no memcpy call
}

// Writes the patches of output rows [r0, r1) (row = (n, oh, ow)) into col, one row of
// KH*KW*C values each, in the filter's (kh, kw, c) order; positions in the padding read 0.
template <class T>
void im2colRows(const T* x, const ConvGeom& g, int64_t r0, int64_t r1, T* col) {
  const int64_t P = g.patch(), KWC = g.KW * g.C, spatial = g.OH * g.OW;
  int64_t n = r0 / spatial, oh = (r0 % spatial) / g.OW, ow = r0 % g.OW;
  for (int64_t r = r0; r < r1; ++r) {
    T* dst = col + (r - r0) * P;
    const T* xn = x + n * g.H * g.W * g.C;
    const int64_t ih0 = oh * g.sh - g.padTop, iw0 = ow * g.sw - g.padLeft;
    const bool colsInside = iw0 >= 0 && iw0 + g.KW <= g.W;
    for (int64_t kh = 0; kh < g.KH; ++kh, dst += KWC) {
      const int64_t ih = ih0 + kh;
      if (ih < 0 || ih >= g.H) {
        std::fill_n(dst, KWC, T(0));
      } else if (colsInside) {  // the KW pixels of this filter row are adjacent in x
        copyElems(xn + (ih * g.W + iw0) * g.C, KWC, dst);
      } else {
        for (int64_t kw = 0; kw < g.KW; ++kw) {
          const int64_t iw = iw0 + kw;
          if (iw < 0 || iw >= g.W)
            std::fill_n(dst + kw * g.C, g.C, T(0));
          else
            copyElems(xn + (ih * g.W + iw) * g.C, g.C, dst + kw * g.C);
        }
      }
    }
    if (++ow == g.OW) {
      ow = 0;
      if (++oh == g.OH) oh = 0, ++n;
    }
  }
}

// The patch matrix of rows [r0, r1): unrolled into col, or x itself for a pointwise conv.
template <class T>
const T* patches(const T* x, const ConvGeom& g, int64_t r0, int64_t r1, std::vector<T>& col) {
  if (g.pointwise()) return x + r0 * g.C;
  col.resize(size_t(tileRows(g.patch()) * g.patch()));
  im2colRows(x, g, r0, r1, col.data());
  return col.data();
}

// Kernels ----------------------------------------------------------------------------------------

// y[N*OH*OW, O] = patches(x)[N*OH*OW, P] * filter[P, O] (+ bias[O] on every row), one GEMM per
// tile of rows. With a bias the tile starts as bias rows and the GEMM adds to it: Eigen's
// `y = A * F` zeroes the tile first anyway, so the bias costs no pass over y of its own.
template <class T>
void convForward(const T* x, const T* f, const T* bias, T* y, const ConvGeom& g) {
  const int64_t P = g.patch(), rows = g.rows(), O = g.O;
  if (rows * O == 0) return;
  const ConstMatMap<T> F(f, P, O);
  const int64_t tile = tileRows(P), ntiles = (rows + tile - 1) / tile;
  kern::forRangeWithScratch(
      ntiles, rows * P * O >= kParallelWork, [] { return std::vector<T>(); },
      [&](int64_t t, std::vector<T>& col) {
        const int64_t r0 = t * tile, r1 = std::min(rows, r0 + tile);
        const T* A = patches(x, g, r0, r1, col);
        MatMap<T> Y(y + r0 * O, r1 - r0, O);
        if (!bias) {
          Y.noalias() = ConstMatMap<T>(A, r1 - r0, P) * F;
          return;
        }
        Y.rowwise() = Eigen::Map<const Eigen::Matrix<T, 1, Eigen::Dynamic>>(bias, O);
        Y.noalias() += ConstMatMap<T>(A, r1 - r0, P) * F;
      });
}

// df[P, O] = patches(x)^T * gy. The tiles are cut into groups by the tile count (never by the
// thread count); each group sums its tiles in order into its own partial, and the partials are
// added in order. With `pooled` (the gradient [N, O] of a global average pool of the conv's
// output) gy is that pool's gradient, g[n, o] / (OH*OW) on every pixel, made tile by tile as
// avgPoolGrad makes it: the same sums, without the [N, OH, OW, O] tensor and two passes over it.
template <class T>
void convFilterGrad(const T* x, const T* gy, const T* pooled, T* df, const ConvGeom& g) {
  const int64_t P = g.patch(), rows = g.rows(), O = g.O, spatial = g.OH * g.OW;
  MatMap<T> D(df, P, O);
  D.setZero();
  if (rows * P * O == 0) return;
  const int64_t tile = tileRows(P), ntiles = (rows + tile - 1) / tile;
  const int64_t groups = std::clamp<int64_t>(std::min(ntiles / 2, kChunkElems / (P * O)), 1, 8);
  const T inv = T(1.0 / double(spatial));
  std::vector<T> partial(size_t((groups - 1) * P * O), T(0));
  struct Scratch {
    std::vector<T> col, gy;
  };
  kern::forRangeWithScratch(
      groups, rows * P * O >= kParallelWork, [] { return Scratch(); },
      [&](int64_t k, Scratch& s) {
        MatMap<T> acc(k == 0 ? df : partial.data() + (k - 1) * P * O, P, O);
        for (int64_t t = k * ntiles / groups; t < (k + 1) * ntiles / groups; ++t) {
          const int64_t r0 = t * tile, r1 = std::min(rows, r0 + tile);
          const T* A = patches(x, g, r0, r1, s.col);
          const T* G = gy ? gy + r0 * O : nullptr;
          if (pooled) {
            s.gy.resize(size_t(tile * O));
            for (int64_t r = r0; r < r1; ++r)
              for (int64_t o = 0; o < O; ++o)
                s.gy[size_t((r - r0) * O + o)] = pooled[(r / spatial) * O + o] * inv;
            G = s.gy.data();
          }
          acc.noalias() +=
              ConstMatMap<T>(A, r1 - r0, P).transpose() * ConstMatMap<T>(G, r1 - r0, O);
        }
      });
  for (int64_t k = 1; k < groups; ++k) D += ConstMatMap<T>(partial.data() + (k - 1) * P * O, P, O);
}

// dx = col2im(gy * filter^T). Per chunk of whole images the patch gradients [rows, P] come from
// one GEMM per tile, then every input row (n, ih) gathers the entries of the patches that read
// it, so threads never write to the same row and each sum runs in a fixed order.
template <class T>
void convInputGrad(const T* gy, const T* f, T* dx, const ConvGeom& g) {
  const int64_t P = g.patch(), O = g.O, spatial = g.OH * g.OW, rowLen = g.W * g.C;
  if (g.N * g.H * rowLen == 0) return;
  if (spatial * P == 0) {
    std::fill_n(dx, g.N * g.H * rowLen, T(0));
    return;
  }
  const ConstMatMap<T> F(f, P, O);
  const int64_t tile = tileRows(P);
  // Patch gradients of rows [r0, r1) into out (rows of P).
  auto patchGrads = [&](int64_t r0, int64_t r1, T* out) {
    const int64_t ntiles = (r1 - r0 + tile - 1) / tile;
    kern::forRange(ntiles, (r1 - r0) * P * O >= kParallelWork, [&](int64_t t) {
      const int64_t a = r0 + t * tile, b = std::min(r1, a + tile);
      MatMap<T>(out + (a - r0) * P, b - a, P).noalias() =
          ConstMatMap<T>(gy + a * O, b - a, O) * F.transpose();
    });
  };
  if (g.pointwise()) {  // each patch is one input pixel
    patchGrads(0, g.rows(), dx);
    return;
  }
  const int64_t perChunk = std::max<int64_t>(1, kChunkElems / (spatial * P));
  std::vector<T> dcol(size_t(std::min(perChunk, g.N) * spatial * P));
  for (int64_t n0 = 0; n0 < g.N; n0 += perChunk) {
    const int64_t n1 = std::min(g.N, n0 + perChunk);
    patchGrads(n0 * spatial, n1 * spatial, dcol.data());
    const int64_t inRows = (n1 - n0) * g.H;
    kern::forRange(inRows, inRows * rowLen * g.KH * g.KW >= kParallelWork, [&](int64_t i) {
      const int64_t n = i / g.H, ih = i % g.H;
      T* row = dx + ((n0 + n) * g.H + ih) * rowLen;
      std::fill_n(row, rowLen, T(0));
      for (int64_t kh = 0; kh < g.KH; ++kh) {
        const int64_t t = ih + g.padTop - kh;  // = oh * sh for the output rows reading ih
        if (t < 0 || t % g.sh != 0 || t / g.sh >= g.OH) continue;
        const T* src = dcol.data() + (n * spatial + (t / g.sh) * g.OW) * P + kh * g.KW * g.C;
        for (int64_t ow = 0; ow < g.OW; ++ow, src += P) {
          const int64_t iw0 = ow * g.sw - g.padLeft;
          for (int64_t kw = 0; kw < g.KW; ++kw) {
            const int64_t iw = iw0 + kw;
            if (iw < 0 || iw >= g.W) continue;
            T* d = row + iw * g.C;
            const T* s = src + kw * g.C;
            for (int64_t c = 0; c < g.C; ++c) d[c] += s[c];
          }
        }
      }
    });
  }
}

// y[n, c] = mean over (h, w) of x[n, h, w, c], summed in double over fixed blocks of positions.
template <class T>
void avgPoolForward(const T* x, T* y, int64_t N, int64_t HW, int64_t C) {
  constexpr int64_t kBlock = 4096;  // positions per partial sum
  const int64_t nb = (HW + kBlock - 1) / kBlock;
  std::vector<double> part(size_t(N * nb * C), 0.0);
  kern::forRange(N * nb, N * HW * C >= kParallelWork, [&](int64_t i) {
    const int64_t n = i / nb, p0 = (i % nb) * kBlock, p1 = std::min(HW, p0 + kBlock);
    double* acc = part.data() + i * C;
    for (int64_t p = p0; p < p1; ++p) {
      const T* px = x + (n * HW + p) * C;
      for (int64_t c = 0; c < C; ++c) acc[c] += px[c];
    }
  });
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      double s = 0;
      for (int64_t b = 0; b < nb; ++b) s += part[size_t((n * nb + b) * C + c)];
      y[n * C + c] = T(HW > 0 ? s / double(HW) : s);
    }
}

// dx[n, h, w, c] = g[n, c] / (H * W).
template <class T>
void avgPoolGrad(const T* g, T* dx, int64_t N, int64_t HW, int64_t C) {
  const T inv = HW > 0 ? T(1.0 / double(HW)) : T(0);
  kern::forRange(N * HW, N * HW * C >= kParallelWork, [&](int64_t i) {
    const T* pg = g + (i / HW) * C;
    T* d = dx + i * C;
    for (int64_t c = 0; c < C; ++c) d[c] = pg[c] * inv;
  });
}

// Graph builders used by the VJP rules -----------------------------------------------------------

Attrs convAttrs(const Attrs& a) {
  return Attrs{{"strides", a.ints("strides", {1, 1})}, {"padding", a.s("padding", "VALID")}};
}

Value conv2dNode(Emitter& b, Value x, Value f, const Attrs& a) {
  return b.op1("conv2d", {x, f}, convAttrs(a));
}

// conv2d_backprop_input(g, f) for an input of static shape xs. The input value itself joins as
// a shape operand only if its spatial dims are unknown now (the kernel takes N from g and C
// from f, but cannot always recover H and W).
Value backpropInputNode(Emitter& b, Value g, Value f, const Shape& xs, Value x, const Attrs& a) {
  Values in{g, f};
  if (xs[1] < 0 || xs[2] < 0) in.push_back(x);
  return b.op1("conv2d_backprop_input", in, convAttrs(a).set("input_shape", xs));
}

// conv2d_backprop_filter(x, g) for a filter of static shape fs; the filter joins as a shape
// operand if its spatial dims are unknown (C and O come from x and g).
Value backpropFilterNode(Emitter& b, Value x, Value g, const Shape& fs, Value f, const Attrs& a) {
  Values in{x, g};
  if (fs[0] < 0 || fs[1] < 0) in.push_back(f);
  return b.op1("conv2d_backprop_filter", in, convAttrs(a).set("filter_shape", fs));
}

// Shapes of the backprop results: attr completed from the optional third operand and from the
// dims shared with the operands.
// (constexpr: shape rules may run during static initialisation of other files.)
constexpr DimSource kInputDimSources[] = {{0, 0, 0}, {3, 1, 2}};   // N of g, C of f
constexpr DimSource kFilterDimSources[] = {{2, 0, 3}, {3, 1, 3}};  // C of x, O of g
constexpr DimSource kPoolDimSources[] = {{0, 0, 0}, {3, 0, 1}};    // N and C of g [N,C]

// Grad-check inputs ------------------------------------------------------------------------------

Tensor randn(Rng& rng, const Shape& s) { return rng.normal(s, 0.0, 1.0, DType::F64); }

Attrs convCaseAttrs(int64_t stride, const char* padding) {
  return Attrs{{"strides", std::vector<int64_t>{stride, stride}},
               {"padding", std::string(padding)}};
}

// x [2,5,6,3] and filter [3,3,3,4] for each (stride, padding); `make` builds the case's inputs
// and extra attrs from them and the conv geometry.
template <class F>
std::vector<GradCheckCase> convCases(uint64_t seed, F make) {
  Rng rng(seed);
  std::vector<GradCheckCase> cs;
  for (auto [stride, padding] : {std::pair{int64_t(1), "VALID"}, std::pair{int64_t(2), "SAME"}}) {
    const Attrs a = convCaseAttrs(stride, padding);
    const Shape xs{2, 5, 6, 3}, fs{3, 3, 3, 4};
    cs.push_back(make(rng, xs, fs, convGeom(xs, fs, a, "conv2d").outShape(), a));
  }
  return cs;
}

}  // namespace

void registerConvOps(Registry& r) {
  r.add({
      .name = "conv2d",
      .math = "y[n,i,j,o] = sum_{kh,kw,c} x[n, i*sh+kh-pt, j*sw+kw-pl, c] f[kh,kw,c,o] (+ b[o]) "
              "(zeros outside x)\n"
              "dx = conv2d_backprop_input(g, f), df = conv2d_backprop_filter(x, g), "
              "db = sum_{n,i,j} g",
      .arity = -1,  // x, filter and an optional bias (Keras' Conv2D: TF's Conv2D + BiasAdd)
      .shape =
          [](const Types& in, const Attrs& a) {
            if (in.size() != 2 && in.size() != 3)
              throw ShapeError("conv2d: expects an input, a filter and an optional bias");
            requireFloatSame(in.at(0), in.at(1), "conv2d");
            const Shape out = convGeom(in[0].shape, in[1].shape, a, "conv2d").outShape();
            if (in.size() == 3) {
              requireFloatSame(in[0], in[2], "conv2d");
              if (in[2].shape.size() != 1 ||
                  (in[2].shape[0] >= 0 && out[3] >= 0 && in[2].shape[0] != out[3]))
                throw ShapeError("conv2d: the bias must be a vector of the " +
                                 std::to_string(out[3]) + " output channels, got " +
                                 shapeStr(in[2].shape));
            }
            return Types{{in[0].dtype, out}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor &x = in.at(0), &f = in.at(1);
        requireFloatSame({x.dtype(), x.shape()}, {f.dtype(), f.shape()}, "conv2d");
        const ConvGeom g = convGeom(x.shape(), f.shape(), a, "conv2d");
        const Tensor* bias = in.size() == 3 ? &in[2] : nullptr;
        if (bias && (bias->dtype() != x.dtype() || bias->shape() != Shape{g.O}))
          throw ShapeError("conv2d: the bias must be a vector of the " + std::to_string(g.O) +
                           " output channels, got " + shapeStr(bias->shape()));
        Tensor y = Tensor::empty(x.dtype(), g.outShape());
        dispatchFloat(x.dtype(), [&](auto z) {
          using T = decltype(z);
          convForward(x.data<T>(), f.data<T>(), bias ? bias->data<T>() : nullptr, y.data<T>(), g);
        });
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> Values {
        // Copied first: building nodes may move what c.node and c.inType refer to.
        const Shape xs = c.inType(0).shape, fs = c.inType(1).shape;
        const Attrs a = c.attrs();
        const Value g = c.goutOrZeros(0);
        // g is a global average pool's gradient (conv -> pool, as in a classifier head): the
        // filter and bias gradients read the pooled gradient itself, not its broadcast.
        Value pooled;
        if (const Node* p = c.b.producer(g);
            p && runs(*p, prims::globalAvgPoolGrad()) && p->inputs.size() == 1 && fullyKnown(fs))
          pooled = p->inputs[0];
        Values grads(c.in.size());
        if (c.needs[0]) grads[0] = backpropInputNode(c.b, g, c.in[1], xs, c.in[0], a);
        if (c.needs[1])
          grads[1] = pooled.valid() ? c.b.op1("conv2d_backprop_filter_pooled", {c.in[0], pooled},
                                              convAttrs(a).set("filter_shape", fs))
                                    : backpropFilterNode(c.b, c.in[0], g, fs, c.in[1], a);
        if (c.in.size() == 3 && c.needs[2])  // sum_{n,i,j} g[n,i,j,o], g = pooled / (OH*OW)
          grads[2] = pooled.valid() ? ops::reduceSum(c.b, pooled,
                                                     c.b.type(pooled).shape.size() == 4
                                                         ? std::vector<int64_t>{0, 1, 2}
                                                         : std::vector<int64_t>{0})
                                    : ops::reduceSum(c.b, g, {0, 1, 2});
        return grads;
      },
      .work = [](const Types& in, const Types& out,
                 const Attrs&) { return convWork(knownElements(out[0].shape), in[1].shape); },
      .gradChecks =
          [] {
            auto cs = convCases(
                501, [](Rng& rng, const Shape& xs, const Shape& fs, const Shape&, const Attrs& a) {
                  return GradCheckCase{{randn(rng, xs), randn(rng, fs)}, a};
                });
            for (GradCheckCase& c : convCases(502, [](Rng&rng, const Shape&xs, const Shape&fs,
                                                      const Shape&, const Attrs&a) {
                   return GradCheckCase{{randn(rng, xs), randn(rng, fs), randn(rng, {fs[3]})}, a};
                 }))
              cs.push_back(std::move(c));
            return cs;
          }(),
  });

  r.add({
      .name = "conv2d_backprop_input",
      .math = "dx = conv2d_backprop_input(g, f) = the adjoint of x -> conv2d(x, f), applied to g\n"
              "d(g) = conv2d(h, f), d(f) = conv2d_backprop_filter(h, g) for the adjoint h of dx",
      .arity = -1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const std::string op = "conv2d_backprop_input";
            if (in.size() != 2 && in.size() != 3)
              throw ShapeError(op +
                               ": expects (g, filter) and optionally a value of the input's "
                               "shape, got " +
                               num(int64_t(in.size())) + " operands");
            requireFloatSame(in[0], in[1], op);
            requireRank4(in[0].shape, op, "output gradient", "NHWC");
            requireRank4(in[1].shape, op, "filter", "HWIO");
            std::vector<const Shape*> ops{&in[0].shape, &in[1].shape};
            if (in.size() == 3) ops.push_back(&in[2].shape);
            const Shape xs =
                resultShape(shapeAttr(a, "input_shape", op), ops, kInputDimSources, op, "input");
            checkOutGrad(convGeom(xs, in[1].shape, a, op), in[0].shape, op);
            return Types{{in[0].dtype, xs}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const std::string op = "conv2d_backprop_input";
        const Tensor &gy = in.at(0), &f = in.at(1);
        std::vector<const Shape*> ops{&gy.shape(), &f.shape()};
        if (in.size() == 3) ops.push_back(&in[2].shape());
        Shape xs = resultShape(shapeAttr(a, "input_shape", op), ops, kInputDimSources, op, "input");
        inferSpatial(xs, f.shape(), gy.shape(), a, op);
        const ConvGeom g = convGeom(xs, f.shape(), a, op);
        checkOutGrad(g, gy.shape(), op);
        Tensor dx = Tensor::empty(gy.dtype(), xs);
        dispatchFloat(gy.dtype(), [&](auto z) {
          using T = decltype(z);
          convInputGrad(gy.data<T>(), f.data<T>(), dx.data<T>(), g);
        });
        return Tensors{dx};
      }),
      .vjp = [](VjpContext& c) -> Values {
        const Shape fs = c.inType(1).shape;
        const Attrs a = c.attrs();
        const Value h = c.goutOrZeros(0);
        Values grads(c.in.size());
        if (c.needs[0]) grads[0] = conv2dNode(c.b, h, c.in[1], a);
        if (c.needs[1]) grads[1] = backpropFilterNode(c.b, h, c.in[0], fs, c.in[1], a);
        return grads;
      },
      .work = [](const Types& in, const Types&,
                 const Attrs&) { return convWork(knownElements(in[0].shape), in[1].shape); },
      .gradChecks =
          convCases(502,
                    [](Rng& rng, const Shape& xs, const Shape& fs, const Shape& ys, Attrs a) {
                      a.set("input_shape", xs);
                      return GradCheckCase{{randn(rng, ys), randn(rng, fs)}, a};
                    }),
  });

  r.add({
      .name = "conv2d_backprop_filter",
      .math = "df = conv2d_backprop_filter(x, g) = the adjoint of f -> conv2d(x, f), applied to g\n"
              "d(x) = conv2d_backprop_input(g, h), d(g) = conv2d(x, h) for the adjoint h of df",
      .arity = -1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const std::string op = "conv2d_backprop_filter";
            if (in.size() != 2 && in.size() != 3)
              throw ShapeError(op +
                               ": expects (x, g) and optionally a value of the filter's "
                               "shape, got " +
                               num(int64_t(in.size())) + " operands");
            requireFloatSame(in[0], in[1], op);
            requireRank4(in[0].shape, op, "input", "NHWC");
            requireRank4(in[1].shape, op, "output gradient", "NHWC");
            std::vector<const Shape*> ops{&in[0].shape, &in[1].shape};
            if (in.size() == 3) ops.push_back(&in[2].shape);
            const Shape fs =
                resultShape(shapeAttr(a, "filter_shape", op), ops, kFilterDimSources, op, "filter");
            checkOutGrad(convGeom(in[0].shape, fs, a, op), in[1].shape, op);
            return Types{{in[0].dtype, fs}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const std::string op = "conv2d_backprop_filter";
        const Tensor &x = in.at(0), &gy = in.at(1);
        std::vector<const Shape*> ops{&x.shape(), &gy.shape()};
        if (in.size() == 3) ops.push_back(&in[2].shape());
        const Shape fs =
            resultShape(shapeAttr(a, "filter_shape", op), ops, kFilterDimSources, op, "filter");
        if (!fullyKnown(fs))
          throw ShapeError(op + ": the filter's spatial size " + dimsStr(fs) +
                           " is unknown; pass the filter as a third operand");
        const ConvGeom g = convGeom(x.shape(), fs, a, op);
        checkOutGrad(g, gy.shape(), op);
        Tensor df = Tensor::empty(x.dtype(), fs);
        dispatchFloat(x.dtype(), [&](auto z) {
          using T = decltype(z);
          convFilterGrad(x.data<T>(), gy.data<T>(), static_cast<const T*>(nullptr), df.data<T>(),
                         g);
        });
        return Tensors{df};
      }),
      .vjp = [](VjpContext& c) -> Values {
        const Shape xs = c.inType(0).shape;
        const Attrs a = c.attrs();
        const Value h = c.goutOrZeros(0);
        Values grads(c.in.size());
        if (c.needs[0]) grads[0] = backpropInputNode(c.b, c.in[1], h, xs, c.in[0], a);
        if (c.needs[1]) grads[1] = conv2dNode(c.b, c.in[0], h, a);
        return grads;
      },
      .work = [](const Types& in, const Types& out,
                 const Attrs&) { return convWork(knownElements(in[1].shape), out[0].shape); },
      .gradChecks =
          convCases(503,
                    [](Rng& rng, const Shape& xs, const Shape& fs, const Shape& ys, Attrs a) {
                      a.set("filter_shape", fs);
                      return GradCheckCase{{randn(rng, xs), randn(rng, ys)}, a};
                    }),
  });

  r.add({
      .name = "conv2d_backprop_filter_pooled",
      .math = "df = conv2d_backprop_filter(x, global_avg_pool_grad(g)) for g [N,O] (or [N,1,1,O])\n"
              "d(x) = conv2d_backprop_input(global_avg_pool_grad(g), h), "
              "d(g) = global_avg_pool(conv2d(x, h)) for the adjoint h of df",
      .arity = 2,
      .shape =
          [](const Types& in, const Attrs& a) {
            const std::string op = "conv2d_backprop_filter_pooled";
            requireFloatSame(in.at(0), in.at(1), op);
            requireRank4(in[0].shape, op, "input", "NHWC");
            const Shape fs = shapeAttr(a, "filter_shape", op);
            const Shape gs = pooledDims(in[1].shape, op);
            const ConvGeom geo = convGeom(in[0].shape, fs, a, op);
            const Shape ys = geo.outShape();
            checkOutGrad(geo, {gs[0], ys[1], ys[2], gs[1]}, op);
            return Types{{in[0].dtype, fs}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const std::string op = "conv2d_backprop_filter_pooled";
        const Tensor &x = in.at(0), &gp = in.at(1);
        const Shape fs = shapeAttr(a, "filter_shape", op);
        const Shape gs = pooledDims(gp.shape(), op);
        const ConvGeom geo = convGeom(x.shape(), fs, a, op);
        checkOutGrad(geo, {gs[0], geo.OH, geo.OW, gs[1]}, op);
        Tensor df = Tensor::empty(x.dtype(), fs);
        dispatchFloat(x.dtype(), [&](auto z) {
          using T = decltype(z);
          convFilterGrad(x.data<T>(), static_cast<const T*>(nullptr), gp.data<T>(), df.data<T>(),
                         geo);
        });
        return Tensors{df};
      }),
      .vjp = [](VjpContext& c) -> Values {
        const Shape xs = c.inType(0).shape, gs = c.inType(1).shape;
        const Attrs a = c.attrs();
        const Value h = c.goutOrZeros(0);
        Values grads(2);
        if (c.needs[0]) {
          const Shape ys = convGeom(xs, a.ints("filter_shape"), a, "conv2d").outShape();
          if (ys[1] < 0 || ys[2] < 0)  // no value of y's shape here to read it from at run time
            throw EngineError(
                "the gradient of conv2d_backprop_filter_pooled needs the conv "
                "output's spatial size known, got " +
                shapeStr(ys));
          const Value gy = c.b.op1("global_avg_pool_grad", {c.in[1]}, Attrs{{"input_shape", ys}});
          grads[0] = backpropInputNode(c.b, gy, h, xs, c.in[0], a);
        }
        if (c.needs[1])
          grads[1] = ops::globalAvgPool(c.b, conv2dNode(c.b, c.in[0], h, a), gs.size() == 4);
        return grads;
      },
      .work =
          [](const Types& in, const Types& out, const Attrs&) {
            return convWork(knownElements(in[0].shape) / dim(in[0].shape[3]) * dim(out[0].shape[3]),
                            out[0].shape);
          },
      .gradChecks =
          convCases(506,
                    [](Rng& rng, const Shape& xs, const Shape& fs, const Shape& ys, Attrs a) {
                      a.set("filter_shape", fs);
                      return GradCheckCase{{randn(rng, xs), randn(rng, {ys[0], ys[3]})}, a};
                    }),
  });

  r.add({
      .name = "global_avg_pool",
      .math = "y[n,c] = mean_{h,w} x[n,h,w,c] (keepdims: y is [N,1,1,C])\n"
              "dx[n,h,w,c] = g[n,c] / (H*W), the global_avg_pool_grad of g",
      .arity = 1,
      .shape =
          [](const Types& in, const Attrs& a) {
            requireFloat(in.at(0), "global_avg_pool");
            return Types{{in[0].dtype, pooledShape(in[0].shape, a.b("keepdims"))}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const Tensor& x = in.at(0);
        requireFloat({x.dtype(), x.shape()}, "global_avg_pool");
        Tensor y = Tensor::empty(x.dtype(), pooledShape(x.shape(), a.b("keepdims")));
        const Shape& s = x.shape();
        dispatchFloat(x.dtype(), [&](auto z) {
          using T = decltype(z);
          avgPoolForward(x.data<T>(), y.data<T>(), s[0], s[1] * s[2], s[3]);
        });
        return Tensors{y};
      }),
      .vjp = [](VjpContext& c) -> Values {
        const Shape xs = c.inType(0).shape;
        if (!c.needs[0]) return {Value{}};
        Values in{c.goutOrZeros(0)};
        if (xs[1] < 0 || xs[2] < 0) in.push_back(c.in[0]);  // H*W known only at run time
        return {c.b.op1("global_avg_pool_grad", in, Attrs{{"input_shape", xs}})};
      },
      .gradChecks =
          [] {
            Rng rng(504);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 3, 4, 5})}, {}},
                {{randn(rng, {2, 3, 2, 3})}, {{"keepdims", true}}},
            };
          }(),
  });

  r.add({
      .name = "global_avg_pool_grad",
      .math = "dx[n,h,w,c] = g[n,c] / (H*W) for g [N,C] or [N,1,1,C] and x of shape input_shape\n"
              "d(g) = global_avg_pool(h) for the adjoint h of dx",
      .arity = -1,
      .shape =
          [](const Types& in, const Attrs& a) {
            const std::string op = "global_avg_pool_grad";
            if (in.size() != 1 && in.size() != 2)
              throw ShapeError(op + ": expects g and optionally a value of the input's shape");
            requireFloat(in[0], op);
            const Shape gs = pooledDims(in[0].shape, op);
            std::vector<const Shape*> ops{&gs, &gs};
            if (in.size() == 2) ops.push_back(&in[1].shape);
            return Types{{in[0].dtype, resultShape(shapeAttr(a, "input_shape", op), ops,
                                                   kPoolDimSources, op, "input")}};
          },
      .forward = tensorKernel([](const Tensors& in, const Attrs& a) {
        const std::string op = "global_avg_pool_grad";
        const Tensor& g = in.at(0);
        requireFloat({g.dtype(), g.shape()}, op);
        const Shape gs = pooledDims(g.shape(), op);
        std::vector<const Shape*> ops{&gs, &gs};
        if (in.size() == 2) ops.push_back(&in[1].shape());
        const Shape xs =
            resultShape(shapeAttr(a, "input_shape", op), ops, kPoolDimSources, op, "input");
        if (!fullyKnown(xs) || gs != Shape{xs[0], xs[3]})
          throw ShapeError(op + ": g " + shapeStr(g.shape()) + " does not pool the input " +
                           dimsStr(xs));
        Tensor dx = Tensor::empty(g.dtype(), xs);
        dispatchFloat(g.dtype(), [&](auto z) {
          using T = decltype(z);
          avgPoolGrad(g.data<T>(), dx.data<T>(), xs[0], xs[1] * xs[2], xs[3]);
        });
        return Tensors{dx};
      }),
      .vjp = [](VjpContext& c) -> Values {
        const bool keepdims = c.inType(0).shape.size() == 4;
        Values grads(c.in.size());
        if (c.needs[0]) grads[0] = ops::globalAvgPool(c.b, c.goutOrZeros(0), keepdims);
        return grads;
      },
      .gradChecks =
          [] {
            Rng rng(505);
            return std::vector<GradCheckCase>{
                {{randn(rng, {2, 5})}, {{"input_shape", Shape{2, 3, 4, 5}}}},
                {{randn(rng, {2, 1, 1, 3})}, {{"input_shape", Shape{2, 2, 3, 3}}}},
            };
          }(),
  });
}

namespace ops {

Value conv2d(Emitter& b, Value x, Value filter, const std::vector<int64_t>& strides,
             const std::string& padding, Value bias) {
  Values in{x, filter};
  if (bias.valid()) in.push_back(bias);
  return b.op1("conv2d", in, {{"strides", strides}, {"padding", padding}});
}

Value globalAvgPool(Emitter& b, Value x, bool keepdims) {
  return b.op1("global_avg_pool", {x}, {{"keepdims", keepdims}});
}

}  // namespace ops

}  // namespace gl
