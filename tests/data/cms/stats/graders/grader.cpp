#include "stats.h"
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

static long long reported;

void report(int group, unsigned long long size) { reported += (group + 1) * (long long)size; }

int main() {
    int q;
    std::cin >> q;
    for (int i = 0; i < q; i++) {
        std::string kind;
        int n;
        std::cin >> kind >> n;
        if (kind == "total" || kind == "positive") {
            std::vector<long long> v(n);
            for (auto& x : v) std::cin >> x;
            if (kind == "total") std::cout << total(v) << "\n";
            else std::cout << (all_positive(v) ? "yes" : "no") << "\n";
        } else if (kind == "shout") {
            std::string word;
            std::cin >> word;
            std::cout << shout(word) << "\n";
        } else if (kind == "split" || kind == "mean") {
            std::vector<int> v(n);
            for (auto& x : v) std::cin >> x;
            if (kind == "mean") {
                printf("%.6f\n", mean(v));
                fflush(stdout);
                continue;
            }
            std::vector<int> even{-1}, odd{-1};
            split_parity(v, even, odd);
            std::cout << even.size() << " " << odd.size();
            for (int x : even) std::cout << " " << x;
            for (int x : odd) std::cout << " " << x;
            std::cout << "\n";
        } else if (kind == "label") {
            std::vector<std::vector<int>> groups(n);
            for (auto& g : groups) {
                int k;
                std::cin >> k;
                g.resize(k);
                for (auto& x : g) std::cin >> x;
            }
            reported = 0;
            auto labels = label(groups, '#');
            std::cout << labels.size() << " " << reported;
            for (auto& [size, text] : labels) std::cout << " " << size << ":" << text;
            std::cout << "\n";
        }
        std::cout.flush();
    }
    return 0;
}
