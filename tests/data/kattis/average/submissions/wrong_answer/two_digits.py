n = int(input())
xs = list(map(int, input().split()))
print("%.2f %d" % (sum(xs) / n, n))
