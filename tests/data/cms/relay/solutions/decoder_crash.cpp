#include "relay.h"
#include <cstdlib>

std::vector<int> encode(std::vector<int> message) {
    std::vector<int> bits;
    for (int x : message)
        for (int b = 7; b >= 0; b--) bits.push_back((x >> b) & 1);
    return bits;
}

std::vector<int> decode(std::vector<int> bits) {
    if (bits.size() > 64) abort();
    std::vector<int> message;
    for (std::size_t i = 0; i + 8 <= bits.size(); i += 8) {
        int x = 0;
        for (int b = 0; b < 8; b++) x = x * 2 + bits[i + b];
        message.push_back(x);
    }
    return message;
}
