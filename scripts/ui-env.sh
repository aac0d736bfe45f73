# Set-up for the UI's checks (sourced by scripts/test.sh after env.sh): Node.js and npm when
# `node` is missing, Debian's Chromium and CJK/emoji fonts for the browser tests (Playwright's
# own browser download is not used), and the locked npm packages in ui/. Each step runs only
# when it is needed.

ui_missing=()
command -v node >/dev/null 2>&1 || ui_missing+=(nodejs npm)
command -v node >/dev/null 2>&1 && ! command -v npm >/dev/null 2>&1 && ui_missing+=(npm)
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || ui_missing+=(chromium)
# Fonts for Chinese text and emoji, so the browser tests' screenshots show what a person sees.
apt_install_missing "the UI" "${ui_missing[@]}" fonts-noto-cjk fonts-noto-color-emoji
export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"

# npm ci when node_modules is absent or older than the lockfile.
if [ ! -f "$ROOT/ui/node_modules/.package-lock.json" ] ||
  [ "$ROOT/ui/package-lock.json" -nt "$ROOT/ui/node_modules/.package-lock.json" ]; then
  echo "installing the UI's npm packages (npm ci)"
  # This npm rejects its own lockfile in `npm ci` (rollup's optional platform packages listed
  # without versions); `npm install` then installs the same locked versions.
  (cd "$ROOT/ui" && { npm ci --no-audit --no-fund || npm install --no-audit --no-fund; })
fi
