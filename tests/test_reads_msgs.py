"""#22, session 11: the readers that `reads_msgs` read what `mk_msgs` returned (`Msg`s of `Block`s and `Blocks`) as it is.

Before, every `Msg` sent back was first copied to plain dicts (`plain.as_plain`), then read, then copied again into the
output (`copy_msg`). Now the Responses, Claude, Converse and Gemini readers take a `Msg` as it is (`plain.OBJS`, `ARRS`),
and only what they do not read goes through the plain copy. Here: for every sent-back case of `test_plain`, each reader
reads the `Msg` as it reads its plain copy (the same turn, or `None` both); the bench's loops, sent back, are read with no
plain copy at all; what they give is the general path's (`test_plain.test_sent_back_as_general` compares every case), and
shares nothing with the input."""
import copy
import pytest
import msgkit
from msgkit import plain
from msgkit.msgs import Msg, Block, Blocks
from msgkit.registry import get_api
from test_plain import sent_back_cases, SOURCES, tool_chat, _out, _general
import oracle

READERS = [a for a in SOURCES if get_api(a).reads_msgs]

def test_which_read_msgs():
    assert set(READERS) == {'openai', 'anthropic', 'bedrock', 'gemini'}

def _norm(t):
    "A plain turn with its kept dict as the plain dict it holds (the `Msg` or its plain copy: the same items)"
    return None if t is None else t[:3] + (None if t[3] is None else plain.as_plain(t[3]),)

@pytest.mark.parametrize('src', READERS)
def test_reader_reads_a_msg_as_its_plain_copy(src):
    "Every message of every sent-back case, each reader: the same turn from the `Msg` as from its plain copy"
    n = 0
    for h in sent_back_cases(src):
        for o in h:
            if type(o) is not Msg: continue
            for a in READERS:
                f = get_api(a).plain_turn
                raw, flat = f(o), f(plain.as_plain(o))
                assert _norm(raw) == _norm(flat), (a, o)
                n += raw is not None
    assert n > 200, n

@pytest.mark.parametrize('api', READERS)
def test_loop_sent_back_read_without_a_plain_copy(api, monkeypatch):
    "The bench's tool loop, as `mk_msgs` gave it, sent back to its API: read with no `as_plain`, as the general path gives"
    back = msgkit.mk_msgs(tool_chat(40), api)
    want = _out(back, api)
    with monkeypatch.context() as m:
        m.setattr(plain, 'as_plain', lambda v, d=0: pytest.fail('copied to be read'))
        got = msgkit.mk_msgs(back, api)
    assert _out(back, api) == want
    with monkeypatch.context() as m:
        _general(m)
        assert _out(back, api) == want
    oracle.check(api, got)

@pytest.mark.parametrize('api', READERS)
def test_no_alias_of_a_msg_read_as_it_is(api):
    "What the lane gives for `Msg`s read as they are shares no dict or list with them, which stay as they were"
    back = msgkit.mk_msgs(tool_chat(12), api)
    before = copy.deepcopy(back)
    out = msgkit.mk_msgs(back, api)
    ids = set()
    def walk(v, acc):
        if isinstance(v, (dict, list)):
            acc.add(id(v))
            for o in (v.values() if isinstance(v, dict) else v): walk(o, acc)
    walk(back, ids)
    outs = set(); walk(list(out), outs)
    assert not ids & outs
    for m in out: m['content' if 'content' in m else 'parts' if 'parts' in m else 'type'] = 'changed'
    assert back == before

def test_a_msg_holding_other_dicts_reads_as_its_copy(monkeypatch):
    "`Msg`s a user filled by hand (fastcore `AttrDict`s, plain dicts inside): read as before, through the plain copy"
    from fastcore.basics import AttrDict
    hs = []
    for api in ('anthropic', 'bedrock', 'gemini'):
        back = msgkit.mk_msgs(tool_chat(8), api)
        k = 'parts' if api == 'gemini' else 'content'
        hs.append((api, back[:2] + [Msg({**back[2], k: Blocks([AttrDict(o) for o in back[2][k]])})] + back[3:]))
        hs.append((api, back[:2] + [Msg({**back[2], k: Blocks([dict(o) for o in back[2][k]])})] + back[3:]))
    fast = [_out(h, api) for api,h in hs]
    _general(monkeypatch)
    assert fast == [_out(h, api) for api,h in hs]
    assert all(f[0] != 'error' for f in fast)
