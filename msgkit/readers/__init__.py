# Hand-written (not generated): format readers, one module per format (nbs/12_compat.ipynb to nbs/17_langchain.ipynb),
# found by `msgkit.registry.all_readers`
