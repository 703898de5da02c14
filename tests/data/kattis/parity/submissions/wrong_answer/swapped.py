import sys
data = sys.stdin.read().split()
for x in data[1:]:
    print("NO" if int(x) % 2 == 0 else "YES")
