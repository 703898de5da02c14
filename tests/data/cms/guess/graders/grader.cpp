#include "guess.h"
#include <cstdio>
#include <cstdlib>

// The grader keeps the hidden number and counts the queries; past 60 it stops the run.
static int hidden, queries;

int ask(int x) {
    if (++queries > 60) {
        printf("-1 %d\n", queries);
        exit(0);
    }
    if (x < hidden) return 1;
    if (x > hidden) return -1;
    return 0;
}

int main() {
    int n;
    if (scanf("%d %d", &n, &hidden) != 2) return 1;
    int answer = guess(n);
    printf("%d %d\n", answer, queries);
    return 0;
}
