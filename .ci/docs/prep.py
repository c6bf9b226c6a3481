"""Lay out the docs site's sources in `_site_src/` from the notebooks and modules present (run from the repo root,
before `mkdocs build`; `.ci/docs.sh` does both):
- each notebook in `nbs/` is a page, with its saved outputs, processed as nbdev's docs do it: `#| hide` cells dropped,
  each `#| export` cell replaced by an entry per public name it defines (signature, one-line doc, docments parameter
  table, like `show_doc`), `#| exports` cells shown with their entries, `#| exporti` cells dropped; backticked public
  names in the prose link to their reference entries;
- a reference page per public module of msgkit (mkdocstrings `:::` of every name in its `__all__`; the parameter docs
  come from docments, through `griffe_docments.py`), and one for the top-level `msgkit` names;
- `.nav.json`, the site's navigation in notebook order, which `hooks.py` hands to mkdocs: adding a notebook or a module
  needs no edit here or in `mkdocs.yml`."""
import copy, hashlib, importlib, json, re, shutil, sys, ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import docments_doc as D

ROOT, SRC = Path.cwd(), Path('_site_src')
GROUPS = {'adapters': 'Adapters', 'readers': 'Readers'}  # a package's consecutive notebooks share a nav section
_dir = re.compile(r'^\s*#\s*\|\s*(.*)$')

def directives(src):
    "The `#| ...` lines at the top of a cell, each split into words (`['eval:', 'false']`)"
    out = []
    for l in src.splitlines():
        if not l.strip(): continue
        m = _dir.match(l)
        if not m: break
        out.append(m.group(1).replace(':', ': ').split())
    return out

def strip_directives(src): return '\n'.join(l for l in src.splitlines() if not _dir.match(l)).strip('\n')

def defined_names(src):
    "Names a cell defines at top level (functions, classes, assignments), in order"
    try: tree = ast.parse(src)
    except SyntaxError: return []
    out = []
    for n in tree.body:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): out.append(n.name)
        elif isinstance(n, ast.Assign):
            for t in n.targets: out += [e.id for e in ast.walk(t) if isinstance(e, ast.Name)]
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name): out.append(n.target.id)
    return out

def md_cell(text):
    return dict(cell_type='markdown', id=hashlib.sha1(text.encode()).hexdigest()[:8], metadata={}, source=text)

def src_of(c): return ''.join(c['source']) if isinstance(c['source'], list) else c['source']

def nb_info(path):
    "(module the notebook exports or None, title, description) of a notebook"
    nb = json.loads(path.read_text())
    mod = next((d[1] for c in nb['cells'] if c['cell_type'] == 'code' for d in directives(src_of(c))
                if len(d) > 1 and d[0] == 'default_exp'), None)
    md = next((src_of(c) for c in nb['cells'] if c['cell_type'] == 'markdown'), '')
    title = next((l[2:].strip() for l in md.splitlines() if l.startswith('# ')), path.stem)
    desc = ' '.join(l[1:].strip() for l in md.splitlines() if l.startswith('>'))
    return mod, title, desc

def where():
    "Public name -> the module whose reference page holds its entry (where it is defined, else where first listed)"
    out = {}
    for m, n, o in D.public():
        if getattr(o, '__module__', '') == f'msgkit.{m}': out[n] = m
        else: out.setdefault(n, m)
    return out

_tick = re.compile(r'(?<![\[\w`])`([A-Za-z0-9_]+)(\(\))?`(?![\]`])')

def link_names(md, links, up):
    """Backticked public names in Markdown `md` (outside code fences) as links to their reference entries, and
    backticked notebook names (`47_core`) to their pages"""
    def link(m):
        n = m[1]
        if n in links: return f'[`{n}{m[2] or ""}`]({up}reference/{links[n]}.html#msgkit.{links[n]}.{n})'
        if not m[2] and re.fullmatch(r'\d+[a-z]?_\w+', n) and (ROOT/'nbs'/f'{n}.ipynb').exists():
            return f'[`{n}`]({up}nbs/{n}.html)'
        return m[0]
    out, fence = [], False
    for l in md.split('\n'):
        if l.lstrip().startswith(('```', '~~~')): fence = not fence
        if not fence and not l.lstrip().startswith('#'): l = _tick.sub(link, l)
        out.append(l)
    return '\n'.join(out)

_nblink = re.compile(r'\]\(((?![a-z]+:)[^)\s]*?)\.ipynb(#[^)\s]*)?\)')

def nb_links(md, base):
    "Links to notebooks present (`nbs/47_core.ipynb`, right on GitHub from `base`) as links to their pages"
    return _nblink.sub(lambda m: f']({m[1]}.html{m[2] or ""})' if (base/f'{m[1]}.ipynb').exists() else m[0], md)

def proc_nb(path, dest, links, up):
    "Write the docs version of notebook `path` to `dest`"
    nb = json.loads(path.read_text())
    mod = nb_info(path)[0]
    M = importlib.import_module(f'msgkit.{mod}') if mod else None
    pub = set(getattr(M, '__all__', [])) if M else set()
    cells, shown = [], set()
    for c in nb['cells']:
        src = src_of(c)
        if c['cell_type'] == 'markdown':
            c = copy.deepcopy(c); c['source'] = nb_links(link_names(src, links, up), ROOT if up == '' else ROOT/'nbs')
            cells.append(c); continue
        if c['cell_type'] != 'code': continue
        ds = directives(src)
        words = {d[0].rstrip(':') for d in ds if d}
        opts = {d[0].rstrip(':'): d[1] if len(d) > 1 else '' for d in ds if d}
        if 'hide' in words or 'default_exp' in words and not strip_directives(src): continue
        if opts.get('include') == 'false': continue
        if words & {'export', 'exports', 'exporti'}:
            if 'exports' in words: cells.append(dict(copy.deepcopy(c), source=strip_directives(src), outputs=[]))
            if 'exporti' in words: continue
            for n in dict.fromkeys(defined_names(strip_directives(src))):
                if n not in pub or n in shown: continue
                cells.append(md_cell(D.entry_md(n, getattr(M, n), level=3)
                                     + f'\n<small>[reference]({up}reference/{mod}.html#msgkit.{mod}.{n})</small>\n'))
                shown.add(n)
            continue
        c = copy.deepcopy(c); c['source'] = strip_directives(src)
        if words & {'hide_input'} or opts.get('echo') == 'false': c['source'] = ''
        if words & {'hide_output'} or opts.get('output') == 'false': c['outputs'] = []
        if c['source'] or c.get('outputs'): cells.append(c)
    nb['cells'] = cells
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(nb, indent=1))

def ref_page(mod, nb):
    "The reference page of module `mod`: its description (from its notebook), then every name in its `__all__`"
    M = importlib.import_module(f'msgkit.{mod}')
    head = [f'# msgkit.{mod}', '']
    if nb: head += [f'> {nb[2] or (M.__doc__ or "").strip()}', '', f'The notebook: [{nb[1]}](../nbs/{nb[0]})', '']
    elif M.__doc__: head += [f'> {M.__doc__.strip()}', '']
    members = '\n'.join(f'        - {n}' for n in M.__all__)
    return '\n'.join(head) + f'\n::: msgkit.{mod}\n    options:\n      members:\n{members}\n'

def top_page(links):
    "The top-level `msgkit` names (`from msgkit import *`), each linked to its entry"
    import msgkit
    rows = []
    for n in msgkit.__all__:
        m = links[n]
        rows.append(f'| [`{n}`]({m}.md#msgkit.{m}.{n}) | [{m}]({m}.md) | {D.cell(D.summary(getattr(msgkit, n)))} |')
    return ('# msgkit\n\n`from msgkit import *` gives these names; each loads its module on first use. Every '
            "module's own public names are on its page (left).\n\n| Name | In `msgkit.` | |\n| -- | -- | -- |\n"
            + '\n'.join(rows) + '\n')

def grouped(items):
    "Nav entries [(module or None, {title: path})], consecutive modules of one package under that package's section"
    out = []
    for mod, entry in items:
        pkg = mod.split('.')[0] if mod and '.' in mod else None
        if pkg in GROUPS:
            if out and isinstance(out[-1], dict) and GROUPS[pkg] in out[-1]: out[-1][GROUPS[pkg]].append(entry)
            else: out.append({GROUPS[pkg]: [entry]})
        else: out.append(entry)
    return out

def execute(nbs, out):
    "Run each of `nbs` (two at a time) into folder `out`, as `nbdev_test` runs them: the pages get fresh outputs"
    import subprocess, concurrent.futures as cf
    out.mkdir(parents=True, exist_ok=True)
    run = lambda p: subprocess.run([sys.executable, str(HERE/'execute.py'), str(p), str(out/p.name)],
                                   capture_output=True, text=True)
    with cf.ThreadPoolExecutor(2) as ex: rs = list(ex.map(run, nbs))
    bad = [r.stderr for r in rs if r.returncode]
    if bad: raise SystemExit('\n'.join(bad) + f'\n{len(bad)} notebook(s) failed to run')
    return {p: out/p.name for p in nbs}

def main():
    if SRC.exists(): shutil.rmtree(SRC)
    links = where()
    nbs = sorted(p for p in (ROOT/'nbs').glob('*.ipynb') if p.name != 'index.ipynb')
    ran = execute(nbs + [ROOT/'nbs'/'index.ipynb'], Path('_site_run')) if '--execute' in sys.argv else {}
    proc_nb(ran.get(ROOT/'nbs'/'index.ipynb', ROOT/'nbs'/'index.ipynb'), SRC/'index.ipynb', links, '')
    info = {p.name: nb_info(p) for p in nbs}
    for p in nbs: proc_nb(ran.get(p, p), SRC/'nbs'/p.name, links, '../')
    by_mod = {i[0]: (n, i[1], i[2]) for n, i in info.items() if i[0]}
    mods = D.modules()
    (SRC/'reference').mkdir(parents=True)
    (SRC/'reference'/'index.md').write_text(top_page(links))
    for m in mods: (SRC/'reference'/f'{m}.md').write_text(ref_page(m, by_mod.get(m)))
    order = {m: i for i, m in enumerate(i[0] for i in info.values() if i[0])}  # the notebooks' order, then the rest
    nav = [{'Home': 'index.ipynb'},
           {'Notebooks': grouped([(i[0], {i[1]: f'nbs/{n}'}) for n, i in info.items()])},
           {'Reference': [{'msgkit': 'reference/index.md'}] + grouped(
               [(m, {f'msgkit.{m}': f'reference/{m}.md'}) for m in sorted(mods, key=lambda m: (order.get(m, 1e9), m))])}
          ]
    (SRC/'.nav.json').write_text(json.dumps(nav, indent=1))
    (SRC/'extra.css').write_text((HERE/'extra.css').read_text())
    print(f'{len(nbs)+1} notebook pages, {len(mods)} module reference pages and the msgkit page in {SRC}/')

if __name__ == '__main__': main()
