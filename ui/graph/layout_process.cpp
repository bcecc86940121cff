#include "ui/graph/layout_process.h"

#include <QByteArray>
#include <QDataStream>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>

#include "ui/graph/graphviz_graph.h"

namespace gl::ui {

namespace {

constexpr quint32 kMagic = 0x676c6c79;  // "glly": a whole answer follows

QByteArray encode(const GraphLayout& layout) {
  QByteArray bytes;
  QDataStream out(&bytes, QIODevice::WriteOnly);
  out << kMagic << quint32(layout.failure) << QByteArray::fromStdString(layout.error)
      << layout.bounds << layout.seconds << quint64(layout.nodes.size());
  for (const QRectF& r : layout.nodes) out << r;
  out << quint64(layout.edges.size());
  for (const EdgeGeometry& e : layout.edges) out << e.path << e.arrowBase << e.arrowTip;
  out << quint64(layout.frames.size());
  for (const QRectF& r : layout.frames) out << r;
  return bytes;
}

bool decode(const QByteArray& bytes, GraphLayout& layout) {
  QDataStream in(bytes);
  quint32 magic = 0, failure = 0;
  QByteArray error;
  quint64 count = 0;
  in >> magic >> failure >> error >> layout.bounds >> layout.seconds >> count;
  if (magic != kMagic || failure > quint32(LayoutFailure::TooLarge)) return false;
  layout.failure = LayoutFailure(failure);
  layout.error = error.toStdString();
  layout.nodes.resize(count);
  for (QRectF& r : layout.nodes) in >> r;
  in >> count;
  layout.edges.resize(count);
  for (EdgeGeometry& e : layout.edges) in >> e.path >> e.arrowBase >> e.arrowTip;
  in >> count;
  layout.frames.resize(count);
  for (QRectF& r : layout.frames) in >> r;
  return in.status() == QDataStream::Ok;
}

bool writeAll(int fd, const QByteArray& bytes) {
  const char* p = bytes.constData();
  qsizetype left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, size_t(left));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= n;
  }
  return true;
}

// The child: lay out, answer, and leave without running the parent's atexit handlers or
// destructors (they belong to the window's process).
[[noreturn]] void layOutAndAnswer(int fd, const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                                  const LayoutOptions& options) {
  int status = 1;
  try {
    status = writeAll(fd, encode(layoutGraphLocked(vg, sizes, options))) ? 0 : 1;
  } catch (...) {
    status = 2;
  }
  ::_exit(status);
}

std::string endedText(int status) {
  if (WIFSIGNALED(status))
    return "the layout process ended by signal " + std::to_string(WTERMSIG(status));
  return "the layout process ended with status " + std::to_string(WEXITSTATUS(status)) +
         " and no layout";
}

}  // namespace

GraphLayout layoutGraphInChild(const VisibleGraph& vg, const std::vector<QSizeF>& sizes,
                               const LayoutOptions& options, const LayoutLimits& limits) {
  if (vg.nodes.empty()) return {};
  if (int(vg.nodes.size()) < limits.childAbove) return layoutGraph(vg, sizes, options);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return layoutGraph(vg, sizes, options);
  pid_t pid;
  {
    // Held across fork, so no other thread is inside Graphviz at the moment the child's copy
    // of its state is taken; the child lays out under it (layoutGraphLocked).
    std::lock_guard<std::mutex> lock(graphvizMutex());
    pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      layOutAndAnswer(fds[1], vg, sizes, options);
    }
  }
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return layoutGraph(vg, sizes, options);
  }

  GraphLayout out;
  QByteArray answer;
  const auto deadline = std::chrono::steady_clock::now() + limits.timeLimit;
  char buffer[1 << 16];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, 20);
    if (ready > 0) {
      const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
      if (n > 0) {
        answer.append(buffer, n);
        continue;
      }
      if (n == 0) break;  // the child is done
      if (errno != EINTR && errno != EAGAIN) break;
    } else if (ready < 0 && errno != EINTR) {
      break;
    }
    const bool stop = limits.stopRequested && limits.stopRequested();
    if (stop || std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      out.failure = stop ? LayoutFailure::Stopped : LayoutFailure::TimedOut;
      break;
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (out.failure != LayoutFailure::None) return out;
  if (!decode(answer, out)) {
    out = {};
    out.failure = LayoutFailure::Crashed;
    out.error = endedText(status);
  }
  return out;
}

}  // namespace gl::ui
