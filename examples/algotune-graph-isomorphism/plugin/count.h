/*
 * count.h - what the counting plugin's files share (count.c, memcheck.c,
 * syscalls.c): its settings and counter, set by count.c from the plugin's
 * arguments, and the functions one file gives another. Built with
 * -fvisibility=hidden: only qemu_plugin_* is the .so's, so none of these
 * names can meet one of qemu's.
 */
#ifndef COUNT_H
#define COUNT_H

#include <stdint.h>
#include <qemu-plugin.h>

enum { EXIT_OVER_BUDGET = 96, EXIT_THREADS = 97, EXIT_ESCAPE = 98 };
#define GUEST_TOP 0x0000800000000000ull  /* end of the x86-64 user half */

extern uint64_t insn_count;      /* the counter; one vCPU only */
extern uint64_t item_start;      /* the count at the last framing read */
extern int armed;                /* a framing read has happened */
extern int frame_fd, out_fd;
extern int mem_on, guard_on, procguard;
extern int detrand, dettime, normstat;
extern uint64_t lo, hi;
extern const char *lprefix;
extern uint64_t rng_state;       /* detrand's splitmix64 state (seed=) */
extern int64_t guest_base_off;   /* host address = guest address + this */
extern int base_known;

/* count.c */
int in_range(uint64_t a, uint64_t len);
void *host_ptr(uint64_t guest);
void report(const char *tag, const char *detail);
void end_run(const char *kind, int code, const char *detail) __attribute__((noreturn));
void escape(const char *detail) __attribute__((noreturn));

/* memcheck.c: mem=on, each syscall's buffers and mappings against [lo,hi) */
void check_memory_syscall(int64_t num, const uint64_t *a);

/* syscalls.c: the guard, procguard, the framing reads and the tree profile */
void vcpu_syscall(qemu_plugin_id_t id, unsigned int vcpu_index, int64_t num, uint64_t a1,
                  uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6,
                  uint64_t a7, uint64_t a8);
void vcpu_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu_idx, int64_t num, int64_t ret);

#endif
