#include <bits/stdc++.h>
int main() {
    int n; long long w;
    std::cin >> n >> w;
    std::vector<long long> a(n);
    for (auto& x : a) std::cin >> x;
    // from[s]: the item that first reached sum s.
    std::vector<int> from(w + 1, -1), prev(w + 1, -1);
    std::vector<char> reach(w + 1, 0);
    reach[0] = 1;
    for (int i = 0; i < n; i++)
        for (long long s = w; s >= a[i]; s--)
            if (!reach[s] && reach[s - a[i]]) { reach[s] = 1; from[s] = i; prev[s] = s - a[i]; }
    long long s = w;
    while (!reach[s]) s--;
    std::vector<int> picked;
    while (s > 0) { picked.push_back(from[s] + 1); s = prev[s]; }
    std::cout << picked.size();
    for (int j : picked) std::cout << ' ' << j;
    std::cout << '\n';
}
