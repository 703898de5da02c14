#include <stdio.h>
int main(void) {
    int lo = 1, hi;
    char r[4];
    scanf("%d", &hi);
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        printf("? %d\n", mid);
        scanf("%3s", r);
        if (r[0] == '=') { lo = hi = mid; break; }
        if (r[0] == '<') hi = mid - 1; else lo = mid + 1;
    }
    printf("! %d\n", lo);
    return 0;
}
