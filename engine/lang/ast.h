#pragma once
// The AST of GradLab script. Shaped like Python's `ast` module, so AutoGraph-style tracing rules
// read the same: nodes are immutable once parsed and shared (shared_ptr<const ...>), since the
// tracer's closures keep `def` and `lambda` bodies alive after the Module is gone.
//
// Every node has loc: the start of its first token (1-based line and column, columns in code
// points), with the script's file name, ready for gl::EngineError.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/tensor/error.h"

namespace gl::lang {

struct Expr;
struct Stmt;
using ExprPtr = std::shared_ptr<const Expr>;
using StmtPtr = std::shared_ptr<const Stmt>;
using Block = std::vector<StmtPtr>;

enum class UnaryOp { Neg, Pos, Invert, Not };
// clang-format off
enum class BinaryOp {
  Add, Sub, Mul, Div, FloorDiv, Mod, MatMul, Pow, BitOr, BitXor, BitAnd, LShift, RShift
};
// clang-format on
enum class BoolOpKind { And, Or };
enum class CmpOp { Lt, Le, Gt, Ge, Eq, NotEq, In, NotIn, Is, IsNot };

// Source spellings: "-", "not", "**", "and", "not in", ...
const char* symbol(UnaryOp op);
const char* symbol(BinaryOp op);
const char* symbol(BoolOpKind op);
const char* symbol(CmpOp op);

// How a parameter takes arguments: by position or name, `*args`, keyword-only (after `*` or
// `*args`), `**kwargs`.
enum class ParamKind { Normal, VarArgs, KwOnly, VarKw };

// A parameter of a def or lambda; defaultValue is null when there is none. A bare `*` makes no
// Parameter: the kw-only parameters after it say so.
struct Parameter {
  std::string name;
  ExprPtr defaultValue;
  SourceLoc loc;
  ParamKind kind = ParamKind::Normal;
};

// `for target in iter if ifs[0] if ifs[1] ...` inside a list comprehension.
struct Comprehension {
  ExprPtr target;
  ExprPtr iter;
  std::vector<ExprPtr> ifs;
};

// `name=value` in a call; `**value` has an empty name.
struct Keyword {
  std::string name;
  ExprPtr value;
  SourceLoc loc;
};

struct Expr {
  struct Name {
    std::string id;
  };
  struct IntLit {
    std::int64_t value;
  };
  struct FloatLit {
    double value;
  };
  struct StrLit {
    std::string value;
  };  // UTF-8, escapes decoded, adjacent literals joined
  struct BoolLit {
    bool value;
  };
  struct NoneLit {};
  struct EllipsisLit {};
  struct List {
    std::vector<ExprPtr> elts;
  };
  struct Tuple {
    std::vector<ExprPtr> elts;
  };
  struct Dict {  // {k: v, ...}: keys[i] maps to values[i]; a null key is {**values[i]}
    std::vector<ExprPtr> keys, values;
  };
  struct ListComp {
    ExprPtr key;  // {key: elt for ...}: a dict comprehension; null for a list comprehension
    ExprPtr elt;
    std::vector<Comprehension> generators;  // outermost first, as written
  };
  struct Attribute {
    ExprPtr value;
    std::string attr;
  };
  struct Call {
    ExprPtr func;
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords;  // unique names, after all positional args
  };
  // x[index]: index is an expression, a Slice, or a Tuple of them (`x[1:3, ..., i]`).
  struct Subscript {
    ExprPtr value;
    ExprPtr index;
  };
  struct Slice {
    ExprPtr lower, upper, step;
  };  // each may be null; only inside a Subscript
  struct Unary {
    UnaryOp op;
    ExprPtr operand;
  };
  struct Binary {
    BinaryOp op;
    ExprPtr left, right;
  };
  struct BoolOp {  // `a and b and c` is one node with three values
    BoolOpKind op;
    std::vector<ExprPtr> values;
  };
  struct Compare {  // `a < b <= c`: ops.size() == comparators.size() >= 1
    ExprPtr left;
    std::vector<CmpOp> ops;
    std::vector<ExprPtr> comparators;
  };
  struct IfExp {
    ExprPtr test, body, orelse;
  };  // body if test else orelse
  struct Lambda {
    std::vector<Parameter> params;
    ExprPtr body;
  };
  // f"...": values are StrLit and FormattedValue, in order.
  struct JoinedStr {
    std::vector<ExprPtr> values;
  };
  // `{value!conversion:spec}` in an f-string; spec is a JoinedStr or null.
  struct FormattedValue {
    ExprPtr value;
    char conversion = 0;  // 'r', 's', 'a' or 0
    ExprPtr spec;
  };
  // `*value` among a call's positional arguments.
  struct Starred {
    ExprPtr value;
  };

  using Node = std::variant<Name, IntLit, FloatLit, StrLit, BoolLit, NoneLit, EllipsisLit, List,
                            Tuple, Dict, ListComp, Attribute, Call, Subscript, Slice, Unary, Binary,
                            BoolOp, Compare, IfExp, Lambda, JoinedStr, FormattedValue, Starred>;
  Node node;
  SourceLoc loc;
  // Height of this subtree. The parser rejects expressions deeper than kMaxExprDepth, so any
  // recursive walk over an Expr (tracer, printers, destructor) has a bounded stack.
  int depth = 1;

  template <class T>
  const T* as() const {
    return std::get_if<T>(&node);
  }
  template <class T>
  bool is() const {
    return std::holds_alternative<T>(node);
  }
};

constexpr int kMaxExprDepth = 1000;

// Lambdas as one visitor: std::visit(Overloaded{[](const Stmt::If&) {...}, ...}, s.node). Without
// a catch-all `auto` case, a node kind nobody handles is a compile error.
template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

// Calls f on each direct child expression (null children are skipped), in source order.
void forEachChild(const Expr& e, const std::function<void(const Expr&)>& f);

// A number in a param declaration, sign included. isInt: written without '.' or exponent.
struct Number {
  double value = 0;
  bool isInt = false;
  SourceLoc loc;
};

struct Stmt {
  struct ExprStmt {
    ExprPtr value;
  };
  struct Assign {  // targets[0] = targets[1] = ... = value; a target may be a Tuple or List
    std::vector<ExprPtr> targets;
    ExprPtr value;
  };
  struct AugAssign {  // target op= value; target is a Name, Attribute or Subscript
    ExprPtr target;
    BinaryOp op;
    ExprPtr value;
  };
  struct If {  // elif chains nest: orelse holds a single If
    ExprPtr test;
    Block body, orelse;
  };
  struct While {
    ExprPtr test;
    Block body;
  };
  struct For {
    ExprPtr target;  // a Name, or a Tuple/List of targets
    ExprPtr iter;
    Block body;
  };
  struct Def {
    std::string name;
    std::vector<Parameter> params;  // parameters with defaults come last
    Block body;
    std::vector<ExprPtr> decorators;  // @d1 @d2 def f: f = d1(d2(f)), outermost first
  };
  // `class Name:` or `class Name(Base, kw=v):`. The header is the Name, or a Call of it whose
  // arguments are the bases and keywords (so printers and walkers reuse the Call's).
  struct ClassDef {
    std::string name;
    ExprPtr header;
    Block body;
  };
  struct Return {
    ExprPtr value;  // null for a bare `return`
  };
  struct WithItem {
    ExprPtr context;
    std::string asName;  // empty without `as`
    SourceLoc asLoc;
  };
  struct With {
    std::vector<WithItem> items;
    Block body;
  };
  // `import a.b as c, d`: module is the dotted name; asName is empty without `as`.
  struct Alias {
    std::string name;
    std::string asName;
    SourceLoc loc;
  };
  struct Import {
    std::vector<Alias> names;
  };
  // `from module import a as b, c`; names is empty for `import *` (star is then true).
  struct ImportFrom {
    std::string module;
    SourceLoc moduleLoc;
    std::vector<Alias> names;
    bool star = false;
  };
  struct Delete {  // del a, b[i]
    std::vector<ExprPtr> targets;
  };
  struct Assert {  // assert test, msg (msg may be null)
    ExprPtr test, msg;
  };
  // `global a, b` / `nonlocal a, b`: assignments to the names in this function bind them in the
  // module / the nearest enclosing function that has them.
  struct Global {
    std::vector<std::string> names;
    bool nonlocal = false;
  };
  // try: body; except handlers; else: orelse; finally: finalbody (Python's try statement).
  struct ExceptHandler {
    ExprPtr type;      // null for a bare `except:`
    std::string name;  // `except E as name`; empty without `as`
    SourceLoc loc;     // the `except` keyword's
    Block body;
  };
  struct Try {
    Block body;
    std::vector<ExceptHandler> handlers;
    Block orelse, finalbody;
  };
  // raise [exc [from cause]]; a bare raise re-raises the exception being handled.
  struct Raise {
    ExprPtr exc, cause;
  };
  struct Pass {};
  struct Break {};
  struct Continue {};
  // `param name = value in lo..hi`: a knob the window shows as a slider (top level only).
  struct ParamDecl {
    std::string name;
    Number value, lo, hi;             // lo <= value <= hi
    std::optional<Number> classroom;  // `class N`: the small value a first look in class uses
  };

  using Node = std::variant<ExprStmt, Assign, AugAssign, If, While, For, Def, ClassDef, Return,
                            With, Pass, Break, Continue, ParamDecl, Import, ImportFrom, Delete,
                            Assert, Global, Try, Raise>;
  Node node;
  SourceLoc loc;

  template <class T>
  const T* as() const {
    return std::get_if<T>(&node);
  }
  template <class T>
  bool is() const {
    return std::holds_alternative<T>(node);
  }
};

struct Module {
  std::string file;
  Block body;
};

// The knobs a script declares, in order (pointers into m).
std::vector<const Stmt::ParamDecl*> paramDecls(const Module& m);

// S-expressions for tests and debugging, e.g. `-x**2` -> "(neg (** x 2))". Locations are left
// out, so two parses of equivalent text dump equal.
std::string dump(const Expr& e);
std::string dump(const Stmt& s);
std::string dump(const Module& m);

// Back to GradLab script, with the fewest parentheses that keep the tree: parse(unparse(m))
// dumps equal to m. Blocks are indented with four spaces.
std::string unparse(const Expr& e);
std::string unparse(const Stmt& s);
std::string unparse(const Module& m);

// Shortest text that reads back as the same double, and as a float (not an int): Python's
// repr of a float (2.0, 0.1, 1e-07), for unparsing and for printing values.
std::string formatFloat(double v);

}  // namespace gl::lang
