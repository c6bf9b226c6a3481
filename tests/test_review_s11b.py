"""Review of f547131 (#22, session 11; its design since replaced: no metaclass, no count, the snapshot compared each
call in C, asked of the adapter's own class; a text maker unchecked only where a snapshot vouches for `text_msg`): the short ways' "rules as shipped" check kept per `registry.rules_version()`
(`registry.Rules`, the adapters' metaclass, counts members set or deleted on an adapter class); `plain.shipped` and
`plain.text_maker` keep a check made at one count until the next; `core._texts` asks the rules once an item may be text.

Every test warms the caches first (the same call made a few times), then changes a rule, then compares what `mk_msgs`
gives with what the general path gives (the short ways turned off: `_general`). The first group are defects (they fail
at f547131 and pass at f547131^); the second are the areas probed that held (regression tests, passing; the two that
ask `rules_version` cannot run at f547131^).

Found and not tested here, as they predate f547131 (the same at f547131^): `_texts` asks the base API's check
(`OpenAIChatAdapter`'s, `AnthropicAdapter`'s), so a subclass's own `tidy` (a dialect's, `ClaudeRecord`'s, a user's
subclass of a shipped adapter) is skipped for a text history; and an adapter whose `text_msg` refuses the probe text
`plain.HOLES` fails a plain text history the general path takes."""
import abc, copy, json, pickle, sys, threading, typing, warnings
import pytest
import msgkit
from msgkit import core
from msgkit import registry
from msgkit.registry import get_api, register, unregister, apis

from msgkit.adapters.base import Adapter
from msgkit.adapters.anthropic import AnthropicAdapter
from msgkit.adapters.bedrock import ClaudeRecord
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from shortways import short_ways_off
from msgkit.adapters.gemini import GeminiAdapter
from msgkit.adapters.bedrock import BedrockAdapter
from msgkit.errors import InputError

APIS = ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock')
PNG = msgkit.sample('gradient.png').read_bytes()
TEXTS = ['Hi', 'Hello!', 'How are you?']
H = dict(texts=TEXTS, imgs=[['Look', PNG], 'A gradient.', 'Thanks'],
         dicts=[dict(role='user', content='Hi'), dict(role='assistant', content='Yo'), 'Q'])

def out(h, api):
    "Everything `mk_msgs` gives for `h`: messages as JSON (key order kept), the warnings; or the error"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_msgs(copy.deepcopy(h), api)
        except Exception as e: return ('error', type(e).__name__, str(e))
    return [json.dumps(m, default=repr) for m in r], [(w.category.__name__, str(w.message)) for w in ws]

def general(h, api):
    "What the general path gives (every short way off, as tests/test_plain.py's `_general`)"
    with pytest.MonkeyPatch.context() as m:
        short_ways_off(m)  # (tests/shortways.py: by their one door, `plain_history`)
        return out(h, api)

def warm(h, api):
    for _ in range(3): out(h, api)

def first_only(orig):
    "A `tidy` keeping the first message alone (what the general path then gives)"
    def tidy(self, ms, *a, **k): return orig(self, list(ms)[:1], *a, **k)
    return tidy

# a user's adapter, as nbs/20_adapters.ipynb's `EchoAdapter` shows how to write one (it keeps the base `text_msg`:
# `self.msg(role, [self.part(text_part(s), role)])`), its `msg` reading a role map and a helper of its module
def joiner(bs): return ' '.join(bs)

class EchoS11b(Adapter):
    "A toy API: text only, `{'who', 'says'}` messages"
    name,msgs_key = 'echo_s11b','turns'
    who = {'user': 'human', 'assistant': 'bot'}
    def part(self, p, role='user'): return self.chk(p) and p.text
    def msg(self, role, blocks): return dict(who=self.who.get(role, role), says=joiner(blocks))
    def request(self, msgs, model=None, system=None, **kw): return dict(model=model, turns=msgs, **kw)

class StrictS11b(EchoS11b):
    "A toy API whose text part refuses control characters (as some servers refuse a NUL)"
    name = 'strict_s11b'
    def part(self, p, role='user'):
        self.chk(p)
        if any(c < ' ' for c in p.text): raise InputError("api='strict_s11b' takes no control characters in text")
        return p.text

@pytest.fixture
def echo():
    register(EchoS11b); register(StrictS11b)
    yield get_api('echo_s11b')
    unregister('echo_s11b'); unregister('strict_s11b')

# ---------------------------------------------------------------------------------------------------- defects

@pytest.mark.parametrize('rule', ['msg', 'part'])
def test_user_adapter_instance_patch_followed(echo, rule, monkeypatch):
    "An instance's own rule that `text_msg` calls (`ad.msg = ...`): counted by nothing, so `text_maker` must still ask"
    warm(TEXTS, 'echo_s11b')
    new = dict(msg=lambda role, bs: dict(speaker=role, says=' '.join(bs)),
               part=lambda p, role='user': p.text.upper())[rule]
    monkeypatch.setattr(echo, rule, new, raising=False)
    f = out(TEXTS, 'echo_s11b')  # (first: `general` sets a class member, which would count)
    g = general(TEXTS, 'echo_s11b')
    assert ('speaker' if rule=='msg' else 'HELLO!') in str(g)
    assert f == g

def test_user_adapter_helper_patch_followed(echo, monkeypatch):
    "A module-level helper the adapter's `msg` calls, patched after warm calls"
    warm(TEXTS, 'echo_s11b')
    monkeypatch.setattr(sys.modules[__name__], 'joiner', lambda bs: '|'.join(bs).upper())
    f = out(TEXTS, 'echo_s11b')
    g = general(TEXTS, 'echo_s11b')
    assert 'HELLO!' in str(g)
    assert f == g

def test_user_adapter_dict_changed_in_place_followed(echo, monkeypatch):
    "A class-level dict the adapter's `msg` reads, changed in place (`monkeypatch.setitem`): no member set, no count"
    warm(TEXTS, 'echo_s11b')
    monkeypatch.setitem(EchoS11b.who, 'user', 'person')
    f = out(TEXTS, 'echo_s11b')
    g = general(TEXTS, 'echo_s11b')
    assert 'person' in str(g)
    assert f == g

@pytest.mark.parametrize('h', [['https://example.com/a.txt'], [' ', 'x'],
                               [dict(role='user', content=[dict(type='text', text='Hi')])]],
                         ids=['url', 'blank', 'blocks'])
def test_probe_text_refused_only_where_text_is_plain(echo, h):
    """`_texts` now makes its text makers (`text_msg` of HOLES, a NUL in them) before it knows an item is plain text:
    an adapter refusing HOLES fails histories the general path takes (and took at f547131^)"""
    f = out(h, 'strict_s11b')
    g = general(h, 'strict_s11b')
    assert g[0] != 'error', g
    assert f == g

@pytest.mark.parametrize('api', APIS)
def test_type_setattr_patch_followed(api):
    "`type.__setattr__(cls, ...)` sets a member without `Rules.__setattr__`: the kept check must not outlive it"
    cls = type(get_api(api))
    warm(TEXTS, api)
    old = cls.__dict__.get('tidy')
    type.__setattr__(cls, 'tidy', first_only(cls.tidy))
    try: fast = out(TEXTS, api)
    finally:
        if old is None: type.__delattr__(cls, 'tidy')
        else: type.__setattr__(cls, 'tidy', old)
    type.__setattr__(cls, 'tidy', first_only(cls.tidy))
    try: g = general(TEXTS, api)
    finally:
        if old is None: type.__delattr__(cls, 'tidy')
        else: type.__setattr__(cls, 'tidy', old)
    assert len(g[0]) == 1 and fast == g

class _Meta(type): pass
class _Base(metaclass=_Meta): pass
class _Proto(typing.Protocol):
    def f(self): ...

@pytest.mark.parametrize('make', [
    lambda: abc.ABCMeta('MyAd', (Adapter,), {'name': None}),
    lambda: type('MyAnt', (AnthropicAdapter, abc.ABC), {}),
    lambda: type('MyAd2', (Adapter, _Base), {}),
    lambda: type('MyAd3', (Adapter, _Proto), {})], ids=['ABCMeta', 'abc.ABC', 'own metaclass', 'Protocol'])
def test_subclass_with_another_metaclass(make):
    "A user's adapter mixing in an ABC, a Protocol or a metaclass of its own: made at f547131^, a metaclass conflict now"
    c = make()
    assert issubclass(c, Adapter)

# ---------------------------------------------------------------------------------------------- clean areas

@pytest.mark.parametrize('api', APIS)
def test_mock_patch_object_followed_and_undone(api):
    from unittest import mock
    cls = type(get_api(api))
    for hn in ('texts', 'imgs'):
        before = out(H[hn], api); warm(H[hn], api)
        with mock.patch.object(cls, 'tidy', first_only(cls.tidy)):
            f = out(H[hn], api)
            g = general(H[hn], api)  # (after: it sets a class member)
        assert f == g and len(f[0]) == 1
        assert out(H[hn], api) == before
    # a member the class inherits (`takes`, Adapter's for most): set on the class, then deleted (`Rules.__delattr__`)
    h, before = H['imgs'], out(H['imgs'], api)
    with mock.patch.object(cls, 'takes', lambda self, p: dict.get(p, 'type')!='image'):
        f = out(h, api)
        assert f[0] == 'error' and f == general(h, api)
    assert out(h, api) == before

@pytest.mark.parametrize('api', APIS)
def test_fastcore_patch_followed(api):
    from fastcore.basics import patch
    cls = type(get_api(api)); o = cls.__dict__['text_msg']
    warm(TEXTS, api)
    try:
        @patch
        def text_msg(self:cls, role, s): return o(self, role, s + '?!')
        f = out(TEXTS, api)  # (before `general`, which sets a class member)
        assert 'Hi?!' in str(f) and f == general(TEXTS, api)
    finally: cls.text_msg = o
    assert 'Hi?!' not in str(out(TEXTS, api))

@pytest.mark.parametrize('api', APIS + ('groq', 'mistral'))
def test_base_and_instance_patches_followed(api, monkeypatch):
    "`Adapter.text_of` (the base), and the instance's own `tidy`: both followed after warm calls"
    ad = get_api(api)
    for hn in H: warm(H[hn], api)
    with monkeypatch.context() as m:
        m.setattr(Adapter, 'text_of', lambda self, d, role: None)
        f = out(H['dicts'], api)
        assert f == general(H['dicts'], api)
    with monkeypatch.context() as m:
        m.setattr(ad, 'tidy', first_only(type(ad).tidy).__get__(ad), raising=False)
        fs = {hn: out(H[hn], api) for hn in H}
        for hn in H: assert fs[hn] == general(H[hn], api), hn

@pytest.mark.parametrize('api', APIS)
def test_in_place_media_types_limits(api, monkeypatch):
    "A dict member changed in place (no count): the short ways read `media_types` and `limits` live, as before"
    cls = type(get_api(api)); h = H['imgs']
    warm(h, api)
    with monkeypatch.context() as m:
        m.setitem(cls.media_types, 'image', set())
        f = out(h, api)
        assert f == general(h, api)
    with monkeypatch.context() as m:
        m.setitem(cls.limits, 'image', (10, 'raw'))
        f = out(h, api)
        assert f == general(h, api)

def test_later_subclass_counted(echo, monkeypatch):
    "A class made after import: a class-level patch of it is followed at once"
    warm(TEXTS, 'echo_s11b')
    monkeypatch.setattr(EchoS11b, 'msg', lambda self, role, bs: dict(speaker=role, says=' '.join(bs)))
    f = out(TEXTS, 'echo_s11b')
    assert 'speaker' in str(f) and f == general(TEXTS, 'echo_s11b')

@pytest.mark.parametrize('make', [lambda: copy.deepcopy(get_api('anthropic')), lambda: copy.copy(get_api('bedrock')),
                                  lambda: pickle.loads(pickle.dumps(get_api('gemini'))), AnthropicAdapter, ClaudeRecord],
                         ids=['deepcopy', 'copy', 'pickle', 'fresh', 'ClaudeRecord'])
def test_copied_and_fresh_adapters(make):
    "Adapters passed as `api=` (copied, unpickled, made anew, a variant): the same as the general path, warm or patched"
    ad = make()
    for hn in H:
        warm(H[hn], ad)
        f = out(H[hn], ad)
        assert f == general(H[hn], ad), hn
    with pytest.MonkeyPatch.context() as m:  # (a rule of the base the variant keeps: `Adapter`'s or its API's)
        m.setattr(AnthropicAdapter if isinstance(ad, AnthropicAdapter) else type(ad), 'tidy', first_only(type(ad).tidy))
        f = out(TEXTS, ad)
        assert len(f[0]) == 1 and f == general(TEXTS, ad)

def test_threads_patch_and_call():
    "One thread patching and restoring `tidy`, one calling: no mixed output, and the patcher sees its patch at once"
    api = 'bedrock'; cls = type(get_api(api)); orig = cls.__dict__['tidy']
    base = out(TEXTS, api); cls.tidy = first_only(orig); patched = out(TEXTS, api); cls.tidy = orig
    assert base != patched
    old_si = sys.getswitchinterval(); sys.setswitchinterval(1e-6)
    stop, bad = threading.Event(), []
    def patcher():
        try:
            for i in range(400):
                cls.tidy = first_only(orig)
                if out(TEXTS, api) != patched: bad.append(('patched unseen', i))
                cls.tidy = orig
                if out(TEXTS, api) != base: bad.append(('restore unseen', i))
        finally: stop.set()
    def caller():
        while not stop.is_set():
            if (r := out(TEXTS, api)) not in (base, patched): bad.append(('mixed', r))
    ts = [threading.Thread(target=patcher), threading.Thread(target=caller)]
    try:
        for t in ts: t.start()
        for t in ts: t.join()
    finally: sys.setswitchinterval(old_si); cls.tidy = orig
    assert not bad, bad[:3]
    assert out(TEXTS, api) == base

def test_import_order_and_no_count_per_call():
    "Every module imported: the five still as shipped (nothing set after their snapshots), and calls count nothing"
    import importlib, pkgutil, msgkit.readers
    for m in ('display', 'stream', 'response', 'batch', 'request', 'budget', 'history', 'tools', 'cache', 'render'):
        importlib.import_module(f'msgkit.{m}')
    for mi in pkgutil.iter_modules(msgkit.readers.__path__): importlib.import_module(f'msgkit.readers.{mi.name}')
    for a in APIS: assert get_api(a).rules_as_shipped(), a
    for a in apis():
        msgkit.mk_msgs(TEXTS, a); msgkit.mk_msg('Hi', api=a)
        msgkit.mk_request(TEXTS, a, model='m', max_tokens=100)
    for a in APIS: assert get_api(a).rules_as_shipped(), a  # (no call changes a rule)
