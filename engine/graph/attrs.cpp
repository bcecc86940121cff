#include "engine/graph/attrs.h"

#include <sstream>

namespace gl {

int64_t Attrs::i(const std::string& k, int64_t def) const {
  auto it = m_.find(k);
  if (it == m_.end()) return def;
  if (auto p = std::get_if<int64_t>(&it->second)) return *p;
  if (auto p = std::get_if<bool>(&it->second)) return *p;
  if (auto p = std::get_if<double>(&it->second)) return static_cast<int64_t>(*p);
  return def;
}

double Attrs::f(const std::string& k, double def) const {
  auto it = m_.find(k);
  if (it == m_.end()) return def;
  if (auto p = std::get_if<double>(&it->second)) return *p;
  if (auto p = std::get_if<int64_t>(&it->second)) return static_cast<double>(*p);
  return def;
}

bool Attrs::b(const std::string& k, bool def) const {
  auto it = m_.find(k);
  if (it == m_.end()) return def;
  if (auto p = std::get_if<bool>(&it->second)) return *p;
  if (auto p = std::get_if<int64_t>(&it->second)) return *p != 0;
  return def;
}

std::string Attrs::s(const std::string& k, const std::string& def) const {
  auto it = m_.find(k);
  if (it == m_.end()) return def;
  if (auto p = std::get_if<std::string>(&it->second)) return *p;
  return def;
}

std::vector<int64_t> Attrs::ints(const std::string& k, const std::vector<int64_t>& def) const {
  auto it = m_.find(k);
  if (it == m_.end()) return def;
  if (auto p = std::get_if<std::vector<int64_t>>(&it->second)) return *p;
  if (auto p = std::get_if<int64_t>(&it->second)) return {*p};
  return def;
}

std::string Attrs::str() const {
  std::ostringstream os;
  bool first = true;
  for (const auto& [k, v] : m_) {
    if (!first) os << ", ";
    first = false;
    os << k << "=";
    std::visit(
        [&](const auto& x) {
          using X = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<X, std::vector<int64_t>>) {
            os << "[";
            for (size_t i = 0; i < x.size(); ++i) os << (i ? "," : "") << x[i];
            os << "]";
          } else if constexpr (std::is_same_v<X, bool>) {
            os << (x ? "true" : "false");
          } else {
            os << x;
          }
        },
        v);
  }
  return os.str();
}

}  // namespace gl
