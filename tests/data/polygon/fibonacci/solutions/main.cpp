#include <cstdio>
int main() {
    long long n, a = 0, b = 1;
    scanf("%lld", &n);
    for (long long i = 0; i < n; i++) { long long c = (a + b) % 1000000007; a = b; b = c; }
    printf("%lld\n", a);
}
