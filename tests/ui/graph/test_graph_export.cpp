// Graph export: PNG at a chosen size and DPI, SVG that parses as XML, PDF, and DOT that
// Graphviz reads back with the visible node count. Also writes /tmp/graph_sample.png to look at.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include "test_main.h"

#include "engine/lab/gradient_view.h"
#include "sample_graphs.h"
#include "ui/graph/gradient_flow.h"
#include "ui/graph/graph_export.h"
#include "ui/graph/graph_scene.h"
#include "ui/graph/graphviz_graph.h"

using namespace gl::ui;

namespace {

// A scene with everything on: frames, both phases, gradient overlay, a break.
void fillScene(GraphScene& scene, const gltest::SampleGraph& s) {
  const gl::RunResult run = gltest::runSample(s);
  scene.setGraph(s.graph);
  scene.setRunResult(run);
  scene.setValueNorms(gl::lab::loopAdjointNorms(*s.graph, run, 2));
  scene.setBreaks({s.none});
}

struct DotCounts {
  int nodes = -1, edges = -1, clusters = 0;
};

void countClusters(Agraph_t* g, int& clusters) {
  for (Agraph_t* sg = agfstsubg(g); sg; sg = agnxtsubg(sg)) {
    if (QByteArray(agnameof(sg)).startsWith("cluster")) ++clusters;
    countClusters(sg, clusters);
  }
}

DotCounts reparse(const QByteArray& dot) {
  std::lock_guard<std::mutex> lock(graphvizMutex());
  DotCounts c;
  Agraph_t* g = agmemread(dot.constData());
  if (!g) return c;
  c.nodes = agnnodes(g);
  c.edges = agnedges(g);
  countClusters(g, c.clusters);
  agclose(g);
  return c;
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestGraphExport : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    fillScene(scene_, sample_);
  }

  void pngAtChosenSize_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("landscape") << QSize(1200, 800);
    QTest::newRow("portrait") << QSize(300, 900);
  }

  void pngAtChosenSize() {
    QFETCH(QSize, size);
    const QString path = dir_.filePath(QStringLiteral("g.png"));
    QString error;
    QVERIFY2(exportPng(scene_, path, size, &error), qPrintable(error));
    QImage image(path);
    QCOMPARE(image.size(), size);
    // Something was drawn: not all white.
    QImage small = image.scaled(40, 40);
    bool ink = false;
    for (int y = 0; y < small.height() && !ink; ++y)
      for (int x = 0; x < small.width() && !ink; ++x)
        ink = small.pixel(x, y) != qRgb(255, 255, 255);
    QVERIFY(ink);
  }

  void pngAtDpi() {
    const QString path = dir_.filePath(QStringLiteral("dpi.png"));
    QVERIFY(exportPngAtDpi(scene_, path, 144));
    QImage image(path);
    QCOMPARE(image.size(), pngSizeForDpi(scene_, 144));
    QCOMPARE(image.size().width(), int(std::ceil(scene_.graphBounds().width() * 2)));
    QVERIFY(qAbs(image.dotsPerMeterX() * 0.0254 - 144) < 1);
    QString error;
    QVERIFY(!exportPng(scene_, path, QSize(0, 10), &error));
    QVERIFY(!error.isEmpty());
  }

  void svgIsXml() {
    const QString path = dir_.filePath(QStringLiteral("g.svg"));
    QVERIFY(exportSvg(scene_, path));
    QXmlStreamReader xml(readAll(path));
    QString root;
    int elements = 0, texts = 0;
    while (!xml.atEnd()) {
      if (xml.readNext() != QXmlStreamReader::StartElement) continue;
      if (root.isEmpty()) root = xml.name().toString();
      ++elements;
      texts += xml.name() == QLatin1String("text");
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QStringLiteral("svg"));
    QVERIFY(elements > 50);
    QVERIFY(texts > 10);  // labels are text, not pixels
  }

  void pdfHeader() {
    const QString path = dir_.filePath(QStringLiteral("g.pdf"));
    QVERIFY(exportPdf(scene_, path));
    const QByteArray pdf = readAll(path);
    QVERIFY(pdf.startsWith("%PDF"));
    QVERIFY(pdf.size() > 2000);
  }

  // The PDF is vector text, labels intact: pdftotext (poppler-utils) reads every node's title
  // and every frame's title back. At 300 dpi with a scaled painter the labels came out
  // overflowing and cut ("riable", "oat64[3]'x'").
  void pdfTextHasEveryLabel() {
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (pdftotext.isEmpty())
      QSKIP("pdftotext not found: install poppler-utils (scripts/deps.txt) to check PDF text");
    const QString path = dir_.filePath(QStringLiteral("labels.pdf"));
    QVERIFY(exportPdf(scene_, path));
    QProcess p;
    p.start(pdftotext, {path, QStringLiteral("-")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    // NFKC folds the ligatures PDF text extraction yields ("ﬂoat64"); spacing is layout.
    auto squeeze = [](QString s) {
      s = s.normalized(QString::NormalizationForm_KC);
      s.remove(QRegularExpression(QStringLiteral("\\s")));
      return s;
    };
    const QString text = squeeze(QString::fromUtf8(p.readAllStandardOutput()));
    const VisibleGraph& g = scene_.visibleGraph();
    QVERIFY(g.nodes.size() > 20);
    for (const VisNode& n : g.nodes) {
      const QString title = squeeze(QString::fromStdString(n.title));
      QVERIFY2(text.contains(title),
               qPrintable(QStringLiteral("node title '%1' missing").arg(title)));
      if (!n.subtitle.empty())
        QVERIFY2(text.contains(squeeze(QString::fromStdString(n.subtitle))),
                 qPrintable(QStringLiteral("subtitle of '%1' missing").arg(title)));
    }
    for (const VisFrame& f : g.frames) {
      const QString title = squeeze(QString::fromStdString(f.title));
      QVERIFY2(text.contains(title),
               qPrintable(QStringLiteral("frame title '%1' missing").arg(title)));
    }
  }

  void dotReparses() {
    const QString path = dir_.filePath(QStringLiteral("g.dot"));
    QVERIFY(exportDot(scene_, path));
    const QByteArray dot = readAll(path);
    const DotCounts c = reparse(dot);
    QCOMPARE(c.nodes, int(scene_.visibleGraph().nodes.size()));
    QCOMPARE(c.edges, int(scene_.visibleGraph().edges.size()));
    QVERIFY(c.clusters >= 6);
    QVERIFY(dot.contains("while_loop"));
    QVERIFY(dot.contains("penwidth"));  // the gradient overlay travels with it
  }

  void dotOfFoldedGraph() {
    GraphScene scene;
    scene.setGraph(sample_.graph);
    scene.foldAll();
    const DotCounts c = reparse(scene.toDot().toUtf8());
    QCOMPARE(c.nodes, int(scene.visibleGraph().nodes.size()));
    QCOMPARE(c.clusters, 0);
  }

  void bySuffix() {
    QVERIFY(exportGraph(scene_, dir_.filePath(QStringLiteral("a.svg"))));
    QVERIFY(exportGraph(scene_, dir_.filePath(QStringLiteral("a.gv"))));
    QString error;
    QVERIFY(!exportGraph(scene_, dir_.filePath(QStringLiteral("a.xyz")), 150, &error));
    QVERIFY(error.contains(QStringLiteral("xyz")));
  }

  // Not an assertion: pictures to look at.
  void writeSamples() {
    QVERIFY(exportPngAtDpi(scene_, QStringLiteral("/tmp/graph_sample.png"), 110));
    GraphScene folded;
    folded.setShowBackward(false);
    folded.setGraph(sample_.graph);
    folded.setRunResult(gltest::runSample(sample_));
    folded.setFolded(sample_.whileNode, true);
    QVERIFY(exportPngAtDpi(folded, QStringLiteral("/tmp/graph_sample_folded.png"), 110));
    exportSvg(scene_, QStringLiteral("/tmp/graph_sample.svg"));
    exportPdf(scene_, QStringLiteral("/tmp/graph_sample.pdf"));
    exportDot(scene_, QStringLiteral("/tmp/graph_sample.dot"));
  }

 private:
  QTemporaryDir dir_;
  gltest::SampleGraph sample_ = gltest::makeSampleGraph();
  GraphScene scene_;
};

GRADLAB_TEST_MAIN(TestGraphExport)
#include "test_graph_export.moc"
