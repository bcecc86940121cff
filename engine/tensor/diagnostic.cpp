#include "engine/tensor/diagnostic.h"

#include <deque>
#include <mutex>
#include <unordered_map>

namespace gl {

namespace {

// Sentences seen while tracing and running; a lesson makes a few dozen, so the cap only guards
// against a script that loops over failing calls forever.
constexpr size_t kMaxSentences = 4096;

struct SentenceIndex {
  std::mutex mutex;
  std::unordered_map<std::string, Diagnostic> bySentence;
  std::deque<std::string> order;  // oldest first, for eviction
};

SentenceIndex& sentenceIndex() {
  static SentenceIndex r;
  return r;
}

}  // namespace

std::string diagnosed(std::string sentence, Diagnostic d) {
  if (!d.known() || sentence.empty()) return sentence;
  SentenceIndex& r = sentenceIndex();
  std::lock_guard lock(r.mutex);
  auto [it, inserted] = r.bySentence.insert_or_assign(sentence, std::move(d));
  if (inserted) {
    r.order.push_back(it->first);
    if (r.order.size() > kMaxSentences) {
      r.bySentence.erase(r.order.front());
      r.order.pop_front();
    }
  }
  return sentence;
}

Diagnostic diagnosticOf(const std::string& sentence) {
  SentenceIndex& r = sentenceIndex();
  std::lock_guard lock(r.mutex);
  auto it = r.bySentence.find(sentence);
  return it == r.bySentence.end() ? Diagnostic{} : it->second;
}

Diagnostic diagnosticOf(const std::string& located, const std::string& message) {
  Diagnostic d = diagnosticOf(message);
  if (!d.known() || message.empty() || located.size() < message.size() ||
      located.compare(located.size() - message.size(), message.size(), message) != 0)
    return diagnosticOf(located);
  d.prefix = located.substr(0, located.size() - message.size());
  return d;
}

}  // namespace gl
