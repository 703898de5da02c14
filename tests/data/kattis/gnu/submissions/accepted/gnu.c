#include <stdio.h>
#include <stdlib.h>
static long long gcd(long long a, long long b) { while (b) { long long t = a % b; a = b; b = t; } return a; }
int main(void) {
    int n; unsigned s;
    if (scanf("%d %u", &n, &s) != 2) return 1;
    srand(s);
    long long g = 0;
    for (int i = 0; i < n; i++) g = gcd(g, rand());
    int lg = 63 - __builtin_clzll((unsigned long long)g);
    printf("%lld %d\n", g, lg);
    for (int i = 0; i < 64; i++) if (g >> i & 1) printf("%d ", i);
    printf("\n");
    return 0;
}
