"""load_inline extensions: the trusted builder, the worker's build scheduler, the import judge and the
candidate's client."""
