#include "guess.h"

int guess(int n) {
    volatile unsigned long long spins = 0;
    while (n > 0) spins = spins + 1;
    return 1;
}
