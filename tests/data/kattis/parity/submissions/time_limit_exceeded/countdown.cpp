#include <bits/stdc++.h>
using namespace std;
// Counts down to decide the parity: far too slow for numbers near 1e18.
int main() {
    int t; cin >> t;
    while (t--) {
        long long x; cin >> x;
        volatile long long y = x;
        bool even = true;
        while (y > 0) { y = y - 1; even = !even; }
        cout << (even ? "YES" : "NO") << "\n";
    }
}
