#include "engine/exec/recorder.h"

namespace gl {

LoopRecord* Recorder::begin(const Node& n) {
  if (!loops_) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  if (n.forwardNode >= 0) {
    auto it = loopRecords_.find(n.forwardNode);
    if (it == loopRecords_.end() || !it->second.adjoints.empty()) return nullptr;
    it->second.adjoints.resize(it->second.carried.size());
    return &it->second;
  }
  if (loopRecords_.count(n.id)) return nullptr;
  LoopRecord& r = loopRecords_[n.id];
  r.loopNode = n.id;
  return &r;
}

bool Recorder::row(LoopRecord& rec, const std::vector<Datum>& values,
                   std::vector<TensorRecord>& out) {
  out.clear();
  size_t bytes = 0;
  for (const auto& d : values) {
    out.push_back(TensorRecord::of(d, smallTensor_));
    bytes += out.back().bytes();
  }
  if (used_.fetch_add(bytes) + bytes > budget_) {
    rec.truncated = true;
    out.clear();
    return false;
  }
  return true;
}

void Recorder::value(Value v, const Datum& d) {
  TensorRecord r = TensorRecord::of(d, smallTensor_);
  std::lock_guard<std::mutex> lock(mu_);
  values_[v] = std::move(r);
}

}  // namespace gl
