#include <cstdio>

// Waits for a second line the manager never sends.
int main() {
    int n, m;
    scanf("%d", &n);
    scanf("%d", &m);
    printf("! %d\n", m);
}
