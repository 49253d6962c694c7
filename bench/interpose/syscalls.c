/*
 * syscalls.c - system calls per pmon_session_read() on the hardware backend,
 * run against fake device files (the tests' ctests/fake_hw.h: MSR files
 * per CPU, a sysfs PCI tree with each socket's UBox and four iMC functions,
 * an hwloc XML topology of 2 packages x 8 cores): k CBo counters (MSRs) and
 * k iMC counters (PCI config space, spread over min(k, 4) channel boxes),
 * k = 1, 4, 8, 16.
 *
 * The count comes from this program's own definitions of the file calls
 * libpmon and libpci make (open, openat, close, read, pread, pwrite, their
 * 64-bit names, and the fortified __open_2): the dynamic linker binds those
 * libraries' calls to them, and each counts and forwards to the C
 * library's.  It lives under bench/interpose/ for that reason: these
 * definitions of open, close, read, pread and pwrite are this program's
 * alone, not something libpmon depends on or links against.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_hw.h"
#include "pmon/pmon.h"

enum { C_OPEN, C_CLOSE, C_READ, C_PREAD, C_PWRITE, C_N };
static const char *const call_name[C_N] = { "open", "close", "read", "pread", "pwrite" };
static unsigned long calls[C_N];
static int counting;

#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	REAL(open);
	calls[C_OPEN] += counting;
	return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	REAL(open64);
	calls[C_OPEN] += counting;
	return real_open64(path, flags, mode);
}

int openat(int dir, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = open_mode(flags, ap);
	va_end(ap);
	REAL(openat);
	calls[C_OPEN] += counting;
	return real_openat(dir, path, flags, mode);
}

/* _FORTIFY_SOURCE's open without a mode (libpci calls it) */
int __open_2(const char *path, int flags);
int __open_2(const char *path, int flags)
{
	REAL(__open_2);
	calls[C_OPEN] += counting;
	return real___open_2(path, flags);
}

int close(int fd)
{
	REAL(close);
	calls[C_CLOSE] += counting;
	return real_close(fd);
}

ssize_t read(int fd, void *buf, size_t n)
{
	REAL(read);
	calls[C_READ] += counting;
	return real_read(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	REAL(pread);
	calls[C_PREAD] += counting;
	return real_pread(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	REAL(pread64);
	calls[C_PREAD] += counting;
	return real_pread64(fd, buf, n, off);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	REAL(pwrite);
	calls[C_PWRITE] += counting;
	return real_pwrite(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	REAL(pwrite64);
	calls[C_PWRITE] += counting;
	return real_pwrite64(fd, buf, n, off);
}

#define BUS0 0x3f
#define BUS1 0x7f
#define READS 200

static char base[64];

static int build_world(void)
{
	char msr[128], sysfs[128], cpuinfo[128], xml[128], topo[160];
	struct fake_pcidev pci[2] = {
		{ BUS0, 11, 0, 0x8086, 0x3ce0, 0 },
		{ BUS1, 11, 0, 0x8086, 0x3ce0, 1 },
	};

	if (fake_tmpdir(base, sizeof base))
		return -1;
	snprintf(msr, sizeof msr, "%s/cpu", base);
	snprintf(sysfs, sizeof sysfs, "%s/sys", base);
	snprintf(cpuinfo, sizeof cpuinfo, "%s/cpuinfo", base);
	snprintf(xml, sizeof xml, "%s/topo.xml", base);
	snprintf(topo, sizeof topo, "xml:%s", xml);
	if (fake_msr_files(msr, 16) || fake_cpuinfo(cpuinfo) ||
	    fake_snbep_socket(sysfs, BUS0, 1, 0, 0x8) || fake_snbep_socket(sysfs, BUS1, 1, 1, 0x8) ||
	    fake_hwloc_xml(xml, 2, 8, 1, 0, pci, 2))
		return -1;
	setenv("PMON_MSR_ROOT", msr, 1);
	setenv("PMON_PCI_SYSFS", sysfs, 1);
	setenv("PMON_CPUINFO", cpuinfo, 1);
	setenv("PMON_TOPOLOGY", topo, 1);
	return 0;
}

/* k-th event: CBo clockticks (CBo k%8 of socket k/8: one counter per box,
 * because the fake MSR files keep MSR m at byte offset m, so neighbouring
 * MSRs overlap there) or iMC (channel k%4, counter k/4). */
static void event(int pci, int k, char *buf, size_t len)
{
	static const char *const imc[] = {
		"UNC_M_CAS_COUNT:RD", "UNC_M_CAS_COUNT:WR", "UNC_M_ACT_COUNT", "UNC_M_PRE_COUNT:PAGE_MISS",
	};
	if (pci)
		snprintf(buf, len, "snbep_unc_imc%d::%s", k % 4, imc[k / 4]);
	else
		snprintf(buf, len, "snbep_unc_cbo%d::UNC_C_CLOCKTICKS:socket=%d", k % 8, k / 8);
}

/* Calls per read of a session of k events; -1 if it could not be built. */
static int per_read(pmon_machine_t *m, int pci, int k, double out[C_N])
{
	pmon_session_t *s;
	pmon_encoding_t enc;
	uint64_t v[16];
	char name[128], err[512];

	if (pmon_session_create(m, &s))
		return -1;
	for (int i = 0; i < k; i++) {
		event(pci, i, name, sizeof name);
		if (pmon_machine_encode(m, name, &enc, err, sizeof err) || pmon_session_add(s, &enc)) {
			fprintf(stderr, "syscalls: %s: %s\n", name, err);
			pmon_session_destroy(s);
			return -1;
		}
	}
	if (pmon_session_start(s)) {
		fprintf(stderr, "syscalls: start: %s\n", pmon_session_errmsg(s));
		pmon_session_destroy(s);
		return -1;
	}
	if (pmon_session_read(s, v)) {
		fprintf(stderr, "syscalls: read: %s\n", pmon_session_errmsg(s));
		pmon_session_destroy(s);
		return -1;
	}
	memset(calls, 0, sizeof calls);
	counting = 1;
	int rc = 0;
	for (int r = 0; r < READS && !rc; r++)
		rc = pmon_session_read(s, v);
	counting = 0;
	if (rc) {
		fprintf(stderr, "syscalls: read: %s\n", pmon_session_errmsg(s));
		pmon_session_destroy(s);
		return -1;
	}
	for (int c = 0; c < C_N; c++)
		out[c] = (double)calls[c] / READS;
	pmon_session_destroy(s);
	return 0;
}

int main(void)
{
	static const int ks[] = { 1, 4, 8, 16 };
	pmon_machine_t *m;
	char why[512];
	int rc;

	if (build_world()) {
		fprintf(stderr, "syscalls: could not build the fake device files\n");
		return 1;
	}
	if ((rc = pmon_machine_open(&m, "msr", why, sizeof why))) {
		fprintf(stderr, "syscalls: %s\n", why);
		fake_rmtree(base);
		return 1;
	}
	printf("system calls per pmon_session_read (hardware backend on fake device files)\n");
	printf("%-14s", "counters");
	for (int c = 0; c < C_N; c++)
		printf(" %8s", call_name[c]);
	printf(" %8s\n", "total");
	for (int pci = 0; pci < 2; pci++)
		for (int i = 0; i < 4; i++) {
			double n[C_N], total = 0;
			char label[32];
			snprintf(label, sizeof label, "%2d %s", ks[i], pci ? "iMC (PCI)" : "CBo (MSR)");
			printf("%-14s", label);
			if (per_read(m, pci, ks[i], n)) {
				printf(" (could not count)\n");
				continue;
			}
			for (int c = 0; c < C_N; c++) {
				printf(" %8.2f", n[c]);
				total += n[c];
			}
			printf(" %8.2f\n", total);
		}
	printf("(target: 1 per MSR counter, 1 per PCI box)\n");
	pmon_machine_close(m);
	fake_rmtree(base);
	return 0;
}
