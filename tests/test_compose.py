"""The property test of issue #17: random histories composed from each API's documented forms (any source API per
exchange, tool loops with parallel calls, signed reasoning, a system message anywhere, cut to a window), rendered by
`mk_request` and `mk_msgs` for all five APIs and judged as the corpus is (`corpus_check.run_case`: the providers'
validators, every text, call, result and media kept in order or reported, calls and results paired, ids unique and
valid, no foreign keys). A failure is allowed only if it is one of the documented refusals (`corpus_check.EXPECTED`)."""
import base64, json
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
import corpus_check as cc

APIS = cc.APIS
SIG = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds'
GSIG = b'gemini-thought-signature'  # the SDK's own form (bytes); JSON histories hold its base64

def user(api, t):
    if api == 'gemini': return {'role': 'user', 'parts': [{'text': t}]}
    if api == 'bedrock': return {'role': 'user', 'content': [{'text': t}]}
    if api == 'anthropic': return {'role': 'user', 'content': [{'type': 'text', 'text': t}]}
    return {'role': 'user', 'content': t}

def system(api, t):
    "A system message in the history, in a form that has one (Gemini and Bedrock have none: Chat's, as users mix them)"
    if api == 'anthropic': return {'role': 'system', 'content': t}  # the SDK's SystemMessageParam
    return {'role': 'system', 'content': t}

def answer(api, t, n, reason):
    "The model's text answer (with its reasoning, signed as `api` signs it)"
    if api == 'gemini':
        return [{'role': 'model', 'parts': [{'text': t, **({'thoughtSignature': GSIG} if reason else {})}]}]
    if api == 'bedrock':
        rc = [{'reasoningContent': {'reasoningText': {'text': 'Thinking.', 'signature': SIG}}}] if reason else []
        return [{'role': 'assistant', 'content': rc + [{'text': t}]}]
    if api == 'anthropic':
        th = [{'type': 'thinking', 'thinking': 'Thinking.', 'signature': SIG}] if reason else []
        return [{'role': 'assistant', 'content': th + [{'type': 'text', 'text': t}]}]
    if api == 'openai':
        rs = [{'type': 'reasoning', 'id': f'rs_{n}a', 'summary': [], 'encrypted_content': 'gAAAA' + str(n)}] if reason else []
        return rs + [{'type': 'message', 'id': f'msg_{n}', 'role': 'assistant', 'status': 'completed',
                      'content': [{'type': 'output_text', 'text': t, 'annotations': [], 'logprobs': []}]}]
    return [{'role': 'assistant', 'content': t}]

def loop(api, n, k, reason):
    "The model's `k` parallel calls and their results, in `api`'s form"
    calls = [(f'call_{n}_{i}', f'tool_{i}', {'city': f'City{n}{i}'}) for i in range(k)]
    res = [f'Result {n}.{i}' for i in range(k)]
    if api == 'gemini':
        ps = [{'functionCall': {'name': nm, 'args': a}} for _, nm, a in calls]
        if reason: ps[0]['thoughtSignature'] = GSIG
        return [{'role': 'model', 'parts': ps},
                {'role': 'user', 'parts': [{'functionResponse': {'name': nm, 'response': {'result': r}}}
                                           for (_, nm, _), r in zip(calls, res)]}]
    if api == 'bedrock':
        rc = [{'reasoningContent': {'reasoningText': {'text': 'Call.', 'signature': SIG}}}] if reason else []
        return [{'role': 'assistant', 'content': rc + [{'toolUse': {'toolUseId': i, 'name': nm, 'input': a}} for i, nm, a in calls]},
                {'role': 'user', 'content': [{'toolResult': {'toolUseId': i, 'content': [{'text': r}]}}
                                             for (i, _, _), r in zip(calls, res)]}]
    if api == 'anthropic':
        th = [{'type': 'thinking', 'thinking': 'Call.', 'signature': SIG}] if reason else []
        return [{'role': 'assistant', 'content': th + [{'type': 'tool_use', 'id': i, 'name': nm, 'input': a} for i, nm, a in calls]},
                {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': i, 'content': r}
                                             for (i, _, _), r in zip(calls, res)]}]
    if api == 'openai':
        rs = [{'type': 'reasoning', 'id': f'rs_{n}', 'summary': [], 'encrypted_content': 'gAAAA'}] if reason else []
        return (rs + [{'type': 'function_call', 'id': f'fc_{n}_{j}', 'call_id': i, 'name': nm, 'arguments': json.dumps(a)}
                      for j, (i, nm, a) in enumerate(calls)]
                + [{'type': 'function_call_output', 'call_id': i, 'output': r} for (i, _, _), r in zip(calls, res)])
    return ([{'role': 'assistant', 'content': None,
              'tool_calls': [{'id': i, 'type': 'function', 'function': {'name': nm, 'arguments': json.dumps(a)}} for i, nm, a in calls]}]
            + [{'role': 'tool', 'tool_call_id': i, 'content': r} for (i, _, _), r in zip(calls, res)])

exchange = st.fixed_dictionaries(dict(src=st.sampled_from(APIS), tools=st.integers(0, 2), reason=st.booleans(),
                                      system=st.sampled_from([None, None, None, 'openai', 'openai_chat', 'anthropic'])))

def compose(exs, cut):
    "The history of exchanges `exs` (each a question, maybe a tool loop, an answer), its first `cut` items left out"
    h = []
    for n, e in enumerate(exs):
        if e['system']: h.append(system(e['system'], f'Rule {n}.'))
        h.append(user(e['src'], f'Question {n}?'))
        if e['tools']: h += loop(e['src'], n, e['tools'], e['reason'])
        h += answer(e['src'], f'Answer {n}.', n, e['reason'] and not e['tools'])
    h = h[cut:]
    return h

@pytest.mark.slow  # (session 18: one of the slowest; CI runs it with -m slow)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(st.lists(exchange, min_size=1, max_size=4), st.integers(0, 3))
def test_composed_histories(exs, cut):
    h = compose(exs, cut)
    if not h: return
    case = dict(id='composed', file='compose', msgs=h, form=None)
    bad = []
    for (api, how), v in cc.run_case(case).items():
        for f in v['fails']:
            k = cc.classify(f, api, how, case)
            if not k.startswith('expected:'): bad.append((api, how, k, f['detail'][:300]))
    assert not bad, (json.dumps(h, default=repr)[:1500], bad[:6])

def test_compose_makes_what_the_oracle_takes():
    "The generator itself: each API's exchange, alone, is what that API's validator accepts"
    import oracle
    for api in APIS:
        h = [user(api, 'Q?'), *loop(api, 0, 2, True), *answer(api, 'A.', 0, False)]
        oracle.check(api, h)
