"""fit=True on real photos made here (a large JPEG, a PNG with alpha, an animated GIF, a CMYK JPEG, a 16-bit PNG), for
every API: the result passes the oracle and the API's image limits, the aspect ratio is kept, and an image within the
limits comes back byte for byte."""
import io, os, warnings
import pytest
from PIL import Image
from msgkit import *
from msgkit.core import mk_toolres
import msgkit.fit
from oracle import check, rules_images

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']

def noise(mode, w, h):
    "A photo's worst case for its size: noise, which no encoder shrinks"
    n = dict(RGB=3, RGBA=4, CMYK=4, L=1)[mode]
    return Image.frombytes(mode, (w, h), os.urandom(w * h * n))

def enc(im, fmt, **kw):
    b = io.BytesIO(); im.save(b, fmt, **kw); return b.getvalue()

def photos():
    big = enc(noise('RGB', 3000, 2250), 'JPEG', quality=95)  # ~ 8 MB, 4:3
    alpha = enc(noise('RGBA', 1800, 1200), 'PNG')  # ~ 8.6 MB, 3:2, transparent
    frames = [Image.new('RGB', (640, 360), c) for c in ('red', 'green', 'blue')]
    b = io.BytesIO(); frames[0].save(b, 'GIF', save_all=True, append_images=frames[1:], duration=100, loop=0)
    cmyk = enc(noise('CMYK', 2400, 1800), 'JPEG', quality=95)
    g16 = Image.frombytes('I;16', (2000, 1500), os.urandom(2000 * 1500 * 2))
    return dict(jpeg=big, alpha=alpha, gif=b.getvalue(), cmyk=cmyk, png16=enc(g16, 'PNG'))

PHOTOS = photos()

def the_image(api, m):
    (mt, b, _), = rules_images(api, [m])
    return mt, b

def fit_msg(x, api):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        m = mk_msg([x, 'Describe this photo.'], api=api, fit=True)
    return m, [l for w in ws if issubclass(w.category, LossWarning) for l in w.message.losses]

def refused(x, api):
    "Would the API refuse `x` as it is? (msgkit's own error without fit=True, or the oracle's limits)"
    try: m = mk_msg([x, 'Describe this photo.'], api=api)
    except ValueError: return True
    try: rules_images(api, [m]); return False
    except AssertionError: return True

@pytest.mark.parametrize('kind', list(PHOTOS))
@pytest.mark.parametrize('api', APIS)
def test_fit_photo(api, kind):
    x = PHOTOS[kind]
    w0, h0 = Image.open(io.BytesIO(x)).size
    m, losses = fit_msg(x, api)
    check(api, [m])  # the SDK's types, the real client
    mt, b = the_image(api, m)  # and the image limits on the decoded image
    if not refused(x, api):
        assert b == x and not losses, 'an image within the limits comes back byte for byte'
        return
    w, h = Image.open(io.BytesIO(b)).size
    assert abs(w / h - w0 / h0) < 0.01, (w0, h0, w, h)
    assert losses and 'fit=True' in losses[0]['why'] and f'{w}×{h}' in losses[0]['why'], losses
    im = Image.open(io.BytesIO(b))
    assert im.mode in ('RGB', 'RGBA', 'L', 'P') and not getattr(im, 'is_animated', False)

def test_which_were_fitted():
    "The cases above are not vacuous: each API refuses some of these photos as they are, and takes others"
    got = {api: {k for k, x in PHOTOS.items() if refused(x, api)} for api in APIS}
    assert got['anthropic'] >= {'jpeg', 'alpha', 'cmyk'} and 'gif' not in got['anthropic']
    assert got['bedrock'] >= {'jpeg', 'alpha', 'cmyk'}
    assert got['gemini'] == {'gif'} and got['openai'] == {'gif'} == got['openai_chat']

def test_recommended_size_and_formats():
    m, _ = fit_msg(PHOTOS['jpeg'], 'anthropic')
    mt, b = the_image('anthropic', m)
    assert mt == 'image/jpeg' and Image.open(io.BytesIO(b)).size == (1568, 1176)  # Claude's long edge, 4:3 kept
    m, _ = fit_msg(PHOTOS['alpha'], 'bedrock')
    mt, b = the_image('bedrock', m)
    assert mt == 'image/png' and Image.open(io.BytesIO(b)).mode == 'RGBA'  # transparency kept
    m, _ = fit_msg(PHOTOS['gif'], 'gemini')
    assert the_image('gemini', m)[0] == 'image/png'  # Gemini takes no GIF
    bmp = enc(Image.new('RGB', (300, 200), 'red'), 'BMP')
    for api in APIS:
        m, _ = fit_msg(bmp, api)
        assert the_image(api, m)[0] == 'image/png'

@pytest.mark.slow  # (session 18: one of the slowest; CI runs it with -m slow)
def test_more_than_20_images_anthropic():
    "'If you submit more than 20 images in one request', 2000 x 2000 px: the oracle fails them as they are, fit=True fits them"
    ims = [enc(Image.new('RGB', (3000, 2000), (i, 0, 0)), 'JPEG') for i in range(21)]
    with pytest.raises(ValueError, match=r"api='anthropic' takes images of at most 2,000 pixels a side in a request of more than 20 images.*fit=True"):
        mk_msgs([ims + ['Compare them.']], 'anthropic')  # refused as they are, as the API would refuse them
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        fitted = mk_msgs([ims + ['Compare them.']], 'anthropic', fit=True)
    check('anthropic', fitted)
    assert all(max(Image.open(io.BytesIO(b)).size) <= 2000 for _, b, _ in rules_images('anthropic', fitted))
    small = mk_msgs([ims[:20] + ['Compare them.']], 'anthropic', fit=True)
    assert small == mk_msgs([ims[:20] + ['Compare them.']], 'anthropic')  # 20 within 8000 px: untouched

def test_fit_through_every_entry_point():
    x = PHOTOS['jpeg']
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        r = mk_request([[x, 'Describe']], 'anthropic', model='m', fit=True)
        h = mk_msgs([[x, 'Describe'], 'A photo.', 'More?'], 'bedrock', fit=True)
        native = mk_msg(x, api='anthropic', fit=True)  # an image already in Anthropic's form, too big: fitted, not passed through
    assert rules_images('anthropic', r['messages']) and rules_images('bedrock', h) and rules_images('anthropic', [native])
    blk = dict(type='image', source=dict(type='base64', media_type='image/jpeg', data=__import__('base64').b64encode(x).decode()))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        m = mk_msg([blk, 'Describe'], api='anthropic', fit=True)
    rules_images('anthropic', [m])
    with pytest.raises(AssertionError, match='over 5 MB'): rules_images('anthropic', [mk_msg([blk, 'Describe'], api='anthropic')])  # as given, it passes through

def test_without_pillow(monkeypatch):
    "Without Pillow the error names the limit and the extra; images that fit need no Pillow"
    monkeypatch.setattr(msgkit.fit, 'decode_image', lambda *a, **kw: None)
    with pytest.raises(ValueError, match=r"api='anthropic' takes images of at most 5 MB of base64.*pip install 'msgkit-llm\[images\]'"):
        mk_msg([PHOTOS['jpeg']], api='anthropic', fit=True)
    with pytest.raises(ValueError, match=r"api='gemini' takes no image/gif .*msgkit-llm\[images\]"): mk_msg([PHOTOS['gif']], api='gemini', fit=True)
    small = enc(Image.new('RGB', (64, 48)), 'PNG')
    assert mk_msg([small], api='anthropic', fit=True) == mk_msg([small], api='anthropic')

def test_exif_orientation_kept():
    "A phone's portrait photo (stored landscape, EXIF orientation 6): re-encoded upright, as it shows"
    im = noise('RGB', 3000, 2000)
    ex = im.getexif(); ex[0x0112] = 6
    x = enc(im, 'JPEG', quality=95, exif=ex)
    m, _ = fit_msg(x, 'anthropic')
    assert Image.open(io.BytesIO(the_image('anthropic', m)[1])).size == (1045, 1568)

def test_animated_gif_without_timing():
    "Frames without a graphic control block are still frames: OpenAI gets the first as a PNG"
    frames = [Image.new('RGB', (64, 64), c) for c in ('red', 'blue', 'green')]
    b = io.BytesIO(); frames[0].save(b, 'GIF', save_all=True, append_images=frames[1:])
    m, _ = fit_msg(b.getvalue(), 'openai')
    assert the_image('openai', m)[0] == 'image/png'
    static = enc(Image.new('RGB', (64, 64), 'red'), 'GIF')
    assert fit_msg(static, 'openai')[0] == mk_msg([static, 'Describe this photo.'], api='openai')

# Review of #11: regression tests, each failing before its fix

def test_one_frame_gif_without_pillow():
    "A one-frame GIF is not animated, Pillow or not: its blocks are counted, not guessed at from a byte pattern"
    import subprocess, sys
    rnd = __import__('random').Random(1)
    ims = [enc(Image.frombytes('L', (60, 40), rnd.randbytes(2400)), 'GIF') for _ in range(200)]
    assert not any(msgkit.fit._animated(o) for o in ims) and sum(o.count(b'\x00\x2c') > 1 for o in ims)  # the old guess misfired on some
    assert msgkit.fit._animated(PHOTOS['gif']) and msgkit.fit._gif_frames(PHOTOS['gif'], most=10) == 3
    red = enc(Image.new('RGB', (300, 200), 'red'), 'GIF')
    code = ("import sys; sys.modules['PIL'] = None\nfrom msgkit import mk_msg\n"
            f"g = {red!r}\nassert mk_msg([g, 'What?'], api='openai', fit=True) == mk_msg([g, 'What?'], api='openai'); print('ok')")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
    assert r.stdout.strip() == 'ok', r.stderr

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
def test_toolres_fit(api):
    "mk_toolres takes fit= as mk_msg does; without it, the error's advice (fit=True) can be followed"
    call = dict(id='call_1', name='camera', args={})
    with pytest.raises(ValueError, match='fit=True'): mk_toolres(call, [PHOTOS['jpeg']], api=api)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = mk_toolres(call, ['The camera shows:', PHOTOS['jpeg']], api=api, fit=True)
    check(api, [mk_msg('Take a photo', api=api), mk_msg({'role':'assistant', 'content':[{'type':'tool_use', 'id':'call_1', 'name':'camera', 'input':{}}]}, api=api), *r])
    (mt, b, _), = rules_images(api, r)
    assert Image.open(io.BytesIO(b)).size == (1568, 1176) and any(issubclass(w.category, LossWarning) for w in ws)

def jpg(w, h): return enc(Image.new('RGB', (w, h), 'white'), 'JPEG')

def test_pixel_limits_without_fit():
    "Without fit=True an image over the API's pixel limit is refused with the limit, the API and fit=True named (it was sent)"
    tall = jpg(1000, 9000)
    for api in ('anthropic', 'bedrock'):
        with pytest.raises(ValueError, match=rf"api='{api}' takes images of at most 8,000 pixels a side; this image is 1000×9000: fit=True"):
            mk_msg([tall, 'Read this'], api=api)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            rules_images(api, [mk_msg([tall, 'Read this'], api=api, fit=True)])
    mk_msg([tall, 'Read this'], api='openai')  # no such limit there
    wide = [jpg(2500, 1500) for _ in range(21)]
    msg = r"api='anthropic' takes images of at most 2,000 pixels a side in a request of more than 20 images \(this one has 21\); image 1 of 21 is 2500×1500: fit=True"
    with pytest.raises(ValueError, match=msg): mk_msgs([wide + ['Compare']], 'anthropic')
    with pytest.raises(ValueError, match=msg): mk_msgs([wide[:11] + ['Compare'], 'Sure.', wide[11:] + ['And these?']], 'anthropic')  # counted over the request
    with pytest.raises(ValueError, match=msg): mk_request([wide + ['Compare']], 'anthropic', model='m', max_tokens=10)
    mk_msgs([wide[:20] + ['Compare']], 'anthropic')
    blk = dict(type='image', source=dict(type='base64', media_type='image/jpeg', data=__import__('base64').b64encode(tall).decode()))
    with pytest.raises(ValueError, match='8,000 pixels'): mk_msgs([{'role':'user', 'content':[blk, {'type':'text', 'text':'Read'}]}], 'anthropic')  # passed through as it is: still checked

def test_grey_stays_grey():
    "A 16-bit grey scan fits as 8-bit L at Claude's recommended size (RGB made it 3 times bigger, so it was shrunk to 1254 px)"
    g16 = enc(Image.frombytes('I;16', (2000, 1500), os.urandom(2000 * 1500 * 2)), 'PNG', optimize=True)
    la = enc(Image.frombytes('LA', (3000, 2000), os.urandom(3000 * 2000 * 2)), 'PNG')
    for api in ('anthropic', 'bedrock'):
        m, _ = fit_msg(g16, api)
        im = Image.open(io.BytesIO(the_image(api, m)[1]))
        assert (im.mode, im.size) == ('L', (1568, 1176)), (api, im.mode, im.size)
    m, _ = fit_msg(la, 'anthropic')
    assert Image.open(io.BytesIO(the_image('anthropic', m)[1])).mode == 'LA'

def test_icc_profile_kept():
    "A photo's ICC profile (a phone's Display P3) travels with the re-encoded pixels; a CMYK profile is applied, not pasted on RGB"
    from PIL import ImageCms
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile('sRGB')).tobytes()
    x = enc(noise('RGB', 3000, 2250), 'JPEG', quality=95, icc_profile=icc)
    for api in ('anthropic', 'bedrock'):
        m, losses = fit_msg(x, api)
        assert losses and Image.open(io.BytesIO(the_image(api, m)[1])).info.get('icc_profile') == icc, api
    png = enc(noise('RGBA', 1800, 1200), 'PNG', icc_profile=icc)
    m, _ = fit_msg(png, 'anthropic')
    assert Image.open(io.BytesIO(the_image('anthropic', m)[1])).info.get('icc_profile') == icc

def test_decompression_bomb_message():
    "A huge image is refused from its header, its size and msgkit's budget named (it was Pillow's limit, after a 196 MB PNG was made)"
    from bombs import png_bomb, jpeg_sized
    with pytest.raises(ValueError, match=r"api='anthropic' takes images of at most 8,000 pixels a side; this 14000×14000 image is 196,000,000 pixels, "
                                         r"more than the 25,000,000 msgkit decodes of one \(msgkit.fit.MAX_PIXELS\)"):
        mk_msg([png_bomb(14000, 14000), 'What is this?'], api='anthropic', fit=True)
    # an eighth a side would be within msgkit's budget, but Pillow won't open it at all
    with pytest.raises(ValueError, match=r"this 30000×10000 image/jpeg is too large to decode safely \(300,000,000 pixels, over Pillow's decompression-bomb limit"):
        mk_msg([jpeg_sized(30000, 10000), 'What is this?'], api='anthropic', fit=True)

def test_limits_in_providers_megabytes(monkeypatch):
    "5 MB and 3.75 MB, as Anthropic and Bedrock document them (5,242,880 and 3,932,160 bytes), not 5.2 MB and 3.9 MB"
    from msgkit.adapters.base import mb as _mb
    assert (_mb(5_242_880), _mb(3_932_160), _mb(20 * 2**20), _mb(512 * 1024)) == ('5 MB', '3.75 MB', '20 MB', '512 KB')
    m, losses = fit_msg(PHOTOS['jpeg'], 'anthropic')
    assert 'at most 5 MB of base64; resized and sent as 1568×1176 image/jpeg' in losses[0]['why'] and losses[0]['what'].endswith('as it was'), losses
    monkeypatch.setattr(msgkit.fit, 'decode_image', lambda *a, **kw: None)
    with pytest.raises(ValueError, match=r"api='bedrock' takes images of at most 3.75 MB; this image/jpeg doesn't fit: fit=True resizes it with Pillow"):
        mk_msg([PHOTOS['jpeg']], api='bedrock', fit=True)

def test_url_and_file_images_count_toward_anthropic_20():
    "Anthropic counts every image of a request for its 2,000-px limit beyond 20: images by URL or file count too (their size the API's to measure)"
    import io
    from PIL import Image
    def png(w, h): b = io.BytesIO(); Image.new('RGB', (w, h)).save(b, 'PNG'); return b.getvalue()
    small, wide = mk_msg(png(100, 100), api='anthropic')['content'][0], mk_msg(png(2001, 10), api='anthropic')['content'][0]
    for extra in ({'type': 'image', 'source': {'type': 'url', 'url': 'https://example.com/a.png'}}, {'type': 'image', 'source': {'type': 'file', 'file_id': 'file_1'}}):
        h = [{'role': 'user', 'content': [small] * 19 + [wide, extra, {'type': 'text', 'text': '?'}]}]
        with pytest.raises(ValueError, match=r'at most 2,000 pixels a side in a request of more than 20 images \(this one has 21\)'): mk_msgs(h, 'anthropic')
        mk_msgs([{'role': 'user', 'content': [small] * 19 + [wide, {'type': 'text', 'text': '?'}]}], 'anthropic')  # 20: within

def test_anthropic_image_url_named_pdf_stays_an_image():
    "An image block's URL is an image whatever its name says (the block's claim is what fetch checks)"
    r = mk_msgs([{'role': 'user', 'content': [{'type': 'image', 'source': {'type': 'url', 'url': 'https://example.com/x.pdf'}}, {'type': 'text', 'text': '?'}]}], 'openai')
    assert r[0]['content'][0]['type'] == 'input_image'
    from oracle import check
    check('openai', r)
