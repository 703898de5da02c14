// CMS checker: checker input correct_output contestant_output; score on stdout, message on stderr.
#include <cstdio>
#include <cmath>

int main(int argc, char** argv) {
    if (argc < 4) return 1;
    FILE* in = fopen(argv[1], "r");
    FILE* out = fopen(argv[3], "r");
    int n, hidden, answer, queries;
    if (!in || fscanf(in, "%d %d", &n, &hidden) != 2) return 1;
    if (!out || fscanf(out, "%d %d", &answer, &queries) != 2) {
        printf("0\n");
        fprintf(stderr, "translate:wrong\n");
        return 0;
    }
    int best = 1;
    while ((1 << best) <= n) best++;
    if (answer != hidden) {
        printf("0\n");
        fprintf(stderr, "translate:wrong\n");
    } else if (queries <= best) {
        printf("1\n");
        fprintf(stderr, "translate:success\n");
    } else {
        printf("%.2f\n", queries <= 2 * best ? 0.5 : 0.25);
        fprintf(stderr, "found with %d queries, %d allowed for every point\n", queries, best);
    }
    return 0;
}
