print(500000000, flush=True)
reply = input()
raise RuntimeError("gave up after " + reply)
