/*
 * fake_msr8.h - the MSR files of fake_hw.h spaced 8 bytes per MSR, for the
 * tests that interpose pread/pwrite (test_journal_hw, test_nhm_hw,
 * test_core_glb_hw): their interposer moves pmon's access to MSR m to
 * offset 8 m, so that MSRs 1 apart (0x391-0x396, 0x3B0-0x3B7, 0x38F) do
 * not overlap.  The test's own accesses below go to the same offsets by
 * raw system calls, past the interposed functions (not counted, failed or
 * logged).
 */
#ifndef PMON_FAKE_MSR8_H
#define PMON_FAKE_MSR8_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* fd is open on an MSR file (its path ends in /msr). */
static inline int fake_is_msr_fd(int fd)
{
	char link[64], path[512];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, sizeof(path) - 1);
	if (n < 4)
		return 0;
	path[n] = 0;
	return !strcmp(path + n - 4, "/msr");
}

/* MSR msr of cpu under root (ROOT/N/msr) read, or written with v (put):
 * its value, ~0 on failure. */
static inline uint64_t fake_msr8_io(const char *root, int cpu, uint32_t msr, int put, uint64_t v)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/%d/msr", root, cpu);
	int fd = open(path, put ? O_WRONLY : O_RDONLY);
	if (fd < 0)
		return ~0ull;
	long n = put ? syscall(SYS_pwrite64, fd, &v, 8, (off_t)msr * 8)
		     : syscall(SYS_pread64, fd, &v, 8, (off_t)msr * 8);
	close(fd);
	return n == 8 ? v : ~0ull;
}

#endif
