"""Issue #17, group C of the corpus classes (tool results: tool search, server-run results, a result in the model's turn
before a system message). Each test takes a real corpus case (by id, through `corpus_check`), renders it, and judges it
by the providers' validators (`corpus_check.judge_oracle`, i.e. `oracle.APIS`/`oracle.RULES`) and by the content it
must keep. Sources: Anthropic's tool search (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/tool-search-tool),
langchain-anthropic 1.7.10's tests, pydantic-ai's Bedrock and tool-search tests (named in each case)."""
import copy
import pytest
import corpus_check as cc
import msgkit

APIS = cc.APIS
_CASES = {}

def case(i):
    if not _CASES: _CASES.update({c['id']: c for c in cc.load_cases()})
    return _CASES[i]

@pytest.fixture(scope='module', autouse=True)
def sdks():
    "The SDKs the oracle drives, imported once (seconds on a loaded machine) rather than inside the first test"
    for api in APIS: cc.judge_oracle(api, msgkit.mk_msgs(['hi'], api=api), 'mk_msgs')

def rendered(c, api, how):
    r, losses, err = cc.render(c, api, how)
    assert err is None, (api, how, err)
    assert cc.judge_oracle(api, r, how) is None, (api, how, cc.judge_oracle(api, r, how))
    return r, losses

def results(api, r, how):
    "The output's tool results, as (id, strings)"
    return [(a[1], a[2]) for a in cc.output_atoms(api, r, how) if a[0] == 'result']

SEARCH = 'lc-anthropic-test_tool_search_result_formatting-L4698'
CUSTOM = 'pai-anthropic-test_tool_search-test_anthropic_custom_callable_round_trip-req'
HOIST = 'lc-anthropic-test__format_messages_system_after_client_tool_result_hoisted-L1991'
NOVA = 'pydantic-ai-tests-bedrock-test_bedrock_map_messages_builtin_tool_provider_filtering-L5523'
GTEMP = 'pai-gemini-test_google-test_google_model_structured_output-req'

def test_client_tool_reference_results():
    "classes: type 'tool_reference' passed through; unknown block kept inside a tool result; tool result text lost"
    c = case(CUSTOM)
    ref = c['msgs'][2]['content'][0]['content']  # [{'tool_name': 'get_exchange_rate', 'type': 'tool_reference'}]
    for how in cc.HOWS:
        r, losses = rendered(c, 'anthropic', how)  # a client tool's tool_reference result goes back as it is
        assert cc.out_msgs('anthropic', r, how)[2]['content'][0]['content'] == ref and not losses
        for api in ('openai', 'openai_chat', 'gemini', 'bedrock'):
            r, losses = rendered(c, api, how)
            res = results(api, r, how)
            assert len(res) == 2 and any('get_exchange_rate' in s for s in res[0][1]), (api, res)
            assert 'tool_reference' not in str([v for a in cc.output_atoms(api, r, how) for v in a if isinstance(v, dict)])
            assert any('tool_reference' in l['what'] and 'text naming the tool' in l['why'] for l in losses), losses
            assert cc.invariants(c, api, r, how, losses) == [], (api, how)

def test_server_tool_search_result():
    "classes: result without its call; tool_result not first in the user turn; Gemini function response without a tool name"
    c = case(SEARCH)
    for how in cc.HOWS:
        r, losses = rendered(c, 'anthropic', how)
        m = cc.out_msgs('anthropic', r, how)[1]
        assert [b['type'] for b in m['content']] == ['server_tool_use', 'tool_search_tool_result']
        assert m['content'][1] == dict(type='tool_search_tool_result', tool_use_id='srvtoolu_123', content=dict(
            type='tool_search_tool_search_result', tool_references=[dict(type='tool_reference', tool_name='get_weather'),
                                                                    dict(type='tool_reference', tool_name='weather_forecast')]))
        assert cc.invariants(c, 'anthropic', r, how, losses) == []
        for api in ('openai', 'openai_chat', 'gemini', 'bedrock'):  # the server's call and its result go together, reported
            r, losses = rendered(c, api, how)
            assert results(api, r, how) == [] and 'srvtoolu_123' not in str(cc.out_msgs(api, r, how))
            assert {l['what'] for l in losses} == {'a server_tool_use block from anthropic',
                                                   'a tool_search_tool_result block from anthropic'}
            assert cc.invariants(c, api, r, how, losses) == [], (api, how)

def test_result_without_call_in_model_turn():
    "classes: tool result without its call; result without its call; tool result lost; tool result text lost (Chat)"
    c = case(HOIST)
    for api in APIS:
        r, losses = rendered(c, api, 'mk_request')
        assert results(api, r, 'mk_request') == []
        assert any(l['what'] == 'tool result for toolu_1' and 'its call' in l['why'] for l in losses), (api, losses)
        assert cc.invariants(c, api, r, 'mk_request', losses) == [], api
    r, _ = rendered(c, 'anthropic', 'mk_request')
    assert r['system'] == 'Be concise.' and r['messages'] == [{'role': 'user', 'content': 'Review foo()'}]

def test_server_run_results_in_the_model_turn():
    "classes: result without its call; tool result without its call; tool result lost; tool result text lost"
    c = case(NOVA)
    for how in cc.HOWS:
        for api in ('openai', 'openai_chat', 'anthropic', 'gemini'):
            r, losses = rendered(c, api, how)
            res = results(api, r, how)
            assert [i for i, _ in res] == ['call_1', 'call_3'] and 'hello' in str(res[0][1]) and '50' in str(res[1][1])
            assert cc.invariants(c, api, r, how, losses) == [], (api, how, cc.invariants(c, api, r, how, losses))
        r, losses = rendered(c, 'bedrock', how)  # Bedrock's own built-in tool blocks go back as they came
        assert cc.out_msgs('bedrock', r, how) == c['msgs'] and not losses

def test_gemini_result_json_keeps_its_characters():
    "class: tool result text lost ('30°C' sent as '30\\u00b0C')"
    c = case(GTEMP)
    for api in ('openai', 'openai_chat', 'anthropic', 'bedrock'):
        r, losses = rendered(c, api, 'mk_request')
        assert any('30°C' in s for _, ss in results(api, r, 'mk_request') for s in ss), api
        assert cc.invariants(c, api, r, 'mk_request', losses) == [], api

def test_judge_reads_tool_search_results():
    "The judge's refinement: a tool_search_tool_result is a result, paired with its server_tool_use; it still fails the bad forms"
    c = case(SEARCH)
    r, losses = rendered(c, 'anthropic', 'mk_msgs')
    assert cc.invariants(c, 'anthropic', r, 'mk_msgs', losses) == []
    call, res = r[1]['content']
    # the result without its server call
    assert ('result without its call', 'srvtoolu_123') in cc.ids_rules('anthropic', [r[0], dict(role='assistant', content=[res])], 'mk_msgs')
    # the result dropped silently
    bad = cc.invariants(c, 'anthropic', [r[0], dict(role='assistant', content=[call])], 'mk_msgs', [])
    assert ('tool result lost', '1 of 1') in bad
    # a tool name of the result lost silently
    short = copy.deepcopy(res); short['content']['tool_references'].pop()
    bad = cc.invariants(c, 'anthropic', [r[0], dict(role='assistant', content=[call, short])], 'mk_msgs', [])
    assert any(k == 'tool result text lost' and 'weather_forecast' in d for k, d in bad), bad

@pytest.mark.slow
def test_group_c_classes_gone():
    "None of group C's classes is left in the cases they came from"
    mine = {"rejected by oracle: type 'tool_reference' passed through", 'rejected by oracle: unknown block kept inside a tool result',
            'result without its call', 'tool result text lost', 'refused by msgkit: Gemini function response without a tool name',
            'rejected by oracle: tool result without its call', 'rejected by oracle: tool_result not first in the user turn', 'tool result lost'}
    ids = [SEARCH, SEARCH + '-dict', CUSTOM, HOIST, HOIST + '-dict', NOVA, GTEMP]
    rows = cc.run([c for c in cc.load_cases() if c['id'] in ids or 'tool_search' in c['id'] or 'tool_availability' in c['id']])
    assert not [r[3] for r in rows if r[3] in mine]
