"""Plain helpers below every other layer: files, resources, progress, interrupts, threads."""
