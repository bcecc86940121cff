#include "engine/exec/recorder.h"

#include <algorithm>

namespace gl {

namespace {

bool isPrefix(const std::vector<int64_t>& prefix, const std::vector<int64_t>& of) {
  return prefix.size() < of.size() && std::equal(prefix.begin(), prefix.end(), of.begin());
}

}  // namespace

LoopRecord* Recorder::begin(const Node& n, const std::vector<int64_t>& at) {
  if (!loops_) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  // Counted before the budget check, so the step controls can say "of 10" when 7 are kept. A
  // place met again once the budget is spent counts again (no record says it was seen).
  if (n.forwardNode < 0) {
    auto seen = forward_.find(n.id);
    if (seen == forward_.end() || !seen->second.count(at)) ++forwardRan_[n.id];
  }
  // Each execution costs its record even when empty: a loop nested in a 20000-step loop
  // stops getting new records once the budget is spent.
  if (used_.load() + sizeof(LoopRecord) > budget_) return nullptr;
  used_ += sizeof(LoopRecord);
  if (n.forwardNode < 0) {
    auto [it, fresh] = forward_[n.id].try_emplace(at);
    if (!fresh) return nullptr;  // one execution per place
    LoopRecord& r = it->second;
    r.loopNode = n.id;
    r.width = size_t(n.control.numVars);
    r.at = at;
    return &r;
  }
  auto fw = forward_.find(n.forwardNode);
  if (fw == forward_.end()) return nullptr;
  if (auto same = fw->second.find(at); same != fw->second.end()) {
    LoopRecord& r = same->second;
    if (!r.adjoints.empty()) return nullptr;  // a second gradient of the same execution
    r.adjoints.resize(r.carried.size());      // adjoints[t]: at forward iteration t
    return &r;
  }
  // The forward loop ran once, outside the map this reverse loop runs in (a jacobian's rows).
  for (const auto& [place, forward] : fw->second) {
    if (!isPrefix(place, at)) continue;
    auto [it, fresh] = reverseOnly_[n.forwardNode].try_emplace(at);
    if (!fresh) return nullptr;
    LoopRecord& r = it->second;
    r.loopNode = n.forwardNode;
    r.width = forward.width;
    r.at = at;
    r.sharesCarried = true;
    r.adjoints.resize(forward.carried.size());
    return &r;
  }
  return nullptr;
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

void Recorder::takeLoops(std::map<int, LoopRecord>& first, std::map<int, LoopExecutions>& later) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [node, executions] : forward_) {
    std::vector<LoopRecord> all;
    auto rev = reverseOnly_.find(node);
    if (rev != reverseOnly_.end() && !rev->second.empty() && executions.size() == 1) {
      // A jacobian's rows: one execution per row; the first row completes the forward record.
      LoopRecord base = std::move(executions.begin()->second);
      auto row = rev->second.begin();
      base.adjoints = std::move(row->second.adjoints);
      base.at = row->first;
      base.truncated = base.truncated || row->second.truncated;
      all.push_back(std::move(base));
      for (++row; row != rev->second.end(); ++row) all.push_back(std::move(row->second));
    } else {
      for (auto& [place, rec] : executions) all.push_back(std::move(rec));
    }
    if (all.empty()) continue;
    first[node] = std::move(all.front());
    const size_t ran = rev != reverseOnly_.end() && !rev->second.empty() ? 0 : forwardRan_[node];
    if (all.size() > 1 || ran > all.size()) {
      LoopExecutions& more = later[node];
      more.later.assign(std::make_move_iterator(all.begin() + 1),
                        std::make_move_iterator(all.end()));
      more.ran = ran;
    }
  }
  forward_.clear();
  reverseOnly_.clear();
  forwardRan_.clear();
}

}  // namespace gl
