"""The candidate: the sandboxed child that runs an answer, its launch hooks, runtime wall and timing, and the
worker's side of launching it."""
