// tests for bundle (being written)
