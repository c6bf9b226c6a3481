"""Issue #10's examples, each a regression test: responses without a message, malformed fields and events, odd scalars,
deep nesting, PIL modes, bounded reads of paths and data URIs, and ids that are the same in every process."""
import base64, binascii, importlib, os, subprocess, sys, threading, time, warnings
from pathlib import Path
import pytest
from msgkit import *
from msgkit import mk_cache, est_tokens, trim
from fuzzgen import png, TEMPLATES

sniff = importlib.import_module('msgkit.sniff')
APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
PNG = png(4, 3)

def quiet(f, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return f(*a, **kw)

# ---------------------------------------------------------------- responses with no message
EMPTY = dict(
    chat={'id': 'c1', 'object': 'chat.completion', 'created': 1, 'model': 'gpt', 'choices': [],
          'usage': {'prompt_tokens': 3, 'completion_tokens': 0, 'total_tokens': 3}},
    gemini={'candidates': [], 'usage_metadata': {'prompt_token_count': 3}},
    bedrock={'output': {}, 'stopReason': 'end_turn', 'usage': {'inputTokens': 3, 'outputTokens': 0}})

@pytest.mark.parametrize('kind', list(EMPTY))
def test_response_without_a_message(kind):
    "'A ChatCompletion with choices=[] (OpenAI-compatible servers send them)': read as a response with no message"
    from openai.types.chat import ChatCompletion
    xs = [EMPTY[kind]] + ([ChatCompletion.model_validate(EMPTY['chat'])] if kind == 'chat' else [])
    for x in xs:
        for api in APIS: assert quiet(mk_msg, x, api=api) == []
        assert tool_calls(x) == [] and msg_text(x) == ''
        assert usage(x)['input'] == 3
        assert finish_reason(x) in (None, 'stop')
        assert quiet(mk_msgs, ['hi', x, 'again?'], 'anthropic') == [{'role': 'user', 'content': [{'type': 'text', 'text': 'hi'}, {'type': 'text', 'text': 'again?'}]}]

# ---------------------------------------------------------------- malformed fields: clear errors that name what and where
BAD = [
    ('mk_msg', lambda: mk_msg({'id': 'msg_1', 'type': 'message', 'role': 'assistant', 'model': 'c', 'content': 5, 'stop_reason': 'end_turn', 'usage': {}}, api='anthropic')),
    ('mk_msg', lambda: mk_msg({'role': 'user', 'parts': [{'inline_data': 'abc'}]}, api='anthropic')),
    ('stream_msg', lambda: stream_msg([{'type': 'content_block_delta', 'index': 'x', 'delta': 5}], api='anthropic')),
    ('stream_msg', lambda: stream_msg([{'type': 'message_start', 'message': 7}], api='anthropic')),
    ('media', lambda: media(PNG, mt=5)),
    ('provider_file', lambda: provider_file(5, 'image/png')),
    ('provider_file', lambda: provider_file('file-abc', 5)),
    ('mk_toolres', lambda: mk_toolres(dict(id=5, name=[], args='x'), 'r', api='gemini')),
    ('usage', lambda: usage({'id': 'resp', 'object': 'response', 'output': 'x', 'usage': 7})),
    ('mk_msgs', lambda: mk_msgs([{'role': 'user', 'content': [{'type': 'image', 'source': {'type': 'base64', 'media_type': 7, 'data': None}}]}], 'openai')),
]

@pytest.mark.parametrize('i', range(len(BAD)))
def test_malformed_input_gets_a_clear_error(i):
    name, f = BAD[i]
    with pytest.raises((TypeError, ValueError)) as e: quiet(f)
    assert not isinstance(e.value, (KeyError, IndexError, AttributeError, RecursionError))  # not one of those passed off as a ValueError
    s = str(e.value)
    assert len(s) > 20 and (name in s or 'api=' in s or 'takes' in s or "Can't" in s or "can't" in s or 'Malformed' in s), s

def test_guard_message_names_function_argument_api_and_what_works():
    with pytest.raises(ValueError) as e: quiet(mk_msg, {'role': 'user', 'parts': [{'inline_data': 'abc'}]}, api='anthropic')
    s = str(e.value)
    assert s.startswith("Malformed gemini item (AttributeError: ") and "'inline_data': 'abc'" in s, s  # the form it was read as, what broke, the item
    with pytest.raises(TypeError, match=r"provider_file\(api=None\): ref is text, not 5"): provider_file(5, 'image/png')  # checked
    from msgkit.errors import guard  # the guard, where no check is: the function, its argument, the API, what it takes
    f = guard("a provider's file id or URI")(lambda ref, api=None: ref.startswith('file_'))
    with pytest.raises(ValueError) as e: f(5)
    s = str(e.value)
    assert s.startswith('<lambda>(ref=..., api=None)') and "It takes a provider's file id or URI" in s, s
    assert isinstance(e.value.__cause__, AttributeError)  # the original, chained for a bug report

def test_bedrock_document_without_name():
    m = mk_msg({'role': 'user', 'content': [{'document': {'format': 'pdf', 'source': {'bytes': b'%PDF-1.4\n'}}}, {'text': 'Summarise'}]}, api='bedrock')
    assert m['content'][0]['document']['name'].startswith('document')
    from oracle import check
    check('bedrock', [m])

def test_deep_nesting():
    x = 'hi'
    for _ in range(331): x = [x]
    for f in (lambda: mk_msg(x), lambda: mk_msgs([x]), lambda: jsonable(x), lambda: read_history([x]), lambda: est_tokens([x], 'openai')):
        with pytest.raises(ValueError, match='nested more than 100 levels deep'): f()
    args = 1
    for _ in range(60): args = {'a': args}  # tool arguments 60 deep: within the limit
    m = mk_msg({'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'toolu_1', 'name': 'f', 'input': args}]}, api='bedrock')
    assert m['content'][0]['toolUse']['input'] == args

@pytest.mark.parametrize('mode', ['F', 'I', 'I;16', 'CMYK', 'LA', 'P', '1', 'RGBA', 'HSV', 'YCbCr', 'LAB'])
def test_pil_modes(mode):
    "PIL images in modes PNG or JPEG can't store: made RGB(A) first, never an OSError"
    from PIL import Image
    for fmt in ('PNG', 'JPEG', None):
        im = Image.new(mode, (4, 4)); im.format = fmt
        m = mk_msg([im, 'What is it?'], api='anthropic')
        assert m['content'][0]['source']['media_type'] in ('image/png', 'image/jpeg')

# ---------------------------------------------------------------- bounded reads
def test_fifo_and_devices_are_not_read(tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    res = {}
    t = threading.Thread(target=lambda: res.setdefault('e', pytest.raises(ValueError, mk_msg, fifo)), daemon=True)
    t.start(); t.join(3)
    assert not t.is_alive(), 'a FIFO blocked the read'
    assert 'not a regular file' in str(res['e'].value)
    for p in (Path('/dev/zero'), Path('/dev/null'), tmp_path):
        with pytest.raises(ValueError, match='not a regular file'): mk_msg(p)
    link = tmp_path / 'zero.png'; link.symlink_to('/dev/zero')
    with pytest.raises(ValueError, match='not a regular file'): mk_msg(link)
    with pytest.raises(ValueError, match="Can't read"): mk_msg(tmp_path / 'missing.png')

def test_fifo_swapped_in_after_the_check(tmp_path, monkeypatch):
    "A FIFO that takes a file's place between the check and the open can't hold the read: what was opened is checked again"
    f, fifo = tmp_path / 'a.png', tmp_path / 'pipe.png'
    f.write_bytes(b'\x89PNG\r\n\x1a\n' + b'\0' * 64); os.mkfifo(fifo)
    st = f.stat()
    monkeypatch.setattr(Path, 'stat', lambda self, **kw: st)  # the check sees the file; the open finds the FIFO
    res = {}
    t = threading.Thread(target=lambda: res.setdefault('e', pytest.raises(ValueError, mk_msg, fifo)), daemon=True)
    t.start(); t.join(3)
    assert not t.is_alive(), 'a swapped-in FIFO blocked the read'
    assert 'not a regular file' in str(res['e'].value)

def test_big_file_refused_before_it_is_read(tmp_path, monkeypatch):
    big = tmp_path / 'big.pdf'
    with open(big, 'wb') as f: f.write(b'%PDF-1.4\n'); f.truncate(2 * 1024**3)  # 2 GiB, sparse
    reads = []
    real = Path.open
    monkeypatch.setattr('builtins.open', lambda *a, **k: reads.append(a) or real(Path(a[0]), *a[1:], **k))
    t = time.monotonic()
    with pytest.raises(ValueError, match=r'big.pdf.* is 2,147,483,648 bytes, over the [\d,]+ byte limit'): mk_msg(big, api='anthropic')
    assert time.monotonic() - t < 1 and not reads
    with pytest.raises(ValueError, match='over the 25,165,824 byte limit'): mk_msgs([[big]], api='anthropic')  # the API's own limit: 32 MB of base64

def test_data_uri_parsed_once_and_checked_before_decoding(monkeypatch):
    calls = []
    real = binascii.a2b_base64  # (what `base64.b64decode` and msgkit's `unb64` both decode with)
    monkeypatch.setattr(binascii, 'a2b_base64', lambda *a, **k: calls.append(len(a[0])) or real(*a, **k))
    import pybase64  # (and the `fast` extra's, which decodes large text where it is installed)
    fast = pybase64.b64decode
    monkeypatch.setattr(pybase64, 'b64decode', lambda *a, **k: calls.append(len(a[0])) or fast(*a, **k))
    uri = 'data:image/png;base64,' + base64.b64encode(PNG).decode()
    m = mk_msg([uri, 'What is it?'], api='gemini')
    assert m['parts'][0]['inline_data']['data'] == PNG and len(calls) == 1  # decoded once
    huge = 'data:image/png;base64,' + 'A' * (40 * 1024 * 1024)
    calls.clear()
    t = time.monotonic()
    with pytest.raises(ValueError, match=r'This data URI holds about [\d,]+ bytes, over the 25,165,824 byte limit'): mk_msg([huge], api='anthropic')
    assert not calls and time.monotonic() - t < 1  # refused before decoding
    assert sniff.is_data_uri('data:text/plain,hello') and not sniff.is_data_uri('data:text/plain,hello world')  # prose stays prose

# ---------------------------------------------------------------- determinism
def test_made_ids_same_in_every_process():
    code = ("import warnings; warnings.simplefilter('ignore'); from msgkit import mk_msgs\n"
            "class Opt:\n def __init__(self): self.k = {'b', 'a', 'c'}\n"
            "class Sl:\n __slots__ = ('v',)\n def __init__(self): self.v = {'p', 'q', 'r', 's'}\n"
            "h = ['Hi', {'role': 'model', 'parts': [{'function_call': {'name': 'f', 'args': {'s': {'x', 'y', 'z', 'w'}, 'o': Opt(), 'f': frozenset({3, 1}),\n"
            "  'k': {frozenset({'alpha', 'beta', 'gamma'}): 1}, 'sl': Sl()}}}]}]\n"
            "print(mk_msgs(h, 'anthropic')[1]['content'][0]['id'])")
    ids = {subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env={**os.environ, 'PYTHONHASHSEED': str(s)}, check=True).stdout
           for s in (1, 2, 3, 99)}
    assert len(ids) == 1 and next(iter(ids)).startswith('msgkit_'), ids

@pytest.mark.parametrize('api', ['anthropic', 'openai', 'openai_chat', 'bedrock'])
def test_twin_calls_get_distinct_ids(api):
    "Two parallel Gemini calls with equal args in another key order are twins: distinct ids, each result matched to its call"
    h = ['Hi', {'role': 'model', 'parts': [{'function_call': {'name': 'get', 'args': {'city': 'Paris', 'unit': 'C'}}},
                                           {'function_call': {'name': 'get', 'args': {'unit': 'C', 'city': 'Paris'}}}]}]
    out = mk_msgs(h, api)
    ids = [o['call_id'] for o in out if o.get('type') == 'function_call'] if api == 'openai' else [c['id'] for c in tool_calls(out[1])]
    assert len(ids) == 2 and len(set(ids)) == 2, ids

# ---------------------------------------------------------------- the guard: what a raise line computes is not msgkit's own error
def test_errors_inside_a_raise_are_explained():
    "A TypeError raised while building msgkit's own message (an f-string indexing a bad value) is explained, not passed as msgkit's"
    from msgkit.errors import guard, InputError
    def f(s, api=None): raise InputError(f"Not an http(s) URL: {s[:80]!r}")
    with pytest.raises(TypeError, match=r"f\(s=\.\.\., api=None\) can't use s, a int: .* It takes an http\(s\) URL"): guard('an http(s) URL')(f)(5)
    with pytest.raises(TypeError, match=r"media_url's s is an http\(s\) URL, as text: not 5"): media_url(5, 'image/png')  # checked first now
    with pytest.raises(TypeError, match=r"mk_request's max_tokens is a positive int .*api='anthropic'.*not '4000'"):
        mk_request(['hi'], 'anthropic', model='c', reasoning=2000, max_tokens='4000')

def test_an_error_that_will_not_print():
    "An input whose error message can't be made still gets a clear error"
    from msgkit.errors import guard
    with pytest.raises(ValueError, match="its message would not print"): guard()(lambda x, api=None: (_ for _ in ()).throw(type('E', (KeyError,), {'__str__': lambda s: 1/0})()))(1)

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_tool_arguments_nested_too_deep(api):
    "JSON arguments count toward the depth limit: refused clearly, rather than a history that can't be read back"
    for n in (95, 900, 50_000):
        fc = {'type': 'function_call', 'call_id': 'c1', 'name': 'f', 'arguments': '{"a":' * n + '1' + '}' * n}
        with pytest.raises(ValueError, match='arguments are nested more than 90 levels deep'): mk_msgs(['hi', fc], api)
    fc = {'type': 'function_call', 'call_id': 'c1', 'name': 'f', 'arguments': '{"a":' * 89 + '1' + '}' * 89}
    out = mk_msgs(['hi', fc], api)
    assert mk_msgs(out, api) == out  # within the limit: read back as it came

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
def test_request_numbers(api):
    "A token count, a temperature or a reasoning option of the wrong type is named, with the API"
    for kw, msg in [(dict(max_tokens='4000'), "max_tokens is a positive int"),                     (dict(max_tokens=True), "max_tokens is a positive int"), (dict(temperature='hot'), "temperature is a number"),
                    (dict(top_p=[1]), "top_p is a number"), (dict(reasoning=[1]), "reasoning is an effort"), (dict(reasoning=True), "reasoning is an effort")]:
        with pytest.raises(TypeError, match=f"mk_request's {msg}.*api='{api}'"): mk_request(['hi'], api, model='m', **kw)
    with pytest.raises(ValueError, match=f"mk_request's max_tokens is a positive int.*api='{api}'.*not 0"): mk_request(['hi'], api, model='m', max_tokens=0)

def test_hand_made_part_without_a_media_type():
    "A neutral part dict without `mt` gets the API's clear refusal, not an AttributeError from inside"
    with pytest.raises(ValueError, match="api='bedrock' can't take image"): mk_msg({'type': 'image', 'url': 'https://example.com/a.png'}, api='bedrock')

@pytest.mark.parametrize('kw', ['ttl', 'fetch', 'fit', 'cache_last_ckpt_only', 'cache'])
def test_mk_msgs_options_nested_too_deep(kw):
    "mk_msgs checks its own depth (its text fast path is shallow), its options' too, for every partial"
    x = []
    for _ in range(101): x = [x]
    for f, a in ((mk_msgs, dict(api='openai')), (mk_msgs_gemini, {})):
        with pytest.raises(ValueError, match='nested more than 100 levels deep'): f(['hi'], **{kw: x}, **a)
    with pytest.raises(ValueError, match='nested more than 100 levels deep'): mk_msgs(['hi'], 'openai', detail=x)  # an adapter's option
