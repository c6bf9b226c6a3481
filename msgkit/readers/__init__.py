# Hand-written (not generated): format readers, one module per format (nbs/1x_*.ipynb), found by `msgkit.registry.readers`
