#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int main() {
    int n; unsigned s; cin >> n >> s;
    srand(s);
    ll vals[n] = {0};
    for (int i = 0; i < n; i++) vals[i] = rand();
    ll g = 0;
    for (int i = 0; i < n; i++) g = __gcd(g, vals[i]);
    bitset<64> bits(g);
    cout << g << " " << __lg(g) << "\n";
    for (size_t i = bits._Find_first(); i < 64; i = bits._Find_next(i)) cout << i << " ";
    cout << "\n";
}
