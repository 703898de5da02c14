from collections import Counter
n, k = map(int, input().split())
seen, total = Counter(), 0
for x in map(int, input().split()):
    total += seen[k - x]
    seen[x] += 1
print(total)
