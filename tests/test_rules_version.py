"""#22, session 11: the short ways' "rules as shipped" check is made once per change to the adapters' classes.

`registry.Rules`, the adapters' metaclass, counts every member set or deleted on an adapter class (`rules_version()`);
`plain.shipped` and `plain.text_maker` keep a check made at one count until the next. Here: histories are made first (the
checks kept), then a rule is patched on the adapter's class, on its base `Adapter`, or on the instance: what `mk_msgs`
gives must follow the patched rule at once, and go back when the patch is undone."""
import pytest
import msgkit
from msgkit.registry import get_api, rules_version, Rules
from msgkit.adapters.base import Adapter
from msgkit.errors import InputError

APIS = ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock')
TEXTS = ['Hi', 'Hello!', 'How are you?']
PNG = msgkit.sample('gradient.png').read_bytes()
IMGS = [['Look', PNG], 'A gradient.', 'Thanks']

def shout(orig):
    "A `text_msg` that writes its text upper-cased (what the general path would then give)"
    def text_msg(self, role, s): return orig(self, role, s.upper())
    return text_msg

@pytest.mark.parametrize('api', APIS)
def test_class_patch_seen_after_warm_calls(api, monkeypatch):
    cls = type(get_api(api))
    before = [msgkit.mk_msgs(TEXTS, api) for _ in range(3)][-1]  # the checks made and kept
    v = rules_version()
    monkeypatch.setattr(cls, 'text_msg', shout(cls.text_msg))
    assert rules_version() > v
    after = msgkit.mk_msgs(TEXTS, api)
    assert 'HELLO!' in repr(after) and 'Hello!' not in repr(after), after
    monkeypatch.undo()
    assert msgkit.mk_msgs(TEXTS, api) == before and 'Hello!' in repr(before)

@pytest.mark.parametrize('api', APIS)
def test_base_patch_seen_after_warm_calls(api, monkeypatch):
    "A rule patched on the base class every adapter inherits (`Adapter.takes`): images refused at once"
    for _ in range(3): msgkit.mk_msgs(IMGS, api)
    monkeypatch.setattr(Adapter, 'takes', lambda self, p: dict.get(p, 'type')!='image')
    with pytest.raises(InputError): msgkit.mk_msgs(IMGS, api)
    monkeypatch.undo()
    msgkit.mk_msgs(IMGS, api)

@pytest.mark.parametrize('api', APIS)
def test_instance_patch_seen_after_warm_calls(api, monkeypatch):
    ad = get_api(api)
    before = [msgkit.mk_msgs(TEXTS, api) for _ in range(3)][-1]
    v = rules_version()
    monkeypatch.setattr(ad, 'text_msg', shout(type(ad).text_msg).__get__(ad), raising=False)
    assert rules_version() == v  # (an instance's own: asked each time, not counted)
    assert 'HELLO!' in repr(msgkit.mk_msgs(TEXTS, api))
    monkeypatch.undo()
    assert msgkit.mk_msgs(TEXTS, api) == before

def test_every_adapter_counts_its_changes():
    "Every registered adapter's class, and each class it inherits from (but `object`), is one `Rules` counts"
    msgkit.apis()
    from msgkit.registry import _apis
    for n,a in _apis.items():
        for c in type(a).__mro__[:-1]: assert isinstance(c, Rules), (n, c)
