#include <bits/stdc++.h>
// Never flushes its guesses (cin is untied from cout): it waits for an answer the interactor
// waits to be asked for.
int main() {
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    long long lo = 1, hi = 1000000000;
    std::string reply;
    while (true) {
        long long mid = (lo + hi) / 2;
        std::cout << mid << "\n";
        std::cin >> reply;
        if (reply == "correct") return 0;
        if (reply == "lower") hi = mid - 1; else lo = mid + 1;
    }
}
