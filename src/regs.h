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

/* REG_GLOBAL_CTL: the global control that enables a PMU's counters (the
 * core PMU's IA32_PERF_GLOBAL_CTRL, the Nehalem uncore's 0x391: box types
 * with msr_glb_ctl).  REG_GLOBAL_OVF: the counters' overflow bits of such a
 * PMU (msr_glb_ovf): read from its status register (0x392), cleared by
 * writing ones to its overflow control (0x393). */
enum pmon_reg_kind { REG_BOX_CTL, REG_CTL, REG_CTR, REG_FIXED_CTL, REG_FIXED_CTR, REG_FILTER,
		     REG_GLOBAL_CTL, REG_GLOBAL_OVF };

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
/* A register wanted beside a PCI box's counters (a control the session
 * checks at every read): val is set at each run of the plan when got, and
 * checked: the run's plan says (differs) when the bits of check in it are
 * not those of expect (the caller keeps both current). */
struct pmon_reg_also {
	enum pmon_reg_kind kind;
	int idx;
	uint64_t val;
	int got;
	uint64_t expect, check;
};

/*
 * A compiled read of a session's counters.  Built once when counting
 * starts (every MSR address, PCI offset, block span and width worked out
 * then), run at every read as one batch of the backend (read_batch):
 *  - a PCI box: one block access from its lowest counter to the end of its
 *    highest (tear-free, see regs.c), widened to bring the box's also[]
 *    registers that keep it within PMON_PLAN_SPAN bytes (their got set to
 *    1 when the box is added; the others, and all of an MSR box's, stay
 *    0); counters farther apart get a block each;
 *  - an MSR box: one access per counter.
 * Each counter lands in its val slot masked to its width, each also[]
 * register in its val, checked against its expect (pmon_reg_also).
 */
#define PMON_PLAN_SPAN 256
struct pmon_plan_ctr {
	uint16_t dw;              /* PCI: index of its low dword in the block */
	uint64_t mask;            /* its width */
	uint64_t *val;
};
struct pmon_plan_also {
	uint16_t lo, hi;          /* dword indexes in the block; hi valid when has_hi */
	int has_hi;
	struct pmon_reg_also *also;
};
struct pmon_plan_block {
	const struct pmon_box_regs *r;
	uint32_t first;           /* byte offset of the block */
	int ndw;
	int nctr, nalso;
	uint64_t want;            /* the dwords the counters and also[] take */
	struct pmon_plan_ctr ctr[PMON_MAX_COUNTERS + 1];
	struct pmon_plan_also also[16];
	uint32_t dw[PMON_PLAN_SPAN / 4];
};
struct pmon_plan_msr {
	const struct pmon_box_regs *r;
	int cpu;
	uint32_t msr;
	struct pmon_plan_ctr ctr;
	uint64_t raw;
};
/* A value a run moves out of the batch's buffers (pmon_reg_plan_seal):
 * hi:lo masked (a single dword: hi is lo and mask 32 bits wide), into a
 * counter's val or an also register's. */
struct pmon_plan_move {
	const uint32_t *lo, *hi;
	uint64_t mask;
	uint64_t *val;
	const struct pmon_plan_block *b;   /* a counter's block (read again near a carry) */
	struct pmon_reg_also *also;
};
struct pmon_reg_plan {
	struct pmon_plan_block *blk;
	int nblk, capblk;
	struct pmon_plan_msr *msr;
	int nmsr, capmsr;
	struct pmon_read_req *req;     /* the batch: the blocks, then the MSRs (pmon_reg_plan_seal) */
	int nreq;
	struct pmon_plan_move *mv;     /* the blocks' counters (the first nctr), then their also[] */
	int nctr, nmv;
	/* where a run's loops end (pmon_reg_plan_seal) */
	const struct pmon_plan_move *mv_ctr_end, *mv_end;
	const struct pmon_plan_msr *msr_end;
	uint64_t differs;              /* the last run: not 0 when an also register differs
					* (pmon_reg_also) */
};
/* Add the counters of box r in mask (bit c: general counter c, in val[c];
 * PMON_FIXED_BIT: the fixed counter, in val[PMON_MAX_COUNTERS]); val, r
 * and also must outlive the plan.  PMON_EINVAL for a counter the box has
 * not, PMON_ENOMEM. */
int pmon_reg_plan_box(struct pmon_reg_plan *p, const struct pmon_box_regs *r, uint32_t mask,
		      uint64_t *val, struct pmon_reg_also *also, int nalso, char *why, size_t whylen);
/* After the last box: make the batch (PMON_ENOMEM). */
int pmon_reg_plan_seal(struct pmon_reg_plan *p);
/* Read everything the plan holds (pmon_reg_plan_run below); *now = the
 * backend's clock at the reads (pmon_clock_ns).  A failure: *failed = the
 * box whose access failed, why the backend's reason.  It runs at every
 * read of a session, so it is inline: the read is one call, into the
 * backend, then each value moved out of its buffer; what is rare is
 * regs.c's: pmon_reg_plan_run_all runs an empty plan or one on a backend
 * without read_batch, pmon_reg_plan_failed names the box of a failed
 * request, pmon_reg_plan_settle finishes a run from a counter whose low
 * dword is within PMON_TEAR_WINDOW of its carry (regs.c). */
int pmon_reg_plan_run_all(struct pmon_machine *m, struct pmon_reg_plan *p, uint64_t *now,
			  const struct pmon_box_regs **failed, char *why, size_t whylen);
const struct pmon_box_regs *pmon_reg_plan_failed(const struct pmon_reg_plan *p, int bad);
int pmon_reg_plan_settle(struct pmon_machine *m, struct pmon_reg_plan *p,
			 const struct pmon_plan_move *from, const struct pmon_box_regs **failed,
			 char *why, size_t whylen);
#define PMON_TEAR_WINDOW (1u << 26)

/* A low dword this close to its carry may have torn from its high dword. */
static inline int pmon_tear_possible(uint32_t lo)
{
	return lo >= 0u - PMON_TEAR_WINDOW;
}

/* The end of a run: the also registers (the moves from x on) and the MSR
 * counters. */
static inline void pmon_reg_plan_rest(struct pmon_reg_plan *p, const struct pmon_plan_move *x)
{
	uint64_t differ = 0;
	for (; x < p->mv_end; x++) {
		uint64_t v = ((uint64_t)*x->hi << 32 | *x->lo) & x->mask;
		x->also->val = v;
		differ |= (v ^ x->also->expect) & x->also->check;
	}
	p->differs = differ;
	for (const struct pmon_plan_msr *y = p->msr; y < p->msr_end; y++)
		*y->ctr.val = y->raw & y->ctr.mask;
}

static inline __attribute__((always_inline)) int
pmon_reg_plan_run(struct pmon_machine *m, struct pmon_reg_plan *p, uint64_t *now,
		  const struct pmon_box_regs **failed, char *why, size_t whylen)
{
	struct pmon_access *a = m->acc;
	int bad = 0, rc;
	if (__builtin_expect(!p->nreq || !a->ops->read_batch, 0))
		return pmon_reg_plan_run_all(m, p, now, failed, why, whylen);
	if (__builtin_expect((rc = a->ops->read_batch(a, p->req, p->nreq, &bad, now, why, whylen)), 0)) {
		*failed = pmon_reg_plan_failed(p, bad);
		return rc;
	}
	const struct pmon_plan_move *x = p->mv;
	for (; x < p->mv_ctr_end; x++) {
		uint32_t lo = *x->lo;
		if (__builtin_expect(pmon_tear_possible(lo), 0))
			return pmon_reg_plan_settle(m, p, x, failed, why, whylen);
		*x->val = ((uint64_t)*x->hi << 32 | lo) & x->mask;
	}
	pmon_reg_plan_rest(p, x);
	return PMON_OK;
}
void pmon_reg_plan_free(struct pmon_reg_plan *p);

/* A configuration register outside the PMON boxes (the UBox's node-ID
 * registers, read to map buses to sockets before a machine exists). */
int pmon_reg_read_config(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
			 char *why, size_t whylen);

/* The PMON allowlist: is (k, idx) a register of box r that pmon writes (a
 * control, the fixed control, a filter, the box control, or a core PMU's
 * global control), at an address in the documented PMON set (uncore
 * MSRs 0xc00-0xdff, the Xeon 5500/5600 uncore's 0x301, 0x391-0x396,
 * 0x3b0-0x3b7, 0x3c0-0x3c7; a core PMU's IA32_PERFEVTSELx, IA32_FIXED_CTR_CTRL,
 * IA32_PERF_GLOBAL_CTRL and MSR_OFFCORE_RSP_x; PCI configuration space past
 * the standard header, 0x40-0x2ff, dword-aligned), does value hold only bits
 * software may set in it, and is mask (the bits of it that are pmon's) all
 * ones, or for a global control only counter enable bits (and value within
 * them)?  PMON_OK, or
 * PMON_EINVAL with why saying which test fails.  Counters are refused:
 * pmon never writes one. */
int pmon_reg_check(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx, uint64_t value,
		   uint64_t mask, char *why, size_t whylen);
/* The bits of (k, idx) of box r that software may set (k and idx valid). */
uint64_t pmon_reg_writable(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx);

/* "snbep_unc_pcu socket 0 PCU_MSR_PMON_BOX_FILTER (MSR 0xc34)": a register's
 * name for messages; returns what snprintf returns. */
int pmon_reg_name(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx, char *buf,
		  size_t len);

#endif
