#include <stdio.h>
int main(void) {
    int n; long long s;
    if (scanf("%d %lld", &n, &s) != 2) return 0;
    for (int i = 1; i <= n; i++) printf("%d ", i);
    printf("\n");
    return 0;
}
