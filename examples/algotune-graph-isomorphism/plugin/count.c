/*
 * count.c - the instruction counter of the graph-isomorphism grader, a
 * plugin for Debian's qemu-user 7.2 (TCG plugin API version 1).
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
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

enum { EXIT_OVER_BUDGET = 96, EXIT_THREADS = 97, EXIT_ESCAPE = 98 };
#define GUEST_TOP 0x0000800000000000ull  /* end of the x86-64 user half */

static uint64_t insn_count;      /* the counter; one vCPU only */
static uint64_t item_start;      /* the count at the last framing read */
static uint64_t cap;             /* per-item budget, 0 = none */
static int armed;                /* a framing read has happened */
static int frame_fd = 3, out_fd = 4;
static int mem_on, guard_on = 1, procguard = 1;
static int detrand, dettime, normstat;
static uint64_t lo, hi;
static const char *lprefix = "";
static char stat_path[PATH_MAX + 512];  /* host path of the object being stat'ed */
static int stat_pending;
static int64_t guest_base_off;   /* host address = guest address + this */
static int base_known;
static int64_t last_num = -1;
static uint64_t last_a1, last_a2, last_a3;
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t splitmix(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int in_range(uint64_t a, uint64_t len)
{
    return a >= lo && a <= hi && len <= hi - a;
}

static void *host_ptr(uint64_t guest)
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

static void report(const char *tag, const char *detail)
{
    char buf[PATH_MAX + 128];
    snprintf(buf, sizeof buf, "%s %llu%s%s\n", tag, (unsigned long long)insn_count,
             detail ? " " : "", detail ? detail : "");
    out_str(buf);
}

static void end_run(const char *kind, int code, const char *detail)
{
    report(kind, detail);
    _exit(code);
}

static void escape(const char *detail) { end_run("escape", EXIT_ESCAPE, detail); }

static void vcpu_init(qemu_plugin_id_t id, unsigned int vcpu_index)
{
    if (vcpu_index >= 1)
        end_run("threads", EXIT_THREADS, "second-vcpu");
}

/* Resolve a guest path as the host would and refuse anything under /proc
 * but the files qemu emulates: /proc/self/mem, /proc/<pid>/fd/N and the
 * like would reach the emulator's memory or the report fd. */
static void check_path(int64_t dirfd, uint64_t gptr)
{
    if (!base_known || !gptr) return;
    const char *gp = host_ptr(gptr);
    char buf[PATH_MAX * 2], res[PATH_MAX], base[PATH_MAX];
    if (strnlen(gp, PATH_MAX) >= PATH_MAX) escape("path-too-long");
    if (gp[0] == '/') {
        snprintf(buf, sizeof buf, "%s", gp);
    } else {
        if ((int)dirfd == AT_FDCWD) {
            if (!getcwd(base, sizeof base)) escape("no-cwd");
        } else {
            char l[64]; ssize_t k;
            snprintf(l, sizeof l, "/proc/self/fd/%d", (int)dirfd);
            k = readlink(l, base, sizeof base - 1);
            if (k < 0) return;            /* a bad dirfd: the syscall fails */
            base[k] = 0;
        }
        snprintf(buf, sizeof buf, "%s/%s", base, gp);
    }
    if (!realpath(buf, res)) {            /* the longest existing prefix will do */
        char *sl = strrchr(buf, '/');
        if (!sl || sl == buf) return;
        *sl = 0;
        if (!realpath(buf, res)) return;
    }
    if (strncmp(res, "/proc", 5) || (res[5] != 0 && res[5] != '/')) return;
    if (!strcmp(res, "/proc/sys/vm/overcommit_memory")) return;
    static const char *emulated[] = { "maps", "smaps", "stat", "auxv", "cmdline", "exe", NULL };
    for (int i = 0; emulated[i]; i++) {
        char want[96];
        snprintf(want, sizeof want, "/proc/%d/%s", (int)getpid(), emulated[i]);
        if (!strcmp(res, want)) return;
    }
    char detail[PATH_MAX + 8];
    snprintf(detail, sizeof detail, "proc %s", res);
    escape(detail);
}

static uint64_t fnv1a(const char *p)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *p; p++) { h ^= (unsigned char)*p; h *= 0x100000001b3ull; }
    return h;
}

static int fd_path(int fd, char *out, size_t size)
{
    char l[64];
    snprintf(l, sizeof l, "/proc/self/fd/%d", fd);
    ssize_t k = readlink(l, out, size - 1);
    if (k < 0) return 0;
    out[k] = 0;
    return 1;
}

/* note the host object a stat-family syscall names, as qemu -L resolves it */
static void note_stat(int64_t num, uint64_t a1, uint64_t a2, uint64_t a4)
{
    char tmp[PATH_MAX + 256], base[PATH_MAX];
    stat_pending = 0;
    if (!base_known) return;
    if (num == 5) {                                    /* fstat(fd) */
        stat_pending = fd_path((int)a1, stat_path, sizeof stat_path);
        return;
    }
    int64_t dirfd = num == 262 ? (int64_t)(int32_t)a1 : AT_FDCWD;
    const char *gp = host_ptr(num == 262 ? a2 : a1);
    if (num == 262 && gp[0] == 0 && (a4 & 0x1000 /* AT_EMPTY_PATH */)) {
        stat_pending = fd_path((int)a1, stat_path, sizeof stat_path);
        return;
    }
    if (gp[0] == '/') {
        struct stat st;
        snprintf(tmp, sizeof tmp, "%s%s", lprefix, gp);
        if (!lprefix[0] || lstat(tmp, &st) != 0) snprintf(tmp, sizeof tmp, "%s", gp);
    } else {
        if ((int)dirfd == AT_FDCWD) { if (!getcwd(base, sizeof base)) return; }
        else if (!fd_path((int)dirfd, base, sizeof base)) return;
        snprintf(tmp, sizeof tmp, "%s/%s", base, gp);
    }
    snprintf(stat_path, sizeof stat_path, "%s", tmp);
    stat_pending = 1;
}

/* rewrite the filesystem's fields of a guest struct stat (x86-64 layout) */
static void fix_stat(uint64_t gbuf)
{
    uint64_t *st = host_ptr(gbuf);
    uint32_t mode = *(uint32_t *)((char *)st + 24);
    st[0] = 0x801;                            /* st_dev */
    st[1] = fnv1a(stat_path) >> 1;            /* st_ino, from the path */
    if ((mode & 0170000) == 0040000) { st[2] = 2; st[6] = 4096; }  /* folders */
    st[7] = 4096;                             /* st_blksize */
    st[8] = (st[6] + 511) / 512;              /* st_blocks */
    for (int i = 9; i < 15; i += 2) { st[i] = 1700000000; st[i + 1] = 0; }  /* times */
}

struct dent { const unsigned char *p; unsigned short len; };
static int dent_cmp(const void *x, const void *y)
{
    const struct dent *a = x, *b = y;
    return strcmp((const char *)a->p + 19, (const char *)b->p + 19);
}

/* sort the linux_dirent64 records of one getdents64 result by name */
static void sort_dents(uint64_t gbuf, int64_t n)
{
    static struct dent ents[8192];
    static unsigned char tmp[1 << 20];
    static int64_t offs[8192];
    unsigned char *buf = host_ptr(gbuf);
    int k = 0;
    if (n > (int64_t)sizeof tmp) return;
    for (int64_t pos = 0; pos < n && k < 8192; k++) {
        unsigned short rl;
        memcpy(&rl, buf + pos + 16, 2);
        if (rl < 20 || pos + rl > n) return;
        memcpy(&offs[k], buf + pos + 8, 8);
        ents[k].p = buf + pos; ents[k].len = rl;
        pos += rl;
    }
    memcpy(tmp, buf, n);
    for (int i = 0; i < k; i++) ents[i].p = tmp + (ents[i].p - buf);
    qsort(ents, k, sizeof ents[0], dent_cmp);
    int64_t pos = 0;
    for (int i = 0; i < k; i++) {
        uint64_t ino = fnv1a((const char *)ents[i].p + 19) | 1;
        memcpy(buf + pos, ents[i].p, ents[i].len);
        memcpy(buf + pos, &ino, 8);           /* d_ino, from the name */
        memcpy(buf + pos + 8, &offs[i], 8);   /* d_off stays positional */
        pos += ents[i].len;
    }
}

/* a buffer the kernel (or qemu for it) writes through must lie in [lo,hi) */
static void check_buf(uint64_t ptr, uint64_t len)
{
    if (ptr && !in_range(ptr, len)) escape("syscall-buffer");
}

/* an argument that is a pointer only for some commands (ioctl, fcntl, prctl) */
static void check_maybe_ptr(uint64_t v)
{
    if (v >= hi && v < GUEST_TOP) escape("syscall-buffer");
}

/* iovec arrays the kernel writes through must lie in the guest's range */
static void check_iov(uint64_t iov, uint64_t count)
{
    if (count > 1024 || !in_range(iov, count * 16)) escape("iovec");
    const uint64_t *v = host_ptr(iov);
    for (uint64_t i = 0; i < count; i++)
        check_buf(v[2 * i], v[2 * i + 1]);
}

/* mem=on: qemu-user hands guest pointers to the host kernel as they are
 * (guest_base is 0, and no reserved_va is possible with the x86-64
 * vsyscall page), so every syscall that writes through a pointer has its
 * buffers checked here; the mapping syscalls may not reach outside. */
static void check_memory_syscall(int64_t num, const uint64_t *a)
{
    switch (num) {
    case 0: case 17: case 45: case 78: case 217: case 79: case 318:
        /* read pread64 recvfrom getdents getdents64 getcwd getrandom */
        check_buf(num == 79 || num == 318 ? a[0] : a[1],
                  num == 79 || num == 318 ? a[1] : a[2]);
        break;
    case 89: check_buf(a[1], a[2]); break;                 /* readlink */
    case 267: check_buf(a[2], a[3]); break;                /* readlinkat */
    case 4: case 5: case 6: check_buf(a[1], 144); break;   /* stat fstat lstat */
    case 262: check_buf(a[2], 144); break;                 /* newfstatat */
    case 332: check_buf(a[4], 256); break;                 /* statx */
    case 137: case 138: check_buf(a[1], 120); break;       /* statfs fstatfs */
    case 7: case 271: check_buf(a[0], a[1] * 8); break;    /* poll ppoll */
    case 13: check_buf(a[2], 32); break;                   /* rt_sigaction */
    case 14: check_buf(a[2], 8); break;                    /* rt_sigprocmask */
    case 22: case 293: check_buf(a[0], 8); break;          /* pipe pipe2 */
    case 23: case 270:                                     /* select pselect6 */
        check_buf(a[1], 128); check_buf(a[2], 128); check_buf(a[3], 128); check_buf(a[4], 16);
        break;
    case 35: check_buf(a[1], 16); break;                   /* nanosleep */
    case 230: check_buf(a[3], 16); break;                  /* clock_nanosleep */
    case 228: case 229: check_buf(a[1], 16); break;        /* clock_gettime getres */
    case 96: check_buf(a[0], 16); check_buf(a[1], 8); break;  /* gettimeofday */
    case 201: check_buf(a[0], 8); break;                   /* time */
    case 36: check_buf(a[1], 32); break;                   /* getitimer */
    case 38: check_buf(a[2], 32); break;                   /* setitimer */
    case 40: check_buf(a[2], 8); break;                    /* sendfile */
    case 43: case 288: case 51: case 52:                   /* accept accept4 getsockname getpeername */
        check_buf(a[2], 4); check_buf(a[1], 128); break;
    case 55: check_buf(a[4], 4); check_buf(a[3], 256); break;  /* getsockopt */
    case 53: check_buf(a[3], 8); break;                    /* socketpair */
    case 61: check_buf(a[1], 4); check_buf(a[3], 144); break;  /* wait4 */
    case 247: check_buf(a[2], 128); check_buf(a[4], 144); break;  /* waitid */
    case 63: check_buf(a[0], 390); break;                  /* uname */
    case 97: check_buf(a[1], 16); break;                   /* getrlimit */
    case 98: check_buf(a[1], 144); break;                  /* getrusage */
    case 99: check_buf(a[0], 112); break;                  /* sysinfo */
    case 100: check_buf(a[0], 32); break;                  /* times */
    case 115: check_buf(a[1], a[0] * 4); break;            /* getgroups */
    case 118: case 120:                                    /* getresuid getresgid */
        check_buf(a[0], 4); check_buf(a[1], 4); check_buf(a[2], 4); break;
    case 125: check_buf(a[1], 24); break;                  /* capget */
    case 127: check_buf(a[0], 8); break;                   /* rt_sigpending */
    case 128: check_buf(a[1], 128); break;                 /* rt_sigtimedwait */
    case 131: check_buf(a[1], 24); break;                  /* sigaltstack */
    case 143: case 148: check_buf(a[1], 16); break;        /* sched_getparam rr_get_interval */
    case 158: check_buf(a[1], 8); break;                   /* arch_prctl */
    case 202: check_buf(a[0], 4); check_maybe_ptr(a[4]); break;  /* futex */
    case 204: check_buf(a[2], a[1]); break;                /* sched_getaffinity */
    case 218: check_buf(a[0], 4); break;                   /* set_tid_address */
    case 224: case 287: check_buf(a[1], 32); break;        /* timer_gettime timerfd_gettime */
    case 232: case 281: check_buf(a[1], a[2] * 12); break; /* epoll_wait epoll_pwait */
    case 302: check_buf(a[3], 16); break;                  /* prlimit64 */
    case 309: check_buf(a[0], 4); check_buf(a[1], 4); break;  /* getcpu */
    case 70: check_buf(a[1], a[2] + 8); break;             /* msgrcv */
    case 16: case 72: case 157: check_maybe_ptr(a[2]); check_maybe_ptr(a[1]); break;  /* ioctl fcntl prctl */
    case 19: case 295: case 327: check_iov(a[1], a[2]); break;  /* readv preadv preadv2 */
    case 9:                                /* mmap with an address */
        if ((a[3] & 0x100010 /* MAP_FIXED|MAP_FIXED_NOREPLACE */) || a[0])
            if (!in_range(a[0], a[1])) escape("mmap");
        break;
    case 10: case 11: case 28:             /* mprotect munmap madvise */
        if (!in_range(a[0], a[1])) escape("mmap");
        break;
    case 25:                               /* mremap */
        if (!in_range(a[0], a[1])) escape("mmap");
        if ((a[3] & 2 /* MREMAP_FIXED */) && !in_range(a[4], a[2])) escape("mmap");
        break;
    case 12:                               /* brk */
        if (a[0] && !in_range(a[0], 0)) escape("brk");
        break;
    case 30: case 216: case 47: case 299: case 209: case 208: case 31: case 66:
        /* shmat remap_file_pages recvmsg recvmmsg io_submit io_getevents shmctl semctl */
        escape("unchecked-memory-syscall");
    }
}

static void vcpu_syscall(qemu_plugin_id_t id, unsigned int vcpu_index,
                         int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
                         uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                         uint64_t a8)
{
    const uint64_t a[6] = { a1, a2, a3, a4, a5, a6 };
    last_num = num; last_a1 = a1; last_a2 = a2; last_a3 = a3;
    if (normstat && (num == 4 || num == 5 || num == 6 || num == 262))
        note_stat(num, a1, a2, a4);
    if (mem_on)
        check_memory_syscall(num, a);
    if (procguard) {
        switch (num) {
        case 2: case 4: case 6: case 21: case 89: case 76: case 80:
            /* open stat lstat access readlink truncate chdir */
            check_path(AT_FDCWD, a1); break;
        case 257: case 262: case 269: case 267: case 437: case 439: case 332:
            /* openat newfstatat faccessat readlinkat openat2 faccessat2 statx */
            check_path((int64_t)(int32_t)a1, a2); break;
        case 303: case 304: case 310: case 311: case 425: case 426: case 427:
            /* name_to_handle_at open_by_handle_at process_vm_* io_uring_* */
            escape("refused-syscall");
        }
    }
    if (!guard_on)
        return;
    switch (num) {
    case 56: case 57: case 58: case 435:   /* clone fork vfork clone3 */
        end_run("threads", EXIT_THREADS, "clone");
    case 59: case 322:                     /* execve execveat: native, uncounted */
        escape("execve");
    case 33: case 292:                     /* dup2 dup3 onto a protocol fd */
        if (a2 == (uint64_t)out_fd || a2 == (uint64_t)frame_fd) escape("dup-onto-protocol-fd");
        break;
    case 3:                                /* close */
        if (a1 == (uint64_t)frame_fd) escape("close-framing-fd");
        break;
    case 17: case 19: case 295: case 327: case 45: case 47: case 275:
        /* pread64 readv preadv preadv2 recvfrom recvmsg splice: framing fd */
        if (a1 == (uint64_t)frame_fd) escape("framing-fd");
        break;
    }
    switch (num) {   /* syscalls whose first argument is an fd that could use the report fd */
    case 0: case 1: case 3: case 16: case 17: case 18: case 19: case 20: case 32: case 40:
    case 44: case 46: case 48: case 72: case 77: case 285: case 296: case 307: case 328:
        if (a1 == (uint64_t)out_fd) escape("report-fd");
        break;
    case 275: case 326:                    /* splice copy_file_range: fd_out */
        if (a3 == (uint64_t)out_fd) escape("report-fd");
        break;
    case 436:                              /* close_range */
        if ((a1 <= (uint64_t)out_fd && (uint64_t)out_fd <= a2)
            || (a1 <= (uint64_t)frame_fd && (uint64_t)frame_fd <= a2)) escape("close-range");
        break;
    }
}

static void vcpu_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu_idx,
                             int64_t num, int64_t ret)
{
    if (num != last_num || ret < 0)
        return;
    if (num == 0 && last_a1 == (uint64_t)frame_fd) {
        if (ret > 0) {                     /* an item starts */
            report("r", NULL);
            item_start = insn_count;
            armed = 1;
        }
        return;
    }
    if (!base_known)
        return;
    if (normstat && stat_pending && ret == 0 && (num == 4 || num == 5 || num == 6 || num == 262)) {
        fix_stat(num == 262 ? last_a3 : last_a2);
        stat_pending = 0;
    }
    if (normstat && num == 217 /* getdents64 */ && ret > 0)
        sort_dents(last_a2, ret);
    if (num == 63 /* uname */ && last_a1) {
        char *u = host_ptr(last_a1);       /* struct new_utsname: 6 fields of 65 */
        memset(u + 65, 0, 65);  strcpy(u + 65, "algotune");
        memset(u + 195, 0, 65); strcpy(u + 195, "#1 SMP");
        memset(u + 325, 0, 65); strcpy(u + 325, "(none)");
    }
    if (num == 204 /* sched_getaffinity */ && ret > 0 && last_a3) {
        unsigned char *m = host_ptr(last_a3);
        memset(m, 0, (size_t)ret);
        m[0] = 1;                          /* CPU 0 alone */
    }
    if (detrand && num == 318 /* getrandom */) {
        unsigned char *p = host_ptr(last_a1);
        for (int64_t i = 0; i < ret; i += 8) {
            uint64_t r = splitmix();
            memcpy(p + i, &r, (ret - i) >= 8 ? 8 : (size_t)(ret - i));
        }
    }
    if (dettime) {                         /* a fixed epoch + 1 ns per instruction */
        uint64_t sec = 1700000000ull + insn_count / 1000000000ull;
        uint64_t nsec = insn_count % 1000000000ull;
        if (num == 228 && last_a2) {       /* clock_gettime(clock, ts) */
            uint64_t *ts = host_ptr(last_a2);
            ts[0] = sec; ts[1] = nsec;
        } else if (num == 96 && last_a1) { /* gettimeofday(tv, tz) */
            uint64_t *tv = host_ptr(last_a1);
            tv[0] = sec; tv[1] = nsec / 1000;
        } else if (num == 201 && last_a1) { /* time(t) */
            *(uint64_t *)host_ptr(last_a1) = sec;
        }
    }
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
