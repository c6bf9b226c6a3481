"""The property suite: every public function x API on awkward inputs (fuzzgen.py), asserting DESIGN.md's rules: only
clear errors (TypeError/ValueError), inputs never mutated, no network, no file touched for a str, no hang.

CI runs the `ci` profile (a fixed seed, MSGKIT_FUZZ_EXAMPLES examples per function x API; 120 x 35 x 5 = 21,000).
Locally: MSGKIT_FUZZ_PROFILE=long (10x) or MSGKIT_FUZZ_EXAMPLES=N; tests/fuzz_report.py gives outcome counts."""
import builtins, collections, io, json, os, pickle, signal, socket, warnings
from contextlib import contextmanager
from pathlib import Path
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from fuzzgen import value, png, jsonish
import msgkit
from msgkit import *
from msgkit import mk_cache, est_tokens, trim

N = int(os.environ.get('MSGKIT_FUZZ_EXAMPLES', 120))
settings.register_profile('ci', max_examples=N, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
settings.register_profile('long', max_examples=10 * N, derandomize=False, database=None, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get('MSGKIT_FUZZ_PROFILE', 'ci'))

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
CALL = dict(c1=dict(id='c1', name='f', args={}))
CALLS = {
    'mk_msg': lambda v, api: mk_msg(v, api=api),
    'mk_msg(role=)': lambda v, api: mk_msg('hi', role=v, api=api),
    'mk_msg(cache=)': lambda v, api: mk_msg(v, api=api, cache=True),
    'mk_msgs': lambda v, api: mk_msgs([v, 'ok', v], api=api),
    'mk_msgs(raw)': lambda v, api: mk_msgs(v, api=api),
    'mk_msgs(cache=)': lambda v, api: mk_msgs(['a', v, 'b'], api=api, cache=v if isinstance(v, (list, str, bool)) else 'rolling'),
    'mk_request': lambda v, api: mk_request([v], api, model='m'),
    'mk_request(system=)': lambda v, api: mk_request(['hi'], api, model='m', system=v),
    'mk_request(tools=)': lambda v, api: mk_request(['hi'], api, model='m', tools=[v]),
    'mk_request(kw)': lambda v, api: mk_request(['hi'], api, model='m', max_tokens=v, temperature=v if api != 'anthropic' else None),
    'mk_request(wire)': lambda v, api: mk_request([v], api, model='m', wire=True),
    'tool_calls': lambda v, api: tool_calls(v),
    'msg_text': lambda v, api: msg_text(v),
    'usage': lambda v, api: usage(v),
    'finish_reason': lambda v, api: finish_reason(v),
    'read_parts': lambda v, api: read_parts(v),
    'stream_msg': lambda v, api: stream_msg([v, v], api=api),
    'stream_msg(raw)': lambda v, api: stream_msg(v, api=api),
    'stream_response': lambda v, api: stream_response([v]),
    'mk_toolres(call)': lambda v, api: mk_toolres(v, 'result', api=api),
    'mk_toolres(result)': lambda v, api: mk_toolres(CALL['c1'], v, api=api),
    'mk_doc': lambda v, api: mk_doc(v, api=api),
    'media': lambda v, api: media(v),
    'media(mt=)': lambda v, api: media(png(), mt=v),
    'media_url': lambda v, api: media_url(v),
    'provider_file': lambda v, api: provider_file(v, 'image/png'),
    'mk_tool': lambda v, api: mk_tool(v, api),
    'mk_tools': lambda v, api: mk_tools([v], api),
    'read_history/render_history': lambda v, api: render_history(read_history([v, 'x']), api),
    'est_tokens': lambda v, api: est_tokens([v], api),
    'trim': lambda v, api: trim([v, 'x', 'y'], 1000, api),
    'mk_batch': lambda v, api: list(mk_batch([v], api, model='m')),
    'read_batch': lambda v, api: list(read_batch([v])),
    'jsonable/media_type': lambda v, api: (jsonable(v), media_type(v) if isinstance(v, bytes) else None),
    'mk_cache': lambda v, api: mk_cache([v, 'ok', 'more'], 'gemini', model='m'),
}

# the wire=True bodies, each a JSON value `json.dumps(..., allow_nan=False)` must write; `jsonish` values go where users
# put arbitrary data: a pass-through field, `extra=`, a tool call's arguments in the history
FIELD = dict(openai='metadata', openai_chat='metadata', anthropic='metadata', gemini='labels', bedrock='additionalModelRequestFields')
def _tool_turns(args):
    return ['Use f', {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 'toolu_1', 'name': 'f', 'input': args}]},
            {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': 'done'}]}]
WIRE = {
    'mk_request(wire, field)': lambda v, api: mk_request(['hi'], api, model='m', wire=True, **{FIELD[api]: {'k': v}}),
    'mk_request(wire, extra)': lambda v, api: mk_request(['hi'], api, model='m', wire=True, extra={'k': v}),
    'mk_request(wire, args)': lambda v, api: mk_request(_tool_turns({'a': v}), api, model='m', wire=True),
    'mk_batch(args)': lambda v, api: list(mk_batch([_tool_turns({'a': v})], api, model='m')),
}
WIRED = {'mk_request(wire)', 'mk_batch', *WIRE}  # the calls whose output is a wire body (or its batch lines)
# Gemini's wire body is made by `rest_json` (nbs/24_gemini.ipynb), not `jsonable`: it passes NaN and sets through
# (issue #23 item 10; a one-line change in that notebook's wire cell, not made here)
UNWIRED = set()  # every API's wire body is made jsonable (Gemini's too)

class Forbidden(BaseException):
    "What the sandbox raises: a BaseException, so no `except Exception` (msgkit's guard included) can swallow it"

def _strs(v, out, depth=0):
    if depth > 12: return out
    if isinstance(v, str): out.add(v); out.add(os.path.expanduser(v))
    elif isinstance(v, dict):
        for k, x in v.items(): _strs(k, out, depth + 1); _strs(x, out, depth + 1)
    elif isinstance(v, (list, tuple, set, frozenset)):
        for x in v: _strs(x, out, depth + 1)
    elif hasattr(v, '__dict__') and not isinstance(v, type): _strs(vars(v), out, depth + 1)
    return out

@contextmanager
def sandbox(v):
    "No socket, no file a str of `v` names, at most 10 s"
    strs = _strs(v, set())
    def net(*a, **k): raise Forbidden(f'network access: {a[:2]}')
    def chk(p):
        try: s = os.fspath(p)
        except TypeError: return
        if isinstance(s, bytes): s = s.decode(errors='replace')
        if s in strs: raise Forbidden(f'a str input was used as a path: {s[:80]!r}')
    real = dict(open=builtins.open, io_open=io.open, os_open=os.open, stat=os.stat, lstat=os.lstat)
    def wrap(f): return lambda p, *a, **k: (chk(p), f(p, *a, **k))[1]
    def alarm(*a): raise Forbidden('a call ran over 10 s')
    saved = (socket.socket.connect, socket.create_connection, socket.getaddrinfo)
    socket.socket.connect = net; socket.create_connection = net; socket.getaddrinfo = net
    builtins.open, io.open, os.open, os.stat, os.lstat = (wrap(real[k]) for k in ('open', 'io_open', 'os_open', 'stat', 'lstat'))
    old = signal.signal(signal.SIGALRM, alarm); signal.setitimer(signal.ITIMER_REAL, 10)
    try: yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0); signal.signal(signal.SIGALRM, old)
        socket.socket.connect, socket.create_connection, socket.getaddrinfo = saved
        builtins.open, io.open, os.open, os.stat, os.lstat = real['open'], real['io_open'], real['os_open'], real['stat'], real['lstat']

def snapshot(v):
    "The bytes of `v` (deep inputs too: the recursion limit raised for the snapshot alone)"
    import sys
    lim = sys.getrecursionlimit()
    sys.setrecursionlimit(max(lim, 10000))
    try: return pickle.dumps(v)
    except Exception: return repr(v)
    finally: sys.setrecursionlimit(lim)

def run(name, api, v):
    "`None`, or the type of the clear error `CALLS[name]` raised on `v`; fails on anything else"
    before = snapshot(v)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            with sandbox(v): r = (CALLS.get(name) or WIRE[name])(v, api)
            out = None
        except (TypeError, ValueError) as e:
            assert str(e).strip(), f'{name}: an empty error message'
            out = type(e).__name__
    assert snapshot(v) == before, f'{name} mutated its input'
    if out is None and name in WIRED and api not in UNWIRED:
        try: json.dumps(r, allow_nan=False)
        except (TypeError, ValueError) as e: raise AssertionError(f'{name}: a wire body json.dumps refuses: {e}') from None
    return out

def _warm():
    "Import what the calls import lazily (SDK types, Pillow, tiktoken's encoding), outside the sandbox"
    import random
    r = random.Random(0)
    for _ in range(300):
        v = value(r)
        for n in CALLS:
            for api in APIS:
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter('ignore'); CALLS[n](v, api)
                except Exception: pass
    for api in APIS: est_tokens(['hello world'], api)

_warm()

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('name', list(CALLS))
@given(r=st.randoms(use_true_random=False))
def test_property(name, api, r):
    run(name, api, value(r))

NW = int(os.environ.get('MSGKIT_FUZZ_WIRE_EXAMPLES', 25))

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('name', list(WIRE))
@settings(max_examples=NW)
@given(r=st.randoms(use_true_random=False))
def test_wire_json(name, api, r):
    "wire=True bodies always `json.dumps(..., allow_nan=False)`-able, whatever a field, `extra=` or a tool's arguments hold"
    run(name, api, jsonish(r))

@pytest.mark.slow
@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('name', list(WIRE))
@settings(max_examples=10 * N)
@given(r=st.randoms(use_true_random=False))
def test_wire_json_long(name, api, r):
    run(name, api, jsonish(r))

def test_gemini_wire_json():
    "A Gemini wire body with NaN in a tool's arguments: refused, naming the field, not a body json.dumps rejects"
    with pytest.raises((TypeError, ValueError), match="JSON can't hold"):
        json.dumps(mk_request(_tool_turns({'a': float('nan')}), 'gemini', model='m', wire=True), allow_nan=False)

# Issue #23 item 14: the guard is a net, not the checks. Over the corpus below (`value`'s inputs from a fixed seed, each
# through every call x API) it turns no internal error into a clear one: every error a user sees comes from a check. On
# the code #23 started from it made 612 and 4,275 (by function: msgkit.errors.conversions). A new conversion is a
# check msgkit lacks: add the check, don't raise the bound.
GUARDED = {40: 0, 300: 0}

def guard_report(n, seed=1):
    "The guard's conversions on `n` corpus inputs, by raise site (`msgkit.errors.raise_sites`), and the report's text"
    import random
    from msgkit import errors
    before, r = collections.Counter(errors.raise_sites), random.Random(seed)
    for _ in range(n):
        v = value(r)
        for api in APIS:
            for name in CALLS: run(name, api, v)
    got = collections.Counter(errors.raise_sites); got.subtract(before); got = +got
    return got, f"{sum(got.values()):,} conversions at {len(got)} raise sites:\n" + '\n'.join(f'{c:7,}  {s}' for s, c in got.most_common())

@pytest.mark.parametrize('n', [40, pytest.param(300, marks=pytest.mark.slow)])
def test_guard_conversions(n):
    "How often the guard, not a check, made the error a user sees on the fuzz corpus, by raise site (printed: pytest -s)"
    got, report = guard_report(n)
    print(report)
    assert sum(got.values()) <= GUARDED[n], report

def test_sandbox_catches_what_it_should():
    "The sandbox itself: a read through a str, a socket, a mutation and a bare KeyError each fail"
    with pytest.raises(Forbidden, match='used as a path'):
        with sandbox('/etc/hostname'): open('/etc/hostname').close()
    with pytest.raises(Forbidden, match='network'):
        with sandbox('x'): socket.create_connection(('example.com', 80))
    CALLS['_mutates'] = lambda v, api: v.append(1)
    CALLS['_keyerror'] = lambda v, api: {}['k']
    try:
        with pytest.raises(AssertionError, match='mutated its input'): run('_mutates', 'openai', [])
        with pytest.raises(KeyError): run('_keyerror', 'openai', [])
    finally: del CALLS['_mutates'], CALLS['_keyerror']
