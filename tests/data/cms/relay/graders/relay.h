#include <vector>

// Process 0: the message (values 0 to 255) as bits (values 0 and 1).
std::vector<int> encode(std::vector<int> message);

// Process 1: the message back from the bits alone.
std::vector<int> decode(std::vector<int> bits);
