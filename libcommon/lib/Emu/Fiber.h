//===- Fiber.h - Minimal cooperative context switch -----------------------===//
//
// The emulator switches between thousands of fibers per CTA; a hand-written
// switch that saves only the callee-saved registers avoids the signal-mask
// system calls of swapcontext.
//
//===----------------------------------------------------------------------===//
#ifndef TILEPIPE_LIB_EMU_FIBER_H
#define TILEPIPE_LIB_EMU_FIBER_H

#include <cstddef>

namespace tilepipe::emu {

/// Prepares a fresh stack [low, high) so that switching to the returned
/// stack pointer calls `entry()`, which must never return.
void *initFiberStack(char *low, char *high, void (*entry)());

/// Saves the running context's stack pointer into *save and resumes the
/// context whose stack pointer is `resume`.
void switchFiber(void **save, void *resume);

} // namespace tilepipe::emu

#endif // TILEPIPE_LIB_EMU_FIBER_H
