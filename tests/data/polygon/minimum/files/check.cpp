// A checker in testlib's convention without testlib: `check input output answer`, exit 0
// OK, 1 wrong answer, 2 presentation error, 3 the jury's answer is wrong; the message on
// stderr. Any index of a minimum is right.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <vector>

static void verdict(int code, const char* what, long long a, long long b) {
    const char* names[] = {"ok", "wrong answer", "wrong output format", "FAIL"};
    fprintf(stderr, "%s ", names[code]);
    fprintf(stderr, what, a, b);
    fprintf(stderr, "\n");
    exit(code);
}

int main(int argc, char* argv[]) {
    if (argc < 4) verdict(3, "usage: check input output answer (%lld of %lld arguments)", argc - 1, 3);
    FILE* in = fopen(argv[1], "r");
    FILE* out = fopen(argv[2], "r");
    FILE* ans = fopen(argv[3], "r");
    if (!in || !out || !ans) verdict(3, "cannot open the files (%lld, %lld)", !in, !out);
    int n;
    if (fscanf(in, "%d", &n) != 1) verdict(3, "bad input (%lld %lld)", 0, 0);
    std::vector<long long> a(n);
    for (auto& x : a) fscanf(in, "%lld", &x);
    long long jury;
    if (fscanf(ans, "%lld", &jury) != 1 || jury < 1 || jury > n) verdict(3, "bad answer file (%lld of %lld)", jury, n);
    char token[64];
    if (fscanf(out, "%63s", token) != 1) verdict(2, "no index in the output (%lld, %lld)", 0, 0);
    char* end;
    long long got = strtoll(token, &end, 10);
    if (*end != 0) verdict(2, "the output is not an index (%lld characters, %lld)", (long long)(end - token), 0);
    int c;
    while ((c = fgetc(out)) != EOF)
        if (!isspace(c)) verdict(2, "extra output after the index (character %lld, %lld)", c, 0);
    if (got < 1 || got > n) verdict(1, "index %lld is not in 1..%lld", got, n);
    if (a[got - 1] > a[jury - 1]) verdict(1, "a[%lld] is not the minimum %lld", got, a[jury - 1]);
    if (a[got - 1] < a[jury - 1]) verdict(3, "the jury's minimum is not one (%lld < %lld)", a[got - 1], a[jury - 1]);
    verdict(0, "index %lld holds the minimum %lld", got, a[got - 1]);
}
