// Python's itertools on trace-time values (docs.python.org/3/library/itertools.html): the finite
// ones scripts use to build grids and pairs (product, chain, combinations, permutations,
// accumulate, islice, zip_longest, repeat with a count). Python returns iterators; these return
// lists, which a for loop or list() reads the same way. count() and cycle() never end, and
// repeat() without a count neither: each is a located error rather than a hang.
#include <algorithm>
#include <functional>

#include "engine/lang/tracer_builtins.h"
#include "engine/tensor/limits.h"

namespace gl::lang::trace {

namespace {

// Fails once a result would pass the item limit (products and permutations grow fast).
void checkItemCount(Bound& a, size_t n) {
  if (int64_t(n) > maxPythonItems())
    a.cx.fail(a.callLoc, a.fn + "() would make more than " + std::to_string(maxPythonItems()) +
                             " items" + kRaiseItems);
}

std::vector<std::vector<Val>> pools(Bound& a, int64_t repeat) {
  std::vector<std::vector<Val>> out;
  for (int64_t r = 0; r < repeat; ++r)
    for (const Arg& x : a.rest) out.push_back(pythonItems(a, x.v, x.loc));
  return out;
}

Val tupleOf(std::vector<Val> items) { return Val::listOf(std::move(items), true); }

// r-length selections of items in index order: combinations (increasing indices) or
// permutations (distinct indices), in itertools' lexicographic order.
void choose(Bound& a, const std::vector<Val>& items, size_t r, bool ordered,
            std::vector<size_t>& picked, std::vector<Val>& out) {
  if (picked.size() == r) {
    std::vector<Val> row;
    for (size_t i : picked) row.push_back(items[i]);
    out.push_back(tupleOf(std::move(row)));
    checkItemCount(a, out.size());
    return;
  }
  const size_t from = ordered || picked.empty() ? 0 : picked.back() + 1;
  for (size_t i = from; i < items.size(); ++i) {
    if (ordered && std::find(picked.begin(), picked.end(), i) != picked.end()) continue;
    picked.push_back(i);
    choose(a, items, r, ordered, picked, out);
    picked.pop_back();
  }
}

Val selections(Bound& a, bool ordered) {
  const std::vector<Val> items = pythonItems(a, a["iterable"], a.loc("iterable"));
  const int64_t r = a.none("r") ? int64_t(items.size()) : a.integer("r");
  if (r < 0) a.fail("r", "must be non-negative");
  std::vector<Val> out;
  std::vector<size_t> picked;
  if (size_t(r) <= items.size()) choose(a, items, size_t(r), ordered, picked, out);
  return Val::listOf(std::move(out));
}

[[noreturn]] void endless(Bound& a, const std::string& name) {
  a.cx.fail(a.callLoc, "itertools." + name +
                           "() never ends, and GradLab makes an iterator's items while "
                           "tracing; use range() or a count");
}

}  // namespace

void addItertoolsBuiltins(BuiltinTable& t) {
  const std::string m = "py.itertools.";
  t[m + "product"] = {Signature::parse("*iterables, repeat=1"), [](Bound& a) {
                        const int64_t repeat = a.integer("repeat");
                        if (repeat < 0) a.fail("repeat", "must be non-negative");
                        std::vector<Val> out{tupleOf({})};
                        for (const auto& pool : pools(a, repeat)) {
                          std::vector<Val> next;
                          checkItemCount(a, out.size() * pool.size());
                          for (const Val& prefix : out)
                            for (const Val& x : pool) {
                              std::vector<Val> row = prefix.items();
                              row.push_back(x);
                              next.push_back(tupleOf(std::move(row)));
                            }
                          out = std::move(next);
                        }
                        return Val::listOf(std::move(out));
                      }};
  t[m + "chain"] = {Signature::parse("*iterables"), [](Bound& a) {
                      std::vector<Val> out;
                      for (const auto& pool : pools(a, 1)) {
                        out.insert(out.end(), pool.begin(), pool.end());
                        checkItemCount(a, out.size());
                      }
                      return Val::listOf(std::move(out));
                    }};
  t[m + "combinations"] = {Signature::parse("iterable, r"),
                           [](Bound& a) { return selections(a, false); }};
  t[m + "permutations"] = {Signature::parse("iterable, r=None"),
                           [](Bound& a) { return selections(a, true); }};
  // accumulate(xs, func=operator.add, initial=None): running results, initial first.
  t[m + "accumulate"] = {Signature::parse("iterable, func=None, initial=None"), [](Bound& a) {
                           std::vector<Val> out;
                           std::optional<Val> acc;
                           if (!a.none("initial")) {
                             acc = a["initial"];
                             out.push_back(*acc);
                           }
                           for (const Val& x : pythonItems(a, a["iterable"], a.loc("iterable"))) {
                             if (!acc)
                               acc = x;
                             else if (a.none("func"))
                               acc = a.cx.binary(BinaryOp::Add, *acc, x, a.callLoc);
                             else
                               acc = a.cx.callSimple(a["func"], {*acc, x}, a.loc("func"), "func");
                             out.push_back(*acc);
                           }
                           return Val::listOf(std::move(out));
                         }};
  // islice(iterable, stop) or islice(iterable, start, stop[, step]).
  t[m + "islice"] = {Signature::parse("iterable, *args"), [](Bound& a) {
                       const std::vector<Val> items =
                           pythonItems(a, a["iterable"], a.loc("iterable"));
                       if (a.rest.empty() || a.rest.size() > 3)
                         a.cx.fail(a.callLoc, "islice() takes 2 to 4 arguments");
                       auto bound = [&](size_t k, int64_t none) {
                         const Val& v = a.rest[k].v;
                         if (v.isNone()) return none;
                         if (v.kind() != Kind::Int || v.asInt() < 0)
                           a.cx.fail(a.rest[k].loc,
                                     "islice() indices must be None or "
                                     "non-negative ints");
                         return v.asInt();
                       };
                       const int64_t n = int64_t(items.size());
                       const int64_t start = a.rest.size() == 1 ? 0 : bound(0, 0);
                       const int64_t stop = bound(a.rest.size() == 1 ? 0 : 1, n);
                       const int64_t step = a.rest.size() == 3 ? bound(2, 1) : 1;
                       if (step < 1) a.cx.fail(a.rest[2].loc, "islice() step must be positive");
                       std::vector<Val> out;
                       for (int64_t i = start; i < std::min(stop, n); i += step)
                         out.push_back(items[size_t(i)]);
                       return Val::listOf(std::move(out));
                     }};
  t[m + "zip_longest"] = {Signature::parse("*iterables, fillvalue=None"), [](Bound& a) {
                            const auto cols = pools(a, 1);
                            size_t n = 0;
                            for (const auto& c : cols) n = std::max(n, c.size());
                            std::vector<Val> out;
                            for (size_t i = 0; i < n; ++i) {
                              std::vector<Val> row;
                              for (const auto& c : cols)
                                row.push_back(i < c.size() ? c[i] : a["fillvalue"]);
                              out.push_back(tupleOf(std::move(row)));
                            }
                            return Val::listOf(std::move(out));
                          }};
  t[m + "repeat"] = {Signature::parse("object, times=None"), [](Bound& a) {
                       if (a.none("times")) endless(a, "repeat");
                       const int64_t n = std::max<int64_t>(0, a.integer("times"));
                       checkItemCount(a, size_t(n));
                       return Val::listOf(std::vector<Val>(size_t(n), a["object"]));
                     }};
  t[m + "count"] = {Signature::parse("start=0, step=1"), [](Bound& a) -> Val {
                      (void)a["start"];
                      (void)a["step"];
                      endless(a, "count");
                    }};
  t[m + "cycle"] = {Signature::parse("iterable"), [](Bound& a) -> Val {
                      (void)a["iterable"];
                      endless(a, "cycle");
                    }};
}

}  // namespace gl::lang::trace
