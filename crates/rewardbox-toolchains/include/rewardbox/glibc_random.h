/* rewardbox: included first in every C and C++ program (`-include`). glibc's random number
 * functions, which the support archive gives (support/glibc_random.c), under names of their own,
 * so that a program that defines one itself keeps its own, as natively: testlib's checkers define
 * rand() and srand() to forbid them, and a program's definition must then win over the support
 * archive's (which is linked whole, and weak) rather than collide with it, while libc's, with
 * other sequences, is never linked. */
#if !defined(REWARDBOX_GLIBC_RANDOM_H) && !defined(__ASSEMBLER__)
#define REWARDBOX_GLIBC_RANDOM_H
#ifdef __cplusplus
extern "C" {
#endif
int rand(void) __asm__("__rewardbox_rand");
void srand(unsigned int) __asm__("__rewardbox_srand");
long random(void) __asm__("__rewardbox_random");
void srandom(unsigned int) __asm__("__rewardbox_srandom");
int rand_r(unsigned int *) __asm__("__rewardbox_rand_r");
#ifdef __cplusplus
}
#endif
#endif
