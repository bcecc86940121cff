#pragma once
// A dense row-major tensor of any rank. Copies share the buffer; kernels always write into fresh
// tensors (buffers come from a pool, so a value that dies gives its memory to the next one).
#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "engine/tensor/dtype.h"
#include "engine/tensor/shape.h"

namespace gl {

namespace detail {
// The reference count of a tensor's buffer block and of a shape of its own (tensor.cpp).
struct Counted {
  std::atomic<int32_t> refs{1};
};
// Bytes before a buffer's data in its block; a multiple of the 64-byte alignment.
inline constexpr size_t kTensorHeaderBytes = 64;
}  // namespace detail

class Tensor {
 public:
  Tensor() = default;
  // Copies count references: no allocation, so handing tensors to kernels and between frames
  // costs two atomic adds, not a shape vector each (ops in loop bodies copy their inputs twice).
  Tensor(const Tensor& o) noexcept
      : block_(o.block_),
        ownShape_(o.ownShape_),
        shape_(o.shape_),
        dtype_(o.dtype_),
        numel_(o.numel_) {
    retain();
  }
  Tensor(Tensor&& o) noexcept
      : block_(o.block_),
        ownShape_(o.ownShape_),
        shape_(o.shape_),
        dtype_(o.dtype_),
        numel_(o.numel_) {
    o.forget();
  }
  Tensor& operator=(const Tensor& o) noexcept {
    if (this != &o) {
      o.retain();
      release();
      block_ = o.block_;
      ownShape_ = o.ownShape_;
      shape_ = o.shape_;
      dtype_ = o.dtype_;
      numel_ = o.numel_;
    }
    return *this;
  }
  Tensor& operator=(Tensor&& o) noexcept {
    if (this != &o) {
      release();
      block_ = o.block_;
      ownShape_ = o.ownShape_;
      shape_ = o.shape_;
      dtype_ = o.dtype_;
      numel_ = o.numel_;
      o.forget();
    }
    return *this;
  }
  ~Tensor() { release(); }
  // Uninitialised contents.
  static Tensor empty(DType dt, const Shape& shape);
  static Tensor zeros(DType dt, const Shape& shape);
  static Tensor full(DType dt, const Shape& shape, double value);
  static Tensor scalar(double value, DType dt = DType::F32);
  static Tensor fromVector(const std::vector<double>& values, const Shape& shape,
                           DType dt = DType::F32);

  bool defined() const { return block_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return *shape_; }
  int rank() const { return static_cast<int>(shape_->size()); }
  int64_t numel() const { return numel_; }
  size_t bytes() const { return static_cast<size_t>(numel_) * dtypeSize(dtype_); }

  template <class T>
  T* data() {
    return reinterpret_cast<T*>(raw());
  }
  template <class T>
  const T* data() const {
    return reinterpret_cast<const T*>(raw());
  }
  void* raw() { return block_ ? reinterpret_cast<char*>(block_) + kHeaderBytes : nullptr; }
  const void* raw() const {
    return block_ ? reinterpret_cast<const char*>(block_) + kHeaderBytes : nullptr;
  }

  // Element access by flat index, converted through double (slow; for tests, records, printing).
  double at(int64_t flat) const;
  void set(int64_t flat, double v);
  std::vector<double> toVector() const;
  double item() const;  // the single element of a one-element tensor

  Tensor astype(DType dt) const;
  Tensor clone() const;
  // Same buffer, new shape with the same number of elements.
  Tensor reshaped(const Shape& shape) const;
  bool sharesBufferWith(const Tensor& o) const { return block_ && block_ == o.block_; }
  // No other tensor (view, copy, record) holds this buffer: its owner may write into it.
  bool soleOwner() const { return block_ && block_->refs.load(std::memory_order_acquire) == 1; }

  std::string summary(int maxElems = 6) const;  // "float32[2,3] {1, 2, 3, ...}"

 private:
  // A buffer is one pooled block: this header (the count, the accounted bytes and the shape the
  // buffer was made with, whose vector keeps its capacity while the block waits in the pool),
  // then the data, 64-byte aligned. A fresh tensor therefore allocates nothing once the pool
  // holds a block of its size. A reshaped view carries a counted shape of its own.
  static constexpr size_t kHeaderBytes = detail::kTensorHeaderBytes;
  static const Shape kNoDims;
  void retain() const noexcept {
    if (block_) block_->refs.fetch_add(1, std::memory_order_relaxed);
    if (ownShape_) ownShape_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  void release() noexcept {
    if (block_ && block_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) freeBlock(block_);
    if (ownShape_ && ownShape_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      freeShape(ownShape_);
  }
  void forget() noexcept {
    block_ = nullptr;
    ownShape_ = nullptr;
    shape_ = &kNoDims;
    numel_ = 0;
  }
  static void freeBlock(detail::Counted* block) noexcept;
  static void freeShape(detail::Counted* shape) noexcept;

  detail::Counted* block_ = nullptr;
  detail::Counted* ownShape_ = nullptr;
  const Shape* shape_ = &kNoDims;  // in the block's header, in ownShape_, or kNoDims
  DType dtype_ = DType::F32;
  int64_t numel_ = 0;
};

// Bytes currently held by live tensors and the high-water mark since resetPeakMemory(), for
// memory accounting. Each thread counts its own allocations: `peak` is the sum of the threads'
// peaks, exact while one thread allocates and an upper bound while several do. Adds up one
// counter per thread: call it per run, not per op.
struct MemoryStats {
  size_t live = 0;
  size_t peak = 0;
};
MemoryStats memoryStats();
void resetPeakMemory();
// The live bytes within a MiB per thread, from one counter: cheap enough for a check per op.
size_t liveBytesRoughly();
// The most bytes held at once since the process started (resetPeakMemory() leaves it): memory
// past it is new to the process, and its first touch costs page faults.
size_t memoryHighWater();

}  // namespace gl
