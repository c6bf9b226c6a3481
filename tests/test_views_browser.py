"""The views in a real browser (#21): the README's history, a 300-turn history and a wide table, run in a Jupyter kernel,
exported as nbconvert's HTML (JupyterLab's own CSS, which right-aligns table cells unless told otherwise) and laid out
by headless Chromium (Debian's `chromium`), which reports each view's size: no row wider than its box, the 300-turn
view within its set height. `python tests/test_views_browser.py DIR` also writes a screenshot of each view to DIR."""
import json, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path
import pytest

pytestmark = pytest.mark.browser
CHROME = next((p for p in map(shutil.which, ('chromium', 'chromium-browser', 'google-chrome')) if p), None)
WIDTH = 1000  # the window: JupyterLab's notebook column is about this wide on a laptop

SETUP = '''
import warnings; warnings.simplefilter('ignore')
from msgkit import *
from msgkit.parts import turn, text_part, tool_call_part, tool_result_part
from msgkit.mediapart import media
img, pdf = sample('gradient.png').read_bytes(), sample('report.pdf').read_bytes()
call = {'role': 'assistant', 'content': [
    {'type': 'thinking', 'thinking': 'The report has numbers; look up the weather too.', 'signature': 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds'},
    {'type': 'tool_use', 'id': 'toolu_01', 'name': 'get_weather', 'input': {'city': 'Paris'}}]}
readme = mk_msgs([[img, pdf, "What do these show? And what's the weather in Paris?"], call,
                  *mk_toolres(tool_calls(call)[0], 'Sunny, 18 C', api='anthropic'),
                  'A gradient, a one-page report, and sun in Paris. See https://example.com/a_very_long_path_' + 'x'*120], api='anthropic')
ts = []
for i in range(75):
    ts += [turn('user', [text_part(f'Question {i}: what does the chart show? ' * 3)] + ([media(img)] if i%10==0 else [])),
           turn('assistant', [tool_call_part(f'call_{i}', 'lookup', dict(q=i, path='/a/very/long/path/' + 'segment'*30))]),
           turn('user', [tool_result_part(f'call_{i}', [text_part(f'result {i}')], name='lookup')]),
           turn('assistant', [text_part(f'Answer {i}. ' + 'The chart rises steadily and then levels off. ' * 60)])]
long = mk_msgs(ts, 'openai')
cols = ' | '.join(f'column {j}' for j in range(14))
table = mk_msgs(['A wide table, please.', f"""Here:

| {cols} |
|:---|{'---:|' * 13}
""" + '\\n'.join('| ' + ' | '.join(f'value{r}{j} incomprehensibilities' for j in range(14)) + ' |' for r in range(5))], api='anthropic')
'''
VIEWS = ['readme', 'long', 'table']

# What the page reports: each view's box and its rows' overflow, read after layout
PROBE = '''<script>
window.addEventListener('load', () => {
  const out = [...document.querySelectorAll('.mk-view')].map(v => {
    const box = v.getBoundingClientRect();
    const rows = [...v.querySelectorAll('.mk-row, .mk-hidden')];
    const over = rows.filter(r => r.scrollWidth > r.clientWidth + 1 || r.getBoundingClientRect().right > box.right + 1);
    const tds = [...v.querySelectorAll('td, th')].map(c => getComputedStyle(c).textAlign);
    const wraps = [...v.querySelectorAll('table')].map(t => getComputedStyle(t.parentElement).overflowX);
    return {height: box.height, scrollHeight: v.scrollHeight, width: box.width, rows: rows.length, over: over.map(r => r.textContent.slice(0, 80)),
            aligns: [...new Set(tds)], wraps: wraps, imgs: v.querySelectorAll('img').length, svgs: v.querySelectorAll('svg').length};
  });
  const pre = document.createElement('pre'); pre.id = 'mk-result'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>'''

def _pages(dest:Path)->dict:
    "One nbconvert HTML page per view, from a notebook run in a real kernel: {view: path}"
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[v4.new_code_cell(SETUP)] + [v4.new_code_cell(v) for v in VIEWS])
    old = os.environ.get('PYTHONPATH')
    os.environ['PYTHONPATH'] = str(Path(__file__).resolve().parents[1]) + os.pathsep + (old or '')  # this checkout's msgkit
    try: NotebookClient(nb, timeout=120, kernel_name='python3').execute()
    finally:
        if old is None: del os.environ['PYTHONPATH']
        else: os.environ['PYTHONPATH'] = old
    for c in nb.cells: assert not [o for o in c.outputs if o.get('output_type')=='error'], c.outputs
    out = {}
    for i,v in enumerate(VIEWS):
        one = v4.new_notebook(cells=[nb.cells[i+1]])
        html,_ = HTMLExporter(template_name='lab').from_notebook_node(one)
        out[v] = dest/f'{v}.html'
        out[v].write_text(html.replace('</body>', PROBE + '</body>'))
    return out

def _chrome(*args, timeout=60):
    return subprocess.run([CHROME, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', f'--window-size={WIDTH},1400',
                           '--virtual-time-budget=5000', *args], capture_output=True, text=True, timeout=timeout)

@pytest.fixture(scope='module')
def measured(tmp_path_factory):
    if not CHROME: pytest.skip('no chromium binary on PATH (Debian: apt-get install chromium); .ci/run installs it')
    pytest.importorskip('nbconvert')
    pages = _pages(tmp_path_factory.mktemp('views'))
    res = {}
    for v,p in pages.items():
        r = _chrome('--dump-dom', p.as_uri())
        m = re.search(r'<pre id="mk-result">(.*?)</pre>', r.stdout, re.S)
        assert m, (v, r.stderr[-2000:])
        import html
        res[v] = json.loads(html.unescape(m[1]))
    return res

def test_rows_fit_their_width(measured):
    for v,boxes in measured.items():
        assert boxes, v
        for b in boxes: assert b['rows'] and not b['over'], (v, b)

def test_long_view_bounded(measured):
    (b,) = measured['long']
    assert b['height']<=1200 and b['rows']<=17 and b['scrollHeight']<40_000, b

def test_wide_table_scrolls_aligned(measured):
    (b,) = measured['table']
    assert b['wraps']==['auto'] and set(b['aligns'])=={'left', 'right'}, b  # JupyterLab's right-aligned cells, told otherwise

def test_readme_history(measured):
    (b,) = measured['readme']
    assert b['imgs']==1 and b['svgs']>=4 and b['height']<1200, b

if __name__=='__main__':  # screenshots: python tests/test_views_browser.py DIR
    d = Path(sys.argv[1] if len(sys.argv)>1 else tempfile.mkdtemp()); d.mkdir(parents=True, exist_ok=True)
    for v,p in _pages(d).items():
        _chrome(f'--screenshot={d/(v+".png")}', p.as_uri())
        print(d/(v+'.png'))
