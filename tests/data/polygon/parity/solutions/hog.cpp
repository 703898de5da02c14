#include <cstdio>
#include <cstring>
#include <vector>
int main() {
    long long n;
    scanf("%lld", &n);
    std::vector<std::vector<char>> blocks;
    for (int i = 0; i < 64; i++) {
        blocks.emplace_back(16 << 20);
        memset(blocks.back().data(), i, blocks.back().size());
    }
    puts(n % 2 == 0 ? "YES" : "NO");
    return blocks.size() == 64 ? 0 : 1;
}
