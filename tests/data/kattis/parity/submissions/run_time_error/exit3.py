import sys
t = int(input())
for _ in range(t):
    x = int(input())
    print("YES" if x % 2 == 0 else "NO")
sys.exit(3)
