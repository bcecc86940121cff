#include "engine/tensor/tensor_list.h"

#include <algorithm>
#include <mutex>

namespace gl {

// The entries of the newest version of a family of versions. One mutex guards the entries and
// every version's diff fields: independent nodes of the parallel executor may read and write
// versions of one family at once.
struct TensorList::Storage {
  std::mutex mu;
  std::vector<Tensor> items;  // undefined entries were never written
  Tensor zeros;               // zeroEntry's cache
};

TensorList::TensorList() : store_(std::make_shared<Storage>()) {}

TensorList::~TensorList() {
  // A long chain of versions (a loop's record of every step) would otherwise be released
  // recursively, one stack frame per version.
  std::shared_ptr<const TensorList> next = std::move(newer_);
  while (next && next.use_count() == 1) {
    std::shared_ptr<const TensorList> after = std::move(next->newer_);
    next = std::move(after);
  }
}

std::shared_ptr<TensorList> TensorList::sameAttrs() const {
  auto out = std::make_shared<TensorList>();
  out->dtype = dtype;
  out->elemShape = elemShape;
  out->lists = lists;
  out->dynamicSize = dynamicSize;
  out->zeroDefault = zeroDefault;
  out->savedPerIteration = savedPerIteration;
  return out;
}

std::shared_ptr<TensorList> TensorList::emptyLike() const {
  auto out = sameAttrs();
  out->lists.clear();
  return out;
}

std::shared_ptr<TensorList> TensorList::copy() const {
  auto out = sameAttrs();
  std::lock_guard<std::mutex> lock(store_->mu);
  out->store_->items = entriesLocked();
  out->size_ = size_;
  return out;
}

std::vector<Tensor> TensorList::entriesLocked() const {
  std::vector<const TensorList*> chain;
  const TensorList* v = this;
  for (; v->newer_; v = v->newer_.get()) chain.push_back(v);
  const std::vector<Tensor>& head = v->store_->items;
  std::vector<Tensor> out(head.begin(), head.begin() + std::min<int64_t>(size_, head.size()));
  out.resize(size_t(size_));
  // The version nearest to this one says last.
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    if ((*it)->diffIndex_ < size_) out[size_t((*it)->diffIndex_)] = (*it)->diffOld_;
  return out;
}

Tensor TensorList::entry(int64_t i) const {
  if (i < 0 || i >= size_) return {};
  std::lock_guard<std::mutex> lock(store_->mu);
  const TensorList* v = this;
  for (; v->newer_; v = v->newer_.get())
    if (v->diffIndex_ == i) return v->diffOld_;
  const std::vector<Tensor>& items = v->store_->items;
  return size_t(i) < items.size() ? items[size_t(i)] : Tensor{};
}

std::vector<Tensor> TensorList::entries() const {
  std::lock_guard<std::mutex> lock(store_->mu);
  return entriesLocked();
}

void TensorList::forEach(const std::function<void(int64_t, const Tensor&)>& f) const {
  std::unique_lock<std::mutex> lock(store_->mu);
  if (newer_) {
    const std::vector<Tensor> items = entriesLocked();
    lock.unlock();
    for (size_t i = 0; i < items.size(); ++i) f(int64_t(i), items[i]);
    return;
  }
  // The newest version: its entries are the storage's, visited without copying them.
  const std::vector<Tensor>& items = store_->items;
  static const Tensor kUnwritten;
  for (int64_t i = 0; i < size_; ++i)
    f(i, size_t(i) < items.size() ? items[size_t(i)] : kUnwritten);
}

void TensorList::forEachWritten(const std::function<void(int64_t, const Tensor&)>& f) const {
  forEach([&](int64_t i, const Tensor& t) {
    if (t.defined()) f(i, t);
  });
}

Tensor TensorList::zeroEntry(const Shape& shape) const {
  std::lock_guard<std::mutex> lock(store_->mu);
  Tensor& z = store_->zeros;
  if (!z.defined() || z.dtype() != dtype || z.shape() != shape) z = Tensor::zeros(dtype, shape);
  return z;
}

std::shared_ptr<TensorList> TensorList::withEntry(int64_t i, Tensor v) const {
  auto out = sameAttrs();
  out->size_ = std::max(size_, i + 1);
  std::lock_guard<std::mutex> lock(store_->mu);
  if (newer_) {
    // Written over already: this version gets a storage of its own.
    out->store_->items = entriesLocked();
    out->store_->items.resize(size_t(out->size_));
    out->store_->items[size_t(i)] = std::move(v);
    return out;
  }
  // The newest version: the new one takes the storage, this one keeps the entry it differs by.
  out->store_ = store_;
  std::vector<Tensor>& items = store_->items;
  if (int64_t(items.size()) < out->size_) items.resize(size_t(out->size_));
  diffIndex_ = i;
  diffOld_ = std::move(items[size_t(i)]);
  items[size_t(i)] = std::move(v);
  newer_ = out;
  return out;
}

void TensorList::resize(int64_t n) {
  std::lock_guard<std::mutex> lock(store_->mu);
  size_ = n;
  store_->items.resize(size_t(n));
}

void TensorList::set(int64_t i, Tensor v) {
  std::lock_guard<std::mutex> lock(store_->mu);
  store_->items.at(size_t(i)) = std::move(v);
}

size_t TensorList::bytes() const {
  size_t b = 0;
  forEachWritten([&](int64_t, const Tensor& t) { b += t.bytes(); });
  for (const auto& l : lists) b += l ? l->bytes() : 0;
  return b;
}

}  // namespace gl
