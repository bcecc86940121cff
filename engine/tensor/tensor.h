#pragma once
// A dense row-major tensor of any rank. Copies share the buffer; kernels always write into fresh
// tensors (buffers come from a pool, so a value that dies gives its memory to the next one).
#include <memory>
#include <string>
#include <vector>

#include "engine/tensor/dtype.h"
#include "engine/tensor/shape.h"

namespace gl {

class Storage;

class Tensor {
 public:
  Tensor() = default;
  // Uninitialised contents.
  static Tensor empty(DType dt, const Shape& shape);
  static Tensor zeros(DType dt, const Shape& shape);
  static Tensor full(DType dt, const Shape& shape, double value);
  static Tensor scalar(double value, DType dt = DType::F32);
  static Tensor fromVector(const std::vector<double>& values, const Shape& shape,
                           DType dt = DType::F32);

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int rank() const { return static_cast<int>(shape_.size()); }
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
  void* raw();
  const void* raw() const;

  // Element access by flat index, converted through double (slow; for tests, records, printing).
  double at(int64_t flat) const;
  void set(int64_t flat, double v);
  std::vector<double> toVector() const;
  double item() const;  // the single element of a one-element tensor

  Tensor astype(DType dt) const;
  Tensor clone() const;
  // Same buffer, new shape with the same number of elements.
  Tensor reshaped(const Shape& shape) const;
  bool sharesBufferWith(const Tensor& o) const { return storage_ && storage_ == o.storage_; }

  std::string summary(int maxElems = 6) const;  // "float32[2,3] {1, 2, 3, ...}"

 private:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::F32;
  Shape shape_;
  int64_t numel_ = 0;
};

// Bytes currently held by live tensors and the high-water mark, for memory accounting.
struct MemoryStats {
  size_t live = 0;
  size_t peak = 0;
};
MemoryStats memoryStats();
void resetPeakMemory();

}  // namespace gl
