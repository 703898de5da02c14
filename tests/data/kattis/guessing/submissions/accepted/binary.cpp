#include <bits/stdc++.h>
int main() {
    long long lo = 1, hi = 1000000000;
    std::string reply;
    while (true) {
        long long mid = (lo + hi) / 2;
        std::cout << mid << std::endl;
        std::cin >> reply;
        if (reply == "correct") return 0;
        if (reply == "lower") hi = mid - 1; else lo = mid + 1;
    }
}
