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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "access.h"

#define MSR_DEFAULT_ROOT "/dev/cpu"

struct pmon_msr_dev {
	char root[PATH_MAX];
	int ncpus;
	int mode;
	int *fd;            /* [ncpus], -1 when the CPU has no file */
	char why[256];
};

/* Not in access.h yet: the reason of the last failure of m. */
const char *pmon_msr_errmsg(const struct pmon_msr_dev *m);

static void msr_why(struct pmon_msr_dev *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void msr_why(struct pmon_msr_dev *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->why, sizeof(m->why), fmt, ap);
	va_end(ap);
}

const char *pmon_msr_errmsg(const struct pmon_msr_dev *m)
{
	return m ? m->why : "no MSR device";
}

static void msr_path(const struct pmon_msr_dev *m, int cpu, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%d/msr", m->root, cpu);
}

/* Classify a failed open() of CPU cpu's file; returns a PMON_E* code, or 0
 * when the CPU is simply absent (offline) and the others may still be used. */
static int msr_open_error(struct pmon_msr_dev *m, int cpu, const char *path, int err)
{
	switch (err) {
	case ENOENT:
	case ENXIO:
		if (cpu > 0 && m->fd[0] >= 0)
			return 0;
		msr_why(m, "%s missing: load the msr kernel module (modprobe msr)", path);
		return PMON_ENODEV;
	case EACCES:
	case EPERM:
		msr_why(m, "cannot open %s (%s): MSR access needs root or CAP_SYS_RAWIO"
			" and %s permission on the file", path, strerror(err),
			m->mode == O_RDONLY ? "read" : "read/write");
		return PMON_EPERM;
	case EISDIR:
		msr_why(m, "%s is a directory, not the MSR device file", path);
		return PMON_ENODEV;
	case EIO:
		msr_why(m, "cannot open %s: CPU %d does not support MSRs (EIO)", path, cpu);
		return PMON_ENODEV;
	default:
		msr_why(m, "cannot open %s: %s", path, strerror(err));
		return PMON_EIO;
	}
}

static int msr_check_file(struct pmon_msr_dev *m, int fd, const char *path)
{
	struct stat st;

	if (fstat(fd, &st) != 0) {
		msr_why(m, "cannot stat %s: %s", path, strerror(errno));
		return PMON_EIO;
	}
	if (S_ISDIR(st.st_mode)) {
		msr_why(m, "%s is a directory, not the MSR device file", path);
		return PMON_ENODEV;
	}
	if (!S_ISCHR(st.st_mode) && !S_ISREG(st.st_mode)) {
		msr_why(m, "%s is not an MSR device file", path);
		return PMON_ENODEV;
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

static void copy_why(char *why, size_t whylen, const char *msg)
{
	if (why && whylen)
		snprintf(why, whylen, "%s", msg);
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
		copy_why(why, whylen, "pmon_msr_open: bad CPU count or open mode");
		return PMON_EINVAL;
	}
	if (!root || !*root)
		root = MSR_DEFAULT_ROOT;
	if (strlen(root) >= sizeof(m->root)) {
		copy_why(why, whylen, "pmon_msr_open: MSR root path too long");
		return PMON_EINVAL;
	}
	m = calloc(1, sizeof(*m));
	if (!m || !(m->fd = malloc(sizeof(int) * (size_t)ncpus))) {
		free(m);
		copy_why(why, whylen, "out of memory opening the MSR files");
		return PMON_ENOMEM;
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
			rc = msr_open_error(m, cpu, path, errno);
			continue;
		}
		m->fd[cpu] = fd;
		rc = msr_check_file(m, fd, path);
	}
	if (rc != 0) {
		copy_why(why, whylen, m->why);
		msr_free(m);
		return rc;
	}
	*out = m;
	return PMON_OK;
}

static int msr_fd(struct pmon_msr_dev *m, int cpu)
{
	char path[PATH_MAX + 32];

	if (cpu < 0 || cpu >= m->ncpus) {
		msr_why(m, "CPU %d out of range (0..%d)", cpu, m->ncpus - 1);
		return PMON_ERANGE;
	}
	if (m->fd[cpu] < 0) {
		msr_path(m, cpu, path, sizeof(path));
		msr_why(m, "CPU %d has no MSR device file %s (offline CPU?)", cpu, path);
		return PMON_ENODEV;
	}
	return m->fd[cpu];
}

int pmon_msr_read(struct pmon_msr_dev *m, int cpu, uint32_t msr, uint64_t *val)
{
	uint64_t v;
	ssize_t n;
	int fd;

	if (!m || !val)
		return PMON_EINVAL;
	fd = msr_fd(m, cpu);
	if (fd < 0)
		return fd;
	do
		n = pread(fd, &v, sizeof(v), (off_t)msr);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(v)) {
		*val = v;
		return PMON_OK;
	}
	if (n >= 0) {
		msr_why(m, "rdmsr 0x%x on CPU %d failed: the CPU does not implement this MSR"
			" (short read of %zd bytes)", msr, cpu, n);
		return PMON_EIO;
	}
	switch (errno) {
	case EIO:
		msr_why(m, "rdmsr 0x%x on CPU %d failed: the CPU does not implement this MSR (EIO)",
			msr, cpu);
		return PMON_EIO;
	case EACCES:
	case EPERM:
		msr_why(m, "rdmsr 0x%x on CPU %d refused (%s): needs root or CAP_SYS_RAWIO",
			msr, cpu, strerror(errno));
		return PMON_EPERM;
	case ENXIO:
	case ENODEV:
		msr_why(m, "rdmsr 0x%x on CPU %d failed (%s): the CPU went away (offline?)",
			msr, cpu, strerror(errno));
		return PMON_ENODEV;
	default:
		msr_why(m, "rdmsr 0x%x on CPU %d failed: %s", msr, cpu, strerror(errno));
		return PMON_EIO;
	}
}

int pmon_msr_write(struct pmon_msr_dev *m, int cpu, uint32_t msr, uint64_t val)
{
	ssize_t n;
	int fd;

	if (!m)
		return PMON_EINVAL;
	fd = msr_fd(m, cpu);
	if (fd < 0)
		return fd;
	if (m->mode == O_RDONLY) {
		msr_why(m, "wrmsr 0x%x on CPU %d: the MSR files were opened read-only", msr, cpu);
		return PMON_EINVAL;
	}
	do
		n = pwrite(fd, &val, sizeof(val), (off_t)msr);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(val))
		return PMON_OK;
	if (n >= 0) {
		msr_why(m, "wrmsr 0x%x on CPU %d failed: short write of %zd bytes", msr, cpu, n);
		return PMON_EIO;
	}
	switch (errno) {
	case EIO:
		msr_why(m, "wrmsr 0x%x = 0x%llx on CPU %d failed: MSR missing or reserved bits set (EIO)",
			msr, (unsigned long long)val, cpu);
		return PMON_EIO;
	case EACCES:
	case EPERM:
		msr_why(m, "wrmsr 0x%x on CPU %d refused (%s): needs root or CAP_SYS_RAWIO;"
			" kernel lockdown or msr.allow_writes=off also block writes",
			msr, cpu, strerror(errno));
		return PMON_EPERM;
	case ENXIO:
	case ENODEV:
		msr_why(m, "wrmsr 0x%x on CPU %d failed (%s): the CPU went away (offline?)",
			msr, cpu, strerror(errno));
		return PMON_ENODEV;
	default:
		msr_why(m, "wrmsr 0x%x on CPU %d failed: %s", msr, cpu, strerror(errno));
		return PMON_EIO;
	}
}

void pmon_msr_close(struct pmon_msr_dev *m)
{
	msr_free(m);
}
