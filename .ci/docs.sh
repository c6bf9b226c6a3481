#!/usr/bin/env bash
# The docs site, built offline: a venv ($DOCS_VENV, default .venv-docs; made from docs/requirements.txt and msgkit when
# missing or older than that file), the pages (.ci/docs/prep.py -> _site_src/), `mkdocs build --strict` (-> _site/)
# with no network at all (`unshare -n`, where this user may), then the site checker (.ci/docs/check_site.py).
# The pages show the outputs saved in the notebooks; DOCS_EXECUTE=1 runs the notebooks first (as nbdev_test does: the
# venv then holds msgkit's dev requirements too) and shows fresh outputs, leaving nbs/ as it is.
# Open _site/index.html in a browser; it browses from file:// too.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_PROGRESS_BAR=off NO_MKDOCS_2_WARNING=1
v=${DOCS_VENV:-.venv-docs}
pkg=.; prep=(); [ -n "${DOCS_EXECUTE:-}" ] && { pkg=.[dev]; prep=(--execute); }
made=$(cat "$v/.made" 2>/dev/null || true)
if [ ! -x "$v/bin/mkdocs" ] || [ docs/requirements.txt -nt "$v/.made" ] || [ "$made" != "$pkg" ]; then
  echo "+ making the docs venv $v ($pkg)"
  python3 -m venv "$v"
  "$v/bin/pip" install -q -r docs/requirements.txt -e "$pkg"
  echo "$pkg" >"$v/.made"
fi
off=(); if unshare -n true 2>/dev/null; then off=(unshare -n); else echo "(no unshare -n here: network stays up)"; fi
t0=$(date +%s)
"${off[@]}" "$v/bin/python" .ci/docs/prep.py "${prep[@]}"
rm -rf _site
quiet='Copied jupyter file|Converting notebook|Cache (miss|hit)|Evicted stale cache|Formatting signatures requires'
"${off[@]}" "$v/bin/mkdocs" build --strict 2>&1 | { grep -vE "$quiet" || true; }
"${off[@]}" "$v/bin/python" .ci/docs/check_site.py _site
echo "docs site in _site/ ($(du -sh _site | cut -f1), $(( $(date +%s) - t0 ))s from the notebooks)"
