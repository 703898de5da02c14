// Checks a subset: distinct valid indices whose weights sum to s, or "impossible" exactly when
// the answer file says no subset exists.
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

static std::ofstream judge_message;

static int verdict(int code, const std::string& why) {
    judge_message << why << "\n";
    return code;
}

int main(int argc, char** argv) {
    if (argc < 4) return 1;
    std::ifstream input(argv[1]), answer(argv[2]);
    judge_message.open(std::string(argv[3]) + "judgemessage.txt");
    int n; long long s;
    input >> n >> s;
    std::vector<long long> w(n);
    for (auto& x : w) input >> x;
    std::string expected;
    answer >> expected;
    std::string first;
    if (!(std::cin >> first)) return verdict(43, "no output");
    if (first == "impossible") {
        std::string more;
        if (std::cin >> more) return verdict(43, "output after impossible");
        return expected == "impossible" ? verdict(42, "ok") : verdict(43, "a subset exists");
    }
    std::set<int> used;
    long long sum = 0;
    std::string token = first;
    do {
        std::istringstream parse(token);
        int i;
        if (!(parse >> i) || i < 1 || i > n) return verdict(43, "bad index " + token);
        if (!used.insert(i).second) return verdict(43, "index used twice: " + token);
        sum += w[i - 1];
    } while (std::cin >> token);
    if (sum != s) return verdict(43, "the subset sums to " + std::to_string(sum));
    return verdict(42, "ok");
}
