#include <stdio.h>

/* The largest value and its neighbour: a valid pair, rarely the best. */
int main(void) {
    int n;
    long long x, best = 0;
    int at = 1;
    scanf("%d", &n);
    for (int i = 1; i <= n; i++) {
        scanf("%lld", &x);
        if (i == 1 || x > best) { best = x; at = i; }
    }
    printf("%d %d\n", at, at == 1 ? 2 : at - 1);
    return 0;
}
