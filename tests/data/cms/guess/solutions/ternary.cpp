#include "guess.h"

// Thirds instead of halves: found, with more queries than the best.
int guess(int n) {
    long long lo = 1, hi = n;
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 3;
        int r = ask((int)mid);
        if (r == 0) return (int)mid;
        if (r > 0) lo = mid + 1; else hi = mid - 1;
    }
    return (int)lo;
}
