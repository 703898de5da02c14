#include <iostream>
int main() {
    int n; long long w, x;
    std::cin >> n >> w;
    std::cout << n;
    for (int i = 1; i <= n; i++) std::cout << ' ' << i;
    std::cout << '\n';
}
