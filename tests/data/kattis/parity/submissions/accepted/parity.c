#include <stdio.h>
int main(void) {
    int t; long long x;
    if (scanf("%d", &t) != 1) return 1;
    while (t-- > 0 && scanf("%lld", &x) == 1) printf("%s\n", x % 2 == 0 ? "Yes" : "No");
    return 0;
}
