import sys
n = int(sys.stdin.read())
sys.exit(42 if 2 <= n <= 10**12 else 43)
