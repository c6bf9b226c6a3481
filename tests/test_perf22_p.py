"""#22, rendering: `render_part` skips the checks a text part never needs, and `render_turn` says where each part is
with one reset per turn. Both must give what the general path gave: each case is rendered with the general path
(`_ref_part`, `_ref_turn`: the code before the change) and with the real one, for every API, over the corpus, the
bench histories and variants made to reach every branch; results, loss reports (with where) and errors all compared."""
import copy, json, os, sys, warnings
import pytest
import msgkit
from msgkit import LossWarning, render
from msgkit.render import chk_calls, what, _unsent, as_list, merge_texts, _plain
from msgkit.repairs import where_of
from msgkit.losses import lose, set_where, reset_where
from msgkit.errors import InputTypeError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench'))
from corpus_check import load_cases, history, APIS
from peers import tool_chat, image_chat, chat_dicts, text_history

def _ref_part(p, ad, role='user', kw=None, fetch=None, src=None):
    "The general path: every check asked of every part"
    nat = p.get('native')
    if nat is not None and ad.owns(nat): return copy.deepcopy(nat)
    if p.type in ('thinking','opaque'):
        if p.get('api')==ad.name and 'raw' in p: return copy.deepcopy(p.raw)
        b = ad.reasoning(p, **(kw or {})) if p.type=='thinking' else None
        if b is None and not (p.get('on_call') and ad.call_sigs): lose(what(p), _unsent(p, ad))
        return b
    p = chk_calls(p, role)
    if p.type=='document' and not isinstance(p.get('title'), (str, type(None))):
        raise InputTypeError(f"api={ad.name!r} takes a document's title as text, not {p.title!r:.60}")
    if fetch is not None and 'url' in p and p.type!='text' and not ad.takes(p): p = fetch(p)
    if (nat is not None or src) and p.type in ('image','audio','video','document') and p.get('mt') \
       and not ad.media_types.get(p.type):
        return lose(f"{p.type} ({p.mt})", f"api={ad.name!r} takes no {p.type}")
    if p.type=='tool_call' and p.get('signature') and not ad.call_sigs:
        lose(f"the thought signature of tool call {p.name}", f"api={ad.name!r} takes no signature on a call")
    b = ad.part(p, role, **(kw or {}))
    for k in p.get('extras') or (): lose(f"{k} of a {p.type} block", f"api={ad.name!r} has no such field")
    return b

def _ref_turn(t, ad, kw=None, fetch=None):
    "The general path's `render_turn`: where set and reset around each part"
    ps,kw = t['parts'],kw or {}
    if t['role'] in ad.one_text and len(ps)>1: ps = merge_texts(ps, ad)
    if _plain(ps, kw): res = [ad.text_msg(t['role'], ps[0]['text'])]
    else:
        blocks = []
        for j,p in enumerate(ps):
            tok = set_where(where_of(t, j))
            try: b = _ref_part(p, ad, t.role, kw, fetch, t.get('src'))
            finally: reset_where(tok)
            if b is not None: blocks.append(b)
        res = as_list(ad.msg(t.role, blocks)) if blocks else []
    if 'name' in t:
        if ad.msg_names:
            res = [{**o, 'name':t.name} if o.get('role') in ('user','assistant','system','developer') else o
                   for o in res]
        else: lose(f"the name {t.name!r} of {'an' if t.role=='assistant' else 'a'} {t.role} message",
                   f"api={ad.name!r} has no names on messages", where_of(t))
    return res

def run(h, api, **kw):
    "`mk_msgs` of `h`: its result as JSON (bytes shown), the losses (what, why, where) and the error"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r,err = json.dumps(msgkit.mk_msgs(copy.deepcopy(h), api=api, **kw), default=repr, sort_keys=True),None
        except Exception as e: r,err = None,f'{type(e).__name__}: {e}'
    return r, [l for w in ws if issubclass(w.category, LossWarning) for l in w.message.losses], err

def both(h, api, monkeypatch, **kw):
    "The real path's result, then the general path's"
    fast = run(h, api, **kw)
    with monkeypatch.context() as m:
        m.setattr(render, 'render_part', _ref_part); m.setattr(render, 'render_turn', _ref_turn)
        return fast, run(h, api, **kw)

IMG = b'\x89PNG\r\n\x1a\n' + b'\0'*60
def variants():
    "Histories made to reach each branch: names, tool calls in a user turn, documents, media, URLs, reasoning, extras"
    doc = dict(type='file', file=dict(filename='a.pdf', file_data='data:application/pdf;base64,JVBERi0='))
    yield 'tool_chat', tool_chat(40)
    yield 'chat_dicts', chat_dicts(text_history(12))
    yield 'image_chat', image_chat([IMG, IMG], 8)
    yield 'names', [dict(role='user', content='hi', name='bob'), dict(role='assistant', content='yo', name='al')]
    yield 'user_call', [dict(role='user', content='x', tool_calls=[dict(id='c', type='function',
                                                                         function=dict(name='f', arguments='{}'))])]
    yield 'mixed', [dict(role='user', content=[dict(type='text', text='a'), dict(type='text', text='b'), doc,
                                               dict(type='image_url', image_url=dict(url='https://x.io/a.png'))]),
                    dict(role='assistant', content=[dict(type='text', text='c'), dict(type='text', text='d')])]
    yield 'audio', [dict(role='user', content=[dict(type='input_audio', input_audio=dict(data='AAAA', format='wav')),
                                               dict(type='text', text='what is said?')])]
    yield 'ant_native', [dict(role='user', content=[dict(type='text', text='q', cache_control=dict(type='ephemeral'))]),
                         dict(role='assistant', content=[dict(type='thinking', thinking='hm', signature='s'),
                                                         dict(type='text', text='a', citations=None)])]
    yield 'gem_native', [dict(role='user', parts=[dict(text='q')]),
                         dict(role='model', parts=[dict(text='t', thought=True), dict(text='a')])]

CASES = [(c.get('name') or f"{c['file']}#{i}", c) for i,c in enumerate(load_cases())]

@pytest.mark.parametrize('api', APIS)
def test_corpus_same_as_general_path(api, monkeypatch):
    "Every corpus case renders as the general path renders it: result, losses and error"
    n = 0
    for name,c in CASES:
        try: h = history(c)
        except Exception: continue
        fast,ref = both(h, api, monkeypatch)
        assert fast==ref, name
        n += 1
    assert n>50

@pytest.mark.parametrize('api', APIS)
def test_variants_same_as_general_path(api, monkeypatch):
    "The bench histories and the branch-reaching variants, with and without `detail`/`fetch`, as the general path"
    for name,h in variants():
        for kw in ({}, {'fetch':False}):
            fast,ref = both(h, api, monkeypatch, **kw)
            assert fast==ref, (name, kw)

# `pair_ids` builds a turn whose only edits are names added at once, without `_edited`'s part-by-part look
from msgkit.history import read_history
from msgkit.repairs import pair_ids, _edited
from msgkit.registry import get_api

def _chk_pairs(h, api):
    "Each turn `pair_ids` changed is what `_edited` makes of the same parts; returns how many it changed"
    ad = get_api(api)
    try: ts = read_history(copy.deepcopy(h), ad=ad)
    except Exception: return 0
    n = 0
    for nids in (True, False):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try: out = pair_ids(ts, nids, True)
            except Exception: continue
        assert len(out)==len(ts)
        for t,r in zip(ts, out):
            if r is t: continue
            ref = _edited(t, r.parts)
            assert type(r) is type(ref) and r==ref, (api, t, r, ref)
            n += 1
    return n

def test_pair_ids_same_as_edited():
    "Over the corpus, the bench histories and the variants, for every API: the fast turns are `_edited`'s"
    gem = [dict(role='user', content='q'), dict(role='model', parts=[dict(function_call=dict(name='f', args={}))]),
           dict(role='user', parts=[dict(function_response=dict(name='f', response=dict(output='1')))])]
    hs = [h for _,c in CASES for h in [_try(history, c)] if h is not None] + [h for _,h in variants()] + [gem]
    assert sum(_chk_pairs(h, api) for h in hs for api in APIS) > 100

def _try(f, *a):
    try: return f(*a)
    except Exception: return None

@pytest.mark.parametrize('api', APIS)
def test_fast_paths_accepted_by_provider(api):
    """What the fast paths emit (plain text dicts read at once, text parts rendered without checks, results named by
    `pair_ids`' quick turn: tool_chat's results carry no name) is what the provider takes: its SDK's request types,
    strictly, and its real client (tests/oracle.py), not only what msgkit's general path made"""
    from oracle import check
    for h in (tool_chat(12), chat_dicts(text_history(6)), ['Hi', {'role':'assistant','content':'Hello'}, 'Bye']):
        check(api, msgkit.mk_msgs(h, api))
