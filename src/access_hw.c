/*
 * access_hw.c - the hardware backend: MSRs (access_msr.c), PCI config space
 * (access_pci.c) and the CPU identity from /proc/cpuinfo (cpuinfo.c).
 *
 * Environment overrides, for tests against fake device files:
 *   PMON_MSR_ROOT   directory holding N/msr        (default /dev/cpu)
 *   PMON_PCI_SYSFS  sysfs PCI tree                 (default /sys/bus/pci)
 *   PMON_CPUINFO    cpuinfo file                   (default /proc/cpuinfo)
 *
 * Opening makes no register access at all.
 */
#define _GNU_SOURCE

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "access.h"
#include "cpuinfo.h"
#include "env.h"
#include "clock.h"
#include "why.h"

#define HW_DEFAULT_CPUINFO "/proc/cpuinfo"

struct hw_priv {
	struct pmon_msr_dev *msr;
	struct pmon_pci_dev *pci;
	char cpuinfo[PATH_MAX];
};

static struct hw_priv *hw(struct pmon_access *a)
{
	return a->priv;
}

static int hw_msr_read(struct pmon_access *a, int cpu, uint32_t msr, uint64_t *val,
		       char *why, size_t whylen)
{
	return pmon_msr_read(hw(a)->msr, cpu, msr, val, why, whylen);
}

static int hw_msr_write(struct pmon_access *a, int cpu, uint32_t msr, uint64_t val,
			char *why, size_t whylen)
{
	return pmon_msr_write(hw(a)->msr, cpu, msr, val, why, whylen);
}

static int hw_pci_read(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
		       char *why, size_t whylen)
{
	return pmon_pci_read(hw(a)->pci, d, off, val, why, whylen);
}

static int hw_pci_write(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t val,
			char *why, size_t whylen)
{
	return pmon_pci_write(hw(a)->pci, d, off, val, why, whylen);
}

static int hw_pci_read_block(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off,
			     uint32_t *val, int ndw, char *why, size_t whylen)
{
	return pmon_pci_read_block(hw(a)->pci, d, off, val, ndw, why, whylen);
}

static int hw_pci_find(struct pmon_access *a, uint16_t vendor, uint16_t device,
		       pmon_pci_addr_t *out, int max, char *why, size_t whylen)
{
	int rc = pmon_pci_find(hw(a)->pci, vendor, device, out, max);

	if (rc < 0)
		pmon_why(why, whylen, rc, "PCI lookup of %04x:%04x: %s", vendor, device,
			 pmon_strerror(rc));
	return rc;
}

static int hw_cpu_ident(struct pmon_access *a, struct pmon_cpuid *id, char *why, size_t whylen)
{
	const char *path = hw(a)->cpuinfo;
	int rc;

	if (!id)
		return PMON_EINVAL;
	rc = pmon_cpuinfo_read(path, id);
	if (rc == PMON_OK && (!id->vendor[0] || !id->family))
		rc = PMON_EIO;
	if (rc)
		pmon_why(why, whylen, rc, "cannot identify the CPU: %s %s", path,
			 rc == PMON_ENODEV ? "cannot be read" : "has no vendor_id/cpu family/model lines");
	return rc;
}

static void hw_close(struct pmon_access *a)
{
	if (!a)
		return;
	if (a->priv) {
		pmon_msr_close(hw(a)->msr);
		pmon_pci_close(hw(a)->pci);
		free(a->priv);
	}
	free(a);
}

static int hw_read_batch(struct pmon_access *a, struct pmon_read_req *req, int n, int *bad,
			 uint64_t *at_ns, char *why, size_t whylen)
{
	char r[PMON_WHY_LEN];
	for (int i = 0; i < n; i++) {
		const struct pmon_read_req *q = &req[i];
		int rc = q->ndw ? pmon_pci_read_block(hw(a)->pci, q->d, q->off, q->dw, q->ndw, why, whylen)
			 : pmon_msr_read(hw(a)->msr, q->cpu, q->msr, q->val, r, sizeof r);
		if (rc) {
			*bad = i;
			return q->ndw ? rc : pmon_why(why, whylen, rc, "CPU %d MSR 0x%x: %s", q->cpu, q->msr, r);
		}
	}
	if (at_ns)
		*at_ns = pmon_mono_ns();
	return PMON_OK;
}

static const struct pmon_access_ops hw_ops = {
	.name = "msr",
	.msr_read = hw_msr_read,
	.read_batch = hw_read_batch,
	.msr_write = hw_msr_write,
	.pci_read = hw_pci_read,
	.pci_write = hw_pci_write,
	.pci_read_block = hw_pci_read_block,
	.pci_find = hw_pci_find,
	.cpu_ident = hw_cpu_ident,
	.event_modeled = NULL,
	.close = hw_close,
};

int pmon_hw_access_open(struct pmon_access **out, int ncpus, char *why, size_t whylen)
{
	const char *cpuinfo = pmon_env_path("PMON_CPUINFO", HW_DEFAULT_CPUINFO);
	struct pmon_access *a;
	struct hw_priv *h;
	int rc;

	if (!out)
		return PMON_EINVAL;
	*out = NULL;
	if (ncpus <= 0) {
		long n = sysconf(_SC_NPROCESSORS_CONF);

		ncpus = n > 0 ? (int)n : 1;
	}
	a = calloc(1, sizeof(*a));
	h = calloc(1, sizeof(*h));
	if (!a || !h || strlen(cpuinfo) >= sizeof(h->cpuinfo)) {
		rc = pmon_why(why, whylen, (!a || !h) ? PMON_ENOMEM : PMON_EINVAL, "%s",
			      (!a || !h) ? "out of memory" : "PMON_CPUINFO path too long");
		free(a);
		free(h);
		return rc;
	}
	strcpy(h->cpuinfo, cpuinfo);
	a->ops = &hw_ops;
	a->priv = h;
	rc = pmon_msr_open(&h->msr, pmon_env_path("PMON_MSR_ROOT", NULL), ncpus, O_RDWR, why, whylen);
	if (rc == 0)
		rc = pmon_pci_open(&h->pci, pmon_env_path("PMON_PCI_SYSFS", NULL), why, whylen);
	if (rc != 0) {
		hw_close(a);
		return rc;
	}
	*out = a;
	return PMON_OK;
}
