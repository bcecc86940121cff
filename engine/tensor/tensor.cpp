#include "engine/tensor/tensor.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <sstream>
#include <type_traits>
#include <unordered_map>

#include "engine/tensor/error.h"

namespace gl {

const Shape Tensor::kNoDims{};

namespace {

// Memory accounting, per thread. One counter for the whole process had every allocation and
// free of two threads running loop bodies at once fight over its cache line: seed-a's parallel
// variant took 0.74-0.87 s on two threads with it, 0.43-0.44 s without, 0.75 s on one thread.
// So each thread counts the blocks it allocated in a slot of its own (a free goes to the slot of
// the thread that allocated the block), and the live bytes are the sum of the slots.
//
// The peak is the process's, not a sum of the threads' peaks (which doubled seed-c's on two
// threads): a thread adds up all slots when its own count reaches a new high, or has grown by
// kPeakStep since it last did. While one thread allocates that is exact; while several do, a
// peak can be missed by less than kPeakStep per thread.
//
// A coarse total, moved in steps of kCoarseStep, serves the budget checks made after every node.
struct alignas(64) ThreadBytes {
  std::atomic<int64_t> live{0};       // bytes of the blocks this slot's threads allocated
  std::atomic<int64_t> high{0};       // the highest `live` since resetPeakMemory()
  std::atomic<int64_t> summedAt{0};   // `live` when this thread last added up all slots
  std::atomic<int64_t> published{0};  // the part of `live` counted in g_coarseLive
};
constexpr int kByteSlots = 64;  // threads beyond this share slots (still exact, less cheap)
constexpr int64_t kPeakStep = int64_t(64) << 10;
constexpr int64_t kCoarseStep = int64_t(1) << 20;
ThreadBytes g_bytes[kByteSlots];
std::atomic<int> g_nextByteSlot{0};
std::atomic<int64_t> g_peak{0};
std::atomic<int64_t> g_coarseLive{0};

int thisThreadsByteSlot() {
  thread_local const int slot = g_nextByteSlot.fetch_add(1, std::memory_order_relaxed) % kByteSlots;
  return slot;
}

int64_t sumOfSlots() {
  const int used = std::min(g_nextByteSlot.load(std::memory_order_relaxed), kByteSlots);
  int64_t live = 0;
  for (int i = 0; i < used; ++i) live += g_bytes[i].live.load(std::memory_order_relaxed);
  return live;
}

std::atomic<int64_t> g_highWater{0};  // g_peak, never reset

void raiseTo(std::atomic<int64_t>& peak, int64_t total) {
  int64_t had = peak.load(std::memory_order_relaxed);
  while (total > had && !peak.compare_exchange_weak(had, total, std::memory_order_relaxed)) {
  }
}

void raisePeak(int64_t total) {
  raiseTo(g_peak, total);
  raiseTo(g_highWater, total);
}

// After a slot's live bytes changed: the coarse total once they are a step away from it.
void publish(ThreadBytes& t, int64_t live) {
  int64_t published = t.published.load(std::memory_order_relaxed);
  // A free on another thread may publish at the same time: the exchange keeps the coarse total
  // the exact sum of what the slots published.
  if ((live - published >= kCoarseStep || published - live >= kCoarseStep) &&
      t.published.compare_exchange_strong(published, live, std::memory_order_relaxed))
    g_coarseLive.fetch_add(live - published, std::memory_order_relaxed);
}

// After the allocating thread's slot grew to `live`.
void accountAllocation(ThreadBytes& t, int64_t live) {
  const bool newHigh = live > t.high.load(std::memory_order_relaxed);
  if (newHigh) t.high.store(live, std::memory_order_relaxed);
  if (newHigh || live - t.summedAt.load(std::memory_order_relaxed) >= kPeakStep) {
    t.summedAt.store(live, std::memory_order_relaxed);
    raisePeak(sumOfSlots());
  }
  publish(t, live);
}

// A buffer block's header (see Tensor's private part). `bytes` is the data size, rounded to 64:
// what the memory accounting counts and what the pools are keyed by. `slot`: the accounting
// slot of the thread that allocated it.
struct Block : detail::Counted {
  int32_t slot = 0;
  size_t bytes = 0;
  Shape shape;
};
constexpr size_t kHeaderBytes = detail::kTensorHeaderBytes;
static_assert(sizeof(Block) <= kHeaderBytes && alignof(Block) <= kHeaderBytes);

Block* allocateBlock(size_t bytes) {
  void* p = std::aligned_alloc(64, kHeaderBytes + bytes);
  if (!p) throw EngineError("out of memory allocating " + std::to_string(bytes) + " bytes");
  Block* b = new (p) Block;
  b->bytes = bytes;
  return b;
}

void destroyBlock(Block* b) {
  b->~Block();
  std::free(b);
}

// Free blocks by rounded size, shared by all threads. Loop bodies allocate the same sizes every
// iteration, so reusing them avoids a malloc/mmap and page faults per op.
class BufferPool {
 public:
  static BufferPool& instance() {
    static BufferPool* p = new BufferPool;  // never destroyed: tensors may outlive statics
    return *p;
  }
  Block* take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(bytes);
      if (it != free_.end() && !it->second.empty()) {
        Block* b = it->second.back();
        it->second.pop_back();
        pooled_ -= bytes;
        return b;
      }
    }
    return allocateBlock(bytes);
  }
  void give(Block* b) {
    std::lock_guard<std::mutex> lock(mu_);
    if (pooled_ + b->bytes > kMaxPooled) return destroyBlock(b);
    free_[b->bytes].push_back(b);
    pooled_ += b->bytes;
  }

 private:
  static constexpr size_t kMaxPooled = size_t(1) << 30;
  std::mutex mu_;
  std::unordered_map<size_t, std::vector<Block*>> free_;
  size_t pooled_ = 0;
};

// A thread's own free blocks in front of the shared pool: the steady state of a loop body (free
// a value, take one of the same size for the next op) takes no lock, so concurrent iteration
// bodies do not queue on the pool's mutex. Newest first, so a buffer just freed (still in cache)
// is the one reused. What does not fit goes to the shared pool; a thread that ends gives all back.
//
// A thread keeps no more than it has taken: a thread that only frees (the window's thread
// dropping an old result, a helper thread releasing it) would otherwise hold up to kMaxHeld of
// blocks no thread that allocates can reach. The window's run thread then took fresh 16 MiB
// blocks (~8,000 page faults per Run All of seed-c) until the helper's cache was full, and
// again each time Qt replaced the helper thread.
thread_local bool t_threadBuffersGone = false;  // trivially destructible: readable at exit

class ThreadBuffers {
 public:
  ~ThreadBuffers() {
    t_threadBuffersGone = true;  // tensors in statics die after this thread's cache
    for (Block* b : entries_) BufferPool::instance().give(b);
  }
  Block* take(size_t bytes) {
    for (size_t i = entries_.size(); i-- > 0;)
      if (entries_[i]->bytes == bytes) {
        Block* b = entries_[i];
        held_ -= bytes;
        taken_ += bytes;
        entries_.erase(entries_.begin() + std::ptrdiff_t(i));
        return b;
      }
    taken_ += bytes;
    return BufferPool::instance().take(bytes);
  }
  void give(Block* b) {
    const size_t bytes = b->bytes;
    if (bytes > kMaxHeld / 4 || bytes > taken_) return BufferPool::instance().give(b);
    taken_ -= bytes;
    while (!entries_.empty() && (entries_.size() >= kMaxEntries || held_ + bytes > kMaxHeld)) {
      held_ -= entries_.front()->bytes;
      BufferPool::instance().give(entries_.front());
      entries_.erase(entries_.begin());
    }
    entries_.push_back(b);
    held_ += bytes;
  }

 private:
  // Enough for the live temporaries of a loop body; linear search stays cheaper than a lock.
  static constexpr size_t kMaxEntries = 64;
  static constexpr size_t kMaxHeld = size_t(64) << 20;
  std::vector<Block*> entries_;
  size_t held_ = 0;
  size_t taken_ = 0;  // bytes this thread took, less the bytes it kept when they came back
};

// This thread's cache, or null once it is destroyed (the thread is ending).
ThreadBuffers* threadBuffers() {
  if (t_threadBuffersGone) return nullptr;
  thread_local ThreadBuffers buffers;
  return &buffers;
}

size_t roundUp(size_t b) { return ((b + 63) / 64) * 64; }

// A block for `bytes` of data with one reference, counted as live.
Block* takeBlock(size_t bytes) {
  bytes = roundUp(std::max<size_t>(bytes, 1));
  ThreadBuffers* mine = threadBuffers();
  Block* b = mine ? mine->take(bytes) : BufferPool::instance().take(bytes);
  b->refs.store(1, std::memory_order_relaxed);
  b->slot = thisThreadsByteSlot();
  ThreadBytes& t = g_bytes[b->slot];
  accountAllocation(t,
                    t.live.fetch_add(int64_t(bytes), std::memory_order_relaxed) + int64_t(bytes));
  return b;
}

// A reshaped view's shape, counted like a block.
struct OwnShape : detail::Counted {
  Shape shape;
};

}  // namespace

void Tensor::freeBlock(detail::Counted* c) noexcept {
  Block* b = static_cast<Block*>(c);
  ThreadBytes& t = g_bytes[b->slot];
  publish(t, t.live.fetch_sub(int64_t(b->bytes), std::memory_order_relaxed) - int64_t(b->bytes));
  if (ThreadBuffers* mine = threadBuffers()) return mine->give(b);
  BufferPool::instance().give(b);
}

void Tensor::freeShape(detail::Counted* c) noexcept { delete static_cast<OwnShape*>(c); }

MemoryStats memoryStats() {
  const int64_t live = std::max<int64_t>(sumOfSlots(), 0);
  return {size_t(live), size_t(std::max(g_peak.load(std::memory_order_relaxed), live))};
}

size_t memoryHighWater() {
  return size_t(std::max<int64_t>(g_highWater.load(std::memory_order_relaxed), 0));
}

size_t liveBytesRoughly() {
  return size_t(std::max<int64_t>(g_coarseLive.load(std::memory_order_relaxed), 0));
}

void resetPeakMemory() {
  for (ThreadBytes& t : g_bytes) {
    const int64_t live = t.live.load(std::memory_order_relaxed);
    t.high.store(live, std::memory_order_relaxed);
    t.summedAt.store(live, std::memory_order_relaxed);
  }
  g_peak.store(sumOfSlots(), std::memory_order_relaxed);
}

Tensor Tensor::empty(DType dt, const Shape& shape) {
  if (!fullyKnown(shape))
    throw ShapeError("cannot allocate a tensor of unknown shape " + shapeStr(shape));
  Tensor t;
  t.dtype_ = dt;
  t.numel_ = gl::numel(shape);
  Block* b = takeBlock(t.bytes());
  b->shape = shape;  // reuses the pooled header's capacity: same-rank shapes allocate nothing
  t.block_ = b;
  t.shape_ = &b->shape;
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
  if (numel_ != 1) throw ShapeError("expected a single element, got shape " + shapeStr(*shape_));
  return at(0);
}

namespace {

// A float to a signed int truncates, as x86's cvttss2si (and so TF on CPU) does, and gives the
// most negative int for NaN and values out of range, where a plain static_cast is undefined.
template <class O, class I>
O convertElement(I v) {
  if constexpr (std::is_floating_point_v<I> && std::is_integral_v<O> && std::is_signed_v<O>) {
    constexpr I lo = I(std::numeric_limits<O>::min());  // -2^31 or -2^63: exact in I
    if (!(v >= lo && v < -lo)) return std::numeric_limits<O>::min();
  }
  return static_cast<O>(v);
}

}  // namespace

Tensor Tensor::astype(DType dt) const {
  Tensor r = empty(dt, *shape_);
  dispatchAll(dtype_, [&](auto zi) {
    using I = decltype(zi);
    dispatchAll(dt, [&](auto zo) {
      using O = decltype(zo);
      const I* a = data<I>();
      O* o = r.data<O>();
      for (int64_t i = 0; i < numel_; ++i)
        o[i] = dt == DType::Bool ? static_cast<O>(a[i] != I(0)) : convertElement<O>(a[i]);
    });
  });
  return r;
}

Tensor Tensor::clone() const {
  if (!defined()) return {};
  Tensor r = empty(dtype_, *shape_);
  std::memcpy(r.raw(), raw(), bytes());
  return r;
}

Tensor Tensor::reshaped(const Shape& shape) const {
  if (gl::numel(shape) != numel_)
    throw ShapeError("cannot reshape " + shapeStr(*shape_) + " to " + shapeStr(shape));
  Tensor r = *this;
  if (shape == *shape_) return r;
  auto* own = new OwnShape;
  own->shape = shape;
  if (r.ownShape_ && r.ownShape_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    freeShape(r.ownShape_);
  r.ownShape_ = own;
  r.shape_ = &own->shape;
  return r;
}

std::string Tensor::summary(int maxElems) const {
  if (!defined()) return "<undefined>";
  std::ostringstream os;
  os << dtypeName(dtype_) << shapeStr(*shape_) << " {";
  for (int64_t i = 0; i < std::min<int64_t>(numel_, maxElems); ++i) os << (i ? ", " : "") << at(i);
  if (numel_ > maxElems) os << ", ...";
  os << "}";
  return os.str();
}

}  // namespace gl
