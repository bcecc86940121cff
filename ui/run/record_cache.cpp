#include "ui/run/record_cache.h"

#include "ui/run/release_off_thread.h"

namespace gl::ui {

namespace {

size_t loopBytes(const LoopRecord& rec) {
  size_t n = sizeof(LoopRecord);
  for (const auto* rows : {&rec.carried, &rec.adjoints})
    for (const auto& row : *rows)
      for (const TensorRecord& r : row) n += r.bytes();
  return n;
}

}  // namespace

size_t recordBytes(const RunResult& run) {
  size_t n = 0;
  for (const auto& [node, rec] : run.loops) n += loopBytes(rec);
  for (const auto& [node, more] : run.loopExecutions)
    for (const LoopRecord& rec : more.later) n += loopBytes(rec);
  for (const auto& [value, rec] : run.valueRecords) n += rec.bytes();
  return n;
}

std::shared_ptr<const lab::VariantRun> RecordCache::find(const QString& variant) {
  auto it = entries_.find(variant);
  if (it == entries_.end()) return nullptr;
  it->second.used = ++tick_;
  return it->second.run;
}

void RecordCache::insert(const QString& variant, std::shared_ptr<const lab::VariantRun> run,
                         size_t bytes) {
  if (auto it = entries_.find(variant); it != entries_.end()) drop(it);
  entries_[variant] = {std::move(run), bytes, ++tick_};
  bytes_ += bytes;
  while (bytes_ > budget_ && entries_.size() > 1) {
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first != variant &&
          (oldest == entries_.end() || it->second.used < oldest->second.used))
        oldest = it;
    drop(oldest);
  }
}

void RecordCache::clear() {
  while (!entries_.empty()) drop(entries_.begin());
}

void RecordCache::drop(std::map<QString, Entry>::iterator it) {
  bytes_ -= it->second.bytes;
  releaseOffThread(it->second.run);
  entries_.erase(it);
}

}  // namespace gl::ui
