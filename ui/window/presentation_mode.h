#pragma once
// Projector mode (View > Presentation, F11): full screen, larger fonts in the graph, the plots
// and the editor, only the graph, the plots and the step controls on screen, and the arrow
// keys (and a presenter's PageUp/PageDown clicker) stepping through the iterations. Leaving
// it puts every dock, font and the window state back as they were.
#include <QByteArray>
#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;
class QShortcut;
class QWidget;

namespace gl::ui {

class GraphView;
class ScriptEditor;
class StepControls;

class PresentationMode : public QObject {
  Q_OBJECT
 public:
  struct Parts {
    QMainWindow* window = nullptr;
    GraphView* graph = nullptr;
    QWidget* plots = nullptr;
    ScriptEditor* editor = nullptr;
    StepControls* steps = nullptr;
  };
  static constexpr double kFontScale = 1.6;
  static constexpr int kEditorZoomSteps = 6;
  static constexpr double kMinFitZoom = 0.9;  // the graph's fit stops here: labels stay large

  explicit PresentationMode(const Parts& parts, QObject* parent = nullptr);

  bool isOn() const { return on_; }
  void setOn(bool on);
  // The docks shown while presenting: those holding the plots and the step controls.
  QList<QDockWidget*> keptDocks() const;

 signals:
  void toggled(bool on);

 private:
  void scalePlotFonts(double factor);

  Parts parts_;
  bool on_ = false;
  QByteArray savedState_;
  bool wasFullScreen_ = false, wasMaximized_ = false;
  QList<QShortcut*> keys_;
};

}  // namespace gl::ui
