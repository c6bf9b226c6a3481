# Hand-written (not generated): format readers, one module per format (nbs/4x_*.ipynb), found by `msgkit.parts.readers`
