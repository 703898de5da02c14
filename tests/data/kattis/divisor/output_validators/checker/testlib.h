// A small checker library in testlib's style, adapted to the Kattis output-validator interface
// as DOMjudge and Kattis juries adapt testlib: the input and the jury's answer are the files
// named by argv[1] and argv[2], the team's output is standard input, and the verdict is exit
// code 42 (accepted) or 43 (wrong answer), the judge's message written to argv[3]/judgemessage.txt.
// Like testlib, it defines rand() and srand() itself, so that a checker cannot use them by mistake.
// Written for rewardbox's tests; public domain.
#pragma once
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string>

enum TResult { _ok, _wa, _pe, _fail };

static std::string __feedback_dir;

[[noreturn]] inline void quit(TResult result, const char* message) {
    std::string path = __feedback_dir + "/judgemessage.txt";
    if (FILE* f = std::fopen(path.c_str(), "w")) {
        std::fprintf(f, "%s\n", message);
        std::fclose(f);
    }
    std::exit(result == _ok ? 42 : result == _fail ? 1 : 43);
}

[[noreturn]] inline void quitf(TResult result, const char* format, ...) {
    char message[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof message, format, args);
    va_end(args);
    quit(result, message);
}

struct InStream {
    FILE* file = nullptr;
    TResult on_error = _fail;
    void open(FILE* f, TResult error) { file = f; on_error = error; }
    bool seekEof() {
        int c;
        while ((c = std::fgetc(file)) != EOF) {
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') { std::ungetc(c, file); return false; }
        }
        return true;
    }
    long long readLong() {
        long long value;
        if (std::fscanf(file, "%lld", &value) != 1) quitf(on_error, "expected an integer");
        return value;
    }
};

InStream inf, ouf, ans;

int rand() { quitf(_fail, "Don't use rand(), use rnd.next() instead"); }
void srand(unsigned int) { quitf(_fail, "Don't use srand(), use rnd.setSeed() instead"); }

inline void registerTestlibCmd(int argc, char* argv[]) {
    if (argc < 4) quitf(_fail, "usage: checker input answer feedback_dir < output");
    __feedback_dir = argv[3];
    FILE* input = std::fopen(argv[1], "r");
    FILE* answer = std::fopen(argv[2], "r");
    if (!input || !answer) quitf(_fail, "cannot open the input or the answer");
    inf.open(input, _fail);
    ans.open(answer, _fail);
    ouf.open(stdin, _wa);
}
