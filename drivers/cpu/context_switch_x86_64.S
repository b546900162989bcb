/* SPDX-License-Identifier: MIT
 * The engine's fiber switch (x86-64 SysV), in the format the kernels' inline
 * switch uses (include/hip/weft/fiber_sync.h): a waiting GPU thread is a
 * weftFiber {sp, pc, bp}, and the resumed one receives its id in rdx. Both
 * switches can resume each other's threads.
 *
 *   void weft_cpu_switch(weftFiber* from, weftFiber* to, uint64_t to_id);
 *   weft_cpu_fiber_start: first pc of a new fiber; calls weft_cpu_fiber_main().
 *
 * Only the callee-saved registers are kept (not the x87/SSE control words:
 * kernels never change them).
 */
#if defined(__CET__) && (__CET__ & 1)
#define ENDBR endbr64
#else
#define ENDBR
#endif
    .text
    .globl  weft_cpu_switch
    .hidden weft_cpu_switch
    .type   weft_cpu_switch, @function
    .p2align 4
weft_cpu_switch:
    ENDBR
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    leaq    1f(%rip), %rax
    movq    %rsp, 0(%rdi)
    movq    %rax, 8(%rdi)
    movq    %rbp, 16(%rdi)
    movq    0(%rsi), %rsp
    movq    16(%rsi), %rbp
    jmpq    *8(%rsi)
1:
    ENDBR
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    ret
    .size   weft_cpu_switch, .-weft_cpu_switch

    .globl  weft_cpu_fiber_start
    .hidden weft_cpu_fiber_start
    .type   weft_cpu_fiber_start, @function
    .p2align 4
weft_cpu_fiber_start:
    ENDBR
    xorl    %ebp, %ebp
    callq   weft_cpu_fiber_main
    ud2
    .size   weft_cpu_fiber_start, .-weft_cpu_fiber_start

    .section .note.GNU-stack,"",@progbits
