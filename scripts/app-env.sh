# Set-up for building and testing the desktop app (sourced after env.sh by scripts/build-app.sh,
# scripts/test.sh and scripts/run.sh). Installs, only when missing, the Debian packages Tauri 2
# builds against (WebKitGTK 4.1, GTK 3, libsoup 3 ...). `app_test_env` additionally installs what
# the real-window test needs: Xvfb, WebKitWebDriver, ImageMagick, a D-Bus daemon and python3-xlib
# (the tray test), and tauri-driver (a cargo install cached under $HOME/.cache, so it is built
# once per machine).

APP_BUILD_PACKAGES=(libwebkit2gtk-4.1-dev libgtk-3-dev libsoup-3.0-dev libayatana-appindicator3-dev
  librsvg2-dev libxdo-dev libssl-dev build-essential pkg-config file)
# gnome-keyring: the Secret Service the .deb recommends; present before scripts/test-install.sh
# installs the .deb, whose apt-get must fetch nothing (on a fresh machine it was missing until
# the later keychain stage installed it).
APP_TEST_PACKAGES=(xvfb xauth webkit2gtk-driver imagemagick x11-utils xdotool fonts-noto-cjk
  fonts-noto-color-emoji dbus-daemon python3-xlib dunst dbus-bin gnome-keyring)

apt_install_missing --no-recommends "the desktop app's build" "${APP_BUILD_PACKAGES[@]}"

# tauri-driver: the WebDriver front for Tauri apps, built from crates.io once and kept.
TAURI_DRIVER_ROOT="${TAURI_DRIVER_ROOT:-$HOME/.cache/vibelife/tools/tauri-driver}"
export TAURI_DRIVER="$TAURI_DRIVER_ROOT/bin/tauri-driver"

app_test_env() {
  apt_install_missing --no-recommends "the desktop app's real-window test" "${APP_TEST_PACKAGES[@]}"
  if [ ! -x "$TAURI_DRIVER" ]; then
    echo "installing tauri-driver into $TAURI_DRIVER_ROOT"
    # Its own target dir: the workspace's would rebuild on every switch.
    CARGO_TARGET_DIR="$HOME/.cache/vibelife/tools/tauri-driver-build" \
      cargo install tauri-driver --version '^2' --locked --root "$TAURI_DRIVER_ROOT"
  fi
}

# For the real-window scripts: background processes they start (killed on exit by
# `kill_window_pids`), a display of their own and a free WebDriver port.
WINDOW_PIDS=()
kill_window_pids() {
  local pid
  for pid in "${WINDOW_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
}

# Starts Xvfb on the first free display number from 90 (even when one is set: screenshots then
# have a known size and nothing depends on the developer's desktop) and exports DISPLAY. The
# screen is taller than the window so a long page (Settings) can be shown whole.
start_xvfb() {
  local display=90
  while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do
    display=$((display + 1))
  done
  Xvfb ":$display" -screen 0 1280x1200x24 -nolisten tcp >/dev/null 2>&1 &
  WINDOW_PIDS+=("$!")
  local _
  for _ in $(seq 1 50); do
    [ -e "/tmp/.X11-unix/X$display" ] && break
    sleep 0.1
  done
  export DISPLAY=":$display"
}

# Prints the first free TCP port on 127.0.0.1 from 4444.
free_port() {
  local port=4444
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
  echo "$port"
}
