// The secret is the test's input; the solution asks "? x" and hears "<", ">" or "=", then
// says "! x". The interactor writes how many questions were asked for the checker.
#include "testlib.h"
#include <iostream>

int main(int argc, char* argv[]) {
    registerInteraction(argc, argv);
    int secret = inf.readInt();
    std::cout << 1000000 << std::endl;
    int asked = 0;
    while (true) {
        std::string kind = ouf.readToken("[?!]");
        int x = ouf.readInt(1, 1000000, "x");
        if (kind == "!") {
            if (x != secret) quitf(_wa, "the number is %d, not %d", secret, x);
            tout << asked << std::endl;
            quitf(_ok, "guessed %d in %d questions", secret, asked);
        }
        if (++asked > 100) quitf(_wa, "more than 100 questions");
        std::cout << (secret < x ? "<" : secret > x ? ">" : "=") << std::endl;
    }
}
