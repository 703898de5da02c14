n, w = map(int, input().split())
a = list(map(int, input().split()))
picked, total = [], 0
for i in sorted(range(n), key=lambda i: -a[i]):
    if total + a[i] <= w:
        picked.append(i + 1)
        total += a[i]
print(len(picked), *picked)
