#include "engine/tensor/tensor.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "engine/tensor/error.h"

namespace gl {

namespace {

std::atomic<size_t> g_live{0};
std::atomic<size_t> g_peak{0};

// Free buffers by rounded size, shared by all threads. Loop bodies allocate the same sizes every
// iteration, so reusing them avoids a malloc/mmap and page faults per op.
class BufferPool {
 public:
  static BufferPool& instance() {
    static BufferPool* p = new BufferPool;  // never destroyed: tensors may outlive statics
    return *p;
  }
  void* take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(bytes);
      if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        pooled_ -= bytes;
        return p;
      }
    }
    void* p = std::aligned_alloc(64, bytes);
    if (!p) throw EngineError("out of memory allocating " + std::to_string(bytes) + " bytes");
    return p;
  }
  void give(void* p, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    if (pooled_ + bytes > kMaxPooled) {
      std::free(p);
      return;
    }
    free_[bytes].push_back(p);
    pooled_ += bytes;
  }

 private:
  static constexpr size_t kMaxPooled = size_t(1) << 30;
  std::mutex mu_;
  std::unordered_map<size_t, std::vector<void*>> free_;
  size_t pooled_ = 0;
};

// A thread's own free buffers in front of the shared pool: the steady state of a loop body (free
// a value, take one of the same size for the next op) takes no lock, so concurrent iteration
// bodies do not queue on the pool's mutex. Newest first, so a buffer just freed (still in cache)
// is the one reused. What does not fit goes to the shared pool; a thread that ends gives all back.
thread_local bool t_threadBuffersGone = false;  // trivially destructible: readable at exit

class ThreadBuffers {
 public:
  ~ThreadBuffers() {
    t_threadBuffersGone = true;  // tensors in statics die after this thread's cache
    for (const Entry& e : entries_) BufferPool::instance().give(e.ptr, e.bytes);
  }
  void* take(size_t bytes) {
    for (size_t i = entries_.size(); i-- > 0;)
      if (entries_[i].bytes == bytes) {
        void* p = entries_[i].ptr;
        held_ -= bytes;
        entries_.erase(entries_.begin() + std::ptrdiff_t(i));
        return p;
      }
    return BufferPool::instance().take(bytes);
  }
  void give(void* p, size_t bytes) {
    if (bytes > kMaxHeld / 4) return BufferPool::instance().give(p, bytes);
    while (!entries_.empty() && (entries_.size() >= kMaxEntries || held_ + bytes > kMaxHeld)) {
      BufferPool::instance().give(entries_.front().ptr, entries_.front().bytes);
      held_ -= entries_.front().bytes;
      entries_.erase(entries_.begin());
    }
    entries_.push_back({bytes, p});
    held_ += bytes;
  }

 private:
  struct Entry {
    size_t bytes;
    void* ptr;
  };
  // Enough for the live temporaries of a loop body; linear search stays cheaper than a lock.
  static constexpr size_t kMaxEntries = 64;
  static constexpr size_t kMaxHeld = size_t(64) << 20;
  std::vector<Entry> entries_;
  size_t held_ = 0;
};

// This thread's cache, or null once it is destroyed (the thread is ending).
ThreadBuffers* threadBuffers() {
  if (t_threadBuffersGone) return nullptr;
  thread_local ThreadBuffers buffers;
  return &buffers;
}

void* takeBuffer(size_t bytes) {
  ThreadBuffers* mine = threadBuffers();
  return mine ? mine->take(bytes) : BufferPool::instance().take(bytes);
}

void giveBuffer(void* p, size_t bytes) {
  if (ThreadBuffers* mine = threadBuffers()) return mine->give(p, bytes);
  BufferPool::instance().give(p, bytes);
}

size_t roundUp(size_t b) { return ((b + 63) / 64) * 64; }

}  // namespace

class Storage {
 public:
  explicit Storage(size_t bytes) : bytes_(roundUp(std::max<size_t>(bytes, 1))) {
    ptr_ = takeBuffer(bytes_);
    size_t live = g_live.fetch_add(bytes_) + bytes_;
    size_t peak = g_peak.load();
    while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
    }
  }
  ~Storage() {
    g_live.fetch_sub(bytes_);
    giveBuffer(ptr_, bytes_);
  }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  void* ptr() { return ptr_; }

 private:
  size_t bytes_;
  void* ptr_;
};

MemoryStats memoryStats() { return {g_live.load(), g_peak.load()}; }
void resetPeakMemory() { g_peak.store(g_live.load()); }

Tensor Tensor::empty(DType dt, const Shape& shape) {
  if (!fullyKnown(shape))
    throw ShapeError("cannot allocate a tensor of unknown shape " + shapeStr(shape));
  Tensor t;
  t.dtype_ = dt;
  t.shape_ = shape;
  t.numel_ = gl::numel(shape);
  t.storage_ = std::make_shared<Storage>(t.bytes());
  return t;
}

Tensor Tensor::zeros(DType dt, const Shape& shape) {
  Tensor t = empty(dt, shape);
  std::memset(t.raw(), 0, t.bytes());
  return t;
}

Tensor Tensor::full(DType dt, const Shape& shape, double v) {
  Tensor t = empty(dt, shape);
  dispatchAll(dt, [&](auto z) {
    using T = decltype(z);
    T* p = t.data<T>();
    const T c = static_cast<T>(v);
    for (int64_t i = 0; i < t.numel_; ++i) p[i] = c;
  });
  return t;
}

Tensor Tensor::scalar(double v, DType dt) { return full(dt, {}, v); }

Tensor Tensor::fromVector(const std::vector<double>& values, const Shape& shape, DType dt) {
  Tensor t = empty(dt, shape);
  if (static_cast<int64_t>(values.size()) != t.numel_)
    throw ShapeError(std::to_string(values.size()) + " values do not fill shape " +
                     shapeStr(shape));
  for (int64_t i = 0; i < t.numel_; ++i) t.set(i, values[i]);
  return t;
}

void* Tensor::raw() { return storage_ ? storage_->ptr() : nullptr; }
const void* Tensor::raw() const { return storage_ ? storage_->ptr() : nullptr; }

double Tensor::at(int64_t i) const {
  return dispatchAll(dtype_, [&](auto z) -> double {
    using T = decltype(z);
    return static_cast<double>(data<T>()[i]);
  });
}

void Tensor::set(int64_t i, double v) {
  dispatchAll(dtype_, [&](auto z) {
    using T = decltype(z);
    data<T>()[i] = dtype_ == DType::Bool ? static_cast<T>(v != 0.0) : static_cast<T>(v);
  });
}

std::vector<double> Tensor::toVector() const {
  std::vector<double> v(static_cast<size_t>(numel_));
  for (int64_t i = 0; i < numel_; ++i) v[i] = at(i);
  return v;
}

double Tensor::item() const {
  if (numel_ != 1) throw ShapeError("expected a single element, got shape " + shapeStr(shape_));
  return at(0);
}

Tensor Tensor::astype(DType dt) const {
  Tensor r = empty(dt, shape_);
  dispatchAll(dtype_, [&](auto zi) {
    using I = decltype(zi);
    dispatchAll(dt, [&](auto zo) {
      using O = decltype(zo);
      const I* a = data<I>();
      O* o = r.data<O>();
      for (int64_t i = 0; i < numel_; ++i)
        o[i] = dt == DType::Bool ? static_cast<O>(a[i] != I(0)) : static_cast<O>(a[i]);
    });
  });
  return r;
}

Tensor Tensor::clone() const {
  if (!defined()) return {};
  Tensor r = empty(dtype_, shape_);
  std::memcpy(r.raw(), raw(), bytes());
  return r;
}

Tensor Tensor::reshaped(const Shape& shape) const {
  if (gl::numel(shape) != numel_)
    throw ShapeError("cannot reshape " + shapeStr(shape_) + " to " + shapeStr(shape));
  Tensor r = *this;
  r.shape_ = shape;
  return r;
}

std::string Tensor::summary(int maxElems) const {
  if (!defined()) return "<undefined>";
  std::ostringstream os;
  os << dtypeName(dtype_) << shapeStr(shape_) << " {";
  for (int64_t i = 0; i < std::min<int64_t>(numel_, maxElems); ++i) os << (i ? ", " : "") << at(i);
  if (numel_ > maxElems) os << ", ...";
  os << "}";
  return os.str();
}

}  // namespace gl
