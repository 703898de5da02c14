import sys
data = sys.stdin.read().split()
print("\n".join("yes" if int(x) % 2 == 0 else "no" for x in data[1:]))
