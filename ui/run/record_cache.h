#pragma once
// Records are taken only where someone reads them: a run from the window runs every variant
// without loop or value records (its timings are what the command line would measure), and
// the variant the step-through and inspector show is run again with records on (a recording
// run). This cache keeps each recorded variant of the latest run, so switching back to one is
// instant, within a byte budget: the least recently shown go first, the shown one never.
#include <QString>
#include <cstdint>
#include <map>
#include <memory>

#include "engine/lab/session.h"

namespace gl::ui {

// The bytes a run's loop and value records hold (as the recorder counts them).
size_t recordBytes(const RunResult& run);

class RecordCache {
 public:
  // A run from the window used to keep every variant's records, each under the engine's record
  // budget: four budgets keep as much as a four-variant lesson did.
  static constexpr size_t kDefaultBudget = 4 * kDefaultRecordBudget;
  explicit RecordCache(size_t budget = kDefaultBudget) : budget_(budget) {}

  // The variant's run with records, or null. Marks it as the most recently shown.
  std::shared_ptr<const lab::VariantRun> find(const QString& variant);
  // The same without marking it.
  std::shared_ptr<const lab::VariantRun> peek(const QString& variant) const {
    auto it = entries_.find(variant);
    return it == entries_.end() ? nullptr : it->second.run;
  }
  bool contains(const QString& variant) const { return entries_.count(variant) > 0; }
  // Keeps `run` (the records of `variant`); evicts the least recently shown others while over
  // the budget. Evicted runs are freed off the GUI thread.
  void insert(const QString& variant, std::shared_ptr<const lab::VariantRun> run, size_t bytes);
  void clear();
  size_t bytes() const { return bytes_; }
  int size() const { return int(entries_.size()); }

 private:
  struct Entry {
    std::shared_ptr<const lab::VariantRun> run;
    size_t bytes = 0;
    uint64_t used = 0;  // tick of the last find or insert
  };
  void drop(std::map<QString, Entry>::iterator it);

  size_t budget_;
  size_t bytes_ = 0;
  uint64_t tick_ = 0;
  std::map<QString, Entry> entries_;
};

}  // namespace gl::ui
