# Hand-written (not generated): one module per API, named as the `api=` value (the OpenAI-compatible servers'
# dialects in `dialects/`); `msgkit.registry` finds them.
