n = int(input())
lines = [input() for _ in range(n)]
count = 0
while True:
    count += 1
