"""Check the built site (`_site/`): every public name of every module (each `__all__`) has its reference entry,
every parameter's docment is on that page, every name in `msgkit.__all__` is linked from the msgkit page, every
notebook has its page, every link between pages lands on a page and an anchor that exist, and no page loads anything
from the network.
Usage: python .ci/docs/check_site.py [SITE_DIR]"""
import html, importlib, re, sys
from pathlib import Path
from urllib.parse import urlsplit, unquote
sys.path.insert(0, str(Path(__file__).resolve().parent))
import docments_doc as D

def norm(s): return re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', '', s))).replace('`', '')

def main(site):
    site = site.resolve()
    import msgkit
    bad, n_names, n_docs, n_links = [], 0, 0, 0
    # 404.html links from the site's root, as it must (it's served for any path)
    pages = {p: p.read_text(errors='replace') for p in site.rglob('*.html') if p.name != '404.html'}
    ids = {p: set(re.findall(r'\bid="([^"]+)"', t)) for p, t in pages.items()}
    for m in D.modules():
        p = site/'reference'/f'{m}.html'
        if p not in pages: bad.append(f'no reference page: {p}'); continue
        text = norm(pages[p])
        for n in importlib.import_module('msgkit.' + m).__all__:
            n_names += 1
            if f'msgkit.{m}.{n}' not in ids[p]: bad.append(f'no entry: msgkit.{m}.{n}'); continue
            o = getattr(importlib.import_module('msgkit.' + m), n)
            if not D.documentable(o): continue
            for pn, pre, a, dflt, doc in D.params(o)[0]:
                if not doc: continue
                n_docs += 1
                if norm(D.cell(doc).replace('\\|', '|')) not in text:
                    bad.append(f'docment not shown: msgkit.{m}.{n}({pre}{pn})')
    top = pages.get(site/'reference'/'index.html', '')
    for n in msgkit.__all__:
        if not re.search(rf'href="[^"]*\.html#msgkit\.[\w.]+\.{n}"', top): bad.append(f'not on reference/index: {n}')
    root = Path(__file__).resolve().parents[2]
    for nb in (root/'nbs').glob('*.ipynb'):
        page = site/('index.html' if nb.stem == 'index' else f'nbs/{nb.stem}.html')
        if page not in pages: bad.append(f'no page: {nb.name}')
    for p, t in pages.items():
        for tag, url in re.findall(r'<(script|link|img|iframe|source)\b[^>]*?\b(?:src|href)="([^"]+)"', t):
            if re.match(r'(https?:)?//', url): bad.append(f'{p.relative_to(site)} loads {url} ({tag})')
        for url in re.findall(r'<a\b[^>]*?\bhref="([^"]+)"', t):
            u = urlsplit(html.unescape(url))
            if u.scheme or u.netloc or not (u.path or u.fragment): continue  # another site's, mailto:, javascript:
            n_links += 1
            dest = (p.parent/unquote(u.path)).resolve() if u.path else p
            if dest.is_dir(): dest = dest/'index.html'
            if u.path and not dest.exists(): bad.append(f'{p.relative_to(site)}: broken link {url}'); continue
            if u.fragment and dest.suffix == '.html' and unquote(u.fragment) not in ids.get(dest, set()):
                bad.append(f'{p.relative_to(site)}: no anchor for {url}')
    print(f'{n_names} public names with entries, {n_docs} parameter docs, {len(msgkit.__all__)} top-level links, '
          f'{n_links} links between pages checked; {len(pages)} pages')
    bad = list(dict.fromkeys(bad))
    print('\n'.join(bad[:60]) + (f'\n... and {len(bad)-60} more' if len(bad) > 60 else '') if bad else 'all present')
    print(len(bad), 'problems')
    return 1 if bad else 0

if __name__ == '__main__': sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else '_site')))
