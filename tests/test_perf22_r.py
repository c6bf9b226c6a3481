"""#22, reading: `read_history` asks only the readers whose `admits` (a cheap necessary condition on a dict's keys and
role, declared beside each reader's `reads`) could say yes, and reads a plain `{'role', 'content': text}` dict without
the machinery. Both must give exactly what the general path gives (every reader asked, no fast path): same turns, same
natives, same losses and warnings, same errors, for every API; and no declaration may be narrower than its `reads`.
Counts and compares, never times (speed claims live in bench/)."""
import copy, itertools, os, sys, warnings
import pytest
from fastcore.basics import AttrDict
import msgkit
from msgkit import history as H
from msgkit.registry import all_readers, get_api, _rfor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, '..', 'bench')]
import corpus_check
from peers import tool_chat, chat_dicts, text_history

APIS = ['openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock']
CASES = corpus_check.load_cases()

def _dicts(x):
    "Every dict in `x`, nested ones too"
    if isinstance(x, dict):
        yield x
        for v in x.values(): yield from _dicts(v)
    elif isinstance(x, (list, tuple)):
        for v in x: yield from _dicts(v)

ROLES = ['user', 'assistant', 'system', 'developer', 'tool', 'function', 'model', 'human', 'ai', 'text', 'chat',
         None, 3]
CONTENTS = ['hi', '', ' ', '\n', 'https://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo=', 'é ' * 50, None,
            [], [dict(type='text', text='hi')], [dict(type='text', text='')], dict(type='text', text='x'), 7]
EXTRAS = [{}, dict(name='bob'), dict(name=''), dict(type='message'), dict(type='human'), dict(tool_call_id='c1'),
          dict(refusal='no'), dict(reasoning_content='hm'), dict(kind='message'), dict(parts=[dict(text='x')]),
          dict(content_items=[]), dict(additional_kwargs={}), dict(cache_control=dict(type='ephemeral')),
          dict(tool_calls=[dict(id='c1', type='function', function=dict(name='f', arguments='{}'))]),
          dict(tool_calls=[dict(id='c1', name='f', arguments='{}')]), dict(timestamp=1), dict(id='m1')]

def generated():
    "Variants of a message dict: every role, content and extra key above, with and without `role`/`content`"
    for r, c, ex in itertools.product(ROLES, CONTENTS, EXTRAS):
        yield {'role': r, 'content': c, **ex}
        if c == 'hi': yield {'content': c, **ex}
        if r == 'user': yield {'role': r, **ex}
    yield dict(type='human', data=dict(content='hi'))
    yield dict(lc=1, type='constructor', id=['langchain', 'schema', 'messages', 'HumanMessage'],
               kwargs=dict(content='x'))

def all_dicts():
    out = [d for c in CASES for d in _dicts(c['msgs'])] + list(generated())
    return out + [d for h in (tool_chat(40), chat_dicts(text_history(8))) for d in h]

def misses(rd, ds):
    "The dicts `rd.reads` takes that its declaration `admits` would not have it asked"
    out = []
    for d in ds:
        r = d.get('role')
        if (r is None or type(r) is str) and rd.reads(d) and not rd.admits(frozenset(d), r): out.append(d)
    return out

@pytest.mark.parametrize('rd', all_readers(), ids=lambda o: o.name)
def test_admits_no_narrower_than_reads(rd):
    "Wherever a reader's `reads` says yes (the corpus's dicts, generated ones, the bench's), its `admits` does too"
    ds = all_dicts()
    assert not misses(rd, ds)
    assert any(rd.reads(d) for d in ds) or rd.name in ('mmsp',)  # not vacuous: each reader's dicts are here

def test_too_narrow_declaration_caught(monkeypatch):
    "A declaration narrower than `reads` (compat's without its `name` extra) is what the check above finds"
    rd = next(o for o in all_readers() if o.name == 'chat_compat')
    real = type(rd).admits
    monkeypatch.setattr(type(rd), 'admits', lambda self, ks, role: real(self, ks - {'name'}, role))
    assert misses(rd, all_dicts())

def test_dispatch_asks_few():
    """A plain Chat message is asked only of 10xGraph (content must be a list); with tool calls, of compat too; an odd
    role or dict of every reader"""
    _rfor.clear()
    assert [o.name for o in H._readers_of(dict(role='user', content='hi'))] == ['tenxgraph']
    assert [o.name for o in H._readers_of(tool_chat(4)[1])] == ['tenxgraph', 'chat_compat']
    assert H._readers_of(dict(role=['user'], content='hi')) == all_readers()
    class D(dict): pass
    assert H._readers_of(D(role='user', content='hi')) == all_readers()

def _outcome(h, ad):
    "What reading `h` gives: the turns (keys in order, reprs), the warnings, or the error"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: ts = H.read_history(copy.deepcopy(h) if not any(map(H.is_sdk, h)) else h, ad=ad)
        except Exception as e: return ('error', type(e), str(e))
    return ([(list(t), repr(dict(t)), repr(t.get('native'))) for t in ts],
            [(w.category, str(w.message)) for w in ws])

def _general(monkeypatch):
    monkeypatch.setattr(H, '_readers_of', lambda d: all_readers())
    monkeypatch.setattr(H, '_plain_text', lambda o: False)

def histories():
    hs = [corpus_check.history(c) for c in CASES]
    hs += [tool_chat(200), chat_dicts(text_history(20))]
    hs += [[d] for d in generated()]  # each alone, so one error doesn't hide the others
    hs += [[dict(role='user', content='hi'), dict(role='user', content='again'), dict(role='assistant', content='x'),
            'plain text', dict(role='system', content='sys'), dict(role='developer', content='dev')]]
    return hs

@pytest.mark.parametrize('api', APIS + [None])
def test_fast_paths_match_general(api, monkeypatch):
    "The corpus, the bench's histories and generated variants read the same with the dispatch and fast path as without"
    ad = get_api(api) if api else None
    hs = histories()
    fast = [_outcome(h, ad) for h in hs]
    with monkeypatch.context() as m:
        _general(m)
        slow = [_outcome(h, ad) for h in hs]
    bad = [(i, f, s) for i, (f, s) in enumerate(zip(fast, slow)) if f != s]
    assert not bad, bad[:2]
    assert sum(H._plain_text(d) for h in hs for d in h) > 100  # the fast path was taken

def test_fast_path_native_is_the_dict():
    "The fast path's turn keeps the very dict as its `native` (the same-API replay passes it through)"
    d = dict(role='user', content='hi')
    t, = H.read_history([d])
    assert t['native'] is d and t['at'] == 0 and list(t) == ['role', 'parts', 'native', 'at']
