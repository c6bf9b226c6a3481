"""Review s11c of 0d2da24 (readers that `reads_msgs` read a `Msg` sent back as it is: `plain.OBJS`/`ARRS`, `copy_json`,
`copy_msg`, `plain_json` taking `Block`s and `Blocks`) and a463ed0 (`plain.shipped` compared by `attrgetter`, an
unregistered adapter of a class of its own asked of its own class too; `plain.vouches`; `_texts` building its makers
once the first item is text).

Every test compares what `mk_msgs` (or `mk_request`) gives with what the general path gives (every short way off:
`plain_turns`, `_texts`, `own_history`), as JSON with key order, types and warnings, or the error.

The first group are defects (22 tests that failed; each predates both commits: the same at 0d2da24^, none in the
reading of `Msg`s as they are). All fixed since: D1 `registered` means one msgkit ships; D2 a shipped dialect's class is
compared with itself as first asked (a patch before its first use is still taken as shipped); D3, D4 `_texts` asks a
user adapter's `text_msg` of each text, and goes the general path at any error; D5 `plain_turns` puts the target's own
reader first; D6 Chat's snapshot holds `roles`.
  D1 a user's subclass *registered* (`register`) has its own `tidy`/`roles` skipped by the text path (`shipped.ok`'s
     `registered(ad)` short cut: a463ed0 fixed the unregistered case only);
  D2 a registered dialect's class (or `Dialect`) patched (`tidy`, `chk_role`): skipped the same way (no dialect class
     has a snapshot of its own, and `registered` passes);
  D3 a user's adapter whose text rule refuses the probe text (`plain.HOLES`) with an exception not msgkit's own: a plain
     ASCII history fails (`_texts` catches `MsgkitError` alone);
  D4 a user's adapter whose text message depends on the text (a cap, paragraphs): the hole-checked maker stands for it;
  D5 `registry.all_adapters` keeps its reader list by name: an adapter *instance* of a shipped class and the registered
     one share it, so the later one's own Claude messages are rendered anew instead of kept as they came;
  D6 `openai_chat`'s snapshot leaves out `roles` (its `chk_role` reads it): a patched or subclassed `roles` is not seen.
The second group are the areas probed that held (regression tests, passing): `Msg`s sent back holding unusual
arguments, mutated after `mk_msgs` returned them, mixed with plain dicts, `AttrDict`s, other APIs' forms; aliasing
both ways; Gemini signatures; `mk_request`; unregistered subclasses (a463ed0's fix); registered dialects."""
import base64, copy, json, os, random, sys, warnings
import pytest
import msgkit
from fastcore.basics import AttrDict
from msgkit import core, plain, registry
from msgkit.msgs import Msg, Block, Blocks, History
from msgkit.registry import get_api, apis, register, unregister
from msgkit.errors import InputError
from msgkit.adapters.base import Adapter
from msgkit.adapters.anthropic import AnthropicAdapter
from msgkit.adapters.openai import OpenAIAdapter
from msgkit.adapters.bedrock import BedrockAdapter
from msgkit.adapters.gemini import GeminiAdapter
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from msgkit.adapters.dialects.base import Dialect

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
import oracle
from peers import tool_chat, big_png
from test_perf22_loop import call, asst, tool, Q, A
from test_perf22_text import types
from shortways import short_ways_off

LANE = ('openai', 'anthropic', 'gemini', 'bedrock')
ALL = LANE + ('openai_chat',)
CLS = dict(anthropic=AnthropicAdapter, openai=OpenAIAdapter, bedrock=BedrockAdapter, gemini=GeminiAdapter,
           openai_chat=OpenAIChatAdapter)
TXT = ['Hi', 'Hello.', 'How are you?']
PNG = big_png(2_000)

@pytest.fixture(autouse=True)
def own_reader_lists(monkeypatch):
    "Each test its own reader lists: an adapter instance named as a shipped one keeps none past the test (D5)"
    monkeypatch.setattr(registry, '_lists', {})

def out(h, api, dc=True, **kw):
    "Everything `mk_msgs` gives for `h`: messages as JSON (key order kept), their types, the warnings; or the error"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_msgs(copy.deepcopy(h) if dc else h, api, **kw)
        except Exception as e: return ('error', type(e).__name__, str(e))
    return [json.dumps(m, default=repr) for m in r], types(list(r)), type(r).__name__, [(w.category, str(w.message)) for w in ws]

class general:
    "Every short way off (`plain_turns`, `_texts`, `own_history`): the reference"
    def __enter__(self):
        self.m = pytest.MonkeyPatch()
        short_ways_off(self.m)  # (`shortways`: by their one door, so one added later is off too)
    def __exit__(self, *a): self.m.undo()

def gen(h, api, **kw):
    with general(): return out(h, api, **kw)

def same(mk, api, **kw):
    "The fast and the general outcome for fresh inputs from builder `mk` (no deepcopy: a `Msg`'s own values kept)"
    f = out(mk(), api, dc=False, **kw)
    with general(): g = out(mk(), api, dc=False, **kw)
    return f, g

def taken(h, api):
    ad = get_api(api)
    ts = plain.plain_turns(h, ad)
    return ts is not None and ad.plain_msgs(ts) is not None

def conts(x):
    if isinstance(x, (dict, list)):
        yield x
        for v in (x.values() if isinstance(x, dict) else x): yield from conts(v)

def shared(h, r):
    "The dicts and lists of output `r` that are input `h`'s"
    ins = {id(o) for m in h for o in conts(m)}
    return [o for m in r for o in conts(m) if id(o) in ins]

def _upper(o):
    "Texts upper-cased in place (a rule of a user's `tidy`)"
    if isinstance(o, dict):
        for k, v in list(o.items()):
            if k in ('text', 'content') and isinstance(v, str): dict.__setitem__(o, k, v.upper())
            else: _upper(v)
    elif isinstance(o, list):
        for v in o: _upper(v)

def upper_tidy(base):
    def tidy(self, ms, *a, **k):
        r = base.tidy(self, ms, *a, **k)
        for m in r: _upper(m)
        return r
    return tidy

# ================================================================ defects (failing; each predates 0d2da24 and a463ed0)

# ---- D1: a user's subclass registered under a name of its own: `shipped`'s `registered(ad)` short cut skips its own
# class, so `_texts` (which never calls `tidy` or `chk_role`) stands for rules that are not the shipped ones.
# plain.py `shipped.ok`: `(type(ad) is cls or registered(ad) or get(type(ad))==now)`. (a463ed0 fixed it for an
# unregistered subclass only; registering is how a user names an adapter: `register`.)
@pytest.fixture
def reg_sub():
    made = []
    def mk(api, **members):
        C = type(f'Reg_{api}', (CLS[api],), dict(name=f's11c_{api}', **members))
        register(C); made.append(C.name)
        return C.name
    yield mk
    for n in made: unregister(n)

@pytest.mark.parametrize('api', ALL)
def test_registered_subclass_own_tidy_text_path(api, reg_sub):
    name = reg_sub(api, tidy=upper_tidy(CLS[api]))
    want = gen(TXT, name)
    assert want[0] != 'error' and 'HI' in want[0][0]  # (the general path applies the subclass's tidy)
    assert out(TXT, name) == want

def test_registered_subclass_own_roles_text_path(reg_sub):
    "A registered subclass taking the user's role alone: the general path refuses the assistant's text"
    name = reg_sub('anthropic', roles=('user',))
    want = gen(TXT, name)
    assert want[0] == 'error'
    assert out(TXT, name) == want

def test_registered_subclass_own_tidy_mk_request(reg_sub):
    name = reg_sub('anthropic', tidy=upper_tidy(AnthropicAdapter))
    def rq(): return json.dumps(msgkit.mk_request(list(TXT), name, model='m', max_tokens=10), default=repr)
    with general(): want = rq()
    assert rq() == want

# ---- D2: a registered dialect's class (or `Dialect`) patched: `registered(ad)` passes, the snapshot is
# `OpenAIChatAdapter`'s, so the text path skips the patched `tidy`/`chk_role`/`roles`. (No dialect class has a
# snapshot of its own.)
def _d_tidy(self, ms, *a, **k):
    r = OpenAIChatAdapter.tidy(self, ms, *a, **k)
    for m in r: _upper(m)
    return r

def _d_chk_role(self, m):
    if m.get('role') == 'assistant': raise InputError("this server takes no assistant turns")

@pytest.mark.parametrize('where', ['groq', 'Dialect'])
@pytest.mark.parametrize('rule', ['tidy', 'chk_role'])
def test_patched_dialect_class_rule_text_path(rule, where, monkeypatch):
    target = type(get_api('groq')) if where == 'groq' else Dialect
    out(TXT, 'groq')  # (warm)
    val = dict(tidy=_d_tidy, chk_role=_d_chk_role)[rule]
    monkeypatch.setattr(target, rule, val, raising=False)
    want = gen(TXT, 'groq')
    assert want[0] == 'error' or 'HI' in want[0][0]
    assert out(TXT, 'groq') == want

# ---- D6: `openai_chat`'s snapshot (openai_chat.py `_as_shipped = shipped(OpenAIChatAdapter, ...)`) leaves out
# `roles`, which its `chk_role` reads (the other four APIs' snapshots hold it): `roles` set on the instance, the class or a
# user's subclass is not seen, and the text path (and `own_history`) give messages the general path refuses.
@pytest.mark.parametrize('where', ['instance', 'class', 'subclass'])
def test_openai_chat_roles_patched(where, monkeypatch):
    h = [dict(role='user', content='Hi'), dict(role='assistant', content='Yo.')]
    out(TXT, 'openai_chat'); out(h, 'openai_chat')  # (warm)
    ad = get_api('openai_chat')
    if where == 'subclass': ad = type('Sub', (OpenAIChatAdapter,), dict(roles=('user', 'system')))()
    else: monkeypatch.setattr(ad if where == 'instance' else OpenAIChatAdapter, 'roles', ('user', 'system'))
    for x in (TXT, h):
        want = gen(x, ad)
        assert want[0] == 'error'
        assert out(x, ad) == want

# ---- D3: a user's adapter whose text rule refuses the probe text `plain.HOLES` (a NUL, 'ünï') with an exception not
# msgkit's own: `_texts` catches `MsgkitError` alone (core.py `except MsgkitError: return None`), so a history of plain
# ASCII text fails where the general path renders it.
class AsciiS11c(Adapter):
    "A toy API whose wire is ASCII (its text part encodes)"
    name, msgs_key = 'ascii_s11c', 'turns'
    def part(self, p, role='user'): return self.chk(p) and p.text.encode('ascii').decode()
    def msg(self, role, blocks): return dict(role=role, content=' '.join(blocks))
    def request(self, msgs, model=None, system=None, **kw): return dict(model=model, turns=msgs, **kw)

class NulS11c(AsciiS11c):
    "A toy API refusing a NUL with a ValueError"
    name = 'nul_s11c'
    def part(self, p, role='user'):
        if '\0' in p.text: raise ValueError('no NUL in text')
        return p.text

@pytest.mark.parametrize('cls', [AsciiS11c, NulS11c])
def test_probe_text_refused_by_a_plain_exception(cls):
    want = gen(['Hi', 'Hello.'], cls())
    assert want[0] != 'error'
    assert out(['Hi', 'Hello.'], cls()) == want

# ---- D4: a user's adapter whose text message depends on the text (a length cap, paragraphs as blocks): the text
# maker (`msg_maker` of the first hole) is checked against the second hole alone (plain.text_maker), so it stands for
# `text_msg` on texts it was never asked about. (`vouches` False: checked each call, but only with `HOLES[1]`.)
class CapS11c(AsciiS11c):
    "A toy API keeping a text's first 100 characters"
    name = 'cap_s11c'
    def part(self, p, role='user'): return p.text[:100]

class ParaS11c(AsciiS11c):
    "A toy API taking a text's paragraphs as blocks"
    name = 'para_s11c'
    def part(self, p, role='user'): return p.text
    def msg(self, role, blocks): return dict(role=role, content=[dict(text=t) for b in blocks for t in b.split('\n\n')])

@pytest.mark.parametrize('cls', [CapS11c, ParaS11c])
def test_text_maker_stands_for_a_text_dependent_rule(cls):
    h = ['x' * 150, 'Para one.\n\nPara two.']
    assert out(h, cls()) == gen(h, cls())

# ---- D5: `registry.all_adapters` keeps its reader list by the target's name (`k = first.name`): an adapter instance
# of a shipped class (`get_api` takes one) meets the other instance's reader first, `plain_turns` finds no `own`
# (`fs[0].__self__ is ad` false), and the target's own messages, which the general path keeps as they came, are
# rendered anew (a `tool_result`'s text content as a block, a `tool_use`'s keys reordered). Either order: the
# registered 'anthropic' after an instance, or an instance after 'anthropic'.
CLAUDE = [dict(role='user', content='Weather?'),
          dict(role='assistant', content=[dict(type='text', text='Looking.'),
                                          dict(id='toolu_1', type='tool_use', name='get_weather', input=dict(city='Paris'))]),
          dict(role='user', content=[dict(type='tool_result', tool_use_id='toolu_1', content='sunny')]),
          dict(role='assistant', content='Sunny.')]

@pytest.mark.parametrize('first', ['instance', 'registered'])
@pytest.mark.parametrize('form', ['dicts', 'msgs'])
def test_adapter_instance_reader_list_by_name(first, form, monkeypatch):
    monkeypatch.setattr(registry, '_lists', {})
    h = CLAUDE if form == 'dicts' else History(Msg(m) for m in CLAUDE)
    inst = AnthropicAdapter()
    a, b = (inst, 'anthropic') if first == 'instance' else ('anthropic', inst)
    assert out(h, a) == gen(h, a)  # (the first: as the general path)
    assert out(h, b) == gen(h, b)

# ================================================================ areas probed clean (passing)

class S(str): pass

def deep(n, kind='dict'):
    v = 1
    for _ in range(n): v = {'a': v} if kind == 'dict' else [v]
    return v

def deepB(n):
    v = 1
    for _ in range(n): v = Block(a=v)
    return v

ARGS = dict(none={'a': None}, nan={'a': float('nan')}, inf={'a': float('inf')}, bytes={'a': b'x'}, tuple={'a': (1, 2)},
            set={'a': {1}}, intkey={1: 'x'}, strsub_v={'a': S('x')}, strsub_k={S('a'): 'x'}, boolint={'a': True, 'b': 1},
            big={'a': 10**30}, empty={}, empties={'a': {}, 'b': []}, bytearray={'a': bytearray(b'x')},
            attrdict={'a': AttrDict(b=1)}, block_in_list={'a': [Block(b=1)]}, blocks={'a': Blocks([1, Block(c=2)])},
            none_deep={'a': [{'b': [1, {'c': None}]}]}, float_key={1.5: 1}, none_key={None: 1},
            enum={'a': __import__('enum').IntEnum('E', 'X').X})
for _n in (22, 23, 24, 25, 26, 30, 33):
    ARGS[f'dict{_n}'], ARGS[f'list{_n}'], ARGS[f'block{_n}'] = deep(_n), {'a': deep(_n - 1, 'list')}, deepB(_n)

def set_args(b, src, a):
    m = b[1]
    if src == 'anthropic': m['content'][1]['input'] = a  # (a `Block`'s item set as it is, no wrap: as a user does)
    elif src == 'bedrock': m['content'][1]['toolUse']['input'] = a
    else: m['parts'][1]['function_call']['args'] = a

@pytest.mark.parametrize('src', ['anthropic', 'bedrock', 'gemini'])
def test_msg_args_as_general(src):
    "Tool arguments a user put in a `Msg` sent back (None, NaN, bytes, sets, str subclasses, nested 22-33 deep)"
    bad = []
    for nm, a in ARGS.items():
        def mk(a=a):
            b = msgkit.mk_msgs(tool_chat(8), src); set_args(b, src, copy.deepcopy(a)); return b
        for api in ALL:
            f, g = same(mk, api)
            if f != g: bad.append((nm, api, f, g))
    assert not bad, bad[:2]

K = lambda src: 'parts' if src == 'gemini' else 'content'

def base(src):
    return msgkit.mk_msgs(tool_chat(8) + [Q, asst([call('c1'), call('c2', 'get_time', '{"tz": "UTC"}')]), tool('c1'),
                                          tool('c2'), A], src)

def _calls(b, src):
    return [x for m in b if isinstance(m.get(K(src)), list) for x in m[K(src)]
            if isinstance(x, dict) and (x.get('type') == 'tool_use' or 'toolUse' in x or 'function_call' in x)]

def _results(b, src):
    return [x for m in b if isinstance(m.get(K(src)), list) for x in m[K(src)]
            if isinstance(x, dict) and (x.get('type') == 'tool_result' or 'toolResult' in x or 'function_response' in x)]

def _lists_of(b, src): return [m for m in b if isinstance(m.get(K(src)), list)]

def _item(b, t): return next((m for m in b if m.get('type') == t), None)

def _m_plain_list(b, src):
    for m in _lists_of(b, src): dict.__setitem__(m, K(src), list(m[K(src)]))
def _m_block_dict(b, src):
    for m in _lists_of(b, src): m[K(src)][0] = dict(m[K(src)][0])
def _m_block_attr(b, src):
    for m in _lists_of(b, src): m[K(src)][0] = AttrDict(m[K(src)][0])
def _m_top_strsub(b, src):
    for m in b:
        if isinstance(m.get(K(src)), str): dict.__setitem__(m, K(src), S(m[K(src)]))
def _m_block_strsub(b, src):
    for m in _lists_of(b, src):
        if 'text' in m[K(src)][0]: m[K(src)][0]['text'] = S(m[K(src)][0]['text'])
def _m_role_strsub(b, src):
    for m in b:
        if 'role' in m: dict.__setitem__(m, 'role', S(m['role']))
def _m_extra_key(b, src): b[1]['name'] = 'bob'
def _m_extra_none(b, src): dict.__setitem__(b[1], 'name', None)
def _m_key_order(b, src):
    for i, m in enumerate(b): b[i] = Msg({k: m[k] for k in reversed(list(m))})
def _m_append_dict(b, src):
    for m in b:
        if isinstance(m.get(K(src)), list) and m.get('role') == 'user':
            m[K(src)].append({'type': 'text', 'text': 'More.'} if src in ('anthropic', 'openai') else {'text': 'More.'}); break
def _m_append_attr(b, src):
    for m in b:
        if isinstance(m.get(K(src)), list) and m.get('role') == 'user':
            m[K(src)].append(AttrDict({'type': 'text', 'text': 'More.'} if src in ('anthropic', 'openai') else {'text': 'More.'})); break
def _m_status(b, src):
    if src == 'bedrock': _results(b, src)[0]['toolResult']['status'] = 'error'
def _m_is_error(b, src):
    if src == 'anthropic': _results(b, src)[0]['is_error'] = True
def _m_image(b, src): b[4:5] = msgkit.mk_msgs([[PNG, 'What is it?']], src)
def _m_same_block_twice(b, src):
    for m in b:
        c = m.get(K(src))
        if isinstance(c, list) and m.get('role') == 'user' and len(c) == 1 and 'text' in c[0]: c.append(c[0]); break
def _m_shared_args(b, src):
    cs = _calls(b, src)
    if len(cs) >= 2:
        g = (lambda x: x) if src == 'anthropic' else (lambda x: x['toolUse']) if src == 'bedrock' else (lambda x: x['function_call'])
        k = 'args' if src == 'gemini' else 'input'
        g(cs[1])[k] = g(cs[0])[k]
def _m_tuple(b, src):
    for m in _lists_of(b, src): dict.__setitem__(m, K(src), tuple(m[K(src)])); break
def _m_result_strsub(b, src):
    r = _results(b, src)
    if src == 'anthropic': r[0]['content'] = S('x')
    if src == 'bedrock': r[0]['toolResult']['content'][0]['text'] = S('x')
    if src == 'gemini': r[0]['function_response']['response']['output'] = S('x')
    if src == 'openai': dict.__setitem__(_item(b, 'function_call_output'), 'output', S('x'))
def _m_id_strsub(b, src):
    c = _calls(b, src)
    if src == 'anthropic': c[0]['id'] = S(c[0]['id'])
    if src == 'bedrock': c[0]['toolUse']['toolUseId'] = S(c[0]['toolUse']['toolUseId'])
    if src == 'gemini': c[0]['function_call']['id'] = S(c[0]['function_call']['id'])
    if src == 'openai': dict.__setitem__(_item(b, 'function_call'), 'call_id', S('c'))
def _m_args_text_strsub(b, src):
    if src == 'openai': dict.__setitem__(_item(b, 'function_call'), 'arguments', S('{"a": 1}'))
def _m_fc_id(b, src):
    if src == 'openai': _item(b, 'function_call')['id'] = 'fc_1'
def _m_mixed_plain(b, src):
    for i in range(0, len(b), 2): b[i] = json.loads(json.dumps(b[i], default=lambda x: base64.b64encode(x).decode()))
def _m_attr_all(b, src):
    for i in range(len(b)): b[i] = AttrDict(b[i])
def _m_msg_subclass(b, src):
    class M2(Msg): pass
    b[0] = M2(b[0])
def _m_nested_plain(b, src):
    c = _calls(b, src)
    if src == 'anthropic': c[0]['input'] = dict(c[0]['input'])
    if src == 'bedrock': c[0]['toolUse'] = dict(c[0]['toolUse'])
    if src == 'gemini': c[0]['function_call'] = dict(c[0]['function_call'])
def _m_nested_attr(b, src):
    c = _calls(b, src)
    if src == 'bedrock': c[0]['toolUse'] = AttrDict(c[0]['toolUse'])
    if src == 'gemini': c[0]['function_call'] = AttrDict(c[0]['function_call'])
def _m_call_extra(b, src):
    c = _calls(b, src)
    if src == 'anthropic': c[0]['cache_control'] = {'type': 'ephemeral'}
    if src == 'bedrock': c[0]['toolUse']['extra'] = 1
    if src == 'gemini': c[0]['function_call']['extra'] = 1
def _m_none(b, src): pass

MUTS = {k[3:]: v for k, v in dict(globals()).items() if k.startswith('_m_')}

def mutated(src, f):
    def mk():
        b = base(src); f(b, src); return b
    return mk

@pytest.mark.parametrize('src', ['anthropic', 'bedrock', 'gemini', 'openai', 'openai_chat'])
def test_msgs_mutated_as_general(src):
    "`Msg`s `mk_msgs` returned, changed by hand (plain lists and dicts, `AttrDict`s, str subclasses, extra keys, ...)"
    bad = []
    for nm, f in MUTS.items():
        for api in ALL:
            a, b = same(mutated(src, f), api)
            if a != b: bad.append((nm, api, a, b))
    assert not bad, bad[:2]

@pytest.mark.parametrize('src', ['anthropic', 'bedrock', 'gemini', 'openai'])
def test_msgs_mutated_accepted_and_unshared(src):
    "What the lane gives for them: accepted by the oracle, sharing no dict or list with them, both ways independent"
    n = 0
    for nm, f in MUTS.items():
        for api in LANE:
            h = mutated(src, f)()
            if not taken(h, api): continue
            n += 1
            h0 = copy.deepcopy(h)
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                r = msgkit.mk_msgs(h, api)
            oracle.check(api, r)
            assert not shared(h, r), (nm, api)
            r0 = json.dumps(r, default=repr)
            for m in h:  # (the input changed: the output stays)
                for o in conts(m):
                    if isinstance(o, dict): o['zz'] = 1
            assert json.dumps(r, default=repr) == r0, (nm, api)
            h = copy.deepcopy(h0); r = msgkit.mk_msgs(h, api)
            for m in r:  # (the output changed: the input stays)
                for o in conts(m):
                    if isinstance(o, dict): dict.__setitem__(o, 'zz', 1)
            assert h == h0, (nm, api)
    assert n > 10, n

SIGS = ['c2lnIQ', 'c2lnIQ==', 'c2ln IQ==', 'c2lnIQ==\n', '-_-_', '', '====', 'YQ', 'Y', 'c2lnIQ==c2lnIQ==', 'é',
        b'', b'\x00', S('c2lnIQ=='), bytearray(b'sig'), None, 'skip_thought_signature_validator']

@pytest.mark.parametrize('as_json', [False, True])
def test_gemini_signatures_as_general(as_json):
    bad = []
    for s in SIGS:
        def mk(s=s):
            b = base('gemini'); _calls(b, 'gemini')[0]['thought_signature'] = s
            if as_json: b = [plain.as_plain(m) if i == 1 else json.loads(json.dumps(m, default=lambda x: base64.b64encode(x).decode()))
                             for i, m in enumerate(b)]
            return b
        for api in ALL:
            f, g = same(mk, api)
            if f != g: bad.append((s, api, f, g))
    assert not bad, bad[:2]

MODEL = dict(openai='gpt-4.1', openai_chat='gpt-4.1', anthropic='claude-sonnet-4-5', gemini='gemini-2.5-flash',
             bedrock='anthropic.claude-3-5-sonnet-20240620-v1:0')
TOOLS = [dict(name='get_weather', description='w', parameters=dict(type='object', properties=dict(city=dict(type='string')))),
         dict(name='get_time', description='t', parameters=dict(type='object', properties=dict(tz=dict(type='string'))))]

def rout(h, api, **kw):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_request(h, api, model=MODEL[api], **kw)
        except Exception as e: return ('error', type(e).__name__, str(e))
    return json.dumps(r, default=repr), [(w.category.__name__, str(w.message)) for w in ws]

@pytest.mark.parametrize('src', ['anthropic', 'gemini', 'openai'])
def test_mk_request_msgs_as_general(src):
    bad = []
    for nm in ('none', 'block_dict', 'append_attr', 'key_order', 'mixed_plain', 'status', 'is_error', 'shared_args'):
        for api in ALL:
            for kw in (dict(), dict(system='Be brief.', tools=TOOLS, max_tokens=100)):
                f = rout(mutated(src, MUTS[nm])(), api, **kw)
                with general(): g = rout(mutated(src, MUTS[nm])(), api, **kw)
                if f != g: bad.append((nm, api, list(kw), f, g))
    assert not bad, bad[:2]

def test_mixed_sources_as_general():
    "Histories of rounds from several APIs' forms (`Msg`s, JSON, `AttrDict`s, changed by hand), as a list or `History`"
    srcs = ('anthropic', 'bedrock', 'gemini', 'openai', 'openai_chat')
    segs = {}
    for s in srcs:  # (rounds: a question, the calls and results, the answer)
        r, cur, out_ = base(s), [], []
        for m in r:
            if m.get('role') == 'user' and isinstance(m.get(K(s)), (str, list)) and not _results([m], s) and cur:
                out_.append(cur); cur = []
            cur.append(m)
        segs[s] = out_ + [cur]
    rnd, bad, n = random.Random(11), [], 0
    for it in range(70):
        picks = [rnd.choice(srcs) for _ in range(rnd.randint(1, 4))]
        def mk(picks=picks, seed=it):
            r2, h = random.Random(seed), History()
            for s in picks:
                sg = copy.deepcopy(r2.choice(segs[s])); k = r2.random()
                if k < 0.2: sg = [json.loads(json.dumps(m, default=lambda x: base64.b64encode(x).decode())) for m in sg]
                elif k < 0.3: sg = [AttrDict(m) for m in sg]
                elif k < 0.5:
                    b = History(sg)
                    try: r2.choice(list(MUTS.values()))(b, s)
                    except Exception: pass
                    sg = list(b)
                h += sg
            return h if r2.random() < 0.5 else list(h)
        for api in ALL:
            f, g = same(mk, api)
            n += api in LANE and taken(mk(), api)
            if f != g: bad.append((picks, api, f, g))
    assert not bad, bad[:2]
    assert n > 40, n

@pytest.mark.parametrize('api', ALL)
@pytest.mark.parametrize('rule', ['tidy', 'roles', 'text_of', 'text_msg'])
def test_unregistered_subclass_rule_followed(api, rule):
    "a463ed0's fix: a user's subclass passed as `api=MySub()` is asked of its own class"
    C = CLS[api]
    val = dict(tidy=upper_tidy(C), roles=('user',), text_of=lambda self, d, role: None,
               text_msg=lambda self, role, s: C.text_msg(self, role, s.upper()))[rule]
    if api == 'openai_chat' and rule == 'roles': return  # (D6)
    Sub = type('Sub', (C,), {rule: val})
    for h in (TXT, [dict(role='user', content='Hi'), dict(role='assistant', content='Yo.')]):
        assert out(h, Sub()) == gen(h, Sub())

def test_registered_dialects_text_path():
    "Every registered API and dialect: plain text takes the text path (`_texts`), as the general path renders it"
    bad = []
    for a in apis():
        assert core._texts(list(TXT), get_api(a)) is not None, a
        for h in (TXT, [dict(role='user', content='Hi'), dict(role='assistant', content='Yo. '), 'q'],
                  History([Msg(role='user', content='Hi'), Msg(role='assistant', content='Yo.')]), ['a\0b', 'ünï']):
            if out(h, a) != gen(h, a): bad.append((a, h))
    assert not bad, bad[:3]
    assert {a for a in apis() if registry.vouches(get_api(a))} == set(ALL)

@pytest.mark.parametrize('api', ['groq', 'anthropic', 'mistral'])
def test_instance_and_text_msg_patches_followed(api, monkeypatch):
    "A registered adapter's instance patch, and a dialect class's `text_msg` patch, are followed at once"
    out(TXT, api)  # (warm)
    ad = get_api(api)
    monkeypatch.setattr(ad, 'tidy', upper_tidy(type(ad)).__get__(ad), raising=False)
    assert out(TXT, api) == gen(TXT, api)
    monkeypatch.undo()
    if api != 'anthropic':
        C = type(ad)
        monkeypatch.setattr(C, 'text_msg', lambda self, role, s: OpenAIChatAdapter.text_msg(self, role, s + '!'))
        w = gen(TXT, api)
        assert 'Hi!' in w[0][0] and out(TXT, api) == w

def test_instance_of_a_dialect_class_as_general():
    "An unregistered instance of a dialect's class (a snapshot not of its class): the same as the general path"
    for a in ('groq', 'mistral', 'openrouter'):
        ad = type(get_api(a))()
        assert out(TXT, ad) == gen(TXT, ad)
