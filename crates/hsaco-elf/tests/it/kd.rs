// tests for kd (being written)
