n = int(input())
xs = list(map(int, input().split()))
print("%e %d" % (sum(xs) / n, n))
