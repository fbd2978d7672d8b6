print("bench-plist: not written yet")
