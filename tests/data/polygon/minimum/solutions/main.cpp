#include <iostream>
#include <vector>
int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto& x : a) std::cin >> x;
    int best = 0;
    for (int i = 1; i < n; i++) if (a[i] < a[best]) best = i;
    std::cout << best + 1 << "\n";
}
