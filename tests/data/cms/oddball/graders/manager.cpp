// CMS manager of oddball: n balls, all of one weight but one heavier. The submission (on its
// stdin and stdout, no stub) asks "? i j" for the heavier of two balls and answers "! i".
// Arguments: u0_to_m m_to_u0. Full score within ceil(log2 n) + 1 questions, half within n.
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 3) return 1;
    FILE* from = fopen(argv[1], "r");
    FILE* to = fopen(argv[2], "w");
    int n, heavy;
    if (!from || !to || scanf("%d %d", &n, &heavy) != 2) return 1;
    fprintf(to, "%d\n", n);
    fflush(to);
    int asked = 0, best = 1;
    while ((1 << (best - 1)) < n) best++;
    for (;;) {
        char kind;
        if (fscanf(from, " %c", &kind) != 1) {
            printf("0\n");
            fprintf(stderr, "the program ended without answering\n");
            return 0;
        }
        if (kind == '!') {
            int i;
            if (fscanf(from, "%d", &i) != 1 || i != heavy) {
                printf("0\n");
                fprintf(stderr, "translate:wrong\n");
            } else if (asked <= best) {
                printf("1\n");
                fprintf(stderr, "translate:success\n");
            } else {
                printf("0.5\n");
                fprintf(stderr, "found after %d questions\n", asked);
            }
            return 0;
        }
        int i, j;
        if (kind != '?' || fscanf(from, "%d %d", &i, &j) != 2 || i < 1 || j < 1 || i > n || j > n ||
            ++asked > n) {
            printf("0\n");
            fprintf(stderr, "a malformed question, or too many\n");
            return 0;
        }
        fprintf(to, "%d\n", i == heavy ? i : (j == heavy ? j : 0));
        fflush(to);
    }
}
