from fractions import Fraction
n = int(input())
xs = list(map(int, input().split()))
print(float(Fraction(sum(xs), n)), n)
