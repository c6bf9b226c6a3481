# Hand-written (not generated): one module per API, named as the `api=` value; `msgkit.parts.get_api` finds them.
