n = int(input())
a = list(map(int, input().split()))
order = sorted(range(n), key=lambda i: -a[i])
print(order[0] + 1, order[1] + 1)
