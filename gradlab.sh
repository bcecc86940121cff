#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   ./gradlab.sh run    install what is missing, build, run the ODE lesson
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
    exec "$build/app/gradlab" ode "$@"
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
