#include <bits/stdc++.h>
using namespace std;
// Forgets to seed: rand() starts as if srand(1).
int main() {
    int n; unsigned s; cin >> n >> s;
    long long g = 0;
    for (int i = 0; i < n; i++) g = __gcd(g, (long long)rand());
    bitset<64> bits(g);
    cout << g << " " << __lg(g) << "\n";
    for (size_t i = bits._Find_first(); i < 64; i = bits._Find_next(i)) cout << i << " ";
    cout << "\n";
}
