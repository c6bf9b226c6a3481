"""Views that stay usable at any size and inside any message (#21), and that never raise or inject (#23 items 5, 11, 12).
Each test failed on the code before #21 (the views were cut by bytes, not turns; indexing a history gave plain lists)."""
import base64, io, json, os, random, re, struct, time, warnings, zlib
import pytest
from msgkit.core import mk_msgs
from msgkit.parts import turn, text_part, tool_call_part, tool_result_part, thinking_part, Part, call_id
from msgkit.mediapart import media
from msgkit.msgs import as_msgs, History, Msg, Block, Blocks
from msgkit.display import view_html, view_markdown, HEAD, TAIL
from msgkit.markdown import md2html, md_code, md_esc
from msgkit import viewparts

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']

def _png(seed, w=96, h=64):
    from PIL import Image
    buf = io.BytesIO()
    Image.frombytes('RGB', (w, h), random.Random(seed).randbytes(w*h*3)).save(buf, 'PNG')
    return buf.getvalue()

def long_history(n=300):
    "`n` turns: exchanges of a question (every third with an image), a tool call, its result and a long answer"
    ts,i = [],0
    while len(ts)<n:
        q = [text_part(f'Question {i}: what does the chart show? ' * 3)] + ([media(_png(i))] if i%4==0 else [])
        ts += [turn('user', q), turn('assistant', [tool_call_part(f'call_{i}', 'lookup', dict(q=i))]),
               turn('user', [tool_result_part(f'call_{i}', [text_part(f'result {i}')], name='lookup')]),
               turn('assistant', [text_part(f'Answer {i}. ' + 'The chart rises steadily and then levels off. ' * 60)])]
        i += 1
    return ts[:n]

def _nums(v)->list:
    "The item numbers of the rows a view shows, as `(first, last)`"
    return [(int(a), int(b or a)) for a,b in re.findall(r'(?:>|· )#(\d+)(?:–(\d+))?(?:<| ·|\n)', v)]

def _hidden(v):
    "The hidden-turns rows' `(count, first, last)`, and the slices they name"
    return re.findall(r'([\d,]+) turns hidden(?:</b>)? \(#(\d+) to #(\d+)\)', v), re.findall(r'h\[(\d+):(\d+)\]', v)

@pytest.mark.parametrize('api', APIS)
def test_300_turns(api):
    """A 300-turn history (long answers, images, tool loops): a bounded view of its first and last exchanges, numbered, a
    full-width row naming the hidden turns and the slice that shows them, the same cut in HTML and Markdown"""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        h = mk_msgs(long_history(), api)
    assert len(h)>=300
    t = time.monotonic()
    html, md = view_html(h), view_markdown(h)
    assert time.monotonic()-t < 5
    assert len(html)<120_000 and len(md)<80_000, (len(html), len(md))  # it was over 1 MB
    rows = html.count('class="mk-row"')
    assert rows<=HEAD+TAIL and html.count('class="mk-hidden"')==1, rows
    hn, hm = _nums(html), _nums(md)
    assert hn==hm and len(hn)==rows and hn==sorted(hn), (hn, hm)  # numbered, in order, the same rows in both
    (hid,),sl = _hidden(html)
    assert _hidden(md)==([hid], sl) and len(sl)==1
    a,b = map(int, sl[0])
    assert (int(hid[1]), int(hid[2])+1)==(a, b)
    shown = {i for lo,hi in hn for i in range(lo, hi+1)}
    assert shown.isdisjoint(range(a, b)) and shown | set(range(a, b))==set(range(len(h))), (sorted(shown), a, b)
    # cut at exchange boundaries: the first hidden item and the first item after them are questions, not tool results
    from msgkit.history import read_history
    for i in (a, b):
        (t0,) = [t for t in read_history(list(h)) if t.at==i][:1]
        assert t0.role=='user' and not any(p.type=='tool_result' for p in t0.parts), (api, i)
    assert html.count('<img ')<=8 and 'max-height:1200px' in html

def test_roles_as_the_api_means_them():
    "Chat `tool` messages and Responses `function_call_output` items are the tool's rows; one Responses reply is one row"
    resp = [dict(type='reasoning', id='rs_1', summary=[dict(type='summary_text', text='Think.')]),
            dict(type='function_call', call_id='c1', name='f', arguments='{}'),
            dict(type='function_call_output', call_id='c1', output='42'),
            dict(type='message', role='assistant', content=[dict(type='output_text', text='It is 42.')])]
    v = view_html(['What is f?'] + resp, 'openai')
    assert re.findall(r'opacity:\.8">(\w+)</div>', v)==['user', 'assistant', 'tool', 'assistant'], v
    chat = [dict(role='user', content='f?'), dict(role='assistant', content=None, tool_calls=[
            dict(id='c1', type='function', function=dict(name='f', arguments='{}'))]), dict(role='tool', tool_call_id='c1', content='42')]
    assert re.findall(r'\*\*(\w+)\*\* ·', view_markdown(chat, 'openai_chat'))==['user', 'assistant', 'tool']
    p = text_part('hello')
    assert '>part<' in p._repr_html_() and '>user<' not in p._repr_html_() and '**part**' in p._repr_markdown_()

def _b64_slices(b:bytes):
    s = base64.b64encode(b).decode()
    return ([s[i:i+60] for i in range(0, len(s)-60, max(1, len(s)//20))]
            + [repr(b[i:i+40])[2:-1] for i in range(8, len(b)-40, max(1, len(b)//10))])

@pytest.mark.parametrize('api', APIS)
def test_every_level_is_safe(api):
    "Every dict and list inside a history (message, content list, block, its source) keeps the elided views"
    img = _png(7, 300, 200)
    h = mk_msgs([[img, 'What is this?'], 'Noise.'], api)
    seen, bad, sl = 0, [], _b64_slices(img)
    def walk(x, path):
        nonlocal seen
        if not isinstance(x, (dict, list)): return
        assert type(x) in (History, Msg, Block, Blocks), (path, type(x))
        seen += 1
        outs = [repr(x), str(x), x._repr_html_(), x._repr_markdown_(), *x._repr_mimebundle_().values()]
        bad.extend(path for o in outs if any(s in o for s in sl))
        for k,v in (x.items() if isinstance(x, dict) else enumerate(x)): walk(v, f"{path}[{k!r}]")
    walk(h, 'h')
    assert seen>=4 and not bad, bad
    assert h==json.loads(json.dumps(h, default=lambda b: base64.b64encode(b).decode())) or api in ('gemini', 'bedrock')

def test_plain_data_below():
    "What a message holds stays plain data: equal to the dicts and lists, json.dumps-able, shared and cyclic values kept"
    m = as_msgs(dict(role='user', content=[dict(type='text', text='hi')]))
    assert m==dict(role='user', content=[dict(type='text', text='hi')])
    assert json.dumps(m)=='{"role": "user", "content": [{"type": "text", "text": "hi"}]}'
    m.content.append(dict(type='text', text='more'))
    assert len(m['content'])==2 and m['content'][0].text=='hi'  # a block reads as attributes, as obj makes it

def test_tables_and_sources():
    "Tables scroll with their alignment kept; footnotes sit under their own heading, after a list too"
    h = md2html('| name | n |\n|:---|---:|\n| ' + 'averyveryverylongword ' * 20 + '| 3 |')
    assert 'overflow-x:auto' in h and 'text-align:left' in h and 'text-align:right' in h and 'overflow-wrap:anywhere' not in h
    cited = dict(role='assistant', content=[dict(type='text', text='Facts:\n\n- one\n- two', citations=[dict(type='char_location',
                 cited_text='one', document_index=0, document_title='Doc', start_char_index=0, end_char_index=3)])])
    v, md = view_html(cited), view_markdown(cited)
    assert '<sup>[1]</sup></li></ul>' in v and '>Sources<' in v
    from markdown_it import MarkdownIt
    toks = MarkdownIt('commonmark').parse(md)
    lists = [t for t in toks if t.type in ('bullet_list_open', 'ordered_list_open')]
    assert [t.type for t in lists]==['bullet_list_open', 'ordered_list_open'] and '**Sources**' in md  # two lists, not one

def test_request_table_left():
    from msgkit.request import mk_request
    from msgkit.msgs import as_request
    r = as_request(mk_request(['hi'], 'anthropic', model='m', max_tokens=5))
    v = r._repr_html_()
    assert v.count('text-align:left')>=3

def test_small_things():
    "SVG icons, no emoji; code in a fence without the inline look; bare URLs linked; made-up ids shown as such"
    ts = [turn('user', [text_part('See https://example.com/a_b.\n\n```\ncode\n```'), media(_png(1))]),
          turn('assistant', [thinking_part('Hmm.'), tool_call_part(call_id('f', {}), 'f', {})])]
    v = view_html(ts)
    emoji = re.findall('[\U0001F300-\U0001FAFF\u2600-\u27BF]', v)
    assert '<svg' in v and not emoji, emoji
    assert '<a href="https://example.com/a_b">' in v and '<code style="background:none' in v
    assert 'made by msgkit' in v and 'made by msgkit' in view_markdown(ts)
    g = [dict(role='user', parts=[dict(text='f?')]), dict(role='model', parts=[dict(functionCall=dict(name='f', args={}))])]
    assert 'made by msgkit' in view_html(g, 'gemini')

def test_trim_says_what_it_dropped():
    from msgkit.budget import trim, est_tokens
    h = mk_msgs([f'Question {i} ' * 50 if i%2==0 else f'Answer {i} ' * 50 for i in range(40)], 'anthropic')
    t = trim(h, est_tokens(h, 'anthropic')//4, 'anthropic')
    assert t.dropped['turns']==len(h)-len(t) and t.dropped['tokens']>0
    assert repr(t).startswith(f"# trim left out {len(h)-len(t)} turns")
    assert 'trim left out' in t._repr_html_() and 'trim left out' in t._repr_markdown_()

def test_one_thumbnail_per_output():
    "A notebook output carries each thumbnail once: in its HTML; the Markdown beside it names the image"
    from IPython.core.interactiveshell import InteractiveShell
    d = InteractiveShell.instance().display_formatter.format(mk_msgs([[_png(3), 'What?']], 'anthropic'))[0]
    assert d['text/html'].count('data:image/')==1 and 'data:image/' not in d['text/markdown'] and 'image/png' in d['text/markdown']
    assert '](data:image/' in view_markdown(mk_msgs([[_png(3), 'What?']], 'anthropic'))  # on its own, it shows the image

# #23 item 5: nothing from a field reaches the Markdown view as raw HTML

BAD = '\n<script>alert(1)</script>\n<img src=x onerror=alert(2)>\r\n'

def _html_tokens(md):
    from markdown_it import MarkdownIt
    out = []
    for m in (MarkdownIt('commonmark', {'html': True}), MarkdownIt('commonmark', {'html': True}).enable('table')):
        for t in m.parse(md):
            out += [c.content for c in [t] + (t.children or []) if c.type in ('html_block', 'html_inline')]
    return out

def test_fields_escaped_in_markdown():
    ps = [Part(type='document', mt='application/pdf', url='s3://bucket/a' + BAD),
          Part(type='image', mt='image/png', file='file-1' + BAD, api='openai'),
          Part(type='document', mt='text/plain', text='hi', title='T' + BAD),
          Part(type='audio', mt='audio/wav', filename='f' + BAD, data=b'RIFF')]
    h = [turn('user', ps), turn('assistant', [tool_call_part('c1' + BAD, 'fn\r<script>x</script>\r', {})]),
         turn('user', [tool_result_part('c1' + BAD, [text_part('ok')], name='fn\r<img src=x onerror=1>')])]
    md = view_markdown(h)
    assert not _html_tokens(md), _html_tokens(md)
    html = view_html(h)
    assert '<script' not in html and '<img src=x' not in html
    assert '\r' not in md_code('a\rb') and '\n' not in md_code('a\r\nb') and '\r' not in md_esc('a\rb')

# #23 item 11: a view never raises, and returns within a bound

def _hostile():
    deep = []
    for _ in range(5000): deep = [deep]
    dd = {}
    for _ in range(5000): dd = {'a': dd}
    cyc = []; cyc.append(cyc)
    cm = {'role': 'user'}; cm['content'] = [cm]
    from openai.types.responses import Response
    from anthropic.types import Message
    return dict(deep=deep, deep_dict=dd, cyc=cyc, cyc_msg=[cm], deep_args=[turn('assistant', [tool_call_part('c', 'f', dd)])],
                construct=Response.model_construct(output=[object()], id='r'),
                construct_msg=Message.model_construct(content=[{'type': 'text', 'text': object()}], role='assistant'))

@pytest.mark.parametrize('kind', list(_hostile()))
def test_views_never_raise(kind):
    x = _hostile()[kind]
    fs = (view_html, view_markdown, lambda x: Msg(role='user', content=[x])._repr_html_(), lambda x: History([x])._repr_markdown_())
    for f in fs:
        t = time.monotonic()
        v = f(x)
        assert isinstance(v, str) and v and time.monotonic()-t < 3, (kind, time.monotonic()-t)
    assert len(repr(as_msgs([dict(role='user', content=[x])])))<60_000

def test_slow_view_is_cut(monkeypatch):
    "Past its time budget a view stops drawing and says what it left out"
    from msgkit import display
    monkeypatch.setattr(display, 'MAXSECS', 0)
    v = view_html(['a', 'b', 'c'])
    assert 'not drawn in time' in v

# #23 item 12: inline code inside a link's address makes no tag inside an attribute

def test_code_in_link_url():
    for s in ['[x](https://a.b/`"><img src=x onerror=alert(1)>`)', '[x](https://a.b/`c`)', '[`a`](https://a.b/`"onmouseover=alert(1)`)']:
        h = md2html(s)
        assert not re.search(r'href="[^"]*[<>]', h) and '<img' not in h, h
        assert not re.search(r'<a [^>]*<', h), h

def _bomb_png(w, h):
    def chunk(k, d): return struct.pack('>I', len(d)) + k + d + struct.pack('>I', zlib.crc32(k + d))
    raw = zlib.compress(b'\0' * (w*3 + 1) * 50, 9)  # the first rows only: a header that claims far more than it holds
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', raw) + chunk(b'IEND', b'')

def test_thumbnail_bomb_not_decoded():
    "An image claiming 13000x13000 pixels gets a chip, not a thumbnail, at once (it used to take 1.6 s and 509 MB)"
    bomb = _bomb_png(13000, 13000)
    viewparts._thumbs.clear()
    t = time.monotonic()
    v = view_html([turn('user', [media(bomb)])])
    assert time.monotonic()-t < 0.5 and '<img ' not in v and '13000×13000' in v
    assert viewparts.thumb_image(bomb) is None and viewparts.thumb_image(_png(1)) is not None

def test_big_jpeg_decoded_small():
    "A big JPEG's thumbnail is decoded at a fraction of its size (draft), within the pixel budget"
    from PIL import Image
    buf = io.BytesIO(); Image.new('RGB', (8000, 6000), (200, 30, 30)).save(buf, 'JPEG'); b = buf.getvalue()
    t = time.monotonic()
    im = viewparts.thumb_image(b)
    assert im is not None and max(im.size)==256 and time.monotonic()-t < 2
