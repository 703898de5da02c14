#include <iostream>
#include <string>
int main() {
    int lo = 1, hi;
    std::cin >> hi;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        std::cout << "? " << mid << std::endl;
        std::string r;
        std::cin >> r;
        if (r == "<") hi = mid; else lo = mid + 1;
    }
    std::cout << "! " << lo << std::endl;
}
