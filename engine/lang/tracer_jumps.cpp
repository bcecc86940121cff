// `break` and `continue` in a tensor loop (`for i in tf.range(...)`, `while` on a tensor), as
// TF's AutoGraph converts them: the body becomes one tf.while_loop body that always runs to its
// end, so a jump becomes flags.
//   - `_skip_N = False` starts every iteration; `continue` sets it; `break` sets it and
//     `_break_N`, a loop variable (False before the loop) that the loop test ands in:
//     `i < n and not _break_N`.
//   - the statements after one that may jump run under `if not _skip_N:` (a tf.cond when the
//     flag is a tensor), so nothing after a taken jump changes the loop variables.
// Gradients flow through the conds and the loop as through any others.
#include "engine/lang/tracer_autograph.h"

namespace gl::lang::trace {

namespace {

ExprPtr nameExpr(const std::string& id, const SourceLoc& loc) {
  auto e = std::make_shared<Expr>();
  e->node = Expr::Name{id};
  e->loc = loc;
  return e;
}

StmtPtr setFlag(const std::string& id, const SourceLoc& loc) {
  auto value = std::make_shared<Expr>();
  value->node = Expr::BoolLit{true};
  value->loc = loc;
  auto s = std::make_shared<Stmt>();
  s->node = Stmt::Assign{{nameExpr(id, loc)}, value};
  s->loc = loc;
  return s;
}

// A break or continue of this loop (not of a nested one) somewhere in s.
bool mayJump(const Stmt& s) {
  if (s.is<Stmt::Break>() || s.is<Stmt::Continue>()) return true;
  if (auto i = s.as<Stmt::If>()) {
    for (const auto* b : {&i->body, &i->orelse})
      for (const auto& x : *b)
        if (mayJump(*x)) return true;
  }
  if (auto w = s.as<Stmt::With>())
    for (const auto& x : w->body)
      if (mayJump(*x)) return true;
  return false;
}

// A break or continue of this loop inside a try statement somewhere in block.
const Stmt* jumpInTry(const Block& block) {
  for (const auto& sp : block) {
    if (sp->is<Stmt::Try>()) {
      Block one{sp};
      if (const Stmt* j = findJump(one, true); j && !j->is<Stmt::Return>()) return j;
    }
    if (auto i = sp->as<Stmt::If>()) {
      if (const Stmt* j = jumpInTry(i->body)) return j;
      if (const Stmt* j = jumpInTry(i->orelse)) return j;
    }
    if (auto w = sp->as<Stmt::With>())
      if (const Stmt* j = jumpInTry(w->body)) return j;
  }
  return nullptr;
}

struct JumpRewrite {
  std::string skip, brk;
  bool breaks = false;

  Block block(const Block& in, size_t from = 0) {
    Block out;
    for (size_t i = from; i < in.size(); ++i) {
      const Stmt& s = *in[i];
      if (!mayJump(s)) {
        out.push_back(in[i]);
        continue;
      }
      if (s.is<Stmt::Break>() || s.is<Stmt::Continue>()) {
        if (s.is<Stmt::Break>()) {
          breaks = true;
          out.push_back(setFlag(brk, s.loc));
        }
        out.push_back(setFlag(skip, s.loc));
        return out;  // what follows a jump never runs
      }
      auto copy = std::make_shared<Stmt>();
      copy->loc = s.loc;
      if (auto x = s.as<Stmt::If>()) {
        copy->node = Stmt::If{x->test, block(x->body), block(x->orelse)};
      } else {
        const auto& w = *s.as<Stmt::With>();
        copy->node = Stmt::With{w.items, block(w.body)};
      }
      out.push_back(copy);
      Block rest = block(in, i + 1);
      if (!rest.empty()) {
        auto test = std::make_shared<Expr>();
        test->node = Expr::Unary{UnaryOp::Not, nameExpr(skip, s.loc)};
        test->loc = s.loc;
        test->depth = 2;
        auto guard = std::make_shared<Stmt>();
        guard->node = Stmt::If{test, std::move(rest), {}};
        guard->loc = in[i + 1]->loc;
        out.push_back(guard);
      }
      return out;
    }
    return out;
  }
};

}  // namespace

const Block& Tracer::rewriteJumps(const Block& body, std::string& breakFlag) {
  breakFlag.clear();
  // AutoGraph does not convert a jump inside try either; the loop would need the try's
  // handlers around flags, which GradLab does not build.
  if (const Stmt* j = jumpInTry(body))
    fail(j->loc, std::string("'") + jumpWord(*j) +
                     "' inside a try statement is not supported in a loop on a tensor (the loop "
                     "becomes a tf.while_loop); move the try out of the loop or use a Python loop");
  bool any = false;
  for (const auto& s : body) any = any || mayJump(*s);
  if (!any) return body;
  const int n = ++jumpFlags_;
  JumpRewrite r{"_skip_" + std::to_string(n), "_break_" + std::to_string(n)};
  Block out = r.block(body);
  // Every iteration starts without a jump taken.
  auto reset = std::make_shared<Stmt>(*setFlag(r.skip, body.front()->loc));
  auto f = std::make_shared<Expr>();
  f->node = Expr::BoolLit{false};
  f->loc = body.front()->loc;
  reset->node = Stmt::Assign{{nameExpr(r.skip, f->loc)}, f};
  out.insert(out.begin(), reset);
  if (r.breaks) {
    breakFlag = r.brk;
    at(body.front()->loc);
    bind(r.brk, Val::tensor(b_.constant(Tensor::scalar(false, DType::Bool))), body.front()->loc);
  }
  rewritten_.push_back(std::make_unique<Block>(std::move(out)));
  return *rewritten_.back();
}

}  // namespace gl::lang::trace
