n, s = map(int, input().split())
w = list(map(int, input().split()))
chosen, total = [], 0
for i in sorted(range(n), key=lambda i: -w[i]):
    if total + w[i] <= s:
        chosen.append(i + 1)
        total += w[i]
print(" ".join(map(str, chosen)) if total == s else "impossible")
