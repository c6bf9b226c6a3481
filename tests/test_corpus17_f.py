"""#17, the corpus's last open class ("same-API replay: items merged/split"): consecutive user turns given in
Anthropic's own form go back as they came. The Messages API combines them itself ("Consecutive user or assistant turns
in your request will be combined into a single turn": the anthropic SDK's `messages` doc), and pydantic-ai's recorded
request (status 200) sends two in a row. Turns msgkit builds (text, tool results from `mk_toolres`) are still joined:
a call's results must be in the very next message."""
import copy, warnings
import pytest
import corpus_check as cc, oracle
import msgkit
from msgkit import mk_msgs, mk_toolres, mk_request
from msgkit.errors import InputError

MID = 'pai-anthropic-test_anthropic_mid_conversation_system-test_mid_conversation_system_prompt_before_another_request-req'
_CASES = {c['id']: c for c in cc.load_cases()}

def test_native_consecutive_users_replay_as_given():
    c = copy.deepcopy(_CASES[MID])
    with warnings.catch_warnings():
        warnings.simplefilter('error', msgkit.LossWarning)  # silent: nothing moved, nothing lost
        r = mk_msgs(cc.history(c), api='anthropic')
    assert [dict(m) for m in r] == c['msgs']  # byte-identical to the request the provider answered with 200
    assert not cc.run_case(c)[('anthropic', 'mk_msgs')]['fails']

def test_native_users_kept_apart_pass_the_sdk_types():
    h = [dict(role='user', content=[dict(type='text', text='Review it again.')]),
         dict(role='user', content=[dict(type='text', text='Review it once more.')])]
    r = mk_msgs(h, api='anthropic')
    assert [dict(m) for m in r] == h
    oracle.check('anthropic', r)
    # mk_request sends them as given too
    assert mk_request(h, api='anthropic', model='claude-sonnet-4-5', max_tokens=10)['messages'] == h

def test_built_turns_still_join():
    "Strings in a row, and text after native text, are msgkit's turns: joined into one user turn as before"
    r = mk_msgs(['a', 'b', 'c'], api='anthropic')  # alternate roles: three turns
    assert [m['role'] for m in r] == ['user', 'assistant', 'user']
    nat = dict(role='user', content=[dict(type='text', text='first')])
    r = mk_msgs([nat, dict(role='user', content='second')], api='anthropic')
    oracle.check('anthropic', r)
    assert len(r) == 2 or [b['text'] for b in r[0]['content']] == ['first', 'second']

def test_native_results_one_per_message_still_join():
    "Results from mk_toolres(api='anthropic'), one per message, join the turn right after the calls (else a 400)"
    calls = [dict(id=f'toolu_{i}', name='get_time', input={}) for i in range(2)]
    asst = dict(role='assistant', content=[dict(type='tool_use', **o) for o in calls])
    res = [mk_toolres(dict(type='tool_use', **o), '9:00', api='anthropic') for o in calls]
    r = mk_msgs(['q', asst, *res], api='anthropic')
    oracle.check('anthropic', r)
    assert len(r) == 3 and [b['tool_use_id'] for b in r[2]['content']] == ['toolu_0', 'toolu_1']

def test_judge_still_catches_a_merge(monkeypatch):
    "The judge's teeth: the two turns merged (as msgkit did before) is still a same-API replay changed"
    c = copy.deepcopy(_CASES[MID])
    ms = c['msgs']
    merged = ms[:2] + [dict(role='user', content=ms[2]['content'] + ms[3]['content'])] + ms[4:]
    monkeypatch.setattr(cc, 'render', lambda case, api, how: (copy.deepcopy(merged), [], None))
    got = cc.replay(c, 'anthropic')
    assert got and got[0][0] == 'same-API replay changed the history' and 'items became' in got[0][1], got

# ---------------------------------------------------------------- LangChain content holding a provider's own forms
# (met while checking the corpus's "nothing left to send" refusals: each was a drop msgkit reported, now read)
AP = 'lc-openai-base-test__construct_responses_api_input_apply_patch_round_trip-L2805-dict'

def test_responses_call_items_in_langchain_content_go_back_to_openai():
    "langchain-openai keeps Responses `apply_patch_call`/`_output` items in an AIMessage's content and sends them as items"
    c = copy.deepcopy(_CASES[AP])
    r = mk_msgs(cc.history(c), api='openai')
    oracle.check('openai', r)
    # what langchain-openai's own test expects `_construct_responses_api_input` to give for these messages
    assert [dict(o) for o in r] == [
        dict(type='apply_patch_call', call_id='call_123', status='completed',
             operation=dict(type='create_file', path='hello.txt', diff='+hello\\n')),
        dict(type='apply_patch_call_output', call_id='call_123', status='completed', output='Created hello.txt')]
    with pytest.raises(InputError, match='nothing of this history is left'):  # to another API: reported drops
        mk_msgs(cc.history(c), api='anthropic')

def test_other_item_like_blocks_stay_unknown():
    "Only tool-call items that fit exactly are lifted: Anthropic's compaction block in LangChain content is not OpenAI's"
    h = [dict(type='human', data=dict(type='human', content='hi')),
         dict(type='ai', data=dict(type='ai', content=[dict(type='compaction', content='Summary.'),
                                                      dict(type='text', text='Hi')])), 'continue']
    with warnings.catch_warnings(record=True):
        warnings.simplefilter('always')
        r = mk_request(h, api='openai', model='gpt-5')
    oracle.check('openai', r['input'])

def _lc_ai(content, tool_calls=(), **kw):
    return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
            "kwargs": {"content": content, "type": "ai", "tool_calls": list(tool_calls), "invalid_tool_calls": [], **kw}}

def _lc_tool(content, tid):
    return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "ToolMessage"],
            "kwargs": {"content": content, "tool_call_id": tid, "type": "tool"}}

CALL = dict(name='my_tool', args=dict(param='value'), id='call_1', type='tool_call')

@pytest.mark.parametrize('where', ['block', 'kwargs'])
def test_gemini_call_signatures_kept_apart_go_on_the_call(where):
    "langchain-google keeps a call's thought signature apart (a `function_call_signature` block by index, or the "
    "`__gemini_function_call_thought_signatures__` map by id): Gemini gets it on that call, as its signature, not the stand-in"
    import base64
    sig = base64.b64encode(b'real_signature').decode()
    ai = (_lc_ai([dict(type='function_call_signature', signature=sig, index=0)], [CALL],
                 response_metadata=dict(model_provider='google_genai')) if where == 'block' else
          _lc_ai('', [CALL], additional_kwargs={'__gemini_function_call_thought_signatures__': {'call_1': sig}}))
    r = mk_request(['q', ai, _lc_tool('ok', 'call_1')], api='gemini', model='gemini-3-pro-preview')
    oracle.check('gemini', r['contents'])
    fc = [p for p in r['contents'][1]['parts'] if 'function_call' in p]
    assert len(fc) == 1 and fc[0]['function_call']['name'] == 'my_tool' and fc[0]['thought_signature'] == b'real_signature'

def test_foreign_signature_blocks_not_used():
    "A signature block from another provider's model is not Gemini's (langchain-google: `model_provider` 'foreign')"
    ai = _lc_ai([dict(type='function_call_signature', signature='c2ln', index=0)], [CALL],
                response_metadata=dict(model_provider='openai'))
    r = mk_request(['q', ai, _lc_tool('ok', 'call_1')], api='gemini', model='gemini-3-pro-preview')
    fc = [p for p in r['contents'][1]['parts'] if 'function_call' in p]
    assert fc[0].get('thought_signature') != b'sig'

def test_langchain_google_media_block():
    "langchain-google's `media` block: Gemini's file_data (with video_metadata as durations) or inline_data"
    h = [dict(type='human', data=dict(type='human', content=[
        dict(type='text', text='What happens here?'),
        dict(type='media', mime_type='video/mp4', file_uri='gs://bucket/clip.mp4',
             video_metadata=dict(start_offset=dict(seconds=5), end_offset='30s')),
        dict(type='media', mime_type='image/png', data=oracle_png_b64())]))]
    r = mk_request(h, api='gemini', model='gemini-2.5-flash')
    oracle.check('gemini', r['contents'])
    ps = r['contents'][0]['parts']
    assert ps[1]['file_data'] == dict(file_uri='gs://bucket/clip.mp4', mime_type='video/mp4')
    assert ps[1]['video_metadata'] == dict(start_offset='5s', end_offset='30s')
    assert ps[2]['inline_data']['mime_type'] == 'image/png'

def test_langchain_google_media_block_bad_offsets_refused():
    "End before start: a clear error (Gemini answers a 500, langchain-google-genai refuses it too), not a request"
    c = copy.deepcopy(_CASES['lc-google-vertexai-chat_models-test_parse_chat_history_gemini_video_offset_validation-L1177'])
    with pytest.raises(InputError, match='start_offset before end_offset'):
        mk_request(cc.history(c), api='gemini', model='gemini-2.5-flash')
    with pytest.raises(InputError, match='needs data or a file_uri'):
        mk_msgs([dict(type='human', data=dict(type='human', content=[dict(type='media', mime_type='image/png')]))],
                api='gemini')

def oracle_png_b64():
    import base64, io
    from PIL import Image
    b = io.BytesIO(); Image.new('RGB', (4, 4)).save(b, 'PNG')
    return base64.b64encode(b.getvalue()).decode()

# ---------------------------------------------------------------- a reviewer's finds (each failed before its fix)
U = lambda *t: dict(role='user', content=[dict(type='text', text=x) for x in t])

@pytest.mark.parametrize('kw', [{}, dict(cache_last_ckpt_only=True), dict(cache=True)])
def test_native_users_apart_with_every_cache_option(kw):
    "Taking cache marks off (cache_last_ckpt_only) leaves a message without marks the same one: still kept apart"
    h = [U('a'), U('b')]
    r = mk_msgs(h, api='anthropic', **kw)
    assert len(r) == 2
    oracle.check('anthropic', r)
    assert len(mk_request(h, api='anthropic', model='claude-sonnet-4-5', **kw)['messages']) == 2

def test_native_text_after_results_stays_apart():
    "User text given as its own message after a results message stays its own (results still join the call's turn)"
    A = dict(role='assistant', content=[dict(type='tool_use', id='toolu_1', name='f', input={})])
    R = dict(role='user', content=[dict(type='tool_result', tool_use_id='toolu_1', content='ok')])
    h = [U('q'), A, R, U('x'), U('y')]
    r = mk_msgs(h, api='anthropic')
    oracle.check('anthropic', r)
    assert [dict(m) for m in r] == h

def test_native_with_blank_block_stays_apart():
    "Dropping a blank text block (which the API refuses) leaves the message one that came as it is"
    r = mk_msgs([U('a'), U('', 'b')], api='anthropic')
    oracle.check('anthropic', r)
    assert [[b['text'] for b in m['content']] for m in r] == [['a'], ['b']]

def _sig_ai(content=(), kwargs=None, meta=None):
    kw = {"content": list(content), "type": "ai", "tool_calls": [dict(CALL)], "invalid_tool_calls": []}
    if kwargs is not None: kw['additional_kwargs'] = kwargs
    if meta is not None: kw['response_metadata'] = meta
    return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"], "kwargs": kw}

@pytest.mark.parametrize('ai, match', [
    (_sig_ai([dict(type='function_call_signature', signature='c2ln', index=[0])]), "index is the call's position"),
    (_sig_ai(kwargs={'__gemini_function_call_thought_signatures__': {'call_1': 5}}), 'base64 text or bytes'),
    (_sig_ai(kwargs={'__gemini_function_call_thought_signatures__': ['c2ln']}), 'maps call ids to signatures')])
def test_bad_signature_fields_get_clear_errors(ai, match):
    from msgkit.errors import InputTypeError
    for api in ('gemini', 'openai'):
        with pytest.raises(InputTypeError, match=match): mk_msgs(['q', ai, _lc_tool('ok', 'call_1')], api=api)

def test_odd_response_metadata_and_unmatched_index():
    "A response_metadata that is no dict says no provider; a signature for a call the message lacks is reported"
    r = mk_msgs(['q', _sig_ai([dict(type='function_call_signature', signature='c2ln', index=0)], meta=[1]),
                 _lc_tool('ok', 'call_1')], api='gemini')
    oracle.check('gemini', r)
    with pytest.warns(msgkit.LossWarning, match='no call to carry them'):
        mk_msgs(['q', _sig_ai([dict(type='function_call_signature', signature='c2ln', index=9)]),
                 _lc_tool('ok', 'call_1')], api='gemini')

@pytest.mark.parametrize('bad', ['abc', True, float('nan'), 'infs', dict(seconds='x'), dict(seconds=[1])])
def test_video_offsets_not_durations_refused(bad):
    "An offset that is no duration is refused naming the field, not dropped silently or sent as 'nans'"
    h = [dict(type='human', data=dict(type='human', content=[dict(
        type='media', mime_type='video/mp4', file_uri='gs://b/c.mp4', video_metadata=dict(start_offset=bad))]))]
    with pytest.raises(InputError, match='start_offset is a duration'): mk_msgs(h, api='gemini')

def test_video_offsets_exact():
    "Durations keep their digits (to the nanosecond) and never take an exponent"
    h = [dict(type='human', data=dict(type='human', content=['see', dict(
        type='media', mime_type='video/mp4', file_uri='gs://b/c.mp4',
        video_metadata=dict(start_offset=1234.567, end_offset=dict(seconds=1234567, nanos=250000000)))]))]
    r = mk_msgs(h, api='gemini')
    oracle.check('gemini', r)
    assert r[0]['parts'][1]['video_metadata'] == dict(start_offset='1234.567s', end_offset='1234567.25s')
