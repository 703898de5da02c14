#include <bits/stdc++.h>
using namespace std;
// Tries every subset, smallest mask first.
int main() {
    int n; long long s; cin >> n >> s;
    vector<long long> w(n);
    for (auto& x : w) cin >> x;
    for (int mask = 1; mask < (1 << n); mask++) {
        long long sum = 0;
        for (int i = 0; i < n; i++) if (mask >> i & 1) sum += w[i];
        if (sum == s) {
            for (int i = 0; i < n; i++) if (mask >> i & 1) cout << i + 1 << " ";
            cout << "\n";
            return 0;
        }
    }
    cout << "impossible\n";
}
