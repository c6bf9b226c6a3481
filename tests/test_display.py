"Rich display (#11 part 1): views bounded whatever the payloads weigh, checked in a real kernel; reprs that never print base64"
import base64, copy, json, pickle, re, subprocess, sys, warnings
import pytest
import nbformat
from nbclient import NotebookClient
from msgkit import display, viewparts
from msgkit.core import mk_msgs
from msgkit.parts import jsonable
from msgkit.parts import turn, text_part, tool_call_part, tool_result_part, thinking_part
from msgkit.mediapart import media
from msgkit.elide import elide, show_repr
from msgkit.markdown import md2html
from msgkit.display import view_html, view_markdown, thumb
from msgkit.msgs import Msg, History, as_msgs

APIS = ['openai','openai_chat','anthropic','gemini','bedrock']

# The kernel builds a history holding a 5 MB noisy PNG, a PDF, a tool call and its result, and reasoning, for every API.
# Anthropic and Bedrock refuse a 5 MB image (their limits are below it), so for them the history is made with a small
# image whose payload is then swapped for the big one in the API's own form: what a view is shown is the point here.
SETUP = '''
import io, os, base64, warnings
from PIL import Image
from msgkit.core import mk_msgs
from msgkit.sniff import sample
from msgkit.parts import turn, text_part, tool_call_part, tool_result_part, thinking_part
from msgkit.mediapart import media
from msgkit.msgs import as_msgs, History
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
        assert len(imgs)==1 and len(imgs[0])<=24_000, (src, [len(o) for o in imgs])
        # one copy of each thumbnail per output (#21): the Markdown beside the HTML names the image instead
        assert not re.findall(r'\]\(data:image/', d['text/markdown']) and 'image · image/png · 5.' in d['text/markdown'], src
        assert n<35_000, (src, n)
        assert '<image/png 5.' in d['text/plain'] or 'Turn(' in d['text/plain'], (src, d['text/plain'][:500])
        for k in ('text/html','text/markdown'): assert 'document · application/pdf' in d[k] and '1 page' in d[k], (src, k)
        assert not re.search('[\U0001F300-\U0001FAFF]', d['text/html'] + d['text/markdown']), src  # icons need no emoji font
        if src.endswith('[0]'): continue
        for k in ('text/html','text/markdown'): assert 'img_size' in d[k] and '1400 x 1250' in d[k] and 'reasoning' in d[k] or src=="ms['openai_chat']", (src, k)
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
    assert len(v)<600_000 and re.search(r'[\d,]+ turns hidden', v)
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
    from msgkit.mediapart import media_url, provider_file
    v = view_html([turn('user', [media_url('https://example.com/a.pdf'), provider_file('file-abc123', 'application/pdf', api='openai')])])
    assert 'href="https://example.com/a.pdf"' in v and 'file file-abc123' in v and '<img' not in v

def test_without_pillow(monkeypatch):
    viewparts._thumbs.clear()
    monkeypatch.setitem(sys.modules, 'PIL', None)
    try:
        small = _png()
        assert thumb(small) is None
        v = view_html(_h(small))
        assert v.count('<img ')==1 and base64.b64encode(small).decode() in v  # small enough to show as it is
        v = view_html(_h(small + bytes(100_000)))
        assert '<img' not in v and 'image · image/png · 100 KB' in v
    finally: viewparts._thumbs.clear()

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


# Review of #11: regression tests, each failing before its fix

def _noise_png(w, h, mode='RGB'):
    import io, os
    from PIL import Image
    b = io.BytesIO(); Image.frombytes(mode, (w, h), os.urandom(w*h*len(mode))).save(b, 'PNG', compress_level=1); return b.getvalue()

def _formats(x):
    "What IPython puts in a notebook for `x` as a cell's last line: {mimetype: text}"
    from IPython.core.interactiveshell import InteractiveShell
    return InteractiveShell.instance().display_formatter.format(x)[0]

@pytest.mark.parametrize('api', APIS)
def test_toolres_displays(api):
    "mk_toolres returns what mk_msgs does: a History of Msgs, bounded in a notebook (it was a list of AttrDicts: 3-7 MB of text)"
    from msgkit.core import mk_toolres
    shot = _noise_png(1000, 800)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        r = mk_toolres(dict(id='call_1', name='screenshot', args={}), [shot], api=api, fit=api in ('anthropic','bedrock'))
    assert type(r) is History and all(type(o) is Msg for o in r)
    d = _formats(r)
    assert {'text/html','text/markdown','text/plain'} <= set(d) and sum(map(len, d.values()))<60_000, {k:len(v) for k,v in d.items()}
    assert base64.b64encode(shot).decode()[1000:1100] not in ''.join(d.values())

@pytest.mark.parametrize('api', APIS)
def test_request_displays(api):
    "as_request: a dict to SDKs, JSON, pickle and deepcopy; a bounded view of its messages and fields in a notebook"
    from msgkit.request import mk_request
    from msgkit.msgs import as_request, Request
    img = _noise_png(600, 400)
    def area(w:int, h:int)->int:
        "The area"
        return w*h
    plain = mk_request([[img, 'How big?'], 'Big.', 'Sure?'], api, model='m', system='Be brief.', tools=[area], max_tokens=50)
    req = as_request(plain)
    assert isinstance(req, dict) and type(req) is Request and req==plain and dict(**req)==plain
    assert json.dumps(jsonable(req))==json.dumps(jsonable(plain))
    for o in (pickle.loads(pickle.dumps(req)), copy.deepcopy(req), req.copy()): assert type(o) is Request and o==plain
    msgs = next(req[k] for k in ('messages','input','contents') if k in req)
    assert type(msgs) is History
    d = _formats(req)
    assert sum(map(len, d.values()))<60_000 and '1 tool: area' in d['text/html'] and '<img ' in d['text/html'] and 'Be brief.' in d['text/markdown']
    assert base64.b64encode(img).decode()[500:600] not in ''.join(d.values()) and len(repr(req))<5_000

def test_request_goes_to_the_sdk():
    "client.messages.create(**as_request(req)) sends what the plain dict sends"
    httpx = pytest.importorskip('httpx2')
    anthropic = pytest.importorskip('anthropic')
    from msgkit.request import mk_request
    from msgkit.msgs import as_request
    bodies = []
    def handler(r): bodies.append(json.loads(r.content)); return httpx.Response(400, json={'error': {'message':'stop', 'type':'x'}})
    cli = anthropic.Anthropic(api_key='x', max_retries=0, http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    req = mk_request(_h(_png()), 'anthropic', model='m', max_tokens=10)
    for x in (req, as_request(req)):
        with pytest.raises(Exception, match='stop'): cli.messages.create(**x)
    assert len(bodies)==2 and bodies[0]==bodies[1]

def test_elide_keeps_text():
    "Text that only uses base64's letters stays text; payload fields and real base64 go"
    from msgkit.core import mk_msg
    dna, col, slug = 'ACGT'*80, '\n'.join(str(i) for i in range(100)), 'my-very-long-file-name_'*12
    for s in (dna, col, slug):
        assert s in eval(repr(mk_msg(s, api='anthropic')))['content'], s[:20]
        assert elide(s)==s
    v = view_html([turn('assistant', [tool_call_part('c1', 'align', {'seq': dna})])])
    assert dna in v and '&lt;base64' not in v
    assert repr(elide(base64.b64encode(bytes(range(256))*2).decode()))=='<base64 512 B>'
    assert repr(elide(dict(data='QUJD'*20)))=="{'data': <base64 60 B>}"  # a payload field, whatever it looks like
    assert repr(elide(dict(type='reasoning', encrypted_content='gAAAAB'+'x1Y2'*30)))!=str(dict(type='reasoning', encrypted_content='gAAAAB'+'x1Y2'*30))

def test_markdown_view_escapes():
    "The Markdown view passes no raw HTML and no javascript: link, from any field"
    from msgkit.mediapart import media_url
    bad = '<img src=x onerror=alert(1)>'
    cited = dict(role='assistant', content=[dict(type='text', text='ok', citations=[dict(type='char_location', cited_text=bad, document_index=0,
                 document_title=bad, start_char_index=0, end_char_index=2)])])
    h = [turn('user', [text_part(f'{bad} [docs](javascript:alert(1)) [a]( javascript:alert(1) "t") </details>'), media_url('https://x.com/a.png"><script>alert(1)</script>', mt='image/png')]),
         turn('assistant', [tool_call_part('c1', f'**{bad}**', {'a': 1}), text_part('```\nunclosed')]),
         turn('user', [tool_result_part('c1', [text_part(bad)], name=bad)])]
    def prose(md): return re.sub(r'(`+)(?!`).*?(?<!`)\1(?!`)', '', re.sub(r'(?ms)^(`{3,}).*?^\1', '', md))  # code is shown literally: safe
    for x in (h, cited, [turn(bad, [text_part('hi')])]):
        md = prose(view_markdown(x))
        assert '<img' not in md and '<script' not in md and not re.search(r'(?<!\\)\]\(javascript:', md.replace(' ', '')) and '</details>' not in md.replace('</details>\n', ''), md
    assert '\\[docs\\](javascript:' in view_markdown(h) and '**b**' in view_markdown(['**b**'])

def test_citations_chat_and_gemini():
    "Chat Completions' url_citation annotations and Gemini's grounding become footnotes; requests carry neither"
    from openai.types.chat import ChatCompletion
    from google.genai import types
    from msgkit.core import mk_msgs
    cc = ChatCompletion.model_validate({'id': 'c1', 'object': 'chat.completion', 'created': 1, 'model': 'gpt-4o-search-preview', 'choices': [{'index': 0,
          'finish_reason': 'stop', 'message': {'role': 'assistant', 'content': 'The sky is blue.', 'annotations': [{'type': 'url_citation',
          'url_citation': {'url': 'https://ex.com/sky', 'title': 'Sky facts', 'start_index': 0, 'end_index': 16}}]}}]})
    g = types.GenerateContentResponse.model_validate({'candidates': [{'content': {'role': 'model', 'parts': [{'text': 'The sky is blue.'}]}, 'finish_reason': 'STOP',
          'grounding_metadata': {'grounding_chunks': [{'web': {'uri': 'https://ex.com/sky', 'title': 'Sky facts'}}],
                                 'grounding_supports': [{'segment': {'start_index': 0, 'end_index': 16, 'text': 'The sky is blue.'}, 'grounding_chunk_indices': [0]}]}}]})
    assert view_markdown(cc).endswith('1. [Sky facts](https://ex.com/sky)') and '<sup>[1]</sup>' in view_html(cc)
    assert view_markdown(g).endswith('1. “The sky is blue.” — [Sky facts](https://ex.com/sky)') and '<sup>[1]</sup>' in view_html(g)
    assert view_markdown(g.model_dump(mode='json', by_alias=True, exclude_none=True)).endswith('[Sky facts](https://ex.com/sky)')
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for api in APIS:
            for r in (cc, g):
                s = json.dumps(jsonable(mk_msgs(['Why?', r], api)), default=repr)
                assert 'annotations' not in s and 'grounding' not in s, (api, s)

def test_16bit_thumbs():
    "A 16-bit grey PNG gets a real thumbnail: not clipped white, not missing"
    import io
    from PIL import Image, ImageStat
    viewparts._thumbs.clear()
    for w,h in ((600, 400), (2000, 1500)):
        g = Image.linear_gradient('L').resize((w, h)).convert('I').point(lambda v: v*257).convert('I;16')
        b = io.BytesIO(); g.save(b, 'PNG'); png16 = b.getvalue()
        mt, t = thumb(png16)
        im = Image.open(io.BytesIO(t)).convert('L')
        assert im.getextrema()[0]<10 and 100<ImageStat.Stat(im).mean[0]<155, (w, h, im.getextrema())
        assert '<img ' in view_html([turn('user', [media(png16)])])

def test_long_view_keeps_both_ends():
    "Past the budget, the middle turns go: the first turn and the newest ones stay"
    h = [turn('user', [text_part('FIRST question')])] + [turn('user' if i%2 else 'assistant', [text_part(f'turn {i} ' + 'y'*19_000)]) for i in range(1, 80)] + \
        [turn('assistant', [text_part('LAST answer')])]
    for f in (view_html, view_markdown):
        v = f(h)
        assert len(v)<600_000 and 'FIRST question' in v and 'LAST answer' in v and 'turn 78 ' in v and re.search(r'[\d,]+ turns hidden', v)

def test_image_costs_about_50kb():
    "One image's output, over all the mimetypes a notebook saves, is about 50 KB at worst (noise)"
    from msgkit.core import mk_msg
    viewparts._thumbs.clear()
    for x in (_noise_png(1800, 1200, 'RGBA'), _noise_png(1600, 1200)):
        d = _formats(mk_msg([x, 'What is this?'], api='openai'))
        assert sum(map(len, d.values()))<=52_000, {k:len(v) for k,v in d.items()}

def test_history_slices_stay_history():
    ms = as_msgs(mk_msgs(_h(_png()) + ['More?'], 'anthropic'))
    m = ms[0]
    for o in (ms[1:], ms[:], ms[-2:], ms + [m], [m] + ms, ms.copy(), ms * 2, 2 * ms):
        assert type(o) is History and isinstance(o, list) and '<img' in o._repr_html_() or type(o) is History and o and 'role' in repr(o)
    assert ms[1:]==list(ms)[1:] and [m] + ms==[m] + list(ms) and type(ms[0]) is Msg
    h = ms.copy(); h += [m]; assert type(h) is History and len(h)==len(ms)+1


# Second review of #10/#11 (items 1, 6 and 7): regression tests, each failing before its fix

# The review's texts whose Markdown view let raw HTML or a javascript: link through, and what the view now holds for each
MD_CASES = {
    '`<img src=x onerror=alert(1)>``': '\\`&lt;img src=x onerror=alert(1)>\\`\\`',  # a closing run of another length ends no span
    'x ``<script>alert(1)</script>` y': 'x \\`\\`&lt;script>alert(1)&lt;/script>\\` y',
    '[click`](javascript:alert(1))``': '\\[click\\`\\](javascript:alert(1))\\`\\`',
    '```<img src=x onerror=alert(1)>`': '\\`\\`\\`&lt;img src=x onerror=alert(1)>\\`',  # a backtick in the info string: no fence
    '``` x`\n<img src=x onerror=alert(2)>\n[a](javascript:alert(3))\n```': '\\`\\`\\` x\\`\n&lt;img src=x onerror=alert(2)>\n\\[a\\](javascript:alert(3))\n```\n```',
    '> [r]: javascript:alert(1)\n\n[a][r]': '> \\[r\\]: javascript:alert(1)\n\n\\[a\\]\\[r\\]',  # definitions in containers
    '- [r]: javascript:alert(2)\n\n[b][r]': '- \\[r\\]: javascript:alert(2)\n\n\\[b\\]\\[r\\]',
    '[c][r]\n\n1. [r]: javascript:alert(3)': '\\[c\\]\\[r\\]\n\n1. \\[r\\]: javascript:alert(3)',
    'x ` y\n`<img src=x onerror=alert(4)>`': 'x \\` y\n`<img src=x onerror=alert(4)>`',  # a backtick left open on the line before
    '- a\n  ```\n  x\n<img src=x onerror=alert(5)>\n```': '- a\n```\nx\n<img src=x onerror=alert(5)>\n```',  # a list item's fence, which that line would end
    '| a | b |\n|---|---|\n| `<img src=x onerror=alert(6)>|x` | y |': '| a | b |\n|---|---|\n| \\`&lt;img src=x onerror=alert(6)>|x\\` | y |',  # a table splits code at |
}

@pytest.mark.parametrize('src', list(MD_CASES))
def test_markdown_view_no_html(src):
    "Outside code spans and fences as CommonMark reads them, the Markdown view escapes every backtick, bracket, `&` and `<`"
    from msgkit.core import mk_msg
    md = mk_msg(src, api='anthropic')._repr_markdown_()
    assert MD_CASES[src] in md, md
    assert MD_CASES[src] in view_markdown([tool_result_part('c1', [text_part(src)], name='f')]).replace('\n> ', '\n')

def test_markdown_view_keeps_markdown():
    "What can be kept exactly stays: code spans, fences (at the margin), http(s) and mailto links, emphasis, quotes and lists"
    from msgkit.markdown import md_safe as _md_safe
    s = '**b** `a<b` ``x`y`` [y](https://a.b/c_(d)) ![i](https://a.b/i.png) [m](mailto:a@b.c)\n> quote\n- item\n   ```py {x}\n   <b>\n   ```\n~~~\n```\n~~~'
    assert _md_safe(s)==('**b** `a<b` ``x`y`` [y](https://a.b/c_(d)) ![i](https://a.b/i.png) [m](mailto:a@b.c)\n> quote\n- item\n'
                         '```py\n<b>\n```\n~~~\n```\n~~~')
    cited = dict(role='assistant', content=[dict(type='text', text='```\ncode', citations=[dict(type='char_location', cited_text='code', document_index=0,
                 document_title='T', start_char_index=0, end_char_index=4)])])
    assert '```\ncode\n```\n\n [1]' in view_markdown(cited)  # a footnote mark after a fence's closing line, not on it (which would reopen it)
    assert _md_safe('a `x | y` b')=='a `x | y` b' and _md_safe('\\[x](javascript:1) \\`<b>\\`')=='\\[x\\](javascript:1) \\`&lt;b>\\`'

def _md_bad(md):
    "What in Markdown `md` markdown-it renders as HTML or as a link to anything but http(s), mailto or (images) data:image"
    from markdown_it import MarkdownIt
    for m in (MarkdownIt('commonmark', {'html': True}), MarkdownIt('commonmark', {'html': True}).enable('table')):
        m.validateLink = lambda u: True  # msgkit's neutralising is what is tested
        ts = m.parse(md)
        while ts:
            t = ts.pop()
            ts += t.children or []
            if t.type in ('html_block','html_inline'): return t.content
            u = t.attrGet('href') if t.type=='link_open' else t.attrGet('src') if t.type=='image' else None
            if u is not None and not re.match(r'(?:https?:|mailto:)' + (r'|data:image/' if t.type=='image' else ''), u, re.I): return u

@pytest.mark.slow
def test_markdown_view_renders_safe():
    "The review's cases and 3,000 fuzzed texts, rendered by markdown-it-py: no HTML, no javascript:/data:/vbscript: link"
    pytest.importorskip('markdown_it')
    import random
    from msgkit.markdown import md_safe as _md_safe
    toks = ['`','``','```','````','~~~','~~~~','[',']','(',')','<img src=x onerror=alert(1)>','<script>','</details>','javascript:alert(1)','vbscript:x',
            'data:text/html,x','https://a.b','mailto:a@b','\n','\n','\n\n',' ','    ','\t','> ','- ','1. ','1) ','* ','\\','\\`','\\[','&','&#106;','<','>',':',
            '!','![','*','_','x','y z','|','| a |','|---|','---','\r','\r\n','[r]: ','[r]','<http://x>','<!--','-->',' "t"','    ```','   ~~~',
            '](https://a.b)','](javascript:x)','[a](https://x)','[a](https://x`)']
    rng = random.Random(0)
    srcs = list(MD_CASES) + [''.join(rng.choice(toks) for _ in range(rng.randint(1, 40))) for _ in range(3000)]
    for s in srcs:
        for md in (_md_safe(s), view_markdown([turn('user', [tool_result_part('c1', [text_part(s), text_part(s)], name='f')])])):
            assert _md_bad(md) is None, (s, md, _md_bad(md))

def test_markdown_checker_catches():
    "The checker above finds what the old view let through"
    pytest.importorskip('markdown_it')
    assert _md_bad('``<img src=x onerror=alert(1)>`') and _md_bad('> [r]: javascript:alert(1)\n\n[a][r]') and not _md_bad('`<b>` [a](https://x)')

WORDS = ('Alpha beta Gamma3 delta Epsilon7 zeta Eta theta9 Iota kappa Lambda2 mu Nu xi Omicron5 pi Rho sigma Tau upsilon Phi chi Psi '
         'omega0 QuickBrownFox jumpsOver Lazy dog1 XYZ wvu').split()

def _texts():
    "The review's kinds of text that the repr took for base64"
    import random, uuid
    rng = random.Random(1)
    def ws(n): return [rng.choice(WORDS) for _ in range(n)]
    return dict(word_per_line='\n'.join(ws(120)), hyphen_ids='-'.join(ws(80)), path='/'.join(ws(80)), camel=''.join(ws(60)),
                hex_ids='\n'.join(uuid.UUID(int=rng.getrandbits(128)).hex.upper() + rng.choice(WORDS) for _ in range(20)),
                hex_run=''.join(uuid.UUID(int=rng.getrandbits(128)).hex.upper() + rng.choice(WORDS) for _ in range(20)))

@pytest.mark.parametrize('kind', list(_texts()))
def test_repr_keeps_real_text(kind):
    "Real text is never elided as `<base64 …>` in a repr: not in a message, a history, a request, or an Anthropic text document"
    from msgkit.core import mk_msg
    from msgkit.msgs import as_request
    s = _texts()[kind]
    assert elide(s)==s
    assert s in eval(repr(mk_msg(s, api='anthropic')))['content']
    assert eval(repr(as_msgs([dict(role='user', content=s)])))[0]['content']==s
    assert eval(repr(as_request(dict(model='m', messages=[dict(role='user', content=s)]))))['messages'][0]['content']==s
    doc = Msg(role='user', content=[dict(type='document', source=dict(type='text', media_type='text/plain', data=s))])
    assert eval(repr(doc))['content'][0]['source']['data']==s and '<text/plain' not in repr(doc)

def test_random_base64_still_elided():
    "10,000 random payloads of 256 to 5,000 characters (standard, URL-safe, MIME-wrapped with LF or CRLF) are all elided"
    import random
    from msgkit.elide import Elided
    rng = random.Random(0)
    for i in range(10_000):
        b = rng.randbytes(rng.randint(192, 3750))
        s = [base64.b64encode, base64.urlsafe_b64encode, base64.encodebytes][i%3](b).decode()
        if i%6==5: s = s.replace('\n', '\r\n')
        assert isinstance(elide(s), Elided), s[:300]

def test_payload_fields_always_elided():
    "A payload field is elided whatever it holds; a data URI too, spaces before it or not"
    from msgkit.elide import Elided
    s = _texts()['path']
    for d in (dict(data=s), dict(inline_data=dict(mime_type='image/png', data=s)), dict(type='base64', media_type='image/png', data=s),
              dict(bytes=s), dict(file_data=s)):
        assert '<image/png' in repr(elide(d)) or '<base64' in repr(elide(d)), d
    import random
    b = base64.b64encode(random.Random(0).randbytes(3000)).decode()  # bytes that sniff as nothing: the label is the URI's
    for u in ('data:image/png;base64,'+b, '  data:image/png;base64,'+b, '\tdata:image/png;base64,'+b+'\n'):
        assert repr(elide(dict(type='image_url', image_url=dict(url=u))))=="{'type': 'image_url', 'image_url': {'url': <image/png 3.0 KB>}}", u[:30]
