#include <stdio.h>
int main(void) {
    int n, best = 0;
    long long a[100];
    scanf("%d", &n);
    for (int i = 0; i < n; i++) scanf("%lld", &a[i]);
    for (int i = 1; i < n; i++) if (a[i] < a[best]) best = i;
    printf("%d\n", best);
    return 0;
}
