// The chosen items must be distinct, valid and fit in W; a test's points are 20 times the
// chosen sum over the best sum (the answer file), all 20 for the best.
#include "testlib.h"
#include <set>

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    long long w = inf.readLong();
    std::vector<long long> a(n);
    for (auto& x : a) x = inf.readLong();
    long long best = ans.readLong();
    int k = ouf.readInt(0, n, "k");
    std::set<int> chosen;
    long long sum = 0;
    for (int i = 0; i < k; i++) {
        int j = ouf.readInt(1, n, "index");
        if (!chosen.insert(j).second) quitf(_wa, "item %d chosen twice", j);
        sum += a[j - 1];
    }
    if (sum > w) quitf(_wa, "the items weigh %lld, more than %lld", sum, w);
    if (sum > best) quitf(_fail, "the participant found %lld, better than the jury's %lld", sum, best);
    if (sum == best) quitf(_ok, "the best sum, %lld", sum);
    if (best == 0) quitf(_ok, "nothing fits");
    quitp(20.0 * sum / best, "sum %lld of the best %lld", sum, best);
}
