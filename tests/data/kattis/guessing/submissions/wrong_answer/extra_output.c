#include <stdio.h>
#include <string.h>
int main(void) {
    long long lo = 1, hi = 1000000000;
    char reply[32];
    for (;;) {
        long long mid = (lo + hi) / 2;
        printf("%lld\n", mid);
        fflush(stdout);
        if (scanf("%31s", reply) != 1) return 0;
        if (strcmp(reply, "correct") == 0) break;
        if (strcmp(reply, "lower") == 0) hi = mid - 1; else lo = mid + 1;
    }
    printf("thanks\n");
    return 0;
}
