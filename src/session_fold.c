/*
 * session_fold.c - wrap folding and the reads.
 *
 * read: per counter, delta = (raw - last) mod 2^width, total += delta; so a
 * counter may wrap once between reads and the 64-bit total stays exact.
 * The machine folds running sessions well within their counters' wrap time
 * (fold.h); a read after a longer gap fails with PMON_ESTALE.  The owner's
 * read takes no lock when it can (read_unlocked).
 */
#include <stdio.h>

#include "session_internal.h"

/* A read by the owner without the lock (read_unlocked) keeps the fold state
 * as it is while the backend clock is at most fast_until: a fold is due
 * when the last is older than half the bound (what keeps (raw - last) from
 * having wrapped), and a full check (which folds too) PMON_VERIFY_NS after
 * the last.  Set with last_fold and last_verify (both at most the clock of
 * any later read, so the differences the rules speak of are the same as
 * this bound). */

static void set_fast_until(pmon_session_t *s)
{
	uint64_t fold = s->last_fold + s->bound_ns / 2, check = s->last_verify + PMON_VERIFY_NS - 1;
	SET(s->fast_until, fold < check ? fold : check);
}

/* Fold-time bookkeeping of a session about to run. */
int sess_fold_setup(pmon_session_t *s)
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
		rc = full ? sess_verify(s, who, 1, err, errlen) : sess_verify_read(s, who, err, errlen);
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
int sess_check_and_fold(pmon_session_t *s, enum reader who, uint64_t *values, int full,
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
			sess_check_and_fold(s, BY_FOLD, NULL, 1, NULL, why, sizeof(why));
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
		rc = sess_check_and_fold(s, BY_OWNER, values, 0,
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
		    !(rc = sess_verify(s, BY_OWNER, 1, s->err, sizeof(s->err)))) {
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
