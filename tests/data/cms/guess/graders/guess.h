#ifndef GUESS_H
#define GUESS_H

// Implemented by the contestant: the hidden number in [1, n].
int guess(int n);

// Implemented by the grader: 1 when x < the hidden number, -1 when x is larger, 0 when equal.
int ask(int x);

#endif
