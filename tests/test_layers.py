"""The house: modules import only modules below them (function-level imports included), no module outgrows its room,
no line is over 120 characters. The order is declared here; the import graph is read from the source."""
import ast, re
from pathlib import Path

PKG = Path(__file__).resolve().parents[1]/'msgkit'

# Bottom to top: a module may import only modules before it. Groups name the layers (DESIGN.md's architecture).
LAYERS = [
    ('foundation', ['errors', 'codec', 'sniff']),  # media facts
    ('vocabulary', ['parts', 'shapes', 'msgs']),
    ('losses', ['losses']),
    ('registry', ['registry']),  # which APIs and formats there are; it finds their modules by name, at run time
    ('media', ['mediapart']),
    ('history', ['history', 'readers.*', 'repairs', 'render', 'plain']),  # reading (and format readers), repairs, rendering, the plain lane
    ('adapters', ['adapters', 'adapters.base', 'adapters.openai', 'adapters.openai_chat', 'adapters.dialects.base', 'adapters.dialects.*', 'adapters.anthropic',
                  'adapters.gemini', 'adapters.bedrock']),
    ('public', ['download', 'fit', 'elide', 'markdown', 'viewparts', 'display', 'cache', 'response', 'core', 'tools', 'stream',
                'budget', 'request', 'batch', 'table', 'cli']),
    ('package', ['__init__']),
]

def modules()->dict:
    "Module name (`adapters.openai`) -> path, for every module of the package"
    return {'.'.join(p.relative_to(PKG).with_suffix('').parts).removesuffix('.__init__') or '__init__': p
            for p in PKG.rglob('*.py') if p.name not in ('_modidx.py', '_docs.py')}  # generated data, no imports

def rank(name:str):
    "The position of module `name` in `LAYERS` (a module matching `x.*` takes that entry's place); `None` if undeclared"
    order = [m for _,ms in LAYERS for m in ms]
    for i,m in enumerate(order):
        if m==name or (m.endswith('.*') and name.startswith(m[:-1]) and name.count('.')==m.count('.')): return i
        if m.endswith('.*') and m[:-2]==name: return i  # a package's own `__init__` sits with its modules
    return None

def _target(mod:str, node)->list:
    "The msgkit modules an import node names, from module `mod`"
    if isinstance(node, ast.Import):
        return [a.name.removeprefix('msgkit.') for a in node.names if a.name.startswith('msgkit.')]
    if node.level:  # relative: resolved against the importing module's package
        base = mod.split('.')[:-node.level] if not mod.endswith('__init__') else mod.split('.')[:-node.level+1]
        parts = base + (node.module.split('.') if node.module else [])
    elif node.module and (node.module=='msgkit' or node.module.startswith('msgkit.')): parts = node.module.split('.')[1:]
    else: return []
    name = '.'.join(parts)
    if not name: return [a.name for a in node.names]  # `from . import display`, `from msgkit import x`: modules or names
    return [name]

def imports()->dict:
    "Module -> the msgkit modules it imports, at any depth (function-level imports included)"
    ms,out = modules(),{}
    for name,p in ms.items():
        tree = ast.parse(p.read_text())
        ts = set()
        for n in ast.walk(tree):
            if isinstance(n, (ast.Import, ast.ImportFrom)): ts |= {t for t in _target(name, n) if t in ms}
            if isinstance(n, ast.Call) and getattr(n.func, 'attr', getattr(n.func, 'id', ''))=='import_module' and n.args \
               and isinstance(n.args[0], ast.Constant) and str(n.args[0].value).startswith('msgkit.'):
                ts.add(n.args[0].value.removeprefix('msgkit.'))  # a module named as a literal is an arrow too
        out[name] = ts - {name}
    return out

def test_every_module_is_declared():
    assert not [m for m in modules() if rank(m) is None], [m for m in modules() if rank(m) is None]

# The one way up: the registry finds the adapter and reader modules in their packages by name, at run time (the plugin
# mechanism that makes adding an API one notebook). It names the packages, never a module in them.
FINDS = {('registry', 'adapters'), ('registry', 'adapters.dialects'), ('registry', 'readers')}

def test_imports_point_down():
    "No module imports a module at or above its own place: no upward arrow, so no circle"
    up = sorted(f"{a} -> {b}" for a,ts in imports().items() for b in ts if rank(b)>=rank(a) and (a,b) not in FINDS)
    assert not up, up

def test_the_rule_can_fail(tmp_path):
    "An upward import (a module of the foundation naming core) is caught"
    tree = ast.parse("def f():\n    from msgkit.core import mk_msg\n")
    ts = {t for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for t in _target('sniff', n)}
    assert ts=={'core'} and rank('core')>rank('sniff')

def test_no_private_names_across_modules():
    "No module imports another module's `_private` name: what modules share has a public name"
    bad = []
    for name,p in modules().items():
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, ast.ImportFrom) and (n.level or (n.module or '').startswith('msgkit')):
                bad += [f"{name}: {a.name} from {n.module}" for a in n.names if a.name.startswith('_')]
    assert not bad, bad

def test_rooms_and_lines():
    "No module over 450 lines but the adapters; no line over 120 characters"
    big = {m:n for m,p in modules().items() if (n := len(p.read_text().splitlines()))>450 and not m.startswith('adapters.')}
    # nbdev wraps `__all__` at 120 characters before adding its `__all__ = ` prefix: that first line is nbdev's
    long = [f"{m}:{i+1}" for m,p in modules().items() for i,l in enumerate(p.read_text().splitlines())
            if len(l)>120 and not l.startswith('__all__ = [')]
    assert not big, big
    assert not long, (len(long), long[:20])
