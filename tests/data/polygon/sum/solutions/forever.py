n = int(input())
total = 0
while total >= 0:
    total += 1
