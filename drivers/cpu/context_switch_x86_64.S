/* SPDX-License-Identifier: MIT
 * Symmetric context switch for the CPU agent's GPU-thread fibers (x86-64 SysV).
 * Saves only the callee-saved registers; unlike Boost.Context it does not save
 * the x87/SSE control words, because kernels never change them (measured in
 * bench/cpu_kernels: this is what brings a barrier crossing under 5 ns).
 *
 *   void weft_cpu_switch(void** save_sp, void* resume_sp);
 *   void weft_cpu_fiber_start(void);   entry trampoline: calls r13(r12), never returns
 */
    .text
    .globl  weft_cpu_switch
    .hidden weft_cpu_switch
    .type   weft_cpu_switch, @function
    .p2align 4
weft_cpu_switch:
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    movq    %rsp, (%rdi)
    movq    %rsi, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    /* `ret`, not pop+jmp: every GPU thread switches from the same call site, so
     * the return-stack predictor is right here; an indirect jump would leave it
     * one entry off and every later return of the barrier path would miss. */
    ret
    .size   weft_cpu_switch, .-weft_cpu_switch

    .globl  weft_cpu_fiber_start
    .hidden weft_cpu_fiber_start
    .type   weft_cpu_fiber_start, @function
    .p2align 4
weft_cpu_fiber_start:
    movq    %r12, %rdi
    callq   *%r13
    ud2
    .size   weft_cpu_fiber_start, .-weft_cpu_fiber_start

    .section .note.GNU-stack,"",@progbits
