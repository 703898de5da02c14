// The checker of Proper Divisor, in testlib's style. Written for rewardbox's tests; public domain.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long n = inf.readLong();
    long long jury = ans.readLong();
    long long team = ouf.readLong();
    if (!ouf.seekEof()) quitf(_wa, "extra output after the answer");
    if (jury == -1) {
        if (team != -1) quitf(_wa, "%lld has no proper divisor, the team printed %lld", n, team);
        quitf(_ok, "no divisor, as expected");
    }
    if (team == -1) quitf(_wa, "the team says %lld has no proper divisor, but %lld is one", n, jury);
    if (team <= 1 || team >= n || n % team != 0) quitf(_wa, "%lld is not a proper divisor of %lld", team, n);
    quitf(_ok, "%lld divides %lld", team, n);
}
