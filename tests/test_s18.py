"""Session 18: the three defects review s17 left as strict xfails, each class checked beyond its example.

- A call's thought signature that the target carries on its own call is not reported lost (Gemini's `function_call`
  part, a LangChain call's `function_call_signature`, to `gemini_openai`), and still is where the target takes none.
- A Chat call's signature held as bytes goes to `gemini_openai` as base64 text (the body is JSON), as Gemini's own
  `function_call` signature does.
- A call id some history repeats: each result takes the name of the call it answers (the oldest still open, or the one
  its own name names), in one turn or across turns; Gemini's `function_response.name` is checked against its call's."""
import base64, copy, json, sys
from pathlib import Path
import pytest
import msgkit
import oracle
from test_corpus17_d import losses as run
sys.path.insert(0, str(Path(__file__).parent/'dialects'))
import checks  # (each dialect's server artefact and rules: `test_dialects`)

def gem_check(h):
    "The wire body msgkit makes of `h` for gemini_openai, checked by the endpoint's artefact and rules"
    body = msgkit.mk_request(copy.deepcopy(h), 'gemini_openai', model='gemini-3-flash-preview', wire=True)
    checks.check('gemini_openai', body)

SIG = base64.b64encode(b'\x12\x34signature-bytes').decode()
Q = dict(role='user', content='hi')
def call(i, name='f', ex=None, args='{"a": 1}'):
    return dict(id=i, type='function', function=dict(name=name, arguments=args),
                **({'extra_content': ex} if ex else {}))
def gsig(s): return dict(google=dict(thought_signature=s))
def tool(i, c='1'): return dict(role='tool', tool_call_id=i, content=c)
def msgs(h, api): return run(lambda: msgkit.mk_msgs(copy.deepcopy(h), api))
GEM = [dict(role='user', parts=[dict(text='hi')]),
       dict(role='model', parts=[dict(function_call=dict(id='c1', name='f', args={}),
                                      thought_signature=base64.b64decode(SIG))]),
       dict(role='user', parts=[dict(function_response=dict(id='c1', name='f', response=dict(output='1')))])]

def test_gemini_signature_carried_not_reported():
    r, ls = msgs(GEM, 'gemini_openai')
    assert r[1]['tool_calls'][0]['extra_content'] == gsig(SIG) and not ls, ls
    gem_check(GEM)

@pytest.mark.parametrize('api', ['openai_chat', 'anthropic', 'openrouter'])
def test_gemini_signature_still_reported_where_not_taken(api):
    r, ls = msgs(GEM, api)
    assert any('thought_signature' in l['what'] or 'signature' in l['what'] for l in ls), ls
    assert 'extra_content' not in json.dumps(r, default=str)

def test_gemini_text_signature_reported_to_gemini_openai():
    "A signature on a text part (not a call) has no place in gemini_openai: still reported"
    h = [GEM[0], dict(role='model', parts=[dict(text='thinking done', thought_signature=base64.b64decode(SIG))]),
         dict(role='user', parts=[dict(text='ok')])]
    _, ls = msgs(h, 'gemini_openai')
    assert any('thought_signature' in l['what'] for l in ls), ls

def test_langchain_signature_to_gemini_openai():
    "LangChain's `function_call_signature` block (langchain-google-genai) is carried to gemini_openai, not reported"
    pytest.importorskip('langchain_core')
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    ai = AIMessage(content=[dict(type='function_call_signature', signature=SIG, index=0)],
                   tool_calls=[dict(id='c1', name='f', args={'a': 1})])
    h = [HumanMessage('hi'), ai, ToolMessage('1', tool_call_id='c1')]
    r, ls = run(lambda: msgkit.mk_msgs(h, 'gemini_openai'))
    assert r[1]['tool_calls'][0]['extra_content'] == gsig(SIG), r[1]
    assert not [l for l in ls if 'signature' in l['what']], ls

@pytest.mark.parametrize('how', ['mk_msgs', 'mk_request'])
def test_bytes_signature_to_gemini_openai_is_text(how):
    h = [Q, dict(role='assistant', content=None, tool_calls=[call('c1', ex=gsig(base64.b64decode(SIG)))]), tool('c1')]
    f = (lambda: msgkit.mk_msgs(copy.deepcopy(h), 'gemini_openai')) if how=='mk_msgs' else \
        (lambda: msgkit.mk_request(copy.deepcopy(h), 'gemini_openai', model='m')['messages'])
    r, ls = run(f)
    json.dumps(r)  # (the body is JSON: no bytes in it)
    assert r[1]['tool_calls'][0]['extra_content'] == gsig(SIG) and not ls, ls
    gem_check(h)

def test_text_signature_chat_call_goes_as_it_came():
    "The same call with its signature as text is the endpoint's own form: it goes back byte for byte"
    h = [Q, dict(role='assistant', content=None, tool_calls=[call('c1', ex=gsig(SIG))]), tool('c1')]
    r, ls = msgs(h, 'gemini_openai')
    assert [dict(m) for m in r] == h and not ls

def _pairs(r):
    ps = [p for m in r for p in m['parts']]
    calls = [(p['function_call']['id'], p['function_call']['name']) for p in ps if 'function_call' in p]
    resps = [(p['function_response']['id'], p['function_response']['name']) for p in ps if 'function_response' in p]
    return calls, resps

def test_repeated_id_in_one_turn_gemini():
    h = [Q, dict(role='assistant', content=None, tool_calls=[call('c1', 'f'), call('c1', 'g')]),
         tool('c1', '1'), tool('c1', '2')]
    r, _ = msgs(h, 'gemini')
    calls, resps = _pairs(r)
    assert [n for _, n in calls] == ['f', 'g'] and calls == resps, (calls, resps)
    oracle.check('gemini', r)

def test_id_reused_across_turns_gemini():
    "Servers that number calls per turn (`call_0` each time): each turn's result takes its own turn's call's name"
    h = [Q, dict(role='assistant', content=None, tool_calls=[call('call_0', 'f')]), tool('call_0', '1'),
         dict(role='assistant', content=None, tool_calls=[call('call_0', 'g')]), tool('call_0', '2')]
    r, _ = msgs(h, 'gemini')
    calls, resps = _pairs(r)
    assert [n for _, n in resps] == ['f', 'g'], resps
    oracle.check('gemini', r)

def test_repeated_id_results_named_out_of_order():
    "Results that name their tools, in the other order: each keeps the name it gives (Anthropic blocks read, to Gemini)"
    h = [dict(role='user', content='hi'),
         dict(role='assistant', content=[dict(type='tool_use', id='t1', name='f', input={}),
                                         dict(type='tool_use', id='t2', name='g', input={})]),
         dict(role='user', content=[dict(type='tool_result', tool_use_id='t2', content='2'),
                                    dict(type='tool_result', tool_use_id='t1', content='1')])]
    r, _ = msgs(h, 'gemini')
    calls, resps = _pairs(r)
    assert sorted(calls) == sorted(resps), (calls, resps)
    oracle.check('gemini', r)

# ---------------------------------------------------------------- a message's own fields other formats write
# Ollama's chat messages (ollama-python `Message`: role, content, thinking, images, tool_calls, tool_name; its REST
# API's images are base64 text) and lisette's/litellm's message-level `cache_control` were dropped without a report.
import warnings
from msgkit.errors import InputError, InputTypeError
PNG = msgkit.sample('gradient.png').read_bytes()
B64 = base64.b64encode(PNG).decode()
OLLAMA_IMG = [dict(role='user', content='What is in this picture?', images=[B64])]

def _media_count(r, api):
    s = json.dumps(r, default=lambda b: '<bytes>')
    return {'anthropic': s.count('"type": "image"'), 'openai_chat': s.count('"type": "image_url"'),
            'openai': s.count('"type": "input_image"'), 'gemini': s.count('"inline_data"'),
            'bedrock': s.count('"image"')}[api]

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock'])
@pytest.mark.parametrize('form', ['b64', 'bytes', 'two'])
def test_ollama_images_read(api, form):
    ims = {'b64': [B64], 'bytes': [PNG], 'two': [B64, PNG]}[form]
    h = [dict(role='user', content='What is in this picture?', images=ims)]
    r, ls = msgs(h, api)
    assert not ls, ls
    assert _media_count(r, api) == len(ims)
    oracle.check(api, r)
    assert 'What is in this picture?' in json.dumps(r, default=str)

def test_ollama_images_bad():
    with pytest.raises(InputError, match=r"images \(Ollama's\) is not base64 text"):
        msgkit.mk_msgs([dict(role='user', content='x', images=['not base64!'])], 'anthropic')
    with pytest.raises(InputTypeError, match=r"images \(Ollama's\) are a list"):
        msgkit.mk_msgs([dict(role='user', content='x', images=B64)], 'anthropic')
    with pytest.raises(InputTypeError, match=r"base64 text, bytes or a Path, not int"):
        msgkit.mk_msgs([dict(role='user', content='x', images=[3])], 'anthropic')

def test_ollama_thinking_is_reasoning():
    h = [dict(role='user', content='hi'), dict(role='assistant', content='hello', thinking='The user greets me.')]
    r, ls = msgs(h, 'anthropic')  # (unsigned reasoning: no API but a compatible server takes it back; reported)
    assert any('reasoning' in l['what'] for l in ls), ls
    oracle.check('anthropic', r)
    r = msgkit.mk_msgs(copy.deepcopy(h), 'openai_chat', reasoning_field='reasoning_content')
    assert r[1]['reasoning_content'] == 'The user greets me.'

def test_ollama_tool_name_on_tool_message():
    "Ollama names a result's tool in `tool_name`: Gemini's function_response takes that name (with images beside it)"
    h = [dict(role='user', content='q'),
         dict(role='assistant', content='', tool_calls=[dict(function=dict(name='get_weather',
                                                                          arguments={'city': 'Paris'}))]),
         dict(role='tool', content='sunny', tool_name='get_weather', images=[B64])]
    r, _ = msgs(h, 'gemini')
    oracle.check('gemini', r)
    fr = [p['function_response'] for m in r for p in m['parts'] if 'function_response' in p]
    assert [f['name'] for f in fr] == ['get_weather']

LISETTE = [dict(role='user', content='Hey there!', cache_control={'type': 'ephemeral'})]  # lisette nbs/00_core.ipynb

def test_message_cache_control_carried():
    r, ls = msgs(LISETTE, 'anthropic')
    assert r[0]['content'] == [dict(type='text', text='Hey there!', cache_control={'type': 'ephemeral'})] and not ls
    oracle.check('anthropic', r)
    r, ls = msgs(LISETTE, 'bedrock')
    assert r[0]['content'][-1] == {'cachePoint': {'type': 'default'}} and not ls
    oracle.check('bedrock', r)
    sy = dict(role='system', content='Be brief.', cache_control={'type': 'ephemeral'})
    body = msgkit.mk_request([sy, 'q'], 'anthropic', model='m')
    assert body['system'] == [dict(type='text', text='Be brief.', cache_control={'type': 'ephemeral'})]

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'gemini'])
def test_message_cache_control_reported_where_not_taken(api):
    r, ls = msgs(LISETTE, api)
    assert any('cache_control' in l['what'] for l in ls), ls
    oracle.check(api, r)

@pytest.mark.parametrize('h', [
    [dict(role='user', content=[dict(type='text', text='a'),
                                dict(type='image_url', image_url=dict(url='data:image/png;base64,' + B64))],
          cache_control={'type': 'ephemeral'})],
    [dict(role='user', content='q'), dict(role='assistant', content=None, tool_calls=[call('c1', args='{}')]),
     dict(role='tool', tool_call_id='c1', content='res', cache_control={'type': 'ephemeral'})]],
    ids=['image-last', 'tool'])
def test_message_cache_control_without_text_reported(h):
    "A mark msgkit can't place on the message's text (its last block an image; a tool's result): reported, never silent"
    r, ls = msgs(h, 'anthropic')
    assert any("cache_control of a message" in l['what'] for l in ls), ls
    oracle.check('anthropic', r)

# ---------------------------------------------------------------- OpenRouter's text parts take the mark
# (its SDK's ChatContentText.cache_control; "The cache_control breakpoint can only be inserted into the text part of a
# multipart message": https://openrouter.ai/docs/features/prompt-caching). Before: reported lost.
MARKED = [dict(role='system', content='Be brief.', cache_control={'type': 'ephemeral'}),
          dict(role='user', content=[dict(type='text', text='doc', cache_control={'type': 'ephemeral', 'ttl': '1h'}),
                                     dict(type='text', text='Summarise it.')]),
          dict(role='assistant', content='ok'), dict(role='user', content='Hey', cache_control={'type': 'ephemeral'})]

def or_body(h):
    return run(lambda: msgkit.mk_request(copy.deepcopy(h), 'openrouter', model='anthropic/claude-sonnet-4.5', wire=True))

def test_openrouter_keeps_marks():
    b, ls = or_body(MARKED)
    checks.check('openrouter', b)
    assert not ls, ls
    m = b['messages']
    assert m[0]['content'] == [dict(type='text', text='Be brief.', cache_control={'type': 'ephemeral'})]
    assert m[1]['content'][0]['cache_control'] == {'type': 'ephemeral', 'ttl': '1h'}
    assert m[3]['content'] == [dict(type='text', text='Hey', cache_control={'type': 'ephemeral'})]

def test_openrouter_marks_from_anthropic_blocks():
    h = [dict(role='user', content=[dict(type='text', text='doc', cache_control={'type': 'ephemeral'})]),
         dict(role='assistant', content='ok'), dict(role='user', content='q')]
    b, ls = or_body(h)
    checks.check('openrouter', b)
    assert b['messages'][0]['content'][0]['cache_control'] == {'type': 'ephemeral'} and not ls

def test_openrouter_marked_history_replays_as_given():
    h = [dict(role='user', content=[dict(type='text', text='doc', cache_control={'type': 'ephemeral'})]),
         dict(role='assistant', content='ok')]
    r, ls = msgs(h, 'openrouter')
    assert [dict(m) for m in r] == h and not ls

@pytest.mark.parametrize('api', ['deepseek', 'vllm', 'openai_chat'])
def test_other_chat_servers_still_report_marks(api):
    r, ls = msgs(MARKED, api)
    assert sum('cache_control' in l['what'] for l in ls) == 3, ls

@pytest.mark.parametrize('cc', [{'type': 'persistent'}, {'type': 'ephemeral', 'ttl': '2h'}, {'type': 'ephemeral', 'x': 1}])
@pytest.mark.parametrize('api', ['anthropic', 'bedrock', 'openrouter'])
def test_message_mark_no_api_takes_reported(cc, api):
    "litellm's tests' marks of another type or ttl: reported, never sent (Anthropic's CacheControlEphemeralParam)"
    h = [dict(role='user', content='Hey there!', cache_control=cc)]
    r, ls = msgs(h, api)
    assert any('cache_control' in l['what'] for l in ls), ls
    assert 'cache_control' not in json.dumps(r) and 'cachePoint' not in json.dumps(r)
    if api != 'openrouter': oracle.check(api, r)

def test_message_mark_none_ttl_is_no_ttl():
    "A mark dumped with its Nones (`ttl: None`) is the mark without a ttl"
    r, ls = msgs([dict(role='user', content='Hey there!', cache_control={'type': 'ephemeral', 'ttl': None})], 'anthropic')
    assert r[0]['content'] == [dict(type='text', text='Hey there!', cache_control={'type': 'ephemeral'})] and not ls
    oracle.check('anthropic', r)
