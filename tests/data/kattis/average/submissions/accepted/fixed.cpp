#include <bits/stdc++.h>
int main() {
    int n; std::cin >> n; double s = 0;
    for (int i = 0; i < n; i++) { long long x; std::cin >> x; s += x; }
    printf("%.10f %d\n", s / n, n);
}
