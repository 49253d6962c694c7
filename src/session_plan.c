/*
 * session_plan.c - what a start works out before it writes anything: the
 * boxes of the session's events, every register it will write saved, the
 * counters another agent has enabled avoided (the read-only pre-pass);
 * and how every read will read the counters (the read plan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_internal.h"
#include "enabled.h"
#include "assign.h"
#include "rsp.h"

static uint64_t saved_value(const struct sess_box *bx, enum pmon_reg_kind k, int idx);

static int box_of(pmon_session_t *s, const pmon_encoding_t *e)
{
	const struct pmon_pmu *p = pmon_catalog_pmu(e->pmu);
	int cpu = p->type->space == PMON_SPACE_CORE ? e->cpu : -1;
	struct sess_box *bx = &s->boxes[s->nboxes];
	memset(bx, 0, sizeof(*bx));
	if (pmon_regs_resolve(s->m, e->pmu, e->socket, cpu, &bx->regs))
		return -1;
	bx->name = p->name;
	for (int b = 0; b < s->nboxes; b++)
		if (same_box(&s->boxes[b].regs, &bx->regs))
			return b;
	return s->nboxes++;
}

static int save(pmon_session_t *s, struct sess_box *bx, enum pmon_reg_kind k, int idx)
{
	for (int i = 0; i < bx->nsaved; i++)
		if (bx->saved[i].kind == k && bx->saved[i].idx == idx)
			return PMON_OK;
	if (bx->nsaved >= (int)(sizeof(bx->saved) / sizeof(bx->saved[0])))
		return pmon_why(s->err, sizeof(s->err), PMON_EINVAL, "too many registers in one box");
	struct saved_reg *r = &bx->saved[bx->nsaved];
	char why[PMON_WHY_LEN];
	int rc = PMON_OK;
	/* another running session found it taken over: the other agent's, and
	 * that session's original is no longer the value to put back */
	const struct saved_reg *t = sess_taken_by_other(s, bx, k, idx);
	if (t) {
		char name[160];
		pmon_reg_name(&bx->regs, k, idx, name, sizeof(name));
		return pmon_why(s->err, sizeof(s->err), PMON_EBUSY, "%s is another agent's: a running "
			       "session of this process found it changed from what pmon wrote "
			       "(0x%llx) to 0x%llx, and pmon leaves it to that agent; nothing was "
			       "written", name, (unsigned long long)t->wrote,
			       (unsigned long long)t->found);
	}
	/* a filter another running session uses holds that session's fields:
	 * the value from before is the one that session saved */
	const struct sess_box *o = k == REG_FILTER ? sess_filter_user(s, bx, idx)
				   : k == REG_BOX_CTL ? sess_successor(s, bx) : NULL;
	if (o)
		r->value = saved_value(o, k, idx);
	else
		rc = pmon_reg_read(s->m, &bx->regs, k, idx, &r->value, why, sizeof why);
	/* the box control's reset bits read 0 where they read at all: never
	 * written back */
	if (k == REG_BOX_CTL)
		r->value &= BOX_CTL_KEPT;
	if (rc)
		return pmon_why(s->err, sizeof(s->err), rc, "reading a %s register before programming failed: %s",
			       bx->name, why);
	r->kind = k;
	r->idx = idx;
	bx->nsaved++;
	return PMON_OK;
}

static uint64_t saved_value(const struct sess_box *bx, enum pmon_reg_kind k, int idx)
{
	for (int i = 0; i < bx->nsaved; i++)
		if (bx->saved[i].kind == k && bx->saved[i].idx == idx)
			return bx->saved[i].value;
	return 0;
}

/* Counters already enabled by someone else are not ours to take: read every
 * control of the boxes involved (reads only) and place the events again on
 * the free counters.  A refusal names the first PMON_ENABLED_NAMED. */
static int avoid_busy(pmon_session_t *s)
{
	uint32_t busy[PMON_SCHED_MAX] = { 0 };
	char why[PMON_WHY_LEN], found[PMON_ENABLED_NAMED * 128];
	pmon_enabled_ctl_t named[PMON_ENABLED_NAMED];
	struct pmon_enabled_walk w = { .ctl = named, .max = PMON_ENABLED_NAMED };
	int rc;
	char taken[PMON_ENABLED_NAMED * 128] = "";
	int ntaken = 0;
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		if ((rc = pmon_box_enabled(s->m, &bx->regs, 0, &w, why, sizeof why)))
			return pmon_why(s->err, sizeof(s->err), rc, "reading a %s control failed: %s",
				       bx->name, why);
		busy[b] = w.ctls;
		/* a control another running session found taken over is that
		 * agent's, enabled or not: never placed on again */
		for (int c = 0; c < bx->regs.t->ncounters; c++)
			if (!(busy[b] & (1u << c)) && sess_taken_by_other(s, bx, REG_CTL, c)) {
				char name[160];
				pmon_reg_name(&bx->regs, REG_CTL, c, name, sizeof name);
				busy[b] |= 1u << c;
				if (ntaken++ < PMON_ENABLED_NAMED)
					snprintf(taken + strlen(taken), sizeof taken - strlen(taken),
						 "%s%s", ntaken > 1 ? "; " : "", name);
			}
	}
	if (!w.n && !ntaken)
		return PMON_OK;
	if (w.n)
		pmon_enabled_ctls_text(found, sizeof found, named, w.n);
	else
		snprintf(found, sizeof found, "none");
	if (ntaken > PMON_ENABLED_NAMED)
		snprintf(taken + strlen(taken), sizeof taken - strlen(taken), " and %d more",
			 ntaken - PMON_ENABLED_NAMED);
	pmon_encoding_t *enc = malloc(sizeof(*enc) * (size_t)s->n);
	int *ctr = malloc(sizeof(int) * (size_t)s->n);
	if (!enc || !ctr) {
		free(enc);
		free(ctr);
		return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
	}
	for (int i = 0; i < s->n; i++) {
		enc[i] = s->ev[i].enc;
		enc[i].cntmask &= ~busy[s->ev[i].box];
	}
	char sched_why[400];
	rc = pmon_schedule(s->m, enc, s->n, ctr, sched_why, sizeof(sched_why));
	if (rc == PMON_OK)
		for (int i = 0; i < s->n; i++)
			s->ev[i].counter = ctr[i];
	free(enc);
	free(ctr);
	if (rc && sess_forced())
		return PMON_OK;
	if (rc)
		return pmon_why(s->err, sizeof(s->err), PMON_EBUSY, "counters in use by another agent (perf, another session, "
			       "LIKWID, PCM) leave too few free; enabled now: %s%s%s. %s%s%s", found,
			       ntaken ? "; taken over while a session of this process counted: " : "",
			       taken, sched_why,
			       s->m->pmu_users[0] ? ". Seen on this machine: " : "", s->m->pmu_users);
	return PMON_OK;
}

/* The read-only pre-pass: resolve boxes, save registers, refuse busy ones.
 * Caller holds the registry lock. */
int sess_prepare(pmon_session_t *s)
{
	int rc;
	free(s->boxes);
	s->boxes = calloc((size_t)s->n, sizeof(*s->boxes));
	s->nboxes = 0;
	if (!s->boxes)
		return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
	for (int i = 0; i < s->n; i++)
		if ((s->ev[i].box = box_of(s, &s->ev[i].enc)) < 0)
			return pmon_why(s->err, sizeof(s->err), PMON_ENODEV, "%s: box not present", s->ev[i].enc.name);
	if ((rc = sess_take_locks(s)))
		return rc;

	/* shared filters against the sessions already running; offcore events
	 * take an RSP register the others leave free (rsp.h) */
	int total = s->n;
	const pmon_session_t *x;
	for (int o = -1; (x = sess_next_other(s, &o));)
		total += x->n;
	pmon_encoding_t *all = malloc(sizeof(*all) * (size_t)total);
	if (!all)
		return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
	int k = 0;
	for (int o = -1; (x = sess_next_other(s, &o));)
		for (int i = 0; i < x->n; i++)
			all[k++] = x->ev[i].enc;
	for (int i = 0; i < s->n; i++)
		all[k + i] = s->ev[i].enc;
	char why[768];
	rc = pmon_rsp_place_array(s->m, all, total, k, why, sizeof(why));
	if (rc) {
		free(all);
		return pmon_why(s->err, sizeof(s->err), PMON_EBUSY, "another running session of this "
				"process (another event set) holds the offcore-response registers: %s; "
				"stop it first, or use one of their masks", why);
	}
	for (int i = 0; i < s->n; i++)
		s->ev[i].enc = all[k + i];
	rc = pmon_check_filters(s->m, all, total, why, sizeof(why));
	free(all);
	/* the advice for one set does not fit sets that already are separate */
	char *adv = rc ? strstr(why, "; count them in separate event sets") : NULL;
	if (adv)
		*adv = 0;
	if (rc)
		return pmon_why(s->err, sizeof(s->err), PMON_EBUSY, "another running session of this process (another event set) "
			    "holds a shared filter with another value: %s; stop it first, or use one value",
			    why);

	if ((rc = avoid_busy(s)))
		return rc;
	for (int i = 0; i < s->n; i++) {
		struct sess_event *e = &s->ev[i];
		struct sess_box *bx = &s->boxes[e->box];
		enum pmon_reg_kind ck = e->counter < 0 ? REG_FIXED_CTL : REG_CTL;
		int idx = e->counter < 0 ? 0 : e->counter;
		if ((rc = save(s, bx, ck, idx)))
			return rc;
		uint64_t en = e->counter < 0 ? bx->regs.t->fixed_en : PMON_CTL_EN;
		if ((saved_value(bx, ck, idx) & en) && !sess_forced())
			return pmon_why(s->err, sizeof(s->err), PMON_EBUSY,
				       "%s: %s %s on socket %d is already enabled (control 0x%llx): "
				       "another agent (perf, another session, LIKWID, PCM) is counting "
				       "with it, so pmon leaves it alone%s%s",
				       e->enc.name, bx->name,
				       e->counter < 0 ? "fixed counter" : "counter", bx->regs.socket,
				       (unsigned long long)saved_value(bx, ck, idx),
				       s->m->pmu_users[0] ? ". Seen on this machine: " : "", s->m->pmu_users);
		if (gated(bx))
			bx->global_bits |= e->counter < 0 ? bx->regs.t->glb_fixed_bit : 1ull << e->counter;
		bx->ctr_mask |= e->counter < 0 ? PMON_FIXED_BIT : 1u << e->counter;
	}
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		for (int r = 0; r < bx->regs.t->nfregs; r++)
			if (sess_uses_filter(s, b, r) && (rc = save(s, bx, REG_FILTER, r)))
				return rc;
		if (freezable(bx) && (rc = save(s, bx, REG_BOX_CTL, 0)))
			return rc;
		if (gated(bx) && bx->global_bits) {
			uint64_t g;
			char name[160];
			if ((rc = pmon_reg_read(s->m, &bx->regs, REG_GLOBAL_CTL, 0, &g, why, sizeof why))) {
				pmon_reg_name(&bx->regs, REG_GLOBAL_CTL, 0, name, sizeof(name));
				return pmon_why(s->err, sizeof(s->err), rc, "reading %s failed: %s", name, why);
			}
			bx->global_saved = g & bx->global_bits;
		}
		if (ovf_kept(bx)) {
			uint64_t st;
			char name[160];
			if ((rc = pmon_reg_read(s->m, &bx->regs, REG_GLOBAL_OVF, 0, &st, why, sizeof why))) {
				pmon_reg_name(&bx->regs, REG_GLOBAL_OVF, 0, name, sizeof(name));
				return pmon_why(s->err, sizeof(s->err), rc, "reading %s failed: %s", name, why);
			}
			bx->ovf_saved = st & bx->global_bits;
		}
	}
	return PMON_OK;
}

/* Register i of bx, as the reads' plans check it: what the session wrote
 * there, in the bits of vmask; nothing once it is no longer written
 * (restore_all). */
void sess_expect_written(struct sess_box *bx, int i)
{
	for (int w = BY_OWNER; w <= BY_FOLD; w++) {
		bx->also[w][i].expect = bx->saved[i].wrote;
		bx->also[w][i].check = bx->saved[i].written ? bx->saved[i].vmask : 0;
	}
}

/* Compile how read_counters() reads the session's counters: a PCI box's
 * counters and the controls sess_verify() checks in one block access, the MSR
 * boxes' counters in one batch of the backend (one access per counter on
 * hardware); and each event's counter slot, width and checked bits.  Each
 * reader (enum reader) gets the same plan into buffers of its own, so the
 * owner's reads that take no lock (read_unlocked) and the machine's fold
 * never write the same memory.  After sess_prepare() (boxes resolved, registers
 * saved). */
int sess_plan_reads(pmon_session_t *s)
{
	char why[PMON_WHY_LEN];
	int rc;
	for (int w = BY_OWNER; w <= BY_FOLD; w++)
		pmon_reg_plan_free(&s->plan[w]);
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		int nalso = bx->regs.t->space == PMON_SPACE_PCI && bx->ctr_mask ? bx->nsaved : 0;
		for (int i = 0; i < bx->nsaved; i++) {
			for (int w = BY_OWNER; w <= BY_FOLD; w++)
				bx->also[w][i] = (struct pmon_reg_also){ .kind = bx->saved[i].kind,
									 .idx = bx->saved[i].idx };
			/* a box control is checked once it reads back (box_ctl_readable) */
			enum pmon_reg_kind k = bx->saved[i].kind;
			bx->saved[i].vmask = k == REG_FILTER ? sess_filter_mask(s, b, bx->saved[i].idx)
					     : k == REG_BOX_CTL ? 0 : ~0ull;
			sess_expect_written(bx, i);
		}
		for (int w = BY_OWNER; w <= BY_FOLD && bx->ctr_mask; w++)
			if ((rc = pmon_reg_plan_box(&s->plan[w], &bx->regs, bx->ctr_mask, bx->raw[w],
						    bx->also[w], nalso, why, sizeof why)))
				return pmon_why(s->err, sizeof(s->err), rc,
					       "planning the reads of the %s counters: %s",
					       bx->name, why);
	}
	if (pmon_reg_plan_seal(&s->plan[BY_OWNER]) || pmon_reg_plan_seal(&s->plan[BY_FOLD]))
		return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
	for (int i = 0; i < s->n; i++) {
		struct sess_event *e = &s->ev[i];
		const struct pmon_box_type *t = s->boxes[e->box].regs.t;
		for (int w = BY_OWNER; w <= BY_FOLD; w++)
			e->raw[w] = &s->boxes[e->box].raw[w][e->counter < 0 ? PMON_MAX_COUNTERS : e->counter];
		e->wmask = pmon_bits((unsigned)(e->counter < 0 ? t->fixed_width : t->width));
		e->slack = s->m->emulated ? e->wmask >> PLAUSIBLE_SLACK_SIM_SHIFT : PLAUSIBLE_SLACK_HW;
	}
	return PMON_OK;
}

__attribute__((noinline, cold)) int sess_read_failed(int rc, const struct pmon_box_regs *bad,
						     const char *why, char *err, size_t errlen)
{
	return pmon_why(err, errlen, rc, "reading the %s counters failed: %s",
		       pmon_catalog_pmu(bad->pmu)->name, why);
}
