"""#22: Gemini's `_needs_unb64` (asked of every message by `tidy`) answers a tool's text result at once; its answer
is the look before the change (kept here as the reference), for random contents, odd ones included."""
import random
import pytest
from msgkit.adapters import gemini as G

def before(d):
    "`_needs_unb64` as it was before (a2ee38a), the reference"
    if all(type(p) is dict and G._unb64_keys.isdisjoint(p) for p in d.get('parts') or ()): return False
    return (any(isinstance(p.get(k), str) for p in d.get('parts') or [] for k in ('thought_signature', 'thoughtSignature'))
            or any(isinstance((G._g(p, 'inline_data') or {}).get('data'), str) for p in G._all_parts(d)))

class D(dict): pass

def rand_part(r, depth=0):
    k = r.randrange(12)
    if k == 0: return dict(text='hi')
    if k == 1: return dict(thought_signature=r.choice(['c2ln', b'sig', None]), text='t')
    if k == 2: return dict(thoughtSignature=r.choice(['c2ln', b'sig']), function_call=dict(name='f', args={}))
    if k == 3: return dict(inline_data=dict(mime_type='image/png', data=r.choice(['iVBO', b'\x89PNG', None])))
    if k == 4: return dict(inlineData=dict(mimeType='image/png', data=r.choice(['iVBO', b'\x89PNG'])))
    if k == 5: return dict(inline_data=r.choice([None, {}, 'notadict', 3]))
    if k in (6, 7):
        fr = dict(name='f', response=dict(output='20'))
        if r.random() < 0.4 and depth == 0: fr['parts'] = [rand_part(r, 1) for _ in range(r.randrange(0, 3))]
        if r.random() < 0.1: fr['parts'] = r.choice([None, [], ['x']])
        return {r.choice(['function_response', 'functionResponse']): r.choice([fr, fr, fr, D(fr), None, 'x'])}
    if k == 8: return D(text='x')
    if k == 9: return r.choice(['a string part', 7, None])
    if k == 10: return dict(function_response=dict(name='f', response={}), functionResponse=dict(name='g', parts=[dict(inline_data=dict(data='QQ=='))]))
    return dict(function_call=dict(name='f', args=dict(a=1)))

def outcome(f, d):
    try: return f(d)
    except Exception as e: return type(e)

def test_same_answer_as_before():
    r = random.Random(22)
    n = 0
    for _ in range(20_000):
        d = dict(role=r.choice(['user', 'model']), parts=[rand_part(r) for _ in range(r.randrange(0, 5))])
        if r.random() < 0.03: d['parts'] = r.choice([None, (), [], (dict(text='x'),)])
        a, b = outcome(G._needs_unb64, d), outcome(before, d)
        assert a == b, d
        n += a is True
    assert n > 1000  # both answers, many times

def test_tool_result_answered_at_once():
    d = dict(role='user', parts=[dict(function_response=dict(name='f', response=dict(output='20')))])
    assert G._needs_unb64(d) is False
    d['parts'][0]['function_response']['parts'] = [dict(inline_data=dict(mime_type='image/png', data='iVBO'))]
    assert G._needs_unb64(d) is True  # media inside a result, as base64 text: still found
