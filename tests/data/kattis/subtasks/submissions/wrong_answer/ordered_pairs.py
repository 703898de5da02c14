from collections import Counter
n, k = map(int, input().split())
a = list(map(int, input().split()))
c = Counter(a)
print(sum(c[k - x] for x in a))
