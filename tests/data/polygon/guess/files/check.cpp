// Reads the interactor's output: how many questions; at most the answer file's limit.
#include "testlib.h"

int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int asked = ouf.readInt();
    int limit = ans.readInt();
    if (asked > limit) quitf(_wa, "%d questions, more than %d", asked, limit);
    quitf(_ok, "%d questions", asked);
}
