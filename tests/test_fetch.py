"Fetching, offline: an httpx.MockTransport plays the web."
import httpx, pytest
from msgkit import sample, media_type
from msgkit.download import fetch, FetchError, fetch_part
import importlib
FM = importlib.import_module('msgkit.download')

png, pdf = sample('gradient.png').read_bytes(), sample('report.pdf').read_bytes()

def site(req):
    p = req.url.path
    if p=='/cat.png': return httpx.Response(200, content=png, headers={'content-type':'text/html'})  # headers lie; bytes don't
    if p=='/a': return httpx.Response(301, headers={'location':'/b'})
    if p=='/b': return httpx.Response(307, headers={'location':'https://cdn.example.com/report.pdf'})
    if p=='/report.pdf': return httpx.Response(200, content=pdf)
    if p=='/loop': return httpx.Response(302, headers={'location':'/loop'})
    if p=='/to-ftp': return httpx.Response(302, headers={'location':'ftp://example.com/x'})
    if p=='/big': return httpx.Response(200, content=b'%PDF-' + b'x'*5000)
    if p=='/big-declared': return httpx.Response(200, content=b'%PDF-', headers={'content-length':'999999999'})
    if p=='/notes': return httpx.Response(200, content='# Notes ✓'.encode(), headers={'content-type':'text/markdown; charset=utf-8'})
    if p=='/latin1': return httpx.Response(200, content='caf\xe9'.encode('latin-1'), headers={'content-type':'text/plain'})
    if p=='/slow': raise httpx.ReadTimeout('slow', request=req)
    if p=='/down': raise httpx.ConnectError('refused', request=req)
    if p=='/500': return httpx.Response(500)
    if p=='/meta': return httpx.Response(302, headers={'location':'http://169.254.169.254/latest/meta-data/'})
    return httpx.Response(404)

@pytest.fixture
def cli(): return httpx.Client(transport=httpx.MockTransport(site))

def test_sniffs_bytes_not_headers(cli):
    p = fetch('https://example.com/cat.png', client=cli)
    assert p.type=='image' and p.mt=='image/png' and p.data==png

def test_redirects_followed_and_bounded(cli):
    assert fetch('https://example.com/a', client=cli).mt=='application/pdf'
    with pytest.raises(FetchError, match='more than 5 redirects'): fetch('https://example.com/loop', client=cli)
    with pytest.raises(FetchError, match='more than 1 redirects'): fetch('https://example.com/a', client=cli, max_redirects=1)

def test_http_only(cli):
    for u in ('ftp://example.com/x.pdf', 'file:///etc/passwd', '/etc/passwd', 'data:text/plain,hi'):
        with pytest.raises(FetchError, match=r'Only http\(s\) URLs'): fetch(u, client=cli)
    with pytest.raises(FetchError, match=r'Only http\(s\) URLs'): fetch('https://example.com/to-ftp', client=cli)

def test_size_cap(cli):
    with pytest.raises(FetchError, match='over the 1,000 byte limit'): fetch('https://example.com/big', client=cli, max_bytes=1000)
    with pytest.raises(FetchError, match='999,999,999 bytes, over'): fetch('https://example.com/big-declared', client=cli)

def test_http_errors_and_timeouts(cli):
    with pytest.raises(FetchError, match='HTTP 404 Not Found'): fetch('https://example.com/nope', client=cli)
    with pytest.raises(FetchError, match='HTTP 500'): fetch('https://example.com/500', client=cli)
    with pytest.raises(FetchError, match='timed out'): fetch('https://example.com/slow', client=cli)
    with pytest.raises(FetchError, match='failed: ConnectError: refused'): fetch('https://example.com/down', client=cli)
    assert issubclass(FetchError, ValueError)

def test_text_types_from_headers_only_when_utf8(cli):
    p = fetch('https://example.com/notes', client=cli)
    assert p.mt=='text/markdown' and p.data.decode()=='# Notes ✓'
    with pytest.raises(FetchError, match="Can't tell the media type"): fetch('https://example.com/latin1', client=cli)

def test_client_left_open(cli):
    fetch('https://example.com/cat.png', client=cli)
    assert not cli.is_closed

# ---------------------------------------------------------------- a fetch that leaks nothing, against local servers
import ipaddress, threading, time, gzip, zlib, socket, inspect, tracemalloc
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from msgkit import mk_msg, Part
_dns = FM._lookup  # the real lookup (conftest swaps in a fake one for each test)

@cache
def bomb(layers):
    "256 MB of zeros, gzipped `layers` times: 1.1 MB, or 3 KB twice over"
    c = zlib.compressobj(1, zlib.DEFLATED, 31)
    b = b''.join(c.compress(bytes(1<<20)) for _ in range(256)) + c.flush()
    return b if layers==1 else gzip.compress(b)

try: import zstandard; zpng = zstandard.ZstdCompressor().compress(png)
except ImportError: zpng = b'(zstd)'

def raw_deflate(b): c = zlib.compressobj(9, zlib.DEFLATED, -15); return c.compress(b) + c.flush()
gzpng, zlpng, half = gzip.compress(png), zlib.compress(png), len(png)//2
CODED = {'/gz-cut': (gzpng[:len(gzpng)//2], 'gzip'), '/gz-cut-close': (gzpng[:len(gzpng)//2], 'gzip', False),
         '/zl-cut': (zlpng[:len(zlpng)//2], 'deflate'), '/raw-cut': (raw_deflate(png)[:100], 'deflate'),
         '/gz-multi': (gzip.compress(png[:half]) + gzip.compress(png[half:]), 'gzip'),
         '/gz-multi-1': (b''.join(gzip.compress(png[i:i+1]) for i in range(len(png))), 'gzip', True, 1),
         '/gz-members-big': (gzip.compress(bytes(600_000)) * 4, 'gzip'),
         '/gz-multi-cut': (gzpng + gzpng[:30], 'gzip'), '/gz-pad': (gzpng + bytes(512), 'gzip'), '/gz-junk': (gzpng + b'JUNK' * 10, 'gzip'),
         '/raw1': (raw_deflate(png), 'deflate', False, 1), '/zl1': (zlpng, 'deflate', False, 1)}

class Handler(BaseHTTPRequestHandler):
    seen = []
    def log_message(self, *a): pass
    def do_GET(self):
        Handler.seen.append((self.server.server_port, self.path, dict(self.headers)))
        p = self.path
        if p.startswith('/to/'):  # /to/<port>/<path>: a redirect to another local origin (without this URL's query)
            _, _, port, rest = p.split('?')[0].split('/', 3)
            self.send_response(302); self.send_header('Location', f'http://127.0.0.1:{port}/{rest}'); self.end_headers(); return
        if p == '/same': self.send_response(302); self.send_header('Location', '/png'); self.end_headers(); return
        if p == '/nolocation': self.send_response(302); self.end_headers(); return
        if p == '/to-data': self.send_response(302); self.send_header('Location', 'data:text/plain,hi'); self.end_headers(); return
        if p == '/to-js': self.send_response(302); self.send_header('Location', 'javascript:alert(1)'); self.end_headers(); return
        if p == '/to-meta': self.send_response(302); self.send_header('Location', 'http://169.254.169.254/latest/meta-data/'); self.end_headers(); return
        if p == '/to-localhost': self.send_response(302); self.send_header('Location', 'http://localhost:1/x'); self.end_headers(); return
        if p == '/drip-headers':  # the status line and headers a byte at a time
            for ch in b'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Pad: ' + b'x' * 40 + b'\r\n\r\n':
                try: self.wfile.write(bytes([ch])); self.wfile.flush(); time.sleep(0.3)
                except OSError: return
            return
        if p == '/drip':
            self.send_response(200); self.send_header('Content-Type', 'text/plain'); self.send_header('Content-Length', '32'); self.end_headers()
            for _ in range(32):
                try: self.wfile.write(b'x'); self.wfile.flush(); time.sleep(0.25)
                except OSError: return
            return
        if p == '/json': return self.reply(b'{"instance-id": "i-0123", "iam": "secret"}', 'application/json')
        if p in ('/bomb', '/bomb2'): return self.reply(bomb(int(p[5:] or 1)), Content_Encoding='gzip' if p=='/bomb' else 'gzip, gzip')
        if p == '/gz': return self.reply(gzip.compress(png), Content_Encoding='gzip')
        if p == '/deflate': return self.reply(zlib.compress(png), Content_Encoding='deflate')
        if p == '/zstd': return self.reply(zpng, Content_Encoding='zstd')
        if p == '/html': return self.reply(b'<html>internal</html>', 'text/html')
        if p in CODED: return self.coded(*CODED[p])
        self.send_response(200); self.send_header('Content-Length', str(len(png))); self.end_headers(); self.wfile.write(png)
    def coded(self, b, ce, cl=True, first=None):
        "`b` as Content-Encoding `ce`: with a Content-Length, or ended by closing (`cl=False`), its `first` bytes sent alone"
        self.send_response(200); self.send_header('Content-Type', 'image/png'); self.send_header('Content-Encoding', ce)
        if cl: self.send_header('Content-Length', str(len(b)))
        self.end_headers()
        if first: self.wfile.write(b[:first]); self.wfile.flush(); time.sleep(0.2); b = b[first:]
        self.wfile.write(b)
    def reply(self, b, ct='image/png', **hs):
        self.send_response(200); self.send_header('Content-Type', ct); self.send_header('Content-Length', str(len(b)))
        for k, v in hs.items(): self.send_header(k.replace('_', '-'), v)
        self.end_headers()
        try: self.wfile.write(b)
        except OSError: pass  # the client stopped reading

@pytest.fixture(scope='module')
def servers():
    ss = [ThreadingHTTPServer(('127.0.0.1', 0), Handler) for _ in range(2)]
    for s in ss: threading.Thread(target=s.serve_forever, daemon=True).start()
    yield [f'http://127.0.0.1:{s.server_port}' for s in ss]
    for s in ss: s.shutdown()

def test_private_refused_by_default(servers):
    a, _ = servers
    for u in (f'{a}/png', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/x', 'http://[::ffff:169.254.169.254]/x', 'http://10.0.0.1/x',
              'http://100.64.0.1/x', 'http://0.0.0.0/x', 'http://224.0.0.1/x'):
        with pytest.raises(FetchError, match='private, loopback or link-local address.*allow_private=True'): fetch(u)
    assert fetch(f'{a}/png', allow_private=True).data == png

def test_names_that_resolve_private(servers, monkeypatch):
    import socket
    monkeypatch.setattr(FM, '_lookup', lambda host: [ipaddress.ip_address(o[4][0]) for o in socket.getaddrinfo(host, None)])
    with pytest.raises(FetchError, match=r'localhost.* is on a private, loopback'): fetch('http://localhost:1/x')

def test_every_hop_checked(servers, cli):
    a, _ = servers
    with pytest.raises(FetchError, match=r'169\.254\.169\.254/latest/meta-data/ is on a private'): fetch('https://example.com/meta', client=cli)  # public name, then metadata
    # allowed to a local server, still not past its redirect to another scheme or a missing Location
    with pytest.raises(FetchError, match=r'Only http\(s\) URLs are fetched'): fetch(f'{a}/to-data', allow_private=True)
    with pytest.raises(FetchError, match=r'Only http\(s\) URLs are fetched'): fetch(f'{a}/to-js', allow_private=True)
    with pytest.raises(FetchError, match='redirect without a Location'): fetch(f'{a}/nolocation', allow_private=True)

def test_credentials_stay_home(servers):
    a, b = servers
    bport = b.rsplit(':', 1)[1]
    Handler.seen.clear()
    with httpx.Client(headers={'Authorization': 'Bearer s3cret', 'Cookie': 'session=1'}) as c:
        assert fetch(f'{a}/to/{bport}/png', client=c, allow_private=True).data == png
        assert fetch(f'{a}/same', client=c, allow_private=True).data == png
    first, other, home1, home2 = Handler.seen
    assert first[2].get('Authorization') == 'Bearer s3cret'  # the origin it was meant for
    assert other[0] == int(bport) and 'Authorization' not in other[2] and 'Cookie' not in other[2]  # another origin: none
    assert home2[2].get('Authorization') == 'Bearer s3cret'  # a redirect within the origin keeps them

def test_timeout_bounds_the_whole_fetch(servers):
    a, _ = servers
    t = time.monotonic()
    with pytest.raises(FetchError, match=r'timed out: over 1 s in all'): fetch(f'{a}/drip', timeout=1, allow_private=True)
    assert time.monotonic() - t < 2.5  # a byte each 0.25 s for 8 s: cut at the deadline, not 8 s

def test_bad_urls_are_fetch_errors():
    for u in ('http://exa mple.com/x', 'http://example.com/\x00', 'http://[::1/x', 'https:///x', 5, None):
        with pytest.raises(FetchError): fetch(u)

def test_url_block_gets_what_it_claims(servers, monkeypatch):
    "An Anthropic image URL block rendered for Bedrock with fetch=True: the JSON a server sends is refused, not sent as a document"
    a, _ = servers
    blk = dict(type='image', source=dict(type='url', url=f'{a}/json'))
    with pytest.raises(FetchError, match='private, loopback'): mk_msg([blk, 'What is this?'], api='bedrock', fetch=True)
    with httpx.Client() as c:
        monkeypatch.setattr(FM, '_chk_host', lambda u, allow, direct=True: None)  # as if the server were public
        with pytest.raises(FetchError, match=r"claims to be an image, but it sent application/json"): mk_msg([blk, 'What is this?'], api='bedrock', fetch=c)

def test_timeout_bounds_slow_headers(servers):
    a, _ = servers
    t = time.monotonic()
    with pytest.raises(FetchError, match=r'timed out: over 1 s in all'): fetch(f'{a}/drip-headers', timeout=1, allow_private=True)
    assert time.monotonic() - t < 2.5

def test_client_auth_stays_home(servers):
    "A client's auth= (httpx adds it inside send) goes to the origin it was meant for only"
    a, b = servers
    Handler.seen.clear()
    with httpx.Client(auth=('user', 'pass')) as c:
        assert fetch(f"{a}/to/{b.rsplit(':', 1)[1]}/png", client=c, allow_private=True).data == png
    (_, _, h1), (_, _, h2) = Handler.seen
    assert h1.get('Authorization', '').startswith('Basic ') and 'Authorization' not in h2

def test_dns_rebinding_refused_at_connect(servers, monkeypatch):
    "A name that answers a public address to the check and loopback to the connection: msgkit's own client connects only where it checked"
    a, _ = servers
    port = a.rsplit(':', 1)[1]
    answers = iter([ipaddress.ip_address('93.184.215.14'), ipaddress.ip_address('127.0.0.1')] * 3)
    monkeypatch.setattr(FM, '_lookup', lambda host: [next(answers)])
    with pytest.raises(FetchError, match='resolves to a private address at connect time'): fetch(f'http://rebind.test:{port}/json')

def test_ipv6_forms_carrying_private_ipv4():
    for u in ('http://[::127.0.0.1]/x', 'http://[64:ff9b::a9fe:a9fe]/x', 'http://[2002:7f00:1::]/x', 'http://[::ffff:0:7f00:1]/x', 'http://[::ffff:a9fe:a9fe]/x'):
        with pytest.raises(FetchError, match='private, loopback or link-local'): fetch(u)

# ---------------------------------------------------------------- review of #10: bounded decoding, stopping, what is sent, claims, messages
def test_decoded_bytes_bounded(servers):
    "A 3 KB body that gunzips twice to 256 MB (and a 1.1 MB one that gunzips once): refused at the limit, with a few MB at most held"
    a, _ = servers
    bomb(2)
    tracemalloc.start()
    try:
        t = time.monotonic()
        with pytest.raises(FetchError, match=f'{a}/bomb2 is over the 1,000,000 byte limit'): fetch(f'{a}/bomb2', allow_private=True, max_bytes=1_000_000)
        with pytest.raises(FetchError, match=f'{a}/bomb is over the 2,000,000 byte limit'): fetch(f'{a}/bomb', allow_private=True, max_bytes=2_000_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally: tracemalloc.stop()
    assert peak < 16_000_000 and time.monotonic() - t < 5, (peak, time.monotonic() - t)
    assert fetch(f'{a}/gz', allow_private=True).data == png and fetch(f'{a}/deflate', allow_private=True).data == png

def test_only_codings_msgkit_decodes(servers):
    "msgkit asks for gzip and deflate only, and refuses a coding it can't decode a bounded step at a time"
    a, _ = servers
    Handler.seen.clear()
    with pytest.raises(FetchError, match=f'GET {a}/zstd: the server sent Content-Encoding zstd'): fetch(f'{a}/zstd', allow_private=True)
    assert {k.lower(): v for k, v in Handler.seen[0][2].items()}['accept-encoding'] == 'gzip, deflate'
    Handler.seen.clear()
    with httpx.Client() as c:  # a client of the caller's too (httpx's default asks for zstd and br when they are installed)
        with pytest.raises(FetchError, match='Content-Encoding zstd'): fetch(f'{a}/zstd', client=c, allow_private=True)
    assert {k.lower(): v for k, v in Handler.seen[0][2].items()}['accept-encoding'] == 'gzip, deflate'

def test_worker_stops_at_the_deadline(servers):
    "After a timeout nothing goes on: the worker stops, and the connection it opened on the caller's client is shut"
    a, _ = servers
    before = set(threading.enumerate())
    left = lambda: [o for o in threading.enumerate() if o not in before and 'process_request' not in o.name]
    with httpx.Client() as c:  # not closed by fetch, so only msgkit's own stopping ends the worker
        with pytest.raises(FetchError, match='timed out'): fetch(f'{a}/drip-headers', client=c, timeout=1, allow_private=True)
        t = time.monotonic()
        while left() and time.monotonic() - t < 2: time.sleep(0.05)
        assert not left(), left()  # the headers would drip for 17 s more

def test_params_and_key_headers_stay_home(servers):
    "A client's params (an API key in the query) and its headers (but a few harmless ones) go only to their own origin"
    a, b = servers
    bport = b.rsplit(':', 1)[1]
    hs = {'x-api-key': 'sk-ant-S', 'x-goog-api-key': 'AIzaS', 'api-key': 'az-S', 'X-Auth-Token': 't', 'X-Client-Secret': 's',
          'Private-Token': 'p', 'Proxy-Authorization': 'Basic x', 'X-Trace': 'kept'}
    Handler.seen.clear()
    with httpx.Client(params={'key': 'AIzaSECRET'}, headers=hs) as c:
        assert fetch(f'{a}/to/{bport}/png', client=c, allow_private=True).data == png
    (_, p1, h1), (port2, p2, h2) = Handler.seen
    low = lambda h: {k.lower() for k in h}
    assert 'key=AIzaSECRET' in p1 and low(hs) <= low(h1)  # the origin they were meant for
    assert port2 == int(bport) and p2 == '/png' and not low(h2) & low(hs)  # X-Trace too: only an allowlist travels

def test_part_fields_are_not_fetch_options(servers):
    "A part's allow_private, max_bytes and timeout are data: only the caller's options count"
    a, _ = servers
    sneaky = Part(type='document', url=f'{a}/html', mt='text/html', allow_private=True, max_bytes=1, timeout=0.001, title='T')
    with pytest.raises(FetchError, match='private, loopback'): fetch_part(sneaky)
    p = fetch_part(sneaky, dict(allow_private=True))  # the caller allows it; the part's max_bytes and timeout don't apply
    assert p.data == b'<html>internal</html>' and p.title == 'T' and 'url' not in p
    with pytest.raises(TypeError, match="not 'expect'"): fetch_part(sneaky, dict(expect='image'))

def test_mk_msg_part_fields_are_not_fetch_options(servers):
    a, _ = servers
    blk = {'type': 'document', 'url': f'{a}/html', 'mt': 'text/html', 'allow_private': True}
    with pytest.raises(FetchError, match='private, loopback'): mk_msg([blk, 'x'], api='bedrock', fetch=True)
    img = {'type': 'image', 'url': f'{a}/png', 'mt': 'image/png', 'max_bytes': 1, 'timeout': 0.001}
    assert mk_msg([img, 'x'], api='bedrock', fetch=dict(allow_private=True))['content'][0]['image']['source']['bytes'] == png

def test_pdf_claim_checked(servers):
    "A document claimed as a PDF must be one: JSON or HTML in its place is refused, naming the URL, the claim and what came"
    a, _ = servers
    for path, got in (('json', 'application/json'), ('html', 'text/html')):
        with pytest.raises(FetchError, match=f'{a}/{path} claims to be application/pdf, but it sent {got}'):
            fetch_part(Part(type='document', url=f'{a}/{path}', mt='application/pdf'), dict(allow_private=True))
        with pytest.raises(FetchError, match='claims to be application/pdf'): fetch(f'{a}/{path}', allow_private=True, expect='application/pdf')
    assert fetch_part(Part(type='document', url=f'{a}/html', mt='text/html'), dict(allow_private=True)).mt == 'text/html'  # no PDF claimed

def test_url_blocks_claiming_pdf(servers, monkeypatch):
    "An Anthropic URL document (a PDF by the API's definition) and an OpenAI file_url, rendered where they must be fetched"
    a, _ = servers
    monkeypatch.setattr(FM, '_chk_host', lambda u, allow, direct=True: None)  # as if the server were public
    for blk in ({'type': 'document', 'source': {'type': 'url', 'url': f'{a}/json'}}, {'type': 'input_file', 'file_url': f'{a}/json'}):
        for api in ('bedrock', 'openai_chat'):
            with httpx.Client() as c:
                with pytest.raises(FetchError, match=f'{a}/json claims to be application/pdf, but it sent application/json'):
                    mk_msg([blk, 'Summarise'], api=api, fetch=c)

def test_every_error_names_the_url(servers, cli, monkeypatch):
    "Hosts that don't resolve, the connect-time check, and a redirect hop's refusal (which names the URL asked for too)"
    a, _ = servers
    with pytest.raises(FetchError, match=r'169\.254\.169\.254/latest/meta-data/ is on a private.*\(fetching https://example\.com/meta\)'):
        fetch('https://example.com/meta', client=cli)
    def nodns(*a, **kw): raise socket.gaierror(-2, 'Name or service not known')
    monkeypatch.setattr(FM, '_lookup', _dns); monkeypatch.setattr(socket, 'getaddrinfo', nodns)
    with pytest.raises(FetchError, match=r"http://nowhere\.test/x: can't resolve 'nowhere\.test'"): fetch('http://nowhere.test/x')
    answers = iter([ipaddress.ip_address('93.184.215.14'), ipaddress.ip_address('127.0.0.1')])
    monkeypatch.setattr(FM, '_lookup', lambda host: [next(answers)])
    u = f"http://rebind.test:{a.rsplit(':', 1)[1]}/json"
    with pytest.raises(FetchError, match=f'GET {u}: rebind.test resolves to a private address at connect time'): fetch(u)

# ---------------------------------------------------------------- review of the #10 fixes: whole streams, and nothing but harmless headers away from home
def test_truncated_streams_refused(servers):
    "A gzip or zlib stream cut short (the HTTP body complete, or ended by closing) is an error naming the URL, not a short body"
    a, _ = servers
    for p in ('gz-cut', 'gz-cut-close', 'zl-cut', 'raw-cut', 'gz-multi-cut'):
        with pytest.raises(FetchError, match=f'GET {a}/{p}: .*body doesn.t decode: .*cut short'): fetch(f'{a}/{p}', allow_private=True)

def test_gzip_members_decoded_whole(servers):
    "Concatenated gzip members (RFC 1952) are one body: all of them, even 1-byte members arriving a byte first, within max_bytes in all"
    a, _ = servers
    assert fetch(f'{a}/gz-multi', allow_private=True).data == png
    assert fetch(f'{a}/gz-multi-1', allow_private=True).data == png
    with pytest.raises(FetchError, match=f'{a}/gz-members-big is over the 2,000,000 byte limit'): fetch(f'{a}/gz-members-big', allow_private=True, max_bytes=2_000_000)
    assert fetch(f'{a}/gz-pad', allow_private=True).data == png and fetch(f'{a}/gz-junk', allow_private=True).data == png  # what follows a member and isn't one: ignored, as by other clients

def test_deflate_told_on_two_bytes(servers):
    "Raw deflate and zlib-wrapped deflate whose first chunk is a single byte"
    a, _ = servers
    assert fetch(f'{a}/raw1', allow_private=True).data == png and fetch(f'{a}/zl1', allow_private=True).data == png

SAFE = {'accept', 'accept-language', 'user-agent', 'cache-control', 'pragma'}
CREDS = {'Authorization': 'Bearer S1', 'X-Api-Key': 'S2', 'X-Credential': 'S3', 'X-Api-Keys': 'S4', 'X-Access-Key-Id': 'S5', 'X-Key-Id': 'S6',
         'X-Signature': 'S7', 'X-Passwd': 'S8', 'X-Amz-Security-Token': 'S9', 'X-CSRFToken': 'S10', 'X-Trace': 'T'}
HARMLESS = {'Accept': 'image/*', 'Accept-Language': 'en', 'User-Agent': 'me/1', 'Cache-Control': 'no-cache', 'Pragma': 'no-cache'}

def test_only_harmless_headers_leave_home(servers):
    "An allowlist, not a denylist of names: another origin gets the client's harmless headers and msgkit's Accept-Encoding, nothing else"
    a, b = servers
    Handler.seen.clear()
    with httpx.Client(headers={**CREDS, **HARMLESS}, params={'sig': 'SP'}, cookies={'sid': 'SC'}, auth=('u', 'SPW')) as c:
        assert fetch(f"{a}/to/{b.rsplit(':', 1)[1]}/png", client=c, allow_private=True).data == png
    (_, p1, h1), (_, p2, h2) = Handler.seen
    low = lambda h: {k.lower(): v for k, v in h.items()}
    h1, h2 = low(h1), low(h2)
    assert 'sig=SP' in p1 and h1['x-credential'] == 'S3' and 'sid=SC' in h1['cookie']  # the origin they were meant for
    assert p2 == '/png' and set(h2) <= SAFE | {'host', 'accept-encoding'}, h2
    assert all(h2[k.lower()] == v for k, v in HARMLESS.items()) and h2['accept-encoding'] == 'gzip, deflate'

def test_credentials_dont_come_back(servers):
    "A → B → A: once the chain has left the first origin, a hop back to it (to a path B chose) gets no credentials either"
    a, b = servers
    aport, bport = a.rsplit(':', 1)[1], b.rsplit(':', 1)[1]
    Handler.seen.clear()
    with httpx.Client(headers=CREDS, params={'key': 'SP'}, cookies={'sid': 'SC'}, auth=('u', 'SPW')) as c:
        assert fetch(f'{a}/to/{bport}/to/{aport}/png', client=c, allow_private=True).data == png
    (port1, _, h1), (port2, _, _), (port3, p3, h3) = Handler.seen
    assert (port1, port2, port3) == (int(aport), int(bport), int(aport)) and 'Authorization' in h1
    assert p3 == '/png' and not {k.lower() for k in h3} & ({k.lower() for k in CREDS} | {'cookie'}), h3
