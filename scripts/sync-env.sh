# Set-up for the sync tests against real servers (sourced by scripts/test.sh before the
# workspace tests; docs/sync.md#tests): Debian's rclone (`rclone serve webdav`), Debian's
# syncthing (two instances carrying a folder target) and moto's standalone S3 server from PyPI
# in a venv under $HOME/.cache/vibelife, each installed only when missing. The tests start them
# on 127.0.0.1 and fail (never skip) when they cannot.

command -v rclone >/dev/null 2>&1 || apt_install "the WebDAV sync tests" rclone
command -v syncthing >/dev/null 2>&1 || apt_install "the Syncthing sync test" syncthing

MOTO_VENV="$HOME/.cache/vibelife/moto-venv"
ensure_venv "$MOTO_VENV" moto 'moto[server]'
export VIBE_MOTO_SERVER="$MOTO_VENV/bin/moto_server"
