#include "ui/editor/templates.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace gl::ui {

namespace {

// Each template brings its own inputs (the script it lands in may not have an `x`), so it
// traces wherever it is inserted. The first placeholder is the input, where the user most
// likely types their own tensor; later ones are the names to fill in (Tab moves on).
const char* const kWhileLoop = R"(def loop_cond(i, x):
    return i < ${10}

def loop_body(i, x):
    return i + 1, ${x - 0.1 * x}

_, ${x_final} = tf.while_loop(loop_cond, loop_body, [tf.constant(0), ${tf.constant([1.0, 2.0])}])
)";

const char* const kCond = R"(x = ${tf.constant([1.0, -2.0, 3.0])}
${y} = tf.cond(${tf.reduce_sum(x) > 0.0}, lambda: x * 2.0, lambda: -x)
)";

const char* const kMapFn = R"(xs = ${tf.constant([[1.0, 2.0], [3.0, 4.0]])}
${ys} = tf.map_fn(lambda row: tf.reduce_sum(row * row), xs)
)";

const char* const kVectorizedMap = R"(xs = ${tf.constant([[1.0, 2.0], [3.0, 4.0]])}
${ys} = tf.vectorized_map(lambda row: tf.reduce_sum(row * row), xs)
)";

const char* const kGradientTape = R"(x = ${tf.constant([1.0, 2.0, 3.0])}
with tf.GradientTape() as tape:
    tape.watch(x)
    loss = ${tf.reduce_sum(x * x)}
${grad} = tape.gradient(loss, x)
)";

const char* const kTensorArrayLoop = R"(ta = tf.TensorArray(tf.float32, size=${4})
for i in tf.range(ta.size()):
    ta = ta.write(i, ${tf.cast(i, tf.float32) * 2.0})
${stacked} = ta.stack()
)";

const char* const kVariant = R"(with variant("${new_variant}"):
    ${pass}
)";

const char* const kParam = R"(param ${steps} = ${100} in 1..10000 class 10
)";

QString translate(const char* text) { return QCoreApplication::translate("ScriptTemplates", text); }

QRegularExpression wholeWord(const QString& name) {
  return QRegularExpression(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(name)));
}

}  // namespace

QVector<ScriptTemplate> scriptTemplates() {
  struct Entry {
    const char* id;
    const char* title;
    const char* text;
    QStringList binds;
  };
  static const Entry kEntries[] = {
      {"while_loop",
       QT_TRANSLATE_NOOP("ScriptTemplates", "tf.while_loop"),
       kWhileLoop,
       {"loop_cond", "loop_body", "x_final"}},
      {"cond", QT_TRANSLATE_NOOP("ScriptTemplates", "tf.cond"), kCond, {"x", "y"}},
      {"map_fn", QT_TRANSLATE_NOOP("ScriptTemplates", "tf.map_fn"), kMapFn, {"xs", "ys"}},
      {"vectorized_map",
       QT_TRANSLATE_NOOP("ScriptTemplates", "tf.vectorized_map"),
       kVectorizedMap,
       {"xs", "ys"}},
      {"gradient_tape",
       QT_TRANSLATE_NOOP("ScriptTemplates", "GradientTape block"),
       kGradientTape,
       {"x", "tape", "loss", "grad"}},
      {"tensor_array_loop",
       QT_TRANSLATE_NOOP("ScriptTemplates", "TensorArray write loop"),
       kTensorArrayLoop,
       {"ta", "stacked"}},
      {"variant", QT_TRANSLATE_NOOP("ScriptTemplates", "Variant block"), kVariant, {"new_variant"}},
      {"param", QT_TRANSLATE_NOOP("ScriptTemplates", "Param line"), kParam, {"steps"}},
  };
  QVector<ScriptTemplate> out;
  for (const Entry& e : kEntries) out.push_back({e.id, translate(e.title), e.text, e.binds});
  return out;
}

ScriptTemplate newLessonTemplate() {
  // The prose is translated; the code is not (it is the same TensorFlow in every language).
  static const char* const kProse[] = {
      QT_TRANSLATE_NOOP("ScriptTemplates",
                        "Two ways to compute the sum of squares of n numbers and its gradient:"),
      QT_TRANSLATE_NOOP("ScriptTemplates",
                        "a tf.while_loop that adds one square per step, and one vectorized sum."),
      QT_TRANSLATE_NOOP("ScriptTemplates",
                        "GradLab runs both, checks that they agree and times them side by side."),
      QT_TRANSLATE_NOOP("ScriptTemplates",
                        "Move the n slider to see how the loop's cost grows with its length."),
  };
  QString text =
      "# ${" + translate(QT_TRANSLATE_NOOP("ScriptTemplates", "Lesson title")) + "}\n#\n";
  for (const char* line : kProse) text += "# " + translate(line) + "\n";
  text += R"(
param n = 1000 in 1..100000

x = tf.random.normal([n], mean=0.0, stddev=1.0)

def loop_cond(i, total):
    return i < n

def loop_body(i, total):
    return i + 1, total + x[i] * x[i]

with variant("while_loop"):
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.while_loop(loop_cond, loop_body, [tf.constant(0), tf.constant(0.0)])[1]
    grad = tape.gradient(total, x)

with variant("vectorized"):
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(x * x)
    grad = tape.gradient(total, x)
)";
  return {"new_lesson", translate(QT_TRANSLATE_NOOP("ScriptTemplates", "New lesson")), text};
}

QString freshName(const QString& name, const QString& scriptText) {
  if (!scriptText.contains(wholeWord(name))) return name;
  for (int n = 2;; ++n) {
    const QString candidate = QStringLiteral("%1_%2").arg(name).arg(n);
    if (!scriptText.contains(wholeWord(candidate))) return candidate;
  }
}

QString templateTextFor(const ScriptTemplate& t, const QString& scriptText) {
  QString text = t.text;
  for (const QString& name : t.binds) {
    const QString fresh = freshName(name, scriptText);
    if (fresh != name) text.replace(wholeWord(name), fresh);
  }
  return text;
}

QString expandPlaceholders(const QString& templateText, QVector<Placeholder>* placeholders) {
  static const QRegularExpression kPlaceholder(QStringLiteral(R"(\$\{([^}]*)\})"));
  QString out;
  int copiedUpTo = 0;
  for (auto it = kPlaceholder.globalMatch(templateText); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    out += templateText.mid(copiedUpTo, m.capturedStart() - copiedUpTo);
    const QString name = m.captured(1);
    if (placeholders)
      placeholders->push_back({static_cast<int>(out.size()), static_cast<int>(name.size()), name});
    out += name;
    copiedUpTo = m.capturedEnd();
  }
  out += templateText.mid(copiedUpTo);
  return out;
}

}  // namespace gl::ui
