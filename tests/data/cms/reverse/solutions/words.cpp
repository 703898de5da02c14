#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
    int n;
    std::string line;
    std::getline(std::cin, line);
    n = std::stoi(line);
    for (int i = 0; i < n; i++) {
        std::getline(std::cin, line);
        std::istringstream words(line);
        std::vector<std::string> all;
        for (std::string w; words >> w;) all.push_back(w);
        for (std::size_t j = all.size(); j-- > 0;) std::cout << all[j] << (j ? " " : "");
        std::cout << "\n";
    }
}
