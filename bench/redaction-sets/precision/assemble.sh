#!/usr/bin/env bash
# Rebuilds corpus/ from snapshots of the repositories in SOURCES.md (git
# directories given as MIRROR/<owner>+<name>/repo). Run by hand when a
# source is refreshed; the bench reads only corpus/.
set -euo pipefail
MIRROR=${1:?usage: assemble.sh <mirror dir>}
here=$(cd "$(dirname "$0")" && pwd)
out=$here/corpus
rm -rf "$out" && mkdir -p "$out"
take() { # repo, output folder, grep -E filter over paths
  local repo=$MIRROR/$1/repo
  git -C "$repo" ls-tree -r --name-only HEAD | grep -E "$3" | while read -r f; do
    mkdir -p "$out/$2/$(dirname "$f")"
    # Stored as .txt (images as they are) so the project's linters and
    # formatters leave other projects' files alone.
    case $f in *.png) dest=$f ;; *) dest=$f.txt ;; esac
    git -C "$repo" show "HEAD:$f" >"$out/$2/$dest"
  done
}
take psf+requests python-requests '^src/requests/.*\.py$'
# spf13/cobra is not copied: precision.mjs fetches a pinned release through the Go module proxy at bench time.
take expressjs+express js-express '^(lib|test|examples)/.*\.js$'
take serde-rs+serde rust-serde '^serde(_core|_derive)?/src/.*\.rs$'
take kubernetes+examples k8s-examples '\.ya?ml$'
take vitejs+vite lockfile-vite '^pnpm-lock\.yaml$'
take docker-library+official-images docker-official-images '^(library/(python|node|golang|postgres|redis|nginx|ubuntu|debian|alpine|rust|openjdk|php|ruby|mysql|httpd)|\.external-pins/.*)$'
take vitejs+vite images-vite '^(playground/assets/nested/icon\.png|docs/public/.*\.png)$'
# git SHAs as tools print them: one log line per commit.
for r in psf+requests spf13+cobra expressjs+express serde-rs+serde; do
  git -C "$MIRROR/$r/repo" log -n 400 --format='%H %h %an %ad %s' --date=iso >>"$out/git-log.txt"
done
# Each source's licence and notice, kept beside the corpus (not scanned).
rm -rf "$here/licenses" && mkdir -p "$here/licenses"
for pair in psf+requests:LICENSE psf+requests:NOTICE spf13+cobra:LICENSE.txt expressjs+express:LICENSE serde-rs+serde:LICENSE-MIT serde-rs+serde:LICENSE-APACHE kubernetes+examples:LICENSE vitejs+vite:LICENSE docker-library+official-images:LICENSE; do
  git -C "$MIRROR/${pair%%:*}/repo" show "HEAD:${pair#*:}" >"$here/licenses/${pair%%:*}.${pair#*:}"
done
