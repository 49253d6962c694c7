/*
 * access.h - the one small interface every register-access backend implements.
 *
 * A backend reaches two address spaces:
 *   - model-specific registers, 64 bits wide, addressed by (cpu, msr);
 *   - PCI configuration space, 32-bit dwords, addressed by
 *     (domain, bus, device, function, offset), extended space (offsets up to 0xFFF)
 *     included.
 * It also finds PCI functions by vendor/device ID and identifies the CPU.
 *
 * Backends: "msr"+"pci" combined as the hardware backend (access_hw.c),
 * "sim" (the emulated SNB-EP machine, sim/).  The engine never knows which one
 * it talks to.
 *
 * Every function returns 0 on success or a negative PMON_E* code; one that
 * fails writes a one-line reason into the caller's why (whylen bytes; NULL/0
 * when the caller does not want it).  Nothing of a failure is kept in the
 * backend, so two threads sharing it never see each other's reasons.
 */
#ifndef PMON_ACCESS_H
#define PMON_ACCESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct pmon_pci_addr {
	uint16_t domain;
	uint8_t bus;
	uint8_t dev;
	uint8_t func;
} pmon_pci_addr_t;

struct pmon_cpuid {
	unsigned family;
	unsigned model;
	unsigned stepping;
	char vendor[16];   /* "GenuineIntel" */
	char brand[64];    /* "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz" */
};

struct pmon_access;

/* The longest a block read may take (first dword to last) for its dwords
 * to be taken as one instant of a counter's carry (regs.c); a longer one,
 * held up inside the kernel by an interrupt's softirq or by preemption, is
 * read again, at most PMON_BLOCK_TRIES times in all. */
#define PMON_BLOCK_SPAN_NS 100000
#define PMON_BLOCK_TRIES 4

/* One read of a batch (read_batch): ndw 0, the MSR msr of CPU cpu into
 * *val; ndw > 0, the ndw dwords from off of PCI function d into dw[], as
 * pci_read_block reads them.  want (ndw <= 64): the dwords the caller looks
 * at (bit i: dw[i]; 0: all); a backend may leave the others as they were
 * (silicon reads them all in the one access; the emulated machine only
 * works out what is wanted).  hint is the backend's: NULL in a new
 * request, it may keep there where the request's registers are, found at
 * the first batch that serves it, for the later ones (a read plan runs the
 * same requests at every read); the engine never looks at it. */
struct pmon_read_req {
	int ndw;
	int cpu;
	uint32_t msr;
	uint64_t *val;
	pmon_pci_addr_t d;
	uint32_t off;
	uint32_t *dw;
	uint64_t want;
	const void *hint;
};

struct pmon_access_ops {
	const char *name;
	int (*msr_read)(struct pmon_access *a, int cpu, uint32_t msr, uint64_t *val,
			char *why, size_t whylen);
	int (*msr_write)(struct pmon_access *a, int cpu, uint32_t msr, uint64_t val,
			 char *why, size_t whylen);
	/* n reads at once, in order, each as msr_read or pci_read_block does
	 * it (one pread each on hardware; on the emulated machine all at one
	 * instant, after one update of its clock: without its lock when that
	 * changes nothing, else under one hold of it).  The first failure
	 * stops it: *bad = its index, why names its CPU and MSR, or its PCI
	 * function (a failed block's dwords read 0).  *at_ns (when at_ns is
	 * not NULL): the backend's clock (clock_ns) at the reads: the emulated
	 * machine's time of that instant, CLOCK_MONOTONIC right after them on
	 * hardware.  Called from several threads at once (a session's owner
	 * and the machine's fold), each with requests of its own. */
	int (*read_batch)(struct pmon_access *a, struct pmon_read_req *req, int n, int *bad,
			  uint64_t *at_ns, char *why, size_t whylen);
	int (*pci_read)(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
			char *why, size_t whylen);
	int (*pci_write)(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t val,
			 char *why, size_t whylen);
	/* ndw consecutive dwords from off in one access, read in ascending
	 * order as a config read of silicon does (one pread on hardware), all
	 * within PMON_BLOCK_SPAN_NS: a read that took longer is made again
	 * (regs.c's tear rule relies on it). */
	int (*pci_read_block)(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off,
			      uint32_t *val, int ndw, char *why, size_t whylen);
	/* Fill at most max addresses of functions with this vendor/device ID, in
	 * ascending (domain, bus, dev, func) order; return how many exist (may
	 * exceed max) or a negative error. */
	int (*pci_find)(struct pmon_access *a, uint16_t vendor, uint16_t device,
			pmon_pci_addr_t *out, int max, char *why, size_t whylen);
	int (*cpu_ident)(struct pmon_access *a, struct pmon_cpuid *id, char *why, size_t whylen);
	/* Optional (NULL on hardware): does the emulated machine model the event
	 * programmed by this control value and these filter words (filt[0..1] of
	 * the encoding: CBo filter, HA matchers, offcore RSP value...) in this box
	 * type ("cbo", "ha", "core"...; fixed counters "<type>-fixed")?  1 yes,
	 * 0 no.  A pure question: a may be NULL (the catalogue asks it before
	 * any machine is open, see pmon_sim_access_ops). */
	int (*event_modeled)(struct pmon_access *a, const char *box_type, uint64_t ctl,
			     const uint64_t filt[2]);
	/* Optional (NULL on hardware): the machine's topology as an hwloc
	 * synthetic description ("package:2 core:8 pu:2"), written to buf. */
	int (*topology)(struct pmon_access *a, char *buf, size_t len);
	/* Optional (NULL on hardware, whose clock is CLOCK_MONOTONIC): the
	 * backend's own clock in ns (the emulated machine's time). */
	uint64_t (*clock_ns)(struct pmon_access *a);
	/* Optional (NULL on hardware): call fn(arg) each time the backend's clock
	 * has moved on by period_ns; period_ns 0 removes the tick.  One tick per
	 * backend handle. */
	int (*set_tick)(struct pmon_access *a, uint64_t period_ns, void (*fn)(void *arg), void *arg);
	void (*close)(struct pmon_access *a);
};

struct pmon_access {
	const struct pmon_access_ops *ops;
	void *priv;
};

/* Hardware backends (access_msr.c, access_pci.c, access_hw.c). */
struct pmon_msr_dev;
struct pmon_pci_dev;

/* Open the MSR device files under root (default "/dev/cpu"), i.e. root/N/msr.
 * ncpus: how many CPUs to expect.  mode: O_RDWR or O_RDONLY. */
int pmon_msr_open(struct pmon_msr_dev **out, const char *root, int ncpus, int mode,
		  char *why, size_t whylen);
int pmon_msr_read(struct pmon_msr_dev *m, int cpu, uint32_t msr, uint64_t *val,
		  char *why, size_t whylen);
int pmon_msr_write(struct pmon_msr_dev *m, int cpu, uint32_t msr, uint64_t val,
		   char *why, size_t whylen);
void pmon_msr_close(struct pmon_msr_dev *m);

/* Open PCI config access through libpci's Linux sysfs method; sysfs_root
 * (default "/sys/bus/pci") may point at a fake tree for tests. */
int pmon_pci_open(struct pmon_pci_dev **out, const char *sysfs_root, char *why, size_t whylen);
int pmon_pci_read(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
		  char *why, size_t whylen);
int pmon_pci_read_block(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
			int ndw, char *why, size_t whylen);
int pmon_pci_write(struct pmon_pci_dev *p, pmon_pci_addr_t d, uint32_t off, uint32_t val,
		   char *why, size_t whylen);
int pmon_pci_find(struct pmon_pci_dev *p, uint16_t vendor, uint16_t device,
		  pmon_pci_addr_t *out, int max);
void pmon_pci_close(struct pmon_pci_dev *p);

/* The hardware backend: MSR + PCI + CPUID from /proc/cpuinfo (cpuinfo_path
 * overridable for tests).  Environment overrides: PMON_MSR_ROOT,
 * PMON_PCI_SYSFS, PMON_CPUINFO. */
int pmon_hw_access_open(struct pmon_access **out, int ncpus, char *why, size_t whylen);

/* The emulated machine's backend (sim/sim_access.c, in libpmon-sim: libpmon
 * reaches both through sim_load.h, never directly): uses pmon_sim_current(),
 * creating it from $PMON_SIM when none exists yet.  A malformed $PMON_SIM is
 * an error that names the bad key. */
int pmon_sim_access_open(struct pmon_access **out, char *why, size_t whylen);
/* The emulated machine's ops, for the catalogue's "is this event modeled"
 * question (event_modeled with a NULL handle). */
extern const struct pmon_access_ops pmon_sim_access_ops;

#endif
