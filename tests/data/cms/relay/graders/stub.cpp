#include "relay.h"
#include <cstdio>
#include <cstdlib>
#include <vector>

static std::vector<int> read_list() {
    int n;
    if (scanf("%d", &n) != 1 || n < 0) exit(0);
    std::vector<int> v(n);
    for (int& x : v)
        if (scanf("%d", &x) != 1) exit(0);
    return v;
}

static void write_list(const std::vector<int>& v) {
    printf("%d", (int)v.size());
    for (int x : v) printf(" %d", x);
    printf("\n");
    fflush(stdout);
}

int main(int argc, char** argv) {
    int which = argc > 1 ? atoi(argv[1]) : 0;
    std::vector<int> given = read_list();
    write_list(which == 0 ? encode(given) : decode(given));
    return 0;
}
