#pragma once
// The run-time values that flow along graph edges: a tensor, or a list of tensors (TensorArray,
// and the per-iteration accumulators that reverse mode keeps for loops).
#include <functional>
#include <memory>
#include <vector>

#include "engine/tensor/tensor.h"

namespace gl {

class TensorList;
using ListPtr = std::shared_ptr<const TensorList>;

// A list value. The graph is functional (ta.write returns a new list and ta keeps its entries),
// yet a write costs O(1): versions written from one another share a storage that holds the
// newest version's entries, and a version that was written over keeps the single entry it
// differs by (Baker's diff arrays). Reading an older version walks the versions newer than it;
// writing one that is not the newest copies its entries into a storage of its own. A loop that
// writes entry t of the list it carries therefore never copies the list.
class TensorList {
 public:
  DType dtype = DType::F32;
  Shape elemShape;  // may hold unknown dims until the first write
  // Entries of a list of lists: what a loop saves per iteration of an inner loop's own
  // accumulators, so nested loops can be reversed.
  std::vector<ListPtr> lists;
  bool dynamicSize = false;
  // Adjoint lists read unwritten entries as zeros; a user's TensorArray reports an error.
  bool zeroDefault = false;
  // A loop's per-iteration saved values: an iteration where the value was not computed (it
  // lives in a cond branch that did not run) reads as no value, which only the same branch of
  // the reverse cond would use, and that branch does not run either.
  bool savedPerIteration = false;

  TensorList();
  ~TensorList();
  TensorList(const TensorList&) = delete;
  TensorList& operator=(const TensorList&) = delete;

  // Same attributes, no entries.
  std::shared_ptr<TensorList> emptyLike() const;
  // Same attributes and entries, in a storage of its own (for building a new list from this).
  std::shared_ptr<TensorList> copy() const;

  int64_t size() const { return size_; }
  // Entry i; undefined when it was never written or i is out of range.
  Tensor entry(int64_t i) const;
  std::vector<Tensor> entries() const;
  // Calls f(i, entry) for every entry in index order (undefined = unwritten), or for the
  // written ones only. f runs under the storage's lock for the newest version: it must not use
  // this list's family.
  void forEach(const std::function<void(int64_t, const Tensor&)>& f) const;
  void forEachWritten(const std::function<void(int64_t, const Tensor&)>& f) const;
  // The zeros an unwritten entry of an adjoint list reads as: one tensor per storage and shape,
  // shared by every such read (tensors are immutable once made).
  Tensor zeroEntry(const Shape& shape) const;

  // ta.write(i, v) as a new version; `this` keeps its entries. Grows the list past its end.
  std::shared_ptr<TensorList> withEntry(int64_t i, Tensor v) const;

  // Building a list nobody else reads yet (a kernel's output, a loop's accumulators).
  void resize(int64_t n);
  void set(int64_t i, Tensor v);

  size_t bytes() const;
  // True when both are versions of one storage (a write reused it instead of copying).
  bool sharesStorageWith(const TensorList& o) const { return store_ == o.store_; }

 private:
  struct Storage;
  std::shared_ptr<TensorList> sameAttrs() const;
  std::vector<Tensor> entriesLocked() const;

  std::shared_ptr<Storage> store_;
  int64_t size_ = 0;
  // Set once this version was written over: the version written from it, and the entry the
  // two differ by (its value in this version). Guarded by the storage's mutex.
  mutable std::shared_ptr<const TensorList> newer_;
  mutable int64_t diffIndex_ = -1;
  mutable Tensor diffOld_;
};

struct Datum {
  Tensor t;
  ListPtr list;
  Datum() = default;
  Datum(Tensor x) : t(std::move(x)) {}      // NOLINT: a tensor is a datum
  Datum(ListPtr l) : list(std::move(l)) {}  // NOLINT
  bool isList() const { return list != nullptr; }
  bool defined() const { return t.defined() || list != nullptr; }
};

}  // namespace gl
