def running_sum(values):
    total = 0
    out = []
    for v in values:
        total += v
        out.append(total)
    return out
