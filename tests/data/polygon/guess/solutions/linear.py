n = int(input())
x = 1
while True:
    print("?", x, flush=True)
    if input().strip() == "=":
        break
    x += 1
print("!", x, flush=True)
