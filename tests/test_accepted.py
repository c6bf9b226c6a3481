"Every message msgkit emits passes the oracle: the SDK types (strict), the real SDK client, and (OpenAI) the OpenAPI spec."
import copy, json, base64
from pathlib import Path
import pytest
from msgkit import *
from oracle import check, openai_response, anthropic_message

png, pdf = sample('gradient.png').read_bytes(), sample('report.pdf').read_bytes()
jpg = bytes.fromhex('ffd8ffe000104a46494600010100000100010000') + b'\0'*16
gif = b'GIF89a\x01\x00\x01\x00\x80\x00\x00' + b'\0'*16
webp = b'RIFF\x24\x00\x00\x00WEBPVP8 ' + b'\0'*16
tif = b'II*\x00\x08\x00\x00\x00' + b'\0'*16
png_uri = 'data:image/png;base64,' + base64.b64encode(png).decode()

# content cases: what a user has in hand
CASES = dict(
    text="Hello, world!", text_list=["Hello", "world"], blank="   ",
    png=[png, "What is this?"], jpg=[jpg, "?"], gif=[gif, "?"], webp=[webp, "?"], png_path=[sample('gradient.png'), "?"],
    png_uri=[png_uri, "?"], img_url=["https://example.com/cat.jpg", "?"],
    pdf=[pdf, "Summarise"], pdf_path=[sample('report.pdf')], pdf_url=["https://arxiv.org/pdf/2506.18880", "Summarise"],
    md_path=[sample('notes.md'), "Summarise"], csv=[media(b'a,b\n1,2\n', 'text/csv'), "Sum column b"],
    lone_pdf_url="https://example.com/report.PDF?dl=1", url_text="see https://example.com/cat.png",
    path_text="/etc/passwd", doc_text=[mk_doc("The grass is green.", api=None, title="Facts"), "What colour?"],
    doc_chunks=[mk_doc(["One.", "Two."], api=None), "?"], doc_pdf=[mk_doc(pdf, api=None, title="Report", context="Q3"), "?"],
)
# (case, api) -> substring of the error, where the API can't take it
ERRORS = {('tif', a): "can't take image (image/tiff)" for a in ('openai','anthropic')}
CASES['tif'] = [tif, "?"]

def apis_(): return ['openai', 'anthropic']

@pytest.mark.parametrize('api', apis_())
@pytest.mark.parametrize('case', list(CASES))
def test_content_accepted(case, api):
    c = copy.deepcopy(CASES[case])
    before = copy.deepcopy(c)
    if (case, api) in ERRORS:
        with pytest.raises(ValueError, match=ERRORS[case, api].replace('(', r'\(').replace(')', r'\)')): mk_msg(c, api=api)
        return
    m = mk_msg(c, api=api)
    assert c == before, "input mutated"
    body = check(api, [m])
    json.dumps(body)

@pytest.mark.parametrize('api', apis_())
def test_history_and_cache_accepted(api):
    h = ["Hello", "Hi! How can I help?", [png, "What is in this picture?"], "A gradient.", "Thanks"]
    for kw in ({}, dict(cache=True), dict(cache=True, cache_last_ckpt_only=True)):
        msgs = mk_msgs(h, api=api, **kw)
        assert [o['role'] for o in msgs] == ['user','assistant','user','assistant','user']
        check(api, msgs)
    msgs = mk_msgs(h, api=api, cache=True, ttl='1h' if api=='anthropic' else '30m')
    check(api, msgs)

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

def test_cross_api_text():
    "An Anthropic reply's text goes into an OpenAI history and back"
    r = anthropic_message(text='The answer is 42.', thinking=False)
    check('openai', mk_msgs(["Q?", r, "Why?"], api='openai'))
    r2 = openai_response(text='The answer is 42.', reasoning=False)
    check('anthropic', mk_msgs(["Q?", r2, "Why?"], api='anthropic'))

def test_dicts_pass_through():
    m = {'role':'user', 'content':[{'type':'input_text', 'text':'hi'}], 'type':'message'}
    assert mk_msg(m) == m and mk_msg(m) is not m
    a = {'role':'assistant', 'content':[{'type':'text', 'text':'hi', 'citations':None}]}
    assert mk_msg(a, api='anthropic') == a
