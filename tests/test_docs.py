"""What the docs site and `help()` show for the names in `msgkit.__all__`, checked from the source (no site build
needed; `bash .ci/docs.sh` builds the site and checks the same on its pages): every parameter of every public
function, class and partial has a docment, `msgkit/_docs.py` (written by `.ci/docstrings.py`) holds its docstring as
the source gives it now, and `help()` shows that docstring."""
import pydoc, sys
from pathlib import Path
import msgkit
sys.path.insert(0, str(Path(__file__).resolve().parents[1]/'.ci'/'docs'))
import docments_doc as D

def top():
    "(name, object, `_docs` key) of every function, class and partial in `msgkit.__all__`"
    return [(n, o, D.key(D.home(n, o), n, o)) for n in msgkit.__all__ if D.documentable(o := getattr(msgkit, n))]

def docs():
    try: from msgkit._docs import docs
    except ImportError: raise AssertionError('no msgkit/_docs.py: run `python .ci/docstrings.py` after nbdev_export')
    return docs

def test_every_parameter_has_a_docment():
    "Each parameter (and `*args`/`**kw`) of each public callable has a docment: the comment beside it in the notebook"
    gaps = [f"{n}: {', '.join(ms)}" for n, o, k in top() if (ms := D.missing(o))]
    assert not gaps, f'{len(gaps)} public callables have parameters without a docment:\n' + '\n'.join(gaps)

def test_every_name_has_a_docstring():
    assert not [n for n, o, k in top() if not D.summary(o)]

def test_docs_module_is_current():
    "`msgkit/_docs.py` holds each name's docstring as the docments give it now (regenerate: `python .ci/docstrings.py`)"
    d = docs()
    stale = [n for n, o, k in top() if d.get(k) != D.help_doc(o)]
    assert not stale, f'msgkit/_docs.py is missing or out of date for {stale}: run `python .ci/docstrings.py`'

def test_help_shows_the_parameter_docs():
    "`help(f)` shows `f`'s entry of `msgkit/_docs.py`: the one-line doc and every parameter's docment"
    d, bad = docs(), []
    for n, o, k in top():
        text = pydoc.render_doc(o, renderer=pydoc.plaintext)
        if k not in d or not all(l.strip() in text for l in d[k].splitlines()): bad.append(n)
    assert not bad, f"help() doesn't show the parameter docs of {bad} (`guard` and msgkit/__init__.py set `__doc__`)"
