"""Tasks and references: task modules, hygiene, derived input sets, reference timing and the trusted task
servers."""
