n = int(input())
a = list(map(int, input().split()))
print("index", a.index(min(a)) + 1)
