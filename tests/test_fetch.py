"Fetching, offline: an httpx.MockTransport plays the web."
import httpx, pytest
from msgkit import sample, media_type
from msgkit.fetch import fetch, FetchError

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
    with pytest.raises(FetchError, match='failed: refused'): fetch('https://example.com/down', client=cli)
    assert issubclass(FetchError, ValueError)

def test_text_types_from_headers_only_when_utf8(cli):
    p = fetch('https://example.com/notes', client=cli)
    assert p.mt=='text/markdown' and p.data.decode()=='# Notes ✓'
    with pytest.raises(FetchError, match="Can't tell the media type"): fetch('https://example.com/latin1', client=cli)

def test_client_left_open(cli):
    fetch('https://example.com/cat.png', client=cli)
    assert not cli.is_closed
