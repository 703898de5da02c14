n = int(input())
for i in range(1, n):
    print("?", i, n, flush=True)
    r = int(input())
    if r:
        print("!", r, flush=True)
        break
else:
    print("!", n, flush=True)
