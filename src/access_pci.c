/*
 * access_pci.c - PCI configuration space: libpci's Linux sysfs method finds
 * the functions, and their config files beside it are read and written.
 *
 * libpci reports failures through callbacks in struct pci_access: error()
 * prints and exits the process (it is declared noreturn), warning() prints and
 * returns.  This file installs its own callbacks: error() records the message
 * and longjmp()s back into the pmon_pci_* call that invoked libpci, warning()
 * records the message and errno.  Every libpci call that can reach error() is
 * made under such a guard.
 *
 * The devices are scanned once at open time and kept sorted by address.
 * Config space is then accessed with pread/pwrite on each function's sysfs
 * config file (ROOT/devices/DDDD:BB:DD.F/config), opened at its first use and
 * kept open until close: libpci's sysfs method keeps a single cached file and
 * opens and closes it whenever another function is touched, and gives no
 * reason for a failed read.  A block of dwords is one pread: the kernel reads
 * it dword by dword in ascending order, and one that took longer than
 * PMON_BLOCK_SPAN_NS (an interrupt or preemption between two dwords) is read
 * again.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <pci/pci.h>

#include "pmon/pmon.h"
#include "access.h"
#include "clock.h"
#include "why.h"

#define PCI_DEFAULT_ROOT "/sys/bus/pci"
#define PCI_CFG_MAX      0x1000   /* extended config space */
#define PCI_CFG_STD      0x100    /* standard config space */

struct pci_fn {
	pmon_pci_addr_t addr;
	uint16_t vendor, device;
	struct pci_dev *dev;
	int fd;                       /* its config file, -1 until first used */
};

struct pmon_pci_dev {
	struct pci_access *acc;
	char root[PATH_MAX];
	struct pci_fn *fn;            /* sorted by address */
	int nfn;
	pthread_mutex_t lock;         /* opening config files */
	/* libpci callback state */
	jmp_buf jb;
	char cbmsg[200];
	int cberr;                    /* errno when libpci complained */
};

/* The device whose guarded libpci call is running in this thread. */
static _Thread_local struct pmon_pci_dev *pci_cur;

static _Noreturn void pci_cb_error(char *msg, ...)
{
	struct pmon_pci_dev *p = pci_cur;
	int err = errno;
	va_list ap;

	if (!p) {
		/* Unreachable: every libpci call is guarded.  error() must not
		 * return, and there is nowhere to go back to. */
		fputs("pmon: libpci error outside a guarded call\n", stderr);
		abort();
	}
	va_start(ap, msg);
	vsnprintf(p->cbmsg, sizeof(p->cbmsg), msg, ap);
	va_end(ap);
	p->cberr = err;
	longjmp(p->jb, 1);
}

static void pci_cb_warning(char *msg, ...)
{
	struct pmon_pci_dev *p = pci_cur;
	int err = errno;
	va_list ap;

	if (!p)
		return;
	va_start(ap, msg);
	vsnprintf(p->cbmsg, sizeof(p->cbmsg), msg, ap);
	va_end(ap);
	p->cberr = err;
}

static void pci_cb_debug(char *msg, ...)
{
	(void)msg;
}

static void pci_guard_reset(struct pmon_pci_dev *p)
{
	pci_cur = p;
	p->cbmsg[0] = '\0';
	p->cberr = 0;
}

static int addr_cmp(pmon_pci_addr_t a, pmon_pci_addr_t b)
{
	if (a.domain != b.domain)
		return a.domain < b.domain ? -1 : 1;
	if (a.bus != b.bus)
		return a.bus < b.bus ? -1 : 1;
	if (a.dev != b.dev)
		return a.dev < b.dev ? -1 : 1;
	if (a.func != b.func)
		return a.func < b.func ? -1 : 1;
	return 0;
}

static int fn_cmp(const void *x, const void *y)
{
	return addr_cmp(((const struct pci_fn *)x)->addr, ((const struct pci_fn *)y)->addr);
}

static void pci_free(struct pmon_pci_dev *p)
{
	if (!p)
		return;
	if (p->acc) {
		pci_guard_reset(p);
		if (!setjmp(p->jb))
			pci_cleanup(p->acc);
		pci_cur = NULL;
	}
	for (int i = 0; i < p->nfn; i++)
		if (p->fn[i].fd >= 0)
			close(p->fn[i].fd);
	pthread_mutex_destroy(&p->lock);
	free(p->fn);
	free(p);
}

/* Every entry of root/devices must be a DDDD:BB:DD.F name: libpci's scan
 * calls error() on any other, and leaks its directory handle when we jump
 * out of it.  0 or a PMON_E* code. */
static int pci_check_entries(const char *path, char *why, size_t whylen)
{
	struct dirent *e;
	DIR *dir = opendir(path);
	int rc = 0;

	if (!dir) {
		int err = errno;

		return pmon_why(why, whylen, err == EACCES || err == EPERM ? PMON_EPERM : PMON_EIO, "cannot list %s: %s", path, strerror(err));
	}
	while (rc == 0 && (e = readdir(dir))) {
		unsigned dom, bus, dev, func;
		char end;

		if (e->d_name[0] == '.')
			continue;
		if (sscanf(e->d_name, "%x:%x:%x.%x%c", &dom, &bus, &dev, &func, &end) != 4 ||
		    bus > 0xff || dev > 0x1f || func > 7) {
			rc = pmon_why(why, whylen, PMON_EIO, "unexpected entry %s in %s (not a PCI address)", e->d_name, path);
		}
	}
	closedir(dir);
	return rc;
}

/* Is root/devices a readable directory?  0 or a PMON_E* code. */
static int pci_check_root(struct pmon_pci_dev *p, char *why, size_t whylen)
{
	char path[PATH_MAX + 16];
	struct stat st;

	snprintf(path, sizeof(path), "%s/devices", p->root);
	if (stat(path, &st) != 0) {
		int err = errno;

		if (err == EACCES || err == EPERM) {
			return pmon_why(why, whylen, PMON_EPERM, "PCI sysfs tree %s not accessible: %s", path, strerror(err));
		}
		return pmon_why(why, whylen, PMON_ENODEV, "PCI sysfs tree %s missing (%s): is sysfs mounted?"
			" (a test tree is given with PMON_PCI_SYSFS)", path, strerror(err));
	}
	if (!S_ISDIR(st.st_mode)) {
		return pmon_why(why, whylen, PMON_ENODEV, "PCI sysfs tree %s is not a directory", path);
	}
	return pci_check_entries(path, why, whylen);
}

/* pci_init() and pci_scan_bus() under a guard; 0, or -1 with p->cbmsg set. */
static int pci_guarded_scan(struct pmon_pci_dev *p)
{
	pci_guard_reset(p);
	if (setjmp(p->jb)) {
		pci_cur = NULL;
		return -1;
	}
	pci_init(p->acc);
	pci_scan_bus(p->acc);
	pci_cur = NULL;
	return 0;
}

/* pci_fill_info(PCI_FILL_IDENT) under a guard; 0, or -1. */
static int pci_guarded_ident(struct pmon_pci_dev *p, struct pci_dev *d)
{
	pci_guard_reset(p);
	if (setjmp(p->jb)) {
		pci_cur = NULL;
		return -1;
	}
	pci_fill_info(d, PCI_FILL_IDENT);
	pci_cur = NULL;
	return 0;
}

/* Scan the bus and record every function whose IDs can be read. */
static int pci_scan(struct pmon_pci_dev *p, char *why, size_t whylen)
{
	struct pci_dev *d;
	int n = 0;

	if (pci_guarded_scan(p) != 0) {
		return pmon_why(why, whylen, PMON_EIO, "libpci cannot scan %s: %s", p->root, p->cbmsg);
	}
	for (d = p->acc->devices; d; d = d->next)
		n++;
	p->fn = calloc(n ? (size_t)n : 1, sizeof(*p->fn));
	if (!p->fn) {
		return pmon_why(why, whylen, PMON_ENOMEM, "out of memory scanning PCI devices");
	}
	for (d = p->acc->devices; d; d = d->next) {
		struct pci_fn *f = &p->fn[p->nfn];

		/* Functions whose IDs cannot be read are left out. */
		if (d->domain < 0 || d->domain > 0xffff || pci_guarded_ident(p, d) != 0)
			continue;
		f->addr.domain = (uint16_t)d->domain;
		f->addr.bus = d->bus;
		f->addr.dev = d->dev;
		f->addr.func = d->func;
		f->vendor = d->vendor_id;
		f->device = d->device_id;
		f->dev = d;
		f->fd = -1;
		p->nfn++;
	}
	qsort(p->fn, (size_t)p->nfn, sizeof(*p->fn), fn_cmp);
	return 0;
}

int pmon_pci_open(struct pmon_pci_dev **out, const char *sysfs_root, char *why, size_t whylen)
{
	struct pmon_pci_dev *p;
	int rc;

	if (!out)
		return PMON_EINVAL;
	*out = NULL;
	if (!sysfs_root || !*sysfs_root)
		sysfs_root = PCI_DEFAULT_ROOT;
	p = calloc(1, sizeof(*p));
	if (!p) {
		return pmon_why(why, whylen, PMON_ENOMEM, "out of memory opening PCI access");
	}
	if (strlen(sysfs_root) >= sizeof(p->root)) {
		free(p);
		return pmon_why(why, whylen, PMON_EINVAL, "PCI sysfs root path too long");
	}
	strcpy(p->root, sysfs_root);
	pthread_mutex_init(&p->lock, NULL);
	rc = pci_check_root(p, why, whylen);
	if (rc == 0) {
		p->acc = pci_alloc();
		if (!p->acc) {
			rc = pmon_why(why, whylen, PMON_ENOMEM, "libpci: pci_alloc failed");
		}
	}
	if (rc == 0) {
		p->acc->error = pci_cb_error;
		p->acc->warning = pci_cb_warning;
		p->acc->debug = pci_cb_debug;
		p->acc->debugging = 0;
		p->acc->writeable = 0;
		p->acc->method = PCI_ACCESS_SYS_BUS_PCI;
		if (pci_set_param(p->acc, "sysfs.path", p->root) != 0) {
			rc = pmon_why(why, whylen, PMON_ENOSUPP, "libpci has no sysfs.path parameter");
		}
	}
	if (rc == 0)
		rc = pci_scan(p, why, whylen);
	if (rc != 0) {
		pci_free(p);
		return rc;
	}
	*out = p;
	return PMON_OK;
}

int pmon_pci_find(struct pmon_pci_dev *p, uint16_t vendor, uint16_t device,
		  pmon_pci_addr_t *out, int max)
{
	int n = 0;

	if (!p || max < 0 || (max > 0 && !out))
		return PMON_EINVAL;
	for (int i = 0; i < p->nfn; i++) {
		if (p->fn[i].vendor != vendor || p->fn[i].device != device)
			continue;
		if (n < max)
			out[n] = p->fn[i].addr;
		n++;
	}
	return n;
}

static struct pci_fn *pci_lookup(struct pmon_pci_dev *p, pmon_pci_addr_t d)
{
	struct pci_fn key = { .addr = d };

	return bsearch(&key, p->fn, (size_t)p->nfn, sizeof(*p->fn), fn_cmp);
}

static int pci_check_range(pmon_pci_addr_t d, uint32_t off, size_t len, char *why, size_t whylen)
{
	if (off % 4 || len % 4 || !len || off > PCI_CFG_MAX - len)
		return pmon_why(why, whylen, PMON_EINVAL,
				"config offset 0x%x (%zu bytes) of %04x:%02x:%02x.%x invalid"
				" (dwords, a multiple of 4 up to 0x%x)", off, len, d.domain, d.bus,
				d.dev, d.func, PCI_CFG_MAX - 4);
	return 0;
}

/* The config file of f, opened at its first use and kept until close: one
 * descriptor per function, so that a read is one pread and nothing else.
 * Read/write when allowed, else read-only (writes then fail with a reason).
 * A descriptor >= 0, or a negative PMON_E* code. */
static int pci_fd(struct pmon_pci_dev *p, struct pci_fn *f, char *why, size_t whylen)
{
	int fd = __atomic_load_n(&f->fd, __ATOMIC_ACQUIRE);
	char path[PATH_MAX + 64];
	int err;

	if (fd >= 0)
		return fd;
	pthread_mutex_lock(&p->lock);
	fd = f->fd;
	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/devices/%04x:%02x:%02x.%x/config", p->root,
			 f->addr.domain, f->addr.bus, f->addr.dev, f->addr.func);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS))
			fd = open(path, O_RDONLY | O_CLOEXEC);
		err = errno;
		if (fd >= 0)
			__atomic_store_n(&f->fd, fd, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&p->lock);
	if (fd >= 0)
		return fd;
	if (err == EACCES || err == EPERM)
		return pmon_why(why, whylen, PMON_EPERM,
				"PCI config space of %04x:%02x:%02x.%x not readable (%s): need root",
				f->addr.domain, f->addr.bus, f->addr.dev, f->addr.func, strerror(err));
	return pmon_why(why, whylen, PMON_EIO, "PCI config space of %04x:%02x:%02x.%x not readable: %s",
			f->addr.domain, f->addr.bus, f->addr.dev, f->addr.func, strerror(err));
}

/* Bytes readable at off (pread of one dword), for the reason of a failure. */
static int pci_readable(int fd, uint32_t off)
{
	unsigned char b[4];

	return pread(fd, b, 4, (off_t)off) == 4;
}

/* The system error a failed config access reported, as a pmon code with a
 * reason; 0 when there was none (a short read: the file ends earlier). */
static int pci_errno_code(pmon_pci_addr_t d, const char *what, uint32_t off, int err,
			  char *why, size_t whylen)
{
	switch (err) {
	case 0:
		return 0;
	case EACCES:
	case EPERM:
		return pmon_why(why, whylen, PMON_EPERM,
				"%s PCI config 0x%x of %04x:%02x:%02x.%x refused (%s): need root",
				what, off, d.domain, d.bus, d.dev, d.func, strerror(err));
	case ENXIO:
	case ENODEV:
	case ENOENT:
		return pmon_why(why, whylen, PMON_ENODEV,
				"%s PCI config 0x%x of %04x:%02x:%02x.%x failed (%s): the device went"
				" away (removed, or its driver unbound it)", what, off, d.domain, d.bus,
				d.dev, d.func, strerror(err));
	default:
		return pmon_why(why, whylen, PMON_EIO,
				"%s PCI config 0x%x of %04x:%02x:%02x.%x failed: %s (errno %d)",
				what, off, d.domain, d.bus, d.dev, d.func, strerror(err), err);
	}
}

/* A read at off failed.  A system error is reported as it is (EIO stays
 * EIO); only a short read, which carries no error, is diagnosed by probing
 * what can be read. */
static int pci_read_error(const struct pci_fn *f, int fd, uint32_t off, int err,
			  char *why, size_t whylen)
{
	pmon_pci_addr_t d = f->addr;
	int rc = pci_errno_code(d, "read of", off, err, why, whylen);

	if (rc)
		return rc;
	if (!pci_readable(fd, 0))
		return pmon_why(why, whylen, PMON_EIO, "PCI config space of %04x:%02x:%02x.%x not readable",
				d.domain, d.bus, d.dev, d.func);
	if (off < PCI_CFG_STD || !pci_readable(fd, PCI_CFG_STD - 4))
		return pmon_why(why, whylen, PMON_EPERM,
				"PCI config space not readable beyond the header (need root):"
				" offset 0x%x of %04x:%02x:%02x.%x", off, d.domain, d.bus, d.dev, d.func);
	return pmon_why(why, whylen, PMON_EIO,
			"extended PCI config space (offset 0x%x) of %04x:%02x:%02x.%x not readable:"
			" only 256 bytes are (no MMCONFIG access?)", off, d.domain, d.bus, d.dev, d.func);
}

static struct pci_fn *pci_fn_of(struct pmon_pci_dev *p, pmon_pci_addr_t d, char *why, size_t whylen)
{
	struct pci_fn *f = pci_lookup(p, d);

	if (!f)
		pmon_why(why, whylen, 0, "no PCI function %04x:%02x:%02x.%x under %s",
			 d.domain, d.bus, d.dev, d.func, p->root);
	return f;
}

int pmon_pci_read_block(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
			int ndw, char *why, size_t whylen)
{
	unsigned char b[PCI_CFG_MAX];
	size_t len = (size_t)(ndw > 0 ? ndw : 0) * 4;
	struct pci_fn *f;
	ssize_t n;
	int rc, fd;

	if (!p || !val)
		return PMON_EINVAL;
	if ((rc = pci_check_range(d, off, len, why, whylen)))
		return rc;
	if (!(f = pci_fn_of(p, d, why, whylen)))
		return PMON_ENODEV;
	if ((fd = pci_fd(p, f, why, whylen)) < 0)
		return fd;
	for (int tries = 1; ; tries++) {
		uint64_t t0 = ndw > 1 ? pmon_mono_ns() : 0;
		do
			n = pread(fd, b, len, (off_t)off);
		while (n < 0 && errno == EINTR);
		if (n != (ssize_t)len)
			return pci_read_error(f, fd, off + (n > 0 ? (uint32_t)n : 0), n < 0 ? errno : 0,
					      why, whylen);
		/* a single dword cannot tear; a block held up for longer than
		 * the span is read again (access.h) */
		if (ndw == 1 || tries == PMON_BLOCK_TRIES || pmon_mono_ns() - t0 < PMON_BLOCK_SPAN_NS)
			break;
	}
	for (int i = 0; i < ndw; i++)
		val[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
			 (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
	return PMON_OK;
}

int pmon_pci_read(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
		  char *why, size_t whylen)
{
	return pmon_pci_read_block(p, d, off, val, 1, why, whylen);
}

int pmon_pci_write(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off, uint32_t val,
		   char *why, size_t whylen)
{
	unsigned char b[4] = { val & 0xff, (val >> 8) & 0xff, (val >> 16) & 0xff, val >> 24 };
	struct pci_fn *f;
	ssize_t n;
	int rc, fd;

	if (!p)
		return PMON_EINVAL;
	if ((rc = pci_check_range(d, off, 4, why, whylen)))
		return rc;
	if (!(f = pci_fn_of(p, d, why, whylen)))
		return PMON_ENODEV;
	if ((fd = pci_fd(p, f, why, whylen)) < 0)
		return fd;
	do
		n = pwrite(fd, b, 4, (off_t)off);
	while (n < 0 && errno == EINTR);
	if (n == 4)
		return PMON_OK;
	if (n < 0 && (rc = pci_errno_code(d, "write of", off, errno == EBADF ? EACCES : errno,
					  why, whylen)))
		return rc;
	return pmon_why(why, whylen, PMON_EIO, "write of PCI config 0x%x of %04x:%02x:%02x.%x failed:"
			" short write", off, d.domain, d.bus, d.dev, d.func);
}

void pmon_pci_close(struct pmon_pci_dev *p)
{
	pci_free(p);
}
