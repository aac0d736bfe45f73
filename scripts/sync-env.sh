# Set-up for the sync tests against real servers (sourced by scripts/test.sh before the
# workspace tests; docs/sync.md#tests): Debian's rclone (`rclone serve webdav`) and moto's
# standalone S3 server from PyPI in a venv under $HOME/.cache/vibelife, each installed only
# when missing. The tests start them on 127.0.0.1 and fail (never skip) when they cannot.

if ! command -v rclone >/dev/null 2>&1; then
  echo "installing rclone for the WebDAV sync tests"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq rclone
fi

MOTO_VENV="$HOME/.cache/vibelife/moto-venv"
if [ ! -x "$MOTO_VENV/bin/moto_server" ]; then
  echo "installing moto's S3 server into $MOTO_VENV"
  if ! python3 -m venv "$MOTO_VENV" 2>/dev/null; then
    # Debian's python3 makes venvs only with python3-venv.
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv
    python3 -m venv --clear "$MOTO_VENV"
  fi
  "$MOTO_VENV/bin/pip" install -q 'moto[server]'
fi
export VIBE_MOTO_SERVER="$MOTO_VENV/bin/moto_server"
