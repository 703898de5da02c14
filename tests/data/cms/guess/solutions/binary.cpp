#include "guess.h"

int guess(int n) {
    int lo = 1, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int r = ask(mid);
        if (r == 0) return mid;
        if (r > 0) lo = mid + 1; else hi = mid - 1;
    }
    return lo;
}
