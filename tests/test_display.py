"Rich display (#11 part 1): views bounded whatever the payloads weigh, checked in a real kernel; reprs that never print base64"
import base64, copy, json, pickle, re, subprocess, sys, warnings
import pytest
import nbformat
from nbclient import NotebookClient
from msgkit import display
from msgkit.core import mk_msgs, jsonable
from msgkit.parts import turn, text_part, media, tool_call_part, tool_result_part, thinking_part
from msgkit.display import elide, show_repr, md2html, view_html, view_markdown, Msg, History, as_msgs, thumb

APIS = ['openai','openai_chat','anthropic','gemini','bedrock']

# The kernel builds a history holding a 5 MB noisy PNG, a PDF, a tool call and its result, and reasoning, for every API.
# Anthropic and Bedrock refuse a 5 MB image (their limits are below it), so for them the history is made with a small
# image whose payload is then swapped for the big one in the API's own form: what a view is shown is the point here.
SETUP = '''
import io, os, base64, warnings
from PIL import Image
from msgkit.core import mk_msgs
from msgkit.sniff import sample
from msgkit.parts import turn, text_part, media, tool_call_part, tool_result_part, thinking_part
from msgkit.display import as_msgs, History
warnings.simplefilter('ignore')
def png(w, h):
    buf = io.BytesIO(); Image.frombytes('RGB', (w, h), os.urandom(w*h*3)).save(buf, 'PNG', compress_level=1); return buf.getvalue()
big,small = png(1400, 1250),png(8, 8)
pdf = sample('report.pdf').read_bytes()
th = [thinking_part('Let me measure the image first.', signature='c2ln'*80),
      thinking_part('Let me measure the image first.', api='openai', raw=dict(type='reasoning', id='rs_1', summary=[dict(type='summary_text', text='Let me measure the image first.')])),
      thinking_part('Let me measure the image first.', api='gemini', raw=dict(text='Let me measure the image first.', thought=True))]
def hist(img): return [turn('user', [text_part('How big is **this** image? See also the report.'), media(img), media(pdf)]),
                       turn('assistant', th + [tool_call_part('call_1', 'img_size', dict(name='photo.png', unit='px'))]),
                       turn('user', [tool_result_part('call_1', [text_part('1400 x 1250')], name='img_size')]),
                       turn('assistant', [text_part('It is 1400 × 1250 px.')])]
def swap(x):
    if x==small: return big
    if x==base64.b64encode(small).decode(): return base64.b64encode(big).decode()
    if isinstance(x, str) and x.endswith(base64.b64encode(small).decode()): return x.replace(base64.b64encode(small).decode(), base64.b64encode(big).decode())
    if isinstance(x, dict): return type(x)({k:swap(v) for k,v in x.items()})
    if isinstance(x, list): return [swap(o) for o in x]
    return x
def msgs(api):
    try: return mk_msgs(hist(big), api)
    except ValueError: return swap(mk_msgs(hist(small), api))
ms = {api:as_msgs(msgs(api)) for api in %r}
b64big = base64.b64encode(big).decode()
len(big)
''' % APIS

CELLS = [f"ms[{api!r}]" for api in APIS] + ["History(hist(big))", "hist(big)[0]", "ms['anthropic'][0]", "ms['gemini'][0]"]

@pytest.fixture(scope='module')
def run():
    "The cells run in a real Jupyter kernel (ipykernel, through nbclient), their outputs as a notebook saves them"
    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[v4.new_code_cell(SETUP)] + [v4.new_code_cell(o) for o in CELLS] + [v4.new_code_cell("b64big")])
    NotebookClient(nb, timeout=300, kernel_name='python3').execute()
    return nb

def _data(o): return {k:''.join(v) if isinstance(v, list) else v for k,v in o.get('data', {}).items()}

def test_kernel_views(run):
    cells = run.cells
    for c in cells: assert not [o for o in c.outputs if o.get('output_type')=='error'], c.outputs
    assert int(_data(cells[0].outputs[-1])['text/plain'])>=5_000_000
    sizes = {}
    for src,c in zip(CELLS, cells[1:]):
        outs = [_data(o) for o in c.outputs]
        assert len(outs)==1, (src, c.outputs)
        d = outs[0]
        assert {'text/html','text/markdown','text/plain'} <= set(d), (src, list(d))
        n = sum(map(len, d.values()))
        sizes[src] = n
        assert n<60_000, (src, n)
        imgs = re.findall(r'<img src="data:image/(?:jpeg|png);base64,([A-Za-z0-9+/=]+)"', d['text/html'])
        assert len(imgs)==1 and len(imgs[0])<=50_000, (src, [len(o) for o in imgs])
        assert len(re.findall(r'!\[[^\]]*\]\(data:image/(?:jpeg|png);base64,', d['text/markdown']))==1, src
        assert '<image/png 5.' in d['text/plain'] or 'Turn(' in d['text/plain'], (src, d['text/plain'][:500])
        for k in ('text/html','text/markdown'): assert '📄 document' in d[k] and '1 page' in d[k], (src, k)
        if src.endswith('[0]'): continue
        for k in ('text/html','text/markdown'): assert 'img_size' in d[k] and '1400 x 1250' in d[k] and '💭 reasoning' in d[k] or src=="ms['openai_chat']", (src, k)
        assert 'result of <b>img_size</b>' in d['text/html'] and ('<details' in d['text/html'] or src=="ms['openai_chat']"), src
    print(sizes)

def test_no_base64_in_kernel_output(run):
    b64big = eval(_data(run.cells[-1].outputs[-1])['text/plain'])
    assert len(b64big)>6_000_000
    big = base64.b64decode(b64big)
    slices = [b64big[i:i+200] for i in range(0, len(b64big)-200, len(b64big)//60)] + [repr(big[i:i+200])[2:-1] for i in range(0, len(big)-200, len(big)//20)]
    for src,c in zip(CELLS, run.cells[1:]):
        for v in _data(c.outputs[0]).values(): assert not any(s in v for s in slices), src

def _png():
    from msgkit.sniff import sample
    return sample('gradient.png').read_bytes()

def _h(img): return [turn('user', [text_part('look'), media(img)]), turn('assistant', [text_part('A gradient.')])]

@pytest.mark.parametrize('api', APIS)
def test_elide_repr(api):
    img = _png()
    ms = as_msgs(mk_msgs(_h(img), api))
    r = repr(ms)
    b = base64.b64encode(img).decode()
    assert b[:60] not in r and repr(img)[2:60] not in r
    assert f'<image/png {len(img)} B>' in r, r
    assert r.startswith("[{'role': 'user'")
    assert repr(ms[0]).startswith("{'role': 'user'")
    e = elide(ms)
    assert type(e) is list and type(e[0]) is dict and list(e[0])[0]=='role'

def test_elide_markers(capsys):
    b = _png()
    big = b + bytes(1_200_000)
    test = [(big, '<image/png 1.2 MB>'), (base64.b64encode(big).decode(), '<image/png 1.2 MB>'),
            ('data:image/png;base64,'+base64.b64encode(b).decode(), f'<image/png {len(b)} B>'),
            (base64.b64encode(bytes(range(256))*4).decode(), '<base64 1.0 KB>'), (b'\x00\x01', '<bytes 2 B>')]
    for x,want in test: assert repr(elide(x))==want, (repr(elide(x)), want)
    assert elide(dict(b=1, role='user'))=={'role':'user', 'b':1} and list(elide(dict(b=1, role='user')))==['role','b']
    assert elide('y'*100, maxlen=10)=='y'*10+'…<90 more chars>' and elide('y'*100)=='y'*100
    show_repr(dict(content=[dict(type='image', data=big)], role='user'))
    out = capsys.readouterr().out
    assert out.startswith("{'role': 'user'") and '<image/png 1.2 MB>' in out and len(out)<200

def test_markdown_escapes():
    h = md2html('<script>alert(1)</script>\n\n**b** <img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](https://a.b)\n\n```\n<script>\n```')
    assert '<script' not in h and '<img' not in h and 'javascript:' not in h and 'onerror=alert(1)&gt;' in h
    assert h.count('&lt;script&gt;')==2 and '<b>b</b>' in h and '<a href="https://a.b">y</a>' in h
    v = view_html(['<script>alert(1)</script> *hi*'])
    assert '<script' not in v and '&lt;script&gt;' in v and '<i>hi</i>' in v
    assert '"><script' not in view_html([tool_call_part('c"><script>', '"><script>', {'a':'"><script>'})])

def test_plain_data():
    ms = mk_msgs(_h(_png()), 'anthropic')
    hs = as_msgs(ms)
    assert isinstance(hs, list) and type(hs) is History and all(isinstance(o, dict) and type(o) is Msg for o in hs)
    assert json.dumps(jsonable(hs))==json.dumps(jsonable(ms))==json.dumps(jsonable(list(map(dict, ms))))
    assert vars(hs)=={} and vars(hs[0])=={} and hs[0]==ms[0] and hs==ms
    assert type(as_msgs(ms[0])) is Msg and as_msgs(hs[0]) is hs[0]
    assert type(pickle.loads(pickle.dumps(hs))) is History and type(copy.deepcopy(hs)[0]) is Msg and type(hs[0].copy()) is Msg
    assert hs[0].role=='user' and hs[0]['content'] is ms[0]['content']  # top level only: nested values are the same objects

def test_sdks_take_them():
    "The SDKs send a `History` of `Msg`s exactly as they send the plain list"
    httpx = pytest.importorskip('httpx2')
    anthropic,openai = pytest.importorskip('anthropic'),pytest.importorskip('openai')
    for api,mk in [('anthropic', lambda t: anthropic.Anthropic(api_key='x', max_retries=0, http_client=httpx.Client(transport=t)).messages.create),
                   ('openai', lambda t: openai.OpenAI(api_key='x', max_retries=0, http_client=httpx.Client(transport=t)).responses.create)]:
        bodies = []
        def handler(req): bodies.append(json.loads(req.content)); return httpx.Response(400, json={'error': {'message':'stop', 'type':'x'}})
        ms = mk_msgs(_h(_png()), api)
        for x in (ms, as_msgs(ms)):
            kw = dict(messages=x, max_tokens=10, model='m') if api=='anthropic' else dict(input=x, model='m')
            with pytest.raises(Exception, match='stop'): mk(httpx.MockTransport(handler))(**kw)
        assert len(bodies)>=2 and bodies[0]==bodies[-1], api

def test_read_failures_do_not_raise():
    bad = [dict(role='user', content=[dict(type='bogus', data=b'\x89PNG\r\n\x1a\n'+bytes(5000))]), 'hi', 3, None, object(), {'role':'user'}, [None]]
    for f in (view_html, view_markdown):
        v = f(bad)
        assert "Can't read this item" in v.replace('&#x27;', "'") and 'hi' in v and '<image/png 5.0 KB>' in v.replace('&lt;', '<').replace('&gt;', '>')
        for x in (None, 3, object(), [], {}, 'x'*10, [b''], {'type':'bogus'}): assert isinstance(f(x), str)

def test_bounded():
    v = view_html([text_part('x'*50_000)])
    assert len(v)<25_000 and '30,000 more characters not shown' in v
    v = view_html(['y'*20_000]*100)
    assert len(v)<600_000 and 'more turns not shown' in v
    assert len(view_markdown(['y'*20_000]*100))<600_000

def test_citations_and_chips():
    cited = dict(role='assistant', content=[dict(type='text', text='Green.', citations=[dict(type='page_location', cited_text='It is green.',
                 document_index=0, document_title='Facts', start_page_number=3, end_page_number=4)])])
    assert '<sup>[1]</sup>' in view_html(cited) and '“It is green.” — Facts, p. 3' in view_html(cited)
    assert view_markdown(cited).endswith('1. “It is green.” — Facts, p. 3')
    # Bedrock's citationsContent and an OpenAI output text's annotations, each read by its own adapter
    b = {'role': 'assistant', 'content': [{'citationsContent': {'content': [{'text': 'Green.'}], 'citations': [
         {'title': 'Facts', 'sourceContent': [{'text': 'It is green.'}], 'location': {'web': {'url': 'https://ex.com/f', 'domain': 'ex.com'}}}]}}]}
    assert view_markdown(b).endswith('1. “It is green.” — [Facts](https://ex.com/f)')
    o = {'type': 'message', 'id': 'msg_1', 'role': 'assistant', 'status': 'completed', 'content': [{'type': 'output_text', 'text': 'Green.',
         'annotations': [{'type': 'url_citation', 'url': 'https://ex.com/g', 'title': 'Greens', 'start_index': 0, 'end_index': 5}]}]}
    assert view_markdown(o).endswith('1. [Greens](https://ex.com/g)') and '<sup>[1]</sup>' in view_html(o)
    from msgkit.parts import media_url, provider_file
    v = view_html([turn('user', [media_url('https://example.com/a.pdf'), provider_file('file-abc123', 'application/pdf', api='openai')])])
    assert 'href="https://example.com/a.pdf"' in v and 'file file-abc123' in v and '<img' not in v

def test_without_pillow(monkeypatch):
    display._thumbs.clear()
    monkeypatch.setitem(sys.modules, 'PIL', None)
    try:
        small = _png()
        assert thumb(small) is None
        v = view_html(_h(small))
        assert v.count('<img ')==1 and base64.b64encode(small).decode() in v  # small enough to show as it is
        v = view_html(_h(small + bytes(100_000)))
        assert '<img' not in v and '🖼 image · image/png · 100 KB' in v
    finally: display._thumbs.clear()

def test_turn_and_part_display():
    h = _h(_png())
    assert '<img ' in h[0]._repr_html_() and '![' in h[0]._repr_markdown_() and repr(h[0]).startswith("Turn('user'")
    assert '<img ' in h[0].parts[1]._repr_html_() and repr(h[0].parts[1]).startswith('Part(')

def test_cheap_import():
    code = "import sys, msgkit, msgkit.display; print(','.join(sorted({m.split('.')[0] for m in sys.modules})))"
    mods = set(subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout.strip().split(','))
    assert not mods & {'PIL','httpx','openai','anthropic','google','boto3','botocore','filetype','pydantic','IPython'}, mods

def test_hostile_text_stays_bounded_and_fast():
    import time
    from msgkit.display import view_html, view_markdown
    from msgkit.core import mk_msg
    h = mk_msgs(['>' * 1200, '**a ' * 5000] * 6, 'anthropic')
    t = time.monotonic()
    html, md = view_html(h), view_markdown(h)
    assert time.monotonic() - t < 3 and len(html) < 500_000 and '<script' not in html
    big = mk_msg({'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 't', 'name': 'f', 'input': {str(i): i for i in range(100_000)}}]}, api='anthropic')
    assert len(repr(big)) < 60_000 and 'more characters' in repr(big)
