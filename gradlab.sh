#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   ./gradlab.sh run    install what is missing, build, open the window on the ODE lesson
#                       (no display: run the lesson headless and write its figures to
#                       ./gradlab-export)
#   ./gradlab.sh test   install what is missing, build, run the whole test suite
#   ./gradlab.sh build  install and build only
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="${GRADLAB_BUILD_DIR:-$here/build}"
cmd="${1:-run}"
shift || true

install_deps() {
  local missing=()
  while read -r pkg; do
    [ -z "$pkg" ] && continue
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done < "$here/scripts/deps.txt"
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --parallel "$(nproc)"
}

case "$cmd" in
  run)
    install_deps && build
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      exec "$build/app/gradlab" "$@"
    fi
    echo "No display: running the ODE lesson headless; figures go to ./gradlab-export"
    exec "$build/app/gradlab" export "$here/resources/lessons/ode_while_loop.gls" \
      --out "${GRADLAB_EXPORT_DIR:-$PWD/gradlab-export}" "$@"
    ;;
  test)
    install_deps && build
    cd "$build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 900 -j 2 "$@"
    ;;
  build)
    install_deps && build
    ;;
  *)
    echo "usage: $0 run|test|build" >&2
    exit 2
    ;;
esac
