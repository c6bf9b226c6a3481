"""#22: text messages made as the `Msg`s `mk_msgs` returns (`msg_maker`), not made plain and copied.

The reference is the path before the change: `msg_of(ad.text_msg(role, s))`, for every API and dialect; and the
whole fast path against the full one (read, repair, render), which `tests/test_speed.py` checks for the five APIs and
the oracle accepts."""
import importlib, random, warnings
import pytest
from msgkit import apis, get_api, mk_msgs
from msgkit.msgs import Msg, Block, Blocks, msg_of, msg_maker
from msgkit.adapters.gemini import GeminiAdapter
from oracle import check

core = importlib.import_module('msgkit.core')
plain = importlib.import_module('msgkit.plain')  # the text maker's home since the plain lane (#22)

def types(x):
    if isinstance(x, dict): return (type(x).__name__, {k: types(v) for k, v in x.items()})
    if isinstance(x, list): return (type(x).__name__, [types(v) for v in x])
    return type(x).__name__

STRS = ['hi', ' lead', 'trail ', '\n\tboth\n ', 'ünïcødé 😀', '{"json": 1}', 'x' * 100_000, '\0', 'a\0b',
        *plain.HOLES, plain.HOLES[0] + 'x', 'data', 'http', '\ud800', 'role', 'content', 'text', 'parts']

@pytest.mark.parametrize('api', apis())
def test_maker_same_as_copy(api):
    "Every adapter's text message, made at once, equals the copy of the plain one and has its types"
    ad = get_api(api)
    for role in ('user', 'assistant'):
        f = plain.text_maker(ad, role)
        assert f.__code__.co_filename == '<string>', (api, role)  # made by `msg_maker`, not the `msg_of` fallback
        for s in STRS:
            a,b = f(s), msg_of(ad.text_msg(role, s))
            assert a == b and types(a) == types(b) == types(f(s)), (api, role, s)
            assert a is not f(s) and all(v is not w for v,w in zip(a.values(), f(s).values()) if isinstance(v, list))

def test_shared_nothing_between_calls():
    f = plain.text_maker(get_api('gemini'), 'user')
    a,b = f('x'),f('x')
    a.parts[0]['text'] = 'changed'; a.parts.append(Block(text='more'))
    assert b == dict(role='user', parts=[dict(text='x')])

class Strips(GeminiAdapter):
    "A text message that isn't the text as it is (stripped): the maker must not be used"
    def text_msg(self, role, s): return super().text_msg(role, s.strip())

class Twice(GeminiAdapter):
    def text_msg(self, role, s): return dict(role=role, parts=[dict(text=s), dict(text=s)])

class Tupled(GeminiAdapter):
    def text_msg(self, role, s): return dict(role=role, parts=(dict(text=s),))

@pytest.mark.parametrize('cls', [Strips, Twice, Tupled])
def test_fallback_where_the_shape_is_not_fixed(cls):
    "An adapter whose text message can't be made from a template is copied as before (`msg_of` of `text_msg`)"
    ad = cls()
    f = plain.text_maker(ad, 'user')
    assert f.__code__.co_filename != '<string>'
    for s in STRS:
        assert f(s) == msg_of(ad.text_msg('user', s)) and types(f(s)) == types(msg_of(ad.text_msg('user', s)))

def test_one_hole_would_be_wrong():
    "The second hole is what catches a stripping adapter: a maker from the first alone gives the text unstripped"
    ad = Strips()
    f = msg_maker(ad.text_msg('user', plain.HOLES[0]), plain.HOLES[0])
    assert f is not None and f(' x ') != msg_of(ad.text_msg('user', ' x '))

def test_maker_refuses_what_it_cant_make():
    for t in [dict(a='h', b='h'), dict(a='y'), dict(a=('h',)), dict(a=Block(t='h')), [dict(a='h')], dict(h='h'),
              dict(a={1: 'h'}), dict(a=b'h', b='h'), 'h', None]:
        assert msg_maker(t, 'h') is None, t
    c = dict(a='h'); c['self'] = c
    assert msg_maker(c, 'h') is None  # a cycle: too deep
    deep = 'h'
    for _ in range(40): deep = [deep]
    assert msg_maker(dict(a=deep), 'h') is None

def test_maker_follows_a_changed_adapter(monkeypatch):
    "A `text_msg` patched after first use gets a maker of its own"
    ad = get_api('gemini')
    plain.text_maker(ad, 'user')
    monkeypatch.setattr(GeminiAdapter, 'text_msg', lambda self, role, s: dict(role=role, parts=[dict(text=s, x=1)]))
    assert plain.text_maker(ad, 'user')('a') == dict(role='user', parts=[dict(text='a', x=1)])

@pytest.mark.parametrize('api', apis())
def test_fast_path_same_as_full_every_api(api, monkeypatch):
    "For every API and dialect (test_speed covers five): the fast path as the full one, what before_send changes too"
    r = random.Random(api)
    words = ['Hello', 'trail  ', ' lead', 'multi\nline', 'ünï', 'x' * 300, '{"a": 1}']
    for n in [*range(1, 9), 40]:
        for _ in range(6):
            h = [r.choice(words) for _ in range(n)]
            def run():
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    try: return mk_msgs(h, api)
                    except (TypeError, ValueError) as e: return type(e), str(e)
            assert core._texts(h, get_api(api)) is not None
            a = run()
            with monkeypatch.context() as m:
                m.setattr(core, '_texts', lambda *a: None)
                b = run()
            assert a == b and types(a) == types(b), (h, a, b)
            if api in ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock') and isinstance(a, list): check(api, a)
