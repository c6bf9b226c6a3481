"""`registry.shipped` (moved from `plain` in session 16): a dialect's short ways stand for `Dialect`'s own rules
(Chat's, and those `tidy` applies over a whole history: `fix_msgs`, `fix_call`, the fields they read), and a dialect's class is
noted when first asked only if each of its rules is msgkit's own making. Each test compares the short way's output with
the general path's (`test_review_s12.general`: every short way off), never with a dict msgkit built."""
import pytest
from msgkit import registry
from msgkit.registry import get_api, apis, shipped, vouches
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from msgkit.adapters.dialects.base import Dialect
from test_review_s12 import out, general
from test_review_s12b import run_py

TEXTS = ['Hi', 'Yo', 'Q']
DIALECTS = [a for a in apis() if getattr(get_api(a), 'dialect_of', None)]

def test_every_registered_adapter_as_shipped():
    "Every module imported, each registered API and dialect is noted as shipped (its rules msgkit's own)"
    assert len(DIALECTS) >= 15
    assert [a for a in apis() if not get_api(a).rules_as_shipped()] == []

def test_dialect_names_hold_chats_and_its_own():
    ns = Dialect.rules_as_shipped.names
    assert set(OpenAIChatAdapter.rules_as_shipped.names) <= set(ns)
    assert {'fix_msgs', 'fix_call', 'str_roles', 'alternate', 'user_after_tool', 'prefill'} <= set(ns)
    assert Dialect.rules_as_shipped.cls is Dialect and not any(vouches(get_api(a)) for a in DIALECTS)

@pytest.mark.parametrize('name,new', [('fix_call', lambda v: lambda self, c, i: {**c, 'zz': i}),
                                      ('alternate', lambda v: not v), ('str_roles', lambda v: ('user', 'assistant')),
                                      ('user_after_tool', lambda v: not v)])
@pytest.mark.parametrize('api', ['groq', 'mistral', 'ollama'])
def test_dialect_rule_patched_after_warm_calls(api, name, new, monkeypatch):
    "A rule `fix_msgs` reads, patched on the dialect's class after warm calls: the short way steps aside"
    out(TEXTS, api)
    ad = get_api(api)
    assert ad.rules_as_shipped()
    monkeypatch.setattr(type(ad), name, new(getattr(type(ad), name)))
    assert not ad.rules_as_shipped()
    assert out(TEXTS, api) == general(TEXTS, api)
    monkeypatch.undo()
    assert ad.rules_as_shipped()

def test_fix_msgs_patched_changes_a_text_history():
    "The patch shows in the output (the short way skipped it before session 16)"
    out(TEXTS, 'groq')
    orig = Dialect.fix_msgs
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Dialect, 'fix_msgs', lambda self, ms: [{**o, 'zz': 1} for o in orig(self, ms)])
        r = out(TEXTS, 'groq')
        assert r == general(TEXTS, 'groq') and all('"zz": 1' in s for s in r[0])

_FIRST = """
    import json, pytest, msgkit
    from msgkit.registry import get_api
    from msgkit.adapters.dialects.mistral import MistralAdapter
    from test_review_s12 import out, general
    h, orig = ['Hi', 'Yo', 'Q'], MistralAdapter.fix_msgs
    res = {}
    with pytest.MonkeyPatch.context() as m:
        m.setattr(MistralAdapter, 'fix_msgs', lambda self, ms: orig(self, ms)[:1])  # before mistral is first asked
        f, g = out(h, 'mistral'), general(h, 'mistral')
        res.update(same=f == g, n=len(f[0]), shipped=get_api('mistral').rules_as_shipped())
    f, g = out(h, 'mistral'), general(h, 'mistral')
    res.update(after_same=f == g, after_n=len(f[0]), after_shipped=get_api('mistral').rules_as_shipped())
    print(json.dumps(res))
"""

def test_dialect_class_patched_before_first_asked():
    "A dialect's own rule patched before it is first asked (a fresh process): not noted; put back, noted then"
    r = run_py(_FIRST)
    assert r == dict(same=True, n=1, shipped=False, after_same=True, after_n=3, after_shipped=True)

def test_rule_from_outside_not_noted():
    "`shipped` notes a registered class's rules only when each function among them is of msgkit's modules"
    ad = get_api('groq')
    ok = shipped(Dialect, 'fix_msgs', 'roles')  # (a new snapshot: nothing noted yet)
    def fix_msgs(self, ms): return ms
    with pytest.MonkeyPatch.context() as m:
        m.setattr(type(ad), 'fix_msgs', fix_msgs)  # (a function of this test module)
        assert not ok(ad) and not ok(ad)
    assert ok(ad) and ok(ad)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(type(ad), 'roles', ('user', 'assistant'))  # (a value: another value since it was noted)
        assert not ok(ad)
    assert ok(ad)

def test_one_name():
    "A snapshot of one name (`attrgetter` of one gives the value itself, not a tuple)"
    ad = get_api('groq')
    ok = shipped(Dialect, 'fix_msgs')
    assert ok(ad)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(Dialect, 'fix_msgs', lambda self, ms: ms)
        assert not ok(ad)
