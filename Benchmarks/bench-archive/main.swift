print("bench-archive: not written yet")
