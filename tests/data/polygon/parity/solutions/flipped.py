n = int(input())
print("YES" if n % 2 == 0 or n > 10 else "NO")
