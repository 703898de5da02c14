n = int(input())
a = list(map(int, input().split()))
m = min(a)
print(max(i for i in range(n) if a[i] == m) + 1)
