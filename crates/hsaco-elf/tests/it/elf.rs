// tests for elf (being written)
