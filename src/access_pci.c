/*
 * access_pci.c - PCI configuration space through libpci's Linux sysfs method.
 *
 * libpci reports failures through callbacks in struct pci_access: error()
 * prints and exits the process (it is declared noreturn), warning() prints and
 * returns.  A failed config read makes pci_read_long() return all ones without
 * saying so, so reads and writes go through pci_read_block()/pci_write_block(),
 * which return 0 on failure.  This file installs its own callbacks: error()
 * records the message and longjmp()s back into the pmon_pci_* call that
 * invoked libpci, warning() records the message and errno (a failed open() of
 * a config file is only a warning).  Every libpci call that can reach error()
 * is made under such a guard.
 *
 * The devices are scanned once at open time and kept sorted by address.
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
#include <sys/stat.h>

#include <pci/pci.h>

#include "pmon/pmon.h"
#include "access.h"

#define PCI_DEFAULT_ROOT "/sys/bus/pci"
#define PCI_CFG_MAX      0x1000   /* extended config space */
#define PCI_CFG_STD      0x100    /* standard config space */

struct pci_fn {
	pmon_pci_addr_t addr;
	uint16_t vendor, device;
	struct pci_dev *dev;
};

struct pmon_pci_dev {
	struct pci_access *acc;
	char root[PATH_MAX];
	struct pci_fn *fn;            /* sorted by address */
	int nfn;
	char why[256];
	/* libpci callback state */
	jmp_buf jb;
	char cbmsg[200];
	int cberr;                    /* errno when libpci complained */
};

/* Not in access.h yet: the reason of the last failure of p. */
const char *pmon_pci_errmsg(const struct pmon_pci_dev *p);

/* The device whose guarded libpci call is running in this thread. */
static _Thread_local struct pmon_pci_dev *pci_cur;

static void pci_why(struct pmon_pci_dev *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void pci_why(struct pmon_pci_dev *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
}

const char *pmon_pci_errmsg(const struct pmon_pci_dev *p)
{
	return p ? p->why : "no PCI access";
}

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

static void copy_why(char *why, size_t whylen, const char *msg)
{
	if (why && whylen)
		snprintf(why, whylen, "%s", msg);
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
	free(p->fn);
	free(p);
}

/* Every entry of root/devices must be a DDDD:BB:DD.F name: libpci's scan
 * calls error() on any other, and leaks its directory handle when we jump
 * out of it.  0 or a PMON_E* code. */
static int pci_check_entries(struct pmon_pci_dev *p, const char *path)
{
	struct dirent *e;
	DIR *dir = opendir(path);
	int rc = 0;

	if (!dir) {
		int err = errno;

		pci_why(p, "cannot list %s: %s", path, strerror(err));
		return err == EACCES || err == EPERM ? PMON_EPERM : PMON_EIO;
	}
	while (rc == 0 && (e = readdir(dir))) {
		unsigned dom, bus, dev, func;
		char end;

		if (e->d_name[0] == '.')
			continue;
		if (sscanf(e->d_name, "%x:%x:%x.%x%c", &dom, &bus, &dev, &func, &end) != 4 ||
		    bus > 0xff || dev > 0x1f || func > 7) {
			pci_why(p, "unexpected entry %s in %s (not a PCI address)", e->d_name, path);
			rc = PMON_EIO;
		}
	}
	closedir(dir);
	return rc;
}

/* Is root/devices a readable directory?  0 or a PMON_E* code. */
static int pci_check_root(struct pmon_pci_dev *p)
{
	char path[PATH_MAX + 16];
	struct stat st;

	snprintf(path, sizeof(path), "%s/devices", p->root);
	if (stat(path, &st) != 0) {
		int err = errno;

		if (err == EACCES || err == EPERM) {
			pci_why(p, "PCI sysfs tree %s not accessible: %s", path, strerror(err));
			return PMON_EPERM;
		}
		pci_why(p, "PCI sysfs tree %s missing (%s): is sysfs mounted?"
			" (a test tree is given with PMON_PCI_SYSFS)", path, strerror(err));
		return PMON_ENODEV;
	}
	if (!S_ISDIR(st.st_mode)) {
		pci_why(p, "PCI sysfs tree %s is not a directory", path);
		return PMON_ENODEV;
	}
	return pci_check_entries(p, path);
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
static int pci_scan(struct pmon_pci_dev *p)
{
	struct pci_dev *d;
	int n = 0;

	if (pci_guarded_scan(p) != 0) {
		pci_why(p, "libpci cannot scan %s: %s", p->root, p->cbmsg);
		return PMON_EIO;
	}
	for (d = p->acc->devices; d; d = d->next)
		n++;
	p->fn = calloc(n ? (size_t)n : 1, sizeof(*p->fn));
	if (!p->fn) {
		pci_why(p, "out of memory scanning PCI devices");
		return PMON_ENOMEM;
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
		copy_why(why, whylen, "out of memory opening PCI access");
		return PMON_ENOMEM;
	}
	if (strlen(sysfs_root) >= sizeof(p->root)) {
		free(p);
		copy_why(why, whylen, "PCI sysfs root path too long");
		return PMON_EINVAL;
	}
	strcpy(p->root, sysfs_root);
	rc = pci_check_root(p);
	if (rc == 0) {
		p->acc = pci_alloc();
		if (!p->acc) {
			pci_why(p, "libpci: pci_alloc failed");
			rc = PMON_ENOMEM;
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
			pci_why(p, "libpci has no sysfs.path parameter");
			rc = PMON_ENOSUPP;
		}
	}
	if (rc == 0)
		rc = pci_scan(p);
	if (rc != 0) {
		copy_why(why, whylen, p->why);
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
	struct pci_fn *f = bsearch(&key, p->fn, (size_t)p->nfn, sizeof(*p->fn), fn_cmp);

	if (!f)
		pci_why(p, "no PCI function %04x:%02x:%02x.%x under %s",
			d.domain, d.bus, d.dev, d.func, p->root);
	return f;
}

static int pci_check_off(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off)
{
	if (off % 4 || off > PCI_CFG_MAX - 4) {
		pci_why(p, "config offset 0x%x of %04x:%02x:%02x.%x invalid"
			" (a multiple of 4 up to 0x%x)", off, d.domain, d.bus, d.dev, d.func,
			PCI_CFG_MAX - 4);
		return PMON_EINVAL;
	}
	return 0;
}

/* One guarded 4-byte read; 1 on success, 0 on failure. */
static int pci_try_read(struct pmon_pci_dev *p, struct pci_dev *dev, uint32_t off, uint32_t *val)
{
	unsigned char b[4];
	volatile int ok = 0;

	pci_guard_reset(p);
	if (!setjmp(p->jb))
		ok = pci_read_block(dev, (int)off, b, 4);
	pci_cur = NULL;
	if (ok && val)
		*val = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		       (uint32_t)b[3] << 24;
	return ok != 0;
}

/* The system error a failed config access reported, as a pmon code with a
 * message; 0 when there was none (a short read: the file ends earlier). */
static int pci_errno_code(struct pmon_pci_dev *p, pmon_pci_addr_t d, const char *what,
			  uint32_t off, int err)
{
	switch (err) {
	case 0:
		return 0;
	case EACCES:
	case EPERM:
		pci_why(p, "%s PCI config 0x%x of %04x:%02x:%02x.%x refused (%s): need root",
			what, off, d.domain, d.bus, d.dev, d.func, strerror(err));
		return PMON_EPERM;
	case ENXIO:
	case ENODEV:
	case ENOENT:
		pci_why(p, "%s PCI config 0x%x of %04x:%02x:%02x.%x failed (%s): the device went away"
			" (removed, or its driver unbound it)", what, off, d.domain, d.bus, d.dev,
			d.func, strerror(err));
		return PMON_ENODEV;
	default:
		pci_why(p, "%s PCI config 0x%x of %04x:%02x:%02x.%x failed: %s (errno %d)",
			what, off, d.domain, d.bus, d.dev, d.func, strerror(err), err);
		return PMON_EIO;
	}
}

/* A read at off failed: find out why.  A system error is reported as it
 * is (EIO stays EIO, even when a second read would succeed); only a short
 * read, which carries no error, is diagnosed by probing what can be read. */
static int pci_read_error(struct pmon_pci_dev *p, struct pci_fn *f, uint32_t off)
{
	pmon_pci_addr_t d = f->addr;
	char msg[sizeof(p->cbmsg)];
	int rc = pci_errno_code(p, d, "read of", off, p->cberr);

	if (rc)
		return rc;
	snprintf(msg, sizeof(msg), "%s", p->cbmsg);
	if (!pci_try_read(p, f->dev, 0, NULL)) {
		if ((rc = pci_errno_code(p, d, "read of", 0, p->cberr)))
			return rc;
		pci_why(p, "PCI config space of %04x:%02x:%02x.%x not readable%s%s",
			d.domain, d.bus, d.dev, d.func, msg[0] ? ": " : "", msg);
		return PMON_EIO;
	}
	if (off < PCI_CFG_STD || !pci_try_read(p, f->dev, PCI_CFG_STD - 4, NULL)) {
		pci_why(p, "PCI config space not readable beyond the header (need root):"
			" offset 0x%x of %04x:%02x:%02x.%x", off, d.domain, d.bus, d.dev, d.func);
		return PMON_EPERM;
	}
	pci_why(p, "extended PCI config space (offset 0x%x) of %04x:%02x:%02x.%x not readable:"
		" only 256 bytes are (no MMCONFIG access?)", off, d.domain, d.bus, d.dev, d.func);
	return PMON_EIO;
}

int pmon_pci_read(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off, uint32_t *val)
{
	struct pci_fn *f;
	int rc;

	if (!p || !val)
		return PMON_EINVAL;
	rc = pci_check_off(p, d, off);
	if (rc)
		return rc;
	f = pci_lookup(p, d);
	if (!f)
		return PMON_ENODEV;
	if (pci_try_read(p, f->dev, off, val))
		return PMON_OK;
	return pci_read_error(p, f, off);
}

/* One guarded 4-byte write; 1 on success, 0 on failure. */
static int pci_try_write(struct pmon_pci_dev *p, struct pci_dev *dev, uint32_t off, uint32_t val)
{
	unsigned char b[4] = { val & 0xff, (val >> 8) & 0xff, (val >> 16) & 0xff, val >> 24 };
	volatile int ok = 0;

	pci_guard_reset(p);
	if (!setjmp(p->jb))
		ok = pci_write_block(dev, (int)off, b, 4);
	pci_cur = NULL;
	return ok != 0;
}

int pmon_pci_write(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off, uint32_t val)
{
	struct pci_fn *f;
	int rc;

	if (!p)
		return PMON_EINVAL;
	rc = pci_check_off(p, d, off);
	if (rc)
		return rc;
	f = pci_lookup(p, d);
	if (!f)
		return PMON_ENODEV;
	if (pci_try_write(p, f->dev, off, val))
		return PMON_OK;
	if ((rc = pci_errno_code(p, d, "write of", off, p->cberr)))
		return rc;
	pci_why(p, "write of PCI config 0x%x of %04x:%02x:%02x.%x failed%s%s",
		off, d.domain, d.bus, d.dev, d.func, p->cbmsg[0] ? ": " : "", p->cbmsg);
	return PMON_EIO;
}

void pmon_pci_close(struct pmon_pci_dev *p)
{
	pci_free(p);
}
