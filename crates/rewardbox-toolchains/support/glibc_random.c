/* rewardbox: glibc's random(), srandom(), rand(), srand() and rand_r(), so that a C or C++ program
 * draws the same numbers here as on the judges' glibc machines (wasi-libc's musl has other
 * generators). random() is glibc's default TYPE_3 generator: an additive feedback generator of
 * degree 31 and separation 3, seeded by a Lehmer generator (16807, mod 2^31 - 1, computed by
 * Schrage's method), its first 310 outputs discarded; rand() is random(). Compiled, as every
 * program is, with the prelude that links these five under names of their own
 * (include/rewardbox/glibc_random.h), so libc's are never linked; weak, so that a program that
 * defines one itself (testlib's checkers define rand() and srand() to forbid them) keeps its own,
 * as natively. */
#include <stdint.h>

#define DEGREE 31
#define SEPARATION 3

static int32_t state[DEGREE];
static int32_t *front = &state[SEPARATION];
static int32_t *rear = &state[0];
static int seeded = 0;

static int32_t next_value(void) {
    uint32_t value = (uint32_t)*front + (uint32_t)*rear;
    *front = (int32_t)value;
    ++front;
    if (front >= state + DEGREE) {
        front = state;
        ++rear;
    } else {
        ++rear;
        if (rear >= state + DEGREE) {
            rear = state;
        }
    }
    return (int32_t)(value >> 1);
}

__attribute__((weak)) void srandom(unsigned int seed) {
    if (seed == 0) {
        seed = 1;
    }
    state[0] = (int32_t)seed;
    /* A 32-bit word, 64-bit halves: glibc's types on the judges' x86-64 machines. */
    int32_t word = (int32_t)seed;
    for (int i = 1; i < DEGREE; ++i) {
        int64_t hi = word / 127773;
        int64_t lo = word % 127773;
        word = (int32_t)(16807 * lo - 2836 * hi);
        if (word < 0) {
            word += 2147483647;
        }
        state[i] = (int32_t)word;
    }
    front = &state[SEPARATION];
    rear = &state[0];
    seeded = 1;
    for (int i = 0; i < 10 * DEGREE; ++i) {
        (void)next_value();
    }
}

__attribute__((weak)) long random(void) {
    if (!seeded) {
        srandom(1);
    }
    return next_value();
}

__attribute__((weak)) void srand(unsigned int seed) {
    srandom(seed);
}

__attribute__((weak)) int rand(void) {
    return (int)random();
}

__attribute__((weak)) int rand_r(unsigned int *seed) {
    unsigned int next = *seed;
    int result;
    next = next * 1103515245u + 12345u;
    result = (int)((next / 65536u) % 2048u);
    next = next * 1103515245u + 12345u;
    result <<= 10;
    result ^= (int)((next / 65536u) % 1024u);
    next = next * 1103515245u + 12345u;
    result <<= 10;
    result ^= (int)((next / 65536u) % 1024u);
    *seed = next;
    return result;
}
