print("YES" if int(input()) % 2 == 0 else "NO")
