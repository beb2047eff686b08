#!/usr/bin/env bash
# After `make test` the work tree must be as committed: a test, an install or a generator that
# rewrites a tracked file (or leaves an untracked one outside .gitignore) is a defect to fix.
set -euo pipefail
cd "$(dirname "$0")/../.."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "check-clean-tree: not a git work tree, skipped"; exit 0; }
changes=$(git status --porcelain --untracked-files=all)
if [ -n "$changes" ]; then
  echo "check-clean-tree: the run changed the tree:" >&2
  echo "$changes" >&2
  exit 1
fi
echo "check-clean-tree: the work tree is as committed"
