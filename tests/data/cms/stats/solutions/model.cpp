#include "stats.h"
#include <cctype>

long long total(const std::vector<long long>& values) {
    long long sum = 0;
    for (long long v : values) sum += v;
    return sum;
}

std::string shout(std::string word) {
    for (char& c : word) c = (char)std::toupper((unsigned char)c);
    return word + "!";
}

void split_parity(const std::vector<int>& numbers, std::vector<int>& even, std::vector<int>& odd) {
    even.clear();
    odd.clear();
    for (int x : numbers) (x % 2 == 0 ? even : odd).push_back(x);
}

double mean(std::vector<int> numbers) {
    long long sum = 0;
    for (int x : numbers) sum += x;
    return (double)sum / numbers.size();
}

std::vector<std::pair<int, std::string>> label(std::vector<std::vector<int>> groups, char mark) {
    std::vector<std::pair<int, std::string>> out;
    for (std::size_t i = 0; i < groups.size(); i++) {
        report((int)i, groups[i].size());
        out.push_back({(int)groups[i].size(), std::string(groups[i].size(), mark)});
    }
    return out;
}

bool all_positive(std::vector<long long> values) {
    for (long long v : values)
        if (v <= 0) return false;
    return true;
}
