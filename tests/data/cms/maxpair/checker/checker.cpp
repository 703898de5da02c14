// CMS checker for maxpair: two distinct 1-based indices whose values have the largest sum score 1;
// any other two distinct indices 0.4; anything else 0.
#include <cstdio>
#include <vector>

static void verdict(double score, const char* message) {
    printf("%g\n", score);
    fprintf(stderr, "%s\n", message);
}

int main(int argc, char** argv) {
    if (argc < 4) return 1;
    FILE* in = fopen(argv[1], "r");
    FILE* correct = fopen(argv[2], "r");
    FILE* out = fopen(argv[3], "r");
    int n;
    if (!in || !correct || !out || fscanf(in, "%d", &n) != 1) return 1;
    std::vector<long long> a(n + 1);
    for (int i = 1; i <= n; i++)
        if (fscanf(in, "%lld", &a[i]) != 1) return 1;
    int ci, cj;
    if (fscanf(correct, "%d %d", &ci, &cj) != 2) return 1;
    long long best = a[ci] + a[cj];
    int i, j;
    char extra;
    if (fscanf(out, "%d %d", &i, &j) != 2 || fscanf(out, " %c", &extra) == 1) {
        verdict(0, "translate:wrong");
        return 0;
    }
    if (i < 1 || i > n || j < 1 || j > n || i == j) {
        verdict(0, "translate:wrong");
    } else if (a[i] + a[j] == best) {
        verdict(1, "translate:success");
    } else {
        verdict(0.4, "translate:partial");
    }
    return 0;
}
