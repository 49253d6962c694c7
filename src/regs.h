/*
 * regs.h - where one box instance's registers are, and how to touch them.
 *
 * A struct pmon_box_regs is resolved from the tables and the machine's box
 * locations; the read/write helpers hide MSR versus PCI (two-dword counters,
 * 64-bit filter registers split over two dwords, torn-read protection).
 */
#ifndef PMON_REGS_H
#define PMON_REGS_H

#include "machine.h"

/* REG_GLOBAL_CTL: IA32_PERF_GLOBAL_CTRL of the core PMU's CPU (core boxes only). */
enum pmon_reg_kind { REG_BOX_CTL, REG_CTL, REG_CTR, REG_FIXED_CTL, REG_FIXED_CTR, REG_FILTER,
		     REG_GLOBAL_CTL };

#define PMON_MAX_COUNTERS 8       /* general counters of any box type */
#define PMON_FIXED_BIT (1u << PMON_MAX_COUNTERS)

struct pmon_box_regs {
	const struct pmon_box_type *t;
	int pmu, socket;
	int cpu;                  /* CPU that issues MSR accesses */
	pmon_pci_addr_t pci, extra;
	int has_extra;
};

int pmon_regs_resolve(const struct pmon_machine *m, int pmu, int socket, int cpu,
		      struct pmon_box_regs *r);
/* idx: counter number (REG_CTL/REG_CTR) or filter register index (REG_FILTER). */
/* On failure why (whylen bytes) receives the backend's reason. */
int pmon_reg_read(struct pmon_machine *m, const struct pmon_box_regs *r,
		  enum pmon_reg_kind k, int idx, uint64_t *val, char *why, size_t whylen);
int pmon_reg_write(struct pmon_machine *m, const struct pmon_box_regs *r,
		   enum pmon_reg_kind k, int idx, uint64_t val, char *why, size_t whylen);
/* The counters of the box in mask (bit c: general counter c; PMON_FIXED_BIT:
 * the fixed counter) into val[c] (the fixed one into val[PMON_MAX_COUNTERS]),
 * each masked to its width: on a PCI box one block access from the lowest to
 * the highest (tear-free, see regs.c), on an MSR box one access per counter.
 * also[0..nalso-1]: registers of the box wanted beside the counters; those in
 * the counters' PCI function that widen the block to at most 256 bytes come
 * in the same access (got 1, val set), the others are left (got 0), as are
 * all of an MSR box. */
struct pmon_reg_also {
	enum pmon_reg_kind kind;
	int idx;
	uint64_t val;
	int got;
};
int pmon_reg_read_counters(struct pmon_machine *m, const struct pmon_box_regs *r, uint32_t mask,
			   uint64_t *val, struct pmon_reg_also *also, int nalso, char *why,
			   size_t whylen);

/* Counters of MSR boxes (REG_CTR / REG_FIXED_CTR of a box outside PCI
 * space) read together: *ref[i].val = the counter, masked to its width, in
 * one backend call for all (the backend's msr_read_batch; one msr_read each
 * where it has none).  A failure: *bad = the index of the counter that
 * failed, why the backend's reason (naming CPU and MSR). */
struct pmon_reg_ref {
	const struct pmon_box_regs *r;
	enum pmon_reg_kind kind;
	int idx;
	uint64_t *val;
};
int pmon_reg_read_msr_counters(struct pmon_machine *m, const struct pmon_reg_ref *ref, int n,
			       int *bad, char *why, size_t whylen);

/* A configuration register outside the PMON boxes (the UBox's node-ID
 * registers, read to map buses to sockets before a machine exists). */
int pmon_reg_read_config(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
			 char *why, size_t whylen);

/* "snbep_unc_pcu socket 0 PCU_MSR_PMON_BOX_FILTER (MSR 0xc34)": a register's
 * name for messages; returns what snprintf returns. */
int pmon_reg_name(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx, char *buf,
		  size_t len);

#endif
