#include <algorithm>
#include <iostream>
#include <vector>
int main() {
    int n;
    std::cin >> n;
    std::vector<long long> a(n);
    for (auto& x : a) std::cin >> x;
    std::sort(a.begin(), a.end() - 1);
    for (auto x : a) std::cout << x << ' ';
    std::cout << '\n';
}
