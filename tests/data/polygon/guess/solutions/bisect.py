lo, hi = 1, int(input())
while lo < hi:
    mid = (lo + hi + 1) // 2
    print("?", mid, flush=True)
    if input().strip() == "<":
        hi = mid - 1
    else:
        lo = mid
print("!", lo, flush=True)
