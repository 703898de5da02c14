#include <algorithm>
#include <cstdio>
#include <vector>
int main() {
    int n;
    scanf("%d", &n);
    std::vector<long long> a(n);
    for (auto& x : a) scanf("%lld", &x);
    std::sort(a.begin(), a.end());
    for (int i = 0; i < n; i++) printf("%lld%c", a[i], i + 1 == n ? '\n' : ' ');
}
