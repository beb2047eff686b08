#!/usr/bin/env bash
# Builds `gw` as it was at a pinned earlier commit into the test-tool cache,
# for the rolling-upgrade test (this build beside the previous one, both
# ways). The commit is the last one before versioned records; it is read from
# this repository's own history (git archive), built with tsc against the
# same node_modules when its package-lock.json is the same, else its own
# (npm ci). Idempotent: does nothing when that commit is already built.
#
#   test/tools/build-previous-gw.sh          build if missing, print a summary
#   test/tools/build-previous-gw.sh --print  print the entry point, build nothing
#
# Environment: MODEL_GATEWAY_CACHE (see build-kube.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

PREVIOUS_COMMIT=b42ff29a4f7ff54ee0db37bb5b61464e03f4f5b8

CACHE=${MODEL_GATEWAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/model-gateway}
DEST=$CACHE/gw-$PREVIOUS_COMMIT
ENTRY=$DEST/dist/cli/main.js

case "${1:-}" in
  --print) echo "gw-previous=$ENTRY"; exit 0 ;;
  "") ;;
  *) echo "usage: $0 [--print]" >&2; exit 2 ;;
esac

mkdir -p "$CACHE"
exec 9>"$CACHE/.build-previous-gw.lock"
flock 9

# A linked node_modules points into the checkout that built it: gone with that checkout, the build is redone.
if [[ -f $ENTRY && -e $DEST/node_modules ]]; then
  echo "build-previous-gw: ${PREVIOUS_COMMIT:0:12}: cached ($ENTRY)"
  exit 0
fi
if ! git cat-file -e "$PREVIOUS_COMMIT^{commit}" 2>/dev/null; then
  echo "build-previous-gw: commit $PREVIOUS_COMMIT is not in this clone's history (a shallow clone?); fetch it: git fetch --unshallow" >&2
  exit 1
fi

TMP=$DEST.tmp.$$
rm -rf "$TMP"
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT
git archive "$PREVIOUS_COMMIT" | tar -x -C "$TMP"
if cmp -s package-lock.json "$TMP/package-lock.json" && [[ -d node_modules ]]; then
  ln -s "$PWD/node_modules" "$TMP/node_modules"
else
  (cd "$TMP" && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd "$TMP" && node node_modules/typescript/bin/tsc -p tsconfig.json)
rm -rf "$DEST"
mv "$TMP" "$DEST"
trap - EXIT
echo "build-previous-gw: ${PREVIOUS_COMMIT:0:12}: built ($ENTRY)"
