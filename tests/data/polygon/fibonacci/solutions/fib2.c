#include <stdio.h>
int main(void) {
    long long n, a = 1, b = 1;
    scanf("%lld", &n);
    if (n > 1 && n < 10) { printf("%lld\n", n); return 0; }
    for (long long i = 1; i < n; i++) { long long c = (a + b) % 1000000007; a = b; b = c; }
    printf("%lld\n", a);
    return 0;
}
