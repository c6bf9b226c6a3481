"""#22: work that is never done. A data URI is passed on without being scanned, decoded or re-encoded; bytes are decoded
only for an API that needs them, once (memoised by the string); histories, tools and token counts are not re-read.
Each test counts the work (decodes, scans, calls) rather than timing it: speed claims live in bench/."""
import base64, copy, importlib.util, json, os
import pytest
import msgkit
from msgkit import mk_msgs, sample
from msgkit.sniff import is_data_uri
from oracle import check

PNG = sample('gradient.png').read_bytes()
BIG = PNG + os.urandom(100_000)  # a PNG header, then enough bytes to be a large payload
URI = 'data:image/png;base64,' + base64.b64encode(BIG).decode()

def chat(uri=URI):
    return [dict(role='user', content=[dict(type='image_url', image_url=dict(url=uri)),
                                       dict(type='text', text='What is it?')])]

@pytest.fixture
def decoded(monkeypatch):
    "The lengths of the base64 texts decoded while the test runs (`base64.b64decode` and `unb64` both go through `binascii`)"
    import binascii
    seen, orig = [], binascii.a2b_base64
    def dec(s, *a, **kw): seen.append(len(s)); return orig(s, *a, **kw)
    monkeypatch.setattr(binascii, 'a2b_base64', dec)
    import pybase64  # (the `fast` extra decodes large text, where it is installed: watched too)
    fast = pybase64.b64decode
    monkeypatch.setattr(pybase64, 'b64decode', lambda s, *a, **kw: seen.append(len(s)) or fast(s, *a, **kw))
    return seen

@pytest.mark.parametrize('api', ['openai', 'openai_chat'])
def test_data_uri_passed_on_as_is(api, decoded):
    "The very URI object goes on to an API that takes data URIs; nothing past its first few hundred characters decoded"
    h = chat(json.loads(json.dumps(URI)))  # a fresh string, as loaded from JSON: no memo to help
    out = mk_msgs(h, api)
    check(api, out)
    blk = out[0]['content'][0]
    got = blk['image_url'] if api=='openai' else blk['image_url']['url']
    assert got is h[0]['content'][0]['image_url']['url']
    assert max(decoded, default=0) < 1000, decoded

def test_data_uri_to_anthropic_no_decode(decoded):
    "Anthropic takes base64 text: the URI's payload, sliced (the same object from the third build: kept on second sight), never decoded"
    h = chat(json.loads(json.dumps(URI)))
    a, b, c = mk_msgs(h, 'anthropic'), mk_msgs(h, 'anthropic'), mk_msgs(h, 'anthropic')
    check('anthropic', a)
    src = a[0]['content'][0]['source']
    assert src['data'] == URI.partition(',')[2] and src['media_type'] == 'image/png'
    # (the memo keeps what it made only for a URI met before, so a URI met once leaves nothing behind: 01_codec)
    assert b[0]['content'][0]['source']['data'] is not src['data'] and c[0]['content'][0]['source']['data'] is b[0]['content'][0]['source']['data']
    assert max(decoded, default=0) < 1000, decoded

@pytest.mark.parametrize('api', ['gemini', 'bedrock'])
def test_bytes_decoded_once_memoised_by_the_string(api, decoded):
    "Gemini and Bedrock need bytes: decoded twice for the URI (its first two reads), however often it is read after"
    h = chat(json.loads(json.dumps(URI)))
    for _ in range(5): out = mk_msgs(h, api)
    check(api, out)
    # (was once: the memo now keeps the bytes only for a URI met before, so a URI read once leaves nothing behind)
    assert sum(n > 1000 for n in decoded) == 2, decoded
    part = out[0]['parts'][0]['inline_data'] if api=='gemini' else out[0]['content'][0]['image']['source']
    assert (part['data'] if api=='gemini' else part['bytes']) == BIG

@pytest.mark.parametrize('api', ['gemini', 'bedrock'])
def test_invalid_base64_refused_where_bytes_are_needed(api):
    "Invalid base64 between the ends the reader checks is still refused, where its bytes are decoded"
    bad = URI[:8000] + '!!!!' + URI[8004:]
    with pytest.raises(ValueError, match='base64 is not valid'): mk_msgs(chat(bad), api)

def test_invalid_base64_at_the_ends_refused_everywhere():
    bad = URI[:-100] + '!' * 96 + URI[-4:]
    for api in ['openai', 'anthropic', 'gemini']:
        with pytest.raises(ValueError, match='base64 is not valid'): mk_msgs(chat(bad), api)

def test_is_data_uri_reads_header_and_ends():
    "Whitespace at a data URI's ends or in its first 4 KB makes it prose, as before; its middle is not scanned"
    assert is_data_uri(URI) and is_data_uri(' ' + URI + '\n')
    assert not is_data_uri(URI[:100] + ' ' + URI[100:]) and not is_data_uri(URI[:-100] + '\n' + URI[-100:])
    assert not is_data_uri('data:text/plain,hello world') and not is_data_uri("Data: 3, 4, 5. What's the mean?")
    assert is_data_uri(URI[:len(URI)//2] + " " + URI[len(URI)//2:])  # not scanned: refused where decoded (test above)

def test_size_check_reads_length_not_bytes(decoded):
    "An API's size limit is checked from the base64's length (Anthropic: 5 MB an image), without decoding"
    big = 'data:image/png;base64,' + base64.b64encode(PNG + bytes(6_000_000)).decode()
    with pytest.raises(ValueError, match='at most'): mk_msgs(chat(big), 'anthropic')
    assert max(decoded, default=0) < 1000, decoded

# ---------------------------------------------------------------- item 3: cached work
import importlib
tools_mod = importlib.import_module('msgkit.tools')
budget = importlib.import_module('msgkit.budget')

def _fns(d):
    "Two functions from a module file (so their source, and docments, can be read)"
    p = d/'perf22_tools.py'
    p.write_text('def lookup(q:str, # What to look up\n           n:int=3): # How many\n'
                 '    "Look it up"\n    return q\n\n'
                 'def fetch(url:str): # The URL\n    "Fetch it"\n    return url\n')
    spec = importlib.util.spec_from_file_location('perf22_tools', p); mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return [mod.lookup, mod.fetch]

def test_tool_schema_read_once_per_function(monkeypatch, tmp_path):
    "A function's source is read once (not per call, nor per copy of it); a changed function is read again"
    import fastcore.docments as fd
    n, orig = [0], fd.docments
    def counting(*a, **kw): n[0] += 1; return orig(*a, **kw)
    monkeypatch.setattr(fd, 'docments', counting)
    monkeypatch.setattr(tools_mod, '_tool_memo', {}, raising=False)
    fs = _fns(tmp_path)
    a = msgkit.mk_tools(fs, 'anthropic')
    assert a[0]['input_schema']['properties']['q']['description'] == 'What to look up'
    for _ in range(5): assert msgkit.mk_tools(fs, 'anthropic') == a
    assert msgkit.mk_tools([copy.copy(f) for f in fs], 'anthropic') == a
    first = n[0]
    assert first == len(fs), n  # once per function
    fs[0].__doc__ = 'Look it up, changed'
    b = msgkit.mk_tools(fs, 'anthropic')
    assert b[0]['description'] == 'Look it up, changed' and n[0] == first + 1
    b[0]['input_schema']['properties'].clear()  # a caller's change to its copy changes no other
    assert msgkit.mk_tools(fs, 'anthropic')[0]['input_schema']['properties']

def test_tool_memo_sees_new_code():
    def f(x:int): # A number
        "One"
    t1 = msgkit.mk_tool(f, 'openai')
    def f(x:str, y:int=0): # A word
        "One"
    t2 = msgkit.mk_tool(f, 'openai')
    x1, x2 = t1['parameters']['properties']['x'], t2['parameters']['properties']['x']
    assert x1['type'] == 'integer' and x2['type'] == 'string'

def _long_history(n=300):
    h = []
    for i in range(n//2): h += [f"question {i}: " + 'word ' * (i % 37 + 5), f"answer {i}: " + 'words ' * (i % 11 + 3)]
    return h

@pytest.mark.parametrize('api', ['openai', 'anthropic', 'gemini'])
def test_trim_renders_about_twice_and_keeps_the_same(api, monkeypatch):
    "trim counts each turn once and searches over their sums; the rendering is checked near the answer (not ~11 times)"
    h = _long_history()
    calls, orig = [0], budget.mk_msgs
    def counting(*a, **kw): calls[0] += 1; return orig(*a, **kw)
    monkeypatch.setattr(budget, 'mk_msgs', counting)
    for mx in (500, 3000, 9000):
        calls[0] = 0
        r = msgkit.trim(h, mx, api)
        assert calls[0] <= 3, calls
        with monkeypatch.context() as m:  # the plain binary search over renderings: the same answer
            m.setattr(budget, '_fewest_near', lambda lo, hi, guess, fits: budget._fewest(lo, hi, fits))
            assert msgkit.trim(h, mx, api) == r

# ---------------------------------------------------------------- item 4: mk_batch
batch_mod = importlib.import_module('msgkit.batch')
PROMPTS = ['Summarise document 1.', '  leading space', 'trailing space  ', 'ünïcødé ✓', 'multi\nline',
           'https://example.com/a.png',
           'data:text/plain,hi', 'Data: 1, 2', 'http', '{"json": 1}', 'x' * 300, ['a history', 'of two'],
           ('own-id', 'with its own id'), 'msgkit batch prompt 0e6f2b', 'Summarise document 2.']
MODELS = dict(openai='gpt-4o', anthropic='claude-sonnet-4-5', gemini=None,
              bedrock='anthropic.claude-sonnet-4-5-20250929-v1:0')

def _full(reqs, api, model, **opts):
    "What mk_batch made before #22: batch_line of each, the full way"
    out = []
    for i, r in enumerate(reqs):
        cid, h = r if isinstance(r, tuple) else (f'request-{i}', r)
        out.append(batch_mod.batch_line(cid, h, api, model=model, **opts))
    return out

@pytest.mark.parametrize('api', list(MODELS))
@pytest.mark.parametrize('opts', [{}, dict(system='Be brief.', max_tokens=100), dict(cache=True)])
def test_batch_lines_same_as_full_way(api, opts, monkeypatch):
    "Each line is what batch_line makes of it (content, types, JSON), plain prompts from one template: mk_request ~once"
    if api == 'gemini' and opts.get('cache'): opts = dict(temperature=0.5)
    prompts = PROMPTS
    if api == 'bedrock':  # Claude's batch records take images as base64 only (#17 item 27): the URL prompt is refused
        prompts = [p for p in PROMPTS if p != 'https://example.com/a.png']
        with pytest.raises(ValueError, match='base64 only'):
            list(msgkit.mk_batch(['https://example.com/a.png'], api, model=MODELS[api], progress=False))
    want = _full(prompts, api, MODELS[api], **opts)
    n, orig = [0], batch_mod.mk_request
    def counting(*a, **kw): n[0] += 1; return orig(*a, **kw)
    monkeypatch.setattr(batch_mod, 'mk_request', counting)
    reqs = prompts + ['plain prompt %d' % i for i in range(50)]
    got = list(msgkit.mk_batch(reqs, api, model=MODELS[api], progress=False, **opts))
    assert got[:len(prompts)] == want
    assert [json.dumps(o) for o in got[:len(prompts)]] == [json.dumps(o) for o in want]
    def types(x):
        if isinstance(x, dict): return (type(x).__name__, {k: types(v) for k, v in x.items()})
        if isinstance(x, list): return (type(x).__name__, [types(v) for v in x])
        return type(x).__name__
    assert [types(o) for o in got[:len(prompts)]] == [types(o) for o in want]
    last = batch_mod.batch_line(f'request-{len(reqs)-1}', reqs[-1], api, model=MODELS[api], **opts)
    assert got[-1] == last and json.dumps(got[-1]) == json.dumps(last)
    assert n[0] < 20, n  # the 7 prompts the full way, the template and its check; not one a line

def test_batch_lines_are_their_own():
    a, b = msgkit.mk_batch(['one', 'two'], 'openai', model='m', progress=False)
    a['body']['input'][0]['content'] = 'changed'; a['body']['model'] = 'x'
    assert b['body']['input'][0]['content'] == 'two' and b['body']['model'] == 'm'
