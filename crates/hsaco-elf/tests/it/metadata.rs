// tests for metadata (being written)
