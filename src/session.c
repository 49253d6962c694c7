/*
 * session.c - count a set of events together.
 *
 * start:  read-only pre-pass: save every register the session will write,
 *         and refuse (PMON_EBUSY, nothing written) when a counter it needs is
 *         already enabled, when a running session on this machine holds a
 *         shared filter with another value, or when one found a filter or
 *         box control this session needs taken over by another agent (a
 *         counter found so is avoided, like an enabled one).  Then freeze the boxes
 *         (frz_en|frz), write filters and controls (with the enable bit),
 *         read each counter while frozen (every one readable before any
 *         counts), program the UBox last (it cannot be frozen), enable the counters of a PMU under a
 *         global control there (the core PMU's IA32_PERF_GLOBAL_CTRL, the
 *         Nehalem uncore's 0x391), unfreeze, then read every counter
 *         running: the baselines and the window's start (its instant).
 * read:   per counter, delta = (raw - last) mod 2^width, total += delta; so a
 *         counter may wrap once between reads and the 64-bit total stays exact.
 * stop:   final read of the running counters (the window's end: its
 *         instant), freeze (the global controls: the session's enable bits
 *         cleared), write back every saved register, release the boxes.  Counters themselves are never written (totals come from
 *         deltas, no reset needed).
 *
 * The rest of the protocol lives in rooms of its own (session_internal.h
 * lists them): the pre-pass and the read plan (session_plan.c), ownership
 * against other processes and agents (session_own.c), hand-over between
 * the sessions of one machine (session_share.c), the restore
 * (session_restore.c), and wrap folding with the reads (session_fold.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_internal.h"
#include "assign.h"

static void close_session(void *s) { pmon_session_destroy(s); }

int pmon_session_create(pmon_machine_t *m, pmon_session_t **out)
{
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return PMON_ENOMEM;
	(*out)->m = m;
	if (pmon_registry_add(&m->sessions, *out, close_session)) {
		free(*out);
		*out = NULL;
		return PMON_ENOMEM;
	}
	return PMON_OK;
}

const char *pmon_session_errmsg(const pmon_session_t *s) { return s->err; }
int pmon_session_count(const pmon_session_t *s) { return s->n; }

int pmon_session_counter(const pmon_session_t *s, int i)
{
	return (i >= 0 && i < s->n) ? s->ev[i].counter : PMON_EINVAL;
}

/* ---------------------------------------------------------------- events */

/* Place e with the events already added: only its filters are checked and
 * only its counter group is placed again (pmon_schedule_add).  Room for
 * s->n + 1 events is there. */
static int place_new(pmon_session_t *s, pmon_encoding_t *e)
{
	int n = s->n + 1;
	for (int i = 0; i < s->n; i++) {
		s->evp[i] = &s->ev[i].enc;
		s->ctr[i] = s->ev[i].counter;
	}
	s->evp[s->n] = e;
	s->ctr[s->n] = 0;
	int rc = pmon_schedule_add(s->m, s->evp, n, s->ctr, s->err, sizeof(s->err));
	if (rc == PMON_OK)
		for (int i = 0; i < n; i++)
			s->ev[i].counter = s->ctr[i];
	return rc;
}

int pmon_session_add(pmon_session_t *s, const pmon_encoding_t *given)
{
	pmon_encoding_t local = *given, *e = &local;
	if (s->running)
		return pmon_why(s->err, sizeof(s->err), PMON_EINVAL, "cannot add %s while counting", e->name);
	/* an encoding made without a machine names a CPU but not its socket */
	if (e->cpu >= 0 && e->socket < 0) {
		if (e->cpu >= s->m->topo.ncpus || s->m->topo.cpu_socket[e->cpu] < 0)
			return pmon_why(s->err, sizeof(s->err), PMON_ERANGE, "%s: cpu=%d is not present", e->name, e->cpu);
		e->socket = s->m->topo.cpu_socket[e->cpu];
		if (pmon_catalog_pmu(e->pmu)->type->space != PMON_SPACE_CORE)
			e->cpu = -1;
	}
	if (!pmon_machine_pmu_present(s->m, e->pmu, e->socket))
		return pmon_why(s->err, sizeof(s->err), PMON_ENODEV, "%s: box not present", e->name);
	if (s->n == s->cap) {
		int cap = s->cap ? s->cap * 2 : 8;
		struct sess_event *nev = realloc(s->ev, sizeof(*nev) * (size_t)cap);
		if (nev)
			s->ev = nev;
		pmon_encoding_t **nevp = realloc(s->evp, sizeof(*nevp) * (size_t)cap);
		if (nevp)
			s->evp = nevp;
		int *nctr = realloc(s->ctr, sizeof(*nctr) * (size_t)cap);
		if (nctr)
			s->ctr = nctr;
		if (!nev || !nevp || !nctr)
			return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
		s->cap = cap;
	}
	memset(&s->ev[s->n], 0, sizeof(s->ev[s->n]));
	int rc = place_new(s, e);
	if (rc)
		return rc;
	s->ev[s->n].enc = *e;
	s->n++;
	return PMON_OK;
}

int pmon_session_clear(pmon_session_t *s)
{
	if (s->running)
		return pmon_why(s->err, sizeof(s->err), PMON_EINVAL, "cannot clear while counting");
	s->n = 0;
	return PMON_OK;
}

/* ---------------------------------------------------------------- programming */

static int wr(pmon_session_t *s, struct sess_box *bx, enum pmon_reg_kind k, int idx, uint64_t v)
{
	char why[PMON_WHY_LEN];
	int rc = pmon_reg_write(s->m, &bx->regs, k, idx, v, why, sizeof why);
	char name[160];
	if (rc) {
		pmon_reg_name(&bx->regs, k, idx, name, sizeof(name));
		pmon_why(s->err, sizeof(s->err), rc, "writing %s failed: %s", name, why);
		return rc;
	}
	for (int i = 0; i < bx->nsaved; i++)
		if (bx->saved[i].kind == k && bx->saved[i].idx == idx) {
			bx->saved[i].wrote = v;
			bx->saved[i].written = 1;
			sess_expect_written(bx, i);
		}
	return rc;
}

int sess_global_update(pmon_session_t *s, struct sess_box *bx, int enable)
{
	uint64_t g;
	char why[PMON_WHY_LEN];
	int rc = pmon_reg_read(s->m, &bx->regs, REG_GLOBAL_CTL, 0, &g, why, sizeof why);
	if (!rc) {
		g &= ~bx->global_bits;
		g |= enable ? bx->global_bits : bx->global_saved;
		rc = pmon_reg_write(s->m, &bx->regs, REG_GLOBAL_CTL, 0, g, why, sizeof why);
	}
	if (rc) {
		char name[160];
		pmon_reg_name(&bx->regs, REG_GLOBAL_CTL, 0, name, sizeof(name));
		pmon_why(s->err, sizeof(s->err), rc, "updating %s failed: %s", name, why);
	}
	return rc;
}

static int freeze_all(pmon_session_t *s, uint32_t value)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		if (freezable(bx)) {
			int rc = wr(s, bx, REG_BOX_CTL, 0, value);
			if (rc)
				return rc;
		}
	}
	return PMON_OK;
}

/* The uncore guide lists a box control's bits as write-only; where its
 * freeze bits read back what pmon wrote, sess_verify() checks them like the other
 * controls (an outside freeze stops the counts).  Read once the boxes run. */
static int box_ctl_readable(pmon_session_t *s)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		for (int i = 0; i < bx->nsaved; i++) {
			struct saved_reg *r = &bx->saved[i];
			if (r->kind != REG_BOX_CTL || !r->written)
				continue;
			uint64_t v;
			char why[PMON_WHY_LEN], name[160];
			int rc = pmon_reg_read(s->m, &bx->regs, REG_BOX_CTL, 0, &v, why, sizeof why);
			if (rc) {
				pmon_reg_name(&bx->regs, REG_BOX_CTL, 0, name, sizeof(name));
				return pmon_why(s->err, sizeof(s->err), rc, "reading %s back failed: %s", name, why);
			}
			r->vmask = (v & BOX_CTL_KEPT) == (r->wrote & BOX_CTL_KEPT) ? BOX_CTL_KEPT : 0;
			sess_expect_written(bx, i);
		}
	}
	return PMON_OK;
}

/* Program one event's control, and the box filters it uses. */
static int program(pmon_session_t *s, struct sess_event *e)
{
	struct sess_box *bx = &s->boxes[e->box];
	const struct pmon_box_type *t = bx->regs.t;
	int rc;
	for (int r = 0; r < t->nfregs; r++) {
		if (!sess_uses_filter(s, e->box, r))
			continue;
		/* fields of several events merge, those of other running
		 * sessions' events too: they agree where they overlap */
		uint64_t v = sess_others_filter(s, bx, r);
		for (int i = 0; i < s->n; i++)
			if (s->ev[i].box == e->box)
				v |= s->ev[i].enc.filt[t->fregs[r].word];
		if ((rc = wr(s, bx, REG_FILTER, r, v & t->fregs[r].valid)))
			return rc;
	}
	if (e->counter < 0)
		return wr(s, bx, REG_FIXED_CTL, 0, t->fixed_en);
	return wr(s, bx, REG_CTL, e->counter, e->enc.ctl | PMON_CTL_EN);
}

/* The UBox has neither freeze nor global control: it is programmed after
 * the frozen read (the others cannot count yet then).  A gated box is
 * programmed before it, its counters enabled in the global control after. */
static int late(const struct sess_box *bx) { return !freezable(bx) && !gated(bx); }

/* The stop's freeze of the gated boxes, after the final read: the
 * session's enable bits cleared (put back as they were), so that nothing
 * counts while the registers are put back. */
static int disable_gated(pmon_session_t *s)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		if (!gated(bx) || !bx->global_on)
			continue;
		int rc = sess_global_update(s, bx, 0);
		if (rc)
			return rc;
		bx->global_on = 0;
	}
	return PMON_OK;
}

static int start_locked(pmon_session_t *s)
{
	int rc;
	char left[1024], kept[1024];
	if ((rc = sess_prepare(s)) || (rc = sess_plan_reads(s)) || (rc = sess_journal_boxes(s))) {
		sess_release_locks(s);
		return rc;
	}
	if ((rc = freeze_all(s, PMON_BOX_FRZ_EN | PMON_BOX_FRZ)))
		goto undo;
	for (int i = 0; i < s->n; i++)
		if (!late(&s->boxes[s->ev[i].box]) && (rc = program(s, &s->ev[i])))
			goto undo;
	/* read once frozen: a counter that cannot be read undoes the start
	 * before anything counts (the baselines come from the read below) */
	uint64_t now;
	if ((rc = read_counters(s, BY_OWNER, &now, s->err, sizeof(s->err))))
		goto undo;
	for (int i = 0; i < s->n; i++) {
		s->ev[i].last = s->ev[i].seen = *s->ev[i].raw[BY_OWNER];
		s->ev[i].total = 0;
	}
	for (int i = 0; i < s->n; i++)
		if (late(&s->boxes[s->ev[i].box]) && (rc = program(s, &s->ev[i])))
			goto undo;
	for (int b = 0; b < s->nboxes; b++) {
		if (gated(&s->boxes[b]) && s->boxes[b].global_bits &&
		    (rc = sess_global_update(s, &s->boxes[b], 1)))
			goto undo;
		s->boxes[b].global_on = s->boxes[b].global_bits != 0;
	}
	if ((rc = freeze_all(s, PMON_BOX_FRZ_EN)) || (rc = box_ctl_readable(s)))
		goto undo;
	/* The window's start (pmon_session_read_ns): every counter read again,
	 * running, and the baselines taken from that read, stamped with its
	 * instant (the emulated machine's, at which it read them all; on
	 * hardware right after the reads).  A stamp of the clock between the
	 * enables and the unfreeze would be apart from both by whatever the
	 * process was held up there (preempted): counts before the window or
	 * a window before the counts. */
	uint64_t began;
	if ((rc = read_counters(s, BY_OWNER, &began, s->err, sizeof(s->err))))
		goto undo;
	for (int i = 0; i < s->n; i++)
		s->ev[i].last = s->ev[i].seen = *s->ev[i].raw[BY_OWNER];
	if ((rc = sess_journal_wrote(s)))
		goto undo;
	if ((rc = sess_fold_setup(s))) {
		pmon_why(s->err, sizeof(s->err), rc, "cannot start the fold thread of the machine");
		goto undo;
	}
	static uint64_t starts;
	s->owner_at = began;
	s->seq = __atomic_add_fetch(&starts, 1, __ATOMIC_RELAXED);
	s->running = 1;
	return PMON_OK;
undo:
	return sess_restore_error(s, rc, sess_restore_all(s, left, sizeof(left), kept, sizeof(kept)), left, kept);
}

int pmon_session_start(pmon_session_t *s)
{
	if (s->running)
		return pmon_why(s->err, sizeof(s->err), PMON_EINVAL, "already counting");
	if (!s->n)
		return pmon_why(s->err, sizeof(s->err), PMON_EINVAL, "no events to count");
	pmon_registry_lock(&s->m->sessions);
	int rc = start_locked(s);
	pmon_registry_unlock(&s->m->sessions);
	return rc;
}

int pmon_session_stop(pmon_session_t *s, uint64_t *values)
{
	char left[1024], kept[1024];
	if (!s->running)
		return pmon_why(s->err, sizeof(s->err), PMON_EINVAL, "not counting");
	pmon_registry_lock(&s->m->sessions);
	/* what another agent changed is found before anything is written; the
	 * boxes are frozen for the restore only when none was */
	int rc = sess_find_taken(s, s->err, sizeof(s->err));
	if (s->fault)
		rc = pmon_why(s->err, sizeof(s->err), s->fault, "%s", s->fault_msg);
	/* The final read, of the running counters: the window ends at its
	 * instant (pmon_session_read_ns), as the start's began at its read.
	 * Read after the freeze, it would end the window later than the counts
	 * by whatever held the process up between the two (a preemption: ms of
	 * window with nothing counted). */
	/* a takeover or a fault found before the read (as before: the
	 * restore alone puts the controls and the global enables back) */
	int taken = rc != 0;
	if (!rc && (rc = sess_check_and_fold(s, BY_OWNER, values, 1, NULL, s->err, sizeof(s->err))) == PMON_EBUSY) {
		/* the final check stops at the first change: mark every one */
		char why[sizeof(s->err)];
		sess_find_taken(s, why, sizeof(why));
		taken = 1;
	}
	if (!taken) {                      /* a final read's ESTALE still freezes */
		int frc = freeze_all(s, PMON_BOX_FRZ_EN | PMON_BOX_FRZ);
		if (!frc)
			frc = disable_gated(s);
		if (!rc)
			rc = frc;
	}
	s->running = 0;
	s->warn[0] = 0;
	rc = sess_restore_error(s, rc, sess_restore_all(s, left, sizeof(left), kept, sizeof(kept)), left, kept);
	if (s->warn[0]) {
		/* the counts stand; the journal's cleanup is a warning of its own */
		if (rc)
			pmon_why_add(s->err, sizeof(s->err), "; ", "warning: %s", s->warn);
		else {
			s->err[0] = 0;
			pmon_why_add(s->err, sizeof(s->err), "", "warning: %s", s->warn);
		}
		fprintf(stderr, "pmon: warning: %s\n", s->warn);
	}
	pmon_registry_unlock(&s->m->sessions);
	return rc;
}

static void session_free(pmon_session_t *s)
{
	pmon_reg_plan_free(&s->plan[BY_OWNER]);
	pmon_reg_plan_free(&s->plan[BY_FOLD]);
	free(s->boxes);
	free(s->ev);
	free(s->evp);
	free(s->ctr);
	free(s);
}

void pmon_session_destroy(pmon_session_t *s)
{
	if (!s)
		return;
	if (s->running)
		pmon_session_stop(s, NULL);
	pmon_registry_remove(&s->m->sessions, s);
	session_free(s);
}
