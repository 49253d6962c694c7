/*
 * fault_syscalls.h - make the device files' reads and writes fail on demand.
 *
 * A test program that includes this header defines pread/pwrite (and their
 * 64-bit names) itself; the dynamic linker resolves libpci's and libpmon's
 * calls to these, which pass everything through to the system call, except
 * that the next fault_arm()ed access to a matching file (a path containing
 * "/config" for PCI, "/msr" for MSRs) fails with the armed errno, as a
 * device that returns EIO, or one that went away (ENXIO), would.
 * Include it in one test program only (it defines functions).
 */
#ifndef PMON_FAULT_SYSCALLS_H
#define PMON_FAULT_SYSCALLS_H

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct {
	int armed;            /* accesses still to fail */
	int skip;             /* matching accesses to let through first */
	int err;              /* errno to fail with */
	int writes;           /* 1: fail writes, 0: fail reads */
	char match[16];       /* path part that selects the files */
	int fired;            /* faults delivered */
} fault_state;

/* The next access (after skip matching ones) of the kind writes (0 read, 1
 * write) to a file whose path contains match fails with err. */
static inline void fault_arm(const char *match, int writes, int skip, int err)
{
	snprintf(fault_state.match, sizeof(fault_state.match), "%s", match);
	fault_state.writes = writes;
	fault_state.skip = skip;
	fault_state.err = err;
	fault_state.armed = 1;
}

static inline void fault_disarm(void) { fault_state.armed = 0; }

static int fault_hit(int fd, int write)
{
	char link[64], path[512];
	ssize_t n;

	if (!fault_state.armed || write != fault_state.writes)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	if (!strstr(path, fault_state.match))
		return 0;
	if (fault_state.skip > 0) {
		fault_state.skip--;
		return 0;
	}
	fault_state.armed = 0;
	fault_state.fired++;
	return 1;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t pread64(int fd, void *buf, size_t n, off_t off);
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off);

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	if (fault_hit(fd, 0)) {
		errno = fault_state.err;
		return -1;
	}
	return syscall(SYS_pread64, fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (fault_hit(fd, 1)) {
		errno = fault_state.err;
		return -1;
	}
	return syscall(SYS_pwrite64, fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off) { return pread(fd, buf, n, off); }
ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) { return pwrite(fd, buf, n, off); }

#endif
