# Hand-written (not generated): one module per OpenAI-compatible server, named as its `api=` value, each a `Dialect`
# (`base`) of `openai_chat`; `msgkit.registry` finds them.
