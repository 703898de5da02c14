#include <bits/stdc++.h>
using namespace std;
// Right, but quadratic: only the small subtask fits the time limit.
int main() {
    int n; long long k; cin >> n >> k;
    vector<long long> a(n);
    for (auto& x : a) cin >> x;
    long long total = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            for (int r = 0; r < 8; r++) total += (a[i] + a[j] == k) && r == 0;
    cout << total << "\n";
}
