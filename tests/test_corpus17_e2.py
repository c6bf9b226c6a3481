"""#17 group E2: same-API replay, placeholders, text order, thinking: each class of corpus failures with a test built from
its real corpus case (loaded by id through `corpus_check`), judged by the oracle and by the content it must keep."""
import copy, warnings
import pytest
import corpus_check as cc, oracle
import msgkit
from msgkit import LossWarning

_CASES = {c['id']: c for c in cc.load_cases()}
def case(i): return copy.deepcopy(_CASES[i])

def fails(c, api, how):
    "The failure kinds of case `c` rendered for `api` by `how` (the oracle's and the invariants')"
    r, losses, err = cc.render(c, api, how)
    assert err is None, err
    o = cc.judge_oracle(api, r, how)
    if o and not (how == 'mk_msgs' and r == []): return ['oracle: ' + o]
    return [k for k, _ in cc.invariants(c, api, r, how, losses)]

def render(c, api):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = msgkit.mk_msgs(cc.history(c), api=api)
    return r, [l for w in ws if issubclass(w.category, LossWarning) for l in w.message.losses]

# ---------------------------------------------------------------- text lost / text order changed (judge)
FS = 'pai-gemini-test_google-test_google_model_file_search_tool-resp'

def test_grounding_metadata_is_not_content():
    "A Gemini candidate's groundingMetadata (retrieved chunks, supported segments) is no text of the history"
    c = case(FS)
    for api in ('gemini', 'anthropic', 'openai'):
        got = fails(c, api, 'mk_msgs')
        assert 'text lost' not in got and 'text order changed' not in got, (api, got)
    r, _ = render(c, 'gemini')
    oracle.check('gemini', r)
    assert 'The Eiffel Tower is a world-renowned landmark' in r[3]['parts'][0]['text']

def test_grounding_judge_still_catches_lost_answer():
    "The candidate's own text, dropped from the output, is still 'text lost'"
    c = case(FS)
    r, losses, _ = cc.render(c, 'gemini', 'mk_msgs')
    bad = copy.deepcopy(r); bad[3]['parts'] = [dict(text='Something else.')]
    assert 'text lost' in [k for k, _ in cc.invariants(c, 'gemini', bad, 'mk_msgs', losses)]

# ---------------------------------------------------------------- placeholder '.' text
def test_empty_mid_system_dropped_not_dotted():
    "litellm's empty mid-history system message: back to Chat as it came; for Claude no message, never '.'"
    c = case('litellm-mid-empty-system')
    r, losses = render(c, 'openai_chat')
    assert r == c['msgs'] and not losses
    oracle.check('openai_chat', r)
    r, losses = render(c, 'anthropic')
    oracle.check('anthropic', r)
    assert [m['content'] for m in r] == ['q1', 'a1'] and not losses

@pytest.mark.parametrize('cid', ['pydantic-ai-tests-google-test_google_prepends_empty_user_turn_when_first_content_is_model-L6556',
                                 'pai-gemini-test_google-test_google_instructions_only_with_tool_calls-req'])
def test_empty_leading_user_turn(cid):
    "pydantic-ai's empty user turn before a model call: Claude gets the history from the call, no '.' as anyone's words"
    c = case(cid)
    r, _ = render(c, 'anthropic')
    oracle.check('anthropic', r)
    assert r[0]['role'] == 'assistant' and r[0]['content'][0]['type'] == 'tool_use'
    assert "text added: placeholder '.' text" not in fails(c, 'anthropic', 'mk_msgs')
    # Converse needs a user turn first, with text that isn't blank: the one character stands for the input's empty turn
    r, _ = render(c, 'bedrock')
    oracle.check('bedrock', r)
    assert r[0] == {'role': 'user', 'content': [{'text': '.'}]}
    assert fails(c, 'bedrock', 'mk_msgs') == []

def test_dot_judge_still_catches_model_words():
    "The judge excuses only the leading stand-in: '.' as the model's words still fails"
    c = case('pydantic-ai-tests-google-test_google_prepends_empty_user_turn_when_first_content_is_model-L6556')
    r, losses, _ = cc.render(c, 'bedrock', 'mk_msgs')
    bad = copy.deepcopy(r); bad[1]['content'].insert(0, {'text': '.'})
    assert "text added: placeholder '.' text" in [k for k, _ in cc.invariants(c, 'bedrock', bad, 'mk_msgs', losses)]
    c2 = dict(c, msgs=[dict(role='user', parts=[dict(text='Hi')])] + c['msgs'][1:])  # the input's first turn not empty
    bad2 = [{'role': 'user', 'content': [{'text': '.'}]}] + r[1:]
    assert "text added: placeholder '.' text" in [k for k, _ in cc.invariants(c2, 'bedrock', bad2, 'mk_msgs', losses)]

# ---------------------------------------------------------------- thinking lost silently
def test_reasoning_content_beside_thinking_blocks_reported():
    "litellm's reasoning_content that isn't its thinking_blocks' text: the signed blocks go to Claude, the text is reported"
    c = case('litellm-factory-thinking-none-content')
    for api in ('anthropic', 'bedrock'):
        r, losses = render(c, api)
        oracle.check(api, r)
        assert any('reasoning_content' in l['what'] for l in losses), losses
        assert 'thinking lost silently' not in fails(c, api, 'mk_msgs')
    r, _ = render(c, 'anthropic')
    assert r[1]['content'][0] == {'type': 'thinking', 'thinking': 'This is a test thinking block', 'signature': 'test-signature'}
    # the same text as the blocks' (litellm's own responses): nothing to report
    h = copy.deepcopy(cc.history(c)); h[1]['reasoning_content'] = 'This is a test thinking block'
    with warnings.catch_warnings():
        warnings.simplefilter('error', LossWarning)
        msgkit.mk_msgs(h, api='anthropic')

# ---------------------------------------------------------------- same-API replay: value of 'id' changed
@pytest.mark.parametrize('cid,api', [('litellm-factory-same-id-two-turns', 'openai_chat'),
    ('pai-anthropic-test_tool_search-test_cross_provider_capability_replay[google-gemini-3-flash-preview-anthropic-claude-sonnet-4-5]-req', 'anthropic')])
def test_same_id_in_two_turns_replayed(cid, api):
    "An id a later turn uses again, in the API's own form (api.anthropic.com answered 200 to it): back as it came"
    c = case(cid)
    r, _ = render(c, api)
    oracle.check(api, r)
    assert cc.diff(cc._canon(c['msgs'], api), cc._canon(r, api)) == []
    assert fails(c, api, 'mk_msgs') == [] and cc.replay(c, api) == []

def test_same_id_judge_still_catches():
    "Two calls of one id in one message, and two results for one call, still fail; another API still gets unique ids"
    c = case('litellm-factory-same-id-two-turns')
    r, losses, _ = cc.render(c, 'openai_chat', 'mk_msgs')
    bad = copy.deepcopy(r); bad[4]['tool_calls'].append(copy.deepcopy(bad[4]['tool_calls'][0]))
    assert any(k.startswith('call ids repeat') for k, _ in cc.invariants(c, 'openai_chat', bad, 'mk_msgs', losses))
    bad = copy.deepcopy(r); bad.insert(6, copy.deepcopy(bad[5]))
    assert 'two results for one call' in [k for k, _ in cc.ids_rules('openai_chat', bad, 'mk_msgs')]
    r, _ = render(c, 'bedrock')
    ids = [b['toolUse']['toolUseId'] for m in r for b in m['content'] if 'toolUse' in b]
    assert len(set(ids)) == 2

# ---------------------------------------------------------------- same-API replay: items merged/split
def test_reasoning_before_idless_message_oracle():
    "OpenAI: a reasoning item with an id needs the following message's id; msgkit drops it and says so"
    c = case('docs-openai-reasoning-then-assistant-no-id')
    with pytest.raises(AssertionError, match='needs the item that followed it'): oracle.check('openai', c['msgs'])
    ok = copy.deepcopy(c['msgs']); ok[2] = dict(ok[2], id='msg_1', type='message', status='completed')
    oracle.RULES['openai'](ok)
    r, losses = render(c, 'openai')
    oracle.check('openai', r)
    assert [l['what'] for l in losses] == ['reasoning item rs_68a1'] and r[1]['content'].startswith('Why did the scarecrow')

@pytest.mark.parametrize('cid,api', [('pydantic-ai-tests-bedrock-test_bedrock_group_consecutive_tool_return_parts-L3022', 'bedrock'),
                                     ('pydantic-ai-tests-google-test_google_splits_tool_return_from_user_prompt-L6391', 'gemini')])
def test_results_without_calls_oracle(cid, api):
    "Results whose calls are not in the turn before: the API's 400 (Converse, Gemini); msgkit leaves them out and says so"
    c = case(cid)
    with pytest.raises(AssertionError, match='toolUse blocks of previous turn|immediately after a function call turn'):
        oracle.check(api, c['msgs'])
    r, losses = render(c, api)
    oracle.check(api, r)
    assert losses and all('its call is not in the assistant turn before it' in l['why'] for l in losses)
    assert cc.replay(c, api) == []

# ---------------------------------------------------------------- nothing left to send (empty message list)
def test_empty_history_mk_msgs():
    "langchain-core's empty AIMessageChunks: mk_msgs gives [] (a history), mk_request refuses; [] of content still fails"
    c = case('lc-core-ai-test_add_ai_message_chunks_usage-L172')
    for api in ('openai_chat', 'gemini'):
        res = cc.run_case(c)
        assert res[(api, 'mk_msgs')]['fails'] == [], res[(api, 'mk_msgs')]
        with pytest.raises(msgkit.errors.InputError, match='needs a message to send'): msgkit.mk_request(cc.history(c), api, model='m')
    c2 = dict(c, msgs=[{'role': 'user', 'content': 'Hi'}], sdk=None)
    assert cc.judge_oracle('openai_chat', [], 'mk_msgs') and 'text lost' in [k for k, _ in cc.invariants(c2, 'openai_chat', [], 'mk_msgs', [])]
