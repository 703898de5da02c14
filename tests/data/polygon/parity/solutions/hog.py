n = int(input())
blocks = [bytearray(16 << 20) for _ in range(64)]
print("YES" if n % 2 == 0 else "NO")
