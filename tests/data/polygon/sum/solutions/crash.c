#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n; long long s = 0, x;
    scanf("%d", &n);
    if (n > 4) abort();
    for (int i = 0; i < n; i++) { scanf("%lld", &x); s += x; }
    printf("%lld\n", s);
    return 0;
}
