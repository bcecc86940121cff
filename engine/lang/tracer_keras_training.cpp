// Model.compile / fit / evaluate / predict / train_step / test_step for Keras subclasses. The
// training loop itself is GradLab script (keras_training.py.inc), run by the tracer like the
// user's code; this file keeps what compile() resolved and checks the arguments, refusing each
// one GradLab cannot honour as Keras does.
#include <algorithm>

#include "engine/lang/parser.h"
#include "engine/lang/tracer.h"
#include "engine/lang/tracer_data.h"
#include "engine/lang/tracer_keras_layer.h"
#include "engine/lang/tracer_keras_subclass.h"

namespace gl::lang::trace {

namespace {

const char* const kTrainingFile = "<keras training loop>";
const char* const kTrainingSource =
#include "engine/lang/keras_training.py.inc"
    ;

// The model: a Keras subclass's instance or a built-in Sequential.
KerasState& state(Bound& a) {
  if (auto inst = a.self.as<InstanceObj>()) return *inst->keras;
  return *a.self.as<LayerObj>()->modelState();
}
std::string modelClass(Bound& a) { return typeName(a.self); }

// An error inside the training loop's own code is reported at the user's call of fit/evaluate.
template <class F>
Val inTrainingLoop(Bound& a, const char* method, F&& body) {
  try {
    return body();
  } catch (const EngineError& e) {
    if (e.loc().file != kTrainingFile) throw;
    throw EngineError(e.message() + " (in " + modelClass(a) + "." + method +
                          "'s training loop, line " + std::to_string(e.loc().line) + ")",
                      a.callLoc);
  }
}

Val trainingFunction(Bound& a, const std::string& name) { return a.cx.kerasTrainingFunction(name); }

void requireCompiled(Bound& a) {
  if (!state(a).compiled)
    a.cx.fail(a.callLoc,
              "You must compile your model before training/testing. Use "
              "`model.compile(optimizer, loss)`.");
}

// fit's batches come from a tf.data.Dataset (x holds (inputs, targets) pairs) or from tensors.
bool isDataset(const Val& x) { return x.as<DatasetObj>() != nullptr; }

int64_t verbosity(Bound& a) {
  const Val& v = a["verbose"];
  if (v.kind() == Kind::Str) {
    if (v.text() != "auto") a.fail("verbose", "must be 'auto', 0, 1 or 2");
    return 1;
  }
  return a.integer("verbose");
}

int64_t batchSize(Bound& a) {
  if (a.none("batch_size")) return 32;
  const int64_t n = a.integer("batch_size");
  if (n < 1) a.fail("batch_size", "must be a positive int");
  return n;
}

void refuseGiven(Bound& a, std::initializer_list<const char*> params) {
  for (const char* p : params)
    if (!a.none(p)) a.fail(p, "is not supported yet by GradLab's Model training loop");
}

void refuseCallbacks(Bound& a) {
  const Val& c = a["callbacks"];
  if (!c.isNone() && !(c.isSeq() && c.items().empty()))
    a.fail("callbacks", "are not supported yet by GradLab's Model training loop");
}

// compile(optimizer="rmsprop"): Keras's optimizers.get makes one with its defaults.
Val optimizerFrom(Bound& a) {
  const Val& v = a["optimizer"];
  if (v.kind() != Kind::Str) return v;
  static const std::pair<const char*, const char*> kNames[] = {{"sgd", "SGD"},
                                                               {"adam", "Adam"},
                                                               {"nadam", "Nadam"},
                                                               {"rmsprop", "RMSprop"},
                                                               {"adagrad", "Adagrad"}};
  for (const auto& [name, cls] : kNames)
    if (v.text() == name || v.text() == cls)
      return a.cx.callSimple(*lookupBuiltin(std::string("tf.keras.optimizers.") + cls), {},
                             a.loc("optimizer"), cls);
  a.fail("optimizer", "names an optimizer GradLab does not provide yet: '" + v.text() +
                          "' (it has sgd, adam, nadam, rmsprop, adagrad)");
}

Val compile(Bound& a) {
  KerasState& k = state(a);
  refuseGiven(a, {"loss_weights", "weighted_metrics"});
  const Val& loss = a["loss"];
  if (loss.isSeq() || loss.as<DictObj>())
    a.fail("loss", "per-output losses (a list or dict) are not supported yet");
  if (loss.kind() == Kind::Str) {
    static const char* const kLosses[] = {"mse",
                                          "mean_squared_error",
                                          "mae",
                                          "mean_absolute_error",
                                          "categorical_crossentropy",
                                          "sparse_categorical_crossentropy",
                                          "binary_crossentropy",
                                          "huber"};
    if (std::find(std::begin(kLosses), std::end(kLosses), loss.text()) == std::end(kLosses))
      a.fail("loss", "names a loss GradLab does not provide yet: '" + loss.text() + "'");
  }
  const Val& metrics = a["metrics"];
  if (!metrics.isNone() && !metrics.isSeq())
    a.fail("metrics", "must be a list of metric names or functions");
  if (metrics.isSeq())
    for (const Val& m : metrics.items()) {
      static const char* const kMetrics[] = {"accuracy",
                                             "acc",
                                             "mae",
                                             "mean_absolute_error",
                                             "mse",
                                             "mean_squared_error",
                                             "binary_accuracy",
                                             "categorical_accuracy",
                                             "sparse_categorical_accuracy"};
      if (m.kind() == Kind::Str) {
        if (std::find(std::begin(kMetrics), std::end(kMetrics), m.text()) == std::end(kMetrics))
          a.fail("metrics", "names a metric GradLab does not provide yet: '" + m.text() + "'");
      } else if (!m.as<FunctionObj>()) {
        a.fail("metrics",
               "must hold metric names or functions (y_true, y_pred), got " + article(typeName(m)));
      }
    }
  return inTrainingLoop(a, "compile", [&] {
    k.optimizer = optimizerFrom(a);
    k.loss = a.cx.callSimple(trainingFunction(a, "_keras_loss"), {loss}, a.loc("loss"), "loss");
    const Val lossName =
        a.cx.callSimple(trainingFunction(a, "_keras_loss_name"), {loss}, a.loc("loss"), "loss");
    k.metrics = a.cx.callSimple(trainingFunction(a, "_keras_metrics"),
                                {metrics.isNone() ? Val::listOf({}) : metrics, lossName},
                                a.loc("metrics"), "metrics");
    k.metricNames = {Val::str("loss")};
    for (const Val& m : k.metrics.items()) k.metricNames.push_back(m.items()[0]);
    k.compiled = true;
    return Val::none();
  });
}

Val fit(Bound& a) {
  requireCompiled(a);
  refuseCallbacks(a);
  refuseGiven(a, {"class_weight", "sample_weight", "steps_per_epoch", "validation_steps",
                  "validation_batch_size"});
  if (a.integer("validation_freq") != 1)
    a.fail("validation_freq", "other than 1 is not supported yet");
  const bool dataset = isDataset(a["x"]);
  if (dataset && !a.none("y"))
    a.fail("y", "must not be given when x is a dataset (it yields (inputs, targets))");
  if (!dataset && a.none("y")) a.fail("y", "is needed: GradLab's fit trains on (x, y) pairs");
  const double split = a.number("validation_split");
  if (split < 0 || split >= 1) a.fail("validation_split", "must be in [0, 1)");
  if (dataset && split > 0)
    a.fail("validation_split", "is not supported when x is a dataset (Keras refuses it too)");
  const Val args[] = {a.self,
                      a["x"],
                      a["y"],
                      Val::integer(batchSize(a)),
                      Val::integer(a.integer("epochs")),
                      Val::integer(verbosity(a)),
                      Val::real(split),
                      a["validation_data"],
                      Val::boolean(a.boolean("shuffle")),
                      Val::integer(a.integer("initial_epoch")),
                      Val::boolean(dataset)};
  return inTrainingLoop(a, "fit", [&] {
    return a.cx.callSimple(trainingFunction(a, "_keras_fit"), {std::begin(args), std::end(args)},
                           a.callLoc, "fit");
  });
}

Val evaluate(Bound& a) {
  requireCompiled(a);
  refuseCallbacks(a);
  refuseGiven(a, {"sample_weight", "steps"});
  const bool dataset = isDataset(a["x"]);
  if (!dataset && a.none("y")) a.fail("y", "is needed: evaluate scores (x, y) pairs");
  return inTrainingLoop(a, "evaluate", [&] {
    return a.cx.callSimple(
        trainingFunction(a, "_keras_evaluate"),
        {a.self, a["x"], a["y"], Val::integer(batchSize(a)), Val::integer(verbosity(a)),
         Val::boolean(a.boolean("return_dict")), Val::boolean(dataset)},
        a.callLoc, "evaluate");
  });
}

Val predict(Bound& a) {
  refuseCallbacks(a);
  refuseGiven(a, {"steps"});
  verbosity(a);  // predict prints nothing GradLab can time; verbose only chooses a bar
  return inTrainingLoop(a, "predict", [&] {
    return a.cx.callSimple(
        trainingFunction(a, "_keras_predict"),
        {a.self, a["x"], Val::integer(batchSize(a)), Val::boolean(isDataset(a["x"]))}, a.callLoc,
        "predict");
  });
}

Val defaultStep(Bound& a, const char* fn) {
  requireCompiled(a);
  return inTrainingLoop(a, fn + 7, [&] {
    return a.cx.callSimple(trainingFunction(a, fn), {a.self, a["data"]}, a.callLoc, fn + 7);
  });
}

// compile, fit, evaluate and predict as methods of `kind` ("Model.", "Sequential.").
void addModelTraining(BuiltinTable& t, const std::string& kind);

}  // namespace

Val Tracer::kerasTrainingFunction(const std::string& name) {
  static const Module source = parse(kTrainingSource, kTrainingFile);
  if (!kerasTraining_) {
    ScopePtr s = newScope(nullptr);
    ScopePtr saved = scope_;
    scope_ = s;
    try {
      execBlock(source.body);
    } catch (...) {
      scope_ = saved;
      throw;
    }
    scope_ = saved;
    kerasTraining_ = s;
  }
  return kerasTraining_->vars.at(name).v;
}

void addKerasTrainingBuiltins(BuiltinTable& t) {
  t["tf.keras.models.Sequential"] = t["tf.keras.Sequential"];
  // keras.utils.set_random_seed seeds Python's random, numpy and TF (keras/utils/tf_utils.py);
  // GradLab has no Python random module, so numpy's and TF's.
  t["tf.keras.utils.set_random_seed"] = {
      Signature::parse("seed"), [](Bound& a) {
        const Val seed = Val::integer(a.integer("seed"));
        a.cx.callSimple(*lookupBuiltin("tf.random.set_seed"), {seed}, a.loc("seed"), "set_seed");
        a.cx.callSimple(*lookupBuiltin("py.numpy.random.seed"), {seed}, a.loc("seed"),
                        "numpy.random.seed");
        return Val::none();
      }};
  addModelTraining(t, "Model.");
  addModelTraining(t, "Sequential.");
  t["Sequential._keras_overrides"] = {Signature::parse("name"), [](Bound& a) {
                                        a.string("name");
                                        return Val::boolean(false);
                                      }};
  t["Model.train_step"] = {Signature::parse("data"),
                           [](Bound& a) { return defaultStep(a, "_keras_train_step"); }};
  t["Model.test_step"] = {Signature::parse("data"),
                          [](Bound& a) { return defaultStep(a, "_keras_test_step"); }};
}

namespace {

void addModelTraining(BuiltinTable& t, const std::string& kind) {
  t[kind + "compile"] = {
      Signature::parse("optimizer='rmsprop', loss=None, metrics=None, loss_weights=None, "
                       "weighted_metrics=None, ~run_eagerly=None, ~steps_per_execution=None, "
                       "~jit_compile=None"),
      compile};
  t[kind + "fit"] = {
      Signature::parse("x=None, y=None, batch_size=None, epochs=1, verbose='auto', "
                       "callbacks=None, validation_split=0.0, validation_data=None, "
                       "shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0, "
                       "steps_per_epoch=None, validation_steps=None, "
                       "validation_batch_size=None, validation_freq=1, ~max_queue_size=10, "
                       "~workers=1, ~use_multiprocessing=False"),
      fit};
  t[kind + "evaluate"] = {
      Signature::parse("x=None, y=None, batch_size=None, verbose='auto', sample_weight=None, "
                       "steps=None, callbacks=None, ~max_queue_size=10, ~workers=1, "
                       "~use_multiprocessing=False, return_dict=False"),
      evaluate};
  t[kind + "predict"] = {Signature::parse("x, batch_size=None, verbose='auto', steps=None, "
                                          "callbacks=None, ~max_queue_size=10, ~workers=1, "
                                          "~use_multiprocessing=False"),
                         predict};
}

}  // namespace

}  // namespace gl::lang::trace
