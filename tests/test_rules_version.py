"""#22, session 11: the short ways' "rules as shipped" check, made cheaper, still follows every patch at once.

`plain.shipped` compares an adapter's rules with its snapshot in C (`attrgetter`), asked of the adapter's own class; a
text maker is checked on each call but where the snapshot vouches for `text_msg` (`vouches`). Here: histories are made
first (the makers kept), then a rule is patched on the adapter's class, on its base `Adapter`, on the instance, or on a
subclass: what `mk_msgs` gives must follow the patched rule at once, and go back when the patch is undone."""
import pytest
import msgkit
from msgkit.registry import get_api
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
    monkeypatch.setattr(cls, 'text_msg', shout(cls.text_msg))
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
    monkeypatch.setattr(ad, 'text_msg', shout(type(ad).text_msg).__get__(ad), raising=False)
    assert 'HELLO!' in repr(msgkit.mk_msgs(TEXTS, api))
    monkeypatch.undo()
    assert msgkit.mk_msgs(TEXTS, api) == before

@pytest.mark.parametrize('api', APIS)
def test_subclass_with_its_own_rule(api):
    "A subclass of a shipped adapter that spells a rule its own way (`tidy`: the first message alone) is not vouched for"
    cls = type(get_api(api))
    class Mine(cls):
        def tidy(self, msgs): return cls.tidy(self, msgs)[:1]
    for _ in range(3): msgkit.mk_msgs(TEXTS, api)
    assert len(msgkit.mk_msgs(TEXTS, Mine())) == 1
