/*
 * sim_access.c - the "sim" backend: struct pmon_access ops served by the
 * process's current emulated machine.  Every MSR and PCI access is counted,
 * and logged with its value and status when the log is on (sim_log.c).
 * When the machine's clock follows the wall clock, every register access
 * first brings emulated time up to date.
 */
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "sim_clock.h"
#include "sim_log.h"
#include "sim_space.h"
#include "nhm_sim.h"
#include "why.h"

static void begin(struct pmon_sim *sim, enum pmon_sim_op op, int cpu, uint32_t msr,
		  pmon_pci_addr_t d, uint32_t off, uint64_t value)
{
	sim->cur.op = op;
	sim->cur.cpu = cpu;
	sim->cur.msr = msr;
	sim->cur.bus = d.bus;
	sim->cur.dev = d.dev;
	sim->cur.func = d.func;
	sim->cur.off = (uint16_t)off;
	sim->cur.value = value;
	sim->why[0] = '\0';
}

/* Count (and log) the access and release the machine; a refusal's reason
 * is copied out only then. */
static void finish(struct pmon_sim *sim, pmon_pci_addr_t d, uint64_t value, int rc,
		   char *why, size_t whylen)
{
	sim_log_access(sim, d.domain, value, rc);
	if (rc)
		pmon_why(why, whylen, rc, "%s", sim->why);
	sim_unlock(sim);
}

static const pmon_pci_addr_t no_pci;

static int op_msr_read(struct pmon_access *a, int cpu, uint32_t msr, uint64_t *val,
		       char *why, size_t whylen)
{
	struct pmon_sim *sim = a->priv;
	uint64_t v = 0;
	int rc;

	sim_lock(sim);
	sim_clock_sync(sim);
	begin(sim, PMON_SIM_MSR_READ, cpu, msr, no_pci, 0, 0);
	rc = sim_msr_read(sim, cpu, msr, &v);
	finish(sim, no_pci, v, rc, why, whylen);
	*val = rc ? 0 : v;
	return rc;
}

/* The dwords of a block read, the machine held.  With the log off, a PMON
 * box's register block is read through its window (sim_pcibox_window: the
 * wanted dwords, all when want is 0; kept in *hint when the caller keeps
 * one), each dword of the block still counted; anything
 * else, and everything with the log on, is served (and logged) dword by
 * dword.  A failed block reads 0 throughout. */
static int block(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t *val, int ndw,
		 uint64_t want, const void **hint)
{
	const struct sim_box *b;
	const struct sim_window *w = hint ? *hint : NULL;
	int rc = 0;

	if (!sim->log_cap && (w || ((b = sim_pci_pmon_block(sim, d, off, ndw)) &&
				    (w = sim_pcibox_window(sim, b, off, ndw, want))))) {
		if (hint)
			*hint = w;
		sim_window_read(w, val);
		sim->log_total += (size_t)ndw;
		return 0;
	}
	for (int i = 0; i < ndw && !rc; i++) {
		uint32_t v = 0;

		begin(sim, PMON_SIM_PCI_READ, -1, 0, d, off + 4 * (uint32_t)i, 0);
		rc = sim_pci_read(sim, d, off + 4 * (uint32_t)i, &v);
		sim_log_access(sim, d.domain, v, rc);
		val[i] = v;
	}
	if (rc)
		memset(val, 0, 4u * (size_t)ndw);
	return rc;
}

/* A batch served without taking the machine, when serving it changes
 * nothing: the log off, no look at the wall clock due, every request a PMON
 * PCI block or a PMON MSR counter (a CBo's, the UBox's, the PCU's, a core
 * PMU's: pure loads, sim_msr_counter), found once, under the lock
 * (read_locked), and kept in its hint.
 * The loads lie between two looks at hold_seq and count only if no holder
 * came in between: then they are what one hold of the machine would have
 * read, at one instant.  0: served; 1: the caller takes the lock and serves
 * it (outputs rewritten). */
static int read_unlocked(struct pmon_sim *sim, struct pmon_read_req *req, int n, uint64_t *at_ns)
{
	unsigned seq = __atomic_load_n(&sim->hold_seq, __ATOMIC_ACQUIRE);
	size_t served = 0;
	uint64_t tsc, now;

	if ((seq & 1) || __atomic_load_n(&sim->log_cap, __ATOMIC_RELAXED) || sim_clock_due(sim, &tsc))
		return 1;
	for (int i = 0; i < n; i++) {
		const struct pmon_read_req *q = &req[i];
		if (!q->hint)
			return 1;                 /* found under the lock */
		if (q->ndw > 0) {
			sim_window_read(q->hint, q->dw);
			served += (size_t)q->ndw;
		} else {
			*q->val = __atomic_load_n(&((const struct sim_ctr *)q->hint)->val, __ATOMIC_RELAXED);
			served++;
		}
	}
	now = __atomic_load_n(&sim->now_ns, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&sim->hold_seq, __ATOMIC_RELAXED) != seq)
		return 1;
	__atomic_fetch_add(&sim->log_unlocked, served, __ATOMIC_RELAXED);
	if (at_ns)
		*at_ns = now;
	return 0;
}

/* The batch under one hold of the machine, after one clock update. */
static __attribute__((noinline)) int read_locked(struct pmon_sim *sim, struct pmon_read_req *req,
						  int n, int *bad, uint64_t *at_ns, char *why,
						  size_t whylen)
{
	int rc = 0, i;

	sim_lock(sim);
	sim_clock_sync(sim);
	for (i = 0; i < n && !rc; i++) {
		struct pmon_read_req *q = &req[i];
		uint64_t v = 0;

		if (q->ndw > 0) {
			rc = block(sim, q->d, q->off, q->dw, q->ndw, q->want, &q->hint);
			continue;
		}
		const struct sim_ctr *c;
		if (!sim->log_cap && (c = q->hint ? q->hint : sim_msr_counter(sim, q->cpu, q->msr))) {
			q->hint = c;
			sim->log_total++;
			*q->val = c->val;
			continue;
		}
		if (sim->log_cap) {
			begin(sim, PMON_SIM_MSR_READ, q->cpu, q->msr, no_pci, 0, 0);
		} else {
			sim->cur.op = PMON_SIM_MSR_READ;   /* all sim_log_access needs */
			sim->why[0] = '\0';
		}
		rc = sim_msr_read(sim, q->cpu, q->msr, &v);
		sim_log_access(sim, 0, v, rc);
		*q->val = rc ? 0 : v;
	}
	if (rc) {
		const struct pmon_read_req *q = &req[i - 1];
		*bad = i - 1;
		if (q->ndw > 0)
			pmon_why(why, whylen, rc, "%s", sim->why);
		else
			pmon_why(why, whylen, rc, "CPU %d MSR 0x%x: %s", q->cpu, q->msr, sim->why);
	}
	if (at_ns)
		*at_ns = sim->now_ns;
	sim_unlock(sim);
	return rc;
}

/* As the engine reads a session's counters: at one instant, after one
 * clock update, nothing advancing between the reads; without the lock
 * when that changes nothing, else under one hold of the machine. */
static int op_read_batch(struct pmon_access *a, struct pmon_read_req *req, int n, int *bad,
			 uint64_t *at_ns, char *why, size_t whylen)
{
	struct pmon_sim *sim = a->priv;

	if (!read_unlocked(sim, req, n, at_ns))
		return 0;
	return read_locked(sim, req, n, bad, at_ns, why, whylen);
}

static int op_msr_write(struct pmon_access *a, int cpu, uint32_t msr, uint64_t val,
			char *why, size_t whylen)
{
	struct pmon_sim *sim = a->priv;
	int rc;

	sim_lock(sim);
	sim_clock_sync(sim);
	begin(sim, PMON_SIM_MSR_WRITE, cpu, msr, no_pci, 0, val);
	rc = sim_msr_write(sim, cpu, msr, val);
	finish(sim, no_pci, val, rc, why, whylen);
	return rc;
}

static int op_pci_read(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t *val,
		       char *why, size_t whylen)
{
	struct pmon_sim *sim = a->priv;
	uint32_t v = 0;
	int rc;

	sim_lock(sim);
	sim_clock_sync(sim);
	begin(sim, PMON_SIM_PCI_READ, -1, 0, d, off, 0);
	rc = sim_pci_read(sim, d, off, &v);
	finish(sim, d, v, rc, why, whylen);
	*val = rc ? 0 : v;
	return rc;
}

static int op_pci_write(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off, uint32_t val,
			char *why, size_t whylen)
{
	struct pmon_sim *sim = a->priv;
	int rc;

	sim_lock(sim);
	sim_clock_sync(sim);
	begin(sim, PMON_SIM_PCI_WRITE, -1, 0, d, off, val);
	rc = sim_pci_write(sim, d, off, val);
	finish(sim, d, val, rc, why, whylen);
	return rc;
}

/* Under one hold of the machine, as silicon's config read of a block:
 * nothing advances between its dwords. */
static int op_pci_read_block(struct pmon_access *a, pmon_pci_addr_t d, uint32_t off,
			     uint32_t *val, int ndw, char *why, size_t whylen)
{
	struct pmon_sim *sim = a->priv;
	int rc;

	if (ndw <= 0)
		return pmon_why(why, whylen, PMON_EINVAL, "PCI block read of %d dwords", ndw);
	sim_lock(sim);
	sim_clock_sync(sim);
	if ((rc = block(sim, d, off, val, ndw, 0, NULL)))
		pmon_why(why, whylen, rc, "%s", sim->why);
	sim_unlock(sim);
	return rc;
}

static int op_pci_find(struct pmon_access *a, uint16_t vendor, uint16_t device,
		       pmon_pci_addr_t *out, int max, char *why, size_t whylen)
{
	(void)why;
	(void)whylen;
	struct pmon_sim *sim = a->priv;
	int n;

	sim_lock(sim);
	n = sim_pci_find(sim, vendor, device, out, max);
	sim_unlock(sim);
	return n;
}

/* The CPU the shape's generation is: the engine picks its tables by it. */
static int op_cpu_ident(struct pmon_access *a, struct pmon_cpuid *id, char *why, size_t whylen)
{
	const struct pmon_sim *sim = a->priv;

	(void)why;
	(void)whylen;
	memset(id, 0, sizeof *id);
	id->family = 6;
	strcpy(id->vendor, "GenuineIntel");
	switch (sim->shape.gen) {
	case PMON_SIM_GEN_NHMEP:
		id->model = 26;
		id->stepping = 5;
		strcpy(id->brand, "Intel(R) Xeon(R) CPU X5570 @ 2.93GHz");
		break;
	case PMON_SIM_GEN_WSMEP:
		id->model = 44;
		id->stepping = 2;
		strcpy(id->brand, "Intel(R) Xeon(R) CPU X5670 @ 2.93GHz");
		break;
	default:
		id->model = 45;
		id->stepping = 7;
		strcpy(id->brand, "Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz");
		break;
	}
	return 0;
}

/* The generation a question about events concerns: the machine's; with no
 * handle (the catalogue asks before opening one), the current machine's,
 * else the one $PMON_SIM names (SNB-EP when it names none or is bad). */
static int gen_of(const struct pmon_access *a)
{
	struct pmon_sim_shape sh;
	const pmon_sim_t *cur;

	if (a)
		return ((const struct pmon_sim *)a->priv)->shape.gen;
	if ((cur = pmon_sim_current()))
		return pmon_sim_shape(cur)->gen;
	if (sim_shape_parse(getenv("PMON_SIM"), &sh, NULL, NULL, 0))
		return PMON_SIM_GEN_SNBEP;
	return sh.gen;
}

/* The filter words as encoded: an offcore event's RSP value is in the word
 * of its MSR (filt[0] for RSP_0, filt[1] for RSP_1), the other word is 0. */
static int op_event_modeled(struct pmon_access *a, const char *box_type, uint64_t ctl,
			    const uint64_t filt[2])
{
	uint64_t f0 = filt ? filt[0] : 0;
	int gen = gen_of(a);

	if (filt && box_type && !strcmp(box_type, "core"))
		f0 |= filt[1];
	if (SIM_GEN_NHM(gen))
		return sim_nhm_models(gen, box_type, ctl, f0);
	return pmon_sim_models(box_type, ctl, f0);
}

static int op_topology(struct pmon_access *a, char *buf, size_t len)
{
	struct pmon_sim *sim = a->priv;

	return pmon_sim_synthetic(pmon_sim_shape(sim), buf, len);
}

static uint64_t op_clock_ns(struct pmon_access *a)
{
	return pmon_sim_now_ns(a->priv);
}

static int op_set_tick(struct pmon_access *a, uint64_t period_ns, void (*fn)(void *arg), void *arg)
{
	return sim_tick_set(a->priv, a, period_ns, fn, arg);
}

static void op_close(struct pmon_access *a)
{
	sim_tick_set(a->priv, a, 0, NULL, NULL);
	free(a);                              /* the machine stays: it is shared */
}

const struct pmon_access_ops pmon_sim_access_ops = {
	.name = "sim",
	.msr_read = op_msr_read,
	.read_batch = op_read_batch,
	.msr_write = op_msr_write,
	.pci_read = op_pci_read,
	.pci_write = op_pci_write,
	.pci_read_block = op_pci_read_block,
	.pci_find = op_pci_find,
	.cpu_ident = op_cpu_ident,
	.event_modeled = op_event_modeled,
	.topology = op_topology,
	.clock_ns = op_clock_ns,
	.set_tick = op_set_tick,
	.close = op_close,
};

int pmon_sim_access_open(struct pmon_access **out, char *why, size_t whylen)
{
	pmon_sim_t *sim;
	struct pmon_access *a;
	int rc;

	*out = NULL;
	if ((rc = sim_current_get(&sim, why, whylen)))
		return rc;
	if (!(a = calloc(1, sizeof *a)))
		return PMON_ENOMEM;
	a->ops = &pmon_sim_access_ops;
	a->priv = sim;
	*out = a;
	return 0;
}
