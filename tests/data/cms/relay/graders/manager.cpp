// CMS manager of relay: the message to process 0, its bits to process 1, its answer checked.
// Arguments: u0_to_m m_to_u0 u1_to_m m_to_u1. Score on stdout, message on stderr.
#include <cstdio>
#include <vector>

static bool read_list(FILE* f, std::vector<int>& v, int most) {
    int n;
    if (fscanf(f, "%d", &n) != 1 || n < 0 || n > most) return false;
    v.assign(n, 0);
    for (int& x : v)
        if (fscanf(f, "%d", &x) != 1) return false;
    return true;
}

static void write_list(FILE* f, const std::vector<int>& v) {
    fprintf(f, "%d", (int)v.size());
    for (int x : v) fprintf(f, " %d", x);
    fprintf(f, "\n");
    fflush(f);
}

static int verdict(double score, const char* message) {
    printf("%g\n", score);
    fprintf(stderr, "%s\n", message);
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 5) return 1;
    FILE* from0 = fopen(argv[1], "r");
    FILE* to0 = fopen(argv[2], "w");
    FILE* from1 = fopen(argv[3], "r");
    FILE* to1 = fopen(argv[4], "w");
    if (!from0 || !to0 || !from1 || !to1) return 1;
    std::vector<int> message;
    if (!read_list(stdin, message, 1 << 20)) return 1;
    int n = (int)message.size();
    write_list(to0, message);
    std::vector<int> bits;
    if (!read_list(from0, bits, 64 * n + 64)) return verdict(0, "the encoder's answer is malformed or too long");
    for (int b : bits)
        if (b != 0 && b != 1) return verdict(0, "the encoder sent a value that is not a bit");
    write_list(to1, bits);
    std::vector<int> back;
    if (!read_list(from1, back, n) || back != message) return verdict(0, "translate:wrong");
    if ((int)bits.size() <= 8 * n) return verdict(1, "translate:success");
    if ((int)bits.size() <= 16 * n) return verdict(0.5, "translate:partial");
    return verdict(0.2, "translate:partial");
}
