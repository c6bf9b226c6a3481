"""mkdocs hooks: the nav that `prep.py` wrote (`_site_src/.nav.json`, from the notebooks and modules present), and
unique heading ids on notebook pages (a section `## mk_msg` and its entry `### mk_msg` would share one id, while the
page's table of contents links the second as `#mk_msg_1`)."""
import json, re
from pathlib import Path

def on_config(config, **kw):
    p = Path(config['docs_dir'])/'.nav.json'
    if not p.exists(): raise SystemExit(f'no {p}: run `python .ci/docs/prep.py` first (`bash .ci/docs.sh` does)')
    config['nav'] = json.loads(p.read_text())
    return config

_h = re.compile(r'<h([1-6]) id="([^"]+)">(.*?)<a class="anchor-link" href="#\2">')

def on_page_content(html, page, **kw):
    if not page.file.src_path.endswith('.ipynb'): return html
    seen = {}
    def uniq(m):
        n = seen.get(m[2], 0); seen[m[2]] = n + 1
        i = m[2] if n == 0 else f'{m[2]}_{n}'
        return f'<h{m[1]} id="{i}">{m[3]}<a class="anchor-link" href="#{i}">'
    return _h.sub(uniq, html)
