n = int(input())
for _ in range(n):
    print("   ".join(reversed(input().split())) + "  ")
