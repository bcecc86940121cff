#pragma once
// The look of the graph, in one place: colours by node kind and phase, fonts and the size a
// node needs for its two label lines. Items, layout and the DOT export all read it.
#include <QColor>
#include <QFont>
#include <QSizeF>

#include "ui/graph/graph_model.h"

namespace gl::ui::style {

// Presentation mode enlarges every graph font by this factor (1 normally); node sizes follow,
// so the scenes need a new layout (GraphScene::restyle) after a change.
void setFontScale(double scale);
double fontScale();

// The dark palette (View > Dark Palette): the colour functions below answer for it. Exports
// switch it off while they paint (LightForExport), so figures stay black on white.
void setDark(bool dark);
bool dark();
class LightForExport {
 public:
  LightForExport();
  ~LightForExport();
  LightForExport(const LightForExport&) = delete;
  LightForExport& operator=(const LightForExport&) = delete;

 private:
  bool was_;
};

QColor sceneBackground();
QColor titleColor();      // a node's first line
QColor subtitleColor();   // its dtype and shape
QColor plainEdgeColor();  // an edge without a gradient on it
QColor panelFill();       // fold buttons, the colour bar's box
QColor panelText();
QColor breakFill();  // the box of a node where the gradient chain breaks
QColor frameTitleColor(const VisFrame& f);

QFont titleFont();
QFont subtitleFont();
QFont frameFont();

QColor nodeFill(const VisNode& n);
QColor nodeBorder(const VisNode& n);
QColor frameFill(const VisFrame& f, int depth);
QColor frameBorder(const VisFrame& f);
QColor breakColor();     // a None gradient
QColor numericsColor();  // the first NaN/Inf of a run
QColor selectionColor();

// Room for the title and subtitle lines plus padding (and the badge of folded nodes).
QSizeF nodeSize(const VisNode& n);
// The badge text of a folded frame: "×20000", "if/else" for a cond, "folded" when a loop's
// count is unknown (before a run).
QString badgeText(const VisNode& n);

constexpr double kPadX = 8, kPadY = 4, kFrameTitleHeight = 16;

// Text smaller than this on screen is not drawn at all (a 6 px label is noise, not a label):
// zoomed out, nodes show their boxes and colours, and the overview shows where things are.
constexpr double kMinReadablePx = 7;
// The font's pixel size at `lod` (the view's scale) is at least kMinReadablePx.
bool readableAt(const QFont& font, double lod);

// Breaks lines at spaces so that none is longer than `columns` characters (a word longer than
// that stays whole): tooltips with the engine's explanations stay a readable column.
QString wrapText(const QString& text, int columns = 72);

}  // namespace gl::ui::style
