// The builtins' Context: a narrow view of the Tracer, and the trace state builtins own.
#include "engine/lang/tracer.h"

namespace gl::lang::trace {

void Context::fail(const SourceLoc& loc, const std::string& msg) const { t_.fail(loc, msg); }

Value Context::toTensor(const Val& v, const SourceLoc& loc, std::optional<DType> like) {
  return t_.toTensor(v, loc, like);
}
bool Context::tensorish(const Val& v) const { return t_.tensorish(v); }
bool Context::truthy(const Val& v, const SourceLoc& loc) { return t_.truthy(v, loc); }
Val Context::compare(CmpOp op, const Val& l, const Val& r, const SourceLoc& loc) {
  return t_.compare(op, l, r, loc);
}
Val Context::binary(BinaryOp op, const Val& l, const Val& r, const SourceLoc& loc) {
  return t_.binary(op, l, r, loc);
}
Val Context::getAttr(const Val& v, const std::string& name, const SourceLoc& loc) {
  return t_.getAttr(v, name, loc);
}
void Context::checkRegion(Value v, const SourceLoc& loc) { t_.checkRegion(v, loc); }
std::string Context::describe(Value v) const { return t_.describe(v); }
bool Context::eager() const { return t_.eager(); }
void Context::setRunFunctionsEagerly(bool on) { t_.setRunFunctionsEagerly(on); }
bool Context::runFunctionsEagerly() const { return t_.runFunctionsEagerly(); }
Tensor Context::eagerValue(Value v, const SourceLoc& loc) { return t_.eagerValue(v, loc); }
std::optional<Tensor> Context::constantValue(Value v) { return t_.constantValue(v); }
std::vector<Tensor> Context::evaluateNow(const std::vector<Value>& fetches) {
  return t_.evaluateNow(fetches);
}
std::optional<Value> Context::readStacked(Value x, const Val& index, const SourceLoc& loc) {
  return t_.readStacked(x, index, loc);
}

Val Context::callSimple(const Val& fn, std::vector<Val> args, const SourceLoc& loc,
                        const std::string& what) {
  return t_.callSimple(fn, std::move(args), loc, what);
}
void Context::flatten(const Val& v, std::vector<Value>& out, const SourceLoc& loc,
                      const std::string& what) {
  t_.flatten(v, out, loc, what);
}
Val Context::unflatten(const Val& like, const std::vector<Value>& flat, size_t& pos) {
  return t_.unflatten(like, flat, pos);
}

Val Context::call(const Val& fn, CallArgs& args, const std::string& what) {
  return t_.callValue(fn, args, what);
}
Val Context::makeSuper(const Val* cls, const Val* self, const SourceLoc& loc) {
  return t_.makeSuper(cls, self, loc);
}
Val Context::osEnviron() { return t_.osEnviron(); }

Val Context::kerasTrainingFunction(const std::string& name) {
  return t_.kerasTrainingFunction(name);
}

bool Context::setScriptAttr(const Val& owner, const std::string& name, const Val& v,
                            const SourceLoc& loc) {
  return t_.setScriptAttr(owner, name, v, loc);
}
void Context::log(const std::string& line) { t_.log(line); }
void Context::write(const std::string& text) { t_.write(text); }
bool Context::noteOnce(const std::string& key) { return t_.noteOnce(key); }
void Context::setGlobalSeed(uint64_t seed) { t_.setGlobalSeed(seed); }
int64_t Context::nextSeed(std::optional<int64_t> opSeed) { return t_.nextSeed(opSeed); }
int Context::nextLayerIndex(const std::string& kind) { return t_.nextLayerIndex(kind); }
void Context::countUnroll(const SourceLoc& loc) { t_.countUnroll(loc); }
GradientTape& Context::openTape(bool persistent, bool watchVariables, const SourceLoc& loc) {
  return t_.openTape(persistent, watchVariables, loc);
}

Val Context::fresh(const Val& v) const { return t_.fresh(v); }
Val Context::readVariable(const Val& v) { return t_.readVariable(v); }
void Context::registerVariable(const std::shared_ptr<VarState>& var) { t_.registerVariable(var); }
void Context::assignVariable(const Val& v, Value value, const SourceLoc& loc,
                             const std::string& what) {
  t_.assignVariable(v, value, loc, what);
}
std::vector<Value> Context::variableSources(const VarState& var, const GradientTape& tape) const {
  return t_.variableSources(var, tape);
}
std::vector<std::shared_ptr<VarState>> Context::variablesAssignedBy(const Val& fn) {
  return t_.variablesAssignedBy(fn);
}

// The Tracer's side ---------------------------------------------------------------------------

void Tracer::log(const std::string& line) { write(line + "\n"); }

// One log entry per print that ends its line (a multi-line array stays one entry); text
// without a final '\n' (print(x, end="")) waits for the rest of its line.
void Tracer::write(const std::string& text) {
  logPending_ += text;
  if (logPending_.empty() || logPending_.back() != '\n') return;
  logPending_.pop_back();
  prog_.traceLog.push_back(std::move(logPending_));
  logPending_.clear();
}

void Tracer::setGlobalSeed(uint64_t seed) {
  globalSeed_ = seed;
  seedCounter_ = 0;
}

int Tracer::nextLayerIndex(const std::string& kind) { return layerCount_[kind]++; }

bool Tracer::noteOnce(const std::string& key) { return notes_.insert(key).second; }

GradientTape& Tracer::openTape(bool persistent, bool watchVariables, const SourceLoc& loc) {
  const int first = g_.numNodes();
  tapes_.push_back(std::make_unique<GradientTape>(b_, persistent, watchVariables));
  tapeOpenings_.push_back({loc, eager()});
  (variant_ ? variant_->tapes : topTapes_).push_back(first);
  return *tapes_.back();
}

// Only tapes of eager code: one opened while a tf.function traces belongs to the function's
// graph, which the window draws as the call's frame (a first trace that created variables is
// traced again, and its tape would frame the discarded trace's ops).
void Tracer::recordTapes() {
  g_.tapes.clear();
  for (size_t i = 0; i < tapes_.size(); ++i)
    if (tapeOpenings_[i].second)
      g_.tapes.push_back(
          {tapeOpenings_[i].first, tapes_[i]->persistent(), tapes_[i]->recordedNodes()});
}

}  // namespace gl::lang::trace
