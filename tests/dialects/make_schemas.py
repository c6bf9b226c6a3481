"""Write tests/dialects/schemas.json.gz: the JSON Schema of each server's request body, generated from that server's
own SDK types (a TypedDict or dataclass, so the schema names the wire keys), closed so that an undeclared key fails.
CI can't install ten SDKs, so the schemas are vendored; run this script (in a venv that has the SDKs below) to remake
them after an SDK release, and say so in the commit. The SDKs' own classes are only read, never changed.

    python tests/dialects/make_schemas.py   # needs: mistralai groq cerebras_cloud_sdk together fireworks-ai
                                            #        perplexityai openrouter huggingface_hub (and pydantic 2)
"""
import gzip, importlib, importlib.metadata as md, json
from pathlib import Path

# api -> (distribution, 'module:Type' of its request body), the same types the research validators used: the
# Stainless SDKs' TypedDicts; the Speakeasy SDKs' (mistralai, openrouter) pydantic models, whose aliases are the wire
# names (their TypedDicts use the Python names: `format_` for `format`)
SDKS = dict(
    mistral=('mistralai', 'mistralai.client.models.chatcompletionrequest:ChatCompletionRequest'),
    openrouter=('openrouter', 'openrouter.components.chatrequest:ChatRequest'),
    groq=('groq', 'groq.types.chat.completion_create_params:CompletionCreateParams'),
    together=('together', 'together.types.chat.completion_create_params:CompletionCreateParamsNonStreaming'),
    fireworks=('fireworks-ai', 'fireworks.types.chat.completion_create_params:CompletionCreateParamsNonStreaming'),
    perplexity=('perplexityai', 'perplexity.types.chat.completion_create_params:CompletionCreateParamsNonStreaming'),
    cerebras=('cerebras_cloud_sdk', 'cerebras.cloud.sdk.types.chat.completion_create_params:CompletionCreateParams'),
    huggingface=('huggingface_hub', 'huggingface_hub.inference._generated.types.chat_completion:ChatCompletionInput'),
)
# the Speakeasy SDKs' enums are open (`Union[Literal[...], UnrecognizedStr]`): the server's list is the Literal's
OPEN_ENUMS = {'mistral', 'openrouter'}
# parameters some SDKs send as HTTP headers, not in the body
HEADERS = {'CF-RAY', 'X-Amz-Cf-Id', 'X-delay-time', 'cf_ray', 'x_amz_cf_id', 'x_delay_time'}

def close(o, open_enums=False):
    "Schema `o` with every object of declared properties closed (`additionalProperties: false`), open enums shut"
    if isinstance(o, list): return [close(x, open_enums) for x in o]
    if not isinstance(o, dict): return o
    o = {k:({n:close(v, open_enums) for n,v in x.items() if n not in HEADERS} if k in ('properties','$defs')
            and isinstance(x, dict) else close(x, open_enums)) for k,x in o.items()}  # a map of schemas, not a schema
    if 'properties' in o and 'additionalProperties' not in o: o['additionalProperties'] = False
    if open_enums and isinstance(o.get('anyOf'), list) and any('enum' in b or 'const' in b for b in o['anyOf']):
        o['anyOf'] = [b for b in o['anyOf'] if b != {'type': 'string'}]
    return o

def schema(api):
    from pydantic import TypeAdapter
    dist, path = SDKS[api]
    mod, name = path.split(':')
    tp = getattr(importlib.import_module(mod), name)
    s = tp.model_json_schema(by_alias=True) if hasattr(tp, 'model_json_schema') else TypeAdapter(tp).json_schema()
    s = close(s, api in OPEN_ENUMS)
    return dict(sdk=dist, version=md.version(dist), type=path, schema=s)

if __name__ == '__main__':
    out = {api: schema(api) for api in SDKS}
    out['_about'] = __doc__.splitlines()[0]
    p = Path(__file__).with_name('schemas.json.gz')
    p.write_bytes(gzip.compress(json.dumps(out, sort_keys=True).encode(), mtime=0))
    for k, v in out.items():
        if k != '_about': print(k, v['sdk'], v['version'], len(json.dumps(v['schema'])))
