"""What `mk_msgs` gives, as data to compare (`out`), and what the general path gives (`general`): every short way off
at once, by their one door (`plain_history`, asked by `mk_msgs` and by `mk_request`), so a short way added later is
off too (a helper that names each one must be told of every new one)."""
import copy, json, warnings
import pytest
import msgkit
from msgkit import core, request

def types(x):
    "The type of `x` and of every dict and list in it, with the keys in their order"
    if isinstance(x, dict): return (type(x).__name__, [(k, types(v)) for k, v in x.items()])
    if isinstance(x, list): return (type(x).__name__, [types(v) for v in x])
    return type(x).__name__

def out(h, api, f=None):
    "All `mk_msgs` (or `f`) gives for `h`: messages as JSON (key order kept), their types, the warnings; or the error"
    f = f or (lambda x: msgkit.mk_msgs(x, api))
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        try: r = f(copy.deepcopy(h))
        except Exception as e: return ('error', type(e).__name__, str(e))
    return [json.dumps(m, default=repr) for m in r], types(r), [(w.category.__name__, str(w.message)) for w in ws]

def short_ways_off(m):
    "Monkeypatch context `m`: every short way off (`plain_history` asks them all, for `mk_msgs` and `mk_request`)"
    m.setattr(core, 'plain_history', lambda msgs, ad: None)
    m.setattr(request, 'plain_history', lambda msgs, ad: None)

def general(h, api, f=None):
    "What the general path gives for `h`: every short way off"
    with pytest.MonkeyPatch.context() as m:
        short_ways_off(m)
        return out(h, api, f)
