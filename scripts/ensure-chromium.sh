#!/bin/sh
# Installs Debian's chromium for the browser tests (test/node) when it is missing. Playwright never
# downloads a browser here: the tests drive this system chromium through playwright-core.
set -eu

if command -v chromium >/dev/null 2>&1; then
  echo "ensure-chromium: using $(command -v chromium) ($(chromium --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
else
  echo "ensure-chromium: chromium is missing and this user can neither install packages nor sudo." >&2
  echo "ensure-chromium: install it yourself: apt-get install -y --no-install-recommends chromium" >&2
  exit 1
fi

echo "ensure-chromium: chromium not found; installing it with apt-get (first run only, takes a while)"
echo "ensure-chromium: ${SUDO:+$SUDO }apt-get update"
$SUDO apt-get update
echo "ensure-chromium: ${SUDO:+$SUDO }apt-get install -y --no-install-recommends chromium"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
echo "ensure-chromium: installed $(command -v chromium) ($(chromium --version 2>/dev/null || echo 'version unknown'))"
