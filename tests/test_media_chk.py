"`Adapter.media_chk`: each part answered as `chk` answers it (the part itself, or the same error), for every API"
import base64
import pytest
import msgkit
from msgkit.parts import Part
from msgkit.mediapart import media, image_part, LazyMedia
from msgkit.registry import get_api, apis
from msgkit.errors import MsgkitError

PNG = msgkit.sample('gradient.png').read_bytes()

def big(n): return PNG + b'\0' * n  # (a PNG's header: sniffed as one)
def uri(b, mt='image/png'): return f'data:{mt};base64,' + base64.b64encode(b).decode()

def parts():
    "Parts as the short ways meet them, and near misses: each kind, size and form"
    yield 'bytes', image_part(PNG)
    yield 'bytes 4 MB', image_part(big(4 << 20))
    yield 'bytes 6 MB', image_part(big(6 << 20))
    yield 'bytes 21 MB', image_part(big(21 << 20))
    yield 'lazy', media(uri(big(50_000)))
    yield 'lazy 4 MB', media(uri(big(4 << 20)))
    yield 'lazy 6 MB', media(uri(big(6 << 20)))
    yield 'lazy decoded', (lambda p: (p['data'], p)[1])(media(uri(big(50_000))))
    yield 'tiff', Part(type='image', mt='image/tiff', data=b'II*\0' + b'\0' * 100)
    yield 'heic', Part(type='image', mt='image/heic', data=b'\0' * 100)
    yield 'lazy tiff', media(uri(b'II*\0' + b'\0' * 50_000, 'image/tiff'))
    yield 'detail', Part(type='image', mt='image/png', data=PNG, detail='high')
    yield 'url', Part(type='image', mt='image/png', url='https://example.com/a.png')
    yield 'file', Part(type='image', mt='image/png', file='file-abc', api='openai')
    yield 'audio', Part(type='audio', mt='audio/wav', data=b'RIFF' + b'\0' * 100)
    yield 'pdf', Part(type='document', mt='application/pdf', data=b'%PDF-1.4 ' + b'\0' * 100)
    yield 'text', Part(type='text', text='hi')
    yield 'bytearray', Part(type='image', mt='image/png', data=bytearray(PNG))
    yield 'no mt', Part(type='image', data=PNG)

def answer(f, p):
    try: r = f(p)
    except MsgkitError as e: return type(e), str(e)
    return 'same' if r is p else ('other', r)

CASES = list(parts())

@pytest.mark.parametrize('api', apis())
def test_as_chk_answers(api):
    ad = get_api(api)
    f = ad.media_chk
    for name, p in CASES:
        want = answer(ad.chk, p)
        assert answer(f, p) == want, (api, name, want)
        if isinstance(p, LazyMedia) and name != 'lazy decoded': assert p.lazy(), name  # (nothing decoded)

def test_fast_answer_taken():
    "A plain or lazy image the API takes: answered without asking `chk` (else the check would be no faster)"
    ad = get_api('bedrock'); cls = type(ad)
    asked, chk = [], cls.chk
    cls.chk = lambda self, p: asked.append(p) or chk(self, p)  # (on the class: `media_chk` then asks it of every part)
    try:
        ad.media_chk(image_part(PNG)); assert len(asked) == 1
    finally: del cls.chk
    asked.clear()
    real = type(ad).chk
    from msgkit.adapters import base
    base.Adapter.chk = lambda self, p: asked.append(p) or real(self, p)  # (watched: the base's, patched, is another)
    try:
        ad.media_chk(image_part(PNG)); assert len(asked) == 1
    finally: base.Adapter.chk = real
    asked.clear()
    spy = lambda p: asked.append(p) or real(ad, p)
    import msgkit.adapters.base as b
    old = b._base_chks
    b._base_chks = (type(ad).chk,) + old[1:]  # (the shipped ones: a plain image and a lazy one answered at once)
    try:
        ad.media_chk(image_part(PNG)); ad.media_chk(media(uri(big(50_000))))
        assert not asked
    finally: b._base_chks = old

@pytest.mark.parametrize('api', ['openai', 'anthropic', 'gemini', 'bedrock'])
def test_own_rules_asked(api):
    "A `chk`, `takes` or `chk_size` patched (on the class or the adapter): `media_chk` is that `chk`"
    ad = get_api(api); cls = type(ad)
    p = Part(type='image', mt='image/tiff', data=PNG)  # (a type none of them takes: `chk` refuses it)
    with pytest.raises(MsgkitError): ad.media_chk(p)
    for k in ('chk', 'takes', 'chk_size'):
        old = cls.__dict__.get(k)
        setattr(cls, k, (lambda self, p: 'own') if k == 'chk' else (lambda self, p: True))
        try:
            assert answer(ad.media_chk, p) == answer(ad.chk, p)
            if k == 'chk': assert ad.media_chk(p) == 'own'
            if k == 'takes': assert ad.media_chk(p) is p  # (its own `takes` takes it: `chk` says so)
        finally:
            if old is None: delattr(cls, k)
            else: setattr(cls, k, old)
    ad.takes = lambda p: True
    try: assert ad.media_chk(p) is p
    finally: del ad.takes

def test_signature_of_whole_bytes():
    "`image_part` asks `sig_type` of the whole bytes: the type of their first 64, and `filetype`'s where it says"
    import os, random, filetype
    from msgkit.sniff import sig_type
    rng = random.Random(14)
    seeds = [b'\xff\xd8\xff\xe0', b'GIF89a', b'RIFF\0\0\0\0WEBPVP8 ', PNG[:64],
             b'', b'\x89', b'\xff', b'G', b'R', b'%PDF-']
    for s in seeds:
        for _ in range(500):
            h = bytearray(s + os.urandom(rng.randrange(0, 70)))
            for _ in range(rng.randrange(0, 3)):
                if h: h[rng.randrange(len(h))] = rng.randrange(256)
            h = bytes(h)
            mt = sig_type(h)
            assert mt == sig_type(h[:64]), h
            if mt:
                k = filetype.guess(h)
                assert k is not None and k.mime == mt, (h, mt, k and k.mime)
                assert image_part(h)['mt'] == mt
