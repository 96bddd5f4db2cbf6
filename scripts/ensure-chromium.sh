#!/bin/sh
# Gives a Debian machine the Chromium the browser tests (test/node) use, installing Debian's
# chromium package when none is there. Called by .ci/run, which runs as root; never by npm test.
# On a laptop you need not run it: `npx playwright-core install chromium` needs no privileges, and
# TROVE_CHROMIUM=/path/to/chrome names a browser you already have.
set -eu

found() {
  if [ -n "${TROVE_CHROMIUM:-}" ] && [ -x "$TROVE_CHROMIUM" ]; then
    echo "$TROVE_CHROMIUM"
    return 0
  fi
  for name in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$name" >/dev/null 2>&1; then
      command -v "$name"
      return 0
    fi
  done
  return 1
}

if path=$(found); then
  echo "ensure-chromium: using $path"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: no Chromium, and no apt-get to install one with." >&2
  echo "ensure-chromium: run \`npx playwright-core install chromium\` or set TROVE_CHROMIUM=/path/to/chrome" >&2
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "ensure-chromium: chromium is missing and this user can neither install packages nor sudo." >&2
  echo "ensure-chromium: run \`npx playwright-core install chromium\` instead (no privileges needed)" >&2
  exit 1
fi

# apt prints hundreds of lines: keep them in a log and show its end only when something fails.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "ensure-chromium: installing Debian's chromium (${SUDO:+$SUDO }apt-get install chromium, about a minute)"
if ! { $SUDO apt-get update && $SUDO env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends chromium; } >"$log" 2>&1 </dev/null; then
  tail -n 30 "$log" >&2
  echo "ensure-chromium: apt-get failed (above)" >&2
  exit 1
fi
path=$(found) || {
  echo "ensure-chromium: apt-get installed chromium, but it is not on the PATH" >&2
  exit 1
}
echo "ensure-chromium: installed $path"
