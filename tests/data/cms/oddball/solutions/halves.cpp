#include <cstdio>

// Pairs off the candidates: each question either names the heavy ball or rules two out.
int main() {
    int n;
    scanf("%d", &n);
    int lo = 1, hi = n;
    while (hi - lo >= 1) {
        printf("? %d %d\n", lo, hi);
        fflush(stdout);
        int r;
        scanf("%d", &r);
        if (r) { printf("! %d\n", r); fflush(stdout); return 0; }
        lo++, hi--;
    }
    printf("! %d\n", lo);
    fflush(stdout);
}
