"""#22, session 11: a large data URI met again is read by its ends (`mediapart.uri_media`, its memo `_ends`).

The memo keeps, under a URI's `id`, only what reading it looked at (its length, its text to `DATA_WIN` past the comma, its
last `DATA_WIN` characters) and what was read, never the URI. A string met later at that address (the same string, or a
history loaded from JSON again) is made into its part at once if its length and ends are the same; otherwise it is read
afresh. The claim that makes this safe: everything `uri_at` and `_lazy_uri` look at lies in those ends.

Differential, on hostile variants of a URI (whitespace, percent escapes, non-ASCII text and bad base64 in each window,
just outside it and in the middle; header forms; stripped ends): each variant's outcome for each API (the messages, or
the error) with the memo emptied before the call == the outcome with the entry of every other variant planted under its
`id` (an address reused by another URI). The messages pass the oracle. Counts nothing, times nothing."""
import base64, json, sys
import pytest
import msgkit
from msgkit import mediapart, sniff
from msgkit.registry import get_api
from oracle import check

APIS = ('openai', 'openai_chat', 'anthropic', 'gemini', 'bedrock')
W = sniff.DATA_WIN
PNG = (msgkit.sample('gradient.png').read_bytes() + bytes(100_000))
PDF = (msgkit.sample('report.pdf').read_bytes() + b'\n%' + b'x'*100_000 + b'\n%%EOF\n')

def uri(b, mt): return f'data:{mt};base64,' + base64.b64encode(b).decode()

def put(s, i, c):
    "`s` with character `c` in place of the one at `i` (the length kept)"
    i %= len(s)
    return s[:i] + c + s[i+1:]

def variants():
    u = uri(PNG, 'image/png'); at = u.index(',') + 1; n = len(u)
    vs = {'png': u, 'pdf': uri(PDF, 'application/pdf'), 'png said jpeg': uri(PNG, 'image/jpeg'),
          'header upper': 'DATA:IMAGE/PNG;BASE64,' + u[at:], 'header param': 'data:image/png;name=x.png;base64,' + u[at:],
          'leading space': ' ' + u, 'trailing newline': u + '\n', 'short by one': u[:n//2] + u[n//2+1:],
          'tail not base64': put(u, -3, '!'), 'head not base64': put(u, at+10, '!')}
    for c,name in ((' ', 'space'), ('\n', 'newline'), ('%', 'percent'), ('é', 'non-ascii'), ('\u2003', 'em space')):
        for where,i in (('head', at+5), ('head window', at+W-5), ('past head window', at+W+5), ('middle', n//2),
                        ('before tail window', n-W-5), ('tail window', n-W+5), ('tail', n-5)):
            vs[f'{name} in {where}'] = put(u, i, c)
    return vs

def hist(v): return [dict(role='user', content=[dict(type='image_url', image_url=dict(url=v)), dict(type='text', text='What is it?')])]

def outcome(v, api):
    "The messages `mk_msgs` makes of a history holding `v` for `api` (as JSON, bytes as base64), or its error"
    try: ms = msgkit.mk_msgs(hist(v), api)
    except Exception as e: return 'raise', type(e).__name__, str(e)
    return 'ok', json.dumps(ms, default=lambda b: base64.b64encode(b).decode() if isinstance(b, bytes) else repr(b))

@pytest.fixture(scope='module')
def cases():
    vs = variants()
    fresh = {}
    for k,v in vs.items():
        for api in APIS:
            mediapart._ends.clear()
            fresh[k, api] = outcome(v, api)
    # each variant read by every API (what they noted of it in its entry too), its entry kept to be planted elsewhere
    entries = {}
    for k,v in vs.items():
        mediapart._ends.clear()
        for api in APIS: outcome(v, api)
        if (e := mediapart._ends.get(id(v))) is not None: entries[k] = e
    return vs, fresh, entries

def test_variants_read_as_uri_at_says(cases):
    "The corpus holds both kinds: URIs read lazily (memoised), and strings refused or read eagerly"
    vs, fresh, entries = cases
    assert {'png', 'pdf', 'space in middle', 'newline in middle', 'percent in middle', 'space in past head window',
            'space in before tail window', 'header upper', 'png said jpeg'} <= set(entries)
    # whitespace in a window: no data URI (`uri_at`), so `image_url` holds a URL msgkit can't read; in the middle: one
    for k in ('space in head window', 'space in tail window', 'em space in head window', 'newline in tail'):
        assert k not in entries and not sniff.is_data_uri(vs[k]), k
    assert sniff.is_data_uri(vs['space in middle']) and sniff.is_data_uri(vs['em space in middle'])
    assert all(fresh[k, api][0]=='ok' for k in ('png', 'pdf') for api in APIS)
    # a space in the middle: never scanned on its way to the APIs that take the URI; decoded, refused, for those that don't
    assert [fresh['space in middle', api][0] for api in APIS]==['ok', 'ok', 'ok', 'raise', 'raise']
    assert fresh['tail not base64', 'gemini'][0]=='raise' and 'base64' in fresh['tail not base64', 'gemini'][2]

@pytest.mark.parametrize('api', APIS)
def test_planted_entries_change_nothing(cases, api):
    "Every variant, its address holding each other variant's entry (or its own): the same outcome as read afresh"
    vs, fresh, entries = cases
    for k,v in vs.items():
        for w,e in entries.items():
            mediapart._ends.clear(); mediapart._ends[id(v)] = e
            assert outcome(v, api)==fresh[k, api], (k, 'planted:', w, api)
        # and met again under its own entry (the memo warm): the same
        mediapart._ends.clear(); outcome(v, api)
        assert outcome(v, api)==fresh[k, api], (k, 'met again', api)

@pytest.mark.parametrize('api', APIS)
def test_outputs_pass_the_oracle(cases, api):
    "What the memo gives (met again) is what the API takes"
    vs, fresh, entries = cases
    for k in entries:
        if fresh[k, api][0]!='ok': continue  # (refused afresh and met again alike: test_planted_entries_change_nothing)
        mediapart._ends.clear(); msgkit.mk_msgs(hist(vs[k]), api)
        ms = msgkit.mk_msgs(hist(vs[k]), api)
        assert mediapart._ends_of(vs[k]) is not None
        check(api, ms)

def test_memo_holds_no_uri():
    "Read and passed on (the APIs that take the URI itself), the URI is held by its caller alone: freeing it frees it"
    # (those that take its payload or bytes keep them in codec's memo, by the URI: that memo's own rules, test_memo.py)
    v = uri(PNG, 'image/png')
    n = sys.getrefcount(v)
    for api in ('openai', 'openai_chat'): msgkit.mk_msgs(hist(v), api); msgkit.mk_msgs(hist(v), api)
    assert mediapart._ends_of(v) is not None
    assert sys.getrefcount(v)==n
    assert not any(o is v for e in mediapart._ends.values() for o in e)

def test_memo_bounded():
    "At most `ENDS_MEMO` entries, each a few KB"
    mediapart._ends.clear()
    keep = [uri(PNG[:-i-1] if i else PNG, 'image/png') for i in range(mediapart.ENDS_MEMO + 5)]
    for v in keep: mediapart.uri_media(v)
    assert 0 < len(mediapart._ends) <= mediapart.ENDS_MEMO
    assert all(len(e[1]) + len(e[2]) < 3*W for e in mediapart._ends.values())

def test_own_block_verdict_noted_per_adapter():
    "openai_chat's verdict that a block renders as itself is noted with the URI's reading (one key: any instance of the class with its rules as shipped)"
    v = uri(PNG, 'image/png'); ad = get_api('openai_chat')
    mediapart._ends.clear()
    first = msgkit.mk_msgs(hist(v), 'openai_chat')
    assert mediapart.uri_noted(v, 'openai_chat own')
    assert msgkit.mk_msgs(hist(v), 'openai_chat')==first
    assert first[0]['content'][0]['image_url']['url'] is v  # (passed on as the very string)
