n, s = map(int, input().split())
w = list(map(int, input().split()))
# Knapsack from the last weight down: another subset than the bitmask search finds.
reach = {0: []}
for i in reversed(range(n)):
    for total, chosen in list(reach.items()):
        t = total + w[i]
        if t <= s and t not in reach:
            reach[t] = chosen + [i + 1]
print(" ".join(map(str, reach[s])) if s in reach and reach[s] else "impossible")
