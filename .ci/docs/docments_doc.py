"""Parameter docs from fastcore docments, shared by the docs site (`griffe_docments.py`, `prep.py`, `check_site.py`),
the `help()` docstrings (`.ci/docstrings.py` writes `msgkit/_docs.py`) and `tests/test_docs.py`, so all of them show the
same thing. Run as a script, it lists the public names whose parameters lack docments."""
import functools, importlib, inspect, pkgutil, re, sys, textwrap
from fastcore.docments import docments

_empty = inspect.Parameter.empty

def modules():
    "Every public module of msgkit (`adapters.openai`, ...) with a non-empty `__all__`, in import-path order"
    import msgkit
    out = []
    for m in pkgutil.walk_packages(msgkit.__path__, 'msgkit.'):
        if any(p.startswith('_') for p in m.name.split('.')): continue
        if getattr(importlib.import_module(m.name), '__all__', None): out.append(m.name.removeprefix('msgkit.'))
    return sorted(out)

def public():
    "(module, name, object) for every name in every public module's `__all__`"
    return [(m, n, getattr(M, n)) for m in modules() for M in [importlib.import_module('msgkit.' + m)]
            for n in M.__all__]

def home(name, o):
    "The module whose `__all__` first lists public name `name` (object `o`): its reference page, its `_docs` key"
    mods = [m for m, n, x in public() if n == name and x is o]
    return next((m for m in mods if getattr(o, '__module__', None) == f'msgkit.{m}'), mods[0] if mods else None)

def documentable(o):
    "Functions, classes and partials: what gets a reference entry with parameters (constants don't)"
    return callable(o) and not inspect.ismodule(o)

def key(mod, name, o):
    "The `msgkit._docs` key of public name `name` of module `mod`: where it's defined, or where it's listed (partials)"
    m, q = getattr(o, '__module__', None), getattr(o, '__qualname__', None)
    if m and q and m.startswith('msgkit') and not isinstance(o, functools.partial): return f'{m}.{q}'
    return f'msgkit.{mod}.{name}'

def _anno_str(a):
    if a is _empty: return ''
    if isinstance(a, type): return a.__name__
    return str(a).replace('typing.', '')

def _default_str(d):
    if d is _empty: return ''
    s = getattr(d, '__name__', None) if callable(d) else None
    s = s or repr(d)
    return s if len(s) <= 60 else s[:57] + '...'

def target(obj):
    "What to read parameters from: the function, the function a partial binds, a msgkit class's own `__init__`, or None"
    if isinstance(obj, functools.partial): return inspect.unwrap(obj.func)
    obj = inspect.unwrap(obj) if callable(obj) else obj
    if inspect.isclass(obj):
        return next((c.__dict__['__init__'] for c in obj.__mro__ if '__init__' in c.__dict__
                     and (c.__module__ or '').startswith('msgkit')), None)
    return obj if callable(obj) else None

def _kw_fix(f, d):
    "docments gives the comment after a last `**kw,` to `return` when `)->x:` is on the next line: give it back"
    try: src = inspect.getsource(f)
    except (OSError, TypeError): return d
    ret = d.get('return', {}).get('docment')
    for n, v in d.items():
        if n == 'return' or v.get('docment'): continue
        kind = v.get('kind', None)
        star = {inspect.Parameter.VAR_KEYWORD: '**', inspect.Parameter.VAR_POSITIONAL: '*'}.get(kind)
        if star is None: continue
        m = re.search(rf'^\s*{re.escape(star + n)}\s*(?::[^#\n]*)?,?\s*#\s*(.+?)\s*$', src, re.M)
        if m:
            v['docment'] = m.group(1)
            if ret == m.group(1): d['return']['docment'] = None
    return d

def params(obj):
    """[(name, star, anno, default, doc)] of `obj`'s parameters (self/cls left out; a partial's own signature), and
    (anno, doc) of its return"""
    f = target(obj)
    if f is None: return [], ('', None)
    try:
        sig = inspect.signature(obj if isinstance(obj, functools.partial) else f)
        d = {k: dict(v) for k, v in docments(f, full=True).items()}
        for n, p in inspect.signature(f).parameters.items():
            if n in d: d[n]['kind'] = p.kind
        d = _kw_fix(f, d)
    except (TypeError, ValueError, OSError): return [], ('', None)
    rows = []
    for i, (n, p) in enumerate(sig.parameters.items()):
        if i == 0 and n in ('self', 'cls'): continue
        pre = '**' if p.kind == p.VAR_KEYWORD else '*' if p.kind == p.VAR_POSITIONAL else ''
        rows.append((n, pre, _anno_str(p.annotation), _default_str(p.default), d.get(n, {}).get('docment')))
    r = d.get('return', {})
    return rows, (_anno_str(sig.return_annotation), r.get('docment'))

def missing(obj):
    "Names of `obj`'s parameters that have no docment"
    return [pre + n for n, pre, a, dflt, doc in params(obj)[0] if not doc]

def summary(obj):
    "The one-line doc (a partial: what it binds, then its function's)"
    if isinstance(obj, functools.partial):
        bound = ', '.join([repr(a) for a in obj.args] + [f'{k}={v!r}' for k, v in obj.keywords.items()])
        return f"`{obj.func.__name__}` with `{bound}`: " + summary(obj.func)
    f = target(obj) if not inspect.isclass(obj) else None
    doc = inspect.getdoc(f or obj) or ''
    return doc.split('\n\n')[0].split('\nParameters:\n')[0].strip()

def help_doc(obj):
    "The docstring `help()` shows (what `msgkit/_docs.py` holds): the one-line doc, then each parameter's docment"
    rows, (ra, rd) = params(obj)
    out = [summary(obj)]
    if rows:
        out += ['', 'Parameters:']
        for n, pre, a, dflt, doc in rows:
            out.append(f'    {pre}{n}: {doc or "(not documented)"}' + (f' (default {dflt})' if dflt else ''))
    if rd: out += ['', f'Returns: {rd}']
    return '\n'.join(out).strip()

def google_section(obj):
    "An `Args:`/`Returns:` section (Google style, as griffe parses it) built from docments"
    rows, (ra, rd) = params(obj)
    out = []
    if rows:
        out.append('Args:')
        for n, pre, a, dflt, doc in rows:
            head = f'{pre}{n}' + (f' ({a})' if a and not pre else '')
            out.append(textwrap.indent(f'{head}: {doc or "(not documented)"}', '    '))
    if rd: out += ['', 'Returns:', f'    {ra + ": " if ra else ""}{rd}']
    return '\n'.join(out)

def full_doc(obj):
    "The one-line doc followed by the docments section: what mkdocstrings shows"
    s, sec = summary(obj), google_section(obj)
    return (s + ('\n\n' + sec if sec else '')).strip()

def cell(s): return (s or '').replace('|', '\\|').replace('\n', ' ')

def params_table(obj):
    "The parameter table (Markdown) of `obj`, nbdev show_doc style"
    rows, (ra, rd) = params(obj)
    if not rows and not rd: return ''
    code = lambda s: f'`{cell(s)}`' if s else ''
    out = ['| | **Type** | **Default** | **Details** |', '| -- | -- | -- | -- |']
    out += [f'| `{pre}{n}` | {code(a)} | {code(dflt)} | {cell(doc) or "*not documented*"} |'
            for n, pre, a, dflt, doc in rows]
    if rd or ra: out.append(f'| **Returns** | {code(ra)} | | {cell(rd)} |')
    return '\n'.join(out)

def signature(name, obj, width=88):
    "`name(params)->ret` as the reader calls it (a class: its constructor), one parameter a line when it's long"
    try: sig = inspect.signature(obj if isinstance(obj, functools.partial) else target(obj) or obj)
    except (TypeError, ValueError): return name
    P = inspect.Parameter
    ps = list(sig.parameters.values())
    if ps and inspect.isclass(obj) and ps[0].name in ('self', 'cls'): ps = ps[1:]
    head = ('class ' if inspect.isclass(obj) else '') + name
    ret = '' if sig.return_annotation is sig.empty else f'->{_anno_str(sig.return_annotation)}'
    short = head + str(sig.replace(parameters=ps, return_annotation=sig.empty)) + ret
    if len(short) <= width: return short
    out, star = [], any(p.kind == P.VAR_POSITIONAL for p in ps)
    for i, p in enumerate(ps):
        if p.kind == P.KEYWORD_ONLY and not star: out.append('*'); star = True
        out.append(str(p))
        if p.kind == P.POSITIONAL_ONLY and (i + 1 == len(ps) or ps[i+1].kind != P.POSITIONAL_ONLY): out.append('/')
    return head + '(\n' + ''.join(f'    {o},\n' for o in out) + ')' + ret

def entry_md(name, obj, level=3):
    "A Markdown entry for a notebook page: heading, signature, summary, parameter table (nbdev's show_doc look)"
    out = [f'{"#" * level} {name}', '']
    if documentable(obj):
        out += [f'```python\n{signature(name, obj)}\n```', '', summary(obj)]
        if (t := params_table(obj)): out += ['', t]
    else: out += [f'```python\n{name} = {repr(obj)[:200]}\n```']
    return '\n'.join(out) + '\n'

def gaps(names=None):
    "[(module, name, missing parameters)] for public callables (of `names` only, if given) with undocumented parameters"
    return [(m, n, ms) for m, n, o in public()
            if documentable(o) and (names is None or n in names) and (ms := missing(o))]

if __name__ == '__main__':
    import msgkit
    top = set(msgkit.__all__) if '--top' in sys.argv else None
    g = gaps(top)
    for m, n, ms in g: print(f'msgkit.{m}.{n}: {", ".join(ms)}')
    print(f'{len(g)} public callables{" in msgkit.__all__" if top else ""} with undocumented parameters')
