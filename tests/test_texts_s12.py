"""#22, session 12: text histories the shortest ways, each the same as the general path gives, and accepted.

- `core._strs`: a history of strings alone, checked in C by the set of their first characters (only a text that opens
  with a space, an h or a d is asked `plain_str`) and made by the makers' `many` (`msg_maker`: a flat template copied
  and its text set in C).
- `openai_chat._text_chat`: Chat dicts of text alone, user and assistant in turn (a system message first), copied in C.
- `Adapter.texts_send`: what `before_send` does to messages of text alone (Gemini: nothing; Bedrock: a prefill's
  trailing whitespace), asked of `before_send` itself once that is patched.

Each case compares `mk_msgs` (short ways on) with the general path (every short way off): the messages as JSON with
their key order, the types of every dict and list, the warnings, or the error; and the output is checked by the
oracle (the SDKs' request types, strictly, and the documented rules)."""
import copy, json, warnings
import pytest
import msgkit
from msgkit import core
from msgkit.msgs import Msg, Block, Blocks, History, msg_maker
from msgkit.registry import get_api
from msgkit.adapters import openai_chat as oc
from msgkit.adapters.openai_chat import OpenAIChatAdapter
from shortways import short_ways_off
from msgkit.adapters.gemini import GeminiAdapter
from msgkit.adapters.bedrock import BedrockAdapter
from msgkit.adapters.anthropic import AnthropicAdapter
from oracle import check

APIS = ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock')

def types(x):
    if isinstance(x, dict): return (type(x).__name__, [(k, types(v)) for k, v in x.items()])
    if isinstance(x, list): return (type(x).__name__, [types(v) for v in x])
    return type(x).__name__

def out(h, api):
    "Everything `mk_msgs` gives for `h`: messages as JSON (key order kept), their types, the warnings; or the error"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = msgkit.mk_msgs(copy.deepcopy(h), api)
        except Exception as e: return ('error', type(e).__name__, str(e))
    return [json.dumps(m, default=repr) for m in r], types(r), [(w.category.__name__, str(w.message)) for w in ws]

def general(h, api):
    "What the general path gives: every short way off"
    with pytest.MonkeyPatch.context() as m:
        short_ways_off(m)  # (tests/shortways.py: by their one door, `plain_history`)
        return out(h, api)

def same(h, api):
    a = out(h, api)
    assert a == general(h, api), (api, h)
    return a

# ---------------------------------------------------------------- strings alone
# first characters that send a text to `plain_str` (a space of any kind, h, H, d, D) and those that don't
ODD = ['hello', 'How are you?', 'Do it', 'done', ' lead', '\u3000ideographic space first', '\u2028line sep',
       '\x1c file sep (a space to str.isspace)', '\u00a0nbsp first']
URLS = ['https://example.com/cat.png', 'HTTP://EXAMPLE.COM/a.png', 'hTtPs://example.com/a', ' https://example.com/a',
        '\u3000https://example.com/a', 'data:image/png;base64,iVBORw0KGgo=', 'DATA:text/plain,hi', '\tdata:,x']
BLANK = ['', ' ', '\n\t ', '\u3000']

@pytest.mark.parametrize('api', APIS)
def test_strings_any_first_character(api):
    "Texts opening with anything (h, d, spaces of every kind, digits, marks, emoji), alone and among others"
    plain = ['Hi', 'message 1', '1. first', '¿Qué?', '😀 grin', '{"a": 1}', '-', 'ünï', 'x' * 5000]
    for h in [plain, plain + ODD, ODD, ODD[::-1], [ODD[0]], [plain[0]], plain * 7]:
        r = same(h, api)
        assert r[0] != 'error', (api, h)
        check(api, json.loads('[' + ','.join(r[0]) + ']'))

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('bad', URLS + BLANK)
def test_strings_with_a_url_a_data_uri_or_blank(api, bad):
    "A URL, a data URI or a blank text anywhere in a history of strings: read as the general path reads it"
    for h in [[bad], ['Hi', 'Hello', bad], [bad, 'Hi'], ['Hi', bad, 'Bye', 'Ok'], ['hi', 'how', bad, 'do']]:
        same(h, api)

@pytest.mark.parametrize('api', APIS)
def test_strings_as_a_history(api):
    "A `History` of strings (what a user keeps as msgkit's own list type) goes the same way"
    same(History(['Hi', 'Hello', 'How are you?']), api)

def test_strings_short_way_taken():
    "The strings above go the short way (`_strs`), so the comparisons test it"
    for api in APIS:
        ad = get_api(api)
        assert core._strs(['Hi', 'how', ' lead', '\u3000x'], ad) is not None
        assert core._strs(['Hi', 'https://x.y/z'], ad) is None and core._strs(['Hi', ''], ad) is None
        assert core._strs(['Hi', '\u3000https://x.y/z'], ad) is None

# ---------------------------------------------------------------- the makers' `many`
def test_many_is_each():
    "A maker's `many` gives what the maker gives of each, fresh objects each time, the template untouched"
    for t in [dict(role='user', content='\0'), dict(content='\0', role='assistant', n=1, ok=None),
              dict(role='model', parts=[dict(text='\0')]), dict(role='user', content=[dict(type='text', text='\0')])]:
        keep = copy.deepcopy(t)
        f = msg_maker(t, '\0')
        ss = ['a', 'b', '', 'ünï', '\0x']
        ms = f.many(ss)
        assert ms == [f(s) for s in ss] and types(ms) == types([f(s) for s in ss])
        assert len({id(m) for m in ms}) == len(ms) and f.many([]) == []
        ms[0][next(iter(ms[0]))] = 'changed'
        assert f.many(['a'])[0] == f('a') != ms[0] and t == keep

# ---------------------------------------------------------------- Chat dicts of text alone
def u(s, first='role'): return dict(role='user', content=s) if first=='role' else dict(content=s, role='user')
def a(s, first='role'): return dict(role='assistant', content=s) if first=='role' else dict(content=s, role='assistant')

CHAT = {
    'plain': [u('Hi'), a('Hello'), u('How?')],
    'one': [u('Hi')],
    'two': [u('Hi'), a('Hello')],
    'system first': [dict(role='system', content='Be brief.'), u('Hi'), a('Hello'), u('Bye')],
    'system alone': [dict(role='system', content='Be brief.')],
    'system, model first': [dict(role='system', content='Be brief.'), a('Hello'), u('Hi')],
    'content first': [u('Hi', 'content'), a('Hello', 'content'), u('How?', 'content')],
    'mixed orders': [u('Hi', 'content'), a('Hello'), u('How?'), a('Fine', 'content')],
    'model first': [a('Hello'), u('Hi')],
    'two users': [u('Hi'), u('Again'), a('Hello')],
    'two models': [u('Hi'), a('Hello'), a('Again')],
    'blank': [u('Hi'), a(' '), u('x')],
    'empty': [u(''), a('Hello')],
    'unicode space': [u('Hi'), a('\u3000'), u('x')],
    'none content': [u('Hi'), a(None)],
    'list content': [u([dict(type='text', text='Hi')]), a('Hello')],
    'extra key': [u('Hi'), dict(role='assistant', content='Hello', name='bot')],
    'extra key later': [u('Hi'), a('Hello'), u('x'), dict(role='assistant', content='Yo', name='bot')],
    'no content': [u('Hi'), dict(role='assistant', text='Hello')],
    'no role': [u('Hi'), dict(who='assistant', content='Hello')],
    'tool role': [u('Hi'), dict(role='tool', content='42')],
    'developer': [dict(role='developer', content='Be brief.'), u('Hi')],
    'system later': [u('Hi'), dict(role='system', content='Now brief.'), u('x')],
    'url text': [u('https://example.com/cat.png'), a('A cat.')],
    'data uri text': [u('data:image/png;base64,iVBORw0KGgo='), a('A dot.')],
    'str subclass': [u(type('S', (str,), {})('Hi')), a('Hello')],
    'role subclass': [dict(role=type('R', (str,), {})('user'), content='Hi'), a('Hello')],
    'msgs sent back': [Msg(role='user', content='Hi'), Msg(content='Hello', role='assistant'), u('x')],
    'strings among': [u('Hi'), 'Hello', u('How?')],
}

@pytest.mark.parametrize('api', APIS)
@pytest.mark.parametrize('case', list(CHAT))
def test_chat_text_dicts(api, case):
    "Chat dicts of text (and near misses): what the general path gives, key order, types and all; accepted if any"
    r = same(CHAT[case], api)
    if r[0] != 'error' and api == 'openai_chat':
        try: check(api, json.loads('[' + ','.join(r[0]) + ']'))
        except Exception as e:
            if case not in ('model first', 'system, model first', 'none content'): raise  # (refused alike both ways)

def test_chat_text_lane_taken_and_refused():
    "The lane takes the plain cases (so the comparisons above test it) and no near miss"
    took = {k for k, h in CHAT.items() if oc._text_chat(h) is not None}
    # (a Chat message's text is text, never sniffed: a URL in it too. A role of a str subclass: the loop's)
    # ('msgs sent back', what `mk_msgs` gave: taken since session 15, read as the dicts they are)
    assert took == {'plain', 'one', 'two', 'system first', 'system alone', 'content first', 'mixed orders', 'url text',
                    'data uri text', 'msgs sent back'}, took
    r = oc._text_chat(CHAT['mixed orders'])
    assert [list(m) for m in r] == [['content', 'role'], ['content', 'role'], ['role', 'content'], ['content', 'role']]
    assert all(type(m) is Msg for m in r) and all(m is not o for m, o in zip(r, CHAT['mixed orders']))

def test_chat_history_input():
    "A `History` of Chat dicts and a long one: the same as the general path"
    same(History(CHAT['plain']), 'openai_chat')
    h = [u(f'q{i}') if i % 2 == 0 else a(f'a{i}') for i in range(301)]
    assert same(h, 'openai_chat')[0] != 'error'

def test_chat_output_shares_nothing():
    "Each message is a fresh `Msg`: changing one changes neither the input nor the next call's"
    h = CHAT['system first']; keep = copy.deepcopy(h)
    r = msgkit.mk_msgs(h, 'openai_chat')
    for m in r: m['content'] = 'changed'
    assert h == keep and msgkit.mk_msgs(h, 'openai_chat') == [{**m} for m in keep]

def test_chat_rule_patched_takes_the_general_path(monkeypatch):
    "A Chat rule patched (`fix_item`, say): the lane is not asked, the patched rule applies"
    h = CHAT['plain']
    monkeypatch.setattr(OpenAIChatAdapter, 'fix_item', lambda self, d: {**d, 'name': 'x'} if d.get('role')=='assistant' else d)
    r = msgkit.mk_msgs(h, 'openai_chat')
    assert r[1].get('name') == 'x'

# ---------------------------------------------------------------- texts_send
@pytest.mark.parametrize('api', APIS)
def test_prefill_whitespace(api):
    "A final assistant text with trailing whitespace (a prefill): as the general path sends it (Bedrock, Claude strip it)"
    for h in [['Hi', 'The answer is '], ['Hi', 'Hello', 'Go', 'Sure:\n\n'], [u('Hi'), a('x  ')]]:
        same(h, api)

@pytest.mark.parametrize('cls,api', [(GeminiAdapter, 'gemini'), (BedrockAdapter, 'bedrock'), (AnthropicAdapter, 'anthropic')])
def test_texts_send_asks_a_patched_before_send(monkeypatch, cls, api):
    "`before_send` patched on the class: the text path sends what the patched one gives"
    orig = cls.before_send
    def bs(self, msgs): return orig(self, msgs) + [dict(role='user', marked=True)]
    monkeypatch.setattr(cls, 'before_send', bs)
    assert get_api(api).texts_send([{'role': 'user'}])[-1] == dict(role='user', marked=True)
    assert msgkit.mk_msgs(['Hi', 'Hello', 'Bye'], api)[-1] == dict(role='user', marked=True)

@pytest.mark.parametrize('api', ['gemini', 'bedrock', 'anthropic'])
def test_texts_send_is_before_send_on_text(api):
    "On messages of text alone, `texts_send` gives what `before_send` gives"
    ad = get_api(api)
    for h in [['Hi'], ['Hi', 'Hello '], ['Hi', 'Hello', 'Bye'], ['Hi', 'Sure:\n'], [u('Hi'), a('Yo \t')]]:
        ms = core._texts(h, ad)
        assert ad.texts_send(copy.deepcopy(ms)) == ad.before_send(copy.deepcopy(ms))

# ---------------------------------------------------------------- Chat-form text dicts to the other APIs
def test_chat_strs_taken_and_refused():
    "`core._chat_strs` (Chat-form text dicts read and made in C) takes the plain cases, so the comparisons above test it"
    refused = {'model first', 'two users', 'two models', 'blank', 'empty', 'unicode space', 'none content',
               'list content', 'extra key', 'extra key later', 'no content', 'no role', 'tool role', 'developer', 'system first',
               'system alone', 'system later', 'url text', 'data uri text', 'str subclass', 'role subclass',
               'strings among'}
    for api in ('openai', 'anthropic', 'gemini', 'bedrock'):
        ad = get_api(api)
        took = {k for k, h in CHAT.items() if core._chat_strs(h, ad) is not None}
        assert {'plain', 'one', 'two'} <= took and not took & refused, (api, took)
        # ('msgs sent back', what `mk_msgs` gave: taken since session 15, read as the dicts they are; here its model's
        # message has `content` first, so taken where that order is)
        assert ('msgs sent back' in took) == ('content first' in took), (api, took)
        # (a dict of the target's own text form kept as it came: content first is not the maker's order)
        assert ('content first' in took) == (api == 'gemini'), (api, took)

@pytest.mark.parametrize('api', ['openai', 'anthropic', 'gemini', 'bedrock'])
def test_chat_strs_long_and_as_history(api):
    "A long Chat-form history, as a list and as a `History`: the same as the general path, accepted"
    h = [u(f'q{i} ünï') if i % 2 == 0 else a(f'a{i} 😀') for i in range(201)]
    r = same(h, api)
    check(api, json.loads('[' + ','.join(r[0]) + ']'))
    same(History(h), api)
