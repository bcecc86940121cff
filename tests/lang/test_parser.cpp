// GradLab script front end: lexer, parser, AST printers. Round trips for every construct,
// precedence, locations, error messages with their line:col, deep nesting, and fuzzing.
#include "test_main.h"

#include <cstdint>
#include <random>
#include <string>

#include "engine/lang/lexer.h"
#include "engine/lang/parser.h"

using namespace gl::lang;

namespace {

const char* const kRealistic = R"(# Euler ODE
param steps = 20000 in 1..100000
x = tf.random.normal([10, 5000], mean=10.0, stddev=1.0)

def ode_fn(x):
    return -x + 1.0

def integrate(x, nsteps, dt):
    def cond(i, y):
        return i < nsteps
    def body(i, y):
        return i + 1, y + dt * ode_fn(y)
    _, y = tf.while_loop(cond, body, [tf.constant(0), x], parallel_iterations=1)
    return tf.reduce_sum(y)

with variant("vectorized"):
    with tf.GradientTape() as tape:
        tape.watch(x)
        lnp = integrate(x, steps, 0.1)
    g = tape.gradient(lnp, x)
    heads = [h for h in range(3) if h != 1]
    y = x[0, 1:3, ...] if steps > 10 else x[::2]
    tf.print("grad", g[0, :4])
)";

// Every construct at least once, for the mutation fuzzer.
const char* const kEverything = R"(param lr = -0.5 in -1.0..1e3
def f(a, b=2, c=lambda x, y=1: x * y):
    """doc
    string"""
    if a < b <= c and not a is None or a not in [1, 2]:
        return a, b
    elif a is not b:
        a += 1; b -= 2
    else:
        pass
    while a:
        a //= 2
        if a % 3 == 0: continue
        break
    for i, (j, k) in zip(x, y):
        x[i, 1:, ::2, ..., None] @= -j ** 2 // ~k | 1 ^ 2 & 3 << 4 >> 5
    (u, v) = [w] = z = a.b.c(1, k=0) if 1_000.5e-3 else 0x1F
    return [m for m in range(3) for n in m if n if m]
with a as b, c:
    s = 'x\n\'y\'' "z" r'\d'
)";

// The expression of a one-line expression statement.
ExprPtr parseExpr(const std::string& src) {
  Module m = parse(src + "\n", "t.gls");
  if (m.body.size() != 1 || !m.body[0]->is<Stmt::ExprStmt>()) return nullptr;
  return m.body[0]->as<Stmt::ExprStmt>()->value;
}

// "" if parse(unparse(parse(src))) dumps like parse(src) and unparse is a fixed point.
QString roundTripProblem(const std::string& src) {
  Module m1 = parse(src, "a.gls");
  std::string text = unparse(m1);
  Module m2;
  try {
    m2 = parse(text, "b.gls");
  } catch (const gl::EngineError& e) {
    return QString("unparsed text does not parse: %1\n%2")
        .arg(e.what(), QString::fromStdString(text));
  }
  if (dump(m2) != dump(m1))
    return QString::fromStdString("dumps differ\n" + dump(m1) + "vs\n" + dump(m2) + "text:\n" +
                                  text);
  if (unparse(m2) != text) return QString::fromStdString("unparse is not a fixed point:\n" + text);
  return {};
}

// One fuzz case: an AST that round-trips, or an EngineError pointing into the input.
struct FuzzStats {
  int parsed = 0, rejected = 0;
  QString summary() const { return QString("%1 parsed, %2 rejected").arg(parsed).arg(rejected); }
};

bool fuzzOne(const std::string& src, QString& why, FuzzStats& stats) {
  try {
    QString problem = roundTripProblem(src);
    if (!problem.isEmpty()) {
      why = problem;
      return false;
    }
    ++stats.parsed;
    return true;
  } catch (const gl::EngineError& e) {
    if (e.loc().file != "a.gls" || e.loc().line < 1 || e.loc().col < 1 || e.message().empty()) {
      why = QString("bad error: ") + e.what();
      return false;
    }
    ++stats.rejected;
    return true;
  } catch (const std::exception& e) {
    why = QString("unexpected exception: ") + e.what();
    return false;
  }
}

QByteArray escaped(const std::string& s) {
  QByteArray out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7F && c != '\\')
      out += char(c);
    else
      out += "\\x" + QByteArray::number(c, 16).rightJustified(2, '0');
  }
  return out;
}

void walk(const Expr& e, const std::function<void(const Expr&)>& f) {
  f(e);
  forEachChild(e, [&](const Expr& c) { walk(c, f); });
}

void walk(const Block& body, const std::function<void(const Expr&)>& f,
          const std::function<void(const Stmt&)>& g) {
  for (const StmtPtr& s : body) {
    g(*s);
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, Stmt::ExprStmt> || std::is_same_v<T, Stmt::Return>) {
            if (n.value) walk(*n.value, f);
          } else if constexpr (std::is_same_v<T, Stmt::Assign>) {
            for (const ExprPtr& t : n.targets) walk(*t, f);
            walk(*n.value, f);
          } else if constexpr (std::is_same_v<T, Stmt::AugAssign>) {
            walk(*n.target, f);
            walk(*n.value, f);
          } else if constexpr (std::is_same_v<T, Stmt::If>) {
            walk(*n.test, f);
            walk(n.body, f, g);
            walk(n.orelse, f, g);
          } else if constexpr (std::is_same_v<T, Stmt::While>) {
            walk(*n.test, f);
            walk(n.body, f, g);
          } else if constexpr (std::is_same_v<T, Stmt::For>) {
            walk(*n.target, f);
            walk(*n.iter, f);
            walk(n.body, f, g);
          } else if constexpr (std::is_same_v<T, Stmt::Def>) {
            walk(n.body, f, g);
          } else if constexpr (std::is_same_v<T, Stmt::ClassDef>) {
            walk(*n.header, f);
            walk(n.body, f, g);
          } else if constexpr (std::is_same_v<T, Stmt::With>) {
            for (const auto& item : n.items) walk(*item.context, f);
            walk(n.body, f, g);
          }
        },
        s->node);
  }
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// Generates random well-formed expressions and programs. Each expression comes with the dump
// the parser must produce; precedence levels mirror Python's grammar (loosest first).
class ExprGen {
 public:
  // clang-format off
  enum Level { kTuple, kLambda, kIfExp, kOr, kAnd, kNot, kCmp, kBitOr, kBitXor, kBitAnd, kShift,
               kArith, kTerm, kUnary, kPow, kPrimary, kAtom };
  // clang-format on
  struct G {
    std::string text, dump;
    int level = kAtom;
    bool intLiteral = false;
  };

  explicit ExprGen(unsigned seed) : rng_(seed) {}

  G expr(int depth) {
    if (depth <= 0) return leaf();
    switch (pick(14)) {
      case 0:
        return leaf();
      case 1: {  // unary
        static const char* ops[][2] = {{"-", "neg"}, {"+", "pos"}, {"~", "invert"}};
        auto& op = ops[pick(3)];
        G c = wrap(expr(depth - 1), kUnary);
        return {op[0] + c.text, std::string("(") + op[1] + " " + c.dump + ")", kUnary};
      }
      case 2: {
        G c = wrap(expr(depth - 1), kNot);
        return {"not " + c.text, "(not " + c.dump + ")", kNot};
      }
      case 3:
      case 4: {  // left-associative binary operators
        static const std::pair<const char*, int> ops[] = {
            {"|", kBitOr},  {"^", kBitXor}, {"&", kBitAnd}, {"<<", kShift},
            {">>", kShift}, {"+", kArith},  {"-", kArith},  {"*", kTerm},
            {"/", kTerm},   {"//", kTerm},  {"%", kTerm},   {"@", kTerm}};
        auto [op, level] = ops[pick(std::size(ops))];
        G l = wrap(expr(depth - 1), level), r = wrap(expr(depth - 1), level + 1);
        return {l.text + " " + op + " " + r.text,
                std::string("(") + op + " " + l.dump + " " + r.dump + ")", level};
      }
      case 5: {
        G l = wrap(expr(depth - 1), kPrimary), r = wrap(expr(depth - 1), kUnary);
        return {l.text + " ** " + r.text, "(** " + l.dump + " " + r.dump + ")", kPow};
      }
      case 6: {
        static const char* ops[] = {
            "<", "<=", ">", ">=", "==", "!=", "in", "not in", "is", "is not"};
        G l = wrap(expr(depth - 1), kBitOr);
        G out{l.text, "(cmp " + l.dump, kCmp};
        for (int n = 1 + pick(3); n > 0; --n) {
          const char* op = ops[pick(std::size(ops))];
          G r = wrap(expr(depth - 1), kBitOr);
          out.text += std::string(" ") + op + " " + r.text;
          out.dump += std::string(" ") + op + " " + r.dump;
        }
        out.dump += ")";
        return out;
      }
      case 7: {
        const bool isOr = pick(2);
        G out{"", std::string("(") + (isOr ? "or" : "and"), isOr ? kOr : kAnd};
        for (int n = 2 + pick(2), i = 0; i < n; ++i) {
          G v = wrap(expr(depth - 1), isOr ? kAnd : kNot);
          out.text += (i ? (isOr ? " or " : " and ") : "") + v.text;
          out.dump += " " + v.dump;
        }
        out.dump += ")";
        return out;
      }
      case 8: {
        G body = wrap(expr(depth - 1), kOr), test = wrap(expr(depth - 1), kOr),
          orelse = wrap(expr(depth - 1), kLambda);
        return {body.text + " if " + test.text + " else " + orelse.text,
                "(ifexp " + test.dump + " " + body.dump + " " + orelse.dump + ")", kIfExp};
      }
      case 9: {
        static const char* names[] = {"p", "q", "r"};
        std::string params, dumps;
        for (int n = pick(3), i = 0; i < n; ++i) {
          params += std::string(i ? ", " : " ") + names[i];
          if (i == n - 1 && pick(2)) {
            G d = wrap(expr(depth - 1), kLambda);
            params += "=" + d.text;
            dumps += std::string(i ? " " : "") + "(" + names[i] + " " + d.dump + ")";
          } else {
            dumps += std::string(i ? " " : "") + names[i];
          }
        }
        G body = wrap(expr(depth - 1), kLambda);
        return {"lambda" + params + ": " + body.text, "(lambda (" + dumps + ") " + body.dump + ")",
                kLambda};
      }
      case 10: {
        G f = wrap(expr(depth - 1), kPrimary);
        G out{f.text + "(", "(call " + f.dump, kPrimary};
        int n = pick(3);
        for (int i = 0; i < n; ++i) {
          G a = wrap(expr(depth - 1), kLambda);
          out.text += (i ? ", " : "") + a.text;
          out.dump += " " + a.dump;
        }
        if (pick(2)) {
          G v = wrap(expr(depth - 1), kLambda);
          out.text += std::string(n ? ", " : "") + "axis=" + v.text;
          out.dump += " (= axis " + v.dump + ")";
        }
        out.text += ")";
        out.dump += ")";
        return out;
      }
      case 11: {
        G v = wrap(expr(depth - 1), kPrimary);
        if (v.intLiteral) v.text = "(" + v.text + ")";
        return {v.text + ".attr", "(. " + v.dump + " attr)", kPrimary};
      }
      case 12: {
        G v = wrap(expr(depth - 1), kPrimary);
        const int n = 1 + pick(3);
        const bool comma = n > 1 || pick(4) == 0;
        std::string text, dumps;
        for (int i = 0; i < n; ++i) {
          G item = pick(2) ? wrap(expr(depth - 1), kLambda) : slice(depth - 1);
          text += (i ? ", " : "") + item.text;
          dumps += (i ? " " : "") + item.dump;
        }
        if (comma && n == 1) text += ",";
        return {v.text + "[" + text + "]",
                "(sub " + v.dump + " " + (comma ? "(tuple " + dumps + ")" : dumps) + ")", kPrimary};
      }
      default:
        return container(depth - 1);
    }
  }

  // A random valid program: the statement forms, nested, with loops and defs where allowed.
  std::string program() {
    std::string out;
    if (pick(2)) out += "param k = " + std::to_string(pick(5)) + " in 0..4\n";
    for (int n = 1 + pick(4); n > 0; --n) out += stmt(0, 3, false, false);
    return out;
  }

 private:
  int pick(std::size_t n) { return int(rng_() % n); }

  G wrap(G g, int minLevel) {
    if (g.level < minLevel || pick(10) == 0) {
      g.text = "(" + g.text + ")";
      g.level = kAtom;
      g.intLiteral = false;
    }
    return g;
  }

  G leaf() {
    switch (pick(9)) {
      case 0: {
        std::string v = std::to_string(pick(100));
        return {v, v, kAtom, true};
      }
      case 1:
        return {"2.5", "2.5", kAtom};
      case 2:
        return {"'s'", "\"s\"", kAtom};
      case 3:
        return {"None", "None", kAtom};
      case 4:
        return {"True", "True", kAtom};
      case 5:
        return {"...", "...", kAtom};
      default: {
        static const char* names[] = {"a", "b", "x", "tf"};
        const char* n = names[pick(4)];
        return {n, n, kAtom};
      }
    }
  }

  G slice(int depth) {
    std::string text, dump = "(slice";
    for (int part = 0; part < 3; ++part) {
      if (part == 2 && pick(2)) {  // no second colon
        dump += " _";
        continue;
      }
      if (part > 0) text += ":";
      if (pick(2)) {
        G b = wrap(expr(depth), kIfExp);
        text += b.text;
        dump += " " + b.dump;
      } else {
        dump += " _";
      }
    }
    return {text, dump + ")", kAtom};
  }

  G container(int depth) {
    const int kind = pick(3);
    if (kind == 2) {  // list comprehension
      G elt = wrap(expr(depth), kLambda), iter = wrap(expr(depth), kOr);
      const bool pair = pick(2);
      std::string text = "[" + elt.text + " for " + (pair ? "i, j" : "i") + " in " + iter.text;
      std::string dump =
          "(listcomp " + elt.dump + " (for " + (pair ? "(tuple i j)" : "i") + " " + iter.dump;
      if (pick(2)) {
        G c = wrap(expr(depth), kOr);
        text += " if " + c.text;
        dump += " (if " + c.dump + ")";
      }
      return {text + "]", dump + "))", kAtom};
    }
    const bool isList = kind == 0;
    const int n = pick(4);
    std::string text = isList ? "[" : "(", dump = isList ? "(list" : "(tuple";
    for (int i = 0; i < n; ++i) {
      G e = wrap(expr(depth), kLambda);
      text += (i ? ", " : "") + e.text;
      dump += " " + e.dump;
    }
    if (!isList && n == 1) text += ",";
    return {text + (isList ? "]" : ")"), dump + ")", kAtom};
  }

  std::string stmt(int indent, int depth, bool inLoop, bool inDef) {
    const std::string pad(std::size_t(indent) * 4, ' ');
    auto e = [&] { return expr(2).text; };
    auto block = [&](bool loop, bool def) {
      std::string b;
      for (int n = 1 + pick(3); n > 0; --n) b += stmt(indent + 1, depth - 1, loop, def);
      return b;
    };
    switch (depth <= 0 ? pick(4) : pick(12)) {
      case 0:
        return pad + e() + "\n";
      case 1:
        return pad + (pick(2) ? "a, (b, c)" : "x[" + e() + "]") + " = " + e() + ", " + e() + "\n";
      case 2:
        return pad + "a.b " + (pick(2) ? "+=" : "@=") + " " + e() + "\n";
      case 3: {
        if (inLoop && pick(2)) return pad + (pick(2) ? "break\n" : "continue\n");
        if (inDef && pick(2))
          return pad + "return" + (pick(2) ? " " + e() + ", " + e() : "") + "\n";
        return pad + "pass\n";
      }
      case 4:
      case 5: {
        std::string s = pad + "if " + e() + ":\n" + block(inLoop, inDef);
        for (int n = pick(3); n > 0; --n) s += pad + "elif " + e() + ":\n" + block(inLoop, inDef);
        if (pick(2)) s += pad + "else:\n" + block(inLoop, inDef);
        return s;
      }
      case 6:
        return pad + "while " + e() + ":\n" + block(true, inDef);
      case 7:
        return pad + "for i, j in " + e() + ":\n" + block(true, inDef);
      case 8:
        return pad + "def f(p, q=" + e() + "):\n" + block(false, true);
      case 9:
        return pad + "with " + e() + " as t, " + e() + ":\n" + block(inLoop, inDef);
      case 10:
        return pad + "if " + e() + ": " + e() + "; pass\n";
      default:
        return pad + "y = lambda p: " + e() + "  # comment\n";
    }
  }

  std::mt19937 rng_;
};

}  // namespace

class TestParser : public QObject {
  Q_OBJECT

 private slots:
  // ---- lexer ---------------------------------------------------------------------------------

  void lexNumbers() {
    auto toks = tokenize("1 1.5 1e-3 .5 1_000 0x1F 0o17 0b101 1. 2E+2 1..5");
    QCOMPARE(toks[0].intValue, 1);
    QCOMPARE(toks[1].floatValue, 1.5);
    QCOMPARE(toks[2].floatValue, 1e-3);
    QCOMPARE(toks[3].floatValue, 0.5);
    QCOMPARE(toks[4].intValue, 1000);
    QCOMPARE(toks[5].intValue, 31);
    QCOMPARE(toks[6].intValue, 15);
    QCOMPARE(toks[7].intValue, 5);
    QCOMPARE(toks[8].kind, Tok::Float);
    QCOMPARE(toks[8].floatValue, 1.0);
    QCOMPARE(toks[9].floatValue, 200.0);
    // `1..5` is Int DotDot Int, for param ranges.
    QCOMPARE(toks[10].kind, Tok::Int);
    QCOMPARE(toks[11].kind, Tok::DotDot);
    QCOMPARE(toks[12].intValue, 5);
  }

  void lexStrings() {
    // Source: 'a\n\t\\\'' "q\"\x41\101\u00e9" r'\d\'' '''tri<newline>ple''' "\q"
    // (moc cannot read this as a raw string literal).
    auto toks =
        tokenize("'a\\n\\t\\\\\\'' \"q\\\"\\x41\\101\\u00e9\" r'\\d\\'' '''tri\nple''' \"\\q\"");
    QCOMPARE(toks[0].text, std::string("a\n\t\\'"));
    QCOMPARE(toks[1].text, std::string("q\"AA\xC3\xA9"));
    QCOMPARE(toks[2].text, std::string("\\d\\'"));
    QCOMPARE(toks[3].text, std::string("tri\nple"));
    QCOMPARE(toks[4].text, std::string("\\q"));  // unknown escapes keep their backslash
    QCOMPARE(toks[4].line, 2);
  }

  void lexLineStructure() {
    // Comments, blank lines, implicit joining, continuation, CRLF, tabs (a tab and eight spaces
    // are the same width, but mixing them is a TabError: test_bad_scripts).
    const std::string src =
        "if a:  # c\r\n\r\n\tx = (1,\r\n  2)\r\n\ty = 1 + \\\r\n 2\r\n# end\r\nz\r\n";
    std::vector<Tok> kinds;
    for (const Token& t : tokenize(src)) kinds.push_back(t.kind);
    const std::vector<Tok> expected = {
        Tok::KwIf,    Tok::Name,   Tok::Colon,  Tok::Newline, Tok::Indent, Tok::Name,
        Tok::Assign,  Tok::LParen, Tok::Int,    Tok::Comma,   Tok::Int,    Tok::RParen,
        Tok::Newline, Tok::Name,   Tok::Assign, Tok::Int,     Tok::Plus,   Tok::Int,
        Tok::Newline, Tok::Dedent, Tok::Name,   Tok::Newline, Tok::End};
    QVERIFY(kinds == expected);
    auto toks = tokenize(src);
    QCOMPARE(toks[13].line, 5);  // y
    QCOMPARE(toks[13].col, 2);
    QCOMPARE(toks[20].line, 8);  // z
  }

  void lexColumnsCountCodePoints() {
    auto toks = tokenize("s = 'héllo' + η\n");
    QCOMPARE(toks[3].kind, Tok::Plus);
    QCOMPARE(toks[3].col, 13);
    QCOMPARE(toks[4].kind, Tok::Name);
    QCOMPARE(toks[4].text, std::string("η"));
    QCOMPARE(toks[4].col, 15);
  }

  void lexErrorIsLastToken() {
    auto toks = tokenize("x = 1\ny = $\n");
    QCOMPARE(toks.back().kind, Tok::End);
    const Token& err = toks[toks.size() - 2];
    QCOMPARE(err.kind, Tok::Error);
    QCOMPARE(err.text, std::string("invalid character '$'"));
    QCOMPARE(err.line, 2);
    QCOMPARE(err.col, 5);
  }

  // ---- parser --------------------------------------------------------------------------------

  void realisticProgram() {
    Module m = parse(kRealistic, "ode.gls");
    QCOMPARE(m.file, std::string("ode.gls"));
    QCOMPARE(int(m.body.size()), 5);
    auto params = paramDecls(m);
    QCOMPARE(int(params.size()), 1);
    QCOMPARE(params[0]->name, std::string("steps"));
    QCOMPARE(params[0]->value.value, 20000.0);
    QVERIFY(params[0]->value.isInt);
    QCOMPARE(params[0]->lo.value, 1.0);
    QCOMPARE(params[0]->hi.value, 100000.0);
    const std::string expected = R"((param steps 20000 1 100000)
(assign x (call (. (. tf random) normal) (list 10 5000) (= mean 10.0) (= stddev 1.0)))
(def ode_fn (x)
  (return (+ (neg x) 1.0)))
(def integrate (x nsteps dt)
  (def cond (i y)
    (return (cmp i < nsteps)))
  (def body (i y)
    (return (tuple (+ i 1) (+ y (* dt (call ode_fn y))))))
  (assign (tuple _ y) (call (. tf while_loop) cond body (list (call (. tf constant) 0) x) (= parallel_iterations 1)))
  (return (call (. tf reduce_sum) y)))
(with ((call variant "vectorized"))
  (with ((call (. tf GradientTape)) tape)
    (expr (call (. tape watch) x))
    (assign lnp (call integrate x steps 0.1)))
  (assign g (call (. tape gradient) lnp x))
  (assign heads (listcomp h (for h (call range 3) (if (cmp h != 1)))))
  (assign y (ifexp (cmp steps > 10) (sub x (tuple 0 (slice 1 3 _) ...)) (sub x (slice _ _ 2))))
  (expr (call (. tf print) "grad" (sub g (tuple 0 (slice _ 4 _))))))
)";
    QCOMPARE(dump(m), expected);
    QString problem = roundTripProblem(kRealistic);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    // Every node knows where it is.
    int exprs = 0;
    walk(
        m.body,
        [&](const Expr& e) {
          ++exprs;
          QVERIFY(e.loc.line >= 1 && e.loc.col >= 1 && e.loc.file == "ode.gls");
        },
        [&](const Stmt& s) { QVERIFY(s.loc.line >= 1 && s.loc.col >= 1); });
    QVERIFY(exprs > 80);
  }

  void roundTrip_data() {
    QTest::addColumn<QByteArray>("source");
    auto row = [](const char* name, const char* src) { QTest::newRow(name) << QByteArray(src); };
    row("expression statement", "f(x)\n");
    row("assign", "x = 1\n");
    row("chained assign", "a = b = c\n");
    row("tuple unpack", "a, b = f()\n");
    row("paren tuple unpack", "(a, b) = 1, 2\n");
    row("list unpack", "[a, (b, c)] = x\n");
    row("subscript assign", "x[i] = v\nx[1:2, ...] = 0\n");
    row("attribute assign", "a.b.c = 1\n");
    row("augmented", "a += 1\na -= 1\na *= 2\na /= 2\na @= w\na //= 2\na %= 2\na **= 2\n");
    row("augmented bitwise", "a |= 1\na ^= 1\na &= 1\na <<= 1\na >>= 1\n");
    row("if", "if a:\n    b\n");
    row("if else", "if a:\n    b\nelse:\n    c\n");
    row("if elif else", "if a:\n    b\nelif c:\n    d\nelif e:\n    f\nelse:\n    g\n");
    row("else if", "if a:\n    b\nelse:\n    if c:\n        d\n");
    row("while", "while i < n:\n    i += 1\n    if i: break\n    continue\n");
    row("for", "for i in range(10):\n    s = s + i\n");
    row("for tuple", "for i, (a, b) in enumerate(zip(x, y)):\n    pass\n");
    row("for over tuple", "for i in 1, 2:\n    pass\n");
    row("def", "def f(a, b=2, c=None):\n    return a\n");
    row("nested def", "def f():\n    def g(x):\n        return x\n    return g\n");
    row("dict", "d = {}\ne = {'a': 1, 2: [x, y], 'c': {'d': None}}\n");
    row("decorators", "@tf.function\n@tf.function(jit_compile=True)\ndef f(x):\n    return x\n");
    row("nested decorator", "def f():\n    @g\n    def h():\n        pass\n    return h\n");
    row("return forms",
        "def f():\n    return\ndef g():\n    return 1, 2\ndef h():\n    return (1,)\n");
    row("lambda", "f = lambda: 0\ng = lambda x, y=2: x + y\nh = lambda x=lambda: 1: x\n");
    row("with", "with a:\n    pass\n");
    row("with as", "with tf.GradientTape(persistent=True) as tape:\n    tape.watch(x)\n");
    row("with items", "with a as x, b as y, c:\n    pass\n");
    row("pass break continue", "while 1:\n    pass\n    break\n    continue\n");
    row("param", "param steps = 20000 in 1..100000\nparam lr = 0.5 in 1e-3..1.0\n");
    row("param negative", "param a = -1 in -10..-0.5e-1\nparam b = -0.25 in -1.5..+2\n");
    row("param class preset",
        "param steps = 20000 in 1..100000 class 200\nparam r = 1.5 in 0..2 class 0.5\n");
    row("param soft keyword", "param = 3\nparam += param\nparams = [param for param in x]\n");
    row("list comprehension", "y = [x * 2 for x in xs if x > 0 if x < 9 for z in x]\n");
    row("comprehension of tuples", "y = [(a, b) for a, b in pairs]\n");
    row("slices", "y = x[1:3, ::2, i]\ny = x[:]\ny = x[::]\ny = x[1:]\ny = x[:-1]\ny = x[a:b:c]\n");
    row("ellipsis none", "y = x[..., 0]\ny = x[None]\ny = x[i,]\ny = x[()]\ny = x[(a, b)]\n");
    row("literals",
        "x = [1, 1.5, 1e-3, .5, 1_000, 0x1F, True, False, None, ..., 1e300, 2.5e-300]\n");
    row("strings",
        "s = 'a\\n\\t\"q\"' + \"it's\" + '\\x00\\x7f' + '\xC3\xA9\xE2\x82\xAC' + r'\\d'\n");
    row("docstring", "def f():\n    '''Doc\n    string.'''\n    return 1\n");
    row("calls", "f()\nf(x)\nf(x, y, axis=1, keepdims=True)\nf(k=1)\nf(x)(y)[0].z\n");
    row("empty containers", "a = []\nb = ()\nc = (1,)\nd = [[]]\n");
    row("comparisons", "a < b <= c > d >= e == f != g\na in b\na not in b\na is b\na is not b\n");
    row("boolean", "a and b or c and not d\nnot (a or b)\n(a or b) or c\na or (b or c)\n");
    row("arithmetic", "a + b - c * d / e // f % g @ h ** i\n-a + +b - ~c\n(a + b) * (c - d)\n");
    row("bitwise", "a | b ^ c & d << e >> f\n(a | b) & c\n");
    row("power", "-x ** 2\n(-x) ** 2\nx ** -y\na ** b ** c\n(a ** b) ** c\n2 ** 3 ** -1\n");
    row("ternary", "a if b else c\n(a if b else c) if d else e\na if (b if c else d) else e\n");
    row("lambda precedence",
        "lambda x: x + 1 if c else 2\n(lambda: 1)()\nf(lambda: 1, key=lambda x: -x)\n");
    row("primary on literals", "(1).real\n1.5.real\n'ab'.upper()\n[1][0]\n(a + b).T\n(-a)[0]\n");
    row("semicolons", "a = 1; b = 2;\nc = 3\n");
    row("one-line bodies", "if a: b = 1\nelse: c = 2\nwhile x: x -= 1\ndef f(): return 1\n");
    row("continuation", "x = 1 + \\\n    2\ny = f(1,\n      2)\nz = [\n    1,\n    2,\n]\n");
    row("comments and blanks", "# top\n\nx = 1  # trailing\n\n    # odd indent\ny = 2\n");
    row("crlf", "if a:\r\n    b = 1\r\n");
    row("tabs", "if a:\n\tb = 1\n\tc = 2\n");
    row("unicode names", "\xCE\xB7 = 0.1\nw = w - \xCE\xB7 * g\n");
    row("slice lambda", "x[(lambda: 1):2]\nx[lambda: 1]\n");
    row("realistic", kRealistic);
    row("everything", kEverything);
  }

  void roundTrip() {
    QFETCH(QByteArray, source);
    try {
      QString problem = roundTripProblem(source.toStdString());
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
    } catch (const gl::EngineError& e) {
      QFAIL(e.what());
    }
  }

  void unparseText_data() {
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QByteArray>("expected");
    auto row = [](const char* src, const char* out) {
      QTest::newRow(src) << QByteArray(src) << QByteArray(out);
    };
    row("((a + b)) * c", "(a + b) * c");
    row("a + (b * c)", "a + b * c");
    row("a - (b - c)", "a - (b - c)");
    row("(a - b) - c", "a - b - c");
    row("-(x ** 2)", "-x ** 2");
    row("(-x) ** 2", "(-x) ** 2");
    row("(a ** b) ** c", "(a ** b) ** c");
    row("a ** (b ** c)", "a ** b ** c");
    row("(a, b)", "a, b");
    row("(a,)", "a,");
    row("f((a, b))", "f((a, b))");
    row("x[(1, 2)]", "x[1, 2]");
    row("x[1:2:]", "x[1:2]");
    row("not (a and b)", "not (a and b)");
    row("(not a) and b", "not a and b");
    row("a if b else (c if d else e)", "a if b else c if d else e");
    row("(lambda: 1)()", "(lambda: 1)()");
    row("(1).real", "(1).real");
    row("(a < b) < c", "(a < b) < c");
    row("'it\\'s'", "\"it's\"");
  }

  void unparseText() {
    QFETCH(QByteArray, source);
    QFETCH(QByteArray, expected);
    ExprPtr e = parseExpr(source.toStdString());
    QVERIFY(e);
    QCOMPARE(QByteArray::fromStdString(unparse(*e)), expected);
  }

  void precedence_data() {
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QByteArray>("expected");
    auto row = [](const char* src, const char* out) {
      QTest::newRow(src) << QByteArray(src) << QByteArray(out);
    };
    row("-x**2", "(neg (** x 2))");
    row("a + b * c @ d", "(+ a (@ (* b c) d))");
    row("not a == b", "(not (cmp a == b))");
    row("lambda x: x + 1 if c else 2", "(lambda (x) (ifexp c (+ x 1) 2))");
    row("a ** b ** c", "(** a (** b c))");
    row("2 ** -1", "(** 2 (neg 1))");
    row("-2 ** -1", "(neg (** 2 (neg 1)))");
    row("a - b - c", "(- (- a b) c)");
    row("a // b % c / d", "(/ (% (// a b) c) d)");
    row("a < b < c", "(cmp a < b < c)");
    row("a not in b is not c", "(cmp a not in b is not c)");
    row("a == b in c", "(cmp a == b in c)");
    row("a or b and not c", "(or a (and b (not c)))");
    row("a and b or c and d", "(or (and a b) (and c d))");
    row("a or b or c", "(or a b c)");
    row("not not a", "(not (not a))");
    row("not a < b and c", "(and (not (cmp a < b)) c)");
    row("a | b ^ c & d << 1 + 2", "(| a (^ b (& c (<< d (+ 1 2)))))");
    row("a + b < c | d", "(cmp (+ a b) < (| c d))");
    row("~x + 1", "(+ (invert x) 1)");
    row("-a.b[0](1)", "(neg (call (sub (. a b) 0) 1))");
    row("a @ b.T", "(@ a (. b T))");
    row("f()()[0]", "(sub (call (call f)) 0)");
    row("x if a else y if b else z", "(ifexp a x (ifexp b y z))");
    row("a if b else lambda: c", "(ifexp b a (lambda () c))");
    row("lambda x, y=2: x", "(lambda (x (y 2)) x)");
    row("lambda: lambda: 1", "(lambda () (lambda () 1))");
    row("(a, b)", "(tuple a b)");
    row("a, b", "(tuple a b)");
    row("a,", "(tuple a)");
    row("()", "(tuple)");
    row("[]", "(list)");
    row("x[1:3, ::2, i]", "(sub x (tuple (slice 1 3 _) (slice _ _ 2) i))");
    row("x[..., 0]", "(sub x (tuple ... 0))");
    row("x[None]", "(sub x None)");
    row("x[:]", "(sub x (slice _ _ _))");
    row("x[i,]", "(sub x (tuple i))");
    row("x[-1:]", "(sub x (slice (neg 1) _ _))");
    row("f(x, axis=1)", "(call f x (= axis 1))");
    row("[y for x in a for y in x if y if z]", "(listcomp y (for x a) (for y x (if y) (if z)))");
    row("[a if b else c for d in e if f or g]", "(listcomp (ifexp b a c) (for d e (if (or f g))))");
    row("[k for k, v in items]", "(listcomp k (for (tuple k v) items))");
    row("1_000 + .5 + 1e-3 + 0x1F", "(+ (+ (+ 1000 0.5) 0.001) 31)");
    row("'a' \"b\" '''c'''", "\"abc\"");
    row("True is not False", "(cmp True is not False)");
  }

  void precedence() {
    QFETCH(QByteArray, source);
    QFETCH(QByteArray, expected);
    try {
      ExprPtr e = parseExpr(source.toStdString());
      QVERIFY(e);
      QCOMPARE(QByteArray::fromStdString(dump(*e)), expected);
    } catch (const gl::EngineError& e) {
      QFAIL(e.what());
    }
  }

  void locations() {
    const std::string src =
        "x = a + b * c\n"
        "def f(p, q=2):\n"
        "    return g(p, axis=q)[0].t\n"
        "if x:\n"
        "    pass\n"
        "elif y:\n"
        "  with m as n:\n"
        "    z = [i for i in r]\n";
    Module m = parse(src, "loc.gls");
    auto at = [](const gl::SourceLoc& l, int line, int col) {
      return l.line == line && l.col == col && l.file == "loc.gls";
    };
    const auto* assign = m.body[0]->as<Stmt::Assign>();
    QVERIFY(at(m.body[0]->loc, 1, 1));
    QVERIFY(at(assign->targets[0]->loc, 1, 1));
    const auto* sum = assign->value->as<Expr::Binary>();
    QVERIFY(at(assign->value->loc, 1, 5));  // a binary node starts at its left operand
    QVERIFY(at(sum->left->loc, 1, 5));
    QVERIFY(at(sum->right->loc, 1, 9));
    QVERIFY(at(sum->right->as<Expr::Binary>()->right->loc, 1, 13));

    const auto* def = m.body[1]->as<Stmt::Def>();
    QVERIFY(at(m.body[1]->loc, 2, 1));
    QVERIFY(at(def->params[0].loc, 2, 7));
    QVERIFY(at(def->params[1].loc, 2, 10));
    QVERIFY(at(def->params[1].defaultValue->loc, 2, 12));
    QVERIFY(at(def->body[0]->loc, 3, 5));
    const ExprPtr& attr = def->body[0]->as<Stmt::Return>()->value;
    QVERIFY(at(attr->loc, 3, 12));  // g(...)[0].t starts at g
    const auto* sub = attr->as<Expr::Attribute>()->value->as<Expr::Subscript>();
    QVERIFY(at(sub->index->loc, 3, 25));
    const auto* call = sub->value->as<Expr::Call>();
    QVERIFY(at(call->args[0]->loc, 3, 14));
    QVERIFY(at(call->keywords[0].loc, 3, 17));
    QVERIFY(at(call->keywords[0].value->loc, 3, 22));

    const auto* ifs = m.body[2]->as<Stmt::If>();
    QVERIFY(at(m.body[2]->loc, 4, 1));
    QVERIFY(at(ifs->test->loc, 4, 4));
    QVERIFY(at(ifs->orelse[0]->loc, 6, 1));  // the elif
    const auto* elif = ifs->orelse[0]->as<Stmt::If>();
    QVERIFY(at(elif->test->loc, 6, 6));
    const auto* with = elif->body[0]->as<Stmt::With>();
    QVERIFY(at(elif->body[0]->loc, 7, 3));
    QVERIFY(at(with->items[0].context->loc, 7, 8));
    QVERIFY(at(with->items[0].asLoc, 7, 13));
    const ExprPtr& comp = with->body[0]->as<Stmt::Assign>()->value;
    QVERIFY(at(comp->loc, 8, 9));  // a list starts at '['
    QVERIFY(at(comp->as<Expr::ListComp>()->generators[0].iter->loc, 8, 21));
  }

  void errors_data() {
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("col");
    auto row = [](const char* src, const char* msg, int line, int col) {
      QTest::newRow(src) << QByteArray(src) << QString::fromUtf8(msg) << line << col;
    };
    row("f(x))\n", "unexpected ')'", 1, 5);
    row("@tf.function\nx = 1\n", "expected 'def' after a decorator", 2, 1);
    row("x = )\n", "unexpected ')'", 1, 5);
    row("if x\n    pass\n", "expected ':' after the if condition", 1, 5);
    row("if x:\n    pass\nelif y\n    pass\n", "expected ':' after the elif condition", 3, 7);
    row("if x:\n    a = 1\n  b = 2\n", "unindent does not match any outer indentation level", 3, 3);
    row("s = 'abc\n", "unterminated string", 1, 5);
    row("s = '''abc\n\n", "unterminated triple-quoted string", 1, 5);
    row("x = 1 $ 2\n", "invalid character '$'", 1, 7);
    row("x = 'é' + ¤\n", "invalid character '¤' (U+00A4)", 1, 11);
    row("x = 1\x01\n", "invalid non-printable character U+0001", 1, 6);
    row("x = \xff\n", "byte 0xFF is not valid UTF-8", 1, 5);
    row("def f():\nreturn 1\n", "expected an indented block after 'def'", 2, 1);
    row("if x:\npass\n", "expected an indented block after 'if'", 2, 1);
    row("for i in x:\n", "expected an indented block after 'for'", 2, 1);
    row("return 1\n", "'return' outside a function", 1, 1);
    row("break\n", "'break' outside a loop", 1, 1);
    row("while x:\n    def f():\n        continue\n", "'continue' outside a loop", 3, 9);
    row("f() = 1\n", "invalid syntax: cannot assign to a function call", 1, 1);
    row("a, f(b) = 1, 2\n", "cannot assign to a function call", 1, 4);
    row("x + 1 = 2\n", "invalid syntax: cannot assign to an expression", 1, 1);
    row("1 = x\n", "cannot assign to a literal", 1, 1);
    row("True = 1\n", "cannot assign to True", 1, 1);
    row("x = y if z else w = 3\n", "cannot assign to a conditional expression", 1, 5);
    row("for f(x) in y:\n    pass\n", "cannot assign to a function call", 1, 5);
    row("y = [x for 1 in y]\n", "cannot assign to a literal", 1, 12);
    row("a, b += 1\n", "augmented assignment needs a single target, not a tuple", 1, 1);
    row("f() += 1\n", "cannot assign to a function call", 1, 1);
    row("x = (1, 2\ny = 3\n", "'(' was never closed", 1, 5);
    row("x = [1, 2\n", "'[' was never closed", 1, 5);
    row("f(a,\n  b\n  c)\n", "expected ',' or ')' after a call argument", 3, 3);
    row("x = [1, 2)\n", "closing ')' does not match opening '['", 1, 10);
    row("  x = 1\n", "unexpected indent", 1, 3);
    row("x = 1\n  y = 2\n", "unexpected indent", 2, 3);
    row("if x:\n    a\n\tb\n", "inconsistent use of tabs and spaces in indentation", 3, 2);
    row("x = 1 +\n", "expected an expression, found end of line", 1, 8);
    row("x = 1 if True else\n", "expected an expression, found end of line", 1, 19);
    row("y = a if b\n", "expected 'else' after the condition of a conditional expression", 1, 11);
    row("x = 1 2\n", "unexpected number '2'", 1, 7);
    row("a not b\n", "unexpected 'not'", 1, 3);
    row("def f(x, x):\n    pass\n", "duplicate parameter 'x'", 1, 10);
    row("def f(x=1, y):\n    pass\n",
        "parameter 'y' without a default follows a parameter with a default", 1, 12);
    row("def f(*):\n    pass\n", "named parameters must follow a bare '*'", 1, 7);
    row("def f(**k, a):\n    pass\n", "parameters cannot follow '**k'", 1, 12);
    row("def f(*a=1):\n    pass\n", "'*a' cannot have a default value", 1, 8);
    row("def f(*a, *b):\n    pass\n", "'*' may appear only once among parameters", 1, 11);
    row("def (x):\n    pass\n", "expected a function name after 'def'", 1, 5);
    row("def f x:\n    pass\n", "expected '(' after the function name", 1, 7);
    row("def f(x) -> y:\n    pass\n", "expected ':' after the parameter list", 1, 10);
    row("f(axis=1, 2)\n", "positional argument follows keyword argument", 1, 11);
    row("f(a=1, a=2)\n", "keyword argument repeated: 'a'", 1, 8);
    row("f(a + 1=2)\n", "a keyword argument needs a plain name", 1, 8);
    row("f(**k, *a)\n", "iterable argument unpacking follows keyword argument unpacking", 1, 8);
    row("f(**k, a)\n", "positional argument follows keyword argument unpacking", 1, 8);
    row("x = (a for a in b)\n", "generator expressions are not supported", 1, 8);
    row("lambda x x: 1\n", "expected ':' after the lambda parameters", 1, 10);
    row("for i range(3):\n    pass\n", "expected 'in' after the for loop variable", 1, 7);
    row("for i in range(3)\n    pass\n", "expected ':' after the for loop's iterable", 1, 18);
    row("while True\n    pass\n", "expected ':' after the while condition", 1, 11);
    row("while x:\n    pass\nelse:\n    pass\n", "'else' after a loop is not supported", 3, 1);
    row("else:\n    pass\n", "'else' without a matching 'if'", 1, 1);
    row("with tf.GradientTape() as 3:\n    pass\n", "expected a name after 'as'", 1, 27);
    row("with a as b c:\n    pass\n", "expected ':' after the with item", 1, 13);
    row("x = 012\n", "leading zeros in decimal integer literals are not permitted", 1, 5);
    row("x = 1__0\n", "invalid decimal literal", 1, 5);
    row("x = 1abc\n", "invalid decimal literal", 1, 5);
    row("x = 0x\n", "invalid hexadecimal literal", 1, 5);
    row("x = 3j\n", "complex numbers are not supported", 1, 5);
    row("x = 99999999999999999999\n", "integer literal is too large", 1, 5);
    row("x = 1e999\n", "float literal is out of range", 1, 5);
    row("x = '\\x4'\n", "truncated \\xXX escape", 1, 6);
    row("s = f'{}'\n", "f-string: empty expression not allowed", 1, 7);
    row("s = f'{x'\n", "f-string: expecting '}'", 1, 7);
    row("s = f'a}'\n", "f-string: single '}' is not allowed", 1, 8);
    row("s = f'{x!z}'\n", "f-string: invalid conversion character: expected 's', 'r', or 'a'", 1,
        10);
    row("s = f'{a b}'\n", "expected ',' or ')'", 1, 10);
    row("s = f'{1 +}'\n", "unexpected ')'", 1, 11);
    row("s = f'{x\\n}'\n", "f-string expression part cannot include a backslash", 1, 9);
    row("s = f'{x:{y:{z}}}'\n", "f-string: expressions nested too deeply", 1, 13);
    row("s = f'ab\n", "unterminated string", 1, 5);
    row("s = f'{d['k']}'\n", "f-string: expecting '}'", 1, 7);
    row("x = 1\ns = f'''\n{x +\n  (}'''\n", "f-string: expecting '}'", 3, 1);
    row("s = f'''{\n  x +\n  }'''\n", "unexpected ')'", 3, 3);
    row("s = b'x'\n", "bytes literals are not supported", 1, 5);
    row("class A\n    pass\n", "expected ':' after the class header", 1, 8);
    row("@dataclass\nclass A:\n    pass\n", "class decorators are not supported", 2, 1);
    row("class A:\n    return 1\n", "'return' outside a function", 2, 5);
    row("import\n", "expected a module name after 'import'", 1, 7);
    row("import a.\n", "expected a name after '.'", 1, 10);
    row("import a as\n", "expected a name after 'as'", 1, 12);
    row("from . import x\n", "relative imports ('from . import ...') are not supported", 1, 6);
    row("from tensorflow keras\n", "expected 'import' after the module name", 1, 17);
    row("from tensorflow import\n", "expected a name to import", 1, 23);
    row("from a import (b, c\n", "'(' was never closed", 1, 15);
    row("del 1\n", "invalid syntax: cannot delete a literal", 1, 5);
    row("del f()\n", "invalid syntax: cannot delete a function call", 1, 5);
    row("del\n", "expected a name after 'del'", 1, 4);
    row("assert\n", "expected an expression, found end of line", 1, 7);
    row("assert x,\n", "expected an expression, found end of line", 1, 10);
    // The try statement's grammar (Python's reference, "The try statement").
    row("try:\n    x = 1\n", "expected 'except' or 'finally' after the 'try' block", 3, 1);
    row("try:\n    x = 1\nelse:\n    y = 2\n", "'else' after 'try' needs an 'except' clause first",
        3, 1);
    row("try:\n    x = 1\nexcept:\n    pass\nexcept ValueError:\n    pass\n",
        "default 'except:' must be last", 3, 1);
    row("try:\n    x = 1\nexcept A, B:\n    pass\n",
        "multiple exception types must be parenthesized", 3, 9);
    row("try:\n    x = 1\nexcept* A:\n    pass\n", "'except*' (exception groups) is not supported",
        3, 7);
    row("except ValueError:\n    pass\n", "'except' without a matching 'try'", 1, 1);
    row("x = 1\nfinally:\n    pass\n", "'finally' without a matching 'try'", 2, 1);
    row("try\n    x = 1\n", "expected ':' after 'try'", 1, 4);
    row("x = raise\n", "'raise' is not supported", 1, 5);
    row("x = yield\n", "'yield' is not supported in GradLab script", 1, 5);
    row("d = {1, 2}\n", "expected ':' after a dict key (set literals are not supported)", 1, 7);
    row("x[] = 1\n", "expected an index or a slice inside '[]'", 1, 3);
    row("x = a.1\n", "unexpected number '.1'", 1, 6);
    row("x = 1 \\ 2\n", "unexpected character after line continuation character", 1, 7);
    row("x = 1 + \\", "unexpected end of file after line continuation character", 1, 9);
    row("param steps = 0 in 1..10\n", "param 'steps' = 0 is outside its range 1..10", 1, 15);
    row("param s = 5 in 10..-1\n", "empty param range 10..-1", 1, 16);
    row("param a = 1 in 0..2\nparam a = 1 in 0..2\n", "param 'a' is declared twice", 2, 7);
    row("def f():\n    param a = 1 in 0..2\n", "'param' declarations must be at the top level", 2,
        5);
    row("with variant('a'):\n    param a = 1 in 0..2\n", "must be at the top level", 2, 5);
    row("param a = x in 0..2\n", "expected a number after '='", 1, 11);
    row("param a 1 in 0..2\n", "expected '=' after the param name", 1, 9);
    row("param a = 1 from 0..2\n", "expected 'in' and a range after the param value", 1, 13);
    row("param a = 1 in 0...2\n", "expected '..' between the bounds of the param range", 1, 17);
    row("param a = 1 in 0..\n", "expected a number for the upper bound", 1, 19);
    row("param a = 1 in 0..2 class\n", "expected a number after 'class'", 1, 26);
    row("param a = 1 in 0..2 class 3\n", "param 'a' class 3 is outside its range 0..2", 1, 27);
    row("param a = 1 in 0..2 klass 1\n", "unexpected", 1, 21);
  }

  void errors() {
    QFETCH(QByteArray, source);
    QFETCH(QString, message);
    QFETCH(int, line);
    QFETCH(int, col);
    try {
      Module m = parse(source.toStdString(), "bad.gls");
      QFAIL(qPrintable("parsed without error:\n" + QString::fromStdString(dump(m))));
    } catch (const gl::EngineError& e) {
      const QString got = QString::fromStdString(e.message());
      QVERIFY2(got.contains(message), qPrintable("message: " + got));
      QCOMPARE(e.loc().file, std::string("bad.gls"));
      QCOMPARE(e.loc().line, line);
      QCOMPARE(e.loc().col, col);
      const QString what = QString::fromUtf8(e.what());
      QVERIFY2(what.startsWith(QString("bad.gls:%1:%2: ").arg(line).arg(col)), qPrintable(what));
    }
  }

  void accepted_data() {
    QTest::addColumn<QByteArray>("source");
    auto row = [](const char* name, const char* src) { QTest::newRow(name) << QByteArray(src); };
    // Mixed tabs and spaces are accepted where the meaning does not depend on the tab size.
    row("tabs", "if x:\n\tpass\n\tpass\n");
    row("spaces after a tab", "if x:\n\tif y:\n\t    a = 1\n\tb = 2\n");
    row("spaces before a tab", "if x:\n    \ta = 1\n    \tb = 2\n");
    row("empty file", "");
    row("only comments", "# a\n\n   # b\n");
    row("no final newline", "x = 1");
    row("no final newline in block", "if x:\n    y = 1");
    row("BOM", "\xEF\xBB\xBFx = 1\n");
    row("form feed", "\fx = 1\n");
    row("return in def in loop", "while x:\n    def f():\n        return 1\n    break\n");
    row("break in nested loop in def",
        "def f():\n    for i in x:\n        while y:\n            break\n");
    row("param int bounds float value", "param a = 0.5 in 0..1\n");
    row("imports",
        "from __future__ import annotations\nimport tensorflow as tf\n"
        "import a.b, c\nfrom a.b import c as d, e\nfrom x import *\n"
        "from tensorflow.keras.layers import (Dense,\n    Conv2D)\n");
    row("del and assert", "del a, b[1], c.d\nassert x, 'm'\nassert y\n");
    row("try statements",
        "try:\n    x = 1\nexcept (A, B) as e:\n    raise\nexcept C:\n    raise D('m') from e\n"
        "except:\n    pass\nelse:\n    y = 2\nfinally:\n    z = 3\n"
        "try: a = 1\nfinally: b = 2\nraise E\n");
    row("star args", "f(*a, b, **k, c=1)\nf(x, *a, *b)\ng(**a, **b)\n");
    row("star params",
        "def f(a, *args, k=1, **kw):\n    pass\ndef g(a, *, k, j=2):\n    pass\n"
        "h = lambda i, *_: i\nq = lambda *, k: k\n");
    row("f-strings",
        "s = f'a{x!r:>{w}.3f}b{{c}}'\nt = f\"{d['k']}\" 'x' f'{y=}'\n"
        "u = rf'\\d{n}' + F\"{a if b else c:>5}\"\nv = f'''{\n  x\n}'''\n");
    row("f-string nested", "s = f\"{f'{x}'}\"\nt = f'{[1, {2: 3}][0]:{w}}'\n");
    row("param range edges", "param a = 1 in 1..1\n");
  }

  void accepted() {
    QFETCH(QByteArray, source);
    try {
      QString problem = roundTripProblem(source.toStdString());
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
    } catch (const gl::EngineError& e) {
      QFAIL(e.what());
    }
  }

  // Python's own forms: the trees they parse to.
  void pythonForms_data() {
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("tree");
    auto row = [](const char* src, const char* tree) {
      QTest::newRow(src) << QByteArray(src) << QString(tree);
    };
    row("import tensorflow as tf, math\n", "(import tensorflow as tf math)\n");
    row("from tensorflow.keras import layers as L, Model\n",
        "(from tensorflow.keras import layers as L Model)\n");
    row("del x, y[0]\n", "(del x (sub y 0))\n");
    row("assert x > 0, 'pos'\n", "(assert (cmp x > 0) \"pos\")\n");
    row("try:\n    f()\nexcept ValueError as e:\n    raise\nelse:\n    g()\nfinally:\n    h()\n",
        "(try\n  (expr (call f))\n (except ValueError as e\n   (raise))\n (else\n   (expr (call "
        "g)))\n"
        " (finally\n   (expr (call h))))\n");
    row("raise ValueError('m') from None\n", "(raise (call ValueError \"m\") from None)\n");
    row("s = f'a{x:.3f}b'\n", "(assign s (fstr \"a\" (fmt x (fstr \".3f\")) \"b\"))\n");
    row("s = f'{x!r}{{}}'\n", "(assign s (fstr (fmt x !r) \"{}\"))\n");
    row("s = f'{x=}'\n", "(assign s (fstr \"x=\" (fmt x !r)))\n");
    row("s = f'{x = :>5}'\n", "(assign s (fstr \"x = \" (fmt x (fstr \">5\"))))\n");
    row("s = f'{x:{w}}'\n", "(assign s (fstr (fmt x (fstr (fmt w)))))\n");
    row("s = 'a' f'{b}' 'c'\n", "(assign s (fstr \"a\" (fmt b) \"c\"))\n");
    row("s = f'{a, b}'\n", "(assign s (fstr (fmt (tuple a b))))\n");
    row("s = f'{x==y}{x!=y}'\n", "(assign s (fstr (fmt (cmp x == y)) (fmt (cmp x != y))))\n");
    row("s = f\"{d['k']}\"\n", "(assign s (fstr (fmt (sub d \"k\"))))\n");
    row("f(*a, **k)\n", "(expr (call f (* a) (** k)))\n");
    row("def f(a, *r, k=1, **kw):\n    pass\n", "(def f (a *r (k 1) **kw)\n  (pass))\n");
    row("g = lambda i, *_: i\n", "(assign g (lambda (i *_) i))\n");
    row("def f(a, *, k):\n    pass\n", "(def f (a * k)\n  (pass))\n");
  }

  void pythonForms() {
    QFETCH(QByteArray, source);
    QFETCH(QString, tree);
    QCOMPARE(QString::fromStdString(dump(parse(source.toStdString(), "t.py"))), tree);
  }

  // An f-string field's expression is located where it is written, on any line.
  void fstringLocations() {
    Module m = parse("x = 1\ns = f'ab{x + y}' f'''\n  {z}'''\n", "t.py");
    const auto* j = m.body[1]->as<Stmt::Assign>()->value->as<Expr::JoinedStr>();
    QVERIFY(j);
    QCOMPARE(j->values.size(), size_t(4));  // "ab", {x + y}, "\n  ", {z}
    const Expr& sum = *j->values[1]->as<Expr::FormattedValue>()->value;
    QCOMPARE(sum.loc.line, 2);
    QCOMPARE(sum.loc.col, 10);
    const Expr& z = *j->values[3]->as<Expr::FormattedValue>()->value;
    QCOMPARE(z.loc.line, 3);
    QCOMPARE(z.loc.col, 4);
  }

  void paramKinds() {
    Module m = parse("param a = -3 in -5..5\nparam b = 2.5 in 0..1e1\n", "p.gls");
    auto ps = paramDecls(m);
    QCOMPARE(int(ps.size()), 2);
    QVERIFY(ps[0]->value.isInt && ps[0]->lo.isInt && ps[0]->hi.isInt);
    QCOMPARE(ps[0]->value.value, -3.0);
    QCOMPARE(ps[0]->lo.value, -5.0);
    QVERIFY(!ps[1]->value.isInt && ps[1]->lo.isInt && !ps[1]->hi.isInt);
    QCOMPARE(ps[1]->hi.value, 10.0);
    QCOMPARE(ps[1]->value.loc.col, 11);
  }

  // Deep input is an error with a location, never a stack overflow.
  void deepNesting_data() {
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const std::string& src, const char* msg) {
      QTest::newRow(name) << QByteArray::fromStdString(src) << QString(msg);
    };
    row("parentheses", "x = " + repeat("(", 10000) + "1" + repeat(")", 10000) + "\n",
        "too many nested parentheses");
    row("brackets", "x = " + repeat("[", 10000) + "\n", "too many nested parentheses");
    row("unary minus", "x = " + repeat("-", 100000) + "1\n", "nested too deeply");
    row("not", "x = " + repeat("not ", 100000) + "1\n", "nested too deeply");
    row("lambda", "f = " + repeat("lambda: ", 100000) + "1\n", "nested too deeply");
    row("ternary", "x = 1" + repeat(" if c else 1", 100000) + "\n", "nested too deeply");
    row("power", "x = 2" + repeat(" ** 2", 100000) + "\n", "nested too deeply");
    row("sum", "x = a" + repeat(" + a", 100000) + "\n", "nested too deeply");
    row("attributes", "x = a" + repeat(".b", 100000) + "\n", "nested too deeply");
    row("subscripts", "x = a" + repeat("[0]", 100000) + "\n", "nested too deeply");
    row("calls", "x = f" + repeat("()", 100000) + "\n", "nested too deeply");
    row("elif", "if a:\n    pass\n" + repeat("elif a:\n    pass\n", 100000),
        "too many 'elif' branches");
    std::string indented;
    for (int i = 0; i < 1000; ++i) indented += std::string(std::size_t(i), ' ') + "if a:\n";
    row("indentation", indented, "too many levels of indentation");
  }

  void deepNesting() {
    QFETCH(QByteArray, source);
    QFETCH(QString, message);
    try {
      parse(source.toStdString(), "deep.gls");
      QFAIL("parsed");
    } catch (const gl::EngineError& e) {
      QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
      QVERIFY(e.loc().line >= 1);
    }
  }

  void reasonableNestingParses() {
    const std::string src = "x = " + repeat("(", 150) + "a" + repeat(" + a", 500) +
                            repeat(")", 150) + "\ny = " + repeat("-", 300) + "1\n";
    QString problem = roundTripProblem(src);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // ---- fuzzing: every input gives an AST that round-trips, or an EngineError ----------------

  void fuzzRandomBytes() {
    std::mt19937 rng(20240601);
    const std::string alphabet = "()[]{}:;,.=+-*/%@<>!~|^&'\"\\#\n\n\n\t    abcxyz_019eEjJ.";
    QString why;
    FuzzStats stats;
    for (int i = 0; i < 4000; ++i) {
      std::string src(rng() % 80, ' ');
      const bool anyByte = i % 2 == 0;
      for (char& c : src) c = anyByte ? char(rng() % 256) : alphabet[rng() % alphabet.size()];
      QVERIFY2(fuzzOne(src, why, stats), qPrintable(why + "\ninput: " + escaped(src)));
    }
    qInfo().noquote() << stats.summary();
  }

  void fuzzTruncations() {
    QString why;
    FuzzStats stats;
    for (const std::string& full : {std::string(kRealistic), std::string(kEverything)}) {
      for (std::size_t n = 0; n <= full.size(); ++n) {
        QVERIFY2(fuzzOne(full.substr(0, n), why, stats),
                 qPrintable(why + "\nprefix " + QString::number(n)));
      }
    }
    std::mt19937 rng(7);
    const std::string full = kEverything;
    for (int i = 0; i < 1000; ++i) {  // random slices
      std::size_t a = rng() % full.size(), b = rng() % full.size();
      std::string src = full.substr(std::min(a, b), std::max(a, b) - std::min(a, b));
      QVERIFY2(fuzzOne(src, why, stats), qPrintable(why + "\ninput: " + escaped(src)));
    }
    qInfo().noquote() << stats.summary();
    QVERIFY(stats.parsed > 50);
  }

  void fuzzMutations() {
    std::mt19937 rng(99);
    const std::string pieces[] = {"(",      ")",       "[",  "]",      ":",      ",",       "\n",
                                  "    ",   "\t",      "=",  "**",     "-",      "not ",    " if ",
                                  " else ", "lambda ", "'",  "\"\"\"", "\\",     "#",       "..",
                                  "...",    "1",       ".5", "x",      "param ", "return ", " in "};
    QString why;
    FuzzStats stats;
    for (int i = 0; i < 4000; ++i) {
      std::string src = i % 2 ? kRealistic : kEverything;
      for (int k = 1 + int(rng() % 3); k > 0; --k) {
        std::size_t at = rng() % (src.size() + 1);
        switch (rng() % 3) {
          case 0:
            src.insert(at, pieces[rng() % std::size(pieces)]);
            break;
          case 1:
            src.erase(at, 1 + rng() % 4);
            break;
          default:
            if (at < src.size()) src[at] = char(rng() % 256);
        }
      }
      QVERIFY2(fuzzOne(src, why, stats), qPrintable(why + "\ninput: " + escaped(src)));
    }
    qInfo().noquote() << stats.summary();
    QVERIFY(stats.parsed > 200);
  }

  void fuzzTokenSoup() {
    std::mt19937 rng(4242);
    const char* words[] = {
        "x",    "y",  "f",    "tf",     "1",          "2.5",   "'s'", "(",      ")",
        "[",    "]",  ",",    ":",      ".",          "=",     "+=",  "+",      "-",
        "*",    "**", "@",    "<",      "==",         "not",   "in",  "is",     "and",
        "or",   "if", "else", "elif",   "for",        "while", "def", "return", "lambda",
        "with", "as", "pass", "break",  "continue",   "param", "..",  "...",    "None",
        "True", ";",  "\n",   "\n    ", "\n        ", "\n"};
    QString why;
    FuzzStats stats;
    for (int i = 0; i < 4000; ++i) {
      std::string src;
      for (int n = int(rng() % 30); n > 0; --n)
        src += std::string(words[rng() % std::size(words)]) + " ";
      QVERIFY2(fuzzOne(src, why, stats), qPrintable(why + "\ninput: " + escaped(src)));
    }
    qInfo().noquote() << stats.summary();
  }

  // Random expressions from the grammar, each with the dump it must parse to (computed here,
  // independently of the parser and printers), with random redundant parentheses.
  void generatedExpressions() {
    ExprGen gen(31337);
    for (int i = 0; i < 3000; ++i) {
      const ExprGen::G g = gen.expr(1 + i % 5);
      const std::string src = "_ = " + g.text + "\n";
      std::string got;
      try {
        Module m = parse(src, "g.gls");
        got = dump(*m.body[0]->as<Stmt::Assign>()->value);
      } catch (const gl::EngineError& err) {
        QFAIL(qPrintable(QString("%1\ninput: %2").arg(err.what(), QString::fromStdString(g.text))));
      }
      QVERIFY2(got == g.dump,
               qPrintable(QString::fromStdString("input: " + g.text + "\nexpected: " + g.dump +
                                                 "\ngot:      " + got)));
      QString problem = roundTripProblem(src);
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
  }

  // Random valid programs (blocks, loops, defs, with, params): they parse and round-trip.
  void generatedPrograms() {
    ExprGen gen(2718);
    for (int i = 0; i < 600; ++i) {
      const std::string src = gen.program();
      try {
        QString problem = roundTripProblem(src);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
      } catch (const gl::EngineError& e) {
        QFAIL(qPrintable(QString("%1\ninput:\n%2").arg(e.what(), QString::fromStdString(src))));
      }
    }
  }
};

GRADLAB_TEST_APPLESS_MAIN(TestParser)
#include "test_parser.moc"
