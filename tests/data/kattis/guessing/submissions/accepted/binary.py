lo, hi = 1, 10**9
while True:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    reply = input()
    if reply == "correct":
        break
    if reply == "lower":
        hi = mid - 1
    else:
        lo = mid + 1
