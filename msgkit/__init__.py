__version__ = "0.0.1"
# Hand-written: `from msgkit import *` gives the user-facing names only; the building blocks for adapters stay in their modules.
from .sniff import media_type, media_kind, sample
from .parts import Part, Turn, media, media_url, provider_file, apis, get_api
from .history import LossWarning, read_history, render_history
from .core import (mk_msg, mk_msgs, mk_doc, mk_ant_doc, mk_request, jsonable, mk_msg_openai, mk_msgs_openai, mk_msg_anthropic,
                   mk_msgs_anthropic, mk_msg_openai_chat, mk_msgs_openai_chat, mk_msg_gemini, mk_msgs_gemini, mk_msg_bedrock, mk_msgs_bedrock)
from .tools import tool_calls, mk_toolres, msg_text, usage, finish_reason, read_parts
from .stream import stream_msg, stream_response
from .request import mk_tool, mk_tools
from .batch import mk_batch, read_batch, BatchError
from .fetch import fetch, FetchError
from .cache import mk_cache
from .budget import est_tokens, trim

__all__ = ['media_type', 'media_kind', 'sample', 'Part', 'Turn', 'LossWarning', 'read_history', 'render_history', 'media', 'media_url', 'provider_file', 'apis', 'get_api',
           'mk_msg', 'mk_msgs', 'mk_doc', 'mk_ant_doc', 'mk_request', 'jsonable', 'mk_msg_openai', 'mk_msgs_openai',
           'mk_msg_anthropic', 'mk_msgs_anthropic', 'mk_msg_openai_chat', 'mk_msgs_openai_chat', 'mk_msg_gemini', 'mk_msgs_gemini',
           'mk_msg_bedrock', 'mk_msgs_bedrock', 'tool_calls', 'mk_toolres', 'msg_text', 'usage', 'finish_reason', 'read_parts',
           'stream_msg', 'stream_response', 'fetch', 'FetchError', 'mk_tool', 'mk_tools', 'mk_batch', 'read_batch', 'BatchError', 'mk_cache', 'est_tokens', 'trim']

from .errors import guard_all
guard_all(globals(), [n for n in __all__ if n not in ('sample', 'apis', 'get_api')])  # clear errors on any input (18_errors)
del guard_all
