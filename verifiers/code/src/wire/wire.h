/* rewardbox's wire for C candidates: the server side of typed call tests, speaking the tokens of
 * the C++ wire (wire.hpp): signed integers in decimal, unsigned integers and float bits in hex
 * (so -0.0, NaN and the infinities arrive exactly), strings as `length:bytes`, arrays as their
 * count then their elements. A message starts with the byte 0x1e and ends with a newline; bytes
 * outside a frame are skipped.
 *
 * C has no templates: the verifier generates, per entry point, the code that reads each argument
 * with these functions, calls the candidate's function and writes its result (langs/c.rs).
 * This text comes after the candidate's program, so that a program that defines what a header
 * would (`typedef int bool;`) compiles as it does natively; every name here starts with
 * `rewardbox_wire_`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most elements one array may claim: a larger count is a malformed message. */
#define REWARDBOX_WIRE_MAX_COUNT (1ll << 26)

static _Noreturn void rewardbox_wire_malformed(const char* what) {
    fprintf(stderr, "\x1erb-wire malformed %s\n", what);
    fflush(stderr);
    _Exit(3);
}

/* Skips to the start of the next frame; 0 at the end of input. */
static signed rewardbox_wire_frame(void) {
    for (;;) {
        signed c = getchar();
        if (c == EOF) return 0;
        if (c == 0x1e) return 1;
    }
}

/* The next token (at most 63 bytes) into `buf`. */
static void rewardbox_wire_token(char* buf, size_t size) {
    size_t n = 0;
    signed c = getchar();
    while (c == ' ' || c == '\n') c = getchar();
    while (c != EOF && c != ' ' && c != '\n') {
        if (n + 1 >= size) rewardbox_wire_malformed("token");
        buf[n++] = (char)c;
        c = getchar();
    }
    buf[n] = 0;
}

static long long rewardbox_wire_int(void) {
    char t[64];
    char* end = NULL;
    rewardbox_wire_token(t, sizeof t);
    long long v = strtoll(t, &end, 10);
    if (!t[0] || *end) rewardbox_wire_malformed("integer");
    return v;
}

static unsigned long long rewardbox_wire_uint(void) {
    char t[64];
    char* end = NULL;
    rewardbox_wire_token(t, sizeof t);
    unsigned long long v = strtoull(t, &end, 16);
    if (!t[0] || *end) rewardbox_wire_malformed("integer");
    return v;
}

static float rewardbox_wire_f32(void) {
    uint32_t bits = (uint32_t)rewardbox_wire_uint();
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static double rewardbox_wire_f64(void) {
    uint64_t bits = (uint64_t)rewardbox_wire_uint();
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static long long rewardbox_wire_count(void) {
    long long n = rewardbox_wire_int();
    if (n < 0 || n > REWARDBOX_WIRE_MAX_COUNT) rewardbox_wire_malformed("count");
    return n;
}

/* Room for `n` elements of `size` bytes (at least one byte, so that an empty array is not
 * NULL, as a judge's harness passes it). */
static void* rewardbox_wire_alloc(long long n, size_t size) {
    void* p = calloc(n > 0 ? (size_t)n : 1, size);
    if (!p) {
        fprintf(stderr, "\x1erb-wire out of memory\n");
        fflush(stderr);
        _Exit(3);
    }
    return p;
}

/* A string (`length:bytes`), NUL-terminated, in memory of its own. */
static char* rewardbox_wire_str(void) {
    long long n = 0;
    signed digits = 0;
    signed c = getchar();
    while (c == ' ' || c == '\n') c = getchar();
    while (c >= '0' && c <= '9' && digits < 10) {
        n = n * 10 + (c - '0');
        digits++;
        c = getchar();
    }
    if (c != ':' || digits == 0 || n > REWARDBOX_WIRE_MAX_COUNT) rewardbox_wire_malformed("string");
    char* s = (char*)rewardbox_wire_alloc(n + 1, 1);
    for (long long i = 0; i < n; i++) {
        c = getchar();
        if (c == EOF) rewardbox_wire_malformed("string");
        s[i] = (char)c;
    }
    s[n] = 0;
    return s;
}

/* The answer being written: a frame built whole, then written at once. */
static char* rewardbox_wire_out;
static size_t rewardbox_wire_out_len;
static size_t rewardbox_wire_out_cap;
/* Why the answer cannot be written (a NULL string, a negative size), or NULL. */
static const char* rewardbox_wire_refused;

static void rewardbox_wire_bytes(const char* bytes, size_t n) {
    if (rewardbox_wire_out_len + n > rewardbox_wire_out_cap) {
        size_t cap = rewardbox_wire_out_cap ? rewardbox_wire_out_cap : 256;
        while (cap < rewardbox_wire_out_len + n) cap *= 2;
        char* grown = (char*)realloc(rewardbox_wire_out, cap);
        if (!grown) {
            fprintf(stderr, "\x1erb-wire out of memory\n");
            fflush(stderr);
            _Exit(3);
        }
        rewardbox_wire_out = grown;
        rewardbox_wire_out_cap = cap;
    }
    memcpy(rewardbox_wire_out + rewardbox_wire_out_len, bytes, n);
    rewardbox_wire_out_len += n;
}

static void rewardbox_wire_text(const char* text) {
    rewardbox_wire_bytes(text, strlen(text));
    rewardbox_wire_bytes(" ", 1);
}

/* Starts an answer: `R`, then the values put. */
static void rewardbox_wire_begin(void) {
    rewardbox_wire_out_len = 0;
    rewardbox_wire_refused = NULL;
    rewardbox_wire_bytes("\x1e", 1);
    rewardbox_wire_text("R");
}

static void rewardbox_wire_put_int(long long v) {
    char t[32];
    snprintf(t, sizeof t, "%lld", v);
    rewardbox_wire_text(t);
}

static void rewardbox_wire_put_uint(unsigned long long v) {
    char t[32];
    snprintf(t, sizeof t, "%llx", v);
    rewardbox_wire_text(t);
}

static void rewardbox_wire_put_f32(float v) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    rewardbox_wire_put_uint(bits);
}

static void rewardbox_wire_put_f64(double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    rewardbox_wire_put_uint(bits);
}

/* Whether an array of `n` elements at `p` can be written: a negative size, or a NULL array that
 * claims elements, refuses the answer (natively the harness reading it would fail or crash). */
static signed rewardbox_wire_array_ok(const void* p, long long n) {
    if (rewardbox_wire_refused) return 0;
    if (n < 0) {
        rewardbox_wire_refused = "returned a negative size for an array";
        return 0;
    }
    if (n > 0 && !p) {
        rewardbox_wire_refused = "returned a null pointer (NULL) for an array of size > 0";
        return 0;
    }
    return 1;
}

static void rewardbox_wire_put_count(long long n) { rewardbox_wire_put_int(n); }

static void rewardbox_wire_put_str(const char* s) {
    if (rewardbox_wire_refused) return;
    if (!s) {
        rewardbox_wire_refused = "returned a null pointer (NULL) where a string was expected";
        return;
    }
    size_t n = strlen(s);
    char t[32];
    snprintf(t, sizeof t, "%zu:", n);
    rewardbox_wire_bytes(t, strlen(t));
    rewardbox_wire_bytes(s, n);
    rewardbox_wire_bytes(" ", 1);
}

/* Ends the answer and writes it; a refused one is written as `E` and the reason. */
static void rewardbox_wire_send(void) {
    if (rewardbox_wire_refused) {
        const char* why = rewardbox_wire_refused;
        rewardbox_wire_out_len = 0;
        rewardbox_wire_bytes("\x1e", 1);
        rewardbox_wire_text("E");
        rewardbox_wire_refused = NULL;
        rewardbox_wire_put_str(why);
    }
    rewardbox_wire_bytes("\n", 1);
    fwrite(rewardbox_wire_out, 1, rewardbox_wire_out_len, stdout);
    fflush(stdout);
}

/* Reads the call's header (`C` and the function's number). */
static void rewardbox_wire_expect_call(void) {
    char t[64];
    rewardbox_wire_token(t, sizeof t);
    if (strcmp(t, "C") != 0) rewardbox_wire_malformed("call");
    rewardbox_wire_int();
}
