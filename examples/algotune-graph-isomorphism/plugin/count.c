/*
 * count.c - the instruction counter of the graph-isomorphism grader, a
 * plugin for Debian's qemu-user 7.2 (TCG plugin API version 1): the
 * counter, the framing's reports, the end of a run, the memory callbacks
 * and the arguments. Its syscalls are memcheck.c's (mem=on) and
 * syscalls.c's (the guard, procguard, the tree profile), one .so.
 *
 *   qemu-x86_64 -plugin count.so,fd=3,out=4[,cap=N][,mem=on,hi=A]... prog
 *
 * WHAT IT GUARANTEES
 *
 * Counting. Every guest instruction executed is counted once: each
 * translated block adds its number of instructions to one 64-bit counter
 * when it starts (an inline add; with cap= a small callback that adds and
 * compares). Only one vCPU ever runs (see threads), so there is no race.
 *
 * Framing. The guest reads one byte from the framing fd (fd=, default 3)
 * to start each item. When such a read(2) returns data, the plugin writes
 * "r <count>\n" on the report fd (out=, default 4) with the host's
 * write(2): the guest never holds the count, and a read that returns no
 * data reports nothing, so a read of the framing fd that the host did not
 * feed cannot make an item boundary. An item's count is the difference of
 * two consecutive reports. At the end the plugin writes "exit <count>".
 *
 * Ending a run. A run the plugin ends writes one line "<kind> <count>
 * [detail]" on the report fd and exits at once with the kind's code:
 *   over_budget (96)  cap=N: an item (from one framing read on) executed
 *                     more than N instructions; checked at every block, so
 *                     the run ends within one block of passing N.
 *   threads     (97)  a second vCPU (a thread), or clone/fork/vfork.
 *   escape      (98)  mem=on: a load, store or executed block outside the
 *                     guest's range [lo,hi) (the plugin's and qemu's own
 *                     memory lie above hi), a mapping syscall (mmap with an
 *                     address, mprotect, munmap, madvise, mremap, brk)
 *                     that reaches outside it, a syscall buffer the kernel
 *                     writes through outside it (the syscalls Linux x86-64
 *                     programs use are listed in check_memory_syscall),
 *                     shmat, recvmsg, io_submit;
 *                     procguard: a path that resolves under /proc (but for
 *                     the files qemu itself emulates), process_vm_*,
 *                     io_uring, open_by_handle_at; the guard: execve
 *                     (native code, uncounted), any syscall on the report
 *                     fd, a close/dup2/dup3 onto the framing or report fd,
 *                     a read of the framing fd other than read(2).
 *
 * Determinism. With detrand=on getrandom(2) returns a fixed splitmix64
 * stream (seed=); with dettime=on clock_gettime, gettimeofday and time
 * return 1.7e9 s plus 1 ns per counted instruction; with normstat=on the
 * stat family's st_dev, st_ino, st_nlink and size of folders, st_blksize,
 * st_blocks and times are rewritten from the path alone (lprefix= is the
 * -L prefix), and getdents64 returns its records sorted by name; uname(2)
 * always names the node "algotune", the domain "(none)" and the version
 * "#1 SMP" (qemu -r sets the release); sched_getaffinity reports CPU 0
 * alone.
 *
 * WHAT IT CANNOT GUARANTEE
 *
 * It counts instructions, not their cost: a cache miss and an add count
 * the same. It sees syscalls only at their entry and return, so files the
 * guest reads that fall outside the -L tree come from the host; the tree
 * must contain everything the program reads. Without mem=on a guest can
 * write anywhere in the emulator's memory, its counter included, so a
 * count of untrusted code needs mem=on (which costs about twice the time).
 * It trusts qemu's translation of x86-64 (Haswell-noTSX) to be the same
 * on every machine: the same qemu build, the same count.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "count.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

uint64_t insn_count;
uint64_t item_start;
static uint64_t cap;             /* per-item budget, 0 = none */
int armed;
int frame_fd = 3, out_fd = 4;
int mem_on, guard_on = 1, procguard = 1;
int detrand, dettime, normstat;
uint64_t lo, hi;
const char *lprefix = "";
uint64_t rng_state = 0x9e3779b97f4a7c15ull;
int64_t guest_base_off;
int base_known;

int in_range(uint64_t a, uint64_t len)
{
    return a >= lo && a <= hi && len <= hi - a;
}

void *host_ptr(uint64_t guest)
{
    return (void *)(uintptr_t)(guest + guest_base_off);
}

/* host write(2) of a whole string on the report fd */
static void out_str(const char *s)
{
    size_t n = strlen(s);
    while (n) {
        ssize_t w = write(out_fd, s, n);
        if (w < 0) { if (errno == EINTR) continue; return; }
        s += w; n -= (size_t)w;
    }
}

void report(const char *tag, const char *detail)
{
    char buf[PATH_MAX + 128];
    snprintf(buf, sizeof buf, "%s %llu%s%s\n", tag, (unsigned long long)insn_count,
             detail ? " " : "", detail ? detail : "");
    out_str(buf);
}

void end_run(const char *kind, int code, const char *detail)
{
    report(kind, detail);
    _exit(code);
}

void escape(const char *detail) { end_run("escape", EXIT_ESCAPE, detail); }

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
    if (vcpu_index >= 1)
        end_run("threads", EXIT_THREADS, "second-vcpu");
}

static void mem_cb(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                   uint64_t vaddr, void *udata)
{
    uint64_t size = 1ull << qemu_plugin_mem_size_shift(info);
    if (vaddr < lo || vaddr >= hi || hi - vaddr < size) {
        char detail[40];
        snprintf(detail, sizeof detail, "memory 0x%llx", (unsigned long long)vaddr);
        escape(detail);
    }
}

/* with cap=: add the block's instructions and end the run past the budget */
static void tb_exec_capped(unsigned int vcpu_index, void *udata)
{
    insn_count += (uintptr_t)udata;
    if (armed && insn_count - item_start > cap)
        end_run("over_budget", EXIT_OVER_BUDGET, NULL);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    size_t n = qemu_plugin_tb_n_insns(tb);
    if (!base_known && n) {                /* learn guest_base from the first block */
        struct qemu_plugin_insn *i0 = qemu_plugin_tb_get_insn(tb, 0);
        guest_base_off = (int64_t)((uintptr_t)qemu_plugin_insn_haddr(i0)
                                   - qemu_plugin_insn_vaddr(i0));
        base_known = 1;
    }
    if (cap)
        qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec_capped, QEMU_PLUGIN_CB_NO_REGS,
                                             (void *)(uintptr_t)n);
    else
        qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
                                                 &insn_count, n);
    if (mem_on) {
        uint64_t pc = qemu_plugin_tb_vaddr(tb);
        if (pc < lo || pc >= hi)
            escape("pc");
        for (size_t i = 0; i < n; i++)
            qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i), mem_cb,
                                             QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    }
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
    report("exit", NULL);
}

static int parse_bool(const char *name, const char *value, int *out)
{
    bool b;
    if (!qemu_plugin_bool_parse(name, value, &b)) {
        fprintf(stderr, "count: %s=%s is not on or off\n", name, value);
        return 0;
    }
    *out = b;
    return 1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                           int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        char *a = argv[i], *eq = strchr(a, '=');
        if (!eq) { fprintf(stderr, "count: bad argument %s\n", a); return -1; }
        *eq = 0;
        const char *v = eq + 1;
        int ok = 1;
        if (!strcmp(a, "fd")) frame_fd = atoi(v);
        else if (!strcmp(a, "out")) out_fd = atoi(v);
        else if (!strcmp(a, "cap")) cap = strtoull(v, NULL, 0);
        else if (!strcmp(a, "lo")) lo = strtoull(v, NULL, 0);
        else if (!strcmp(a, "hi")) hi = strtoull(v, NULL, 0);
        else if (!strcmp(a, "seed")) rng_state = strtoull(v, NULL, 0);
        else if (!strcmp(a, "lprefix")) lprefix = v;
        else if (!strcmp(a, "mem")) ok = parse_bool(a, v, &mem_on);
        else if (!strcmp(a, "detrand")) ok = parse_bool(a, v, &detrand);
        else if (!strcmp(a, "dettime")) ok = parse_bool(a, v, &dettime);
        else if (!strcmp(a, "normstat")) ok = parse_bool(a, v, &normstat);
        else if (!strcmp(a, "procguard")) ok = parse_bool(a, v, &procguard);
        else if (!strcmp(a, "guard")) ok = parse_bool(a, v, &guard_on);
        else { fprintf(stderr, "count: unknown argument %s\n", a); return -1; }
        if (!ok) return -1;
    }
    if (mem_on && (hi == 0 || hi > GUEST_TOP)) {
        fprintf(stderr, "count: mem=on needs hi= below 0x%llx\n", (unsigned long long)GUEST_TOP);
        return -1;
    }
    qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_vcpu_syscall_cb(id, vcpu_syscall);
    qemu_plugin_register_vcpu_syscall_ret_cb(id, vcpu_syscall_ret);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
