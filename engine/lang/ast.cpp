#include "engine/lang/ast.h"

#include <charconv>
#include <cstdio>

namespace gl::lang {
std::string formatFloat(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

namespace {

std::string formatNumber(const Number& n) {
  if (!n.isInt) return formatFloat(n.value);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", n.value);  // no decimal point, so the locale is moot
  return buf;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '\\' || c == '"') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", unsigned(c));
      out += buf;
    } else {
      out += ch;  // UTF-8 passes through
    }
  }
  return out + "\"";
}

// ---------------------------------------------------------------------------------------------
// dump: S-expressions. Appends to one string (also sidesteps GCC 12's false -Wrestrict on
// chains of `"literal" + std::string`).

class Dumper {
 public:
  std::string out;

  void expr(const Expr& e) {
    std::visit([&](const auto& n) { node(n); }, e.node);
  }

  void stmt(const Stmt& s, int indent) {
    std::visit([&](const auto& n) { node(n, indent); }, s.node);
  }

 private:
  void opt(const ExprPtr& e) {
    if (e) {
      expr(*e);
    } else {
      out += '_';
    }
  }
  void list(const char* head, const std::vector<ExprPtr>& elts) {
    out += '(';
    out += head;
    for (const ExprPtr& x : elts) {
      out += ' ';
      expr(*x);
    }
    out += ')';
  }
  void params(const std::vector<Parameter>& ps) {
    out += '(';
    for (std::size_t i = 0; i < ps.size(); ++i) {
      if (i) out += ' ';
      if (ps[i].kind == ParamKind::KwOnly && (i == 0 || ps[i - 1].kind == ParamKind::Normal))
        out += "* ";  // the bare `*` before the first keyword-only parameter
      const char* star = ps[i].kind == ParamKind::VarArgs ? "*"
                         : ps[i].kind == ParamKind::VarKw ? "**"
                                                          : "";
      if (!ps[i].defaultValue) {
        out += star + ps[i].name;
        continue;
      }
      out += '(';
      out += ps[i].name;
      out += ' ';
      expr(*ps[i].defaultValue);
      out += ')';
    }
    out += ')';
  }
  // "(head a b" — the caller closes it.
  void open(const char* head, const Expr& a) {
    out += '(';
    out += head;
    out += ' ';
    expr(a);
  }
  void then(const Expr& e) {
    out += ' ';
    expr(e);
  }
  void block(const Block& body, int indent) {
    for (const StmtPtr& s : body) {
      out += '\n';
      out.append(std::size_t(indent), ' ');
      stmt(*s, indent);
    }
  }

  void node(const Expr::Name& n) { out += n.id; }
  void node(const Expr::IntLit& n) { out += std::to_string(n.value); }
  void node(const Expr::FloatLit& n) { out += formatFloat(n.value); }
  void node(const Expr::StrLit& n) { out += quote(n.value); }
  void node(const Expr::BoolLit& n) { out += n.value ? "True" : "False"; }
  void node(const Expr::NoneLit&) { out += "None"; }
  void node(const Expr::EllipsisLit&) { out += "..."; }
  void node(const Expr::List& n) { list("list", n.elts); }
  void node(const Expr::Tuple& n) { list("tuple", n.elts); }
  void node(const Expr::Dict& n) {
    out += "(dict";
    for (size_t i = 0; i < n.keys.size(); ++i) {
      out += " (";
      if (n.keys[i])
        expr(*n.keys[i]);
      else
        out += "**";
      out += ' ';
      expr(*n.values[i]);
      out += ')';
    }
    out += ')';
  }
  void node(const Expr::ListComp& n) {
    if (n.key) {
      open("dictcomp", *n.key);
      then(*n.elt);
    } else {
      open("listcomp", *n.elt);
    }
    for (const Comprehension& g : n.generators) {
      out += ' ';
      open("for", *g.target);
      then(*g.iter);
      for (const ExprPtr& c : g.ifs) {
        out += ' ';
        open("if", *c);
        out += ')';
      }
      out += ')';
    }
    out += ')';
  }
  void node(const Expr::Attribute& n) {
    open(".", *n.value);
    out += ' ';
    out += n.attr;
    out += ')';
  }
  void node(const Expr::Call& n) {
    open("call", *n.func);
    for (const ExprPtr& a : n.args) then(*a);
    for (const Keyword& k : n.keywords) {
      out += k.name.empty() ? " (**" : " (= ";
      out += k.name;
      then(*k.value);
      out += ')';
    }
    out += ')';
  }
  void node(const Expr::Subscript& n) {
    open("sub", *n.value);
    then(*n.index);
    out += ')';
  }
  void node(const Expr::Slice& n) {
    out += "(slice ";
    opt(n.lower);
    out += ' ';
    opt(n.upper);
    out += ' ';
    opt(n.step);
    out += ')';
  }
  void node(const Expr::Unary& n) {
    static const char* kNames[] = {"neg", "pos", "invert", "not"};
    open(kNames[int(n.op)], *n.operand);
    out += ')';
  }
  void node(const Expr::Binary& n) {
    open(symbol(n.op), *n.left);
    then(*n.right);
    out += ')';
  }
  void node(const Expr::BoolOp& n) { list(symbol(n.op), n.values); }
  void node(const Expr::Compare& n) {
    open("cmp", *n.left);
    for (std::size_t i = 0; i < n.ops.size(); ++i) {
      out += ' ';
      out += symbol(n.ops[i]);
      then(*n.comparators[i]);
    }
    out += ')';
  }
  void node(const Expr::IfExp& n) {
    open("ifexp", *n.test);
    then(*n.body);
    then(*n.orelse);
    out += ')';
  }
  void node(const Expr::Lambda& n) {
    out += "(lambda ";
    params(n.params);
    then(*n.body);
    out += ')';
  }
  void node(const Expr::JoinedStr& n) { list("fstr", n.values); }
  void node(const Expr::FormattedValue& n) {
    open("fmt", *n.value);
    if (n.conversion) {
      out += " !";
      out += n.conversion;
    }
    if (n.spec) then(*n.spec);
    out += ')';
  }
  void node(const Expr::Starred& n) {
    open("*", *n.value);
    out += ')';
  }

  void node(const Stmt::ExprStmt& n, int) {
    open("expr", *n.value);
    out += ')';
  }
  void node(const Stmt::Assign& n, int) {
    out += "(assign";
    for (const ExprPtr& t : n.targets) then(*t);
    then(*n.value);
    out += ')';
  }
  void node(const Stmt::AugAssign& n, int) {
    out += '(';
    out += symbol(n.op);
    out += '=';
    then(*n.target);
    then(*n.value);
    out += ')';
  }
  void node(const Stmt::If& n, int indent) {
    open("if", *n.test);
    block(n.body, indent + 2);
    if (!n.orelse.empty()) {
      out += '\n';
      out.append(std::size_t(indent) + 1, ' ');
      out += "else";
      block(n.orelse, indent + 2);
    }
    out += ')';
  }
  void node(const Stmt::While& n, int indent) {
    open("while", *n.test);
    block(n.body, indent + 2);
    out += ')';
  }
  void node(const Stmt::For& n, int indent) {
    open("for", *n.target);
    then(*n.iter);
    block(n.body, indent + 2);
    out += ')';
  }
  void node(const Stmt::Def& n, int indent) {
    out += "(def ";
    for (const ExprPtr& d : n.decorators) {
      out += "(@ ";
      expr(*d);
      out += ") ";
    }
    out += n.name;
    out += ' ';
    params(n.params);
    block(n.body, indent + 2);
    out += ')';
  }
  void node(const Stmt::ClassDef& n, int indent) {
    open("class", *n.header);
    block(n.body, indent + 2);
    out += ')';
  }
  void node(const Stmt::Return& n, int) {
    out += "(return";
    if (n.value) then(*n.value);
    out += ')';
  }
  void node(const Stmt::With& n, int indent) {
    out += "(with";
    for (const Stmt::WithItem& item : n.items) {
      out += " (";
      expr(*item.context);
      if (!item.asName.empty()) {
        out += ' ';
        out += item.asName;
      }
      out += ')';
    }
    block(n.body, indent + 2);
    out += ')';
  }
  void aliases(const std::vector<Stmt::Alias>& names) {
    for (const Stmt::Alias& a : names) {
      out += ' ';
      out += a.name;
      if (!a.asName.empty()) out += " as " + a.asName;
    }
  }
  void node(const Stmt::Import& n, int) {
    out += "(import";
    aliases(n.names);
    out += ')';
  }
  void node(const Stmt::ImportFrom& n, int) {
    out += "(from " + n.module + " import";
    if (n.star) out += " *";
    aliases(n.names);
    out += ')';
  }
  void node(const Stmt::Delete& n, int) { list("del", n.targets); }
  void node(const Stmt::Global& n, int) {
    out += n.nonlocal ? "(nonlocal" : "(global";
    for (const auto& name : n.names) out += " " + name;
    out += ')';
  }
  void node(const Stmt::Assert& n, int) {
    open("assert", *n.test);
    if (n.msg) then(*n.msg);
    out += ')';
  }
  // (try BODY (except TYPE NAME BODY)... (else BODY) (finally BODY))
  void node(const Stmt::Try& n, int indent) {
    out += "(try";
    block(n.body, indent + 2);
    for (const Stmt::ExceptHandler& h : n.handlers) {
      out += '\n';
      out.append(std::size_t(indent) + 1, ' ');
      out += "(except";
      if (h.type) then(*h.type);
      if (!h.name.empty()) out += " as " + h.name;
      block(h.body, indent + 3);
      out += ')';
    }
    for (const auto& [word, body] : {std::pair{"else", &n.orelse}, {"finally", &n.finalbody}}) {
      if (body->empty()) continue;
      out += '\n';
      out.append(std::size_t(indent) + 1, ' ');
      out += '(';
      out += word;
      block(*body, indent + 3);
      out += ')';
    }
    out += ')';
  }
  void node(const Stmt::Raise& n, int) {
    out += "(raise";
    if (n.exc) then(*n.exc);
    if (n.cause) {
      out += " from";
      then(*n.cause);
    }
    out += ')';
  }
  void node(const Stmt::Pass&, int) { out += "(pass)"; }
  void node(const Stmt::Break&, int) { out += "(break)"; }
  void node(const Stmt::Continue&, int) { out += "(continue)"; }
  void node(const Stmt::ParamDecl& n, int) {
    out += "(param ";
    out += n.name;
    for (const Number* x : {&n.value, &n.lo, &n.hi}) {
      out += ' ';
      out += formatNumber(*x);
    }
    if (n.classroom) out += " (class " + formatNumber(*n.classroom) + ")";
    out += ')';
  }
};

// ---------------------------------------------------------------------------------------------
// unparse: Python precedence, loosest first

// clang-format off
enum Prec : int {
  kTuple, kLambda, kIfExp, kOr, kAnd, kNot, kCmp, kBitOr, kBitXor, kBitAnd, kShift, kArith,
  kTerm, kUnary, kPow, kPrimary, kAtom
};
// clang-format on

int binaryPrec(BinaryOp op) {
  switch (op) {
    case BinaryOp::BitOr:
      return kBitOr;
    case BinaryOp::BitXor:
      return kBitXor;
    case BinaryOp::BitAnd:
      return kBitAnd;
    case BinaryOp::LShift:
    case BinaryOp::RShift:
      return kShift;
    case BinaryOp::Add:
    case BinaryOp::Sub:
      return kArith;
    case BinaryOp::Pow:
      return kPow;
    default:
      return kTerm;
  }
}

int precOf(const Expr& e) {
  return std::visit(
      Overloaded{
          [](const Expr::Tuple&) { return int(kTuple); },
          [](const Expr::Lambda&) { return int(kLambda); },
          [](const Expr::IfExp&) { return int(kIfExp); },
          [](const Expr::BoolOp& n) { return int(n.op == BoolOpKind::Or ? kOr : kAnd); },
          [](const Expr::Unary& n) { return int(n.op == UnaryOp::Not ? kNot : kUnary); },
          [](const Expr::Compare&) { return int(kCmp); },
          [](const Expr::Binary& n) { return binaryPrec(n.op); },
          [](const Expr::Attribute&) { return int(kPrimary); },
          [](const Expr::Call&) { return int(kPrimary); },
          [](const Expr::Subscript&) { return int(kPrimary); },
          [](const auto&) { return int(kAtom); },
      },
      e.node);
}

class Unparser {
 public:
  std::string out;

  // Prints e, in parentheses if it binds looser than the context allows.
  void expr(const Expr& e, int minPrec) {
    const bool parens = precOf(e) < minPrec;
    if (parens) out += '(';
    std::visit([&](const auto& n) { node(n); }, e.node);
    if (parens) out += ')';
  }

  // Statement-level lists (assignment sides, return, for): tuples go without parentheses.
  void exprList(const Expr& e, int elemPrec = kLambda) {
    const auto* t = e.as<Expr::Tuple>();
    if (t && !t->elts.empty()) {
      elements(t->elts, elemPrec);
      if (t->elts.size() == 1) out += ',';
    } else {
      expr(e, elemPrec);
    }
  }

  void block(const Block& body, int indent) {
    for (const StmtPtr& s : body) stmt(*s, indent);
  }

  void stmt(const Stmt& s, int indent) {
    out.append(std::size_t(indent) * 4, ' ');
    std::visit([&](const auto& n) { node(n, indent); }, s.node);
  }

 private:
  void elements(const std::vector<ExprPtr>& elts, int prec) {
    for (std::size_t i = 0; i < elts.size(); ++i) {
      if (i) out += ", ";
      expr(*elts[i], prec);
    }
  }

  void params(const std::vector<Parameter>& ps) {
    for (std::size_t i = 0; i < ps.size(); ++i) {
      if (i) out += ", ";
      if (ps[i].kind == ParamKind::KwOnly && (i == 0 || ps[i - 1].kind == ParamKind::Normal))
        out += "*, ";
      if (ps[i].kind == ParamKind::VarArgs) out += '*';
      if (ps[i].kind == ParamKind::VarKw) out += "**";
      out += ps[i].name;
      if (ps[i].defaultValue) {
        out += '=';
        expr(*ps[i].defaultValue, kLambda);
      }
    }
  }

  void indexItem(const Expr& e) {
    if (const auto* s = e.as<Expr::Slice>()) return node(*s);
    expr(e, kLambda);
  }

  void node(const Expr::Name& n) { out += n.id; }
  void node(const Expr::IntLit& n) { out += std::to_string(n.value); }
  void node(const Expr::FloatLit& n) { out += formatFloat(n.value); }
  void node(const Expr::StrLit& n) { out += quote(n.value); }
  void node(const Expr::BoolLit& n) { out += n.value ? "True" : "False"; }
  void node(const Expr::NoneLit&) { out += "None"; }
  void node(const Expr::EllipsisLit&) { out += "..."; }
  void node(const Expr::List& n) {
    out += '[';
    elements(n.elts, kLambda);
    out += ']';
  }
  void node(const Expr::Dict& n) {
    out += '{';
    for (size_t i = 0; i < n.keys.size(); ++i) {
      if (i) out += ", ";
      if (!n.keys[i]) {
        out += "**";
        expr(*n.values[i], kBitOr);
        continue;
      }
      expr(*n.keys[i], kLambda);
      out += ": ";
      expr(*n.values[i], kLambda);
    }
    out += '}';
  }
  void node(const Expr::Tuple& n) {  // the parentheses come from expr()
    elements(n.elts, kLambda);
    if (n.elts.size() == 1) out += ',';
  }
  void node(const Expr::ListComp& n) {
    out += n.key ? '{' : '[';
    if (n.key) {
      expr(*n.key, kLambda);
      out += ": ";
    }
    expr(*n.elt, kLambda);
    for (const Comprehension& g : n.generators) {
      out += " for ";
      exprList(*g.target, kBitOr);
      out += " in ";
      expr(*g.iter, kOr);
      for (const ExprPtr& c : g.ifs) {
        out += " if ";
        expr(*c, kOr);
      }
    }
    out += n.key ? '}' : ']';
  }
  void node(const Expr::Attribute& n) {
    // `1.real` would lex as the float `1.` followed by a name.
    if (n.value->is<Expr::IntLit>()) {
      out += '(';
      expr(*n.value, kPrimary);
      out += ')';
    } else {
      expr(*n.value, kPrimary);
    }
    out += '.' + n.attr;
  }
  void node(const Expr::Call& n) {
    expr(*n.func, kPrimary);
    out += '(';
    elements(n.args, kLambda);
    for (std::size_t i = 0; i < n.keywords.size(); ++i) {
      if (i || !n.args.empty()) out += ", ";
      out += n.keywords[i].name.empty() ? "**" : n.keywords[i].name + "=";
      expr(*n.keywords[i].value, kLambda);
    }
    out += ')';
  }
  void node(const Expr::Subscript& n) {
    expr(*n.value, kPrimary);
    out += '[';
    const auto* t = n.index->as<Expr::Tuple>();
    if (t && !t->elts.empty()) {  // x[a, 1:2] (a parenthesised tuple may not hold slices)
      for (std::size_t i = 0; i < t->elts.size(); ++i) {
        if (i) out += ", ";
        indexItem(*t->elts[i]);
      }
      if (t->elts.size() == 1) out += ',';
    } else {
      indexItem(*n.index);
    }
    out += ']';
  }
  void node(const Expr::Slice& n) {
    // Slice bounds are plain tests; a lambda there would swallow the ':' that follows it.
    if (n.lower) expr(*n.lower, kIfExp);
    out += ':';
    if (n.upper) expr(*n.upper, kIfExp);
    if (n.step) {
      out += ':';
      expr(*n.step, kIfExp);
    }
  }
  void node(const Expr::Unary& n) {
    out += symbol(n.op);
    if (n.op == UnaryOp::Not) {
      out += ' ';
      expr(*n.operand, kNot);
    } else {
      expr(*n.operand, kUnary);
    }
  }
  void node(const Expr::Binary& n) {
    const int p = binaryPrec(n.op);
    // ** is right-associative and its left side is a primary: (-x) ** 2, x ** -y.
    expr(*n.left, n.op == BinaryOp::Pow ? int(kPrimary) : p);
    out += std::string(" ") + symbol(n.op) + " ";
    expr(*n.right, n.op == BinaryOp::Pow ? int(kUnary) : p + 1);
  }
  void node(const Expr::BoolOp& n) {
    const int p = n.op == BoolOpKind::Or ? kAnd : kNot;
    for (std::size_t i = 0; i < n.values.size(); ++i) {
      if (i) out += std::string(" ") + symbol(n.op) + " ";
      expr(*n.values[i], p);
    }
  }
  void node(const Expr::Compare& n) {
    expr(*n.left, kBitOr);
    for (std::size_t i = 0; i < n.ops.size(); ++i) {
      out += std::string(" ") + symbol(n.ops[i]) + " ";
      expr(*n.comparators[i], kBitOr);
    }
  }
  void node(const Expr::IfExp& n) {
    expr(*n.body, kOr);
    out += " if ";
    expr(*n.test, kOr);
    out += " else ";
    expr(*n.orelse, kLambda);
  }
  void node(const Expr::Lambda& n) {
    out += "lambda";
    if (!n.params.empty()) out += ' ';
    params(n.params);
    out += ": ";
    expr(*n.body, kLambda);
  }

  // f-strings: the quote is one that no expression inside uses (Python 3.11 needs that).
  void node(const Expr::JoinedStr& n) {
    Unparser inner;
    inner.fstringBody(n);
    const char* q = inner.out.find('\'') == std::string::npos  ? "'"
                    : inner.out.find('"') == std::string::npos ? "\""
                                                               : "'''";
    out += std::string("f") + q + inner.out + q;
  }
  void fstringBody(const Expr::JoinedStr& n) {
    for (const ExprPtr& v : n.values) {
      if (const auto* s = v->as<Expr::StrLit>()) {
        const std::string quoted = quote(s->value);  // escapes, without the quotes
        for (char c : quoted.substr(1, quoted.size() - 2)) {
          if (c == '{' || c == '}') out += c;
          out += c;
        }
      } else if (const auto* f = v->as<Expr::FormattedValue>()) {
        node(*f);
      }
    }
  }
  void node(const Expr::FormattedValue& n) {
    out += '{';
    // A leading '{' would read as '{{'; a lambda or a bare tuple needs parentheses.
    std::string e;
    {
      Unparser u;
      u.expr(*n.value, kIfExp);
      e = u.out;
    }
    out += (e[0] == '{' ? " " : "") + e;
    if (n.conversion) {
      out += '!';
      out += n.conversion;
    }
    if (n.spec) {
      out += ':';
      fstringBody(*n.spec->as<Expr::JoinedStr>());
    }
    out += '}';
  }
  void node(const Expr::Starred& n) {
    out += '*';
    expr(*n.value, kBitOr);
  }

  void header(const char* keyword, const Expr& test) {
    out += keyword;
    expr(test, kLambda);
    out += ":\n";
  }
  void node(const Stmt::ExprStmt& n, int) {
    exprList(*n.value);
    out += '\n';
  }
  void node(const Stmt::Assign& n, int) {
    for (const ExprPtr& t : n.targets) {
      exprList(*t);
      out += " = ";
    }
    exprList(*n.value);
    out += '\n';
  }
  void node(const Stmt::AugAssign& n, int) {
    expr(*n.target, kLambda);
    out += std::string(" ") + symbol(n.op) + "= ";
    exprList(*n.value);
    out += '\n';
  }
  void node(const Stmt::If& n, int indent) {
    header("if ", *n.test);
    block(n.body, indent + 1);
    const Stmt::If* cur = &n;
    // An else holding just an if prints as elif; both parse to the same tree.
    while (cur->orelse.size() == 1 && cur->orelse[0]->is<Stmt::If>()) {
      cur = cur->orelse[0]->as<Stmt::If>();
      out.append(std::size_t(indent) * 4, ' ');
      header("elif ", *cur->test);
      block(cur->body, indent + 1);
    }
    if (!cur->orelse.empty()) {
      out.append(std::size_t(indent) * 4, ' ');
      out += "else:\n";
      block(cur->orelse, indent + 1);
    }
  }
  void node(const Stmt::While& n, int indent) {
    header("while ", *n.test);
    block(n.body, indent + 1);
  }
  void node(const Stmt::For& n, int indent) {
    out += "for ";
    exprList(*n.target, kBitOr);
    out += " in ";
    exprList(*n.iter);
    out += ":\n";
    block(n.body, indent + 1);
  }
  void node(const Stmt::Def& n, int indent) {
    // stmt() indented the first line; each decorator line ends by indenting the next.
    for (const ExprPtr& d : n.decorators) {
      out += "@";
      expr(*d, 0);
      out += "\n";
      out.append(std::size_t(indent) * 4, ' ');
    }
    out += "def " + n.name + "(";
    params(n.params);
    out += "):\n";
    block(n.body, indent + 1);
  }
  void node(const Stmt::ClassDef& n, int indent) {
    out += "class ";
    expr(*n.header, 0);
    out += ":\n";
    block(n.body, indent + 1);
  }
  void node(const Stmt::Return& n, int) {
    out += "return";
    if (n.value) {
      out += ' ';
      exprList(*n.value);
    }
    out += '\n';
  }
  void node(const Stmt::With& n, int indent) {
    out += "with ";
    for (std::size_t i = 0; i < n.items.size(); ++i) {
      if (i) out += ", ";
      expr(*n.items[i].context, kLambda);
      if (!n.items[i].asName.empty()) out += " as " + n.items[i].asName;
    }
    out += ":\n";
    block(n.body, indent + 1);
  }
  void aliases(const std::vector<Stmt::Alias>& names) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      out += (i ? ", " : "") + names[i].name;
      if (!names[i].asName.empty()) out += " as " + names[i].asName;
    }
  }
  void node(const Stmt::Import& n, int) {
    out += "import ";
    aliases(n.names);
    out += '\n';
  }
  void node(const Stmt::ImportFrom& n, int) {
    out += "from " + n.module + " import ";
    if (n.star) out += '*';
    aliases(n.names);
    out += '\n';
  }
  void node(const Stmt::Global& n, int) {
    out += n.nonlocal ? "nonlocal " : "global ";
    for (size_t i = 0; i < n.names.size(); ++i) out += (i ? ", " : "") + n.names[i];
    out += '\n';
  }
  void node(const Stmt::Delete& n, int) {
    out += "del ";
    elements(n.targets, kBitOr);
    out += '\n';
  }
  void node(const Stmt::Assert& n, int) {
    out += "assert ";
    expr(*n.test, kLambda);
    if (n.msg) {
      out += ", ";
      expr(*n.msg, kLambda);
    }
    out += '\n';
  }
  void node(const Stmt::Try& n, int indent) {
    out += "try:\n";
    block(n.body, indent + 1);
    for (const Stmt::ExceptHandler& h : n.handlers) {
      out.append(std::size_t(indent) * 4, ' ');
      out += "except";
      if (h.type) {
        out += ' ';
        expr(*h.type, kLambda);
      }
      if (!h.name.empty()) out += " as " + h.name;
      out += ":\n";
      block(h.body, indent + 1);
    }
    for (const auto& [word, body] :
         {std::pair{"else:\n", &n.orelse}, {"finally:\n", &n.finalbody}}) {
      if (body->empty()) continue;
      out.append(std::size_t(indent) * 4, ' ');
      out += word;
      block(*body, indent + 1);
    }
  }
  void node(const Stmt::Raise& n, int) {
    out += "raise";
    if (n.exc) {
      out += ' ';
      expr(*n.exc, kLambda);
    }
    if (n.cause) {
      out += " from ";
      expr(*n.cause, kLambda);
    }
    out += '\n';
  }
  void node(const Stmt::Pass&, int) { out += "pass\n"; }
  void node(const Stmt::Break&, int) { out += "break\n"; }
  void node(const Stmt::Continue&, int) { out += "continue\n"; }
  void node(const Stmt::ParamDecl& n, int) {
    out += "param " + n.name + " = " + formatNumber(n.value) + " in " + formatNumber(n.lo) + ".." +
           formatNumber(n.hi);
    if (n.classroom) out += " class " + formatNumber(*n.classroom);
    out += "\n";
  }
};

}  // namespace

const char* symbol(UnaryOp op) {
  static const char* k[] = {"-", "+", "~", "not"};
  return k[int(op)];
}
const char* symbol(BinaryOp op) {
  static const char* k[] = {"+", "-", "*", "/", "//", "%", "@", "**", "|", "^", "&", "<<", ">>"};
  return k[int(op)];
}
const char* symbol(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }
const char* symbol(CmpOp op) {
  static const char* k[] = {"<", "<=", ">", ">=", "==", "!=", "in", "not in", "is", "is not"};
  return k[int(op)];
}

void forEachChild(const Expr& e, const std::function<void(const Expr&)>& f) {
  auto one = [&](const ExprPtr& p) {
    if (p) f(*p);
  };
  auto all = [&](const std::vector<ExprPtr>& v) {
    for (const ExprPtr& p : v) one(p);
  };
  std::visit(
      Overloaded{
          [&](const Expr::List& n) { all(n.elts); }, [&](const Expr::Tuple& n) { all(n.elts); },
          [&](const Expr::Dict& n) {
            for (size_t i = 0; i < n.keys.size(); ++i) {
              one(n.keys[i]);
              one(n.values[i]);
            }
          },
          [&](const Expr::ListComp& n) {
            one(n.key);
            one(n.elt);
            for (const Comprehension& g : n.generators) {
              one(g.target);
              one(g.iter);
              all(g.ifs);
            }
          },
          [&](const Expr::Attribute& n) { one(n.value); },
          [&](const Expr::Call& n) {
            one(n.func);
            all(n.args);
            for (const Keyword& k : n.keywords) one(k.value);
          },
          [&](const Expr::Subscript& n) {
            one(n.value);
            one(n.index);
          },
          [&](const Expr::Slice& n) {
            one(n.lower);
            one(n.upper);
            one(n.step);
          },
          [&](const Expr::Unary& n) { one(n.operand); },
          [&](const Expr::Binary& n) {
            one(n.left);
            one(n.right);
          },
          [&](const Expr::BoolOp& n) { all(n.values); },
          [&](const Expr::Compare& n) {
            one(n.left);
            all(n.comparators);
          },
          [&](const Expr::IfExp& n) {
            one(n.body);
            one(n.test);
            one(n.orelse);
          },
          [&](const Expr::Lambda& n) {
            for (const Parameter& p : n.params) one(p.defaultValue);
            one(n.body);
          },
          [&](const Expr::JoinedStr& n) { all(n.values); },
          [&](const Expr::FormattedValue& n) {
            one(n.value);
            one(n.spec);
          },
          [&](const Expr::Starred& n) { one(n.value); },
          [](const auto&) {},  // names and literals have no children
      },
      e.node);
}

std::vector<const Stmt::ParamDecl*> paramDecls(const Module& m) {
  std::vector<const Stmt::ParamDecl*> out;
  for (const StmtPtr& s : m.body)
    if (const auto* p = s->as<Stmt::ParamDecl>()) out.push_back(p);
  return out;
}

std::string dump(const Expr& e) {
  Dumper d;
  d.expr(e);
  return d.out;
}
std::string dump(const Stmt& s) {
  Dumper d;
  d.stmt(s, 0);
  return d.out;
}
std::string dump(const Module& m) {
  Dumper d;
  for (const StmtPtr& s : m.body) {
    d.stmt(*s, 0);
    d.out += '\n';
  }
  return d.out;
}

std::string unparse(const Expr& e) {
  Unparser u;
  u.exprList(e);
  return u.out;
}
std::string unparse(const Stmt& s) {
  Unparser u;
  u.stmt(s, 0);
  return u.out;
}
std::string unparse(const Module& m) {
  Unparser u;
  u.block(m.body, 0);
  return u.out;
}

}  // namespace gl::lang
