"""Issue #17, group A (documents): corpus classes of text documents, document sources and media inside results, each
judged on a real corpus case (tests/corpus/*.json, loaded by id) by the providers' validators (`oracle`) and by the
content it must keep; the judge refinements also meet the bad form they exist to catch."""
import base64, copy, json
import pytest
import corpus_check as cc, oracle
from msgkit import mk_msg, provider_file
from msgkit.errors import InputError

_CASES = {}
def case(cid):
    if not _CASES: _CASES.update({c['id']: c for c in cc.load_cases()})
    return _CASES[cid]

def judged(cid, api, how='mk_msgs'):
    "`(result, losses, failures)` of one corpus case for one API: the oracle's verdict and the invariants"
    c = case(cid)
    r, losses, err = cc.render(c, api, how)
    assert err is None, err
    fails = [('oracle', o)] if (o := cc.judge_oracle(api, r, how)) else []
    return r, losses, fails + cc.invariants(c, api, r, how, losses)

def texts(msgs):
    return [a[1] for a in cc.atoms(msgs) if a[0] == 'text']

# ---- text added: document sent as text under a heading (judge)
MSGLM = 'msglm-00_core-cell114-output0'  # an Anthropic text document with title and context, sent to OpenAI
NOVA = 'pai-bedrock-test_bedrock-test_bedrock_nova_tool_result_followed_by_document_accepted-req'

@pytest.mark.parametrize('cid,api', [(MSGLM, 'openai'), (MSGLM, 'gemini'), (NOVA, 'openai_chat')])
def test_text_document_under_its_own_title(cid, api):
    r, _, fails = judged(cid, api)
    assert fails == []
    heading = '# My Document\n\nThis is a trustworthy document.\n\nThe grass is green.' if cid == MSGLM else '# Document 1\n\nDummy TXT file'
    assert any(t.startswith(heading) for t in texts(r))

def test_heading_from_nothing_still_fails():
    "The judge still fails a heading that names no title in the input, and a context the input never held"
    c = case(MSGLM)
    r, losses, _ = cc.render(c, 'openai', 'mk_msgs')
    assert cc.invariants(c, 'openai', r, 'mk_msgs', losses) == []  # the heading from the document's own title passes
    for bad in ('# Invented\n\nThis is a trustworthy document.\n\nThe grass is green. The sky is blue.',
                '# My Document\n\nA context from nowhere.\n\nThe grass is green. The sky is blue.'):
        r2 = copy.deepcopy(r); r2[0]['content'][0]['text'] = bad
        assert ('text added: document sent as text under a heading', repr(bad[:60])) in cc.invariants(c, 'openai', r2, 'mk_msgs', losses)

# ---- text added: other (a short base64 text document; a gpt-4o-audio reply's transcript)
LITELLM = 'litellm-factory-anthropic-text-documents'  # text/csv and text/markdown base64 documents holding 'test'
AUDIO = 'docs-openai_chat-audio-reply'

def test_short_base64_text_document_is_its_text():
    r, _, fails = judged(LITELLM, 'openai')
    assert fails == [] and texts(r) == ['test', 'test', 'Summarize both.']

@pytest.mark.parametrize('api', ['anthropic', 'bedrock'])
def test_audio_reply_transcript_is_its_text(api):
    r, _, fails = judged(AUDIO, api)
    assert fails == [] and 'Yes, golden retrievers are known to be a great family dog.' in texts(r)

def test_text_from_nowhere_still_fails():
    c = case(AUDIO)
    r, losses, _ = cc.render(c, 'anthropic', 'mk_msgs')
    assert cc.invariants(c, 'anthropic', r, 'mk_msgs', losses) == []  # the transcript as text passes
    r2 = json.loads(json.dumps(r).replace('golden retrievers are known', 'cats are said'))
    assert any(k == 'text added: other' for k, _ in cc.invariants(c, 'anthropic', r2, 'mk_msgs', losses))

# ---- media lost silently (a Bedrock text document sent to Anthropic as a text source; Gemini grounding sources)
def test_bedrock_text_document_to_anthropic_kept():
    r, _, fails = judged(NOVA, 'anthropic')
    doc = [b for m in r for b in m['content'] if isinstance(b, dict) and b.get('type') == 'document']
    assert fails == [] and doc[0]['source'] == dict(type='text', media_type='text/plain', data='Dummy TXT file\n')
    assert doc[0]['title'] == 'Document 1'

def test_document_dropped_still_fails():
    c = case(NOVA)
    r, losses, _ = cc.render(c, 'anthropic', 'mk_msgs')
    assert cc.invariants(c, 'anthropic', r, 'mk_msgs', losses) == []  # kept as a text source, it passes
    r2 = copy.deepcopy(r); r2[2]['content'] = [b for b in r2[2]['content'] if b.get('type') != 'document']
    assert any(k == 'media lost silently' for k, _ in cc.invariants(c, 'anthropic', r2, 'mk_msgs', losses))

def test_gemini_grounding_sources_are_not_media():
    _, _, fails = judged('pai-gemini-test_structured_output-test_function_tools_with_builtin_tools-resp', 'gemini')
    assert fails == []

# ---- text/* base64 document sent to Anthropic as a base64 source (item 18)
def test_text_base64_document_to_anthropic_as_text_source():
    r, _, fails = judged(LITELLM, 'anthropic')
    assert fails == []
    assert [b['source'] for b in r[0]['content'][:2]] == [dict(type='text', media_type='text/plain', data='test')] * 2
    # a PDF stays the base64 source it was (same-API replay unchanged)
    pdf = case('docs-anthropic-pdf-citations')
    r, _, fails = judged(pdf['id'], 'anthropic')
    assert fails == [] and r[0]['content'][0]['source'] == pdf['msgs'][0]['content'][0]['source']

# ---- Bedrock video format given as a MIME type
@pytest.mark.parametrize('how', ['mk_msgs', 'mk_request'])
def test_bedrock_video_format_name(how):
    r, _, fails = judged('pai-bedrock-test_bedrock-test_video_url_input-req', 'bedrock', how)
    assert [f for f in fails if f[0] == 'oracle'] == []
    assert cc.out_msgs('bedrock', r, how)[0]['content'][1]['video']['format'] == 'mp4'

# ---- base64 text where the SDK wants bytes (Gemini functionResponse.parts inlineData)
def test_gemini_function_response_media_as_bytes():
    c = case('docs-gemini-function-response-parts')
    r, _, fails = judged(c['id'], 'gemini')
    assert fails == []
    blob = r[2]['parts'][0]['functionResponse']['parts'][0]['inlineData']
    src = c['msgs'][2]['parts'][0]['functionResponse']['parts'][0]['inlineData']['data']
    assert blob['data'] == base64.b64decode(src)

# ---- image by file id refused for Chat (expected: Chat's image_url takes a URL or base64 data)
def test_chat_image_by_file_id_says_the_way_out():
    with pytest.raises(InputError, match="takes no image by file id: send its bytes"):
        mk_msg([provider_file('file-abc', 'image/png'), '?'], api='openai_chat')
    rows = cc.run([case('docs-openai-input-file-id-url')])
    assert [r[3] for r in rows if r[1] == 'openai_chat'] == ['expected: Chat: an image by file id (send its bytes or a URL)'] * 2

# ---- citations: expected a list or None, got {}
def test_anthropic_citations_not_a_list_rebuilt():
    r, _, fails = judged('claudette-01_toolloop-cell48-output0', 'anthropic')
    assert fails == [] and 'citations' not in r[2]['content'][0]
    assert r[2]['content'][0]['text'] == 'The email address for customer C1 (John Doe) is **john@example.com**.'

# ---- texts glued (item 3: text split only by citations joins as written)
def test_citation_split_text_joins_as_written():
    r, _, fails = judged('docs-anthropic-pdf-citations', 'openai')
    assert [f for f in fails if f[0] == 'texts glued'] == []
    assert r[1]['content'] == 'According to the document, the grass is green and the sky is blue.'

def test_uncited_blocks_glued_still_fail():
    c = dict(id='x', msgs=[dict(role='user', content='Hi'),
                          dict(role='assistant', content=[dict(type='text', text='bot.'), dict(type='text', text='Answer')])])
    out = [dict(role='user', content='Hi'), dict(role='assistant', content='bot.Answer')]
    assert ('texts glued', "msgs[1]: 'bot.Answer'") in cc.invariants(c, 'openai', out, 'mk_msgs', [])
    c['msgs'][1]['content'][0]['citations'] = [dict(type='char_location', cited_text='bot.', document_index=0)]
    assert cc.invariants(c, 'openai', out, 'mk_msgs', []) == []  # split by a citation: joined as written

# ---- Bedrock document message without a text block refused (a tool's document beside its result)
@pytest.mark.parametrize('cid', ['pai-anthropic-test_multimodal_tool_returns-test_multimodal_tool_return_matrix[tool_return_content-binary-document-anthropic]-req',
                                 'pai-openai-test_multimodal_tool_returns-test_multimodal_tool_return_matrix[tool_return_content-binary-document-openai_responses]-req'])
def test_bedrock_tool_document_goes_into_its_result(cid):
    r, losses, fails = judged(cid, 'bedrock', 'mk_request')
    assert fails == []
    last = r['messages'][-1]['content'] if 'toolResult' in r['messages'][-1]['content'][0] else r['messages'][-2]['content']
    res = [o['toolResult'] for o in last if 'toolResult' in o][0]
    assert [next(iter(o)) for o in res['content']][-1] == 'document' and res['content'][-1]['document']['format'] == 'pdf'
