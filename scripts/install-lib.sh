# Installing what the scripts need on a fresh Debian machine, only when missing (sourced by
# env.sh, so every script that sources env.sh has these). Owns the apt and venv steps; it does
# not decide what is needed: each env script names its own packages.

# apt_install [--no-recommends] LABEL PKG...: installs PKG... (as root, or through sudo).
# Returns apt-get's failure instead of exiting, so a caller may report it its own way.
apt_install() {
  local recommends=()
  if [ "$1" = "--no-recommends" ]; then
    recommends=(--no-install-recommends)
    shift
  fi
  local label="$1"
  shift
  echo "installing Debian packages for $label: $*"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${recommends[@]}" "$@"
}

# apt_install_missing [--no-recommends] LABEL PKG...: installs those of PKG... dpkg does not
# list as installed; nothing when all are.
apt_install_missing() {
  local opts=()
  if [ "$1" = "--no-recommends" ]; then
    opts=(--no-recommends)
    shift
  fi
  local label="$1"
  shift
  local need=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
  done
  [ "${#need[@]}" -eq 0 ] || apt_install "${opts[@]}" "$label" "${need[@]}"
}

# ensure_venv DIR MODULE PIP_SPEC...: a Python venv at DIR whose python imports MODULE, made
# and filled from PyPI only when it does not (Debian's python3 makes venvs only with
# python3-venv, installed when missing).
ensure_venv() {
  local dir="$1" module="$2"
  shift 2
  "$dir/bin/python" -c "import $module" 2>/dev/null && return 0
  echo "installing $* into $dir"
  if ! python3 -m venv "$dir" 2>/dev/null; then
    apt_install "Python venvs" python3-venv
    python3 -m venv --clear "$dir"
  fi
  "$dir/bin/pip" install -q "$@"
}
