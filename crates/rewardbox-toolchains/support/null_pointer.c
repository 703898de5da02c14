/* A load or store through a null pointer ends the program as it ends a native one: with the
 * trap the host reports as SIGSEGV (139). Programs are compiled with clang's -fsanitize=null,
 * which checks each pointer a load, a store or a member access goes through and calls here when
 * it is null; WebAssembly itself would read address 0 as any other. (An access at a small
 * offset from null, `p[3]` with `p` null, is not checked: natively it faults too.) */
#include <stdint.h>

static void fault(uintptr_t pointer) {
    if (pointer == 0) {
        /* Past the end of any memory this host lets a program have (at most 2 GiB): an
         * out-of-bounds access, a SIGSEGV for the host. */
        volatile unsigned char *beyond = (volatile unsigned char *)(uintptr_t)0xFFFFFFFFu;
        (void)*beyond;
    }
}

void __ubsan_handle_type_mismatch_v1(void *data, uintptr_t pointer) {
    (void)data;
    fault(pointer);
}

void __ubsan_handle_type_mismatch_v1_abort(void *data, uintptr_t pointer) {
    (void)data;
    fault(pointer);
}
