#pragma once
// Node attributes: small named values (axes, strides, einsum equations, dtypes, ...).
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace gl {

using AttrValue = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>>;

class Attrs {
 public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<const std::string, AttrValue>> init) : m_(init) {}

  bool has(const std::string& k) const { return m_.count(k) != 0; }
  Attrs& set(const std::string& k, AttrValue v) {
    m_[k] = std::move(v);
    return *this;
  }
  int64_t i(const std::string& k, int64_t def = 0) const;
  double f(const std::string& k, double def = 0.0) const;
  bool b(const std::string& k, bool def = false) const;
  std::string s(const std::string& k, const std::string& def = {}) const;
  std::vector<int64_t> ints(const std::string& k, const std::vector<int64_t>& def = {}) const;
  const std::map<std::string, AttrValue>& all() const { return m_; }
  std::string str() const;  // "axis=1, keepdims=true"

 private:
  std::map<std::string, AttrValue> m_;
};

}  // namespace gl
