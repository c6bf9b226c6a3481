"""#17 group D: built-in/server tools in `tools=` and server-tool blocks in histories. Each test is built from a corpus
case (loaded by id through `corpus_check`) or a minimal history, judged by the oracle and by the content it must keep."""
import copy, functools, json, warnings
import pytest
import corpus_check as cc, oracle
import msgkit
from msgkit import LossWarning

@functools.cache
def _cases(): return {c['id']: c for c in cc.load_cases()}

def case(i): return copy.deepcopy(_cases()[i])

def losses(f):
    "`(result, losses)` of `f()`, the LossWarnings' losses collected"
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter('always')
        r = f()
    return r, [l for w in ws if issubclass(w.category, LossWarning) for l in w.message.losses]

def judged(c, api, how):
    "The corpus judge's failures of case `c` for `api` by `how` (none: it passes), as `corpus_check.run_case` finds them"
    r, ls, err = cc.render(c, api, how)
    if r is None: return [('raised', err)]
    fails = [('oracle', o)] if (o := cc.judge_oracle(api, r, how)) else []
    return fails + cc.invariants(c, api, r, how, ls) + (cc.replay(c, api) if how == 'mk_msgs' and not fails else [])

# ---------------------------------------------------------------- built-in/server tool in tools= refused
TS = 'pai-openai-test_tool_search-test_openai_client_tool_search_streaming-req'

def test_openai_client_tool_search_tool():
    "OpenAI's client-executed tool search carries `parameters` (openapi.json ToolSearchToolParam): it goes to Responses"
    c = case(TS)
    r = msgkit.mk_request(cc.history(c), 'openai', model='m', tools=copy.deepcopy(c['tools']))
    ts = [t for t in r['tools'] if t['type'] == 'tool_search']
    assert ts == [c['tools'][0]]
    assert [t['name'] for t in r['tools'] if t['type'] == 'function'] == ['get_weather', 'get_exchange_rate', 'stock_lookup']
    assert judged(c, 'openai', 'mk_request') == [] and judged(c, 'openai', 'mk_msgs') == []
    # another API gets it refused by name (item 25)
    with pytest.raises(ValueError, match="is a built-in tool of api='openai'"):
        msgkit.mk_request('hi', 'anthropic', model='m', tools=copy.deepcopy(c['tools'][:1]))

def test_bedrock_cachepoint_in_tools_to_anthropic():
    "A Bedrock cachePoint after the tools is Anthropic's cache_control on the last tool before it (item 26: one intent)"
    c = case('pai-bedrock-test_cache-test_bedrock_single_tool_choice_preserves_cache[anthropic]-req')
    r = msgkit.mk_request(cc.history(c), 'anthropic', model='m', tools=copy.deepcopy(c['tools']))
    assert [t['name'] for t in r['tools']] == ['catalog_lookup', 'diagnostics']
    assert r['tools'][-1]['cache_control'] == {'type': 'ephemeral'} and 'cache_control' not in r['tools'][0]
    oracle.APIS['anthropic'](r['messages'], tools=r['tools'])
    assert judged(c, 'anthropic', 'mk_request') == []
    # a cachePoint between tools marks the ones before it
    t = [{'toolSpec': {'name': 'a', 'inputSchema': {'json': {'type': 'object'}}}}, {'cachePoint': {'type': 'default', 'ttl': '1h'}},
         {'toolSpec': {'name': 'b', 'inputSchema': {'json': {'type': 'object'}}}}]
    ts = msgkit.mk_request('hi', 'anthropic', model='m', tools=t)['tools']
    assert ts[0]['cache_control'] == {'type': 'ephemeral', 'ttl': '1h'} and 'cache_control' not in ts[1]

@pytest.mark.parametrize('api', ['openai', 'openai_chat', 'gemini'])
def test_bedrock_cachepoint_in_tools_elsewhere(api):
    "Where the API takes no cache mark on tools, the cachePoint is dropped and reported, the tools kept"
    c = case('pai-bedrock-test_cache-test_bedrock_single_tool_choice_preserves_cache[anthropic]-req')
    r, ls = losses(lambda: msgkit.mk_request(cc.history(c), api, model='m', tools=copy.deepcopy(c['tools'])))
    assert any('cache mark from bedrock' in l['what'] for l in ls)
    assert 'catalog_lookup' in json.dumps(r, default=str) and 'cachePoint' not in json.dumps(r, default=str)
    assert judged(c, api, 'mk_request') == []

def test_mistral_function_tool_without_type():
    "Mistral's function tools have no `type` (its default is 'function'): read as the function tool they are"
    c = case('pai-openai_chat-test_mistral-test_image_as_binary_content_tool_response-req')
    for api in cc.APIS:
        r = msgkit.mk_request(cc.history(c), api, model='m', tools=copy.deepcopy(c['tools']))
        assert 'get_image' in json.dumps(r.get('tools') or r.get('toolConfig') or r['config']['tools'])
    r = msgkit.mk_request(cc.history(c), 'openai_chat', model='m', tools=copy.deepcopy(c['tools']))
    assert r['tools'] == [{'type': 'function', 'function': {'name': 'get_image', 'description': '',
                           'parameters': {'additionalProperties': False, 'properties': {}, 'type': 'object'}}}]
    assert judged(c, 'openai_chat', 'mk_request') == []

# ---------------------------------------------------------------- key 'status' kept that ResponseCustomToolCallParam does not have
def test_custom_tool_call_status_left_out():
    "A Responses custom_tool_call replayed without `status` (openapi.json CustomToolCall has none), its input kept"
    c = case('docs-openai-custom-tool-call')
    for how in cc.HOWS:
        r, _, err = cc.render(c, 'openai', how)
        item = cc.out_msgs('openai', r, how)[1]
        assert 'status' not in item and item['input'] == 'print("hello world")' and item['call_id'] == 'call_aGiFQkRWSWAIsMQ19fKqxUgb'
        assert judged(c, 'openai', how) == []

# ---------------------------------------------------------------- type 'tool_use' passed through (bedrock)
def test_bedrock_reply_tool_use_type():
    "A Converse reply's toolUse `type: 'tool_use'` is left out (a request's ToolUseType is only 'server_tool_use')"
    c = case('pai-bedrock-test_multimodal_tool_returns-test_multimodal_tool_return_matrix[direct-binary-audio-bedrock_claude]-resp')
    r = msgkit.mk_msgs(cc.history(c), api='bedrock')
    tu = r[1]['content'][1]['toolUse']
    assert tu == {'input': {}, 'name': 'get_file', 'toolUseId': 'tooluse_DuEoDIwfGyCAubk03vJQbx'}
    oracle.check('bedrock', r)
    # a server tool's call keeps its type
    m = {'output': {'message': {'role': 'assistant', 'content': [{'toolUse': {'toolUseId': 'x', 'name': 'n', 'input': {}, 'type': 'server_tool_use'}}]}},
         'stopReason': 'tool_use'}
    assert msgkit.mk_msgs(['hi', m], api='bedrock')[1]['content'][0]['toolUse']['type'] == 'server_tool_use'

# ---------------------------------------------------------------- type 'server_tool_use' passed through (advisor)
def test_advisor_tool_result_replayed():
    "The advisor's result (beta BetaAdvisorToolResultBlockParam) is replayed with its call, not dropped"
    c = case('pai-anthropic-test_anthropic-test_anthropic_advisor_tool_message_replay-req')
    r, ls = losses(lambda: msgkit.mk_msgs(cc.history(c), api='anthropic'))
    assert [b['type'] for b in r[1]['content']] == ['thinking', 'text', 'server_tool_use', 'advisor_tool_result', 'text']
    assert r[1]['content'][3] == c['msgs'][1]['content'][3] and not ls
    cc.check_anthropic_beta(r)
    assert judged(c, 'anthropic', 'mk_msgs') == [] and judged(c, 'anthropic', 'mk_request') == []

# ---------------------------------------------------------------- server-tool result shape the SDK rejects
MCP = 'pai-anthropic-test_anthropic-test_anthropic_mcp_servers-req'

def test_mcp_history_judged_by_beta_types():
    "MCP connector blocks (beta only) are judged by the SDK's beta types; the judge still fails a bad one"
    c = case(MCP)
    r = msgkit.mk_msgs(cc.history(c), api='anthropic')
    assert cc.ant_beta(r) and cc.judge_oracle('anthropic', r, 'mk_msgs') is None
    assert judged(c, 'anthropic', 'mk_msgs') == [] and judged(c, 'anthropic', 'mk_request') == []
    # an mcp_tool_use without its server_name, or of a made-up type, still fails
    bad = copy.deepcopy(r); del bad[1]['content'][1]['server_name']
    assert 'server_name' in cc.judge_oracle('anthropic', bad, 'mk_msgs')
    bad = copy.deepcopy(r); bad[1]['content'][2]['type'] = 'mcp_tool_thing'
    assert cc.judge_oracle('anthropic', bad, 'mk_msgs')
    # a history with no beta block is still judged by the GA types (advisor's call is no GA server tool)
    ga = [{'role': 'user', 'content': 'q'}, {'role': 'assistant', 'content': [{'type': 'server_tool_use', 'id': 'srvtoolu_1', 'name': 'advisr', 'input': {}}]}]
    assert not cc.ant_beta(ga) and cc.judge_oracle('anthropic', ga, 'mk_msgs')

def test_in_flight_mcp_call():
    "pydantic-ai's in-flight MCP call history passes for Anthropic, with its call kept"
    c = case('pydantic-ai-tests-unpaired_native_tool_calls-test_in_flight_mcp_call_history_is_accepted-L816')
    r = msgkit.mk_msgs(cc.history(c), api='anthropic')
    assert any(b.get('type') == 'mcp_tool_use' for m in r for b in m['content'] if isinstance(b, dict))
    assert judged(c, 'anthropic', 'mk_msgs') == []

def test_code_execution_result_list():
    "A code execution result given as a list of one object goes as that object (the SDK types a dict)"
    c = case('pydantic-ai-tests-anthropic-test_anthropic_code_execution_tool_message_replay_with_list_results-L10474')
    r = msgkit.mk_msgs(cc.history(c), api='anthropic')
    b, t = r[1]['content'][1], r[1]['content'][3]
    assert b['content'] == {'return_code': 0, 'stderr': '', 'stdout': 'hello\n', 'type': 'bash_code_execution_result', 'content': []}
    assert t['content'] == c['msgs'][1]['content'][3]['content'][0]
    oracle.check('anthropic', r)
    assert judged(c, 'anthropic', 'mk_request') == []

def test_code_execution_result_of_no_kind():
    "A code execution result whose kind is not text (pydantic-ai's `type: 123`) is dropped and reported; the others kept"
    c = case('pydantic-ai-tests-anthropic-test_anthropic_code_execution_tool_message_replay_infers_anthropic_tool_name-L10611')
    r, ls = losses(lambda: msgkit.mk_msgs(cc.history(c), api='anthropic'))
    assert r[1]['content'] == c['msgs'][1]['content'][:6]
    assert any('code_execution_tool_result' in l['what'] and '123' in l['why'] for l in ls)
    oracle.check('anthropic', r)

# ---------------------------------------------------------------- image_generation_call without its result
IG = 'pai-openai-test_openai_responses-test_openai_responses_image_generation_tool_without_image_output-req'

def test_image_generation_call_by_id():
    "An image_generation_call given back by its id alone (the API answered it) passes; a partial one still fails"
    c = case(IG)
    for how in cc.HOWS: assert judged(c, 'openai', how) == []
    r = msgkit.mk_msgs(cc.history(c), api='openai')
    assert r[2] == {'id': 'ig_68cdec307db4819fbc6af5c42bc6f373079003437d26d0c0', 'type': 'image_generation_call'}
    part = copy.deepcopy(r); part[2]['status'] = 'completed'
    assert 'result' in cc.judge_oracle('openai', part, 'mk_msgs')
    noid = copy.deepcopy(r); del noid[2]['id']
    assert cc.judge_oracle('openai', noid, 'mk_msgs')
