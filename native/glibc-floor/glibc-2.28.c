/* The glibc floor of the shipped Linux x64 binaries (libsvcpp.so, the SDK archive's libsvcpp.so.N, the Node addon):
 * glibc 2.28, the same floor as Node 20's own Linux x64 builds (Debian 10, Ubuntu 20.04, RHEL 8 and newer).
 *
 * We compile on a newer glibc (Debian 12: 2.36). Its headers and libc.so.6 give every reference the newest version
 * of a symbol (pthread_create@GLIBC_2.34 since libpthread merged into libc, stat@GLIBC_2.33, ...), and such a
 * binary refuses to load on an older system ("version `GLIBC_2.34' not found"). This file is linked into each
 * shipped binary and defines, hidden, every symbol whose default version is newer than 2.28, so that the whole
 * link (our objects and the static archives: libstdc++, OpenSSL, Opus) binds to these definitions:
 *   - most forward with a tail jump to the same function's 2.28-or-older version, which every newer glibc keeps
 *     as a compatibility symbol (GLIBC_2.2.5 is x86-64's first version);
 *   - stat/fstat did not exist as symbols before 2.33 (headers inlined them over __xstat/__fxstat): call those;
 *   - arc4random (2.36, used by the static libstdc++'s std::random_device) is rebuilt on getrandom (2.25);
 *   - __libc_single_threaded (2.32, read by libstdc++'s reference counting) is always 0: "assume threads", the
 *     conservative answer, which only costs an atomic increment where a plain one would do.
 * On glibc < 2.34 the pthread and dl functions live in libpthread.so.0 and libdl.so.2, which the link therefore
 * names as DT_NEEDED (both still exist, as empty stubs, on newer systems). cmake/glibc-floor.cmake adds this file
 * and those flags; test/glibc-floor.test.ts fails when `objdump -T` shows any version newer than the floor.
 * x86-64 and arm64 (aarch64): the tail jump is one instruction of each, and aarch64's first glibc is 2.17, so there
 * every older version below is 2.17 (SVCPP_OLD), and its stat structure version is 0 (the generic one), not x86-64's 1.
 */

#if !defined(__linux__) || !(defined(__x86_64__) || defined(__aarch64__))
#error "the glibc floor is for Linux x86-64 and arm64 builds only (cmake/glibc-floor.cmake)"
#endif

#if defined(__x86_64__)
#define SVCPP_OLD(version) version
#define SVCPP_JUMP(target) "jmp " target "@PLT"
#define SVCPP_STAT_VER 1
#else
#define SVCPP_OLD(version) "GLIBC_2.17"
#define SVCPP_JUMP(target) "b " target
#define SVCPP_STAT_VER 0
#endif

#include <stddef.h>
#include <stdint.h>

/* SVCPP_FORWARD(name, version): a hidden `name` that jumps to name@version (the arguments are untouched, so no
 * prototype is needed). The .symver line names the old version of the undefined helper symbol. */
#define SVCPP_FORWARD(name, version) \
    __asm__(".symver svcpp_floor_" #name ", " #name "@" SVCPP_OLD(version) "\n"         \
          ".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", %function\n" \
          #name ":\n\t" SVCPP_JUMP("svcpp_floor_" #name) "\n"                          \
          ".size " #name ", . - " #name "\n")

/* libpthread.so.0 before 2.34 */
SVCPP_FORWARD(pthread_create, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_detach, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_join, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_once, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_key_create, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_key_delete, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_getspecific, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_setspecific, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_rwlock_init, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_rwlock_destroy, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_rwlock_rdlock, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_rwlock_wrlock, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_rwlock_unlock, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_condattr_setclock, "GLIBC_2.3.3");
SVCPP_FORWARD(pthread_setaffinity_np, "GLIBC_2.3.4");
SVCPP_FORWARD(pthread_setname_np, "GLIBC_2.12");
/* the voice engine's threads and locks (WebRTC audio processing, the audio/network threads) */
SVCPP_FORWARD(pthread_attr_setstacksize, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_mutex_trylock, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_mutexattr_init, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_mutexattr_destroy, "GLIBC_2.2.5");
SVCPP_FORWARD(pthread_mutexattr_settype, "GLIBC_2.2.5");
/* libm.so.6: 2.29 gave exp/log/pow new versions without the SVID error handling; the old ones return the same
 * values for the finite arguments the audio code passes */
SVCPP_FORWARD(exp, "GLIBC_2.2.5");
SVCPP_FORWARD(log, "GLIBC_2.2.5");
SVCPP_FORWARD(pow, "GLIBC_2.2.5");
/* libc.so.6: a 2.32 version changed which signals it filters; the old one behaves the same for our masks */
SVCPP_FORWARD(pthread_sigmask, "GLIBC_2.2.5");
/* libdl.so.2 before 2.34 (OpenSSL's DSO code) */
SVCPP_FORWARD(dlopen, "GLIBC_2.2.5");
SVCPP_FORWARD(dlclose, "GLIBC_2.2.5");
SVCPP_FORWARD(dlsym, "GLIBC_2.2.5");
SVCPP_FORWARD(dlerror, "GLIBC_2.2.5");
SVCPP_FORWARD(dladdr, "GLIBC_2.2.5");

/* stat and fstat: before 2.33 only __xstat/__fxstat existed, with the struct layout version as first argument
 * (_STAT_VER_LINUX, 1 on x86-64; 0 on aarch64: SVCPP_STAT_VER). */
struct stat;
extern int svcpp_floor_xstat(int ver, const char *path, struct stat *buf);
extern int svcpp_floor_fxstat(int ver, int fd, struct stat *buf);
extern int svcpp_floor_lxstat(int ver, const char *path, struct stat *buf);
__asm__(".symver svcpp_floor_xstat, __xstat@" SVCPP_OLD("GLIBC_2.2.5"));
__asm__(".symver svcpp_floor_fxstat, __fxstat@" SVCPP_OLD("GLIBC_2.2.5"));
__asm__(".symver svcpp_floor_lxstat, __lxstat@" SVCPP_OLD("GLIBC_2.2.5"));
__attribute__((visibility("hidden"))) int stat(const char *path, struct stat *buf) {
    return svcpp_floor_xstat(SVCPP_STAT_VER, path, buf);
}
__attribute__((visibility("hidden"))) int fstat(int fd, struct stat *buf) {
    return svcpp_floor_fxstat(SVCPP_STAT_VER, fd, buf);
}
/* lstat and fstat64, which the static libstdc++ calls (std::filesystem, file streams): on x86-64 the 64-bit forms are
 * the same struct and the same old helpers. */
__attribute__((visibility("hidden"))) int lstat(const char *path, struct stat *buf) {
    return svcpp_floor_lxstat(SVCPP_STAT_VER, path, buf);
}
__attribute__((visibility("hidden"))) int fstat64(int fd, struct stat *buf) {
    return svcpp_floor_fxstat(SVCPP_STAT_VER, fd, buf);
}

/* arc4random: getrandom(2) until it has all four bytes; like glibc's, it cannot fail, so it aborts if the kernel
 * has no entropy source at all (getrandom missing: kernels before 3.17, which glibc 2.28 does not support either). */
extern long getrandom(void *buf, size_t length, unsigned int flags);
extern int *__errno_location(void);
extern void abort(void);
__attribute__((visibility("hidden"))) uint32_t arc4random(void) {
    uint32_t value;
    unsigned char *out = (unsigned char *)&value;
    size_t have = 0;
    while (have < sizeof value) {
        long got = getrandom(out + have, sizeof value - have, 0);
        if (got > 0)
            have += (size_t)got;
        else if (got < 0 && *__errno_location() != 4 /* EINTR */)
            abort();
    }
    return value;
}

__attribute__((visibility("hidden"))) char __libc_single_threaded = 0;
