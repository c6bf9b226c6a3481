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
