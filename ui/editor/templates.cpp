#include "ui/editor/templates.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace gl::ui {

namespace {

// Placeholders sit where the user most likely types next; later uses of the same name are plain
// text, so the first placeholder is the one that matters (it is selected on insertion).
const char* const kWhileLoop = R"(def loop_cond(i, x):
    return i < ${n}

def loop_body(i, x):
    return i + 1, ${x - 0.1 * x}

_, ${x_final} = tf.while_loop(loop_cond, loop_body, [tf.constant(0), ${x0}])
)";

const char* const kCond = R"(${y} = tf.cond(${tf.reduce_sum(x) > 0.0}, lambda: x * 2.0, lambda: -x)
)";

const char* const kMapFn = R"(${ys} = tf.map_fn(lambda row: tf.reduce_sum(row * row), ${xs})
)";

const char* const kVectorizedMap =
    R"(${ys} = tf.vectorized_map(lambda row: tf.reduce_sum(row * row), ${xs})
)";

const char* const kGradientTape = R"(with tf.GradientTape() as tape:
    tape.watch(${x})
    loss = ${tf.reduce_sum(x * x)}
${grad} = tape.gradient(loss, x)
)";

const char* const kTensorArrayLoop = R"(ta = tf.TensorArray(tf.float32, size=${n})
for i in tf.range(ta.size()):
    ta = ta.write(i, ${tf.cast(i, tf.float32) * 2.0})
${stacked} = ta.stack()
)";

const char* const kVariant = R"(with variant("${name}"):
    ${pass}
)";

const char* const kParam = R"(param ${steps} = ${100} in 1..10000
)";

QString translate(const char* text) { return QCoreApplication::translate("ScriptTemplates", text); }

}  // namespace

QVector<ScriptTemplate> scriptTemplates() {
  struct Entry {
    const char* id;
    const char* title;
    const char* text;
  };
  static const Entry kEntries[] = {
      {"while_loop", QT_TRANSLATE_NOOP("ScriptTemplates", "tf.while_loop"), kWhileLoop},
      {"cond", QT_TRANSLATE_NOOP("ScriptTemplates", "tf.cond"), kCond},
      {"map_fn", QT_TRANSLATE_NOOP("ScriptTemplates", "tf.map_fn"), kMapFn},
      {"vectorized_map", QT_TRANSLATE_NOOP("ScriptTemplates", "tf.vectorized_map"), kVectorizedMap},
      {"gradient_tape", QT_TRANSLATE_NOOP("ScriptTemplates", "GradientTape block"), kGradientTape},
      {"tensor_array_loop", QT_TRANSLATE_NOOP("ScriptTemplates", "TensorArray write loop"),
       kTensorArrayLoop},
      {"variant", QT_TRANSLATE_NOOP("ScriptTemplates", "Variant block"), kVariant},
      {"param", QT_TRANSLATE_NOOP("ScriptTemplates", "Param line"), kParam},
  };
  QVector<ScriptTemplate> out;
  for (const Entry& e : kEntries) out.push_back({e.id, translate(e.title), e.text});
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
