#include <cstdio>
long long f(long long n) { return n < 2 ? n : (f(n - 1) + f(n - 2)) % 1000000007; }
int main() {
    long long n;
    scanf("%lld", &n);
    printf("%lld\n", f(n));
}
