"msglm's notebook examples that need no live API: msgkit gives the same messages, apart from the documented differences."
import copy, json
import msglm
from msgkit import *

img, pdf = sample('gradient.png').read_bytes(), sample('report.pdf').read_bytes()
pdf_url = "https://arxiv.org/pdf/2506.18880"

def same(f, *args, **kw):
    a,b = getattr(msglm, f)(*args, **kw), globals()[f](*args, **kw)
    assert a==b, f"{f}{args}: msglm {a} != msgkit {b}"
    return b

def test_same_as_msglm():
    same('mk_msg', "Hello, world!")
    same('mk_msg', ["Hello world", "how are you?"], api='openai')
    same('mk_msg', ["Hello world", "how are you?"], api='anthropic')
    same('mk_msg', [img, "describe this picture"], api='anthropic')
    same('mk_msg', [pdf, "what was the average monthly revenue for product D?"], api='anthropic')
    same('mk_msg', [pdf_url, "What were the three types of generalization?"], api='anthropic')
    same('mk_msg', "   ", api='anthropic')
    same('mk_msgs', ["Hello", "Some assistant response", "tell me a joke"])
    same('mk_msgs', ["Hello", "Some assistant response", "tell me a joke"], api='anthropic')
    same('mk_msg_anthropic', "Don't cache my message")
    same('mk_msg_anthropic', "Please cache my message", cache=True)
    same('mk_msg_anthropic', "Cache for 1 hour", cache=True, ttl="1h")
    same('mk_msgs_anthropic', ["a", "b", "c"], cache=True)
    same('mk_ant_doc', "The grass is green. The sky is blue.", title="My Document", context="This is a trustworthy document.")
    same('mk_ant_doc', pdf, citation=False)
    assert mk_msg("Hello").content == msglm.mk_msg("Hello").content  # attribute access, as msglm

def test_differs_image_detail():
    "OpenAI's spec requires `detail` on input_image; msglm left it out"
    a,b = msglm.mk_msg([img, "describe"], api='openai'), mk_msg([img, "describe"], api='openai')
    assert 'detail' not in a.content[0] and b.content[0]['detail']=='auto'
    assert {k:v for k,v in b.content[0].items() if k!='detail'} == a.content[0]

def test_differs_lone_pdf_url():
    "msglm gave a lone PDF URL non-list content, which Anthropic rejects"
    assert isinstance(msglm.mk_msg(pdf_url, api='anthropic').content, dict)
    assert mk_msg(pdf_url, api='anthropic').content == [{'type':'document', 'source':{'type':'url', 'url':pdf_url}}]

def test_differs_openai_pdf():
    "msglm crashed on PDFs for OpenAI; msgkit sends an input_file"
    try: msglm.mk_msg([pdf, 'summarise'], api='openai'); crashed = False
    except AttributeError: crashed = True
    assert crashed
    assert mk_msg([pdf, 'summarise'], api='openai').content[0]['file_data'].startswith('data:application/pdf;base64,')

def test_differs_unknown_kwargs():
    "msglm put unknown keyword arguments into the message as fields"
    assert msglm.mk_msg('hi', name='bob')['name']=='bob'
    try: mk_msg('hi', name='bob'); raised = False
    except TypeError as e: raised = "unexpected keyword argument 'name'" in str(e)
    assert raised

def test_cache_does_not_mutate():
    "The cache helpers work on copies: the caller's history keeps its own cache marks"
    h = [{'role':'user', 'content':[{'type':'text', 'text':'doc', 'cache_control':{'type':'ephemeral'}}]}, 'ok', 'q']
    h2 = copy.deepcopy(h)
    r = mk_msgs_anthropic(h2, cache=True, cache_last_ckpt_only=True)
    assert h2 == h and 'cache_control' not in r[0].content[0] and r[-1].content[-1]['cache_control']=={'type':'ephemeral'}
    r2 = mk_msgs_anthropic(r + ['more', 'again'], cache=True, cache_last_ckpt_only=True)
    assert r[-1].content[-1]['cache_control']=={'type':'ephemeral'} and 'cache_control' not in r2[2].content[-1]

def test_differs_unknown_bytes():
    "msglm put bytes it did not recognise into the message, where json.dumps fails"
    assert msglm.mk_msg([b'\x00\x01\x02', 'hi'], api='anthropic').content[0] == b'\x00\x01\x02'
    try: mk_msg([b'\x00\x01\x02', 'hi'], api='anthropic'); raised = False
    except ValueError as e: raised = "Can't tell the media type" in str(e)
    assert raised

def test_differs_unknown_api():
    "msglm treated any api it did not know as Anthropic"
    assert msglm.mk_msg(['a','b'], api='claude').content[0]['type']=='text'
    try: mk_msg(['a','b'], api='claude'); raised = False
    except ValueError as e: raised = "Unknown api 'claude'" in str(e) and 'anthropic' in str(e)
    assert raised

def test_differs_anthropic_doc_in_openai_msg():
    "msglm put an Anthropic document block into an OpenAI message as it was; msgkit translates it"
    doc = mk_ant_doc("The grass is green.", title="My Document")
    a = msglm.mk_msg([doc, "What color is the grass?"])
    assert a.content[0]['type']=='document'
    b = mk_msg([doc, "What color is the grass?"])
    assert b.content[0] == {'type':'input_text', 'text':'# My Document\n\nThe grass is green.'}

def test_differs_doc_chunks():
    "msglm put plain strings in a content source; Anthropic takes text blocks there"
    a,b = msglm.mk_ant_doc(["First chunk", "Second chunk"]), mk_ant_doc(["First chunk", "Second chunk"])
    assert a['source']['content'] == ["First chunk", "Second chunk"]
    assert b['source']['content'] == [{'type':'text', 'text':'First chunk'}, {'type':'text', 'text':'Second chunk'}]
    assert mk_ant_doc([{'type':'text', 'text':'First chunk'}, "Second chunk"]) == b

def test_differs_sdk_objects_become_dicts():
    "msglm put the OpenAI SDK's output items into the history as they were; msgkit gives their plain-dict form"
    import sys; sys.path.insert(0, str(__import__('pathlib').Path(__file__).parent))
    from oracle import openai_response, anthropic_message
    r = openai_response(text='A joke.', reasoning=True)
    a, b = msglm.mk_msgs(["tell me a joke", r, "another"]), mk_msgs(["tell me a joke", r, "another"])
    assert a[1:-1] == list(r.output) and all(hasattr(o, 'model_dump') for o in a[1:-1])
    assert b[1:-1] == [_with_logprobs(o.model_dump(mode='json', exclude_none=True)) for o in r.output]
    assert json.dumps(b)
    m = anthropic_message(text='Hi', thinking=True)
    a = msglm.mk_msg(m, api='anthropic')
    assert a['content'] == list(m.content)          # SDK block objects
    assert mk_msg(m, api='anthropic')['content'] == [o.model_dump(mode='json', exclude_none=True) for o in m.content]

def _with_logprobs(d):
    if d.get('type')=='message': d['content'] = [{'logprobs':[], **c} if c.get('type')=='output_text' else c for c in d['content']]
    return d
