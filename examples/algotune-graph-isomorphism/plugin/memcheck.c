/*
 * memcheck.c - mem=on, at each syscall's entry: qemu-user hands guest
 * pointers to the host kernel as they are (guest_base is 0, and no
 * reserved_va is possible with the x86-64 vsyscall page), so every syscall
 * that writes through a pointer has its buffers checked against the
 * guest's range [lo,hi), and the mapping syscalls may not reach outside
 * it (count.c's header says what that guarantees).
 */
#include "count.h"

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

/* the buffers of syscall `num` (arguments `a`) and the mappings it makes */
void check_memory_syscall(int64_t num, const uint64_t *a)
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
