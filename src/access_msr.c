/*
 * access_msr.c - model-specific registers through the Linux msr driver.
 *
 * Each CPU N has a device file ROOT/N/msr (ROOT is /dev/cpu unless a test
 * points elsewhere).  An MSR is read or written as 8 bytes at the file offset
 * equal to the MSR number.  Every CPU's file is opened once, at open time, so
 * that permission problems show up before any event is programmed.
 *
 * A CPU whose file is missing while CPU 0's exists is taken as offline (or a
 * gap in the numbering); accessing it fails with PMON_ENODEV.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "access.h"
#include "why.h"

#define MSR_DEFAULT_ROOT "/dev/cpu"

struct pmon_msr_dev {
	char root[PATH_MAX];
	int ncpus;
	int mode;
	int *fd;            /* [ncpus], -1 when the CPU has no file */
};

static void msr_path(const struct pmon_msr_dev *m, int cpu, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d/msr", m->root, cpu);
}

/* Classify a failed open() of CPU cpu's file; returns a PMON_E* code, or 0
 * when the CPU is simply absent (offline) and the others may still be used. */
static int msr_open_error(struct pmon_msr_dev *m, int cpu, const char *path, int err,
			  char *why, size_t whylen)
{
	switch (err) {
	case ENOENT:
	case ENXIO:
		if (cpu > 0 && m->fd[0] >= 0)
			return 0;
		return pmon_why(why, whylen, PMON_ENODEV,
				"%s missing: load the msr kernel module (modprobe msr)", path);
	case EACCES:
	case EPERM:
		return pmon_why(why, whylen, PMON_EPERM,
				"cannot open %s (%s): MSR access needs root or CAP_SYS_RAWIO"
			" and %s permission on the file", path, strerror(err),
			m->mode == O_RDONLY ? "read" : "read/write");
	case EISDIR:
		return pmon_why(why, whylen, PMON_ENODEV,
				"%s is a directory, not the MSR device file", path);
	case EIO:
		return pmon_why(why, whylen, PMON_ENODEV,
				"cannot open %s: CPU %d does not support MSRs (EIO)", path, cpu);
	default:
		return pmon_why(why, whylen, PMON_EIO, "cannot open %s: %s", path, strerror(err));
	}
}

static int msr_check_file(int fd, const char *path, char *why, size_t whylen)
{
	struct stat st;

	if (fstat(fd, &st) != 0) {
		return pmon_why(why, whylen, PMON_EIO, "cannot stat %s: %s", path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode)) {
		return pmon_why(why, whylen, PMON_ENODEV,
				"%s is a directory, not the MSR device file", path);
	}
	if (!S_ISCHR(st.st_mode) && !S_ISREG(st.st_mode)) {
		return pmon_why(why, whylen, PMON_ENODEV, "%s is not an MSR device file", path);
	}
	return 0;
}

static void msr_free(struct pmon_msr_dev *m)
{
	if (!m)
		return;
	if (m->fd) {
		for (int i = 0; i < m->ncpus; i++)
			if (m->fd[i] >= 0)
				close(m->fd[i]);
		free(m->fd);
	}
	free(m);
}

int pmon_msr_open(struct pmon_msr_dev **out, const char *root, int ncpus, int mode,
		  char *why, size_t whylen)
{
	struct pmon_msr_dev *m;
	char path[PATH_MAX + 32];
	int rc = 0;

	if (!out)
		return PMON_EINVAL;
	*out = NULL;
	if (ncpus < 1 || (mode != O_RDONLY && mode != O_RDWR)) {
		return pmon_why(why, whylen, PMON_EINVAL,
				"pmon_msr_open: bad CPU count or open mode");
	}
	if (!root || !*root)
		root = MSR_DEFAULT_ROOT;
	if (strlen(root) >= sizeof(m->root)) {
		return pmon_why(why, whylen, PMON_EINVAL, "pmon_msr_open: MSR root path too long");
	}
	m = calloc(1, sizeof(*m));
	if (!m || !(m->fd = malloc(sizeof(int) * (size_t)ncpus))) {
		free(m);
		return pmon_why(why, whylen, PMON_ENOMEM, "out of memory opening the MSR files");
	}
	strcpy(m->root, root);
	m->ncpus = ncpus;
	m->mode = mode;
	for (int i = 0; i < ncpus; i++)
		m->fd[i] = -1;

	for (int cpu = 0; cpu < ncpus && rc == 0; cpu++) {
		int fd;

		msr_path(m, cpu, path, sizeof(path));
		fd = open(path, mode | O_CLOEXEC);
		if (fd < 0) {
			rc = msr_open_error(m, cpu, path, errno, why, whylen);
			continue;
		}
		m->fd[cpu] = fd;
		rc = msr_check_file(fd, path, why, whylen);
	}
	if (rc != 0) {
		msr_free(m);
		return rc;
	}
	*out = m;
	return PMON_OK;
}

static int msr_fd(struct pmon_msr_dev *m, int cpu, char *why, size_t whylen)
{
	char path[PATH_MAX + 32];

	if (cpu < 0 || cpu >= m->ncpus) {
		return pmon_why(why, whylen, PMON_ERANGE,
				"CPU %d out of range (0..%d)", cpu, m->ncpus - 1);
	}
	if (m->fd[cpu] < 0) {
		msr_path(m, cpu, path, sizeof(path));
		return pmon_why(why, whylen, PMON_ENODEV,
				"CPU %d has no MSR device file %s (offline CPU?)", cpu, path);
	}
	return m->fd[cpu];
}

/* An rdmsr (write 0) or wrmsr of value val transferred n bytes instead of 8,
 * with errno err when n < 0: the code and the reason. */
static int msr_failed(int write, uint32_t msr, int cpu, uint64_t val, ssize_t n, int err,
		      char *why, size_t whylen)
{
	const char *op = write ? "wrmsr" : "rdmsr";
	if (n >= 0)
		return write ? pmon_why(why, whylen, PMON_EIO,
					"wrmsr 0x%x on CPU %d failed: short write of %zd bytes", msr, cpu, n)
			     : pmon_why(why, whylen, PMON_EIO,
					"rdmsr 0x%x on CPU %d failed: short read of %zd of 8 bytes"
					" (the MSR may not exist on this CPU)", msr, cpu, n);
	switch (err) {
	case EIO:
		/* the msr driver's EIO: the access faulted (#GP) or failed; which,
		 * and why, it does not say */
		return write ? pmon_why(why, whylen, PMON_EIO, "wrmsr 0x%x = 0x%llx on CPU %d failed"
					" (EIO, %s): the access failed; the MSR may not exist on this CPU"
					" or the value may set reserved bits",
					msr, (unsigned long long)val, cpu, strerror(err))
			     : pmon_why(why, whylen, PMON_EIO, "rdmsr 0x%x on CPU %d failed"
					" (EIO, %s): the access failed; the MSR may not exist on this CPU",
					msr, cpu, strerror(err));
	case EACCES:
	case EPERM:
		return pmon_why(why, whylen, PMON_EPERM,
				"%s 0x%x on CPU %d refused (%s): needs root or"
				" CAP_SYS_RAWIO%s", op, msr, cpu, strerror(err),
				write ? "; kernel lockdown or msr.allow_writes=off also block writes" : "");
	case ENXIO:
	case ENODEV:
		return pmon_why(why, whylen, PMON_ENODEV,
				"%s 0x%x on CPU %d failed (%s): the CPU went away"
				" (offline?)", op, msr, cpu, strerror(err));
	default:
		return pmon_why(why, whylen, PMON_EIO, "%s 0x%x on CPU %d failed: %s", op, msr, cpu,
				strerror(err));
	}
}

int pmon_msr_read(struct pmon_msr_dev *m, int cpu, uint32_t msr, uint64_t *val,
		  char *why, size_t whylen)
{
	uint64_t v;
	ssize_t n;
	int fd;

	if (!m || !val)
		return PMON_EINVAL;
	fd = msr_fd(m, cpu, why, whylen);
	if (fd < 0)
		return fd;
	do
		n = pread(fd, &v, sizeof(v), (off_t)msr);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(v))
		return msr_failed(0, msr, cpu, 0, n, errno, why, whylen);
	*val = v;
	return PMON_OK;
}

int pmon_msr_write(struct pmon_msr_dev *m, int cpu, uint32_t msr, uint64_t val,
		   char *why, size_t whylen)
{
	ssize_t n;
	int fd;

	if (!m)
		return PMON_EINVAL;
	fd = msr_fd(m, cpu, why, whylen);
	if (fd < 0)
		return fd;
	if (m->mode == O_RDONLY)
		return pmon_why(why, whylen, PMON_EINVAL,
				"wrmsr 0x%x on CPU %d: the MSR files were opened read-only", msr, cpu);
	do
		n = pwrite(fd, &val, sizeof(val), (off_t)msr);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(val))
		return msr_failed(1, msr, cpu, val, n, errno, why, whylen);
	return PMON_OK;
}

void pmon_msr_close(struct pmon_msr_dev *m)
{
	msr_free(m);
}
