/*
 * syscalls.c - the plugin at each syscall (count.c's header says what each
 * guarantees): at its entry the guard (threads, execve, the protocol's fds),
 * procguard (no path under /proc but qemu's own, no process_vm_* or
 * io_uring) and memcheck.c's check; at its return the framing reads, which
 * report the count, and the tree profile (normalised stat and getdents64,
 * a fixed uname and affinity, detrand's getrandom, dettime's clocks).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "count.h"

static char stat_path[PATH_MAX + 512];  /* host path of the object being stat'ed */
static int stat_pending;
static int64_t last_num = -1;
static uint64_t last_a1, last_a2, last_a3;

static uint64_t splitmix(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
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

void vcpu_syscall(qemu_plugin_id_t id, unsigned int vcpu_index,
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

void vcpu_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu_idx,
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
