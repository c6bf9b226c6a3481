"Every message msgkit emits passes the oracle: the SDK types (strict), the real SDK client, and (OpenAI) the OpenAPI spec."
import copy, json, base64
import pytest
from msgkit import *
from msgkit.mediapart import to_part
from msgkit.table import examples, kind_cell
from oracle import check, openai_response, anthropic_message

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
ALL = set(APIS)
png, pdf = sample('gradient.png').read_bytes(), sample('report.pdf').read_bytes()

# Which APIs refuse each kind, from the providers' documented lists; every other cell must pass the oracle
REFUSED = dict(
    gif={'gemini'}, image_data_uri={'gemini'}, heic=ALL-{'gemini'}, tiff=ALL,
    image_url={'bedrock'}, pdf_url={'bedrock','openai_chat'},
    wav={'anthropic','openai'}, mp3={'anthropic','openai'}, flac=ALL-{'gemini','bedrock'}, ogg=ALL-{'gemini','bedrock'},
    aac=ALL-{'gemini','bedrock'}, audio_url=ALL-{'gemini'},
    mp4=ALL-{'gemini','bedrock'}, webm=ALL-{'gemini','bedrock'}, mov=ALL-{'gemini','bedrock'}, avi=ALL-{'gemini'},
    video_url=ALL-{'gemini'}, openai_file=ALL-{'openai','openai_chat'}, anthropic_file=ALL-{'anthropic'},
    gemini_file=ALL-{'gemini'}, s3_image=ALL-{'bedrock'}, docx={'anthropic','gemini','openai_chat'},
)

def test_table_covers_every_api(): assert set(apis(dialects=False)) == ALL  # the dialects: tests/test_dialects.py

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('kind', list(examples))
def test_kind_table_cell(kind, api):
    x = copy.deepcopy(examples[kind])
    block, err = kind_cell(x, api)
    assert x == examples[kind], "input mutated"
    if api in REFUSED.get(kind, ()):
        assert block is None and err, f"{kind} should be refused by {api}"
        p = x if isinstance(x, Part) else to_part(x)
        if 'file' in p: assert f"The file {p.file!r} belongs to api={p.api!r}; api={api!r} can't use it" in err or f"api={api!r} can't take {p.type}" in err, err
        elif 'url' in p and 'by URL' in err: assert f"api={api!r} can't take {p.type} ({p.mt}) by URL: fetch it first" in err, err
        else:
            assert f"api={api!r} can't take {p.type} ({p.mt}): it takes " in err, err
            takers = sorted(a for a in ALL - REFUSED[kind] - {api})
            if takers and 'url' not in p: assert err.endswith(f"; {', '.join(takers)} can"), (err, takers)
        return
    assert err is None, err
    check(api, [mk_msg([x, "What is this?"], api=api)])

# content cases beyond single kinds: lists, blanks, paths, prose
CASES = dict(
    text="Hello, world!", text_list=["Hello", "world"], blank="   ", png_path=[sample('gradient.png'), "?"],
    pdf_path=[sample('report.pdf'), "Summarise"], lone_pdf_path=sample('report.pdf'), md_path=[sample('notes.md'), "Summarise"],
    lone_pdf_url="https://example.com/report.PDF?dl=1", url_text="see https://example.com/cat.png", path_text="/etc/passwd",
    doc_text=[mk_doc("The grass is green.", api=None, title="Facts"), "What colour?"],
    doc_pdf=[mk_doc(pdf, api=None, title="Report", context="Q3"), "?"],
    ant_doc=[mk_ant_doc("The grass is green.", title="My Document"), "What colour?"],
)

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('case', list(CASES))
def test_content_accepted(case, api):
    c = copy.deepcopy(CASES[case])
    if case=='lone_pdf_path' and api=='bedrock':
        with pytest.raises(ValueError, match='needs a text block in a message that holds a document'): mk_msg(c, api=api)
        return
    if case=='lone_pdf_url' and api in ('bedrock','openai_chat'):
        with pytest.raises(ValueError, match='fetch it first'): mk_msg(c, api=api)
        return
    m = mk_msg(c, api=api)
    assert c == CASES[case], "input mutated"
    json.dumps(jsonable(check(api, [m])))

TTL = dict(openai='30m', openai_chat='12h', anthropic='1h', bedrock='5m')

@pytest.mark.parametrize('api', APIS)
def test_history_and_cache_accepted(api):
    h = ["Hello", "Hi! How can I help?", [png, "What is in this picture?"], "A gradient.", "Thanks"]
    for kw in ({}, dict(cache=True), dict(cache=True, cache_last_ckpt_only=True)):
        msgs = mk_msgs(h, api=api, **kw)
        assert [o['role'] for o in msgs] == ['user', 'model' if api=='gemini' else 'assistant']*2 + ['user']
        check(api, msgs)
    if api in TTL: check(api, mk_msgs(h, api=api, cache=True, ttl=TTL[api]))
    else:
        with pytest.raises(ValueError, match='caches.create'): mk_msgs(h, api=api, cache=True, ttl='1h')

def check_request(api, req):
    "Send `mk_request`'s keyword arguments through the oracle"
    req = dict(req)
    msgs = req.pop({'openai':'input', 'gemini':'contents'}.get(api, 'messages'))
    for k in ('model', 'modelId', 'max_tokens'): req.pop(k, None)
    return check(api, msgs, **(req.pop('config') if api=='gemini' else req))

@pytest.mark.parametrize('api', APIS)
def test_system_prompt_accepted(api):
    req = mk_request(["Hello", "Hi!", "Tell me a joke"], api, model='m', system='Be brief.')
    body = check_request(api, req)
    s = json.dumps(body)
    assert 'Be brief.' in s
    where = dict(openai=lambda b: b['instructions'], openai_chat=lambda b: b['messages'][0]['content'],
                 anthropic=lambda b: b['system'], gemini=lambda b: b['systemInstruction']['parts'][0]['text'],
                 bedrock=lambda b: b['system'][0]['text'])
    assert where[api](body) == 'Be brief.'

def test_size_limits():
    big = png + b'\0'*(4*1024*1024)
    with pytest.raises(ValueError, match=r"api='anthropic' takes images of at most 5,242,880 bytes of base64; this image/png is 5,59"):
        mk_msg([big, '?'], api='anthropic')
    with pytest.raises(ValueError, match=r"api='bedrock' takes images of at most 3,932,160 bytes"): mk_msg([big, '?'], api='bedrock')
    check('openai', [mk_msg([big, '?'], api='openai')])
    bigpdf = pdf + b'\0'*(5*1024*1024)
    with pytest.raises(ValueError, match=r"api='bedrock' takes documents of at most 4,718,592 bytes"): mk_msg([bigpdf, '?'], api='bedrock')

def test_openai_response_roundtrip():
    r = openai_response(text='The answer is 42.', reasoning=True)
    msgs = mk_msgs(["What is the answer?", r, "Why?"])
    assert [o.get('type') for o in msgs[1:-1]] == [o.type for o in r.output]
    enc = [o for o in msgs if o.get('type')=='reasoning'][0]['encrypted_content']
    assert enc == [o for o in r.output if o.type=='reasoning'][0].encrypted_content
    check('openai', msgs)
    check('openai', mk_msgs(["What is the answer?", r.model_dump(), "Why?"]))
    check('openai', mk_msgs(["What is the answer?", json.loads(r.model_dump_json()), "Why?"]))

def test_anthropic_message_roundtrip():
    r = anthropic_message(text='The answer is 42.', thinking=True)
    msgs = mk_msgs(["What is the answer?", r, "Why?"], api='anthropic')
    assert msgs[1]['role']=='assistant'
    th = [o for o in msgs[1]['content'] if o['type']=='thinking'][0]
    assert th['signature'] == [o for o in r.content if o.type=='thinking'][0].signature
    check('anthropic', msgs)
    check('anthropic', mk_msgs(["What is the answer?", r.model_dump(), "Why?"], api='anthropic'))

@pytest.mark.parametrize('api', APIS)
def test_history_dicts_from_another_api(api):
    "A history written for one API renders for every other"
    for src in APIS:
        h = mk_msgs(["Hello", "Hi!", [png, "What is this?"]], api=src)
        check(api, mk_msgs(h, api=api))

def test_dicts_pass_through():
    m = {'role':'user', 'content':[{'type':'input_text', 'text':'hi'}], 'type':'message'}
    assert mk_msg(m) == m and mk_msg(m) is not m
    a = {'role':'assistant', 'content':[{'type':'text', 'text':'hi', 'citations':None}]}
    assert mk_msg(a, api='anthropic') == {'role':'assistant', 'content':[{'type':'text', 'text':'hi'}]}  # None fields dropped, as from a dump
    assert a['content'][0]['citations'] is None

def test_fetch_when_asked():
    "A URL an API won't take is fetched only when asked, through the given client, and the result is accepted"
    import httpx
    seen = []
    def site(req):
        seen.append(str(req.url))
        if req.url.path=='/pdf/paper': return httpx.Response(302, headers={'location':'/files/paper.pdf'})
        return httpx.Response(200, content=pdf, headers={'content-type':'text/html'})
    cli = httpx.Client(transport=httpx.MockTransport(site))
    u = "https://example.com/pdf/paper"
    with pytest.raises(ValueError, match='fetch it first'): mk_msg([u, "Summarise"], api='bedrock')
    assert not seen
    for api in ('bedrock', 'openai_chat'):
        m = mk_msg([u, "Summarise"], api=api, fetch=cli)
        check(api, [m])
    assert seen[:2] == [u, "https://example.com/files/paper.pdf"]
    m = mk_msg([u, "Summarise"], api='anthropic', fetch=cli)   # Anthropic takes PDF URLs itself: nothing fetched
    assert m['content'][0]['source'] == {'type':'url', 'url':u} and len(seen)==4
