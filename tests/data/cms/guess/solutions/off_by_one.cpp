#include "guess.h"

// Right for small n; one too many on large ones.
int guess(int n) {
    int lo = 1, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int r = ask(mid);
        if (r == 0) return n > 100 ? mid + 1 : mid;
        if (r > 0) lo = mid + 1; else hi = mid - 1;
    }
    return n > 100 ? lo + 1 : lo;
}
