// The smallest proper divisor. Reads input.txt unless the judge defines ONLINE_JUDGE, as
// jury code written for DOMjudge or Codeforces often does.
#include <bits/stdc++.h>
using namespace std;
int main() {
#if !ONLINE_JUDGE
    ifstream cin("input.txt");
#endif
    long long n;
    cin >> n;
    for (long long d = 2; d * d <= n; d++) {
        if (n % d == 0) { cout << d << "\n"; return 0; }
    }
    cout << -1 << "\n";
}
