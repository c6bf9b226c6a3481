__version__ = "0.0.1"
# Hand-written: `from msgkit import *` gives the user-facing names only; the building blocks for adapters stay in their modules.
# `import msgkit` imports nothing else: each name loads its module when first used (guarded for clear errors, `18_errors`).
_where = dict(sniff='media_type media_kind sample', parts='Part Turn media media_url provider_file apis get_api',
              history='LossWarning read_history render_history',
              core='mk_msg mk_msgs mk_doc mk_ant_doc mk_request jsonable mk_msg_openai mk_msgs_openai mk_msg_anthropic mk_msgs_anthropic '
                   'mk_msg_openai_chat mk_msgs_openai_chat mk_msg_gemini mk_msgs_gemini mk_msg_bedrock mk_msgs_bedrock',
              tools='tool_calls mk_toolres msg_text usage finish_reason read_parts', stream='stream_msg stream_response',
              request='mk_tool mk_tools', batch='mk_batch read_batch BatchError', fetch='fetch FetchError', cache='mk_cache', budget='est_tokens trim')
_mod = {n:m for m,ns in _where.items() for n in ns.split()}
__all__ = list(_mod)
_plain = {'sample', 'apis', 'get_api'}  # not guarded: they take names, not content

def __getattr__(name):
    "A public name, its module imported on first use"
    m = _mod.get(name)
    if m is None: raise AttributeError(f"module 'msgkit' has no attribute {name!r}")
    import importlib
    v = getattr(importlib.import_module(f'{__name__}.{m}'), name)
    if name not in _plain and callable(v) and not isinstance(v, type):
        from .errors import guard, TAKES
        v = guard(v, TAKES.get(name) or TAKES.get('_'.join(name.split('_')[:2]), ''), name=name)
    globals()[name] = v
    return v

def __dir__(): return sorted(set(globals()) | set(__all__))
