#include "engine/lang/parser.h"

#include <algorithm>
#include <optional>
#include <set>

#include "engine/lang/lexer.h"
#include "engine/tensor/diagnostic.h"

namespace gl::lang {
namespace {

// Recursion guards. Brackets are already capped by the lexer; these catch chains that need no
// brackets (`- - - x`, `not not x`, `lambda: lambda: x`, `a if b else c if d else ...`).
constexpr int kMaxNesting = 500;
constexpr int kMaxStmtDepth = 200;  // nested blocks plus elif chains

template <class Table>
auto find(const Table& table, Tok k) -> decltype(&table[0]) {
  for (const auto& row : table)
    if (row.tok == k) return &row;
  return nullptr;
}

struct OpTok {
  Tok tok;
  BinaryOp op;
  int prec;  // binding power among | ^ & shifts + * (higher binds tighter)
};

// clang-format off
constexpr OpTok kBinaryOps[] = {
    {Tok::Pipe, BinaryOp::BitOr, 1}, {Tok::Caret, BinaryOp::BitXor, 2},
    {Tok::Amp, BinaryOp::BitAnd, 3}, {Tok::LShift, BinaryOp::LShift, 4},
    {Tok::RShift, BinaryOp::RShift, 4}, {Tok::Plus, BinaryOp::Add, 5},
    {Tok::Minus, BinaryOp::Sub, 5}, {Tok::Star, BinaryOp::Mul, 6}, {Tok::Slash, BinaryOp::Div, 6},
    {Tok::DoubleSlash, BinaryOp::FloorDiv, 6}, {Tok::Percent, BinaryOp::Mod, 6},
    {Tok::At, BinaryOp::MatMul, 6},
};

constexpr OpTok kAugmentedOps[] = {
    {Tok::PlusEq, BinaryOp::Add, 0}, {Tok::MinusEq, BinaryOp::Sub, 0},
    {Tok::StarEq, BinaryOp::Mul, 0}, {Tok::SlashEq, BinaryOp::Div, 0},
    {Tok::DoubleSlashEq, BinaryOp::FloorDiv, 0}, {Tok::PercentEq, BinaryOp::Mod, 0},
    {Tok::AtEq, BinaryOp::MatMul, 0}, {Tok::DoubleStarEq, BinaryOp::Pow, 0},
    {Tok::PipeEq, BinaryOp::BitOr, 0}, {Tok::CaretEq, BinaryOp::BitXor, 0},
    {Tok::AmpEq, BinaryOp::BitAnd, 0}, {Tok::LShiftEq, BinaryOp::LShift, 0},
    {Tok::RShiftEq, BinaryOp::RShift, 0},
};

// Tokens that can begin an expression (Reserved and '{' too, so their error names them).
constexpr Tok kExpressionStarts[] = {
    Tok::Name, Tok::Int, Tok::Float, Tok::String, Tok::LParen, Tok::LBracket, Tok::LBrace,
    Tok::Minus, Tok::Plus, Tok::Tilde, Tok::KwNot, Tok::KwLambda, Tok::KwTrue, Tok::KwFalse,
    Tok::KwNone, Tok::Ellipsis, Tok::Reserved,
};
// clang-format on

bool startsExpression(Tok k) {
  if (k == Tok::FString) return true;
  return std::find(std::begin(kExpressionStarts), std::end(kExpressionStarts), k) !=
         std::end(kExpressionStarts);
}

bool isOpener(Tok k) { return k == Tok::LParen || k == Tok::LBracket || k == Tok::LBrace; }
bool isCloser(Tok k) { return k == Tok::RParen || k == Tok::RBracket || k == Tok::RBrace; }

// What an invalid assignment target is, for "cannot assign to ...".
std::string targetKind(const Expr& e) {
  if (e.is<Expr::Call>()) return "a function call";
  if (const auto* b = e.as<Expr::BoolLit>()) return b->value ? "True" : "False";
  if (e.is<Expr::NoneLit>()) return "None";
  if (e.is<Expr::IntLit>() || e.is<Expr::FloatLit>() || e.is<Expr::StrLit>() ||
      e.is<Expr::EllipsisLit>())
    return "a literal";
  if (e.is<Expr::Compare>()) return "a comparison";
  if (e.is<Expr::IfExp>()) return "a conditional expression";
  if (e.is<Expr::Lambda>()) return "a lambda";
  if (auto c = e.as<Expr::ListComp>())
    return c->key ? "a dict comprehension" : "a list comprehension";
  return "an expression";
}

class Parser {
 public:
  Parser(const std::string& source, const std::string& file)
      : toks_(tokenize(source)), file_(file) {}
  Parser(std::vector<Token> toks, const std::string& file) : toks_(std::move(toks)), file_(file) {}

  Module parseModule() {
    Module m;
    m.file = file_;
    while (!at(Tok::End)) parseStatement(m.body);
    return m;
  }

 private:
  // ---- tokens ----------------------------------------------------------------------------

  // The current token. Reaching the lexer's Error token is where its error is reported.
  const Token& peek() const {
    const Token& t = toks_[pos_];
    if (t.kind == Tok::Error) throw EngineError(t.text, loc(t));
    return t;
  }
  const Token& peekAhead(std::size_t k) const {
    return toks_[std::min(pos_ + k, toks_.size() - 1)];
  }
  bool at(Tok k) const { return peek().kind == k; }
  const Token& advance() {
    const Token& t = peek();
    if (pos_ + 1 < toks_.size()) ++pos_;  // End is sticky
    return t;
  }
  bool accept(Tok k) {
    if (!at(k)) return false;
    advance();
    return true;
  }
  const Token& expect(Tok k, const std::string& message) {
    if (!at(k)) fail(peek(), message);
    return advance();
  }

  SourceLoc loc(const Token& t) const { return SourceLoc{file_, t.line, t.col}; }
  [[noreturn]] void fail(const Token& t, const std::string& message, Diagnostic diag = {}) const {
    throw EngineError(diagnosed(message, std::move(diag)), loc(t));
  }
  // A token as diagnostic arguments: its class (tokenClass) and its text.
  static std::vector<std::string> tokenArgs(const Token& t) {
    return {tokenClass(t), t.kind == Tok::Name || t.kind == Tok::Int || t.kind == Tok::Float ||
                                   t.kind == Tok::Reserved
                               ? t.text
                               : std::string(spelling(t.kind))};
  }
  [[noreturn]] void fail(const SourceLoc& l, const std::string& message) const {
    throw EngineError(message, l);
  }

  // Consumes the closer of the bracket at toks_[openIdx], or explains why it is missing.
  void expectClose(std::size_t openIdx, Tok closer, const char* message) {
    if (accept(closer)) return;
    const Token& open = toks_[openIdx];
    const Token& t = peek();
    if (isCloser(t.kind))
      fail(t, "closing '" + t.text + "' does not match opening '" + open.text + "'");
    int depth = 0;  // does this bracket close anywhere? If not, say so where it opened.
    for (std::size_t i = openIdx; i < toks_.size(); ++i) {
      if (isOpener(toks_[i].kind)) ++depth;
      if (isCloser(toks_[i].kind) && --depth == 0) fail(t, message);
    }
    fail(open, "'" + open.text + "' was never closed", {DiagCode::NeverClosed, {}, {open.text}});
  }

  struct NestGuard {
    NestGuard(Parser& p, const Token& t) : p(p) {
      if (++p.nesting_ > kMaxNesting) p.fail(t, "expression is nested too deeply");
    }
    ~NestGuard() { --p.nesting_; }
    Parser& p;
  };

  ExprPtr make(const SourceLoc& l, Expr::Node node) const {
    auto e = std::make_shared<Expr>();
    e->node = std::move(node);
    e->loc = l;
    int depth = 0;
    forEachChild(*e, [&](const Expr& c) { depth = std::max(depth, c.depth); });
    e->depth = depth + 1;
    if (e->depth > kMaxExprDepth) fail(l, "expression is nested too deeply");
    return e;
  }

  static StmtPtr stmt(const SourceLoc& l, Stmt::Node node) {
    auto s = std::make_shared<Stmt>();
    s->node = std::move(node);
    s->loc = l;
    return s;
  }

  // ---- statements --------------------------------------------------------------------------

  void parseStatement(Block& out) {
    const Token& t = peek();
    switch (t.kind) {
      case Tok::KwIf:
        out.push_back(parseIf());
        return;
      case Tok::KwWhile:
        out.push_back(parseWhile());
        return;
      case Tok::KwFor:
        out.push_back(parseFor());
        return;
      case Tok::KwDef:
        out.push_back(parseDef());
        return;
      case Tok::At:
        out.push_back(parseDecorated());
        return;
      case Tok::Reserved:
        if (t.text == "class") {
          out.push_back(parseClass());
          return;
        }
        if (t.text == "try") {
          out.push_back(parseTry());
          return;
        }
        if (t.text == "except" || t.text == "finally")
          fail(t, "'" + t.text + "' without a matching 'try'");
        parseSimpleLine(out);  // the expression parser names the other reserved words
        return;
      case Tok::KwWith:
        out.push_back(parseWith());
        return;
      case Tok::KwElif:
      case Tok::KwElse:
        fail(t, "'" + t.text + "' without a matching 'if'");
      case Tok::Indent:
        fail(t, "unexpected indent");
      case Tok::Newline:
        advance();
        return;  // a logical line holding only a continuation
      default:
        parseSimpleLine(out);
    }
  }

  // simple_stmt (';' simple_stmt)* [';'] NEWLINE
  void parseSimpleLine(Block& out) {
    do {
      out.push_back(parseSimple());
    } while (accept(Tok::Semicolon) && !at(Tok::Newline));
    if (!at(Tok::Newline))
      fail(peek(), "unexpected " + describe(peek()),
           {DiagCode::UnexpectedToken, {}, tokenArgs(peek())});
    advance();
  }

  StmtPtr parseSimple() {
    const Token& t = peek();
    const SourceLoc l = loc(t);
    switch (t.kind) {
      case Tok::KwPass:
        advance();
        return stmt(l, Stmt::Pass{});
      case Tok::KwBreak:
        if (loopDepth_ == 0) fail(t, "'break' outside a loop");
        advance();
        return stmt(l, Stmt::Break{});
      case Tok::KwContinue:
        if (loopDepth_ == 0) fail(t, "'continue' outside a loop");
        advance();
        return stmt(l, Stmt::Continue{});
      case Tok::KwImport:
        return parseImport();
      case Tok::KwFrom:
        return parseFromImport();
      case Tok::KwDel: {
        advance();
        std::vector<ExprPtr> targets;
        do {
          if (at(Tok::Newline) || at(Tok::Semicolon)) break;
          ExprPtr x = parseBinary(1);
          if (!x->is<Expr::Name>() && !x->is<Expr::Subscript>() && !x->is<Expr::Attribute>())
            fail(x->loc, "invalid syntax: cannot delete " + targetKind(*x));
          targets.push_back(x);
        } while (accept(Tok::Comma));
        if (targets.empty()) fail(peek(), "expected a name after 'del'");
        return stmt(l, Stmt::Delete{std::move(targets)});
      }
      case Tok::Reserved:
        if (t.text == "global" || t.text == "nonlocal") {
          const bool nonlocal = t.text == "nonlocal";
          if (nonlocal && funcDepth_ == 0)
            fail(t, "nonlocal declaration not allowed at module level");
          advance();
          Stmt::Global g;
          g.nonlocal = nonlocal;
          do {
            g.names.push_back(expect(Tok::Name, "expected a name after '" + t.text + "'").text);
          } while (accept(Tok::Comma));
          return stmt(l, std::move(g));
        }
        if (t.text == "raise") return parseRaise();
        return parseExprStatement();
      case Tok::KwAssert: {
        advance();
        ExprPtr test = parseTest();
        ExprPtr msg;
        if (accept(Tok::Comma)) msg = parseTest();
        return stmt(l, Stmt::Assert{test, msg});
      }
      case Tok::KwReturn: {
        if (funcDepth_ == 0) fail(t, "'return' outside a function");
        advance();
        ExprPtr value;
        if (!at(Tok::Newline) && !at(Tok::Semicolon)) value = parseTestList();
        return stmt(l, Stmt::Return{value});
      }
      case Tok::Name:
        if (t.text == "param" && peekAhead(1).kind == Tok::Name) return parseParamDecl();
        return parseExprStatement();
      default:
        return parseExprStatement();
    }
  }

  // A dotted module name: a.b.c
  std::string parseDottedName(const char* message) {
    std::string name = expect(Tok::Name, message).text;
    while (accept(Tok::Dot)) name += "." + expect(Tok::Name, "expected a name after '.'").text;
    return name;
  }

  // import a.b [as c], d
  StmtPtr parseImport() {
    const Token& kw = advance();
    Stmt::Import imp;
    do {
      Stmt::Alias a;
      a.loc = loc(peek());
      a.name = parseDottedName("expected a module name after 'import'");
      if (accept(Tok::KwAs)) a.asName = expect(Tok::Name, "expected a name after 'as'").text;
      imp.names.push_back(std::move(a));
    } while (accept(Tok::Comma));
    return stmt(loc(kw), std::move(imp));
  }

  // from a.b import c [as d], e | from a import (c, d) | from a import *
  StmtPtr parseFromImport() {
    const Token& kw = advance();
    Stmt::ImportFrom imp;
    imp.moduleLoc = loc(peek());
    if (at(Tok::Dot) || at(Tok::Ellipsis))
      fail(peek(), "relative imports ('from . import ...') are not supported in GradLab script");
    imp.module = parseDottedName("expected a module name after 'from'");
    expect(Tok::KwImport, "expected 'import' after the module name");
    if (accept(Tok::Star)) {
      imp.star = true;
      return stmt(loc(kw), std::move(imp));
    }
    const std::size_t openIdx = pos_;
    const bool paren = accept(Tok::LParen);
    do {
      if (paren && at(Tok::RParen)) break;
      Stmt::Alias a;
      const Token& name = expect(Tok::Name, "expected a name to import");
      a.name = name.text;
      a.loc = loc(name);
      if (accept(Tok::KwAs)) a.asName = expect(Tok::Name, "expected a name after 'as'").text;
      imp.names.push_back(std::move(a));
    } while (accept(Tok::Comma));
    if (paren) expectClose(openIdx, Tok::RParen, "expected ',' or ')' after an imported name");
    return stmt(loc(kw), std::move(imp));
  }

  StmtPtr parseExprStatement() {
    ExprPtr first = parseTestList();
    if (const OpTok* aug = find(kAugmentedOps, peek().kind)) {
      checkAugTarget(*first);
      advance();
      ExprPtr value = parseTestList();
      return stmt(first->loc, Stmt::AugAssign{first, aug->op, value});
    }
    if (!at(Tok::Assign)) return stmt(first->loc, Stmt::ExprStmt{first});
    std::vector<ExprPtr> targets;
    ExprPtr last = first;
    while (at(Tok::Assign)) {  // a = b = value
      checkTarget(*last);
      targets.push_back(last);
      advance();
      last = parseTestList();
    }
    return stmt(first->loc, Stmt::Assign{std::move(targets), last});
  }

  void checkTarget(const Expr& e) const {
    if (e.is<Expr::Name>() || e.is<Expr::Attribute>() || e.is<Expr::Subscript>()) return;
    const std::vector<ExprPtr>* elts = nullptr;
    if (const auto* t = e.as<Expr::Tuple>()) elts = &t->elts;
    if (const auto* l = e.as<Expr::List>()) elts = &l->elts;
    if (!elts) fail(e.loc, "invalid syntax: cannot assign to " + targetKind(e));
    for (const ExprPtr& x : *elts) checkTarget(*x);
  }

  void checkAugTarget(const Expr& e) const {
    if (e.is<Expr::Tuple>() || e.is<Expr::List>())
      fail(e.loc,
           std::string("invalid syntax: augmented assignment needs a single target, not a ") +
               (e.is<Expr::Tuple>() ? "tuple" : "list"));
    checkTarget(e);
  }

  // param NAME = NUMBER in NUMBER..NUMBER [class NUMBER]
  StmtPtr parseParamDecl() {
    const Token& kw = advance();
    if (funcDepth_ > 0 || stmtDepth_ > 0)
      fail(kw, "'param' declarations must be at the top level of the script");
    const Token& name = advance();
    if (!params_.insert(name.text).second)
      fail(name, "param '" + name.text + "' is declared twice");
    expect(Tok::Assign, "expected '=' after the param name");
    std::string valueText, loText, hiText;
    Stmt::ParamDecl d;
    d.name = name.text;
    d.value = parseNumber("expected a number after '='", valueText);
    expect(Tok::KwIn,
           "expected 'in' and a range after the param value, as in 'param n = 5 in 1..10'");
    d.lo = parseNumber("expected a number for the lower bound of the param range", loText);
    expect(Tok::DotDot, "expected '..' between the bounds of the param range");
    d.hi = parseNumber("expected a number for the upper bound of the param range", hiText);
    if (d.lo.value > d.hi.value) fail(d.lo.loc, "empty param range " + loText + ".." + hiText);
    if (d.value.value < d.lo.value || d.value.value > d.hi.value)
      fail(d.value.loc, "param '" + d.name + "' = " + valueText + " is outside its range " +
                            loText + ".." + hiText);
    // `class` is a reserved word of Python, so it cannot clash with a name here.
    if (at(Tok::Reserved) && peek().text == "class") {
      advance();
      std::string classText;
      d.classroom = parseNumber("expected a number after 'class'", classText);
      if (d.classroom->value < d.lo.value || d.classroom->value > d.hi.value)
        fail(d.classroom->loc, "param '" + d.name + "' class " + classText +
                                   " is outside its range " + loText + ".." + hiText);
    }
    return stmt(loc(kw), std::move(d));
  }

  Number parseNumber(const char* message, std::string& text) {
    Number n;
    n.loc = loc(peek());
    double sign = 1;
    text.clear();
    if (at(Tok::Minus) || at(Tok::Plus)) {
      sign = at(Tok::Minus) ? -1 : 1;
      text = advance().text;
    }
    const Token& t = peek();
    if (t.kind != Tok::Int && t.kind != Tok::Float) fail(t, message);
    n.isInt = t.kind == Tok::Int;
    n.value = sign * (n.isInt ? double(t.intValue) : t.floatValue);
    text += t.text;
    advance();
    return n;
  }

  // A block after ':' — an indented suite, or simple statements on the same line.
  Block parseBlock(const char* after) {
    const Token& start = peek();
    if (++stmtDepth_ > kMaxStmtDepth) fail(start, "too many nested blocks");
    Block body;
    if (!at(Tok::Newline)) {
      parseSimpleLine(body);
    } else {
      advance();
      if (!at(Tok::Indent))
        fail(peek(), std::string("expected an indented block after ") + after,
             {DiagCode::ExpectedIndentedBlock, {}, {after}});
      advance();
      while (!at(Tok::Dedent) && !at(Tok::End)) parseStatement(body);
      accept(Tok::Dedent);
    }
    --stmtDepth_;
    return body;
  }

  StmtPtr parseIf() {
    // The elif chain is read in a loop and folded into nested Ifs from the back.
    struct Branch {
      SourceLoc loc;
      ExprPtr test;
      Block body;
    };
    std::vector<Branch> branches;
    const int depthBefore = stmtDepth_;
    do {
      const Token& kw = advance();
      const bool isIf = kw.kind == Tok::KwIf;
      if (!isIf && ++stmtDepth_ >= kMaxStmtDepth) fail(kw, "too many 'elif' branches");
      ExprPtr test = parseTest();
      expect(Tok::Colon, isIf ? "expected ':' after the if condition"
                              : "expected ':' after the elif condition");
      branches.push_back({loc(kw), test, parseBlock(isIf ? "'if'" : "'elif'")});
    } while (at(Tok::KwElif));
    Block orelse;
    if (accept(Tok::KwElse)) {
      expect(Tok::Colon, "expected ':' after 'else'");
      orelse = parseBlock("'else'");
    }
    stmtDepth_ = depthBefore;
    for (auto it = branches.rbegin(); it != branches.rend(); ++it)
      orelse = {stmt(it->loc, Stmt::If{it->test, std::move(it->body), std::move(orelse)})};
    return orelse.front();
  }

  Block parseLoopBody(const char* after) {
    ++loopDepth_;
    Block body = parseBlock(after);
    --loopDepth_;
    if (at(Tok::KwElse)) fail(peek(), "'else' after a loop is not supported in GradLab script");
    return body;
  }

  StmtPtr parseWhile() {
    const Token& kw = advance();
    ExprPtr test = parseTest();
    expect(Tok::Colon, "expected ':' after the while condition");
    return stmt(loc(kw), Stmt::While{test, parseLoopBody("'while'")});
  }

  StmtPtr parseFor() {
    const Token& kw = advance();
    ExprPtr target = parseTargetList();
    checkTarget(*target);
    expect(Tok::KwIn, "expected 'in' after the for loop variable");
    ExprPtr iter = parseTestList();
    expect(Tok::Colon, "expected ':' after the for loop's iterable");
    return stmt(loc(kw), Stmt::For{target, iter, parseLoopBody("'for'")});
  }

  // @decorator lines, then the def they apply to.
  StmtPtr parseDecorated() {
    std::vector<ExprPtr> decorators;
    while (accept(Tok::At)) {
      decorators.push_back(parseTest());
      expect(Tok::Newline, "expected the end of the line after a decorator");
    }
    if (at(Tok::Reserved) && peek().text == "class")
      fail(peek(),
           "class decorators are not supported in GradLab script; decorate methods "
           "with @property, @staticmethod or @classmethod only");
    if (!at(Tok::KwDef)) fail(peek(), "expected 'def' after a decorator");
    return parseDef(std::move(decorators));
  }

  StmtPtr parseDef(std::vector<ExprPtr> decorators = {}) {
    const Token& kw = advance();
    const Token& name = expect(Tok::Name, "expected a function name after 'def'");
    const std::size_t openIdx = pos_;
    expect(Tok::LParen, "expected '(' after the function name");
    std::vector<Parameter> params = parseParams(Tok::RParen);
    expectClose(openIdx, Tok::RParen, "expected ',' or ')' after a parameter");
    expect(Tok::Colon, "expected ':' after the parameter list");
    // A def starts a new scope for return/break: its body is not inside the enclosing loop.
    const int loops = loopDepth_;
    loopDepth_ = 0;
    ++funcDepth_;
    Block body = parseBlock("'def'");
    --funcDepth_;
    loopDepth_ = loops;
    return stmt(loc(kw),
                Stmt::Def{name.text, std::move(params), std::move(body), std::move(decorators)});
  }

  // `class Name:` / `class Name(bases, keywords):`; the tracer says which bases it supports.
  StmtPtr parseClass() {
    const Token& kw = advance();
    const Token& name = expect(Tok::Name, "expected a class name after 'class'");
    ExprPtr header = make(loc(name), Expr::Name{name.text});
    if (at(Tok::LParen)) header = parseCall(header);
    expect(Tok::Colon, "expected ':' after the class header");
    // A class body is no loop or function: return/break/continue in it are errors.
    const int loops = loopDepth_, funcs = funcDepth_;
    loopDepth_ = 0;
    funcDepth_ = 0;
    Block body = parseBlock("'class'");
    loopDepth_ = loops;
    funcDepth_ = funcs;
    return stmt(loc(kw), Stmt::ClassDef{name.text, std::move(header), std::move(body)});
  }

  // try: ... (except [test [as NAME]]: ...)* [else: ...] [finally: ...], as Python's grammar:
  // at least one except or a finally; else only after an except; a bare except comes last.
  StmtPtr parseTry() {
    const Token& kw = advance();
    expect(Tok::Colon, "expected ':' after 'try'");
    Stmt::Try node;
    node.body = parseBlock("'try'");
    const Token* bare = nullptr;
    while (at(Tok::Reserved) && peek().text == "except") {
      const Token& ex = advance();
      if (bare) fail(*bare, "default 'except:' must be last");
      if (at(Tok::Star))
        fail(peek(), "'except*' (exception groups) is not supported in GradLab script");
      Stmt::ExceptHandler h;
      h.loc = loc(ex);
      if (at(Tok::Colon)) {
        bare = &ex;
      } else {
        h.type = parseTest();
        if (at(Tok::Comma))
          fail(peek(), "multiple exception types must be parenthesized: except (A, B):");
        if (accept(Tok::KwAs)) h.name = expect(Tok::Name, "expected a name after 'as'").text;
      }
      expect(Tok::Colon, "expected ':' after the except clause");
      h.body = parseBlock("'except'");
      node.handlers.push_back(std::move(h));
    }
    if (at(Tok::KwElse)) {
      if (node.handlers.empty()) fail(peek(), "'else' after 'try' needs an 'except' clause first");
      advance();
      expect(Tok::Colon, "expected ':' after 'else'");
      node.orelse = parseBlock("'else'");
    }
    if (at(Tok::Reserved) && peek().text == "finally") {
      advance();
      expect(Tok::Colon, "expected ':' after 'finally'");
      node.finalbody = parseBlock("'finally'");
    }
    if (node.handlers.empty() && node.finalbody.empty())
      fail(peek(), "expected 'except' or 'finally' after the 'try' block");
    return stmt(loc(kw), std::move(node));
  }

  // raise [exc [from cause]]
  StmtPtr parseRaise() {
    const Token& kw = advance();
    Stmt::Raise r;
    if (!at(Tok::Newline) && !at(Tok::Semicolon)) {
      r.exc = parseTest();
      if (accept(Tok::KwFrom)) r.cause = parseTest();
    }
    return stmt(loc(kw), std::move(r));
  }

  StmtPtr parseWith() {
    const Token& kw = advance();
    std::vector<Stmt::WithItem> items;
    do {
      Stmt::WithItem item;
      item.context = parseTest();
      if (accept(Tok::KwAs)) {
        const Token& as = expect(Tok::Name, "expected a name after 'as'");
        item.asName = as.text;
        item.asLoc = loc(as);
      }
      items.push_back(std::move(item));
    } while (accept(Tok::Comma));
    expect(Tok::Colon, "expected ':' after the with item");
    return stmt(loc(kw), Stmt::With{std::move(items), parseBlock("'with'")});
  }

  // Parameters of a def (up to ')') or a lambda (up to ':'); the caller consumes the closer.
  // As in Python: [a, b=1,] [*args | *,] [k, k2=2,] [**kwargs].
  std::vector<Parameter> parseParams(Tok closer) {
    std::vector<Parameter> params;
    bool seenDefault = false, seenStar = false, seenKw = false;
    const Token* bareStar = nullptr;
    while (!at(closer)) {
      const Token& t = peek();
      if (seenKw) fail(t, "parameters cannot follow '**" + params.back().name + "'");
      ParamKind kind = seenStar ? ParamKind::KwOnly : ParamKind::Normal;
      if (t.kind == Tok::Star || t.kind == Tok::DoubleStar) {
        if (t.kind == Tok::Star && seenStar) fail(t, "'*' may appear only once among parameters");
        kind = t.kind == Tok::Star ? ParamKind::VarArgs : ParamKind::VarKw;
        advance();
        if (kind == ParamKind::VarArgs) seenStar = true;
        if (kind == ParamKind::VarKw) seenKw = true;
        if (kind == ParamKind::VarArgs && (at(Tok::Comma) || at(closer))) {
          bareStar = &t;  // a bare `*`: keyword-only parameters follow
          if (!accept(Tok::Comma)) break;
          continue;
        }
      }
      const Token& n = peek();
      if (n.kind != Tok::Name)
        fail(n, closer == Tok::Colon ? "expected a parameter name or ':'"
                                     : "expected a parameter name or ')'");
      advance();
      for (const Parameter& p : params)
        if (p.name == n.text) fail(n, "duplicate parameter '" + n.text + "'");
      Parameter p{n.text, nullptr, loc(n), kind};
      if (kind == ParamKind::KwOnly) bareStar = nullptr;
      if (accept(Tok::Assign)) {
        if (kind == ParamKind::VarArgs || kind == ParamKind::VarKw)
          fail(n, "'" + std::string(kind == ParamKind::VarArgs ? "*" : "**") + n.text +
                      "' cannot have a default value");
        p.defaultValue = parseTest();
        if (kind == ParamKind::Normal) seenDefault = true;
      } else if (seenDefault && kind == ParamKind::Normal) {
        fail(n, "parameter '" + n.text + "' without a default follows a parameter with a default");
      }
      params.push_back(std::move(p));
      if (!accept(Tok::Comma)) break;
    }
    if (bareStar) fail(*bareStar, "named parameters must follow a bare '*'");
    return params;
  }

  // ---- expressions, loosest first -----------------------------------------------------------

  // test (',' test)* [',']: a Tuple when there is a comma.
  ExprPtr parseTestList() {
    ExprPtr first = parseTest();
    if (!at(Tok::Comma)) return first;
    std::vector<ExprPtr> elts{first};
    while (accept(Tok::Comma) && startsExpression(peek().kind)) elts.push_back(parseTest());
    return make(first->loc, Expr::Tuple{std::move(elts)});
  }

  // Loop variables of for/comprehensions: stop before 'in', so no comparisons here.
  ExprPtr parseTargetList() {
    ExprPtr first = parseBinary(1);
    if (!at(Tok::Comma)) return first;
    std::vector<ExprPtr> elts{first};
    while (accept(Tok::Comma) && startsExpression(peek().kind)) elts.push_back(parseBinary(1));
    return make(first->loc, Expr::Tuple{std::move(elts)});
  }

  // lambda | or_test ['if' or_test 'else' test]
  ExprPtr parseTest() {
    NestGuard guard(*this, peek());
    if (at(Tok::KwLambda)) return parseLambda();
    ExprPtr body = parseOr();
    if (!accept(Tok::KwIf)) return body;
    ExprPtr test = parseOr();
    expect(Tok::KwElse, "expected 'else' after the condition of a conditional expression");
    ExprPtr orelse = parseTest();
    return make(body->loc, Expr::IfExp{test, body, orelse});
  }

  ExprPtr parseLambda() {
    const Token& kw = advance();
    std::vector<Parameter> params = parseParams(Tok::Colon);
    expect(Tok::Colon, "expected ':' after the lambda parameters");
    ExprPtr body = parseTest();
    return make(loc(kw), Expr::Lambda{std::move(params), body});
  }

  ExprPtr parseOr() { return parseBoolOp(Tok::KwOr, BoolOpKind::Or); }
  ExprPtr parseAnd() { return parseBoolOp(Tok::KwAnd, BoolOpKind::And); }

  ExprPtr parseBoolOp(Tok keyword, BoolOpKind kind) {
    auto operand = [&] { return kind == BoolOpKind::Or ? parseAnd() : parseNot(); };
    ExprPtr first = operand();
    if (!at(keyword)) return first;
    std::vector<ExprPtr> values{first};
    while (accept(keyword)) values.push_back(operand());
    return make(first->loc, Expr::BoolOp{kind, std::move(values)});
  }

  ExprPtr parseNot() {
    if (!at(Tok::KwNot)) return parseComparison();
    const Token& kw = advance();
    NestGuard guard(*this, kw);
    ExprPtr operand = parseNot();
    return make(loc(kw), Expr::Unary{UnaryOp::Not, operand});
  }

  // Consumes a comparison operator (one or two tokens) if there is one.
  std::optional<CmpOp> comparisonOp() {
    struct CmpTok {
      Tok tok;
      CmpOp op;
    };
    static constexpr CmpTok kSingle[] = {{Tok::Lt, CmpOp::Lt},   {Tok::Le, CmpOp::Le},
                                         {Tok::Gt, CmpOp::Gt},   {Tok::Ge, CmpOp::Ge},
                                         {Tok::EqEq, CmpOp::Eq}, {Tok::NotEq, CmpOp::NotEq},
                                         {Tok::KwIn, CmpOp::In}};
    if (const CmpTok* c = find(kSingle, peek().kind)) {
      advance();
      return c->op;
    }
    if (accept(Tok::KwIs)) return accept(Tok::KwNot) ? CmpOp::IsNot : CmpOp::Is;
    if (at(Tok::KwNot) && peekAhead(1).kind == Tok::KwIn) {
      advance();
      advance();
      return CmpOp::NotIn;
    }
    return std::nullopt;
  }

  // a < b <= c is one Compare with two ops.
  ExprPtr parseComparison() {
    ExprPtr left = parseBinary(1);
    std::vector<CmpOp> ops;
    std::vector<ExprPtr> comparators;
    while (auto op = comparisonOp()) {
      ops.push_back(*op);
      comparators.push_back(parseBinary(1));
    }
    if (ops.empty()) return left;
    return make(left->loc, Expr::Compare{left, std::move(ops), std::move(comparators)});
  }

  // | ^ & << >> + - * / // % @ by precedence climbing (all left-associative).
  ExprPtr parseBinary(int minPrec) {
    ExprPtr left = parseFactor();
    for (;;) {
      const OpTok* op = find(kBinaryOps, peek().kind);
      if (!op || op->prec < minPrec) return left;
      advance();
      ExprPtr right = parseBinary(op->prec + 1);
      left = make(left->loc, Expr::Binary{op->op, left, right});
    }
  }

  // ('-' | '+' | '~') factor | power
  ExprPtr parseFactor() {
    const Tok k = peek().kind;
    if (k != Tok::Minus && k != Tok::Plus && k != Tok::Tilde) return parsePower();
    const Token& t = advance();
    NestGuard guard(*this, t);
    const UnaryOp op = k == Tok::Minus  ? UnaryOp::Neg
                       : k == Tok::Plus ? UnaryOp::Pos
                                        : UnaryOp::Invert;
    ExprPtr operand = parseFactor();
    return make(loc(t), Expr::Unary{op, operand});
  }

  // primary ['**' factor]: -x**2 is -(x**2), and 2**-1 is fine.
  ExprPtr parsePower() {
    ExprPtr base = parsePrimary();
    if (!at(Tok::DoubleStar)) return base;
    NestGuard guard(*this, advance());
    ExprPtr exponent = parseFactor();
    return make(base->loc, Expr::Binary{BinaryOp::Pow, base, exponent});
  }

  ExprPtr parsePrimary() {
    ExprPtr e = parseAtom();
    for (;;) {
      switch (peek().kind) {
        case Tok::LParen:
          e = parseCall(e);
          break;
        case Tok::LBracket:
          e = parseSubscript(e);
          break;
        case Tok::Dot: {
          advance();
          const Token& name = expect(Tok::Name, "expected an attribute name after '.'");
          e = make(e->loc, Expr::Attribute{e, name.text});
          break;
        }
        default:
          return e;
      }
    }
  }

  ExprPtr parseCall(const ExprPtr& func) {
    const std::size_t openIdx = pos_;
    advance();
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords;
    bool seenDoubleStar = false;
    while (!at(Tok::RParen)) {
      const Token& t = peek();
      if (t.kind == Tok::Star) {  // *iterable: its items are positional arguments
        advance();
        if (seenDoubleStar)
          fail(t, "iterable argument unpacking follows keyword argument unpacking");
        args.push_back(make(loc(t), Expr::Starred{parseTest()}));
      } else if (t.kind == Tok::DoubleStar) {  // **mapping: its items are keyword arguments
        advance();
        seenDoubleStar = true;
        keywords.push_back(Keyword{"", parseTest(), loc(t)});
      } else if (t.kind == Tok::Name && peekAhead(1).kind == Tok::Assign) {
        advance();
        advance();
        for (const Keyword& k : keywords)
          if (!k.name.empty() && k.name == t.text)
            fail(t, "keyword argument repeated: '" + t.text + "'");
        keywords.push_back(Keyword{t.text, parseTest(), loc(t)});
      } else {
        ExprPtr arg = parseTest();
        if (at(Tok::KwFor))
          fail(peek(),
               "generator expressions are not supported in GradLab script; use a list "
               "comprehension [...]");
        if (at(Tok::Assign))
          fail(peek(),
               "invalid syntax: a keyword argument needs a plain name before '=' (or did "
               "you mean '=='?)");
        if (!keywords.empty())
          fail(arg->loc, seenDoubleStar ? "positional argument follows keyword argument unpacking"
                                        : "positional argument follows keyword argument");
        args.push_back(arg);
      }
      if (!accept(Tok::Comma)) break;
    }
    expectClose(openIdx, Tok::RParen, "expected ',' or ')' after a call argument");
    return make(func->loc, Expr::Call{func, std::move(args), std::move(keywords)});
  }

  ExprPtr parseSubscript(const ExprPtr& value) {
    const std::size_t openIdx = pos_;
    advance();
    if (at(Tok::RBracket)) fail(peek(), "expected an index or a slice inside '[]'");
    std::vector<ExprPtr> items;
    bool tuple = false;
    for (;;) {
      items.push_back(parseSubscriptItem());
      if (!accept(Tok::Comma)) break;
      tuple = true;  // x[i,] indexes with a 1-tuple
      if (at(Tok::RBracket)) break;
    }
    expectClose(openIdx, Tok::RBracket, "expected ',' or ']' after an index");
    const SourceLoc first = items.front()->loc;
    ExprPtr index = tuple ? make(first, Expr::Tuple{std::move(items)}) : items.front();
    return make(value->loc, Expr::Subscript{value, index});
  }

  // test | [test] ':' [test] [':' [test]]
  ExprPtr parseSubscriptItem() {
    const SourceLoc l = loc(peek());
    ExprPtr lower, upper, step;
    if (!at(Tok::Colon)) {
      lower = parseTest();
      if (!at(Tok::Colon)) return lower;
    }
    advance();
    if (startsExpression(peek().kind)) upper = parseTest();
    if (accept(Tok::Colon) && startsExpression(peek().kind)) step = parseTest();
    return make(l, Expr::Slice{lower, upper, step});
  }

  ExprPtr parseAtom() {
    const Token& t = peek();
    const SourceLoc l = loc(t);
    switch (t.kind) {
      case Tok::Name:
        advance();
        return make(l, Expr::Name{t.text});
      case Tok::Int:
        advance();
        return make(l, Expr::IntLit{t.intValue});
      case Tok::Float:
        advance();
        return make(l, Expr::FloatLit{t.floatValue});
      case Tok::String:
      case Tok::FString:
        return parseStrings();
      case Tok::KwTrue:
        advance();
        return make(l, Expr::BoolLit{true});
      case Tok::KwFalse:
        advance();
        return make(l, Expr::BoolLit{false});
      case Tok::KwNone:
        advance();
        return make(l, Expr::NoneLit{});
      case Tok::Ellipsis:
        advance();
        return make(l, Expr::EllipsisLit{});
      case Tok::LParen:
        return parseParenthesized();
      case Tok::LBracket:
        return parseList();
      case Tok::LBrace:
        return parseDict();
      case Tok::Reserved:
        fail(t, "'" + t.text + "' is not supported in GradLab script");
      case Tok::Indent:
        fail(t, "unexpected indent");
      case Tok::Newline:
      case Tok::Dedent:
      case Tok::End:
        fail(t, "expected an expression, found " + describe(t),
             {DiagCode::ExpectedExpression, {}, tokenArgs(t)});
      default:
        fail(t, "unexpected " + describe(t), {DiagCode::UnexpectedToken, {}, tokenArgs(t)});
    }
  }

  // Adjacent string literals join, as in Python ("a" "b" is "ab"); with an f-string among them
  // the whole is one f-string.
  ExprPtr parseStrings() {
    const SourceLoc l = loc(peek());
    std::vector<ExprPtr> values;
    std::string text;
    bool formatted = false;
    while (at(Tok::String) || at(Tok::FString)) {
      const Token& t = advance();
      if (t.kind == Tok::String) {
        text += t.text;
        continue;
      }
      formatted = true;
      for (const FStringPiece& p : *t.fstring) {
        if (!p.isField) {
          text += p.text;
          continue;
        }
        if (!p.selfDoc.empty()) text += p.selfDoc;
        if (!text.empty()) values.push_back(make(l, Expr::StrLit{std::move(text)}));
        text.clear();
        values.push_back(formattedValue(p));
      }
    }
    if (!formatted) return make(l, Expr::StrLit{std::move(text)});
    if (!text.empty()) values.push_back(make(l, Expr::StrLit{std::move(text)}));
    return make(l, Expr::JoinedStr{std::move(values)});
  }

  // One `{expr!c:spec}` field: the expression is parsed from its source, in parentheses (so it
  // may span lines and start with spaces), at its place in the file.
  ExprPtr formattedValue(const FStringPiece& p) {
    std::vector<Token> toks = tokenize("(" + p.text + ")");
    for (Token& t : toks) {
      if (t.line == 1) t.col += p.col - 2;
      t.line += p.line - 1;
    }
    Parser sub(std::move(toks), file_);
    const SourceLoc l{file_, p.line, p.col};
    ExprPtr value = sub.parseParenthesized();
    if (!sub.at(Tok::Newline)) sub.fail(sub.peek(), "f-string: invalid expression");
    ExprPtr spec;
    if (p.hasSpec) {
      std::vector<ExprPtr> parts;
      for (const FStringPiece& q : p.spec)
        parts.push_back(q.isField ? formattedValue(q) : make(l, Expr::StrLit{q.text}));
      spec = make(l, Expr::JoinedStr{std::move(parts)});
    }
    // `{x=}` shows repr(x) unless a conversion or a spec is given, as in Python.
    const char conversion = p.conversion                       ? p.conversion
                            : !p.selfDoc.empty() && !p.hasSpec ? 'r'
                                                               : 0;
    return make(value->loc, Expr::FormattedValue{value, conversion, spec});
  }

  // () | (test) | (test, ...) — parentheses alone make no node.
  ExprPtr parseParenthesized() {
    const std::size_t openIdx = pos_;
    const SourceLoc l = loc(advance());
    if (accept(Tok::RParen)) return make(l, Expr::Tuple{});
    ExprPtr first = parseTest();
    if (at(Tok::KwFor))
      fail(peek(),
           "generator expressions are not supported in GradLab script; use a list "
           "comprehension [...]");
    if (!at(Tok::Comma)) {
      expectClose(openIdx, Tok::RParen, "expected ',' or ')'");
      return first;
    }
    std::vector<ExprPtr> elts{first};
    while (accept(Tok::Comma) && !at(Tok::RParen)) elts.push_back(parseTest());
    expectClose(openIdx, Tok::RParen, "expected ',' or ')' in the tuple");
    return make(l, Expr::Tuple{std::move(elts)});
  }

  // [] | [test, ...] | [test for target in or_test (if or_test)* ...]
  // {k: v, ...}; a set literal ({a, b}) is not supported.
  // {k: v, **other, ...} | {k: v for target in or_test (if or_test)* ...}; a set literal ({a, b})
  // is not supported.
  ExprPtr parseDict() {
    const std::size_t openIdx = pos_;
    const SourceLoc l = loc(advance());
    Expr::Dict d;
    while (!at(Tok::RBrace)) {
      if (accept(Tok::DoubleStar)) {  // {**d}: d's items, in order
        d.keys.push_back(nullptr);
        d.values.push_back(parseBinary(0));
      } else {
        d.keys.push_back(parseTest());
        expect(Tok::Colon, "expected ':' after a dict key (set literals are not supported)");
        d.values.push_back(parseTest());
      }
      if (d.keys.size() == 1 && d.keys[0] && at(Tok::KwFor)) {
        auto generators = parseGenerators();
        expectClose(openIdx, Tok::RBrace, "expected '}' at the end of the dict comprehension");
        return make(l, Expr::ListComp{d.keys[0], d.values[0], std::move(generators)});
      }
      if (!accept(Tok::Comma)) break;
    }
    expectClose(openIdx, Tok::RBrace, "expected ',' or '}' in the dict");
    return make(l, std::move(d));
  }

  // The `for target in iter if cond ...` clauses of a comprehension, outermost first.
  std::vector<Comprehension> parseGenerators() {
    std::vector<Comprehension> generators;
    while (accept(Tok::KwFor)) {
      Comprehension g;
      g.target = parseTargetList();
      checkTarget(*g.target);
      expect(Tok::KwIn, "expected 'in' after the comprehension's loop variable");
      g.iter = parseOr();
      while (accept(Tok::KwIf)) g.ifs.push_back(parseOr());
      generators.push_back(std::move(g));
    }
    return generators;
  }

  ExprPtr parseList() {
    const std::size_t openIdx = pos_;
    const SourceLoc l = loc(advance());
    if (accept(Tok::RBracket)) return make(l, Expr::List{});
    ExprPtr first = parseTest();
    if (at(Tok::KwFor)) {
      auto generators = parseGenerators();
      expectClose(openIdx, Tok::RBracket, "expected ']' at the end of the list comprehension");
      return make(l, Expr::ListComp{nullptr, first, std::move(generators)});
    }
    std::vector<ExprPtr> elts{first};
    while (accept(Tok::Comma) && !at(Tok::RBracket)) elts.push_back(parseTest());
    expectClose(openIdx, Tok::RBracket, "expected ',' or ']' in the list");
    return make(l, Expr::List{std::move(elts)});
  }

  std::vector<Token> toks_;
  std::string file_;
  std::size_t pos_ = 0;
  int nesting_ = 0;    // active NestGuards
  int stmtDepth_ = 0;  // enclosing blocks (and elif branches)
  int loopDepth_ = 0;  // enclosing while/for bodies, reset by def
  int funcDepth_ = 0;  // enclosing def bodies
  std::set<std::string> params_;
};

}  // namespace

Module parse(const std::string& source, const std::string& fileName) {
  return Parser(source, fileName).parseModule();
}

}  // namespace gl::lang
