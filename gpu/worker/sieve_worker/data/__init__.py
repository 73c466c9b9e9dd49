"""The data path: outputs as shared buffers, their comparison and the trusted judge."""
