"""Issue #23, items 1-4 and 7-10: hostile media, schemas and fetches. Each hostile input is refused with a clear
`ValueError` within 1 s and 100 MB (time as CPU time, `time.process_time`, so that a loaded machine fails no test;
memory with `tracemalloc`, or for Pillow's C buffers, which tracemalloc can't see, with `resource` in a fresh process),
or handled as its item says. Each item has a test here that fails on the code before #23; a few (marked "guard") check
that the new code still does what the old did."""
import io, json, math, os, socket, subprocess, sys, time, tracemalloc, warnings
from pathlib import Path
import httpx, pytest
from bombs import png_bomb, jpeg_sized, objstm_pdf, ref_chain
import msgkit
from msgkit import mk_msg, mk_request, mk_tool, est_tokens, trim, fetch, sample
from msgkit.sniff import img_size, pdf_pages
from msgkit.download import FetchError
import importlib
FM = importlib.import_module('msgkit.download')
png = sample('gradient.png').read_bytes()
MB = 2**20

def bounded(f, secs=1.0, mb=100):
    "`f()`'s result or the `ValueError` it raised, failing if it took `secs` seconds or more (a first run), or its Python "
    "allocations peaked at `mb` MB or more (a second run, under tracemalloc, which slows it)"
    def run():
        try: return f()
        except ValueError as e: return e
    t = time.process_time(); out = run(); dt = time.process_time() - t
    assert dt < secs, f'{dt:.2f} s'
    if mb is None: return out  # time alone: its memory is measured where the same work is
    tracemalloc.start()
    try: run(); peak = tracemalloc.get_traced_memory()[1]
    finally: tracemalloc.stop()
    assert peak < mb * MB, f'{peak / MB:.0f} MB'
    return out

def refused(f, match, **kw):
    "`f()` raises a `ValueError` matching `match`, within the bounds"
    e = bounded(f, **kw)
    assert isinstance(e, ValueError), f'not refused: {str(e)[:200]}'
    import re
    assert re.search(match, str(e)), str(e)

# ---------------------------------------------------------------- 1. image decompression bombs

CHILD = r'''
import json, resource, sys, time, warnings
sys.path.insert(0, sys.argv[1])
from bombs import png_bomb, jpeg_sized
from msgkit import mk_msg
from msgkit.fit import thumb_image, decode_image
warnings.simplefilter('ignore')
bombs = dict(grey=png_bomb(13000, 13000), rgb=png_bomb(13000, 13000, 2), grey16=png_bomb(9500, 9500, 0, 16),
             jpeg=jpeg_sized(60000, 60000))
mk_msg([png_bomb(64, 64), 'warm up'], api='anthropic', fit=True); thumb_image(png_bomb(64, 64))  # imports, unmeasured
kb = 1 if sys.platform == 'darwin' else 1024  # ru_maxrss: bytes on macOS, KB on Linux
def peak(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * kb
now = peak()  # the peak so far (imports, the bombs' bytes): resident-now reads low when a loaded machine pages out
out = {}
for k, b in bombs.items():
    calls = dict(fit=lambda: mk_msg([b, 'What is this?'], api='anthropic', fit=True),
                 bedrock=lambda: mk_msg([b, 'What is this?'], api='bedrock', fit=True),
                 thumb=lambda: thumb_image(b), decode=lambda: decode_image(b, long=1568))
    for n, f in calls.items():
        t = time.process_time()
        try: f(); e = None
        except ValueError as x: e = str(x)
        out[f'{k} {n}'] = time.process_time() - t, e
print(json.dumps(dict(out=out, grew=peak() - now)))
'''

def test_image_bombs_refused_from_the_header():
    "13000² grey and RGB PNGs (164 and 493 KB), a 16-bit 9500² PNG and a JPEG claiming 60000²: refused by fit, the thumbnail "
    "and the decoder before anything is decoded (they took 3-50 s and 0.3-2 GB)"
    r = subprocess.run([sys.executable, '-c', CHILD, str(Path(__file__).parent)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, 'PYTHONPATH': str(Path(msgkit.__file__).parents[1])})
    assert r.returncode == 0, r.stderr[-2000:]
    res = json.loads(r.stdout.splitlines()[-1])
    for k, (dt, e) in res['out'].items():
        assert e and 'msgkit.fit.MAX_PIXELS' in e and dt < 1, (k, dt, e)
    assert 'api=\'anthropic\' takes images of at most 8,000 pixels a side; this 13000×13000 image is 169,000,000 pixels' in res['out']['grey fit'][1]
    assert 'even decoded at 1/8 a side (56,250,000 pixels)' in res['out']['jpeg decode'][1]
    assert res['grew'] < 100 * MB, f"the process grew by {res['grew'] / MB:.0f} MB"

def test_phone_photo_decoded_smaller():
    "A 53-megapixel JPEG (over the budget whole) is decoded a quarter a side for Anthropic's 1568 px, and an eighth for a thumbnail"
    from PIL import Image
    from msgkit.fit import decode_image, thumb_image, MAX_PIXELS
    b = io.BytesIO(); Image.new('L', (8400, 6300), 200).save(b, 'JPEG'); x = b.getvalue()
    assert 8400 * 6300 > MAX_PIXELS
    with pytest.raises(ValueError, match='MAX_PIXELS'): decode_image(x)  # whole: over the budget
    im, size = decode_image(x, long=1568)
    assert (im.size, size) == ((2100, 1575), (8400, 6300))
    assert thumb_image(x).size == (256, 192)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        m = bounded(lambda: mk_msg([x, 'Describe'], api='anthropic', fit=True), secs=2)
    import base64
    assert Image.open(io.BytesIO(base64.b64decode(m['content'][0]['source']['data']))).size == (1568, 1176)

def test_thumbnail_for_the_views():
    "The function the Jupyter views call: bounded, upright, 8-bit, at most `px` a side; over the budget a ValueError"
    from PIL import Image
    from msgkit.fit import thumb_image
    b = io.BytesIO(); Image.new('I;16', (900, 300)).save(b, 'PNG')
    t = thumb_image(b.getvalue(), 128)
    assert (t.mode, t.size) == ('L', (128, 43))
    refused(lambda: thumb_image(png_bomb(13000, 13000)), 'more than the 25,000,000 msgkit decodes')
    refused(lambda: thumb_image(png_bomb(3000, 3000), max_px=1_000_000), 'more than the 1,000,000 msgkit decodes')

# ---------------------------------------------------------------- 2. Gemini tool schemas

@pytest.mark.parametrize('n', [15, 30])
def test_gemini_schema_budget(n):
    "A chain of $defs each using the next twice (2 KB; it grew to 17 MB in 13 s at 15 links, and never finished at 30): inlining stops "
    "at MAX_SCHEMA, and the tool goes to Gemini as the schema it is (parameters_json_schema), which the SDK takes"
    from msgkit.adapters.gemini import gemini_schema
    from oracle import APIS
    s = ref_chain(n)
    refused(lambda: gemini_schema(s), r"inlining its \$refs .* makes it over 250,000 characters")
    t = bounded(lambda: mk_tool({'name': 'f', 'description': 'A tool', 'input_schema': s}, 'gemini'), mb=None)
    assert t == {'name': 'f', 'description': 'A tool', 'parameters_json_schema': s}
    req = bounded(lambda: mk_request(['hi'], 'gemini', model='m', tools=[{'name': 'f', 'description': 'A tool', 'input_schema': s}]), mb=None)
    body = APIS['gemini'](req['contents'], **req['config'])
    assert len(json.dumps(body)) < 20_000

def test_gemini_schema_small_refs_still_inlined():
    "(guard) Within the budget nothing changes: definitions used a few times are inlined"
    from msgkit.adapters.gemini import gemini_schema
    s = ref_chain(4)
    g = gemini_schema(s)
    assert '$ref' not in json.dumps(g) and json.dumps(g).count('"STRING"') + json.dumps(g).count('"string"') == 16

# ---------------------------------------------------------------- 3. PDF page counting

def test_pdf_object_streams_bounded():
    "Object streams that inflate to 320 MB (a 308 KB PDF), 20,000 of them, or 200,000 pages: refused by pdf_pages and est_tokens"
    big, many, pages = objstm_pdf(bytes(8_000_000), 40), objstm_pdf(b'x', 20_000), objstm_pdf(b'<</Type /Page>>' * 200_000, 1)
    refused(lambda: pdf_pages(big), r'object streams inflate to more than 33,554,432 bytes in all')
    refused(lambda: est_tokens([[big, 'Summarise']], 'anthropic'), r'inflate to more than', mb=None)
    refused(lambda: trim([[big, 'Summarise'], 'Sure', 'More?'], 1000, 'anthropic'), r'inflate to more than', mb=None)
    refused(lambda: pdf_pages(many), r'object streams number more than 10,000', mb=None)  # tiny streams: `big` measures the memory
    refused(lambda: pdf_pages(pages), r'page objects number more than 100,000')
    assert pdf_pages(objstm_pdf(b'<</Type /Page>> <</Type /Pages>>' * 40, 3)) == 120  # counted still, /Pages apart
    assert pdf_pages(sample('report.pdf').read_bytes()) == 1

# ---------------------------------------------------------------- 4. the JPEG header scan

def test_jpeg_scan_linear():
    "8 MB of fill bytes or of empty segments after a JPEG's start took 3 s or more a scan, byte by byte in Python"
    est_tokens(['warm up: the tokenizer loads'], 'openai')
    for b in (b'\xff\xd8' + b'\xff' * 8_000_000, b'\xff\xd8' + b'\xff\xe0\x00\x02' * 2_000_000, b'\xff\xd8' + b'\xff\xd0' * 4_000_000):
        assert bounded(lambda: img_size(b), secs=0.2) is None
        bounded(lambda: est_tokens([[b, 'What is this?']], 'openai'), mb=None)
        bounded(lambda: mk_msg([b, 'What is this?'], api='anthropic'), mb=None)

def test_jpeg_scan_finds_the_frame():
    "(guard) Segments are skipped whole (an EXIF segment holding the frame marker's bytes is not read as one), fill bytes too"
    from PIL import Image
    b = io.BytesIO(); Image.new('RGB', (640, 480)).save(b, 'JPEG'); j = b.getvalue()
    fake = b'\xff\xc0\x00\x11\x08\x00\x10\x00\x10'  # a frame header claiming 16×16, inside an APP1 segment
    app1 = b'\xff\xe1' + (2 + len(fake) + 100).to_bytes(2, 'big') + fake + bytes(100)
    assert img_size(j[:2] + app1 + b'\xff' * 1000 + j[2:]) == (640, 480)
    b = io.BytesIO(); Image.new('RGB', (300, 200)).save(b, 'JPEG', progressive=True)
    assert img_size(b.getvalue()) == (300, 200)

# ---------------------------------------------------------------- 7. request event hooks on cross-origin hops

def test_request_hooks_stay_home():
    "A hook that adds X-Api-Key runs for the origin asked for, and never on a hop to another origin, nor on one back"
    seen = []
    def site(req):
        seen.append((req.url.host, {k.lower(): v for k, v in req.headers.items()}))
        if req.url.host == 'home.example' and req.url.path == '/a': return httpx.Response(302, headers={'location': 'https://cdn.example/b'})
        if req.url.host == 'cdn.example': return httpx.Response(302, headers={'location': 'https://home.example/c'})
        return httpx.Response(200, content=png)
    hooked = []
    def hook(req): req.headers['X-Api-Key'] = 'sk-SECRET'; hooked.append(req.url.host)
    with httpx.Client(transport=httpx.MockTransport(site), event_hooks={'request': [hook], 'response': [lambda r: hooked.append('resp')]}) as c:
        assert fetch('https://home.example/a', client=c).data == png
    assert [h for h, _ in seen] == ['home.example', 'cdn.example', 'home.example']
    assert seen[0][1]['x-api-key'] == 'sk-SECRET' and 'x-api-key' not in seen[1][1] and 'x-api-key' not in seen[2][1]
    assert hooked == ['home.example', 'resp']

# ---------------------------------------------------------------- 8. IPv6 ranges

def mock_client(seen=None):
    def site(req):
        if seen is not None: seen.append(str(req.url))
        return httpx.Response(200, content=png)
    return httpx.Client(transport=httpx.MockTransport(site))

def test_local_nat64_and_site_local_refused():
    "64:ff9b:1::/48 (RFC 8215) carrying 169.254.169.254 or 127.0.0.1, in the /96 and /48 forms, and fec0::/10, through any client"
    seen = []
    for u in ('http://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/', 'http://[64:ff9b:1::7f00:1]/x', 'http://[64:ff9b:1:a9fe:a9:fe00::]/x',
              'http://[64:ff9b:1::808:808]/x', 'http://[fec0::1]/x', 'http://[fec0:1::a9fe:a9fe]/x'):
        for c in (None, mock_client(seen)):
            with pytest.raises(FetchError, match='private, loopback or link-local'): fetch(u, client=c)
    assert not seen
    for u in ('http://[64:ff9b:1::a9fe:a9fe]/x', 'http://[64:ff9b:1:a9fe:a9:fe00::]/x'):  # carrying the metadata address
        with pytest.raises(FetchError, match='even with allow_private=True'): fetch(u, client=mock_client(seen), allow_private=True)
    assert fetch('http://[fec0::1]/x', client=mock_client(seen), allow_private=True).data == png and len(seen) == 1
    assert fetch('http://[64:ff9b::808:808]/x', client=mock_client()).data == png  # the well-known prefix, 8.8.8.8: public

# ---------------------------------------------------------------- 9. DNS and a caller's client; metadata with allow_private=True

@pytest.fixture
def no_dns(monkeypatch):
    def lookup(host): raise AssertionError(f'msgkit looked up {host!r} itself')
    monkeypatch.setattr(FM, '_lookup', lookup)

def test_mock_transport_needs_no_dns(no_dns, monkeypatch):
    "A host that doesn't resolve, fetched through a test client: the client's transport decides where it goes, not this machine's DNS"
    monkeypatch.setattr(socket, 'getaddrinfo', lambda *a, **kw: (_ for _ in ()).throw(AssertionError('getaddrinfo')))

    p = fetch('https://files.no-such-host.invalid/cat.png', client=mock_client())
    assert p.data == png
    blk = {'type': 'image', 'source': {'type': 'url', 'url': 'https://files.no-such-host.invalid/cat.png'}}
    assert mk_msg([blk, 'What is this?'], api='bedrock', fetch=mock_client())['content'][0]['image']['source']['bytes'] == png
    for u in ('http://localhost/x', 'http://db.localhost/x', 'http://127.0.0.1/x'):  # still judged by what the URL says
        with pytest.raises(FetchError, match='private, loopback'): fetch(u, client=mock_client())

def test_proxy_resolves_not_msgkit(no_dns):
    "Behind a proxy only the proxy can resolve a name: a local server plays the proxy, and the name is never looked up here"
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    import threading
    got = []
    class Proxy(BaseHTTPRequestHandler):
        def log_message(self, *a): pass
        def do_GET(self):
            got.append(self.path)
            self.send_response(200); self.send_header('Content-Length', str(len(png))); self.end_headers(); self.wfile.write(png)
    s = ThreadingHTTPServer(('127.0.0.1', 0), Proxy)
    threading.Thread(target=s.serve_forever, daemon=True).start()
    try:
        with httpx.Client(proxy=f'http://127.0.0.1:{s.server_port}') as c:
            assert fetch('http://intranet.no-such-host.invalid/cat.png', client=c).data == png
    finally: s.shutdown()
    assert got == ['http://intranet.no-such-host.invalid/cat.png']

def test_direct_client_still_checked(monkeypatch):
    "(guard) A caller's plain client connects from here, so a name is still looked up and judged"
    monkeypatch.setattr(FM, '_lookup', lambda host: [__import__('ipaddress').ip_address('10.1.2.3')])
    with httpx.Client() as c:
        with pytest.raises(FetchError, match=r'\(10\.1\.2\.3\): refused'): fetch('http://internal.example/x', client=c)

META = ['http://169.254.169.254/latest/meta-data/iam/', 'http://[fd00:ec2::254]/latest/meta-data/', 'http://100.100.100.200/latest/meta-data/',
        'http://metadata.google.internal/computeMetadata/v1/', 'http://metadata.google.internal./x', 'http://169.254.1.2/x',
        'http://[fe80::1]/x', 'http://[::ffff:169.254.169.254]/x', 'http://[64:ff9b::a9fe:a9fe]/x']

@pytest.mark.parametrize('u', META)
def test_metadata_refused_even_with_allow_private(u, monkeypatch):
    "allow_private=True opens loopback and private networks, not link-local addresses or the clouds' metadata services"
    monkeypatch.setattr(FM, '_lookup', lambda host: [__import__('ipaddress').ip_address('169.254.169.254')])
    seen = []
    for c in (None, mock_client(seen)):
        with pytest.raises(FetchError, match=r"refused, even with allow_private=True|a cloud's metadata service"): fetch(u, client=c, allow_private=True)
        with pytest.raises(FetchError, match='refused'): fetch(u, client=c)
    assert not seen

def test_metadata_when_named():
    "A caller who means the metadata service names it: a host, an address or a network, alone or in a list; nothing else opens"
    seen = []
    c = mock_client(seen)
    assert fetch('http://169.254.169.254/latest/meta-data/', client=c, allow_private='169.254.169.254').data == png
    assert fetch('http://metadata.google.internal/computeMetadata/v1/', client=c, allow_private=['metadata.google.internal']).data == png
    assert fetch('http://[fd00:ec2::254]/x', client=c, allow_private=['fd00:ec2::/32']).data == png
    with pytest.raises(FetchError, match='private, loopback'): fetch('http://10.0.0.1/x', client=c, allow_private=['169.254.169.254'])
    with pytest.raises(FetchError, match='private, loopback'): fetch('http://100.100.100.200/x', client=c, allow_private='169.254.169.254')
    with pytest.raises(TypeError, match='allow_private is True, False, or the hosts'): fetch('http://10.0.0.1/x', client=c, allow_private=5)
    blk = {'type': 'image', 'source': {'type': 'url', 'url': 'http://169.254.169.254/cat.png'}}
    assert mk_msg([blk, '?'], api='bedrock', fetch=dict(client=c, allow_private=['169.254.169.254']))['content'][0]['image']['source']['bytes'] == png
    with pytest.raises(FetchError, match='even with allow_private=True'): mk_msg([blk, '?'], api='bedrock', fetch=dict(client=c, allow_private=True))
    assert len(seen) == 4

def test_own_client_refuses_metadata_at_connect():
    "msgkit's own client checks again when it connects (a rebinding name), under the same rule"
    with FM._client(5, True) as c: be = c._transport._pool._network_backend
    with pytest.raises(FetchError, match='private address at connect time'): be.connect_tcp('169.254.169.254', 80)
    with pytest.raises(FetchError, match='private address at connect time'): be.connect_tcp('100.100.100.200', 80)

# ---------------------------------------------------------------- 10. wire=True bodies JSON can write

BAD = {'set': {1, 2}, 'frozenset': frozenset({'a'}), 'range': range(3), 'function': len, 'lambda': lambda: 0, 'Ellipsis': ...,
       'nan': math.nan, 'inf': math.inf, '-inf': -math.inf, 'complex': 1j, 'object': object()}
FIELD = dict(openai='metadata', openai_chat='metadata', anthropic='metadata', bedrock='additionalModelRequestFields', gemini='labels')
WIRED = ['openai', 'openai_chat', 'anthropic', 'bedrock']
def tool_history(args):
    return ['Use f', {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'toolu_1', 'name': 'f', 'input': args}]},
            {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': 'done'}]}]

@pytest.mark.parametrize('api', WIRED + ['gemini'])
def test_wire_fields_json_or_refused(api):
    "A pass-through field and `extra=` holding what JSON can't: an error naming the field (memoryview: its bytes, as base64)"
    for k, v in BAD.items():
        for kw in ({FIELD[api]: {'tags': {'x': v}}}, {'extra': {'x': {'y': [v]}}}):
            with pytest.raises((TypeError, ValueError), match=r"(tags\.x|x\.y\[0\]) is .*which JSON can't hold") as e:
                mk_request(['hi'], api, model='m', wire=True, **kw)
            assert isinstance(e.value, (msgkit.errors.InputTypeError, msgkit.errors.InputError)), (k, e.value)
    r = mk_request(['hi'], api, model='m', wire=True, extra={'x': memoryview(b'hi'), 'y': (1, 2)})
    assert json.loads(json.dumps(r, allow_nan=False))['x'] == 'aGk=' and r['y'] == [1, 2]

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
def test_wire_tool_args_refused(api):
    "Tool arguments in the history, sent as JSON objects: the error names the message, the block and the argument"
    for k, v in BAD.items():
        with pytest.raises((TypeError, ValueError), match=r"messages\[1\]\.content\[0\]\.(toolUse\.)?input\.a is .*which JSON can't hold"):
            mk_request(tool_history({'a': v}), api, model='m', wire=True)
    assert json.dumps(mk_request(tool_history({'a': (1.5, None)}), api, model='m', wire=True), allow_nan=False)

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'bedrock', 'gemini'])
def test_wire_body_always_dumps(api):
    "Whatever a history's tool arguments hold, a wire body that comes back is one json.dumps(allow_nan=False) writes"
    for v in [*BAD.values(), memoryview(b'x'), b'\x00', (1,), {'k': {1: 2}}]:
        try: r = mk_request(tool_history({'a': v}), api, model='m', wire=True)
        except (TypeError, ValueError): continue
        json.dumps(r, allow_nan=False)

def test_batch_lines_dump():
    "mk_batch's lines are wire bodies too"
    from msgkit import mk_batch
    with pytest.raises(ValueError, match=r"input\.a is nan"): list(mk_batch([tool_history({'a': math.nan})], 'anthropic', model='m'))
