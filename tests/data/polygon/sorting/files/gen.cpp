// gen N MAX SEED: N numbers in [-MAX, MAX] from testlib's rnd (seeded by the command line).
#include "testlib.h"
#include <iostream>

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    int n = atoi(argv[1]);
    int most = atoi(argv[2]);
    std::cout << n << "\n";
    for (int i = 0; i < n; i++) std::cout << rnd.next(-most, most) << " \n"[i + 1 == n];
}
