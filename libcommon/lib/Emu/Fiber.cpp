//===- Fiber.cpp - Minimal cooperative context switch (x86-64 SysV) -------===//
#include "Fiber.h"

#include <cstdint>
#include <cstring>

#if !defined(__x86_64__)
#error "tile-emu's fiber switch is written for x86-64"
#endif

// Saved frame, lowest address first: MXCSR + x87 control word (8 bytes),
// r15, r14, r13, r12, rbx, rbp, return address.
extern "C" void tp_emu_switch_fiber(void **save, void *resume);
asm(R"(
  .text
  .p2align 4
  .globl tp_emu_switch_fiber
  .hidden tp_emu_switch_fiber
  .type tp_emu_switch_fiber,@function
tp_emu_switch_fiber:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size tp_emu_switch_fiber,.-tp_emu_switch_fiber
)");

void *tilepipe::emu::initFiberStack(char *low, char *high, void (*entry)()) {
  auto top = reinterpret_cast<uintptr_t>(high) & ~uintptr_t(15);
  auto *slot = reinterpret_cast<uint64_t *>(top);
  *--slot = 0;                                   // fake return address of entry
  *--slot = reinterpret_cast<uintptr_t>(entry);  // popped by `ret`
  for (int i = 0; i < 6; ++i)
    *--slot = 0;                                 // rbp, rbx, r12-r15
  uint32_t control[2] = {0x1f80, 0x037f};        // default MXCSR, x87 CW
  *--slot = 0;
  std::memcpy(slot, control, sizeof control);
  (void)low;
  return slot;
}

void tilepipe::emu::switchFiber(void **save, void *resume) {
  tp_emu_switch_fiber(save, resume);
}
