#pragma once
// GradientTape with TensorFlow's semantics: only ops built while the tape is recording are on
// it; Variables are watched automatically, other tensors need watch(); a persistent tape
// answers many queries. When a gradient is None the tape says why, in words, naming the node
// and script line where the chain breaks.
#include <set>
#include <string>
#include <vector>

#include "engine/build/builder.h"

namespace gl {

enum class Unconnected { None, Zero };

struct GradDiagnostic {
  std::string text;  // empty when the gradient exists
  int node = -1;     // where the chain breaks (or the source)
  SourceLoc loc;
};

struct GradResult {
  std::vector<Value> grads;  // invalid = None
  std::vector<GradDiagnostic> why;
};

class GradientTape : public TapeHook {
 public:
  explicit GradientTape(Builder& b, bool persistent = false, bool watchVariables = true);
  ~GradientTape() override;
  GradientTape(const GradientTape&) = delete;
  GradientTape& operator=(const GradientTape&) = delete;

  // Leaves the `with` block: nothing built later is recorded.
  void stop();
  // Re-enters it (`with tape:` again): recording goes on, what was recorded stays.
  void resume();
  // tape.reset(): forgets what was recorded and watched, as a fresh tape opened here.
  void reset();
  // tape.watched_variables(): the watched Variables and those recorded ops read, in the order
  // first seen.
  std::vector<Value> watchedVariables() const;
  bool recording() const { return active_ && stopDepth_ == 0; }
  bool watchesVariables() const { return watchVariables_; }  // watch_accessed_variables
  void watch(Value v);

  GradResult gradient(Value target, const std::vector<Value>& sources,
                      Unconnected unconnected = Unconnected::None, Value outputGradient = {});
  // Several targets: TF sums their gradients; outputGradients (empty, or one per target,
  // invalid = ones) seed them.
  GradResult gradient(const std::vector<Value>& targets, const std::vector<Value>& sources,
                      Unconnected unconnected, const std::vector<Value>& outputGradients);
  // d target[i...] / d source[j...], shape target.shape + source.shape.
  // usePfor (experimental_use_pfor): one reverse pass batched over the rows of the identity
  // (control/vectorize.cpp, as jax.vmap(vjp)); false: a loop of one reverse pass per row.
  GradResult jacobian(Value target, const std::vector<Value>& sources,
                      Unconnected unconnected = Unconnected::None, int parallelIterations = 10,
                      bool usePfor = false);
  // Per batch row: target [B, m...], source [B, n...] -> [B, m..., n...].
  // Unconnected::Zero gives zeros of that shape where TF's unconnected_gradients=ZERO does.
  GradResult batchJacobian(Value target, Value source, int parallelIterations = 10,
                           Unconnected unconnected = Unconnected::None, bool usePfor = false);

  // tape.stop_recording(): ops built while a guard lives are not recorded.
  class StopRecording {
   public:
    explicit StopRecording(GradientTape& t) : t_(t) { ++t_.stopDepth_; }
    ~StopRecording() { --t_.stopDepth_; }

   private:
    GradientTape& t_;
  };

  void onNode(const Node& n) override;
  bool recordingStopped() const override { return stopDepth_ > 0; }
  bool isRecorded(int node) const { return recorded_.count(node) > 0; }
  bool persistent() const { return persistent_; }
  // The nodes on the tape (since it opened or was last reset), ascending.
  std::vector<int> recordedNodes() const { return {recorded_.begin(), recorded_.end()}; }

 private:
  void beginQuery(const char* what);
  bool isWatched(Value v) const;
  // Watched, or computed on this tape from something watched.
  bool isTraced(Value v) const;
  GradDiagnostic explain(Value target, Value source) const;

  Builder& b_;
  bool persistent_;
  bool watchVariables_;
  bool active_ = true;
  bool used_ = false;
  int stopDepth_ = 0;
  int openedAt_ = 0;   // first node id that could be recorded
  int closedAt_ = -1;  // first node id after stop()
  std::set<int> recorded_;
  std::set<Value> watched_;
};

}  // namespace gl
