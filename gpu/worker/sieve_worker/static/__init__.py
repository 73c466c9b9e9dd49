"""Stage 0: the static reading of an answer (Python's abstract interpreter and the load_inline C++ scan)."""
