#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int t; long long x;
    if (scanf("%d", &t) != 1) return 0;
    while (t-- > 0 && scanf("%lld", &x) == 1) {
        if (x > 1000000000000000LL) abort();
        printf("%s\n", x % 2 == 0 ? "YES" : "NO");
    }
    return 0;
}
