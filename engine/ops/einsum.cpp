#include "engine/ops/einsum.h"

#include <algorithm>
#include <map>

#include "engine/tensor/error.h"

namespace gl::einsum {

namespace {

bool has(const std::string& s, char c) { return s.find(c) != std::string::npos; }

bool isLabel(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Positions in `from` of each label of `to`; empty if that is the identity.
std::vector<int64_t> permFor(const std::string& from, const std::string& to) {
  std::vector<int64_t> perm;
  bool identity = true;
  for (size_t i = 0; i < to.size(); ++i) {
    perm.push_back(int64_t(from.find(to[i])));
    identity = identity && perm.back() == int64_t(i);
  }
  return identity ? std::vector<int64_t>{} : perm;
}

// `labels` is read by the GEMM as [batch, rows, cols] (or [batch, cols, rows] transposed), after
// summing its trailing `summed` labels. Copies only if neither order matches.
OperandPlan layout(const std::string& labels, const std::string& batch, const std::string& rows,
                   const std::string& cols, const std::string& summed) {
  OperandPlan p;
  p.summed = int(summed.size());
  const std::string natural = batch + rows + cols + summed;
  if (labels == natural) return p;
  if (labels == batch + cols + rows + summed) {
    p.transposed = true;
    return p;
  }
  p.perm = permFor(labels, natural);
  return p;
}

}  // namespace

std::string Equation::str() const {
  std::string s;
  for (size_t i = 0; i < inputs.size(); ++i) s += (i ? "," : "") + inputs[i];
  return s + "->" + output;
}

Equation parse(const std::string& text, const std::vector<int>& ranks) {
  auto fail = [&](const std::string& why) {
    throw ShapeError("einsum equation '" + text + "': " + why);
  };
  std::string t;
  for (char c : text)
    if (c != ' ') t += c;
  if (t.find("...") != std::string::npos) fail("ellipsis (...) is not supported");
  Equation eq;
  const size_t arrow = t.find("->");
  const std::string lhs = arrow == std::string::npos ? t : t.substr(0, arrow);
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    eq.inputs.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (const auto& in : eq.inputs)
    for (size_t i = 0; i < in.size(); ++i) {
      if (!isLabel(in[i]))
        fail(std::string("'") + in[i] + "' is not a label (labels are letters a-z, A-Z)");
      if (in.find(in[i], i + 1) != std::string::npos)
        fail(std::string("label '") + in[i] + "' repeats within operand '" + in +
             "' (diagonals are not supported)");
    }
  if (eq.inputs.size() > 2)
    fail("einsum supports 1 or 2 operands, got " + std::to_string(eq.inputs.size()));
  if (eq.inputs.size() != ranks.size())
    fail("the equation names " + std::to_string(eq.inputs.size()) + " operand(s), got " +
         std::to_string(ranks.size()));
  for (size_t k = 0; k < ranks.size(); ++k)
    if (int(eq.inputs[k].size()) != ranks[k])
      fail("operand " + std::to_string(k) + " has " + std::to_string(eq.inputs[k].size()) +
           " labels ('" + eq.inputs[k] + "') but rank " + std::to_string(ranks[k]));
  if (arrow == std::string::npos) {
    // NumPy's implicit output: the labels used once, in alphabetical order.
    std::map<char, int> count;
    for (const auto& in : eq.inputs)
      for (char c : in) ++count[c];
    for (auto [c, n] : count)
      if (n == 1) eq.output += c;
  } else {
    eq.output = t.substr(arrow + 2);
    for (size_t i = 0; i < eq.output.size(); ++i) {
      const char c = eq.output[i];
      if (!isLabel(c))
        fail(std::string("'") + c + "' is not a label (labels are letters a-z, A-Z)");
      if (eq.output.find(c, i + 1) != std::string::npos)
        fail(std::string("output label '") + c + "' repeats");
      if (std::none_of(eq.inputs.begin(), eq.inputs.end(),
                       [&](const std::string& in) { return has(in, c); }))
        fail(std::string("output label '") + c + "' is in no operand");
    }
  }
  return eq;
}

std::string Plan::resultLabels() const { return batch + (swap ? freeB + freeA : freeA + freeB); }

Plan planContraction(const Equation& eq) {
  const std::string &A = eq.inputs.at(0), &B = eq.inputs.at(1), &O = eq.output;
  Plan p;
  for (char c : O) {
    if (has(A, c) && has(B, c))
      p.batch += c;
    else if (has(A, c))
      p.freeA += c;
    else
      p.freeB += c;
  }
  for (char c : A)
    if (!has(O, c)) (has(B, c) ? p.contracted : p.sumA) += c;
  for (char c : B)
    if (!has(O, c) && !has(A, c)) p.sumB += c;
  p.a = layout(A, p.batch, p.freeA, p.contracted, p.sumA);
  p.b = layout(B, p.batch, p.contracted, p.freeB, p.sumB);
  if (O != p.batch + p.freeA + p.freeB) {
    if (O == p.batch + p.freeB + p.freeA)
      p.swap = true;
    else
      p.outPerm = permFor(p.resultLabels(), O);
  }
  return p;
}

OperandPlan planUnary(const Equation& eq) {
  const std::string& A = eq.inputs.at(0);
  std::string summed;
  for (char c : A)
    if (!has(eq.output, c)) summed += c;
  OperandPlan p;
  p.summed = int(summed.size());
  p.perm = permFor(A, eq.output + summed);
  return p;
}

}  // namespace gl::einsum
