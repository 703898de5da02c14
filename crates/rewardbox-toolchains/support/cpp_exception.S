# rewardbox: the tag C++ exceptions are thrown with (clang's `__cpp_exception`), which LLVM's
# compiler-rt defines and zig's does not.
    .globl __cpp_exception
    .tagtype __cpp_exception i32
__cpp_exception:
