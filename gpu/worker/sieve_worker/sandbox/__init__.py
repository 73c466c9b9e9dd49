"""Sandbox and processes: what confines candidates and task servers, the zygote, memory admission, machine
probes."""
