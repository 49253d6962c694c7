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
 *         take each counter's starting value while frozen, program the UBox
 *         last (it cannot be frozen), enable the core counters in
 *         IA32_PERF_GLOBAL_CTRL, unfreeze.
 * read:   per counter, delta = (raw - last) mod 2^width, total += delta; so a
 *         counter may wrap once between reads and the 64-bit total stays exact.
 * stop:   freeze, final read, write back every saved register, release the
 *         boxes.  Counters themselves are never written (totals come from
 *         deltas, no reset needed).
 * Registers shared with another running session of the same machine are
 * handed over rather than restored: a filter holds the fields of every
 * running session that uses it (a session starting after another saves the
 * other's original, not its value), one that stops takes only its own fields
 * away, and the original comes back when the last user stops;
 * IA32_PERF_GLOBAL_CTRL is changed only in the
 * session's own bits, and a box another session still uses is released
 * unfrozen.  Box controls are write-only in silicon, so their earlier value
 * cannot be saved; an unused box is left at 0, its power-on state.
 *
 * Between processes (and machine handles): before its read-only pre-pass a
 * start takes the kernel-held lock of every box it uses (boxlock.h) and
 * refuses, writing nothing, when another owner holds one, naming the box,
 * a register it needs and the holder's pid (PMON_FORCE=1 takes the box over,
 * loudly).  On the hardware it then journals the registers it will change
 * (journal.h) so that `pmon reset` can undo a crash.  Every read, fold and
 * stop checks that the controls and filters still hold what the session
 * wrote; a changed one fails the read with PMON_EBUSY naming the register.
 * A register found so changed (by a read, a fold, or the stop, which reads
 * every register it wrote before writing any, and marks every changed one
 * when its final check finds one) is another agent's from then on: the stop
 * leaves it as found, names it with the value found (PMON_EBUSY) and marks
 * it in the journal as not pmon's, so that `pmon reset` leaves it too; it
 * does not freeze the boxes then (no count is returned).  Unless the stop
 * finds it holding all of what pmon wrote again (given back): then it is
 * put back like the others, and pmon's event does not stay counting.  "Holding what
 * pmon wrote" is what the checks compare: a control whole, a filter in the
 * fields of the session's events, a box control in its freeze bits where
 * they read back at start (else it cannot be told and is put back as
 * before), IA32_PERF_GLOBAL_CTRL in the session's enable bits.  The stop
 * restores every other register it can, retries the ones that fail, and
 * returns an error naming each register left changed (its journal entries
 * then stay for `pmon reset`).  The machine folds running sessions well
 * within their counters' wrap time (fold.h); a read after a longer gap fails
 * with PMON_ESTALE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "regs.h"
#include "enabled.h"
#include "assign.h"
#include "rsp.h"
#include "why.h"
#include "journal.h"

struct sess_event {
	pmon_encoding_t enc;
	int counter;              /* -1: fixed */
	int box;                  /* index into boxes[] */
	uint64_t last, total;     /* while running, changed under fold_begin/fold_end only */
	const uint64_t *raw[2];   /* its counter's value at the last read of each reader */
	uint64_t wmask;           /* its counter's width */
	uint64_t slack;           /* what a delta may exceed the box's rate by (plausible) */
	uint64_t seen;            /* its counter at the owner's last read (the owner's thread
				     alone: read_unlocked, accumulate) */
};

struct saved_reg {
	enum pmon_reg_kind kind;
	int idx;
	uint64_t value;
	uint64_t wrote;           /* what the session wrote, checked while counting */
	int written;
	uint64_t vmask;           /* the bits of it checked (plan_reads) */
	int taken;                /* found no longer holding wrote (in the bits of vmask):
				     another agent's now, never written again (mark_taken) */
	int back;                 /* taken, yet holding wrote again at the stop's check:
				     the other agent gave it back, so the stop restores it */
	uint64_t found;           /* what was found in it then */
};

struct sess_box {
	struct pmon_box_regs regs;
	struct saved_reg saved[16];
	int nsaved;
	uint32_t ctr_mask;        /* counters the session's events use (regs.h) */
	/* by reader (enum reader): */
	uint64_t raw[2][PMON_MAX_COUNTERS + 1];  /* their values at the last read */
	struct pmon_reg_also also[2][16];       /* saved[i], read beside the counters */
	uint64_t global_bits;     /* core PMU: our enable bits in IA32_PERF_GLOBAL_CTRL */
	uint64_t global_saved;    /* their values before start */
	int global_on;            /* start set them */
	int global_taken;         /* found cleared by another agent (global_found) */
	uint64_t global_found;
	char lock[80];            /* boxlock name */
	int locked;               /* 1: holds a reference on the box lock */
	int drop_lines;           /* restore_all: its journal lines are to go */
	const volatile uint32_t *forced; /* its lock's mark: another process's pid once it took
					    the box by force (pmon_boxlock_mark) */
};

/* Who reads the counters: the session's own calls (its owner's thread,
 * without the registry lock when it can: read_unlocked), or the machine's
 * fold (another thread, always under the lock).  Each has a read plan and
 * buffers of its own, so the two never write the same memory. */
enum reader { BY_OWNER, BY_FOLD };

struct pmon_session {
	struct pmon_machine *m;
	struct sess_event *ev;
	int n, cap;
	/* room for cap events: their encodings and counters while placing one */
	pmon_encoding_t **evp;
	int *ctr;
	struct sess_box *boxes;
	int nboxes;
	struct pmon_reg_plan plan[2]; /* how read_counters reads them all, by reader */
	unsigned fold_seq;        /* odd while the fold state changes (fold_begin) */
	int running;
	uint64_t seq;             /* start order (the earliest user of a filter holds its original) */
	uint64_t bound_ns;        /* longest gap between folds that stays exact */
	uint64_t last_fold;       /* backend clock at the last fold */
	uint64_t last_verify;     /* backend clock at the last full verification */
	uint64_t seen_at;         /* backend clock at the owner's last read (ev[].seen) */
	uint64_t owner_at;        /* backend clock of the owner's last totals (pmon_session_read_ns) */
	uint64_t fast_until;      /* the last clock at which a read needs neither a fold nor
	                             the full check (set_fast_until) */
	int fault;                /* error found by a fold, reported by the next read */
	char fault_msg[1024];
	char err[1024];
	char warn[1024];          /* the last stop's journal cleanup that failed (restore_all) */
};

#define SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)
#define GET(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

/* A read by the owner without the lock (read_unlocked) keeps the fold state
 * as it is while the backend clock is at most fast_until: a fold is due
 * when the last is older than half the bound (what keeps (raw - last) from
 * having wrapped), and a full check (which folds too) PMON_VERIFY_NS after
 * the last.  Set with last_fold and last_verify (both at most the clock of
 * any later read, so the differences the rules speak of are the same as
 * this bound). */
/* What a delta may exceed the box's rate by (plausible_ns): on silicon
 * 2^26, the counts of 262 us at that rate (the backend's clock is read
 * once for a batch of reads, which take microseconds each); on the
 * emulated machine, which counts memory traffic without emulated time
 * passing, 1/16 of the counter's range. */
#define PLAUSIBLE_SLACK_HW (1ull << 26)
#define PLAUSIBLE_SLACK_SIM_SHIFT 4

static void set_fast_until(pmon_session_t *s)
{
	uint64_t fold = s->last_fold + s->bound_ns / 2, check = s->last_verify + PMON_VERIFY_NS - 1;
	SET(s->fast_until, fold < check ? fold : check);
}

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

/* ---------------------------------------------------------------- boxes */

static int is_core(const struct sess_box *bx) { return bx->regs.t->space == PMON_SPACE_CORE; }
static int freezable(const struct sess_box *bx) { return bx->regs.t->has_box_ctl && !is_core(bx); }

static int same_box(const struct pmon_box_regs *a, const struct pmon_box_regs *b)
{
	return a->pmu == b->pmu && a->socket == b->socket &&
	       (a->t->space != PMON_SPACE_CORE || a->cpu == b->cpu);
}

static int box_of(pmon_session_t *s, const pmon_encoding_t *e)
{
	const struct pmon_box_type *t = pmon_catalog_pmu(e->pmu)->type;
	int cpu = t->space == PMON_SPACE_CORE ? e->cpu : -1;
	struct sess_box *bx = &s->boxes[s->nboxes];
	memset(bx, 0, sizeof(*bx));
	if (pmon_regs_resolve(s->m, e->pmu, e->socket, cpu, &bx->regs))
		return -1;
	for (int b = 0; b < s->nboxes; b++)
		if (same_box(&s->boxes[b].regs, &bx->regs))
			return b;
	return s->nboxes++;
}

/* Does the filter register r of box bx carry a field some event of s uses? */
static int uses_filter(const pmon_session_t *s, int box, int r)
{
	const struct pmon_box_type *t = s->boxes[box].regs.t;
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].box != box)
			continue;
		for (int f = 0; f < t->nfields; f++)
			if ((s->ev[i].enc.fields_used & (1u << f)) && t->fields[f].word == t->fregs[r].word)
				return 1;
	}
	return 0;
}

static struct sess_box *filter_user(pmon_session_t *s, const struct sess_box *bx, int r);
static struct sess_box *successor(pmon_session_t *s, const struct sess_box *bx);
static const struct saved_reg *taken_by_other(pmon_session_t *s, const struct sess_box *bx,
					      enum pmon_reg_kind k, int idx);

/* The bits of a box control pmon saves, checks and restores: the freeze
 * bits (the reset bits act once and are never kept). */
#define BOX_CTL_KEPT ((uint64_t)(PMON_BOX_FRZ_EN | PMON_BOX_FRZ))
static uint64_t saved_value(const struct sess_box *bx, enum pmon_reg_kind k, int idx);

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
	const struct saved_reg *t = taken_by_other(s, bx, k, idx);
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
	const struct sess_box *o = k == REG_FILTER ? filter_user(s, bx, idx)
				   : k == REG_BOX_CTL ? successor(s, bx) : NULL;
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
			       pmon_catalog_pmu(bx->regs.pmu)->name, why);
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

/* Session i of the machine (caller holds the registry lock). */
static pmon_session_t *session_at(const pmon_session_t *s, int i)
{
	return pmon_registry_item(&s->m->sessions, i);
}

/* The next running session other than s after registry index *o (start
 * with *o = -1), NULL after the last.  Caller holds the registry lock. */
static pmon_session_t *next_other(const pmon_session_t *s, int *o)
{
	while (++*o < pmon_registry_count(&s->m->sessions)) {
		pmon_session_t *x = session_at(s, *o);
		if (x != s && x->running)
			return x;
	}
	return NULL;
}

/* Register k idx of bx's box as another running session saved it, when
 * that session found it taken over by another agent (mark_taken); else
 * NULL.  Caller holds the registry lock. */
static const struct saved_reg *taken_by_other(pmon_session_t *s, const struct sess_box *bx,
					      enum pmon_reg_kind k, int idx)
{
	pmon_session_t *x;
	for (int o = -1; (x = next_other(s, &o));)
		for (int b = 0; b < x->nboxes; b++)
			for (int j = 0; same_box(&x->boxes[b].regs, &bx->regs) && j < x->boxes[b].nsaved; j++)
				if (x->boxes[b].saved[j].kind == k && x->boxes[b].saved[j].idx == idx &&
				    x->boxes[b].saved[j].taken)
					return &x->boxes[b].saved[j];
	return NULL;
}

/* The box of another running session that is bx's box and uses its filter
 * register r, or NULL.  Caller holds the registry lock. */
static struct sess_box *filter_user(pmon_session_t *s, const struct sess_box *bx, int r)
{
	pmon_session_t *x;
	for (int o = -1; (x = next_other(s, &o));) {
		for (int b = 0; b < x->nboxes; b++)
			if (same_box(&x->boxes[b].regs, &bx->regs) && uses_filter(x, b, r))
				return &x->boxes[b];
	}
	return NULL;
}

static int forced(void)
{
	const char *f = getenv("PMON_FORCE");
	return f && !strcmp(f, "1");
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
				       pmon_catalog_pmu(bx->regs.pmu)->name, why);
		busy[b] = w.ctls;
		/* a control another running session found taken over is that
		 * agent's, enabled or not: never placed on again */
		for (int c = 0; c < bx->regs.t->ncounters; c++)
			if (!(busy[b] & (1u << c)) && taken_by_other(s, bx, REG_CTL, c)) {
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
	if (rc && forced())
		return PMON_OK;
	if (rc)
		return pmon_why(s->err, sizeof(s->err), PMON_EBUSY, "counters in use by another agent (perf, another session, "
			       "LIKWID, PCM) leave too few free; enabled now: %s%s%s. %s%s%s", found,
			       ntaken ? "; taken over while a session of this process counted: " : "",
			       taken, sched_why,
			       s->m->pmu_users[0] ? ". Seen on this machine: " : "", s->m->pmu_users);
	return PMON_OK;
}

/* ---------------------------------------------------------------- ownership */

/* A register the session needs in box b, for messages: a filter it uses,
 * else the control of its first event there. */
static void needed_reg(const pmon_session_t *s, int b, char *buf, size_t len)
{
	const struct sess_box *bx = &s->boxes[b];
	for (int r = 0; r < bx->regs.t->nfregs; r++)
		if (uses_filter(s, b, r)) {
			pmon_reg_name(&bx->regs, REG_FILTER, r, buf, len);
			return;
		}
	for (int i = 0; i < s->n; i++)
		if (s->ev[i].box == b) {
			if (s->ev[i].counter < 0)
				pmon_reg_name(&bx->regs, REG_FIXED_CTL, 0, buf, len);
			else
				pmon_reg_name(&bx->regs, REG_CTL, s->ev[i].counter, buf, len);
			return;
		}
	snprintf(buf, len, "%s", pmon_catalog_pmu(bx->regs.pmu)->name);
}

static void release_locks(pmon_session_t *s)
{
	for (int b = 0; b < s->nboxes; b++)
		if (s->boxes[b].locked) {
			pmon_boxlock_drop(&s->m->locks, s->boxes[b].lock);
			s->boxes[b].locked = 0;
		}
}

/* Own every box of the session against other processes and machine
 * handles; refuse, with nothing written, when another owner holds one. */
static int take_locks(pmon_session_t *s)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		char why[512], reg[160];
		long holder;
		pmon_boxlock_name(bx->lock, sizeof(bx->lock), pmon_catalog_pmu(bx->regs.pmu)->name,
				  bx->regs.socket, is_core(bx) ? bx->regs.cpu : -1);
		int rc = pmon_boxlock_take(&s->m->locks, bx->lock, &holder, why, sizeof(why));
		bx->forced = NULL;
		if (rc == PMON_OK) {
			bx->locked = 1;
			bx->forced = pmon_boxlock_mark(&s->m->locks, bx->lock);
			continue;
		}
		needed_reg(s, b, reg, sizeof(reg));
		if (rc == PMON_EBUSY && forced()) {
			/* the owner is told at its next read (forced_by) */
			char w[512];
			int mr = pmon_boxlock_force(&s->m->locks, bx->lock, w, sizeof(w));
			fprintf(stderr, "pmon: PMON_FORCE=1: TAKING OVER %s (needed: %s) although %s; "
				"the other owner's counts and ours will both be wrong%s%s\n", bx->lock, reg,
				why, mr ? "; and the owner cannot be told: " : "", mr ? w : "");
			continue;
		}
		release_locks(s);
		if (rc == PMON_EBUSY)
			return pmon_why(s->err, sizeof(s->err), PMON_EBUSY, "%s is busy: %s; this session needs %s. Nothing "
				       "was written (%s; PMON_FORCE=1 takes the box over)",
				       bx->lock, why, reg, holder == (long)getpid()
				       ? "stop the other handle's sessions on it first, or count through one handle"
				       : "wait for it to stop");
		return pmon_why(s->err, sizeof(s->err), rc, "cannot own %s: %s", bx->lock, why);
	}
	return PMON_OK;
}

/* On the hardware, journal the original values of everything the session
 * will change, before the first write (journal.h). */
static int journal_boxes(pmon_session_t *s)
{
	if (s->m->emulated)
		return PMON_OK;
	/* one rewrite of a socket's journal for all the session's boxes there */
	for (int b0 = 0; b0 < s->nboxes; b0++) {
		int sock = s->boxes[b0].regs.socket, n = 0, dup = 0;
		for (int b = 0; b < b0 && !dup; b++)
			dup = s->boxes[b].regs.socket == sock;
		if (dup)
			continue;
		struct pmon_journal_entry *e = calloc((size_t)s->nboxes * 17, sizeof(*e));
		if (!e)
			return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
		for (int b = b0; b < s->nboxes; b++) {
			struct sess_box *bx = &s->boxes[b];
			if (bx->regs.socket != sock)
				continue;
			for (int i = 0; i <= bx->nsaved && i < 17; i++) {
				if (i == bx->nsaved && !(is_core(bx) && bx->global_bits))
					continue;
				snprintf(e[n].box, sizeof(e[n].box), "%s", pmon_catalog_pmu(bx->regs.pmu)->name);
				e[n].cpu = is_core(bx) ? bx->regs.cpu : -1;
				e[n].kind = i < bx->nsaved ? bx->saved[i].kind : REG_GLOBAL_CTL;
				e[n].idx = i < bx->nsaved ? bx->saved[i].idx : 0;
				e[n].value = i < bx->nsaved ? bx->saved[i].value : bx->global_saved;
				e[n].mask = i < bx->nsaved ? ~0ull : bx->global_bits;
				n++;
			}
		}
		char why[1024];
		int rc = pmon_journal_add(s->m->run_dir, sock, e, n, why, sizeof(why));
		free(e);
		if (rc)
			return pmon_why(s->err, sizeof(s->err), rc, "cannot journal the registers of socket "
					"%d's boxes before changing them: %s. Nothing was written", sock, why);
	}
	return PMON_OK;
}

/* On the hardware, after the start has written everything: record what it
 * wrote beside the original values (journal.h), one rewrite per socket, so
 * that `pmon reset` never puts an original back over a register that no
 * longer holds what pmon wrote. */
static int journal_wrote(pmon_session_t *s)
{
	if (s->m->emulated)
		return PMON_OK;
	for (int b0 = 0; b0 < s->nboxes; b0++) {
		int sock = s->boxes[b0].regs.socket, n = 0, dup = 0;
		for (int b = 0; b < b0 && !dup; b++)
			dup = s->boxes[b].regs.socket == sock;
		if (dup)
			continue;
		struct pmon_journal_entry *e = calloc((size_t)s->nboxes * 17, sizeof(*e));
		if (!e)
			return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
		for (int b = b0; b < s->nboxes; b++) {
			struct sess_box *bx = &s->boxes[b];
			if (bx->regs.socket != sock)
				continue;
			for (int i = 0; i <= bx->nsaved && i < 17; i++) {
				if (i < bx->nsaved ? !bx->saved[i].written : !(is_core(bx) && bx->global_bits))
					continue;
				snprintf(e[n].box, sizeof(e[n].box), "%s", pmon_catalog_pmu(bx->regs.pmu)->name);
				e[n].cpu = is_core(bx) ? bx->regs.cpu : -1;
				e[n].kind = i < bx->nsaved ? bx->saved[i].kind : REG_GLOBAL_CTL;
				e[n].idx = i < bx->nsaved ? bx->saved[i].idx : 0;
				e[n].wrote = i < bx->nsaved ? bx->saved[i].wrote : bx->global_bits;
				n++;
			}
		}
		char why[1024];
		int rc = pmon_journal_wrote(s->m->run_dir, sock, e, n, why, sizeof(why));
		free(e);
		if (rc)
			return pmon_why(s->err, sizeof(s->err), rc, "cannot record in the journal what pmon "
					"wrote: %s", why);
	}
	return PMON_OK;
}

/* The bits of filter register r of box b that the session's events set. */
static uint64_t filter_mask(const pmon_session_t *s, int b, int r)
{
	const struct pmon_box_type *t = s->boxes[b].regs.t;
	if (t->fregs[r].whole)
		return t->fregs[r].valid;
	uint64_t m = 0;
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].box != b)
			continue;
		for (int f = 0; f < t->nfields; f++)
			if ((s->ev[i].enc.fields_used & (1u << f)) && t->fields[f].word == t->fregs[r].word)
				m |= (t->fields[f].width >= 64 ? ~0ull
				      : ((1ull << t->fields[f].width) - 1)) << t->fields[f].shift;
	}
	return m & t->fregs[r].valid;
}

/* The fields of filter register r of bx's box that other running sessions
 * use, as they set them.  Caller holds the registry lock. */
static uint64_t others_filter(pmon_session_t *s, const struct sess_box *bx, int r)
{
	uint64_t v = 0;
	pmon_session_t *x;
	for (int o = -1; (x = next_other(s, &o));) {
		for (int b = 0; b < x->nboxes; b++) {
			if (!same_box(&x->boxes[b].regs, &bx->regs) || !uses_filter(x, b, r))
				continue;
			uint64_t mask = filter_mask(x, b, r);
			for (int i = 0; i < x->n; i++)
				if (x->ev[i].box == b)
					v |= x->ev[i].enc.filt[bx->regs.t->fregs[r].word] & mask;
		}
	}
	return v;
}

/* Register r of bx holds v, not what the session wrote: another agent's
 * from now on (stop and `pmon reset` leave it as found), for every running
 * session of the machine that has it.  Caller holds the registry lock. */
static void mark_taken(pmon_session_t *s, struct sess_box *bx, struct saved_reg *r, uint64_t v)
{
	pmon_session_t *x;
	r->taken = 1;
	r->found = v;
	for (int o = -1; (x = next_other(s, &o));)
		for (int b = 0; b < x->nboxes; b++)
			for (int j = 0; same_box(&x->boxes[b].regs, &bx->regs) && j < x->boxes[b].nsaved; j++)
				if (x->boxes[b].saved[j].kind == r->kind && x->boxes[b].saved[j].idx == r->idx) {
					x->boxes[b].saved[j].taken = 1;
					x->boxes[b].saved[j].found = v;
				}
}

/* Do the controls and filters still hold what the session wrote?  Those a
 * PCI box's counter block brought along at who's read (read_counters has
 * just run) are checked from it; the others (MSR boxes, a PCI box's
 * match/mask function, the global control) only when full (doc/internals.md, "How
 * counters are read": every fold, stop and reset, and a read at least
 * PMON_VERIFY_NS after the last full check).  The reason goes to err
 * (errlen bytes). */
/* Register i of bx as verify() checks it (fresh: read now, even when
 * who's last read of the counters' block brought it). */
static int check_saved(pmon_session_t *s, struct sess_box *bx, int i, enum reader who, int full,
		       int fresh, char *err, size_t errlen)
{
	struct saved_reg *r = &bx->saved[i];
	if (!r->written)
		return PMON_OK;
	int in_block = !fresh && bx->also[who][i].got;
	if (!in_block && !full)
		return PMON_OK;
	uint64_t v = bx->also[who][i].val, mask = r->vmask;
	char why[PMON_WHY_LEN], name[160];
	int rc = in_block ? PMON_OK : pmon_reg_read(s->m, &bx->regs, r->kind, r->idx, &v, why, sizeof why);
	if (rc || ((v ^ r->wrote) & mask))   /* named only when it is reported */
		pmon_reg_name(&bx->regs, r->kind, r->idx, name, sizeof(name));
	if (rc)
		return pmon_why(err, errlen, rc, "checking %s failed: %s", name, why);
	if (!((v ^ r->wrote) & mask)) {
		/* the stop's check (fresh): a register found taken holds all
		 * of what pmon wrote again (every bit: a shared filter's other
		 * fields may be what changed), its enable bit too: not left
		 * counting */
		if (fresh && r->taken)
			r->back = v == r->wrote;
		return PMON_OK;
	}
	r->back = 0;
	mark_taken(s, bx, r, v);
	return pmon_why(err, errlen, PMON_EBUSY, "%s no longer holds what pmon wrote: another "
		       "agent (perf, the NMI watchdog, another tool) changed it "
		       "while pmon was counting, so the counts are not "
		       "trustworthy and none is returned", name);
}

/* Does IA32_PERF_GLOBAL_CTRL of core box bx still enable the session's
 * counters (once start set them)?  Else it is another agent's
 * (global_taken). */
static int check_global(pmon_session_t *s, struct sess_box *bx, char *err, size_t errlen)
{
	if (!is_core(bx) || !bx->global_bits || !bx->global_on)
		return PMON_OK;
	uint64_t g;
	char why[PMON_WHY_LEN], name[160];
	int rc = pmon_reg_read(s->m, &bx->regs, REG_GLOBAL_CTL, 0, &g, why, sizeof why);
	if (rc || (g & bx->global_bits) != bx->global_bits)
		pmon_reg_name(&bx->regs, REG_GLOBAL_CTL, 0, name, sizeof(name));
	if (rc)
		return pmon_why(err, errlen, rc, "checking %s failed: %s", name, why);
	if ((g & bx->global_bits) == bx->global_bits)
		return PMON_OK;
	bx->global_taken = 1;
	bx->global_found = g;
	return pmon_why(err, errlen, PMON_EBUSY, "%s no longer enables pmon's counters: another "
		       "agent changed it while pmon was counting, so the counts "
		       "are not trustworthy and none is returned", name);
}

static int verify(pmon_session_t *s, enum reader who, int full, char *err, size_t errlen)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		for (int i = 0; i < bx->nsaved; i++) {
			int rc = check_saved(s, bx, i, who, full, 0, err, errlen);
			if (rc)
				return rc;
		}
		int rc = full ? check_global(s, bx, err, errlen) : PMON_OK;
		if (rc)
			return rc;
	}
	return PMON_OK;
}

/* Before stop writes anything (its freeze rewrites the box controls):
 * every register the session wrote, read now, and each one changed marked
 * another agent's (check_saved, check_global), not only the first.  The
 * first failure or change goes to err; PMON_EBUSY too when none is found
 * now but one was before. */
static int find_taken(pmon_session_t *s, char *err, size_t errlen)
{
	int first = 0, taken = 0;
	char why[sizeof(s->err)];
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		for (int i = 0; i <= bx->nsaved; i++) {
			/* (a register of no checked bit is not read) */
			int rc = i == bx->nsaved ? check_global(s, bx, why, sizeof why)
				 : bx->saved[i].vmask ? check_saved(s, bx, i, BY_OWNER, 1, 1, why, sizeof why)
				 : PMON_OK;
			if (rc && !first)
				first = pmon_why(err, errlen, rc, "%s", why);
			taken |= i < bx->nsaved ? bx->saved[i].taken : bx->global_taken;
		}
	}
	if (!first && taken)
		first = pmon_why(err, errlen, PMON_EBUSY, "another agent changed registers pmon wrote while "
				 "pmon was counting, so the counts are not trustworthy and none is returned");
	return first;
}

/* Do the registers that came with the counters' blocks at who's read
 * hold what was written?  The read's plan checked them (each also[who][i]
 * of a written register expects what was written, in the bits of vmask:
 * plan_reads, wr, restore_all). */
static int blocks_intact(const pmon_session_t *s, enum reader who)
{
	return !s->plan[who].differs;
}

/* Register i of bx, as the reads' plans check it: what the session wrote
 * there, in the bits of vmask; nothing once it is no longer written
 * (restore_all). */
static void expect_written(struct sess_box *bx, int i)
{
	for (int w = BY_OWNER; w <= BY_FOLD; w++) {
		bx->also[w][i].expect = bx->saved[i].wrote;
		bx->also[w][i].check = bx->saved[i].written ? bx->saved[i].vmask : 0;
	}
}

/* verify(s, who, 0): quick when they do; verify() names a mismatch. */
static int verify_read(pmon_session_t *s, enum reader who, char *err, size_t errlen)
{
	return blocks_intact(s, who) ? PMON_OK : verify(s, who, 0, err, errlen);
}

/* The read-only pre-pass: resolve boxes, save registers, refuse busy ones.
 * Caller holds the registry lock. */
static int prepare(pmon_session_t *s)
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
	if ((rc = take_locks(s)))
		return rc;

	/* shared filters against the sessions already running; offcore events
	 * take an RSP register the others leave free (rsp.h) */
	int total = s->n;
	const pmon_session_t *x;
	for (int o = -1; (x = next_other(s, &o));)
		total += x->n;
	pmon_encoding_t *all = malloc(sizeof(*all) * (size_t)total);
	if (!all)
		return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
	int k = 0;
	for (int o = -1; (x = next_other(s, &o));)
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
		if ((saved_value(bx, ck, idx) & en) && !forced())
			return pmon_why(s->err, sizeof(s->err), PMON_EBUSY,
				       "%s: %s %s on socket %d is already enabled (control 0x%llx): "
				       "another agent (perf, another session, LIKWID, PCM) is counting "
				       "with it, so pmon leaves it alone%s%s",
				       e->enc.name, pmon_catalog_pmu(bx->regs.pmu)->name,
				       e->counter < 0 ? "fixed counter" : "counter", bx->regs.socket,
				       (unsigned long long)saved_value(bx, ck, idx),
				       s->m->pmu_users[0] ? ". Seen on this machine: " : "", s->m->pmu_users);
		if (is_core(bx))
			bx->global_bits |= 1ull << e->counter;
		bx->ctr_mask |= e->counter < 0 ? PMON_FIXED_BIT : 1u << e->counter;
	}
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		for (int r = 0; r < bx->regs.t->nfregs; r++)
			if (uses_filter(s, b, r) && (rc = save(s, bx, REG_FILTER, r)))
				return rc;
		if (freezable(bx) && (rc = save(s, bx, REG_BOX_CTL, 0)))
			return rc;
		if (is_core(bx) && bx->global_bits) {
			uint64_t g;
			if ((rc = pmon_reg_read(s->m, &bx->regs, REG_GLOBAL_CTL, 0, &g, why, sizeof why)))
				return pmon_why(s->err, sizeof(s->err), rc, "reading IA32_PERF_GLOBAL_CTRL failed: %s", why);
			bx->global_saved = g & bx->global_bits;
		}
	}
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
			expect_written(bx, i);
		}
	return rc;
}

static int global_update(pmon_session_t *s, struct sess_box *bx, int enable)
{
	uint64_t g;
	char why[PMON_WHY_LEN];
	int rc = pmon_reg_read(s->m, &bx->regs, REG_GLOBAL_CTL, 0, &g, why, sizeof why);
	if (!rc) {
		g &= ~bx->global_bits;
		g |= enable ? bx->global_bits : bx->global_saved;
		rc = pmon_reg_write(s->m, &bx->regs, REG_GLOBAL_CTL, 0, g, why, sizeof why);
	}
	if (rc)
		pmon_why(s->err, sizeof(s->err), rc, "updating IA32_PERF_GLOBAL_CTRL failed: %s", why);
	return rc;
}

/* Compile how read_counters() reads the session's counters: a PCI box's
 * counters and the controls verify() checks in one block access, the MSR
 * boxes' counters in one batch of the backend (one access per counter on
 * hardware); and each event's counter slot, width and checked bits.  Each
 * reader (enum reader) gets the same plan into buffers of its own, so the
 * owner's reads that take no lock (read_unlocked) and the machine's fold
 * never write the same memory.  After prepare() (boxes resolved, registers
 * saved). */
static int plan_reads(pmon_session_t *s)
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
			bx->saved[i].vmask = k == REG_FILTER ? filter_mask(s, b, bx->saved[i].idx)
					     : k == REG_BOX_CTL ? 0 : ~0ull;
			expect_written(bx, i);
		}
		for (int w = BY_OWNER; w <= BY_FOLD && bx->ctr_mask; w++)
			if ((rc = pmon_reg_plan_box(&s->plan[w], &bx->regs, bx->ctr_mask, bx->raw[w],
						    bx->also[w], nalso, why, sizeof why)))
				return pmon_why(s->err, sizeof(s->err), rc,
					       "planning the reads of the %s counters: %s",
					       pmon_catalog_pmu(bx->regs.pmu)->name, why);
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

static __attribute__((noinline, cold)) int read_failed(int rc, const struct pmon_box_regs *bad,
							 const char *why, char *err, size_t errlen)
{
	return pmon_why(err, errlen, rc, "reading the %s counters failed: %s",
		       pmon_catalog_pmu(bad->pmu)->name, why);
}

/* Every counter of the session, as plan_reads() compiled it; *now: the
 * backend's clock at those reads.  Inline: it is most of a read. */
static inline __attribute__((always_inline)) int read_counters(pmon_session_t *s, enum reader who,
							       uint64_t *now, char *err,
							       size_t errlen)
{
	char why[PMON_WHY_LEN];
	const struct pmon_box_regs *bad = NULL;
	int rc = pmon_reg_plan_run(s->m, &s->plan[who], now, &bad, why, sizeof why);
	return rc ? read_failed(rc, bad, why, err, errlen) : PMON_OK;
}

/* Another running session using the same box: the registers it shares with
 * us are its to restore.  Caller holds the registry lock. */
static struct sess_box *successor(pmon_session_t *s, const struct sess_box *bx)
{
	pmon_session_t *x;
	for (int o = -1; (x = next_other(s, &o));) {
		for (int b = 0; b < x->nboxes; b++)
			if (same_box(&x->boxes[b].regs, &bx->regs))
				return &x->boxes[b];
	}
	return NULL;
}

/* A filter of box bx that another running session uses too, or its box
 * control when another running session counts in the box, stays for it
 * (1): the sessions started after this one saved what this one wrote and
 * take over its saved value; one started before holds an older value
 * already.  The last user restores the original.  A filter no other session
 * uses (say the other RSP register of a CPU) is ours to restore (0).
 * Caller holds the registry lock. */
static int hand_over(pmon_session_t *s, const struct sess_box *bx, const struct saved_reg *r)
{
	int used = 0;
	pmon_session_t *x;
	for (int o = -1; (x = next_other(s, &o));) {
		for (int b = 0; b < x->nboxes; b++) {
			struct sess_box *xb = &x->boxes[b];
			if (!same_box(&xb->regs, &bx->regs))
				continue;
			for (int j = 0; j < xb->nsaved; j++)
				if (xb->saved[j].kind == r->kind && xb->saved[j].idx == r->idx) {
					used = 1;
					if (x->seq > s->seq)
						xb->saved[j].value = r->value;
				}
		}
	}
	return used;
}

/* Write a saved value back, trying up to three times.  A register that
 * stays changed is named in left[] and its error kept in *first. */
static int put_back(pmon_session_t *s, struct sess_box *bx, enum pmon_reg_kind k, int idx,
		    uint64_t v, char *left, size_t len, int *first)
{
	int rc = 0;
	char why[PMON_WHY_LEN] = "";
	for (int t = 0; t < 3; t++) {
		if (k == REG_GLOBAL_CTL) {
			rc = global_update(s, bx, 0);
			snprintf(why, sizeof why, "%.200s", s->err);
		} else {
			rc = pmon_reg_write(s->m, &bx->regs, k, idx, v, why, sizeof why);
		}
		if (!rc)
			return PMON_OK;
	}
	size_t n = strlen(left);
	char name[160];
	pmon_reg_name(&bx->regs, k, idx, name, sizeof(name));
	if (n < len)
		snprintf(left + n, len - n, "%s%s (%s)", n ? "; " : "", name, why);
	if (!*first)
		*first = rc;
	return rc;
}

/* A register of bx another agent took over: named in kept[] with what was
 * found in it, and journaled as not pmon's (e[*n], journal.h). */
static void keep_theirs(struct sess_box *bx, enum pmon_reg_kind k, int idx, uint64_t found,
			char *kept, size_t klen, struct pmon_journal_entry *e, int *n)
{
	char name[160];
	pmon_reg_name(&bx->regs, k, idx, name, sizeof(name));
	pmon_why_add(kept, klen, "; ", "%s = 0x%llx", name, (unsigned long long)found);
	memset(&e[*n], 0, sizeof(e[*n]));
	snprintf(e[*n].box, sizeof(e[*n].box), "%s", pmon_catalog_pmu(bx->regs.pmu)->name);
	e[*n].cpu = is_core(bx) ? bx->regs.cpu : -1;
	e[*n].kind = k;
	e[*n].idx = idx;
	e[*n].value = found;
	(*n)++;
}

/* The references this session holds on bx's box lock (its boxes of that
 * lock name). */
static int own_refs(const pmon_session_t *s, const struct sess_box *bx)
{
	int n = 0;
	for (int b = 0; b < s->nboxes; b++)
		n += s->boxes[b].locked && !strcmp(s->boxes[b].lock, bx->lock);
	return n;
}

/* Drop the journal lines of the boxes marked drop_lines, one rewrite of a
 * socket's journal for all its boxes; a failure is a warning (s->warn). */
static void drop_lines(pmon_session_t *s)
{
	for (int b0 = 0; b0 < s->nboxes; b0++) {
		int sock = s->boxes[b0].regs.socket, dup = 0, n = 0;
		if (!s->boxes[b0].drop_lines)
			continue;
		for (int b = 0; b < b0 && !dup; b++)
			dup = s->boxes[b].drop_lines && s->boxes[b].regs.socket == sock;
		if (dup)
			continue;
		struct pmon_journal_entry *e = calloc((size_t)s->nboxes, sizeof(*e));
		char why[1024];
		int rc;
		if (e) {
			for (int b = b0; b < s->nboxes; b++) {
				struct sess_box *bx = &s->boxes[b];
				if (!bx->drop_lines || bx->regs.socket != sock)
					continue;
				snprintf(e[n].box, sizeof(e[n].box), "%s", pmon_catalog_pmu(bx->regs.pmu)->name);
				e[n].cpu = is_core(bx) ? bx->regs.cpu : -1;
				n++;
			}
			rc = pmon_journal_drop_boxes(s->m->run_dir, sock, e, n, why, sizeof(why));
			free(e);
		} else {
			rc = pmon_why(why, sizeof(why), PMON_ENOMEM, "out of memory");
		}
		/* every register is back: only the record of them stays */
		for (int b = b0; rc && b < s->nboxes; b++)
			if (s->boxes[b].drop_lines && s->boxes[b].regs.socket == sock)
				pmon_why_add(s->warn, sizeof(s->warn), "; ", "%s: every register was put back, "
					     "but its journal lines could not be removed (%s); they stay "
					     "harmless: `pmon reset` writes no register that no longer holds "
					     "what pmon wrote, and removes them", s->boxes[b].lock, why);
	}
	for (int b = 0; b < s->nboxes; b++)
		s->boxes[b].drop_lines = 0;
}

/* Put back every register the session changed but those another agent
 * took over (taken: named in kept[], and in the journal as not pmon's),
 * release its boxes.  Returns 0, or the first error with left[]
 * naming every register left changed. */
static int restore_all(pmon_session_t *s, char *left, size_t len, char *kept, size_t klen)
{
	int first = 0;
	left[0] = kept[0] = 0;
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		struct pmon_journal_entry theirs[sizeof(bx->saved) / sizeof(bx->saved[0]) + 1];
		int bad = 0, ntheirs = 0;
		for (int i = 0; i < bx->nsaved; i++) {
			struct saved_reg *r = &bx->saved[i];
			r->written = 0;
			expect_written(bx, i);
			if (r->taken && !r->back) {
				keep_theirs(bx, r->kind, r->idx, r->found, kept, klen, theirs, &ntheirs);
				continue;
			}
			if (r->kind == REG_FILTER && hand_over(s, bx, r)) {
				/* the other users' fields alone stay */
				bad |= put_back(s, bx, REG_FILTER, r->idx, others_filter(s, bx, r->idx), left,
						len, &first) != 0;
				continue;
			}
			if (r->kind == REG_BOX_CTL && hand_over(s, bx, r)) {
				/* the box counts on for the others */
				bad |= put_back(s, bx, REG_BOX_CTL, 0, PMON_BOX_FRZ_EN, left, len, &first) != 0;
				continue;
			}
			bad |= put_back(s, bx, r->kind, r->idx, r->value, left, len, &first) != 0;
		}
		if (is_core(bx) && bx->global_bits) {
			if (bx->global_taken)
				keep_theirs(bx, REG_GLOBAL_CTL, 0, bx->global_found, kept, klen, theirs,
					    &ntheirs);
			else
				bad |= put_back(s, bx, REG_GLOBAL_CTL, 0, 0, left, len, &first) != 0;
			bx->global_on = 0;
		}
		/* `pmon reset` must not put the original back over the other
		 * agent's value either */
		if (ntheirs && !s->m->emulated) {
			char why[1024];
			int rc = pmon_journal_disown(s->m->run_dir, bx->regs.socket, theirs, ntheirs, why,
						     sizeof(why));
			if (rc) {
				/* the journal's lines stay: `pmon reset` finds those
				 * registers holding something else than what pmon
				 * wrote and leaves them */
				bad = 1;
				pmon_why_add(s->warn, sizeof(s->warn), "; ", "%s: cannot mark the registers "
					     "another agent took as its own in the journal (%s); `pmon reset` "
					     "leaves them all the same (they no longer hold what pmon wrote)",
					     pmon_catalog_pmu(bx->regs.pmu)->name, why);
			}
		}
		/* the last user of the box in this machine: its journal lines go,
		 * unless something stayed changed (`pmon reset` needs them then) */
		bx->drop_lines = bx->locked && !bad && !s->m->emulated &&
				 pmon_boxlock_refs(&s->m->locks, bx->lock) == own_refs(s, bx);
	}
	drop_lines(s);
	/* the box locks go last: another process taking a box journals its
	 * registers only once this process's lines of them are gone */
	for (int b = 0; b < s->nboxes; b++)
		if (s->boxes[b].locked) {
			pmon_boxlock_drop(&s->m->locks, s->boxes[b].lock);
			s->boxes[b].locked = 0;
		}
	return first;
}

/* The error of an operation that ended with restore_all(): rc and s->err
 * describe what failed first, rr and left what stayed changed, kept what
 * was left to another agent (PMON_EBUSY when nothing failed before). */
static int restore_error(pmon_session_t *s, int rc, int rr, const char *left, const char *kept)
{
	if (!rr && !kept[0])
		return rc;
	char first[sizeof(s->err)];
	if (rc)
		snprintf(first, sizeof(first), "%s", s->err);
	else if (kept[0])
		snprintf(first, sizeof(first), "another agent changed registers pmon wrote");
	else
		first[0] = 0;
	int code = rc ? rc : kept[0] ? PMON_EBUSY : rr;
	s->err[0] = 0;
	pmon_why_add(s->err, sizeof(s->err), "", "%s", first);
	if (kept[0])
		pmon_why_add(s->err, sizeof(s->err), "; ", "left as another agent set them (neither this "
			     "stop nor `pmon reset` writes them): %s%s", kept,
			     rr ? "" : "; every other register pmon changed was put back");
	if (rr)
		pmon_why_add(s->err, sizeof(s->err), "; ", "registers left changed after retries: %s; "
			     "`pmon reset` puts them back once the device answers", left);
	return code;
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
 * freeze bits read back what pmon wrote, verify() checks them like the other
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
			expect_written(bx, i);
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
		if (!uses_filter(s, e->box, r))
			continue;
		/* fields of several events merge, those of other running
		 * sessions' events too: they agree where they overlap */
		uint64_t v = others_filter(s, bx, r);
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

/* The UBox has no freeze and the core PMU is gated by GLOBAL_CTRL: both are
 * programmed after the starting values are taken. */
static int late(const struct sess_box *bx) { return !freezable(bx) && !is_core(bx); }

/* Fold-time bookkeeping of a session about to run. */
static int fold_setup(pmon_session_t *s)
{
	int width = 64;
	for (int i = 0; i < s->n; i++) {
		const struct pmon_box_type *t = s->boxes[s->ev[i].box].regs.t;
		int w = s->ev[i].counter < 0 ? t->fixed_width : t->width;
		if (w < width)
			width = w;
	}
	s->bound_ns = pmon_fold_bound_ns(width);
	s->fault = 0;
	s->last_fold = s->last_verify = s->seen_at = pmon_clock_ns(s->m->acc);
	set_fast_until(s);
	return pmon_fold_need(&s->m->fold, pmon_fold_period_ns(width));
}

static int start_locked(pmon_session_t *s)
{
	int rc;
	char left[1024], kept[1024];
	if ((rc = prepare(s)) || (rc = plan_reads(s)) || (rc = journal_boxes(s))) {
		release_locks(s);
		return rc;
	}
	if ((rc = freeze_all(s, PMON_BOX_FRZ_EN | PMON_BOX_FRZ)))
		goto undo;
	for (int i = 0; i < s->n; i++)
		if (!late(&s->boxes[s->ev[i].box]) && (rc = program(s, &s->ev[i])))
			goto undo;
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
		if (is_core(&s->boxes[b]) && s->boxes[b].global_bits &&
		    (rc = global_update(s, &s->boxes[b], 1)))
			goto undo;
		s->boxes[b].global_on = s->boxes[b].global_bits != 0;
	}
	if ((rc = freeze_all(s, PMON_BOX_FRZ_EN)) || (rc = box_ctl_readable(s)))
		goto undo;
	if ((rc = journal_wrote(s)))
		goto undo;
	if ((rc = fold_setup(s))) {
		pmon_why(s->err, sizeof(s->err), rc, "cannot start the fold thread of the machine");
		goto undo;
	}
	static uint64_t starts;
	s->owner_at = s->last_fold;   /* counting began (the boxes unfrozen) just before */
	s->seq = __atomic_add_fetch(&starts, 1, __ATOMIC_RELAXED);
	s->running = 1;
	return PMON_OK;
undo:
	return restore_error(s, rc, restore_all(s, left, sizeof(left), kept, sizeof(kept)), left, kept);
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

/* While the session runs, its fold state (each event's last and total,
 * last_fold, last_verify, fast_until, fault) changes only between fold_begin and
 * fold_end, under the registry lock (start sets it before running is set,
 * in the owner's thread, which alone reads without the lock);
 * read_unlocked() reads it without the lock and keeps what it read only
 * when fold_seq was the same even count before and after.  The stores it
 * may race with are atomic (relaxed: the count orders them). */
static void fold_begin(pmon_session_t *s)
{
	__atomic_store_n(&s->fold_seq, s->fold_seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void fold_end(pmon_session_t *s)
{
	__atomic_store_n(&s->fold_seq, s->fold_seq + 1, __ATOMIC_RELEASE);
}

/* The most a counter can count in ns of the backend's clock: a PMON box
 * counts at most PMON_FOLD_MAX_INC a cycle of a clock of at most
 * PMON_FOLD_MAX_HZ (fold.h), twice that for a margin; an event's slack
 * is added to it.  Saturates. */
static inline uint64_t plausible_ns(uint64_t ns)
{
	const uint64_t per_ns = 2 * PMON_FOLD_MAX_HZ / 1000000000u * PMON_FOLD_MAX_INC;
	return ns > UINT64_MAX / per_ns ? UINT64_MAX : ns * per_ns;
}

/* Could e's counter have gone from 'from' to raw in a time allowing lim
 * counts (plausible_ns)? */
static inline int plausible(const struct sess_event *e, uint64_t from, uint64_t raw, uint64_t lim)
{
	uint64_t d = (raw - from) & e->wmask;
	return d <= lim || d - lim <= e->slack;
}

/* The counters who read at now against the last fold's values, and, for
 * the owner, against its own last read (seen, seen_at: a reset of the
 * box's counters to below the fold's values shows only so).  The first
 * event whose counter could not have got there, or -1. */
static int first_implausible(const pmon_session_t *s, enum reader who, uint64_t now,
			     uint64_t *from, uint64_t *ns)
{
	uint64_t lim = plausible_ns(now - s->last_fold);
	int own = who == BY_OWNER && now >= s->seen_at;
	uint64_t lim_seen = own ? plausible_ns(now - s->seen_at) : 0;
	for (int i = 0; i < s->n; i++) {
		const struct sess_event *e = &s->ev[i];
		uint64_t raw = *e->raw[who];
		if (!plausible(e, e->last, raw, lim)) {
			*from = e->last;
			*ns = now - s->last_fold;
			return i;
		}
		if (own && !plausible(e, e->seen, raw, lim_seen)) {
			*from = e->seen;
			*ns = now - s->seen_at;
			return i;
		}
	}
	return -1;
}

/* A count more than the box can count in the time since an earlier value
 * was read: another agent rewrote the counter or reset the box's counters
 * (through its box control) behind pmon's back, like a takeover of a
 * control.  The fault (PMON_EBUSY) naming the first such counter. */
static __attribute__((noinline, cold)) int implausible(pmon_session_t *s, enum reader who, int i,
						       uint64_t from, uint64_t ns, char *err,
						       size_t errlen)
{
	const struct sess_event *e = &s->ev[i];
	const struct sess_box *bx = &s->boxes[e->box];
	uint64_t raw = *e->raw[who], d = (raw - from) & e->wmask, lim = plausible_ns(ns);
	char name[160];
	pmon_reg_name(&bx->regs, e->counter < 0 ? REG_FIXED_CTR : REG_CTR,
		      e->counter < 0 ? 0 : e->counter, name, sizeof(name));
	SET(s->fault, PMON_EBUSY);
	snprintf(s->fault_msg, sizeof(s->fault_msg), "%s (%s) went from 0x%llx to 0x%llx: %llu "
		 "counts in %llu ns, more than the box can count in that time (at most %llu: "
		 "%llu GHz x %u a cycle, x2, plus %s): another agent "
		 "(perf, another tool) rewrote the counter or reset the box's counters through "
		 "its box control while pmon was counting, so the counts are not trustworthy "
		 "and none is returned", name, e->enc.name, (unsigned long long)from,
		 (unsigned long long)raw, (unsigned long long)d, (unsigned long long)ns,
		 (unsigned long long)(lim > UINT64_MAX - e->slack ? UINT64_MAX : lim + e->slack),
		 (unsigned long long)(PMON_FOLD_MAX_HZ / 1000000000u), PMON_FOLD_MAX_INC,
		 s->m->emulated ? "1/16 of the counter's range" : "2^26");
	return pmon_why(err, errlen, PMON_EBUSY, "%s", s->fault_msg);
}

/* Fold the counters read_counters() has just read into the totals (values:
 * the totals, when no fault).  A gap since the last fold longer than the
 * bound makes the totals unknown (PMON_ESTALE until a reset); the baselines
 * move on regardless. */
static int accumulate(pmon_session_t *s, enum reader who, uint64_t now, uint64_t *values, char *err,
		      size_t errlen)
{
	if (!s->fault && now - s->last_fold > s->bound_ns) {
		SET(s->fault, PMON_ESTALE);
		snprintf(s->fault_msg, sizeof(s->fault_msg),
			 "no fold of the counters for %.1f s (was the process stopped, or the machine "
			 "suspended?), longer than the %.1f s in which a counter of this session "
			 "can wrap, so the totals are unknown; a reset (pmon_session_reset, PAPI_reset) "
			 "counts again from zero", (double)(now - s->last_fold) / 1e9,
			 (double)s->bound_ns / 1e9);
	}
	uint64_t from, ns;
	int bad = s->fault ? -1 : first_implausible(s, who, now, &from, &ns);
	if (bad >= 0)
		return implausible(s, who, bad, from, ns, err, errlen);
	for (int i = 0; i < s->n; i++) {
		struct sess_event *e = &s->ev[i];
		uint64_t raw = *e->raw[who];
		SET(e->total, e->total + ((raw - e->last) & e->wmask));
		SET(e->last, raw);
		if (who == BY_OWNER)
			e->seen = raw;
	}
	if (who == BY_OWNER)
		s->seen_at = now;
	SET(s->last_fold, now);
	if (who == BY_OWNER)
		s->owner_at = now;
	set_fast_until(s);
	if (s->fault)
		return pmon_why(err, errlen, s->fault, "%s", s->fault_msg);
	for (int i = 0; values && i < s->n; i++)
		values[i] = s->ev[i].total;
	return PMON_OK;
}

/* The pid of a process that took a box of the session by force
 * (PMON_FORCE=1) while the session held it, and *box the box; else 0. */
static inline uint32_t forced_by(const pmon_session_t *s, int *box)
{
	for (int b = 0; b < s->nboxes; b++) {
		const volatile uint32_t *f = s->boxes[b].forced;
		uint32_t pid = f ? __atomic_load_n(f, __ATOMIC_RELAXED) : 0;
		if (__builtin_expect(pid != 0, 0)) {
			*box = b;
			return pid;
		}
	}
	return 0;
}

/* Check and fold a running session (registry lock held); the reason goes to
 * err (errlen bytes): the session's own for its caller, another for the
 * machine's fold, which must not write the session's reason. */
static int fold_checked(pmon_session_t *s, enum reader who, uint64_t *values, int full,
			const uint64_t *read_at, char *err, size_t errlen)
{
	int fb;
	uint32_t by = s->fault ? 0 : forced_by(s, &fb);
	if (by) {
		SET(s->fault, PMON_EBUSY);
		snprintf(s->fault_msg, sizeof(s->fault_msg), "%s was taken by force: process %u "
			 "started counting on it with PMON_FORCE=1 while this session held it, so "
			 "this session's counts (and the other's) are not trustworthy and none is "
			 "returned", s->boxes[fb].lock, by);
	}
	if (s->fault)
		return pmon_why(err, errlen, s->fault, "%s", s->fault_msg);
	uint64_t now = read_at ? *read_at : 0;
	int rc = read_at ? PMON_OK : read_counters(s, who, &now, err, errlen);
	if (now - s->last_verify >= PMON_VERIFY_NS)
		full = 1;                 /* full: a fold or stop, or the check is due */
	if (!rc)
		rc = full ? verify(s, who, 1, err, errlen) : verify_read(s, who, err, errlen);
	if (rc == PMON_EBUSY) {
		SET(s->fault, rc);
		snprintf(s->fault_msg, sizeof(s->fault_msg), "%s", err);
		return rc;
	}
	if (rc)
		return rc;
	if (full) {
		SET(s->last_verify, now);
		set_fast_until(s);
	}
	return accumulate(s, who, now, values, err, errlen);
}

/* read_at: who's counters are read already, at that instant (else read). */
static int check_and_fold(pmon_session_t *s, enum reader who, uint64_t *values, int full,
			  const uint64_t *read_at, char *err, size_t errlen)
{
	fold_begin(s);
	int rc = fold_checked(s, who, values, full, read_at, err, errlen);
	fold_end(s);
	return rc;
}

void pmon_sessions_fold(void *mv)
{
	struct pmon_machine *m = mv;
	pmon_registry_lock(&m->sessions);
	for (int i = 0; i < pmon_registry_count(&m->sessions); i++) {
		pmon_session_t *s = pmon_registry_item(&m->sessions, i);
		char why[sizeof(s->err)];
		if (s->running)
			check_and_fold(s, BY_FOLD, NULL, 1, NULL, why, sizeof(why));
	}
	pmon_registry_unlock(&m->sessions);
}

/* What read_unlocked() did. */
enum unlocked { SERVED, NOT_READ, READ_ONLY, FAILED };

/* A read of a running session by its owner that takes no lock: the
 * counters through the owner's plan, the totals computed from the last fold
 * without moving it, and no fold (the machine's, a reset) in between:
 * fold_seq the same even count before and after.  SERVED: values are the
 * totals.  Else the locked read finishes (values rewritten): READ_ONLY, the
 * counters read at *at are the owner's to fold, unless a fold came since
 * (fold_seq no longer *seq), when a step needs the lock: a fault to report,
 * a full check due, or the last fold older than half the bound (a delta
 * that could have wrapped); NOT_READ, the locked read starts over, as when
 * a checked control differs (another session starting on a shared box may
 * be half-way: the lock waits for it), or a fault is to be reported.
 * FAILED: the counters could not be read (*rc, s->err say why), as the
 * locked read would have said: a failed access is reported, never retried. */
static inline __attribute__((always_inline)) enum unlocked read_unlocked(pmon_session_t *s,
									  uint64_t *values,
									  unsigned *seq,
									  uint64_t *at, int *rc)
{
	int fb;
	*seq = __atomic_load_n(&s->fold_seq, __ATOMIC_ACQUIRE);
	if ((*seq & 1) || GET(s->fault) || forced_by(s, &fb))
		return NOT_READ;
	if ((*rc = read_counters(s, BY_OWNER, at, s->err, sizeof(s->err))))
		return FAILED;
	if (!blocks_intact(s, BY_OWNER))
		return NOT_READ;
	if (*at > GET(s->fast_until))
		return READ_ONLY;
	/* more than the box can count since the last fold or this owner's
	 * last read: the locked read reports it */
	uint64_t lim = plausible_ns(*at - GET(s->last_fold)), lim_seen = plausible_ns(*at - s->seen_at);
	if (__builtin_expect(*at < s->seen_at, 0))
		return READ_ONLY;
	for (const struct sess_event *e = s->ev, *end = e + s->n; e < end; e++) {
		uint64_t raw = *e->raw[BY_OWNER], last = GET(e->last);
		if (__builtin_expect(!plausible(e, last, raw, lim) || !plausible(e, e->seen, raw, lim_seen), 0))
			return READ_ONLY;
		if (values)
			*values++ = GET(e->total) + ((raw - last) & e->wmask);
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (GET(s->fold_seq) != *seq)
		return NOT_READ;
	for (struct sess_event *e = s->ev, *end = e + s->n; e < end; e++)
		e->seen = *e->raw[BY_OWNER];
	s->seen_at = *at;
	return SERVED;
}

/* The read under the sessions' lock, after read_unlocked() said how far it
 * got (seq, at: what it saw). */
static __attribute__((noinline)) int read_locked(pmon_session_t *s, uint64_t *values,
						 enum unlocked how, unsigned seq, uint64_t at)
{
	pmon_registry_lock(&s->m->sessions);
	int rc = PMON_OK;
	if (s->running)
		rc = check_and_fold(s, BY_OWNER, values, 0,
				    how == READ_ONLY && s->fold_seq == seq ? &at : NULL, s->err,
				    sizeof(s->err));
	else
		for (int i = 0; values && i < s->n; i++)
			values[i] = s->ev[i].total;
	pmon_registry_unlock(&s->m->sessions);
	return rc;
}

int pmon_session_read(pmon_session_t *s, uint64_t *values)
{
	enum unlocked how = NOT_READ;
	unsigned seq = 0;
	uint64_t at = 0;
	int rc = PMON_OK;
	if (s->running && (how = read_unlocked(s, values, &seq, &at, &rc)) == SERVED) {
		s->owner_at = at;
		return PMON_OK;
	}
	return how == FAILED ? rc : read_locked(s, values, how, seq, at);
}

uint64_t pmon_session_read_ns(const pmon_session_t *s)
{
	return s->owner_at;
}

int pmon_session_reset(pmon_session_t *s)
{
	int rc = PMON_OK;
	pmon_registry_lock(&s->m->sessions);
	fold_begin(s);
	if (s->running) {
		if (s->fault == PMON_ESTALE)
			SET(s->fault, 0);         /* the totals restart from here */
		uint64_t now = 0;
		if (!(rc = read_counters(s, BY_OWNER, &now, s->err, sizeof(s->err))) &&
		    !(rc = verify(s, BY_OWNER, 1, s->err, sizeof(s->err)))) {
			SET(s->last_verify, now);
			set_fast_until(s);
			rc = accumulate(s, BY_OWNER, now, NULL, s->err, sizeof(s->err));
			if (rc == PMON_ESTALE) {
				SET(s->fault, 0);
				rc = PMON_OK;
			}
		}
	}
	if (!rc)
		for (int i = 0; i < s->n; i++)
			SET(s->ev[i].total, 0);
	fold_end(s);
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
	 * boxes are frozen for the final read only when none was */
	int rc = find_taken(s, s->err, sizeof(s->err));
	if (s->fault)
		rc = pmon_why(s->err, sizeof(s->err), s->fault, "%s", s->fault_msg);
	if (!rc)
		rc = freeze_all(s, PMON_BOX_FRZ_EN | PMON_BOX_FRZ);
	if (!rc && (rc = check_and_fold(s, BY_OWNER, values, 1, NULL, s->err, sizeof(s->err))) == PMON_EBUSY) {
		/* the final check stops at the first change: mark every one */
		char why[sizeof(s->err)];
		find_taken(s, why, sizeof(why));
	}
	s->running = 0;
	s->warn[0] = 0;
	rc = restore_error(s, rc, restore_all(s, left, sizeof(left), kept, sizeof(kept)), left, kept);
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
